"""A rulebook's page breaks read back from its PDF with pdfium (each line's text, size, font and position): what
`tests/test_rulebook_breaks.py` holds every page of every book to. Text drawn inside a form (a component's face
in a picture or diagram) is no part of the page's text; the form counts as a picture on the page."""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

MM = 72 / 25.4
BODY = (17 * MM, 18 * MM)  # below the running header, above the page number (from the top, from the foot)
GAP = 18.0  # a baseline this much below the last one starts a new block (body lines are 13.25 pt apart)
LINE = 14.5  # and this much below, a new paragraph (a paragraph's space after is 4 pt)
ENDS = (".", ":", "!", "?", ")", ";")  # a line ending so may end its paragraph
SHORT = 6  # a block of this many lines or fewer is short
ITEM = re.compile(r"^(•|\d+\.)")  # a list item's mark


@dataclass
class Line:
    y: float  # baseline, from the foot of the page
    x: float  # its first character's left edge
    text: str  # without spaces (pdfium's spacing is not the PDF's)
    size: float
    font: str

    @property
    def heading(self) -> bool:
        display = "Display" in self.font and round(self.size, 1) in (17.0, 12.5)
        return display or ("Sans-Bold" in self.font and round(self.size, 1) == 10.0)  # chapter, section, h4

    @property
    def item(self) -> bool:
        return bool(ITEM.match(self.text)) and round(self.size, 1) == 9.6


@dataclass
class Page:
    number: int
    lines: list[Line]  # the body's lines, top to bottom
    pictures: int  # forms and images drawn on it
    boxes: list = field(default_factory=list)  # their bounds: (left, bottom, right, top) from the foot
    height: float = 0.0

    def blocks(self) -> list[list[Line]]:
        out: list[list[Line]] = []
        for line in self.lines:
            if out and out[-1][-1].y - line.y <= GAP and not line.heading and not out[-1][-1].heading:
                out[-1].append(line)
            else:
                out.append([line])
        return out


