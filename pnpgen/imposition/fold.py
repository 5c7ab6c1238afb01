"""Fold-over (gutterfold) sheets: each front beside its own back on one page, mirrored about a fold line, so the
sheet is printed single-sided, folded along the line (glued if you like) and cut: every back lies behind its
front whatever the printer does with a second side.

Pure geometry in points. The page may turn landscape and the fold run across or along it, whichever holds the
most cards; each half is a grid (with gutters, every card keeping its full bleed all round, or with shared cut lines and bleed
on the outer edges, whichever holds more), its inner edge `FOLD_GAP` from the fold line, and the back half is the front half mirrored about the line. Folding about a line
along the page turns the backs over sideways, like a long-edge flip (backs upright); folding about a line across
it turns them over top to bottom, so each back is drawn turned half round, as a short-edge flip needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnpgen.imposition.duplex import Box, Duplex
from pnpgen.imposition.sheets import MARGIN, ImpositionError, Label, Mark, Slot, marks_on
from pnpgen.units import MM, PAPERS, paper_pt

FOLD_GAP = (
    3 * MM
)  # between the fold line and the nearest card's bleed: a fold a little off still misses the art
MARK_LEN = 4 * MM
MARK_ROOM = MARK_LEN + 0.5 * MM  # a mark starts 0.5 mm outside the bleed
LABEL_BAND = 3.5 * MM


@dataclass(frozen=True)
class FoldPlan:
    paper: str
    paper_w: float  # of the page as laid out (landscape when that holds more)
    paper_h: float
    along: bool  # True: the fold line runs up the page (x = fold); False: across it (y = fold)
    fold: float
    slots: tuple[Slot, ...]  # front slots (trim boxes), row-major
    backs: tuple[Slot, ...]  # each front's back, mirrored about the fold line
    marks: tuple[Mark, ...]
    label: Label

    @property
    def per_sheet(self) -> int:
        return len(self.slots)

    @property
    def turned(self) -> bool:
        """Whether backs are drawn turned half round (a fold across the page)."""
        return not self.along

    def back_slots(self, duplex: Duplex | None = None) -> tuple[Slot, ...]:
        return self.backs

    def opened(self, fronts: list[bool], backs: list[bool]) -> tuple[tuple[Slot, ...], tuple[Slot, ...]]:
        """The front and back slots with the full bleed on every side whose neighbour holds no face (a partial
        sheet's last row, a card without a back): there the art runs on, so no outer edge is left bare."""
        return opened(self.slots, fronts), opened(self.backs, backs)

    def cut_marks(self, fronts: list[bool], backs: list[bool]) -> tuple[Mark, ...]:
        """The marks of the cut lines some front or back on the sheet has an edge on, as `SheetPlan.cut_marks`:
        a partial sheet's empty rows and columns get none."""
        held = [*(s for s, p in zip(self.slots, fronts) if p), *(s for s, p in zip(self.backs, backs) if p)]
        return self.marks if len(held) == 2 * len(self.slots) else marks_on(self.marks, held)

    @property
    def trim_box(self) -> Box:
        every = self.slots + self.backs
        return (
            min(s.x for s in every),
            min(s.y for s in every),
            max(s.x + s.w for s in every),
            max(s.y + s.h for s in every),
        )

    @property
    def bleed_box(self) -> Box:
        every = self.slots + self.backs
        return (
            min(s.x - s.bleed[0] for s in every),
            min(s.y - s.bleed[1] for s in every),
            max(s.x + s.w + s.bleed[2] for s in every),
            max(s.y + s.h + s.bleed[3] for s in every),
        )


def _fit(avail: float, size: float, gap: float) -> int:
    return max(0, int(math.floor((avail + gap + 1e-6) / (size + gap))))


def plan_fold(paper: str, card_w: float, card_h: float, bleed: float) -> FoldPlan:
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (a4 or letter)")
    pw, ph = paper_pt(paper)
    edge = bleed + MARK_ROOM  # room outside a grid's trim for its bleed and marks
    best = None
    for landscape in (False, True):
        w, h = (ph, pw) if landscape else (pw, ph)
        for along in (True, False):
            # each half: from the margin (and, across the label's side, the label band) to the fold's gap
            if along:
                room_w, room_h = (
                    w / 2 - MARGIN - edge - FOLD_GAP - bleed,
                    h - 2 * MARGIN - 2 * edge - LABEL_BAND,
                )
            else:
                room_w, room_h = (
                    w - 2 * MARGIN - 2 * edge - LABEL_BAND,
                    h / 2 - MARGIN - edge - FOLD_GAP - bleed,
                )
            for g in (2 * bleed, 0.0):  # gutters (every card its full bleed) win a tie over shared cut lines
                cols, rows = _fit(room_w, card_w, g), _fit(room_h, card_h, g)
                if best is None or cols * rows > best[0]:
                    best = (cols * rows, along, cols, rows, w, h, g)
    assert best is not None  # four layouts were tried
    count, along, cols, rows, w, h, g = best
    if count == 0:
        raise ImpositionError(
            f"a {card_w / MM:.1f} x {card_h / MM:.1f} mm card and its back do not fit side by side on "
            f"{paper.upper()} paper for folding; print it duplex instead"
        )
    grid_w = cols * card_w + (cols - 1) * g
    grid_h = rows * card_h + (rows - 1) * g
    fold = w / 2 if along else h / 2
    if along:  # fronts on the left half, their inner edge FOLD_GAP + bleed from the fold; the label below
        x0 = fold - FOLD_GAP - bleed - grid_w
        y0 = MARGIN + LABEL_BAND + (h - 2 * MARGIN - LABEL_BAND - grid_h) / 2
        label = Label(w / 2, MARGIN + LABEL_BAND / 2, w - 2 * MARGIN, LABEL_BAND, False)
    else:  # fronts on the top half; the label up the left side
        x0 = MARGIN + LABEL_BAND + (w - 2 * MARGIN - LABEL_BAND - grid_w) / 2
        y0 = fold + FOLD_GAP + bleed
        label = Label(MARGIN + LABEL_BAND / 2, h / 2, h - 2 * MARGIN, LABEL_BAND, True)
    slots, backs = [], []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (card_w + g)
            y = y0 + grid_h - (r + 1) * card_h - r * g
            if g:  # gutters: bleed all round
                b = (bleed, bleed, bleed, bleed)
            else:  # shared cut lines: bleed on the grid's outer edges only
                b = (
                    bleed if c == 0 else 0.0,
                    bleed if r == rows - 1 else 0.0,
                    bleed if c == cols - 1 else 0.0,
                    bleed if r == 0 else 0.0,
                )
            slots.append(Slot(x, y, card_w, card_h, b))
            left, bottom, right, top = b
            if along:
                backs.append(Slot(2 * fold - x - card_w, y, card_w, card_h, (right, bottom, left, top)))
            else:
                backs.append(Slot(x, 2 * fold - y - card_h, card_w, card_h, (left, top, right, bottom)))
    marks = _marks(slots + backs, bleed)
    return FoldPlan(paper, w, h, along, fold, tuple(slots), tuple(backs), tuple(marks), label)


def _marks(slots: list[Slot], bleed: float) -> list[Mark]:
    """Cut marks on the outer sides of the two grids, along every cut line; none crosses the fold."""
    xs = sorted({round(v, 4) for s in slots for v in (s.x, s.x + s.w)})
    ys = sorted({round(v, 4) for s in slots for v in (s.y, s.y + s.h)})
    left, right = min(xs) - bleed, max(xs) + bleed
    bottom, top = min(ys) - bleed, max(ys) + bleed
    out = []
    for x in xs:
        out.append(Mark(x, top + 0.5 * MM, x, top + 0.5 * MM + MARK_LEN))
        out.append(Mark(x, bottom - 0.5 * MM, x, bottom - 0.5 * MM - MARK_LEN))
    for y in ys:
        out.append(Mark(left - 0.5 * MM, y, left - 0.5 * MM - MARK_LEN, y))
        out.append(Mark(right + 0.5 * MM, y, right + 0.5 * MM + MARK_LEN, y))
    return out


def opened(slots: tuple[Slot, ...], present: list[bool]) -> tuple[Slot, ...]:
    """`slots` with each side that has no bleed (a shared cut line) given the grid's bleed where the slot across
    that line holds no face."""
    bleed = max((b for s in slots for b in s.bleed), default=0.0)
    present = list(present) + [False] * (len(slots) - len(present))  # a partial sheet's empty slots
    held = [s for s, p in zip(slots, present) if p]

    def beside(s: Slot, side: int) -> bool:  # a slot holding a face shares this side of `s`
        for o in held:
            if o is s:
                continue
            if side in (0, 2):
                edge, other = (s.x, o.x + o.w) if side == 0 else (s.x + s.w, o.x)
                if abs(edge - other) < 0.01 and o.y < s.y + s.h - 0.01 and s.y < o.y + o.h - 0.01:
                    return True
            else:
                edge, other = (s.y, o.y + o.h) if side == 1 else (s.y + s.h, o.y)
                if abs(edge - other) < 0.01 and o.x < s.x + s.w - 0.01 and s.x < o.x + o.w - 0.01:
                    return True
        return False

    out = []
    for s, p in zip(slots, present):
        if p:
            b = tuple(v if v > 0 or beside(s, k) else bleed for k, v in enumerate(s.bleed))
            s = Slot(s.x, s.y, s.w, s.h, (b[0], b[1], b[2], b[3]))
        out.append(s)
    return tuple(out)
