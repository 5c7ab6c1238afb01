"""The rulebook's look and its flowables: styles, rich text with inline icons that wraps and splits across pages,
headings the contents collect, pictures of components drawn from their own faces, rules."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Table,
)

from pnpgen.faces import Icon, Text
from pnpgen.render import ACCENT, INK, MUTED
from pnpgen.render.pdf import FaceDrawer, colour
from pnpgen.text.fit import broken, parse, place, wrap
from pnpgen.text.fonts import pdf_name, unit_width, vertical_metrics
from pnpgen.text.labels import shorten
from pnpgen.units import MM

NOTE_BG, NOTE_LINE = "#eef1f5", "#5b7391"
EXAMPLE_BG, EXAMPLE_LINE = "#f7f0e1", "#b7892f"
BODY = 9.6
LEAD = 1.38
SHRINK = 0.85  # the smallest a figure is set to fit the room left on a page, as a share of its size


class PlainTable(Table):
    """A platypus Table whose cells are set in the shipped sans unless a style says otherwise: ReportLab's
    default cell font is its standard Helvetica, which it selects for every cell, even one holding a flowable,
    so a table left at the default puts an unembedded font in the PDF (which PDF/X and print shops refuse)."""

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.setStyle([("FONTNAME", (0, 0), (-1, -1), pdf_name("sans"))])


def drafting(canv) -> bool:
    """Whether this pass only lays the book out (`BookDoc.drafting`): its pages are never saved, so what has a
    size of its own need not be drawn."""
    return bool(getattr(getattr(canv, "_doctemplate", None), "drafting", False))


def drawer_for(canv, icons) -> FaceDrawer:
    """One FaceDrawer per canvas (platypus makes a new canvas on every multiBuild pass)."""
    drawer = getattr(canv, "_pnpgen_drawer", None)
    if drawer is None:
        drawer = FaceDrawer(canv, icons, prefix="R")
        if getattr(getattr(canv, "_doctemplate", None), "low_ink", False):  # the low-ink rulebook
            from pnpgen.lowink import low_ink

            drawer.transform = low_ink
        canv._pnpgen_drawer = drawer
    return drawer


class RichText(Flowable):
    """A paragraph of pnpgen markup (**bold**, *italic*, :icon:) that wraps and splits across pages."""

    lines_kept = 2  # a split keeps at least this many lines on each side

    def __init__(
        self,
        markup,
        icons,
        font="sans",
        size=BODY,
        leading=LEAD,
        color=INK,
        align="left",
        space_before=0.0,
        space_after=4.0,
        lines=None,
    ):
        super().__init__()
        self.markup, self.icons = markup, icons
        self.font, self.size, self.leading, self.color, self.align = font, size, leading, color, align
        self.spaceBefore, self.spaceAfter = space_before, space_after
        self._lines = lines
        self._space = unit_width(" ", font) * size
        self._width = 0.0

    def _paragraphs(self):
        return parse(self.markup, self.font, lambda n: n in self.icons)

    def wrap(self, aw, ah):
        if self._lines is None or abs(aw - self._width) > 0.01:
            if self._lines is None or self.markup is not None:
                self._lines, _, self._space = wrap(broken(self._paragraphs(), aw, self.size), aw, self.size)
        self._width = aw
        return aw, self._height(len(self._lines))

    def _height(self, n):
        ascent, descent = vertical_metrics(self.font)
        return max(0, n - 1) * self.size * self.leading + (ascent + descent) * self.size

    def split(self, aw, ah):
        self.wrap(aw, ah)
        ascent, descent = vertical_metrics(self.font)
        n = len(self._lines)
        fit = int((ah - (ascent + descent) * self.size) // (self.size * self.leading)) + 1
        fit = min(fit, n - self.lines_kept)  # never leave a single line behind (widow) ...
        if fit < self.lines_kept:  # ... nor alone at the foot of a page (orphan): move the paragraph on
            return []
        parts = []
        for lines, before, after in (
            (self._lines[:fit], self.spaceBefore, 0),
            (self._lines[fit:], 0, self.spaceAfter),
        ):
            part = RichText(
                None,
                self.icons,
                self.font,
                self.size,
                self.leading,
                self.color,
                self.align,
                before,
                after,
                lines=lines,
            )
            part._width, part._space = aw, self._space
            parts.append(part)
        return parts

    def draw(self):
        if drafting(self.canv):
            return
        ascent, descent = vertical_metrics(self.font)
        h = self._height(len(self._lines))
        ops = place(
            self._lines,
            self._space,
            self.size,
            0,
            0,
            self._width,
            h,
            h,
            ascent,
            self.align,
            "top",
            self.leading,
            self.color,
            None,
        )
        c = self.canv
        drawer = drawer_for(c, self.icons)
        for op in ops:
            if isinstance(op, Text):
                c.setFillColor(colour(op.color))
                c.setFont(pdf_name(op.font), op.size)
                c.drawString(op.x, h - op.y, op.text)
            elif isinstance(op, Icon):
                drawer.draw_icon(op.name, op.x, h - op.y - op.h, op.w, op.h, op.tint)


class HeadingPara(Paragraph):
    """A heading that the document reports to the table of contents and the PDF outline."""

    def __init__(self, text, style, level, key, toc_text):
        super().__init__(text, style)
        self.toc_level, self.toc_key, self.toc_text = level, key, toc_text


class FacePair(Flowable):
    """A component's pictured card (its `picture:`), front and back, drawn from its layouts; with a caption."""

    def __init__(self, front, back, caption, icons, width=34 * MM):
        super().__init__()
        self.front, self.back, self.caption, self.icons = front, back, caption, icons
        width = min(width, max(18 * MM, front.width_pt * 1.6))  # small tokens are shown larger, not huge
        self.card_w = width
        self.scale = width / front.width_pt
        self.card_h = front.height_pt * self.scale
        self.gap = 4 * MM
        n = 2 if back is not None else 1
        self.width = n * width + (n - 1) * self.gap
        self.height = self.card_h + 6 * MM

    def wrap(self, aw, ah):
        # what the caption may span: its cell's width, or the page's, at most a little past the pictures' sides
        self.room = max(self.width, min(aw, self.width + CAPTION_SPILL))
        return self.width, self.height

    def split(self, aw, ah):
        """Never parted: set a little smaller when that makes it fit (`shrunk`), else moved on whole."""
        small = self.shrunk(ah)
        return [small] if small is not None else []

    def shrunk(self, height: float) -> FacePair | None:
        """This picture set smaller to stand in `height`, no smaller than `SHRINK` of its size; None if it cannot."""
        k = (height - 6 * MM) / self.card_h
        if k >= 1 or k < SHRINK:
            return None
        return FacePair(self.front, self.back, self.caption, self.icons, self.card_w * k)

    def draw(self):
        if drafting(self.canv):
            return
        c = self.canv
        drawer = drawer_for(c, self.icons)
        y = 6 * MM
        for i, face in enumerate([self.front, self.back]):
            if face is None:
                continue
            x = i * (self.card_w + self.gap)
            drawer.draw_face(face, x, y, self.scale, bleed=False)  # as the piece looks once cut
        c.setFillColor(HexColor(MUTED))
        c.setFont(pdf_name("sans-italic"), 7.5)
        room = getattr(self, "room", self.width)
        c.drawCentredString(self.width / 2, 2 * MM, shorten(self.caption, "sans-italic", 7.5, room))


