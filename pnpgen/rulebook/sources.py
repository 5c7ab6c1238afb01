"""Rulebook sources: found and read through the reader, rendered as sandboxed Jinja over the content, with every
value of the content they read recorded (see `pnpgen.recorded`)."""

from __future__ import annotations

from pathlib import Path

from pnpgen.errors import display_path
from pnpgen.names import is_name, listed
from pnpgen.textfiles import plain_text
from pnpgen.units import MM

MAX_RULEBOOK_BYTES = 2_000_000


def find_sources(root: Path, reader=None) -> list[Path]:
    """`rulebook.md`, or else every .md file of `rulebook/` in name order; the lookups are recorded."""
    if reader is None:
        single = root / "rulebook.md"
        return (
            [single]
            if single.is_file()
            else [root / "rulebook" / n for n in listed(root / "rulebook", "*.md")]
        )
    if reader.probe(root / "rulebook.md", "rulebook source"):
        return [root / "rulebook.md"]
    return reader.listing(root / "rulebook", "*.md", "rulebook folder")


def read_source(path: Path, reader=None) -> str:
    """A rulebook source's text, through the reader (confined, bounded, recorded) when one is given."""
    if reader is None:
        return plain_text(path.read_text(encoding="utf-8"))
    return reader.read_text(path, "rulebook source", limit=MAX_RULEBOOK_BYTES)


def component_info(game) -> dict:
    out = {}
    for comp in game.components:
        pieces = getattr(comp, "cards", None)
        out[comp.id] = {
            "id": comp.id,
            "name": comp.name,
            "kind": comp.kind,
            "faces": comp.faces,
            "shape": getattr(comp, "shape", "rect"),
            "size_mm": (round(comp.width_pt / MM, 1), round(comp.height_pt / MM, 1)),
            "cards": (
                [{"name": c.name, "count": c.count, **dict(c.fields)} for c in pieces]
                if pieces is not None
                else [{"count": 1, **dict(s.fields)} for s in comp.sides]
            ),
        }
    return out


def template_data(game) -> dict:
    """What a rulebook's templates see of the content (besides the picture() and component_table() calls)."""
    return {
        "game": {"id": game.id, "title": game.title, "players": game.players, "credits": game.credits},
        "components": component_info(game),
    }


SCOPE = "rulebook:"


def render_source(path: Path, game, reader=None) -> str:
    from pnpgen.recorded import View

    display = display_path(path)
    text = read_source(path, reader)
    data = template_data(game)
    components = data["components"]

    def note(key: str, value) -> None:
        if reader is not None:
            reader.note_value(SCOPE + key, value)

    def picture(component_id: str, card: str | None = None) -> str:
        if component_id not in components:
            raise ValueError(
                f"picture(): no component '{component_id}' (components: {', '.join(components)})"
            )
        if card is not None and (not isinstance(card, str) or not card):
            raise ValueError(f"picture(): a card is named by its id or name, not by {card!r}")
        note(f"components/{component_id}/name", components[component_id]["name"])  # the caption
        named = f" {card.encode('utf-8').hex()}" if card is not None else ""  # read back by the parser
        return f"%%pnpgen picture {component_id}{named}%%"  # no line breaks: later lines keep their numbers

    def diagram(diagram_id: str) -> str:
        if not isinstance(diagram_id, str) or not is_name(diagram_id):
            raise ValueError(
                f"diagram(): {diagram_id!r} is not a diagram's id (its file: diagrams/<id>.yaml)"
            )
        return f"%%pnpgen diagram {diagram_id}%%"  # read, checked and recorded by load_rulebook

    def component_table() -> str:
        view = View(components, "components", note)
        for cid in view:  # what the table prints of each component
            for key in ("name", "kind", "faces", "shape", "size_mm"):
                view[cid][key]
            len(view[cid]["cards"])
        return "%%pnpgen components%%"

    names = {
        "game": View(data["game"], "game", note),
        "components": View(components, "components", note),
        "picture": picture,
        "diagram": diagram,
        "component_table": component_table,
    }
    return render_document(text, names, display)


def render_document(text: str, names: dict, display: str) -> str:
    """`templating.jinja.render_document`, imported when a rulebook is rendered: a game without one never loads
    Jinja."""
    from pnpgen.templating.jinja import render_document as render

    return render(text, names, display)
