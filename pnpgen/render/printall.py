"""The print-all file (`pipeline/printall.py` plans it): a print-and-build page, then every sheet in print order.

The first page tells a player how to print (paper, 100 %, the duplex setting), which pages hold what and how to
cut them, and what to bring from home. In a duplex form each page that has no back of its own is followed by a
nearly blank page (a one-line note, so that no printer drops it as empty and puts the next sheet on its back).
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.imposition import PiecePlan
from pnpgen.imposition.duplex import Duplex
from pnpgen.render.guide import draw_guide_page
from pnpgen.render.pdf import colour
from pnpgen.render.sheets import PdfWriter
from pnpgen.text.fonts import pdf_name
from pnpgen.units import MM, paper_pt
from pnpgen.words import Words

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
    draw_guide_page(c, doc.title, guide_lines(doc), pw, ph)
    writer.pages += 1
    if doc.duplex:
        _blank(writer, doc.words)
    duplex = Duplex(doc.flip, *doc.offset)
    for section in doc.sections:  # a face this file places once is drawn on its page, not made a form
        for sheet in section.sheets:
            writer.drawer.count(sheet.fronts)
            if sheet.backs is not None:
                writer.drawer.count(sheet.backs)
    for section in doc.sections:
        if section.board is not None:
            board, faces = section.board
            blank = (lambda: _blank(writer, doc.words)) if doc.duplex else None
            from pnpgen.render.board import draw_board_tiled  # a game with a board: here, not for every game

            drawn = draw_board_tiled(
                c, writer.drawer, board, faces, doc.paper, after_page=blank, words=doc.words
            )
            writer.pages += drawn  # the blank backs counted themselves
            continue
        for sheet in section.sheets:
            c.setPageSize((pw, ph))
            page = writer.piece_page if isinstance(sheet.plan, PiecePlan) else writer.sheet_page
            page(sheet.plan, sheet.fronts, False, f"{sheet.label} · {doc.words('fronts')}")
            if sheet.backs is not None:
                page(sheet.plan, sheet.backs, True, f"{sheet.label} · {doc.words('backs')}", duplex)
            elif doc.duplex:
                _blank(writer, doc.words)
    writer.save()
    return writer.pages


def _blank(writer: PdfWriter, words: Words) -> None:
    """The back of a page that has none, the size of that page: a small grey note (in the game's `words`), so
    that no printer skips the page as empty."""
    c = writer.c
    pw, ph = c._pagesize
    c.setFillColor(colour("#9a9a9a"))
    c.setFont(pdf_name("sans"), 6)
    c.drawCentredString(pw / 2, 6 * MM, words("blank_back", page=writer.pages))
    c.showPage()
    writer.pages += 1


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
    if doc.folded:
        how.append(
            f"No duplex printer? {', '.join(doc.folded)} {'holds' if len(doc.folded) == 1 else 'hold'} the same "
            "fronts and backs as fold-over sheets: print them single-sided, fold on the dashed line, then cut."
        )
    if doc.checklists:
        one = len(doc.checklists) == 1
        how.append(
            f"Checklist{'' if one else 's'}: {', '.join(doc.checklists)} {'lists' if one else 'list'} every piece of "
            f"{'its deck' if one else 'each deck'} with how many to make and a box to tick: tick each one as you "
            "cut it, and nothing goes missing."
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
