"""Rulebook sources: Markdown with Jinja over the game's content -> a small block model.

`content/<game>/rulebook.md` (or every .md file of `content/<game>/rulebook/`, in name order) is rendered as a
sandboxed Jinja template -- so counts come from the content and cannot disagree with the cards -- then parsed
with markdown-it-py. No reportlab here: `render/book.py` draws the blocks.

Template names: `game` (id, title, players, credits), `components` (by id: name, kind, faces, cards), and
`picture(id)` / `component_table()`, which place a drawing of a component's first card (front and back) and the
table of all components.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.errors import Diagnostics, Location, display_path
from pnpgen.templating import render_document
from pnpgen.units import MM

_MARKER = re.compile(r"^%%pnpgen (picture|components)(?: ([a-z0-9_-]+))?%%$")
MAX_RULEBOOK_BYTES = 2_000_000


@dataclass
class Heading:
    level: int  # 1 title, 2 chapter, 3 section, 4 unnumbered
    text: str
    number: str
    line: int


@dataclass
class Para:
    text: str  # inline markup: **bold**, *italic*, :icon:
    line: int


@dataclass
class ListBlock:
    ordered: bool
    start: int
    items: list  # each a list of blocks


@dataclass
class TableBlock:
    header: list
    rows: list
    line: int


@dataclass
class Quote:
    blocks: list
    kind: str  # "example" | "note" | "quote"


@dataclass
class Picture:
    component: str
    line: int


@dataclass
class ComponentTable:
    line: int


@dataclass
class Rule:
    pass


@dataclass
class Rulebook:
    path: Path
    title: str
    blocks: list = field(default_factory=list)

    def headings(self) -> list[Heading]:
        return [b for b in self.blocks if isinstance(b, Heading)]


def find_sources(root: Path, reader=None) -> list[Path]:
    """`rulebook.md`, or else every .md file of `rulebook/` in name order; the lookups are recorded."""
    if reader is None:
        single = root / "rulebook.md"
        return [single] if single.is_file() else sorted((root / "rulebook").glob("*.md"))
    if reader.probe(root / "rulebook.md"):
        return [root / "rulebook.md"]
    return reader.listing(root / "rulebook", "*.md")


def read_source(path: Path, reader=None) -> str:
    """A rulebook source's text, through the reader (confined, bounded, recorded) when one is given."""
    if reader is None:
        return path.read_text(encoding="utf-8")
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

    def picture(component_id: str) -> str:
        if component_id not in components:
            raise ValueError(
                f"picture(): no component '{component_id}' (components: {', '.join(components)})"
            )
        note(f"components/{component_id}/name", components[component_id]["name"])  # the caption
        return f"\n\n%%pnpgen picture {component_id}%%\n\n"

    def component_table() -> str:
        view = View(components, "components", note)
        for cid in view:  # what the table prints of each component
            for key in ("name", "kind", "faces", "shape", "size_mm"):
                view[cid][key]
            len(view[cid]["cards"])
        return "\n\n%%pnpgen components%%\n\n"

    names = {
        "game": View(data["game"], "game", note),
        "components": View(components, "components", note),
        "picture": picture,
        "component_table": component_table,
    }
    return render_document(text, names, display)


def parse(text: str, path: Path, diags: Diagnostics) -> Rulebook:
    from markdown_it import MarkdownIt  # only when a rulebook is actually parsed

    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(text)
    book = Rulebook(path, title="")
    counters = [0, 0, 0]
    pos = 0

    def blocks_until(end_type: str | None) -> list:
        nonlocal pos
        out = []
        while pos < len(tokens):
            tok = tokens[pos]
            line = (tok.map[0] + 1) if tok.map else 0
            if end_type and tok.type == end_type:
                pos += 1
                return out
            if tok.type == "heading_open":
                level = int(tok.tag[1])
                inline = _inline(tokens[pos + 1])
                pos += 3
                number = ""
                if level == 1:
                    book.title = book.title or inline
                elif level in (2, 3):
                    idx = level - 2
                    counters[idx] += 1
                    for j in range(idx + 1, len(counters)):
                        counters[j] = 0
                    number = ".".join(str(c) for c in counters[: idx + 1])
                out.append(Heading(level, inline, number, line))
            elif tok.type == "paragraph_open":
                inline = _inline(tokens[pos + 1])
                pos += 3
                m = _MARKER.match(inline.strip())
                if m and m.group(1) == "picture":
                    out.append(Picture(m.group(2), line))
                elif m:
                    out.append(ComponentTable(line))
                else:
                    out.append(Para(inline, line))
            elif tok.type in ("bullet_list_open", "ordered_list_open"):
                ordered = tok.type == "ordered_list_open"
                start = int(tok.attrGet("start") or 1) if ordered else 1
                close = "ordered_list_close" if ordered else "bullet_list_close"
                pos += 1
                items = []
                while tokens[pos].type != close:
                    if tokens[pos].type == "list_item_open":
                        pos += 1
                        items.append(blocks_until("list_item_close"))
                    else:
                        pos += 1
                pos += 1
                out.append(ListBlock(ordered, start, items))
            elif tok.type == "blockquote_open":
                pos += 1
                inner = blocks_until("blockquote_close")
                first = inner[0].text if inner and isinstance(inner[0], Para) else ""
                kind = (
                    "note"
                    if "designer" in first.lower()[:40]
                    else "example"
                    if "example" in first.lower()[:30]
                    else "quote"
                )
                out.append(Quote(inner, kind))
            elif tok.type == "table_open":
                header, rows, row = [], [], None
                pos += 1
                while tokens[pos].type != "table_close":
                    t = tokens[pos]
                    if t.type == "tr_open":
                        row = []
                    elif t.type in ("th_open", "td_open"):
                        row.append(_inline(tokens[pos + 1]))
                        pos += 2
                    elif t.type == "tr_close":
                        (rows if header else header).append(row) if header else header.extend(row)
                    pos += 1
                pos += 1
                out.append(TableBlock(header, rows, line))
            elif tok.type == "hr":
                pos += 1
                out.append(Rule())
            elif tok.type in ("fence", "code_block", "html_block"):
                pos += 1
                out.append(Para(tok.content.strip(), line))
            else:
                pos += 1
        return out

    book.blocks = blocks_until(None)
    if not book.title:
        diags.error(Location(display_path(path), 1, 1), "a rulebook needs a '# Title' heading")
    return book


