"""A deck's checklist: every card by name with its count and a tick box, in the deck's order, on the build's paper.

Set with pnpgen's own text code, as the print-and-build page is (`render/guide.py`): one row a card, its name
wrapped in its column. The rows fill two columns of a page; a deck too long for one page goes on to the next,
each page saying which of how many it is, so no card is ever dropped.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnpgen.faces import Text
from pnpgen.render import INK, MUTED
from pnpgen.render.guide import BODY, MARGIN, RULE, SUB, TITLE, Block, draw_set, paragraph, wrapped
from pnpgen.render.pdf import new_canvas
from pnpgen.render.pdftext import PdfText, colour
from pnpgen.text.fit import place
from pnpgen.text.fonts import pdf_name, runs, unit_width
from pnpgen.text.labels import shorten
from pnpgen.units import MM, paper_pt
from pnpgen.words import ENGLISH_WORDS, Words

BOX = 3.6 * MM  # a tick box's side
COUNT = 9 * MM  # the count's column, "12×", right-aligned before the name
GUTTER = 8 * MM  # between the two columns
ROW_PAD = 1.6  # pt above and below a row's text
NAME = replace(BODY, size=9.5, leading=11.5, after=0.0)
TOP, BOTTOM = 15 * MM, 14 * MM
HEAD_LINES = 3  # the heading's lines at most (the game's title and the deck's name)
SUMMARY_LINES = 4  # the summary's (the game's `checklist_*` words) at most


def write_checklist(
    path: Path,
    title: str,
    deck: str,
    cards: list[tuple[str, int]],
    paper: str,
    noun: str = "card",
    words: Words = ENGLISH_WORDS,
) -> int:
    """`cards` (name, count) in order as a checklist of the deck `deck` of the game `title`, each a `noun` (card,
    tile, token), its own words in the game's `words`; returns its pages."""
    pw, ph = paper_pt(paper)
    width = (pw - 2 * MARGIN - GUTTER) / 2
    heading = _heading(words("colon", before=title, after=deck), pw - 2 * MARGIN)
    head = [
        paragraph(heading, TITLE, MARGIN, pw - 2 * MARGIN),
        paragraph(
            _heading(_summary(cards, noun, words), pw - 2 * MARGIN, SUMMARY_LINES, SUB),
            SUB,
            MARGIN,
            pw - 2 * MARGIN,
        ),
    ]
    first_top = TOP + sum(b.height + b.after for b in head) + 4
    most = max(1, int((ph - BOTTOM - first_top - 2 * ROW_PAD) // NAME.leading))  # lines any column holds
    rows = [row for name, count in cards for row in _rows(name, count, width, most)]
    pages = _paged(rows, first_top, TOP, ph - BOTTOM)
    c = new_canvas(
        path, (pw, ph), f"{title}: {deck} checklist", f"{_summary(cards, noun, words)} ({paper.upper()})"
    )
    pen, goes_on = PdfText(c), False  # whether the row before was a name's part that the next goes on from
    for n, columns in enumerate(pages, 1):
        ops: list = []
        if n == 1:
            y = TOP
            for block in head:
                ops += block.draw(y)
                y += block.height + block.after
        for col, placed in enumerate(columns):
            left = MARGIN + col * (width + GUTTER)
            for top, row in placed:
                ops += [replace(op, x=op.x + left) for op in row.draw(top)]
                if not goes_on:  # a row's first part (a long name's others go on without one)
                    ops.append(("box", left, top + ROW_PAD))
                goes_on = row.keep_next
                ops.append((left, left + width, top + row.height, 0.25, RULE))
        _draw(c, pen, ops, ph)
        c.setFillColor(colour(MUTED))
        c.setFont(pdf_name("sans"), 7)
        c.drawRightString(
            pw - MARGIN, 8 * MM, shorten(words("page_of", n=n, count=len(pages)), "sans", 7, pw / 2)
        )
        if n > 1:  # a loose page still says whose list it is
            whose = shorten(words("colon", before=title, after=deck), "sans", 7, pw / 2)
            c.drawString(
                MARGIN, ph - 9 * MM, shorten(words("continued", list=whose), "sans", 7, pw - 2 * MARGIN)
            )
        c.setTrimBox((0, 0, pw, ph))  # a page of words: nothing is cut from it
        c.setBleedBox((0, 0, pw, ph))
        c.showPage()
    c.save()
    return len(pages)


def _heading(text: str, width: float, most: int = HEAD_LINES, style=TITLE) -> str:
    """`text` as the page's heading (or its summary, in `style`): cut with an ellipsis to `most` lines, so that a
    long title, deck name or game's words leave the rows their page."""
    if len(wrapped(text, style, width)[0]) <= most:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest start that, with the ellipsis, wraps to `most` lines
        mid = (lo + hi + 1) // 2
        if len(wrapped(text[:mid].rstrip() + "\u2026", style, width)[0]) <= most:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "\u2026"


def _summary(cards: list[tuple[str, int]], noun: str, words: Words) -> str:
    """How many pieces, how many different, and what to tick: `checklist_card` for one piece, else `..._cards`."""
    total = sum(n for _, n in cards)
    return words(f"checklist_{noun}" if total == 1 else f"checklist_{noun}s", count=total, names=len(cards))


def _rows(name: str, count: int, width: float, most: int) -> list[Block]:
    """A card's row, its text drawn from x = 0 (the column's left edge is added when it is placed); a name of more
    than `most` lines (what a column holds) goes on in rows of its own, without a count or a tick box."""
    indent = BOX + COUNT + 2 * MM
    lines, space = wrapped(name, NAME, width - indent)
    label = f"{count}\u00d7"
    label_x = BOX + COUNT - sum(unit_width(part, f) for f, part in runs(label, NAME.font)) * NAME.size
    out = []
    for start in range(0, max(len(lines), 1), most):
        part, first = lines[start : start + most], start == 0
        height = len(part) * NAME.leading

        def draw(top: float, part: list = part, height: float = height, first: bool = first) -> list:
            text = place(
                part, space, NAME.size, indent, top + ROW_PAD, width - indent, height, height, 1.0, "left", "top",
                NAME.leading / NAME.size, NAME.color, None,
            )  # fmt: skip
            if not first:
                return text
            return [Text(label_x, top + ROW_PAD + NAME.size, NAME.font, NAME.size, INK, label), *text]

        last = start + most >= len(lines)
        out.append(
            Block(max(height, BOX if first else 0.0) + 2 * ROW_PAD, 0.0, 0.0, draw, keep_next=not last)
        )
    return out


def _paged(rows: list[Block], first_top: float, top: float, bottom: float) -> list[list[list]]:
    """The rows down two columns a page, in order: pages of columns of (top, row)."""
    pages: list[list[list]] = []
    i = 0
    while i < len(rows) or not pages:
        start = first_top if not pages else top
        columns: list[list] = []
        for _ in range(2):
            placed: list[tuple[float, Block]] = []
            y = start
            while i < len(rows) and (not placed or y + rows[i].height <= bottom):
                placed.append((y, rows[i]))
                y += rows[i].height
                i += 1
            columns.append(placed)
        pages.append(columns)
    return pages


def _draw(c, pen: PdfText, ops: list, ph: float) -> None:
    """The page's text and rules (`guide.draw_set`), then its tick boxes."""
    boxes = [op for op in ops if isinstance(op, tuple) and op[0] == "box"]
    draw_set(c, pen, [op for op in ops if not (isinstance(op, tuple) and op[0] == "box")], ph)
    c.saveState()
    c.setStrokeColor(colour(INK))
    c.setLineWidth(0.7)
    for _, x, y in boxes:
        c.rect(x, ph - y - BOX, BOX, BOX, stroke=1, fill=0)
    c.restoreState()
