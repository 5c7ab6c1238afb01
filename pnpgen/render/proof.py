"""A proof: rows of pictures side by side with a label each, on A4 landscape (`pnpgen changes` draws old | new |
difference this way). The pictures are PIL images; only their layout on the page is drawn here."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.utils import ImageReader

from pnpgen.render.pdf import new_canvas
from pnpgen.text.fonts import pdf_name
from pnpgen.units import MM

PAGE = (297 * MM, 210 * MM)
ROWS = 3  # a page
MARGIN = 12 * MM


def write_proof(path: Path, title: str, rows: list, empty: str) -> int:
    """Each row is (label, [(image or None, caption), ...]) with up to three pictures; `empty` is the one line
    shown when there are no rows. Returns the page count."""
    page_w, page_h = PAGE
    c = new_canvas(path, PAGE, title, "old | new | difference")
    if not rows:
        c.setFont(pdf_name("sans"), 14)
        c.drawString(MARGIN, page_h - MARGIN - 14, empty)
        c.showPage()
        c.save()
        return 1
    row_h = (page_h - 2 * MARGIN - 10 * MM) / ROWS
    column = (page_w - 2 * MARGIN) / 3
    for i, (label, pictures) in enumerate(rows):
        slot = i % ROWS
        if slot == 0:
            if i:
                c.showPage()
            c.setFont(pdf_name("sans-bold"), 12)
            c.setFillColorRGB(0, 0, 0)
            c.drawString(MARGIN, page_h - MARGIN - 10, title)
        top = page_h - MARGIN - 10 * MM - slot * row_h
        c.setFont(pdf_name("sans"), 9)
        c.setFillColorRGB(0.2, 0.2, 0.2)
        c.drawString(MARGIN, top - 10, label)
        box_h = row_h - 16
        for k, (image, caption) in enumerate(pictures):
            x = MARGIN + k * column
            if image is None:
                continue
            w = min(column - 6 * MM, image.width * box_h / image.height)
            h = w * image.height / image.width
            c.drawImage(ImageReader(image), x, top - 14 - h, w, h)
            c.setFont(pdf_name("sans"), 7)
            c.drawString(x, top - 14 - h - 8, caption)
    c.showPage()
    c.save()
    return (len(rows) + ROWS - 1) // ROWS
