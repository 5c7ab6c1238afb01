"""Punchboard sheets for a factory (`pnpgen.shop.punchboard` places the pieces): the printed art with every
piece's die line in the spot colour `die-cut`, set to overprint, and the die lines alone as a separate file.

The spot colour's stand-in for a screen is 100 % magenta; a factory replaces it with its cutting rule.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import CMYKColorSep

from pnpgen.render.pdf import FaceDrawer, new_canvas

DIE_CUT = "die-cut"
DIE_WIDTH = 0.5  # pt


def _die_colour():
    return CMYKColorSep(0, 1, 0, 0, spotName=DIE_CUT, density=1)


def _die_lines(c, shape: str, w: float, h: float, slots) -> None:
    from pnpgen.shapes import outline

    c.saveState()
    c.setStrokeColor(_die_colour())
    c.setStrokeOverprint(True)
    c.setOverprintMask(True)
    c.setLineWidth(DIE_WIDTH)
    for slot in slots:
        p = c.beginPath()
        if shape == "circle":
            p.circle(slot.x + w / 2, slot.y + h / 2, w / 2)
        elif shape in ("rect", "square"):
            p.rect(slot.x, slot.y, w, h)
        else:
            pts = outline(shape, w, h)
            assert pts is not None, shape  # only circles and rectangles have none: drawn above
            p.moveTo(slot.x + pts[0][0], slot.y + pts[0][1])
            for x, y in pts[1:]:
                p.lineTo(slot.x + x, slot.y + y)
            p.close()
        c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def write_punchboards(path: Path, sheets: list, icons: dict, title: str) -> None:
    """Art: for each sheet (`(board, slots, faces_by_piece)`), a page of faces with their die lines on top."""
    first = sheets[0][0]
    c = new_canvas(path, (first.width_pt, first.height_pt), title)
    drawer = FaceDrawer(c, icons)
    for _board, slots, by_piece in sheets:
        face0 = by_piece[slots[0].piece]
        for slot in slots:
            drawer.draw_face(by_piece[slot.piece], slot.x, slot.y)
        _die_lines(c, face0.shape, face0.width_pt, face0.height_pt, slots)
        c.showPage()
    c.save()


def write_die_file(path: Path, sheets: list, title: str) -> None:
    """The die lines alone, sheet for sheet (fronts only: the die cuts from the printed side)."""
    first = sheets[0][0]
    c = new_canvas(path, (first.width_pt, first.height_pt), title)
    for _board, slots, by_piece in sheets:
        face0 = by_piece[slots[0].piece]
        _die_lines(c, face0.shape, face0.width_pt, face0.height_pt, slots)
        c.showPage()
    c.save()
