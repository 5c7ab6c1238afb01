"""Rulebook blocks -> a formatted PDF with ReportLab platypus.

Body text is set by pnpgen's own text engine (so icons sit inline on the baseline, as on the cards) inside a
splittable flowable; headings are platypus paragraphs so the table of contents can collect them. Pictures of
components are the components' own faces, drawn as vector forms.
"""

from __future__ import annotations

import builtins
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.platypus import (
    CondPageBreak,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from pnpgen.render.cover import draw_cover
from pnpgen.render.diagram import DiagramFlowable
from pnpgen.render.floats import floated
from pnpgen.render.flowables import (
    ACCENT,
    EXAMPLE_BG,
    EXAMPLE_LINE,
    MUTED,
    NOTE_BG,
    NOTE_LINE,
    TOC_PAD,
    FacePair,
    HeadingPara,
    PlainTable,
    RichText,
    RuleLine,
    esc,
    gallery_rows,
    plain,
    styles,
    toc_styles,
)
from pnpgen.render.keep import Chain, KeptList, KeptTable, bound, chains, tail
from pnpgen.render.passes import BookDoc, fits_across, headings, lay_out, placed
from pnpgen.rulebook import (
    ComponentTable,
    Diagram,
    Heading,
    ListBlock,
    Para,
    Picture,
    Quote,
    Rule,
    TableBlock,
)
from pnpgen.text.fonts import pdf_name, unit_width
from pnpgen.units import MM, paper_pt
from pnpgen.words import ENGLISH_WORDS, Words


class _Builder:
    def __init__(
        self,
        icons,
        pictures: dict,
        components: dict,
        width: float,
        diagrams: dict | None = None,
        cards: dict | None = None,
        card_names: dict | None = None,
        words: Words = ENGLISH_WORDS,
    ):
        self.icons, self.pictures, self.components, self.width = icons, pictures, components, width
        self.words = words  # the game's words for what pnpgen adds: captions, the component table
        self.diagrams = diagrams or {}
        self.cards = cards or {}  # (component, card) -> faces: picture(id, card)
        self.card_names = card_names or {}  # (component, card) -> the card's name, for the caption
        self.styles = styles()
        self.heading_count = 0
        self.page_height = 0.0  # the body frame's: see `keep.KeptTable`

    def blocks(self, blocks, width=None) -> list:
        """Blocks inside a list item or a box: set as they come (the box or row moves as one piece)."""
        out: list = []
        for b in blocks:
            out += self.block(b, width or self.width)
        return out

    def story(self, blocks) -> list:
        """The book's blocks as flowables, where no page may come between two blocks that `bound` ties (the last
        piece of the one, the first of the other) nor inside a heading: see `keep.chains` and `keep.tail`; a
        figure that does not fit the room left lets the text after it float up (`floats.floated`)."""
        made = [placed(self.block(b, self.width), b) for b in blocks]
        ties = [i + 1 < len(blocks) and bound(b, blocks[i + 1]) for i, b in enumerate(blocks)]
        kept = chains(made, ties, [isinstance(b, Heading) for b in blocks])
        return tail(floated(kept), self.width)

    def block(self, b, width) -> list:
        if isinstance(b, Heading):
            return self.heading(b)
        if isinstance(b, Para):
            return [RichText(b.text, self.icons)]
        if isinstance(b, ListBlock):
            return self.list(b, width)
        if isinstance(b, TableBlock):
            fits_across(b, width)
            return [self.table(b.header, b.rows, width), Spacer(1, 6)]
        if isinstance(b, Quote):
            if width < 60 * MM:  # quoted too deeply to box again: the rest is set at this width
                return self.blocks(b.blocks, width)
            return [self.quote(b, width), Spacer(1, 6)]
        if isinstance(b, Picture):
            return [self.picture(b.component, b.card), Spacer(1, 4)]
        if isinstance(b, Diagram):
            plan = self.diagrams.get(b.diagram)
            return [DiagramFlowable(plan, self.icons, width), Spacer(1, 6)] if plan is not None else []
        if isinstance(b, ComponentTable):
            return self.component_table(width)
        if isinstance(b, Rule):
            return [Spacer(1, 8)]
        return []

    def heading(self, h: Heading) -> list:
        if h.level == 1:
            return []  # the title is on the cover
        self.heading_count += 1
        key = f"h{self.heading_count}"
        text = plain(h.text)
        label = f"{h.number}  {text}" if h.number else text
        if h.level == 2:
            para = HeadingPara(esc(label), self.styles["h2"], 0, key, label)
            return [CondPageBreak(60 * MM), para, RuleLine(self.width)]
        if h.level == 3:
            return [CondPageBreak(30 * MM), HeadingPara(esc(label), self.styles["h3"], 1, key, label)]
        return [CondPageBreak(20 * MM), Paragraph(esc(label), self.styles["h4"])]

    def list(self, lb: ListBlock, width) -> list:
        rows = []
        indent = 6 * MM
        for i, item in enumerate(lb.items):
            bullet = f"{lb.start + i}." if lb.ordered else "\u2022"
            content = self.blocks(item, width - indent)
            rows.append(
                [
                    RichText(bullet, self.icons, font="sans-bold" if lb.ordered else "sans", space_after=0),
                    content,
                ]
            )
        t = KeptList(rows, colWidths=[indent, width - indent])
        t.page = self.page_height
        t.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ]
            )
        )
        return [t, Spacer(1, 3)]

    def table(self, header, rows, width) -> Table:
        ncols = max([len(header)] + [len(r) for r in rows])
        natural = [0.0] * ncols
        for r in [header] + rows:
            for i, cell in enumerate(r):
                natural[i] = max(natural[i], min(unit_width(plain(cell), "sans") * 8.6 + 10, width * 0.6))
        # no column narrower than its longest word, up to as wide as `natural`'s most (a longer word is broken in
        # its column: the other columns keep their room)
        longest = [0.0] * ncols
        for r in [header] + rows:
            for i, cell in enumerate(r):
                words = plain(cell).split() or [""]
                word = max(unit_width(w, "sans-bold") * 8.4 for w in words) + 10
                longest[i] = max(longest[i], min(word, width * 0.6))
        total = sum(natural) or 1
        widths = [max(14 * MM, longest[i], width * n / total) for i, n in enumerate(natural)]
        spare = width - sum(longest)
        if sum(widths) > width and spare > 0:  # shrink only the columns above their minimum
            excess = sum(w - lo for w, lo in zip(widths, longest))
            over = sum(widths) - width
            widths = [w - (w - lo) * over / excess if excess else w for w, lo in zip(widths, longest)]
        else:
            widths = [w * width / sum(widths) for w in widths]
        data: list[list[RichText | str]] = [
            [RichText(c, self.icons, font="sans-bold", size=8.4, space_after=0) for c in header]
        ]
        for r in rows:
            data.append(
                [RichText(c, self.icons, size=8.4, space_after=0) for c in r] + [""] * (ncols - len(r))
            )
        # split only between body rows, two at the foot of a page under the header and two at the top of the next
        # (which repeats the header); a table of five rows or fewer moves whole (`KeptTable`)
        t = KeptTable(data, colWidths=widths, repeatRows=1)
        t.page = self.page_height
        t.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), HexColor("#efe6d4")),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.8, HexColor(ACCENT)),
                    ("LINEBELOW", (0, 1), (-1, -1), 0.3, HexColor("#d6cdbd")),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("TOPPADDING", (0, 0), (-1, -1), 3),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                    ("LEFTPADDING", (0, 0), (-1, -1), 4),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ]
            )
        )
        return t

    def quote(self, q: Quote, width) -> Table:
        bg, line = (NOTE_BG, NOTE_LINE) if q.kind == "note" else (EXAMPLE_BG, EXAMPLE_LINE)
        inner = self.blocks(q.blocks, width - 12 * MM)
        t = PlainTable([[inner]], colWidths=[width])
        t.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, -1), HexColor(bg)),
                    ("LINEBEFORE", (0, 0), (0, -1), 2.5, HexColor(line)),
                    ("LEFTPADDING", (0, 0), (-1, -1), 8),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                    ("TOPPADDING", (0, 0), (-1, -1), 6),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ]
            )
        )
        return t

    def picture(self, component_id: str, card: str | None = None):
        faces = self.pictures[component_id] if card is None else self.cards[(component_id, card)]
        front, back = faces
        name = self.components[component_id]["name"]
        called = str(self.card_names.get((component_id, card), card)) if card is not None else name
        # a picture of a named card names it, unless that only says the component's name again (one or many)
        named = called.casefold().removesuffix("s") != name.casefold().removesuffix("s")
        if named:
            name = self.words("colon", before=name, after=called)
        both = self.words("front_and_back")
        caption = name
        if back is not None:
            caption = f"{name}, {both}" if named else self.words("colon", before=name, after=both)
        return FacePair(front, back, caption, self.icons)

    def component_table(self, width) -> builtins.list:  # `list` here is the method above
        if not self.components:
            return []
        header = [self.words("component"), self.words("count"), self.words("printed_as")]
        rows = []
        for _cid, info in self.components.items():
            rows.append([f"**{info['name']}**", str(info["faces"]), _printed_as(info, self.words)])
        out = [self.table(header, rows, width), Spacer(1, 8)]
        pairs = [self.picture(cid) for cid in self.components if cid in self.pictures]  # boards: too big
        for row in gallery_rows([p.width for p in pairs], width):
            cells = [pairs[i] for i in row]
            cells += [""] * (max(2, len(cells)) - len(cells))
            t = PlainTable([cells], colWidths=[width / len(cells)] * len(cells))
            t.setStyle(
                TableStyle([("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "TOP")])
            )
            out += [t, Spacer(1, 6)]
        return kept_end(out)


def kept_end(gallery: list) -> list:
    """The components' table and gallery (rows, each with its space after), its last row kept with the row before
    when it holds one picture: a page break never leaves that picture alone at the top of a page."""
    last = gallery[-2]._cellvalues[0] if len(gallery) > 4 else []
    if len(last) - last.count("") == 1:
        gallery[-4:-1] = [Chain(gallery[-4:-1])]
    return gallery


def _printed_as(info: dict, words: Words) -> str:
    """The component table's "Printed as": the kind of piece, its shape and its size, in the game's words."""
    w, h = info["size_mm"]
    kind = info["kind"]
    if kind == "board":
        sides = len(info["cards"])
        told = words("one_side" if sides == 1 else "sides", n=sides)
        return words("printed_board", w=words.number(w, "g"), h=words.number(h, "g"), sides=told)
    shape = info.get("shape", "rect")
    pieces = words(kind)  # cards, tiles, tokens
    if shape == "circle":
        return words("printed_circle", pieces=pieces, across=words.number(w, "g"))
    if shape in ("hex", "hex-flat"):
        return words("printed_hex", pieces=pieces, across=words.number(min(w, h), "g"))
    if shape == "triangle":
        return words("printed_triangle", pieces=pieces, side=words.number(w, "g"))
    return words(
        "printed_square" if shape == "square" else "printed_rect",
        pieces=pieces,
        w=words.number(w, "g"),
        h=words.number(h, "g"),
    )


def build_rulebook_pdf(
    path: Path,
    book,
    game,
    icons: dict,
    pictures: dict,
    components: dict,
    paper: str,
    low: bool = False,
    contents: list[tuple] | None = None,
    found: list | None = None,
) -> int:
    """Write the rulebook (`low`: its low-ink form: a pale cover, pictures as the low-ink sheets print them);
    returns its page count. (Each shipped font is registered as it is first set: a book rarely uses all twelve.)
    `contents`, the last build's contents list, can save a pass; `found` receives this one's (`render.passes`)."""
    return lay_out(
        lambda: _book(path, book, game, icons, pictures, components, paper, low), book.path, contents, found
    )


def _book(path: Path, book, game, icons: dict, pictures: dict, components: dict, paper: str, low: bool):
    """The document, its story and its contents list (a `TableOfContents`), ready to be laid out."""
    pw, ph = paper_pt(paper)
    margin_x, margin_top, margin_bottom = 20 * MM, 22 * MM, 20 * MM
    frame_w = pw - 2 * margin_x
    doc = BookDoc(path, f"{game.title} — Rules" + (" (low ink)" if low else ""), game.title, icons, (pw, ph))
    doc.low_ink = low  # `drawer_for` reads it: every face in the book is drawn through the low-ink transform
    cover_frame = Frame(margin_x, margin_bottom, frame_w, ph - margin_top - margin_bottom, id="cover")
    body_frame = Frame(
        margin_x,
        margin_bottom,
        frame_w,
        ph - margin_top - margin_bottom,
        id="body",
        leftPadding=0,
        rightPadding=0,
    )

    def boxes(canv):
        canv.setTrimBox((0, 0, pw, ph))  # a bound book page: trim is the page
        canv.setBleedBox((0, 0, pw, ph))

    def cover(canv, d):
        boxes(canv)
        if d.drafting:
            return
        draw_cover(canv, game, pictures, icons, pw, ph, getattr(book, "cover", None), low)  # in game.words

    def running(canv, d):
        boxes(canv)
        canv.saveState()
        canv.setStrokeColor(HexColor("#cfc4b0"))
        canv.setLineWidth(0.5)
        canv.line(margin_x, ph - 14 * MM, pw - margin_x, ph - 14 * MM)
        canv.setFont(pdf_name("display-bold"), 8.5)
        canv.setFillColor(HexColor(ACCENT))
        canv.drawString(margin_x, ph - 12.5 * MM, game.title)
        canv.setFont(pdf_name("sans"), 8)
        canv.setFillColor(HexColor(MUTED))
        head = d.running_head()
        while (
            unit_width(head, "sans") * 8 > frame_w - 60 * MM and "  ·  " in head
        ):  # a long pair: the section
            head = head.split("  ·  ", 1)[1]
        canv.drawRightString(pw - margin_x, ph - 12.5 * MM, head)
        canv.drawCentredString(pw / 2, 11 * MM, str(d.page))
        canv.restoreState()

    doc.addPageTemplates(
        [
            PageTemplate(id="cover", frames=[cover_frame], onPage=cover),
            PageTemplate(id="body", frames=[body_frame], onPageEnd=running),
        ]
    )
    look = styles()
    pad = [("TOPPADDING", (0, 0), (-1, -1), TOC_PAD), ("BOTTOMPADDING", (0, 0), (-1, -1), TOC_PAD)]
    plain = ("FONTNAME", (0, 0), (-1, -1), pdf_name("sans"))  # not ReportLab's Helvetica (see PlainTable)
    toc = TableOfContents(
        dotsMinLevel=0, tableStyle=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), plain, *pad])
    )
    toc.levelStyles = toc_styles(look, book, ph - margin_top - margin_bottom - 40)
    builder = _Builder(
        icons,
        pictures,
        components,
        frame_w,
        getattr(book, "diagrams", {}),
        getattr(book, "cards", {}),
        getattr(book, "card_names", {}),
        game.words,
    )
    builder.page_height = ph - margin_top - margin_bottom  # a list or table taller may split however short
    body = builder.story(book.blocks)
    story: list = [NextPageTemplate("body"), PageBreak()]
    if headings(body):  # a book without sections has no contents page (it would list nothing)
        story += [Paragraph(esc(game.words("contents")), look["tochead"]), toc, PageBreak()]
    return doc, story + body, toc
