"""What a rulebook must get right: counts written in its Components chapter, and characters its fonts can draw."""

from __future__ import annotations

import re
from pathlib import Path

from pnpgen.errors import Diagnostics, Location, display_path
from pnpgen.rulebook.blocks import Heading, Para, Rulebook, TableBlock
from pnpgen.rulebook.sources import read_source


def check_glyphs(book: Rulebook, game, icons: dict, diags: Diagnostics) -> None:
    """A character the rulebook's fonts cannot draw is a warning at its line (it would silently vanish)."""
    from pnpgen.text.fit import missing_in

    display = display_path(book.path)
    texts = [(game.title, "display-bold", 1), (game.credits, "sans-italic", 1)]
    for block in _walk(book.blocks):
        line = getattr(block, "line", 0) or 1
        if isinstance(block, Heading):
            texts.append((block.text, "display-bold", line))
        elif isinstance(block, Para):
            texts.append((block.text, "sans", line))
        elif isinstance(block, TableBlock):
            texts += [(cell, "sans-bold", line) for cell in block.header]
            texts += [(cell, "sans", line) for row in block.rows for cell in row]
    places = [(text, font, Location(display, line, 1)) for text, font, line in texts]
    for diagram, plan in getattr(book, "diagrams", {}).items():  # words drawn in diagrams, plainly
        where = Location(display_path(game.root / "diagrams" / f"{diagram}.yaml"), 1, 1)
        if plan is not None:
            words = [a[4] or "" for a in plan.arrows] + [lab[2] for lab in plan.labels]
            places += [(plan.caption, "sans-italic", where)] + [(w, "sans-bold", where) for w in words]
    for text, font, loc in places:
        lost = missing_in(text or "", font, lambda name: name in icons)
        if lost:
            codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
            diags.warning(loc, f"the rulebook's font {font} has no {codes}; it would not print")


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


def _walk(blocks):
    for b in blocks:
        yield b
        for inner in getattr(b, "blocks", []) or []:
            yield from _walk([inner])
        for item in getattr(b, "items", []) or []:
            yield from _walk(item)