def pages(pdf: Path) -> list[Page]:
    """Every page after the cover and the contents, with its body's lines."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = [_page(doc[i], i + 1) for i in range(len(doc))]
    finally:
        doc.close()
    first = next(i for i, p in enumerate(out) if p.lines and p.lines[0].text == "Contents")
    return [p for p in out[first + 1 :] if not (p.lines and p.lines[0].text == "Contents")]


def _page(page, number: int) -> Page:
    height = page.get_height()
    boxes = [
        o.get_bounds()
        for o in page.get_objects(max_depth=1)
        if o.type in (pdfium_raw.FPDF_PAGEOBJ_FORM, pdfium_raw.FPDF_PAGEOBJ_IMAGE)
    ]
    tp = page.get_textpage()
    rows: dict[int, list] = {}
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    x, y = ctypes.c_double(), ctypes.c_double()
    for i in range(pdfium_raw.FPDFText_CountChars(tp)):
        code = pdfium_raw.FPDFText_GetUnicode(tp, i)
        if code <= 32 or code in (0xFFFE, 0xFFFF):
            continue  # spaces, and the line breaks pdfium invents
        pdfium_raw.FPDFText_GetCharOrigin(tp, i, x, y)
        if not BODY[1] < y.value < height - BODY[0]:
            continue
        if any(a - 0.5 <= x.value <= c + 0.5 and b - 0.5 <= y.value <= d + 0.5 for a, b, c, d in boxes):
            continue  # a face's own text
        pdfium_raw.FPDFText_GetFontInfo(tp, i, name, 128, ctypes.byref(flags))
        size = pdfium_raw.FPDFText_GetFontSize(tp, i)
        rows.setdefault(round(y.value), []).append((x.value, chr(code), size, name.value.decode("latin-1")))
    lines = []
    for base, chars in sorted(rows.items(), reverse=True):
        chars.sort()
        text = "".join(c[1] for c in chars)
        lines.append(Line(base, chars[0][0], text, max(c[2] for c in chars), chars[0][3]))
    return Page(number, lines, len(boxes), boxes, height)


def _items_at_end(lines: list[Line]) -> tuple[int, float | None]:
    """How many list items the lines end with, and the x of their marks (None: they do not end with a list)."""
    last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].item or lines[i].heading), None)
    if last is None or lines[last].heading:
        return 0, None
    mark = lines[last].x
    if any(line.x <= mark + 1 for line in lines[last + 1 :]):  # text after the list, not an item's own lines
        return 0, None
    count = 0
    for line in reversed(lines[: last + 1]):
        if line.item and abs(line.x - mark) < 1:
            count += 1
        elif line.heading or line.x <= mark + 1:
            break
    return count, mark


def _items_at_start(lines: list[Line]) -> tuple[int, float | None]:
    """How many list items the lines start with, and the x of their marks (None: they do not start with one)."""
    if not lines or not lines[0].item:
        return 0, None
    mark, count = lines[0].x, 0
    for line in lines:
        if line.item and abs(line.x - mark) < 1:
            count += 1
        elif line.heading or line.x <= mark + 1:
            break
    return count, mark


def _body(line: Line) -> bool:
    return round(line.size, 1) == 9.6 and not line.heading and not line.item


def _table_head(line: Line) -> bool:
    return round(line.size, 1) == 8.4 and "Bold" in line.font


def faults(pdf: Path) -> list[str]:
    """Every page break of the book that parts what belongs together, one line each."""
    found = []
    book = pages(pdf)
    for before, page in zip([None, *book], book):
        lines = page.lines
        if lines and lines[-1].heading:
            found.append(f"page {page.number}: the heading {lines[-1].text!r} ends the page")
        count, mark = _items_at_start(lines)
        if before is not None and before.lines and mark is not None:
            ended, at = _items_at_end(before.lines)
            if at is not None and abs(mark - at) < 1:  # one list, across the break
                if count == 1:
                    found.append(f"page {page.number}: one item {lines[0].text!r} alone above what follows")
                if ended == 1:
                    found.append(f"page {before.number}: the list's first item alone at the foot")
            last = before.lines[-1]
            if at is None and not last.item and last.x <= mark + 1 and last.text.endswith(":"):
                found.append(f"page {before.number}: the lead-in {last.text!r} parted from its list")
        if before is not None and before.lines and lines:
            last, first = before.lines[-1], lines[0]
            if _body(last) and _body(first) and abs(last.x - first.x) < 1 and not last.text.endswith(ENDS):
                above = before.lines[-2] if len(before.lines) > 1 else None  # the paragraph runs on across
                below = lines[1] if len(lines) > 1 else None
                if above is None or above.y - last.y > LINE:
                    found.append(f"page {before.number}: one line {last.text[:30]!r} alone at the foot")
                if below is None or first.y - below.y > LINE or abs(below.x - first.x) > 1:
                    found.append(f"page {page.number}: one line {first.text[:30]!r} alone at the top")
        if before is not None and before.lines and lines and _table_head(lines[0]):
            last = before.lines[-1]
            if _body(last) and last.x <= lines[0].x:  # a paragraph, not a list's or a box's lines
                found.append(f"page {before.number}: {last.text[:30]!r} parted from the table it leads to")
        blocks = page.blocks()
        if not page.pictures and len(blocks) == 1 and len(blocks[0]) <= SHORT:
            found.append(f"page {page.number}: its only text is one short block ({len(blocks[0])} lines)")
    return found


FRAME = (
    22 * MM + 6,
    20 * MM + 6,
)  # the body frame's inside: its top from the page's top, its foot from the foot
EMPTY = 0.2  # a page may leave this share of its frame empty above a figure that opens the next page
CAPTION = 7.5  # a picture's or diagram's caption


def empty_share(page: Page) -> float:
    """The share of the page's body frame left empty below what it shows (text or pictures)."""
    lowest = min([line.y - 3 for line in page.lines] + [box[1] for box in page.boxes], default=FRAME[1])
    return max(lowest - FRAME[1], 0) / (page.height - FRAME[0] - FRAME[1])


def _opens_with_figure(page: Page) -> bool:
    """Whether the page opens with a figure, or with the headings of a section that opens with one."""
    lines = page.lines
    while lines and lines[0].heading and round(lines[0].size, 1) != 17.0:
        lines = lines[1:]
    top_text = max((line.y + line.size for line in lines), default=0.0)
    return bool(page.boxes) and max(box[3] for box in page.boxes) > top_text


def float_faults(pdf: Path, limit: float = EMPTY) -> list[str]:
    """Every page left with more than `limit` of its frame empty while the next opens with a figure and, after
    the figure's caption, text of the same chapter: text that could have floated up before the figure."""
    found = []
    book = pages(pdf)
    for page, nxt in zip(book, book[1:]):
        share = empty_share(page)
        if share <= limit or not _opens_with_figure(nxt):
            continue
        caption = next((i for i, line in enumerate(nxt.lines) if round(line.size, 1) == CAPTION), None)
        after = [line for line in nxt.lines[caption + 1 :] if line.size > 8] if caption is not None else []
        if after and not (after[0].heading and round(after[0].size, 1) == 17.0):
            found.append(
                f"page {page.number}: {share:.0%} of its frame empty above a figure that page {nxt.number} "
                f"opens with, followed by {after[0].text[:30]!r} of the same chapter"
            )
    return found
