"""The print-all file (`pipeline/printall.py` plans it): a print-and-build page, then every sheet in print order.

The first page tells a player how to print (paper, 100 %, the duplex setting), which pages hold what and how to
cut them, and what to bring from home. In a duplex form each page that has no back of its own is followed by a
nearly blank page (a one-line note, so that no printer drops it as empty and puts the next sheet on its back).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Frame, Paragraph, Spacer, TableStyle

from pnpgen.imposition import PiecePlan
from pnpgen.imposition.duplex import Duplex
from pnpgen.render.board import draw_board_tiled
from pnpgen.render.flowables import ACCENT, INK, MUTED, PlainTable, esc
from pnpgen.render.pdf import colour
from pnpgen.render.sheets import PdfWriter
from pnpgen.text.fonts import pdf_name
from pnpgen.units import MM, paper_pt

PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}
FLIP_WORDS = {
    "long": "double-sided, flipping on the long edge (\u201clong-edge binding\u201d)",
    "short": "double-sided, flipping on the short edge (\u201cshort-edge binding\u201d)",
    "none": "single-sided",
}


def write_print_all(path: Path, doc, icons: dict) -> int:
    """Write one form of the print-all file; returns its page count (which `doc.pages` announced)."""
    pw, ph = paper_pt(doc.paper)
    ink = "low ink, " if doc.low else ""
    writer = PdfWriter(
        path,
        (pw, ph),
        f"{doc.title} — print and build",
        f"{doc.title}: every component, {ink}{doc.paper.upper()}, {FLIP_WORDS[doc.flip]}",
        icons,
    )
    c = writer.c
    _guide_page(c, doc, pw, ph)
    writer.pages += 1
    if doc.duplex:
        _blank(writer)
    duplex = Duplex(doc.flip, *doc.offset)
    for section in doc.sections:  # a face this file places once is drawn on its page, not made a form
        for sheet in section.sheets:
            writer.drawer.count(sheet.fronts)
            if sheet.backs is not None:
                writer.drawer.count(sheet.backs)
    for section in doc.sections:
        if section.board is not None:
            board, faces = section.board
            blank = (lambda: _blank(writer)) if doc.duplex else None
            drawn = draw_board_tiled(c, writer.drawer, board, faces, doc.paper, after_page=blank)
            writer.pages += drawn  # the blank backs counted themselves
            continue
        for sheet in section.sheets:
            c.setPageSize((pw, ph))
            page = writer.piece_page if isinstance(sheet.plan, PiecePlan) else writer.sheet_page
            page(sheet.plan, sheet.fronts, False, f"{sheet.label} · fronts")
            if sheet.backs is not None:
                page(sheet.plan, sheet.backs, True, f"{sheet.label} · backs", duplex)
            elif doc.duplex:
                _blank(writer)
    writer.save()
    return writer.pages


def _blank(writer: PdfWriter) -> None:
    """The back of a page that has none, the size of that page: a small grey note, so that no printer skips
    the page as empty."""
    c = writer.c
    pw, ph = c._pagesize
    c.setFillColor(colour("#9a9a9a"))
    c.setFont(pdf_name("sans"), 6)
    c.drawCentredString(
        pw / 2, 6 * MM, f"This side is the back of page {writer.pages}: left blank on purpose."
    )
    c.showPage()
    writer.pages += 1


def _styles() -> dict:
    base = {
        "fontName": pdf_name("sans"),
        "bulletFontName": pdf_name("sans"),  # platypus would set bullets in an unembedded Helvetica
        "fontSize": 9.5,
        "leading": 12.5,
        "textColor": HexColor(INK),
    }
    return {
        "title": ParagraphStyle(
            "title", **{**base, "fontName": pdf_name("display-bold"), "fontSize": 20, "leading": 24}
        ),
        "sub": ParagraphStyle("sub", **{**base, "textColor": HexColor(MUTED), "spaceAfter": 6}),
        "h": ParagraphStyle(
            "h",
            **{
                **base,
                "fontName": pdf_name("sans-bold"),
                "fontSize": 11,
                "leading": 14,
                "textColor": HexColor(ACCENT),
                "spaceBefore": 8,
                "spaceAfter": 3,
            },
        ),
        "body": ParagraphStyle("body", **{**base, "spaceAfter": 3}),
        "item": ParagraphStyle("item", **{**base, "leftIndent": 10, "bulletIndent": 2, "spaceAfter": 1.5}),
        "cell": ParagraphStyle("cell", **{**base, "fontSize": 8.5, "leading": 10.5}),
        "head": ParagraphStyle(
            "head", **{**base, "fontName": pdf_name("sans-bold"), "fontSize": 8.5, "leading": 10.5}
        ),
    }


def guide_lines(doc) -> dict:
    """The print-and-build page's words, as plain text: what a test reads back from the PDF, and what is drawn."""
    dx, dy, angle = doc.offset
    how = [
        f"Paper: {PAPER_NAMES[doc.paper]}, {FLIP_WORDS[doc.flip]}. Print at 100 % (\u201cactual size\u201d): turn off "
        "\u201cfit to page\u201d and \u201cshrink oversized pages\u201d, or every piece comes out smaller.",
    ]
    if doc.duplex:
        how.append(
            f"Print pages 1 to {doc.pages} in one double-sided job. Every page that has no back of its own is "
            "followed by a blank one, so each sheet's backs land behind its fronts."
        )
        how.append(
            "Before printing everything, print the first sheet (its fronts and backs) and hold it against "
            "the light: the cut marks of both sides should meet. If they do not, shift the back side with your "
            "printer's duplex offset (image shift) setting; if it has none, print the pages of backs on sheets "
            "of their own and glue each behind its fronts, cut marks lined up against a window."
        )
    else:
        how.append(
            "Each page of backs follows its page of fronts. Glue each backs page to its fronts page, back to "
            "back, lining the cut marks up against a window, and cut once the glue is dry."
        )
    if dx or dy or angle:
        how.append(
            f"Backs are shifted by {dx / MM:+.1f} mm across and {dy / MM:+.1f} mm up"
            + (f" and turned {angle:+.2f}\u00b0" if angle else "")
            + " to correct your printer."
        )
    if doc.low:
        how.append("This is the low-ink form: pale fills and outlines, black text.")
    rows = [
        (f"{s.first}\u2013{s.last}" if s.last > s.first else f"{s.first}", s.title, s.how)
        for s in doc.sections
    ]
    tools = ["a craft knife, a metal ruler and a cutting mat (scissors will do for cards)"]
    if any(s.kind == "board" for s in doc.sections) or not doc.duplex:
        tools.append("a glue stick")
    if any(s.kind == "pieces" for s in doc.sections):
        tools.append(
            "card stock (200\u2013300 g/m\u00b2) or thin greyboard to glue tiles and tokens onto, if you like them sturdy"
        )
    supply = list(doc.supply)
    saved = doc.sheets_apart - doc.sheets
    tail = [
        f"The components take {doc.sheets} sheet{'s' if doc.sheets != 1 else ''} of paper"
        + (
            f", {saved} fewer than printing each from its own file: small sets share sheets."
            if saved > 0
            else "."
        )
    ]
    if doc.rulebook:
        tail.append("The rules are in rulebook.pdf: print it double-sided, flipping on the long edge.")
    return {"how": how, "rows": rows, "tools": tools, "supply": supply, "tail": tail}


