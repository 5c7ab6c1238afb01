"""Punchboard sheets for a factory: pieces in rows with a fixed gap between their die lines. Pure geometry.

Each piece takes its bounding box; boxes stand `gap_pt` apart (6 mm: what die makers ask between cutting rules,
so the board between two pieces holds), and a piece's bleed (3 mm) fills half the gap on each side. Shaped
pieces (hexes, circles, triangles) stand in their boxes, so their die lines are at least the gap apart too.
Backs are printed on the other side of the board: a back sheet is its front sheet mirrored left to right.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.units import MM

SHEET_MM = (280.0, 280.0)  # a punchboard that fits a 290 mm square box
MARGIN_MM = 10.0  # board round the pieces: the factory's grip and waste


@dataclass(frozen=True)
class Slot:
    piece: int  # index into the pieces placed
    x: float  # the trim's bottom-left, PDF coordinates (points, origin bottom-left of the sheet)
    y: float


@dataclass(frozen=True)
class Board:
    width_pt: float
    height_pt: float
    slots: tuple  # Slot, ...

    def mirrored(self, piece_w: float) -> tuple:
        """The slots of the back of this sheet: each piece where it lands when the board is turned over."""
        return tuple(Slot(s.piece, self.width_pt - s.x - piece_w, s.y) for s in self.slots)


def plan(
    count: int, w: float, h: float, gap_pt: float, sheet_mm=SHEET_MM, margin_mm=MARGIN_MM
) -> list[Board]:
    """`count` pieces of w x h points on as many sheets as they need, rows from the top, `gap_pt` apart."""
    sw, sh, m = sheet_mm[0] * MM, sheet_mm[1] * MM, margin_mm * MM
    cols = int((sw - 2 * m + gap_pt) // (w + gap_pt))
    rows = int((sh - 2 * m + gap_pt) // (h + gap_pt))
    if cols < 1 or rows < 1:
        raise ValueError(
            f"a {w / MM:.1f} x {h / MM:.1f} mm piece does not fit a {sheet_mm[0]:g} x {sheet_mm[1]:g} mm punchboard"
        )
    used_w = cols * w + (cols - 1) * gap_pt
    used_h = rows * h + (rows - 1) * gap_pt
    x0, top = (sw - used_w) / 2, (sh + used_h) / 2
    per = cols * rows
    boards = []
    for start in range(0, count, per):
        slots = []
        for k in range(min(per, count - start)):
            r, c = divmod(k, cols)
            slots.append(Slot(start + k, x0 + c * (w + gap_pt), top - (r + 1) * h - r * gap_pt))
        boards.append(Board(sw, sh, tuple(slots)))
    return boards


def least_gap(board: Board, w: float, h: float) -> float:
    """The smallest distance between two pieces' boxes on a sheet (infinite for one piece)."""
    best = float("inf")
    slots = board.slots
    for i, a in enumerate(slots):
        for b in slots[i + 1 :]:
            dx = max(b.x - (a.x + w), a.x - (b.x + w), 0.0)
            dy = max(b.y - (a.y + h), a.y - (b.y + h), 0.0)
            best = min(best, max(dx, dy) if dx == 0 or dy == 0 else (dx * dx + dy * dy) ** 0.5)
    return best
