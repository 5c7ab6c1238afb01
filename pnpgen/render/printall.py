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
from pnpgen.text.labels import shorten
from pnpgen.units import MM, paper_pt
from pnpgen.words import Words


def write_print_all(path: Path, doc, icons: dict) -> int:
    """Write one form of the print-all file; returns its page count (which `doc.pages` announced)."""
    pw, ph = paper_pt(doc.paper)
    ink = "low ink, " if doc.low else ""
    writer = PdfWriter(
        path,
        (pw, ph),
        f"{doc.title} — print and build",
        f"{doc.title}: every component, {ink}{doc.paper.upper()}, {doc.words(f'flip_{doc.flip}')}",
        icons,
    )
    c = writer.c
    draw_guide_page(c, doc.title, guide_lines(doc), pw, ph, doc.words)
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
    c.drawCentredString(
        pw / 2, 6 * MM, shorten(words("blank_back", page=writer.pages), "sans", 6, pw - 30 * MM)
    )
    c.showPage()
    writer.pages += 1


def guide_lines(doc) -> dict:
    """The print-and-build page's words, as plain text: what a test reads back from the PDF, and what is drawn; in
    the game's words (`doc.words`)."""
    words = doc.words
    dx, dy, angle = doc.offset
    flip = words(f"flip_{doc.flip}")
    how = [words("guide_paper", paper=words(f"paper_{doc.paper}"), flip=flip)]
    if doc.duplex:
        how.append(words("guide_one_job", pages=doc.pages))
        how.append(words("guide_first_sheet"))
    else:
        how.append(words("guide_glue"))
    if doc.folded:
        how.append(
            words("guide_fold_one" if len(doc.folded) == 1 else "guide_fold", files=", ".join(doc.folded))
        )
    if doc.checklists:
        one = len(doc.checklists) == 1
        how.append(
            words("guide_checklist_one" if one else "guide_checklist", files=", ".join(doc.checklists))
        )
    if dx or dy or angle:
        shift = {"dx": words.number(dx / MM, "+.1f"), "dy": words.number(dy / MM, "+.1f")}
        how.append(
            words("guide_shifted_turned", **shift, angle=words.number(angle, "+.2f"))
            if angle
            else words("guide_shifted", **shift)
        )
    if doc.low:
        how.append(words("guide_low_ink"))
    rows = [
        (f"{s.first}\u2013{s.last}" if s.last > s.first else f"{s.first}", s.title, s.how)
        for s in doc.sections
    ]
    tools = [words("guide_knife")]
    if any(s.kind == "board" for s in doc.sections) or not doc.duplex:
        tools.append(words("guide_glue_stick"))
    if any(s.kind == "pieces" for s in doc.sections):
        tools.append(words("guide_card_stock"))
    supply = list(doc.supply)
    saved = doc.sheets_apart - doc.sheets
    key = "guide_sheet" if doc.sheets == 1 else "guide_sheets"
    tail = [words(f"{key}_saved", n=doc.sheets, saved=saved) if saved > 0 else words(key, n=doc.sheets)]
    if doc.rulebook:
        tail.append(words("guide_rulebook"))
    return {"how": how, "rows": rows, "tools": tools, "supply": supply, "tail": tail}