CAPTION_SPILL = 24 * MM  # a picture's caption runs at most half this past its sides (a long name ends in "…")
GALLERY_GAP = 6 * MM  # the least room between two pictures of a gallery's row


def gallery_rows(widths: list[float], width: float) -> list[list[int]]:
    """The components' gallery in rows (each a list of indexes into `widths`): two pictures a row, in order, and
    a last picture that would stand alone joins the row before when the three fit across in equal cells: a
    gallery never ends in one picture alone, which a page break could leave at the top of a page by itself."""
    rows = [list(range(i, min(i + 2, len(widths)))) for i in range(0, len(widths), 2)]
    if len(rows) > 1 and len(rows[-1]) == 1:
        three = rows[-2] + rows[-1]
        if all(widths[i] + GALLERY_GAP <= width / 3 for i in three):
            rows[-2:] = [three]
    return rows


class RuleLine(Flowable):
    def __init__(self, width):
        super().__init__()
        self.width, self.height = width, 4

    def wrap(self, aw, ah):
        return self.width, self.height

    def draw(self):
        self.canv.setStrokeColor(HexColor(ACCENT))
        self.canv.setLineWidth(0.8)
        self.canv.line(0, 3, self.width, 3)


def styles():
    base = dict(fontName=pdf_name("sans"), fontSize=BODY, leading=BODY * LEAD, textColor=HexColor(INK))
    return {
        "h2": ParagraphStyle(
            "h2",
            **{
                **base,
                "fontName": pdf_name("display-bold"),
                "fontSize": 17,
                "leading": 21,
                "textColor": HexColor(ACCENT),
                "spaceBefore": 10,
                "spaceAfter": 6,
            },
        ),
        "h3": ParagraphStyle(
            "h3",
            **{
                **base,
                "fontName": pdf_name("display-bold"),
                "fontSize": 12.5,
                "leading": 16,
                "spaceBefore": 8,
                "spaceAfter": 3,
            },
        ),
        "h4": ParagraphStyle(
            "h4",
            **{
                **base,
                "fontName": pdf_name("sans-bold"),
                "fontSize": 10,
                "leading": 13,
                "spaceBefore": 5,
                "spaceAfter": 2,
            },
        ),
        "toc0": ParagraphStyle(
            "toc0", **{**base, "fontName": pdf_name("sans-bold"), "fontSize": 10.5, "leading": 14.5}
        ),
        "toc1": ParagraphStyle("toc1", **{**base, "fontSize": 9.2, "leading": 11.6, "leftIndent": 14}),
        "tochead": ParagraphStyle(
            "tochead",
            **{
                **base,
                "fontName": pdf_name("display-bold"),
                "fontSize": 20,
                "leading": 26,
                "textColor": HexColor(ACCENT),
                "spaceAfter": 10,
            },
        ),
    }


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plain(markup: str) -> str:
    import re

    return re.sub(r"\*+|:([a-z0-9_-]+):", lambda m: m.group(1) or "", markup).strip()


TOC_PAD = 2.0  # above and below each line of the contents


def toc_styles(look: dict, book, avail: float) -> list:
    """The contents' two levels, set tighter when the book has many headings, so the contents keep to one page
    (a page holding a line or two of them is what the tighter setting avoids)."""
    from pnpgen.rulebook import Heading
    from pnpgen.rulebook.checks import _walk

    levels = [b.level for b in _walk(book.blocks) if isinstance(b, Heading) and b.level in (2, 3)]
    toc0, toc1 = look["toc0"], look["toc1"]
    need = levels.count(2) * (toc0.leading + 2 * TOC_PAD) + levels.count(3) * (toc1.leading + 2 * TOC_PAD)
    k = min(1.0, avail / need) if need else 1.0
    if k >= 1.0:
        return [toc0, toc1]
    lead0, lead1 = max(12.0, toc0.leading * k), max(10.0, toc1.leading * k)
    return [
        ParagraphStyle("toc0-tight", parent=toc0, leading=lead0, fontSize=min(toc0.fontSize, lead0 - 2)),
        ParagraphStyle("toc1-tight", parent=toc1, leading=lead1, fontSize=min(toc1.fontSize, lead1 - 1.8)),
    ]
