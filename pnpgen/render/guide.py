"""The print-and-build page, the print-all file's first: its words (`render/printall.guide_lines`) set on it.

Set with pnpgen's own text code (the shipped fonts' metrics, `text.fit`'s wrapping and placing, `PdfText`), not
platypus: writing a print-all file imports no more of ReportLab than its sheets need. Every line is wrapped with
the metrics of the font it is drawn in, to the width of its column; a word wider than its column is broken in it.
The words are drawn as typed (a game's `&`, `<` or `*` too). Blocks go down the page in order, each kept whole; the
first that does not fit ends the page with a line that says the list goes on, so nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pnpgen.faces import Text
from pnpgen.render import ACCENT, INK, MUTED
from pnpgen.render.pdftext import PdfText, colour
from pnpgen.text.breaks import tokens
from pnpgen.text.fit import break_word, place, words_of, wrap
from pnpgen.text.fonts import pdf_name
from pnpgen.text.labels import shorten
from pnpgen.units import MM
from pnpgen.words import ENGLISH_WORDS, Words

MARGIN = 15 * MM  # the page's left and right margins; the table's rules run from one to the other
PAD = 6.0  # text stands this far inside the margins, and inside a table cell's sides
TOP, BOTTOM = 15 * MM + PAD, 12 * MM + PAD  # where the words start, and the lowest they may reach
CELL_PAD = 2.5  # above and below a table cell's text
FIRST_COLUMN = 16 * MM  # "Pages"; "What" takes WHAT of the rest of the table's width, "Then" the remainder
WHAT = 0.46
RULE, NOTE = "#c9c2b6", "#9a9a9a"


@dataclass(frozen=True)
class Style:
    """How a paragraph is set: font and size, the distance between baselines, colour, the space it wants above
    and below it (two neighbours are parted by the larger of the two) and the indent of an item's text."""

    font: str
    size: float
    leading: float
    color: str = INK
    before: float = 0.0
    after: float = 0.0
    indent: float = 0.0


TITLE = Style("display-bold", 20, 24)
SUB = Style("sans", 9.5, 12.5, MUTED, after=6)
HEAD = Style("sans-bold", 11, 14, ACCENT, before=8, after=3)
BODY = Style("sans", 9.5, 12.5, after=3)
ITEM = Style("sans", 9.5, 12.5, after=1.5, indent=10)
CELL = Style("sans", 8.5, 10.5)
CELL_HEAD = Style("sans-bold", 8.5, 10.5)
BULLET = ("\u2022", "sans", 10.0, 2.0)  # an item's mark, its font and size, and its indent from the left


@dataclass
class Block:
    """A part of the page that is never split: its height, the space it wants around it, whether it must stand
    on the page with the next block (a heading with what it heads) and how to draw it with its top at `y`."""

    height: float
    before: float
    after: float
    draw: Callable[[float], list]  # top (pt from the page's top) -> Text ops and rules
    keep_next: bool = False


def draw_guide_page(c, title: str, lines: dict, pw: float, ph: float, words: Words = ENGLISH_WORDS) -> None:
    """The print-and-build page of the game `title` on canvas `c` (paper `pw` x `ph` pt), from `lines` (what
    `guide_lines` says) and its headings in the game's `words`, ended with `showPage`."""
    x, width = MARGIN + PAD, pw - 2 * (MARGIN + PAD)
    blocks = [
        paragraph(words("guide_title", title=title), TITLE, x, width),
        paragraph(words("guide_intro"), SUB, x, width),
        heading(words("guide_how"), x, width),
        *(item(line, x, width) for line in lines["how"]),
        heading(words("guide_pages"), x, width),
        *table(
            tuple(words(k) for k in ("guide_col_pages", "guide_col_what", "guide_col_then")),
            lines["rows"],
            pw,
        ),
        heading(words("guide_need"), x, width),
        *(item(t, x, width) for t in lines["tools"]),
    ]
    if lines["supply"]:
        blocks.append(heading(words("guide_from_home"), x, width))
        blocks += [item(t, x, width) for t in lines["supply"]]
    for n, t in enumerate(lines["tail"]):  # the closing lines, a little apart from the lists
        blocks.append(paragraph(t, replace(BODY, before=6 + ITEM.after) if n == 0 else BODY, x, width))
    drawn, whole = set_down(blocks, TOP, ph - BOTTOM)
    draw_set(c, PdfText(c), drawn, ph)
    if not whole:  # too long for one page (a game of very many components): say so rather than drop rows
        c.setFillColor(colour(NOTE))
        c.setFont(pdf_name("sans"), 7)
        c.drawString(MARGIN, 8 * MM, shorten(words("guide_goes_on"), "sans", 7, pw - 2 * MARGIN))
    c.setFillColor(colour(NOTE))
    c.setFont(pdf_name("sans"), 6)
    c.drawRightString(pw - MARGIN, 6 * MM, shorten(words("guide_page_one"), "sans", 6, pw / 3))
    c.setTrimBox(
        (0, 0, pw, ph)
    )  # a page of words, not pieces: nothing is cut from it, so its trim is the paper
    c.setBleedBox((0, 0, pw, ph))
    c.showPage()


