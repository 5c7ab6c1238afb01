"""Boards tiled at true size across pages: which window of the board each page shows, and where the alignment
crosses go. Pure geometry in points; the board's origin is its bleed's bottom-left corner.

Neighbouring windows overlap by a strip (10 mm) in which alignment crosses are printed at the same board
positions on both pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnpgen.units import MM, paper_pt

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
    pw, ph = paper_pt(paper)
    portrait = len(tile_windows(total_w, total_h, (pw, ph))[0])
    landscape = len(tile_windows(total_w, total_h, (ph, pw))[0])
    return (ph, pw) if landscape < portrait else (pw, ph)


def tile_windows(
    total_w: float, total_h: float, page: tuple[float, float]
) -> tuple[list[Window], int, int, float, float]:
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


def crosses(
    total_w: float, total_h: float, rows: int, cols: int, ww: float, wh: float
) -> list[tuple[float, float]]:
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