def _guide_page(c, doc, pw: float, ph: float) -> None:
    st = _styles()
    words = guide_lines(doc)
    story: list = [
        Paragraph(esc(f"{doc.title}: print and build"), st["title"]),
        Paragraph(esc("Everything this game needs, in the order to print it."), st["sub"]),
        Paragraph("How to print", st["h"]),
    ]
    story += [Paragraph(esc(line), st["item"], bulletText="\u2022") for line in words["how"]]
    story.append(Paragraph("What is on which pages", st["h"]))
    data = [[Paragraph(h, st["head"]) for h in ("Pages", "What", "Then")]]
    data += [[Paragraph(esc(cell), st["cell"]) for cell in row] for row in words["rows"]]
    width = pw - 30 * MM
    table = PlainTable(data, colWidths=[16 * MM, width * 0.46, width - 16 * MM - width * 0.46], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, HexColor(ACCENT)),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, HexColor("#c9c2b6")),
                ("TOPPADDING", (0, 0), (-1, -1), 2.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ]
        )
    )
    story.append(table)
    story.append(Paragraph("What you need", st["h"]))
    story += [Paragraph(esc(t), st["item"], bulletText="\u2022") for t in words["tools"]]
    if words["supply"]:
        story.append(Paragraph("From home, as well (not printed)", st["h"]))
        story += [Paragraph(esc(t), st["item"], bulletText="\u2022") for t in words["supply"]]
    story.append(Spacer(1, 6))
    story += [Paragraph(esc(t), st["body"]) for t in words["tail"]]
    frame = Frame(15 * MM, 12 * MM, pw - 30 * MM, ph - 27 * MM, showBoundary=0)
    frame.addFromList(story, c)  # takes what fits from `story`
    if story:
        # too long for one page (a game of very many components): say so rather than drop rows
        c.setFillColor(colour("#9a9a9a"))
        c.setFont(pdf_name("sans"), 7)
        c.drawString(15 * MM, 8 * MM, "The list goes on: see each page's label for what it holds.")
    c.setFillColor(colour("#9a9a9a"))
    c.setFont(pdf_name("sans"), 6)
    c.drawRightString(pw - 15 * MM, 6 * MM, "page 1")
    _boxes(c, pw, ph)
    c.showPage()


def _boxes(c, pw: float, ph: float) -> None:
    """A page of words, not pieces: nothing is cut from it, so its trim is the paper."""
    c.setTrimBox((0, 0, pw, ph))
    c.setBleedBox((0, 0, pw, ph))
