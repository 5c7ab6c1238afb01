"""Boards: each side tiled at true size across A4 or Letter pages, and each side on one full-size page.

Tiled pages: each page shows a window of the board; neighbouring windows overlap by a strip (10 mm) in which
alignment crosses are printed at the same board positions on both pages. A dashed line marks where a page's
overlap begins; a first page maps which page goes where. The board is drawn once per side (a Form XObject) and
every page clips to its window and places the form shifted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from pnpgen.render.pdf import FaceDrawer, colour, new_canvas
from pnpgen.text.fonts import pdf_name, unit_width
from pnpgen.units import MM, PAPERS

MARGIN = 8 * MM  # page edge to window (printers' margin plus room for the label)
OVERLAP = 10 * MM
CROSS = 3 * MM  # half-length of an alignment cross
CROSS_STEP = 40 * MM


@dataclass(frozen=True)
class Window:
    row: int
    col: int
    ox: float  # the window's origin in board coordinates (from the bleed's bottom-left corner), points
    oy: float
    w: float
    h: float


def page_size(total_w: float, total_h: float, paper: str) -> tuple[float, float]:
    """Portrait or landscape, whichever needs fewer pages (portrait on a tie)."""
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    portrait = len(tile_windows(total_w, total_h, (pw, ph))[0])
    landscape = len(tile_windows(total_w, total_h, (ph, pw))[0])
    return (ph, pw) if landscape < portrait else (pw, ph)


def tile_windows(total_w: float, total_h: float, page: tuple) -> tuple[list[Window], int, int, float, float]:
    """Windows covering a (total_w x total_h) board, rows from the top; (windows, rows, cols, win_w, win_h)."""
    pw, ph = page
    ww, wh = pw - 2 * MARGIN, ph - 2 * MARGIN - 6 * MM  # room for the label at the foot
    cols = max(1, math.ceil((total_w - OVERLAP) / (ww - OVERLAP))) if total_w > ww else 1
    rows = max(1, math.ceil((total_h - OVERLAP) / (wh - OVERLAP))) if total_h > wh else 1
    out = []
    for r in range(rows):
        for c in range(cols):
            ox = c * (ww - OVERLAP)
            top = total_h - r * (wh - OVERLAP)  # windows go down from the board's top edge
            oy = max(0.0, top - wh)
            out.append(Window(r, c, ox, oy, min(ww, total_w - ox), top - oy))
    return out, rows, cols, ww, wh


def crosses(total_w: float, total_h: float, rows: int, cols: int, ww: float, wh: float) -> list[tuple]:
    """Alignment crosses, board coordinates: along every overlap strip, at the strip's centre line."""
    pts = []
    for c in range(1, cols):
        x = c * (ww - OVERLAP) + OVERLAP / 2
        y = CROSS_STEP / 2
        while y < total_h:
            pts.append((x, y))
            y += CROSS_STEP
    for r in range(1, rows):
        y = total_h - r * (wh - OVERLAP) - OVERLAP / 2
        x = CROSS_STEP / 2
        while x < total_w:
            pts.append((x, y))
            x += CROSS_STEP
    return pts


def write_board_tiled(path: Path, board, faces: list, icons: dict, paper: str, title: str) -> int:
    b = board.bleed_pt
    pw, ph = page_size(board.width_pt + 2 * b, board.height_pt + 2 * b, paper)
    c = new_canvas(path, (pw, ph), title)
    drawer = FaceDrawer(c, icons)
    pages = 0
    total_w, total_h = board.width_pt + 2 * b, board.height_pt + 2 * b
    for side, face in zip(board.sides, faces):
        windows, rows, cols, ww, wh = tile_windows(total_w, total_h, (pw, ph))
        marks = crosses(total_w, total_h, rows, cols, ww, wh)
        if len(windows) > 1:  # a board on one page needs no map
            _map_page(c, board, side, windows, rows, cols, total_w, total_h, pw, ph)
            pages += 1
        form = drawer.face_form(face)
        for win in windows:
            left, top = MARGIN, ph - MARGIN  # the window's top-left on the page
            bottom = top - win.h
            c.saveState()
            p = c.beginPath()
            p.rect(left, bottom, win.w, win.h)
            c.clipPath(p, stroke=0, fill=0)
            # board point (bx, by) lands at (left + bx - ox, bottom + by - oy); the form's origin is the trim
            c.translate(left - win.ox + b, bottom - win.oy + b)
            c.doForm(form)
            c.restoreState()
            _window_marks(c, win, marks, rows, cols, left, bottom)
            _label(
                c,
                f"{board.name} · {side.name} · page {win.row + 1}-{win.col + 1} "
                f"(row {win.row + 1} of {rows}, column {win.col + 1} of {cols}) · true size",
                pw,
            )
            c.setTrimBox((left, bottom, left + win.w, bottom + win.h))
            c.setBleedBox((left, bottom, left + win.w, bottom + win.h))
            c.showPage()
            pages += 1
    c.save()
    return pages


