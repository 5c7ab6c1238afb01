"""A diagram file as a scene: its pieces named by a stable reference (a card's `id`, or its `name` where that is
unique; a board's side id), placed on cells, with arrows, labels and marks. No drawing: `rulebook.diagrams` draws
a scene's faces, `pnpgen.rules` holds it against the game's rules (`facts.yaml`'s `rules`).

A card is never named by its place in its component's list: moving a card in its file changes no diagram. An
unknown or ambiguous name is an error at the diagram's own line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnpgen.errors import Diagnostics, Location, column_letters, did_you_mean
from pnpgen.schema.diagrams import ARROW, DIAGRAM, GRID, LABEL, MARK, PIECE
from pnpgen.schema.pictured import card_index
from pnpgen.source import LMap


@dataclass(frozen=True)
class ScenePiece:
    component: Any  # the Deck or Board it comes from
    index: int  # 0-based: the card of a deck, the side of a board
    card: Any  # the Card (None for a board's side)
    at: tuple[float, float]  # its cell (col, row), halves allowed
    back: bool
    size_pt: float | None  # its longer side as drawn; None: its true size
    rotate: float
    loc: Location

    def fields(self) -> dict:
        """What a rule sees of it: the card's (or side's) fields, its component, where it is, how it lies."""
        comp = self.component
        own = self.card.fields if self.card is not None else comp.sides[self.index].fields
        return {
            **dict(own),
            "component": comp.id,
            "col": self.at[0],
            "row": self.at[1],
            "back": self.back,
            "rotate": self.rotate,
        }


@dataclass(frozen=True)
class SceneArrow:
    start: tuple[float, float]
    end: tuple[float, float]
    label: str | None
    colour: str
    dashed: bool
    kind: str | None
    loc: Location
    measure: str | None = None  # its label is this measure of facts.yaml


@dataclass(frozen=True)
class SceneLabel:
    at: tuple[float, float]
    text: str
    size: float
    colour: str
    loc: Location
    measure: str | None = None  # the label shows this measure of facts.yaml after its text


@dataclass
class Scene:
    id: str
    top: Any  # the diagram's checked keys (`Values`)
    grid: Any  # the grid's checked keys (`Values`)
    data: LMap
    pieces: list[ScenePiece] = field(default_factory=list)
    arrows: list[SceneArrow] = field(default_factory=list)
    labels: list[SceneLabel] = field(default_factory=list)
    marks: list = field(default_factory=list)  # (cell, fill, cross, where the file places it)

    @property
    def illegal(self) -> bool:
        return bool(self.top["shows"] == "illegal")


def read_scene(game, diagram_id: str, data, display: str, diags: Diagnostics) -> Scene | None:
    """A diagram file's located mapping -> its scene (None, with the problems in `diags`, when it is wrong)."""
    if not isinstance(data, LMap):
        diags.error(Location(display, 1, 1), "a diagram file must be a mapping with 'caption', 'grid', ...")
        return None
    before = len(diags.errors)
    top = DIAGRAM.read(data, diags)
    if len(diags.errors) > before:
        return None
    g = GRID.read(top["grid"], diags, "the diagram's grid")
    if len(diags.errors) > before:
        return None
    scene = Scene(diagram_id, top, g, data)
    comps = {c.id: c for c in game.components}
    items = top["pieces"] or []
    for i in range(len(items)):
        p = _item(PIECE, items, i, "piece", diags)
        if p and _on_grid(p, "at", g, diags):
            piece = _piece(p, comps, diags)
            if piece is not None:
                scene.pieces.append(piece)
    for i in range(len(top["arrows"] or [])):
        a = _item(ARROW, top["arrows"], i, "arrow", diags)
        if a and _on_grid(a, "from", g, diags) and _on_grid(a, "to", g, diags):
            if a["measure"] is not None and a["label"] is not None:
                diags.error(a.loc_of("label"), "an arrow has a 'label' or a 'measure', not both")
            scene.arrows.append(
                SceneArrow(
                    a["from"], a["to"], a["label"], a["colour"], a["dashed"], a["kind"], a.loc, a["measure"]
                )
            )
    for i in range(len(top["labels"] or [])):
        lab = _item(LABEL, top["labels"], i, "label", diags)
        if lab and _on_grid(lab, "at", g, diags):
            if lab["text"] is None and lab["measure"] is None:
                diags.error(lab.loc, "a diagram label needs its 'text' (or a 'measure' to show)")
                continue
            text = lab["text"] or ""
            scene.labels.append(
                SceneLabel(lab["at"], text, lab["size"], lab["colour"], lab.loc, lab["measure"])
            )
    for i in range(len(top["marks"] or [])):
        m = _item(MARK, top["marks"], i, "mark", diags)
        if m and _on_grid(m, "at", g, diags):
            scene.marks.append((m["at"], m["fill"], m["cross"], m.loc))
    return scene if len(diags.errors) == before else None


def _item(table, items, i: int, what: str, diags: Diagnostics):
    value = items[i]
    if not isinstance(value, LMap):
        diags.error(items.loc_at(i), f"a diagram {what} must be a mapping such as {_EXAMPLE[what]}")
        return None
    out = table.read(value, diags, f"diagram {what} {i + 1}")
    return out if out.ok else None


_EXAMPLE = {
    "piece": "{piece: worshipers, card: Mystic, at: C4}",
    "arrow": "{from: C4, to: E4}",
    "label": "{at: C4, text: '1'}",
    "mark": "{at: C4}",
}


def _on_grid(values, key: str, g, diags: Diagnostics) -> bool:
    col, row = values[key]
    if 0.5 <= col <= g["cols"] + 0.5 and 0.5 <= row <= g["rows"] + 0.5:
        return True
    last = column_letters(g["cols"])
    diags.error(
        values.loc_of(key),
        f"cell {_show(values.data[key])} is outside the {g['cols']} x {g['rows']} grid "
        f"(columns A to {last}, rows 1 to {g['rows']})",
    )
    return False


def _show(value) -> str:
    return f"'{value}'" if isinstance(value, str) else "[" + ", ".join(str(v) for v in value) + "]"


def _piece(p, comps: dict, diags: Diagnostics) -> ScenePiece | None:
    comp = comps.get(p["piece"])
    if comp is None:
        diags.error(
            p.loc_of("piece"), f"no component '{p['piece']}' to place", did_you_mean(p["piece"], comps)
        )
        return None
    if comp.kind == "board":  # a board laid on the table (a strip, a small board): `card` names its side
        sides = [s.id for s in comp.sides]
        ref = p["card"] if p["card"] is not None else (sides[0] if len(sides) == 1 else None)
        if ref not in sides or p["back"]:
            diags.error(
                p.loc_of("back" if p["back"] else "card" if "card" in p.given else "piece"),
                f"board '{comp.id}' is placed by its side: 'card' is one of {', '.join(sides)}",
                did_you_mean(str(ref), sides) if isinstance(ref, str) else "",
            )
            return None
        return ScenePiece(comp, sides.index(ref), None, p["at"], False, p["size"], p["rotate"], p.loc)
    index = card_index(comp, p["card"], p["back"], p.loc_of("card" if "card" in p.given else "piece"), diags)
    if index is None:
        return None
    card = comp.cards[index]
    return ScenePiece(comp, index, card, p["at"], p["back"], p["size"], p["rotate"], p.loc)
