"""The spec sheet as a PDF: the game, the target, the rules check's summary and one table row per component."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Frame, Paragraph, Spacer, TableStyle

from pnpgen.render.flowables import PlainTable
from pnpgen.render.pdf import new_canvas
from pnpgen.text.fonts import pdf_name
from pnpgen.units import MM, paper_pt

HEADINGS = ("Component", "Kind", "Size", "Sides", "Pieces", "Files", "Stock", "Rules check")


def write_spec_pdf(path: Path, title: str, lines: list[str], rows: list) -> None:
    """A landscape A4 page (or more) with `lines` of summary and the table of `rows` (`shop.spec.SpecRow`)."""
    h, w = paper_pt("a4")  # landscape
    c = new_canvas(path, (w, h), title)
    body = ParagraphStyle("spec", fontName=pdf_name("sans"), fontSize=7.5, leading=9)
    head = ParagraphStyle("spech", parent=body, fontName=pdf_name("sans-bold"))
    big = ParagraphStyle("spect", parent=body, fontName=pdf_name("display-bold"), fontSize=16, leading=20)

    def cell(text, style=body):
        return Paragraph(str(text).replace("&", "&amp;").replace("<", "&lt;"), style)

    data = [[cell(t, head) for t in HEADINGS]]
    for r in rows:
        data.append(
            [
                cell(f"{r.name} ({r.component})"),
                cell(f"{r.kind}, {r.shape}"),
                cell(r.size),
                cell(r.sides),
                cell(r.pieces),
                cell(r.files),
                cell(r.stock),
                cell(r.check),
            ]
        )
    widths = [x * MM for x in (42, 22, 38, 13, 13, 60, 45, 30)]
    table = PlainTable(data, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, HexColor("#333333")),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, HexColor("#bbbbbb")),
            ]
        )
    )
    story = [cell(title, big), Spacer(1, 3 * MM)] + [cell(t) for t in lines] + [Spacer(1, 4 * MM), table]
    while story:
        frame = Frame(12 * MM, 12 * MM, w - 24 * MM, h - 24 * MM, showBoundary=0)
        before = len(story)
        frame.addFromList(story, c)
        c.showPage()
        if len(story) == before:  # nothing fitted: never loop
            break
    c.save()