def _window_marks(c, win: Window, marks, rows, cols, left, bottom) -> None:
    c.saveState()
    c.setStrokeColor(colour("#000000"))
    c.setLineWidth(0.4)
    for bx, by in marks:
        x, y = left + bx - win.ox, bottom + by - win.oy
        if left - 0.01 <= x <= left + win.w + 0.01 and bottom - 0.01 <= y <= bottom + win.h + 0.01:
            c.setStrokeColor(colour("#ffffff"))
            c.setLineWidth(1.6)
            c.line(x - CROSS, y, x + CROSS, y)
            c.line(x, y - CROSS, x, y + CROSS)
            c.setStrokeColor(colour("#000000"))
            c.setLineWidth(0.4)
            c.line(x - CROSS, y, x + CROSS, y)
            c.line(x, y - CROSS, x, y + CROSS)
    c.setDash([3, 2])
    c.setStrokeColor(colour("#c0392b"))
    c.setLineWidth(0.5)
    if win.col + 1 < cols:  # cut here, through the crosses, and lay this page over its right neighbour
        x = left + win.w - OVERLAP / 2
        c.line(x, bottom, x, bottom + win.h)
    if win.row + 1 < rows:  # likewise over the page below
        y = bottom + OVERLAP / 2
        c.line(left, y, left + win.w, y)
    c.restoreState()


def _label(c, text: str, pw: float) -> None:
    size = min(7.0, (pw - 2 * MARGIN) / max(unit_width(text, "sans"), 1e-6))
    c.setFillColor(colour("#555555"))
    c.setFont(pdf_name("sans"), size)
    c.drawCentredString(pw / 2, 5.5 * MM, text)


def _map_page(c, board, side, windows, rows, cols, total_w, total_h, pw, ph) -> None:
    c.setFillColor(colour("#222222"))
    c.setFont(pdf_name("display-bold"), 16)
    c.drawString(MARGIN, ph - MARGIN - 12, f"{board.name}: {side.name}")
    c.setFont(pdf_name("sans"), 9)
    lines = [
        f"True size {board.width_pt / MM:.0f} x {board.height_pt / MM:.0f} mm, printed on {len(windows)} pages "
        f"({rows} row{'s' if rows > 1 else ''} of {cols}).",
        f"Neighbouring pages repeat a {OVERLAP / MM:.0f} mm strip. Cut each page along its dashed red line (it runs",
        "through the crosses), lay it over its right or lower neighbour so its half crosses complete the",
        "neighbour's crosses, and glue. Start from the bottom-right page and work up and left.",
    ]
    for i, line in enumerate(lines):
        c.drawString(MARGIN, ph - MARGIN - 32 - i * 12, line)
    avail_w, avail_h = pw - 2 * MARGIN, ph - 2 * MARGIN - 90
    scale = min(avail_w / total_w, avail_h / total_h)
    ox = MARGIN + (avail_w - total_w * scale) / 2
    oy = MARGIN + (avail_h - total_h * scale) / 2
    c.setStrokeColor(colour("#222222"))
    c.setLineWidth(1.2)
    c.rect(ox, oy, total_w * scale, total_h * scale, stroke=1, fill=0)
    c.setLineWidth(0.5)
    for win in windows:
        x, y = ox + win.ox * scale, oy + win.oy * scale
        wdt, hgt = win.w * scale, win.h * scale
        c.setFillColor(colour("#eef1f5"))
        c.setStrokeColor(colour("#5b7391"))
        c.rect(x, max(y, oy), wdt, min(hgt, (y + hgt) - max(y, oy)), stroke=1, fill=0)
        c.setFillColor(colour("#222222"))
        c.setFont(pdf_name("sans-bold"), 11)
        c.drawCentredString(
            x + wdt / 2, max(y, oy) + min(hgt, (y + hgt) - max(y, oy)) / 2 - 4, f"{win.row + 1}-{win.col + 1}"
        )
    c.setTrimBox((0, 0, pw, ph))
    c.setBleedBox((0, 0, pw, ph))
    c.showPage()


def write_board_full(path: Path, board, faces: list, icons: dict, title: str) -> int:
    """Each side on one page of the board's full size plus bleed; TrimBox at the board's edge."""
    b = board.bleed_pt
    size = (board.width_pt + 2 * b, board.height_pt + 2 * b)
    c = new_canvas(path, size, title)
    drawer = FaceDrawer(c, icons)
    for face in faces:
        drawer.draw_face(face, b, b)
        c.setTrimBox((b, b, b + board.width_pt, b + board.height_pt))
        c.setBleedBox((0, 0, size[0], size[1]))
        c.showPage()
    c.save()
    return len(faces)