def _inline(tok) -> str:
    """markdown-it inline tokens -> pnpgen's inline markup (**bold**, *italic*, :icon:)."""
    out = []
    for child in tok.children or []:
        t = child.type
        if t == "text":
            out.append(child.content.replace("*", "\u2217"))
        elif t in ("strong_open", "strong_close"):
            out.append("**")
        elif t in ("em_open", "em_close"):
            out.append("*")
        elif t == "code_inline":
            out.append(child.content)
        elif t in ("softbreak",):
            out.append(" ")
        elif t == "hardbreak":
            out.append("\n")
        elif t == "html_inline":
            continue
    return "".join(out).strip()


def load_rulebook(run, diags: Diagnostics):
    """Render and parse the game's rulebook and draw the first card of every deck for its pictures.

    Returns (book, component info, pictures). Everything read is recorded by the run's reader: the sources, the
    layouts and art of the pictures, and the values of the content the text shows."""
    from pnpgen.model import Board

    game, reader = run.game, run.reader
    sources = find_sources(game.root, reader)
    if not sources:
        return None, {}, {}
    for key in ("title", "players", "credits"):  # the cover and the running header
        reader.note_value(f"{SCOPE}game/{key}", getattr(game, key))
    texts = [render_source(src, game, reader) for src in sources]
    book = parse("\n\n".join(texts), sources[0], diags)
    pictures = {}
    for deck in game.components:
        if isinstance(deck, Board):
            continue
        faces = run.first_faces(deck)
        if faces is not None:
            pictures[deck.id] = faces
            reader.note_value(f"{SCOPE}picture/{deck.id}", _snapshot(faces))
    for block in _walk(book.blocks):
        if getattr(block, "component", None) and block.component not in pictures:
            diags.error(
                Location(display_path(book.path), block.line, 1),
                f"picture(): component '{block.component}' has no card to draw",
            )
    return book, component_info(game), pictures


def values_hold(run, inputs: dict) -> bool:
    """Whether the content values a rulebook recorded are still what they were (see `pnpgen.recorded`)."""
    from pnpgen.recorded import value_at, value_digest

    data = None
    by_id = {c.id: c for c in run.game.components}
    for key, digest in inputs.items():
        if not key.startswith("=" + SCOPE):
            continue
        path = key[len(SCOPE) + 1 :]
        if path.startswith("picture/"):
            deck = by_id.get(path[len("picture/") :])
            faces = run.first_faces(deck) if deck is not None else None
            if faces is None or value_digest(_snapshot(faces)) != digest:
                return False
            continue
        data = data if data is not None else template_data(run.game)
        if value_digest(value_at(data, path)) != digest:
            return False
    return True


def _snapshot(faces) -> str:
    return "\n--\n".join(f.snapshot() if f is not None else "" for f in faces)


def _walk(blocks):
    for b in blocks:
        yield b
        for inner in getattr(b, "blocks", []) or []:
            yield from _walk([inner])
        for item in getattr(b, "items", []) or []:
            yield from _walk(item)


_COUNT = r"(?<![\d.])(\d+)\s+(?:\*\*)?"


def check_component_counts(sources: list[Path], game, diags: Diagnostics, reader=None) -> None:
    """In a Components chapter, a number written before a component's name must equal the content's count."""
    for src in sources:
        in_components = False
        for n, line in enumerate(read_source(src, reader).splitlines(), 1):
            if line.startswith("## "):
                in_components = "component" in line.lower()
                continue
            if not in_components:
                continue
            for deck in game.components:
                for name in _names(deck.name):
                    for m in re.finditer(_COUNT + re.escape(name) + r"\b", line, re.IGNORECASE):
                        sentence = re.split(r"[.!?;|]", line[: m.start()])[-1].lower()
                        if re.search(
                            r"\b(each|per|every|deck of|of them|up to|at most|at least)\b", sentence
                        ):
                            continue  # a share or a limit, not the component's total
                        found = int(m.group(1))
                        if found != deck.faces:
                            diags.error(
                                Location(display_path(src), n, m.start(1) + 1),
                                f"the rulebook says {found} {name} but the content has {deck.faces}",
                                "write the count as {{ components['" + deck.id + "'].faces }}",
                            )


def _names(name: str) -> list[str]:
    base = name.strip()
    out = {base}
    if base.lower().endswith("s"):
        out.add(base[:-1])
    return sorted(out, key=len, reverse=True)