def draw_set(c, pen: PdfText, ops: list, ph: float) -> None:
    """What `set_down` (or a page of its own, as a checklist's) set on a page of height `ph`: text, and rules as
    (x0, x1, y from the page's top, line width, colour)."""
    for op in ops:
        if isinstance(op, Text):
            pen.fill(op.color)
            pen.text(op, ph)
        else:
            x0, x1, y, line_width, rgb = op
            c.saveState()
            c.setStrokeColor(colour(rgb))
            c.setLineWidth(line_width)
            c.setLineCap(1)
            c.line(x0, ph - y, x1, ph - y)
            c.restoreState()


def set_down(blocks: list[Block], top: float, bottom: float) -> tuple[list, bool]:
    """The blocks down the page from `top` (pt from the page's top), in order, while they fit above `bottom`: what
    they draw, and whether every one fitted. A block kept with the next goes down only with it."""
    ops: list = []
    y, after = top, None
    for i, block in enumerate(blocks):
        gap = 0.0 if after is None else max(after, block.before)
        need, j = gap + block.height, i
        while blocks[j].keep_next and j + 1 < len(blocks):
            need += max(blocks[j].after, blocks[j + 1].before) + blocks[j + 1].height
            j += 1
        if y + need > bottom + 0.01:
            return ops, False
        y += gap
        ops += block.draw(y)
        y += block.height
        after = block.after
    return ops, True


def paragraph(text: str, style: Style, x: float, width: float) -> Block:
    """`text` wrapped to `width` from `x`, its first baseline a font size below its top (as platypus sets it)."""
    lines, space = wrapped(text, style, width)
    height = len(lines) * style.leading

    def draw(top: float) -> list:
        return place(
            lines, space, style.size, x, top, width, height, height, 1.0, "left", "top",
            style.leading / style.size, style.color, None,
        )  # fmt: skip

    return Block(height, style.before, style.after, draw)


def heading(text: str, x: float, width: float) -> Block:
    block = paragraph(text, HEAD, x, width)
    block.keep_next = True
    return block


def item(text: str, x: float, width: float) -> Block:
    """A list item: its mark, then its text indented (every line of it)."""
    block = paragraph(text, ITEM, x + ITEM.indent, width - ITEM.indent)
    mark, font, size, indent = BULLET
    text_of = block.draw

    def draw(top: float) -> list:
        return [Text(x + indent, top + ITEM.size, font, size, ITEM.color, mark), *text_of(top)]

    block.draw = draw
    return block


def table(head: tuple, rows: list, pw: float) -> list[Block]:
    """A row a block: each cell's text wrapped in its column and set from its top, a rule below the row across
    the table (the margins' width), the header's in the accent colour. The header stands with the first row."""
    full = pw - 2 * MARGIN
    widths = (FIRST_COLUMN, full * WHAT, full - FIRST_COLUMN - full * WHAT)
    lefts = (MARGIN, MARGIN + widths[0], MARGIN + widths[0] + widths[1])

    def row(cells: tuple, style: Style, rule: tuple) -> Block:
        made = [paragraph(t, style, lx + PAD, w - 2 * PAD) for t, lx, w in zip(cells, lefts, widths)]
        height = 2 * CELL_PAD + max(b.height for b in made)

        def draw(top: float) -> list:
            return [
                *(op for b in made for op in b.draw(top + CELL_PAD)),
                (MARGIN, pw - MARGIN, top + height, *rule),
            ]

        return Block(height, 0.0, 0.0, draw)

    header = row(head, CELL_HEAD, (0.6, ACCENT))
    header.keep_next = bool(rows)
    return [header, *(row(cells, CELL, (0.25, RULE)) for cells in rows)]


def wrapped(text: str, style: Style, width: float) -> tuple[list, float]:
    """`text` in lines of words no wider than `width`, measured in the font it is drawn in (a character the font
    lacks in the fallback font that draws it); a word wider than the column is broken where it must be."""
    pieces = [part for word in tokens(text) for part in break_word(word, style.font, style.size, width)]
    lines, _, space = wrap(words_of(" ".join(pieces), style.font), width, style.size)
    return lines, space
