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

from pnpgen.errors import ContentError, Diagnostics, Location, display_path
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


def find_sources(root: Path) -> list[Path]:
    single = root / "rulebook.md"
    if single.is_file():
        return [single]
    folder = root / "rulebook"
    if folder.is_dir():
        return sorted(folder.glob("*.md"))
    return []


def component_info(game, prepared_decks) -> dict:
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


def render_source(path: Path, game, components: dict) -> str:
    display = display_path(path)
    raw = path.read_bytes()
    if len(raw) > MAX_RULEBOOK_BYTES:
        raise ContentError.at(Location(display), f"rulebook source is over {MAX_RULEBOOK_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ContentError.at(Location(display, 1, 1), "rulebook source is not UTF-8 text") from None

    def picture(component_id: str) -> str:
        if component_id not in components:
            raise ValueError(
                f"picture(): no component '{component_id}' (components: {', '.join(components)})"
            )
        return f"\n\n%%pnpgen picture {component_id}%%\n\n"

    def component_table() -> str:
        return "\n\n%%pnpgen components%%\n\n"

    names = {
        "game": {"id": game.id, "title": game.title, "players": game.players, "credits": game.credits},
        "components": components,
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


def load_rulebook(root: Path, game, components: dict, diags: Diagnostics) -> Rulebook | None:
    sources = find_sources(root)
    if not sources:
        return None
    texts = []
    for src in sources:
        texts.append(render_source(src, game, components))
    book = parse("\n\n".join(texts), sources[0], diags)
    check_component_counts(sources, game, diags)
    return book


_COUNT = r"(?<![\d.])(\d+)\s+(?:\*\*)?"


def check_component_counts(sources: list[Path], game, diags: Diagnostics) -> None:
    """In a Components chapter, a number written before a component's name must equal the content's count."""
    for src in sources:
        in_components = False
        for n, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
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
