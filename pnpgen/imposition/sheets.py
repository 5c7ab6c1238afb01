"""Card sheets: where each face goes on a sheet, cut marks, the margin label, mirrored backs.

All positions in points, PDF convention (origin bottom-left of the paper, y upwards). Pure geometry: no
reportlab, testable on numbers.

Two ways to lay a grid, whichever holds more cards (gutters win a tie):
- gutters: cards stand apart by twice the bleed, each with its full bleed all round;
- shared cut lines: cards butt together; the bleed survives only on the grid's outer edges.
Cut marks run outward from the grid along every cut line (on a partial sheet, every one a face has an edge on),
in the band between the grid's outer bleed and the printer margin. Where a grid fills the paper almost to its
margin (three rows of poker cards on Letter leave 6.35 mm), the outer bleed runs on into the margin as far as
`PRINT_EDGE`, the nearest a home printer prints
(most print to 3-4 mm; what one clips is bleed only, which is cut away anyway), and the marks of that edge are
drawn over the bleed with a white halo (`Mark.over`). Backs go on the page after their fronts, placed for the flip a `duplex.Duplex` names (long-edge
by default: the back of the face at x lands at paper_width - x - width).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnpgen.imposition.duplex import LONG, Box, Duplex
from pnpgen.units import MM, PAPERS, paper_pt

MARGIN = 5 * MM  # nothing but bleed printed nearer the paper's edge
PRINT_EDGE = 3 * MM  # bleed may run on into the margin up to here
MARK_GAP = 0.5 * MM  # between the outer bleed and the start of a mark
MARK_MAX = 6 * MM
MARK_MIN = 3 * MM  # the shortest cut mark drawn: shorter ones are hard to find and to line a ruler up on
MARK_MIN_SHARED = 1.0 * MM  # a shared-cut grid keeps at least this for marks
MARK_MIN_GUTTER = 2.5 * MM
LABEL_EM = 30  # a typical label ("Game · Deck · sheet 1 of 2 · fronts") is about this many em long in sans
LABEL_LANE = 3 * MM  # a lane this thick beyond the marks sets a label at about 6 pt


class ImpositionError(ValueError):
    pass


@dataclass(frozen=True)
class Slot:
    x: float  # trim box, bottom-left
    y: float
    w: float
    h: float
    bleed: Box  # (left, bottom, right, top) bleed drawn around this slot


@dataclass(frozen=True)
class Mark:
    x1: float
    y1: float
    x2: float
    y2: float
    over: bool = False  # drawn over the bleed (no room beside it): with a white halo


def marks_on(marks: tuple[Mark, ...], used: list[Slot]) -> tuple[Mark, ...]:
    """The marks of the cut lines that a slot of `used` has an edge on (a sheet's, a fold-over sheet's)."""
    xs = [v for s in used for v in (s.x, s.x + s.w)]
    ys = [v for s in used for v in (s.y, s.y + s.h)]

    def on(v: float, cuts: list[float]) -> bool:
        return any(abs(v - c) < 0.01 for c in cuts)

    return tuple(m for m in marks if (on(m.x1, xs) if m.x1 == m.x2 else on(m.y1, ys)))


@dataclass(frozen=True)
class Label:
    x: float  # centre of the label's box
    y: float
    length: float  # room along the text direction
    thickness: float  # room across it
    rotate: bool  # True: text runs upwards along a side


@dataclass(frozen=True)
class SheetPlan:
    paper: str
    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    bleed: float
    mode: str  # "gutters" | "shared"
    cols: int
    rows: int
    slots: tuple[Slot, ...]  # front slots, row-major from the top-left
    marks: tuple[Mark, ...]
    label: Label

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def opened(self, present: list[bool]) -> tuple[Slot, ...]:
        """The front slots with their bleed widened to the full bleed on every side whose neighbouring slot
        holds no face (a partial sheet's last row, a card without a back): there the art may run on."""
        if self.mode == "gutters":
            return self.slots
        out = []
        for k, s in enumerate(self.slots):
            r, c = divmod(k, self.cols)

            def empty(rr: int, cc: int) -> bool:
                i = rr * self.cols + cc
                inside = 0 <= rr < self.rows and 0 <= cc < self.cols
                return inside and not (i < len(present) and present[i])

            left, bottom, right, top = s.bleed
            b = self.bleed
            opened = (
                b if empty(r, c - 1) else left,
                b if empty(r + 1, c) else bottom,
                b if empty(r, c + 1) else right,
                b if empty(r - 1, c) else top,
            )
            out.append(Slot(s.x, s.y, s.w, s.h, opened))
        return tuple(out)

    def back_slots(self, duplex: Duplex = LONG, present: list[bool] | None = None) -> tuple[Slot, ...]:
        """Where the backs go: each behind its front after the flip `duplex` names."""
        pw, ph = self.paper_w, self.paper_h
        slots = self.slots if present is None else self.opened(present)
        return tuple(Slot(*duplex.box(s.x, s.y, s.w, s.h, pw, ph), duplex.bleed(s.bleed)) for s in slots)

    def cut_marks(self, present: list[bool] | None = None) -> tuple[Mark, ...]:
        """The marks of the cut lines that some face on the sheet has an edge on (`present`: which slots hold
        one; None, all): a partial sheet's empty rows and columns get none, as a cut there trims blank paper."""
        if present is None or (len(present) == len(self.slots) and all(present)):  # a full sheet: every mark
            return self.marks
        return marks_on(self.marks, [s for s, here in zip(self.slots, present) if here])

    def back_marks(self, duplex: Duplex = LONG, present: list[bool] | None = None) -> tuple[Mark, ...]:
        pw, ph = self.paper_w, self.paper_h
        return tuple(
            Mark(*duplex.point(m.x1, m.y1, pw, ph), *duplex.point(m.x2, m.y2, pw, ph), m.over)
            for m in self.cut_marks(present)
        )

    def label_on(self, present: list[bool] | None = None) -> Label:
        """The label of a sheet holding faces where `present` says: the plan's, or, when the plan sets a typical
        label under 5 pt (small pieces leave no margin) and the sheet's last rows are empty, a line of those rows
        just below the last face (cut away with the blank paper), where it is set whole."""
        lb = self.label
        used = [k // self.cols for k, here in enumerate(present or ()) if here]
        if not used or max(used) >= self.rows - 1 or _label_size(lb) >= 5.0:
            return lb
        last = self.slots[max(used) * self.cols]  # the last row holding a face
        x0, y0, x1, _ = self.trim_box
        top = last.y - self.bleed - MARK_GAP  # below the bleed its faces may run on into (`opened`)
        thick = min(top - y0, LABEL_LANE * 2)
        row = Label((x0 + x1) / 2, top - thick / 2, x1 - x0 - 2 * MM, thick, False)
        return row if _label_size(row) > _label_size(lb) else lb

    def back_label(self, duplex: Duplex = LONG, present: list[bool] | None = None) -> Label:
        lb = self.label_on(present)
        x, y = duplex.point(lb.x, lb.y, self.paper_w, self.paper_h)
        return Label(x, y, lb.length, lb.thickness, lb.rotate)

    def back_boxes(self, duplex: Duplex = LONG) -> tuple[Box, ...]:
        """The trim box and bleed box of a back page."""
        out = []
        for x0, y0, x1, y1 in (self.trim_box, self.bleed_box):
            x, y, w, h = duplex.box(x0, y0, x1 - x0, y1 - y0, self.paper_w, self.paper_h)
            out.append((x, y, x + w, y + h))
        return tuple(out)

    @property
    def kept_bleed(self) -> float:
        """The least bleed on any outer edge of the grid (less than asked only when the grid reaches nearer the
        paper's edge than PRINT_EDGE leaves room for)."""
        t, b = self.trim_box, self.bleed_box
        return min(t[0] - b[0], t[1] - b[1], b[2] - t[2], b[3] - t[3])

    @property
    def trim_box(self) -> Box:
        xs = [s.x for s in self.slots] + [s.x + s.w for s in self.slots]
        ys = [s.y for s in self.slots] + [s.y + s.h for s in self.slots]
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def bleed_box(self) -> Box:
        xs = [s.x - s.bleed[0] for s in self.slots] + [s.x + s.w + s.bleed[2] for s in self.slots]
        ys = [s.y - s.bleed[1] for s in self.slots] + [s.y + s.h + s.bleed[3] for s in self.slots]
        return min(xs), min(ys), max(xs), max(ys)


def _fit(avail: float, size: float, gap: float) -> int:
    return max(0, int(math.floor((avail + gap + 1e-6) / (size + gap))))


def plan_sheet(paper: str, card_w: float, card_h: float, bleed: float) -> SheetPlan:
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (a4 or letter)")
    pw, ph = paper_pt(paper)
    usable_w, usable_h = pw - 2 * MARGIN, ph - 2 * MARGIN
    # gutters: every card keeps its full bleed; the outer bleed plus room for marks on each side
    g = 2 * bleed
    outer = bleed + MARK_GAP + MARK_MIN_GUTTER
    gut = (_fit(usable_w - 2 * outer, card_w, g), _fit(usable_h - 2 * outer, card_h, g))
    shared = (
        _fit(usable_w - 2 * MARK_MIN_SHARED, card_w, 0),
        _fit(usable_h - 2 * MARK_MIN_SHARED, card_h, 0),
    )
    if gut[0] * gut[1] >= shared[0] * shared[1] and gut[0] * gut[1] > 0:
        mode, (cols, rows), gap = "gutters", gut, g
    else:
        mode, (cols, rows), gap = "shared", shared, 0.0
    if cols * rows == 0:
        raise ImpositionError(
            f"a {card_w / MM:.1f} x {card_h / MM:.1f} mm card does not fit on {paper.upper()} paper "
            f"inside the {MARGIN / MM:.0f} mm printer margin"
        )
    grid_w = cols * card_w + (cols - 1) * gap
    grid_h = rows * card_h + (rows - 1) * gap
    x0 = (pw - grid_w) / 2
    y0 = (ph - grid_h) / 2
    room_x = x0 - MARGIN  # from the grid's trim edge to the margin line, left and right
    room_y = y0 - MARGIN
    if mode == "gutters":
        ob_x = ob_y = bleed
    else:
        ob_x = _outer_bleed(room_x, bleed, x0 - PRINT_EDGE)
        ob_y = _outer_bleed(room_y, bleed, y0 - PRINT_EDGE)
    slots = []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (card_w + gap)
            y = y0 + grid_h - (r + 1) * card_h - r * gap
            if mode == "gutters":
                b = (bleed, bleed, bleed, bleed)
            else:
                b = (
                    ob_x if c == 0 else 0.0,
                    ob_y if r == rows - 1 else 0.0,
                    ob_x if c == cols - 1 else 0.0,
                    ob_y if r == 0 else 0.0,
                )
            slots.append(Slot(x, y, card_w, card_h, b))
    xs = sorted(
        {
            round(v, 4)
            for c in range(cols)
            for v in (x0 + c * (card_w + gap), x0 + c * (card_w + gap) + card_w)
        }
    )
    ys = sorted(
        {
            round(v, 4)
            for r in range(rows)
            for v in (y0 + r * (card_h + gap), y0 + r * (card_h + gap) + card_h)
        }
    )
    top, bottom, left, right = y0 + grid_h, y0, x0, x0 + grid_w
    span_y = _mark_span(room_y, ob_y, y0 - PRINT_EDGE)
    span_x = _mark_span(room_x, ob_x, x0 - PRINT_EDGE)
    label, end_left, end_below = _label(pw, ph, x0, y0, grid_w, grid_h, xs, ys, ob_x, ob_y, span_x, span_y)
    (start_y, end_y, over_y), (start_x, end_x, over_x) = span_y, span_x
    marks = []
    for x in xs:
        marks.append(Mark(x, top + start_y, x, top + end_y, over_y))
        marks.append(Mark(x, bottom - start_y, x, bottom - end_below, over_y))
    for y in ys:
        marks.append(Mark(left - start_x, y, left - end_left, y, over_x))
        marks.append(Mark(right + start_x, y, right + end_x, y, over_x))
    return SheetPlan(
        paper, pw, ph, card_w, card_h, bleed, mode, cols, rows, tuple(slots), tuple(marks), label
    )


def _outer_bleed(room: float, bleed: float, to_edge: float) -> float:
    """The bleed of a grid's outer edge: full when a usable mark still fits beside it inside the margin, else
    full when it reaches no nearer the paper's edge than PRINT_EDGE (its marks then go over it), else as much as
    reaches PRINT_EDGE."""
    if room - bleed - MARK_GAP >= MARK_MIN_SHARED:
        return bleed
    return max(0.0, min(bleed, to_edge))


def _mark_span(room: float, outer_bleed: float, to_edge: float) -> tuple[float, float, bool]:
    """Distances from the trim edge where a mark starts and ends, and whether it lies over the bleed. A mark is
    at least `MARK_MIN` long: beside the bleed when that fits inside the margin, else drawn over the bleed from
    just off the trim (with a white halo), running on into the margin as far as `PRINT_EDGE` when it must
    (`MARK_MIN_SHARED` of room keeps that at least `MARK_MIN`)."""
    start = outer_bleed + MARK_GAP
    if room - start >= MARK_MIN:
        return start, min(room, start + MARK_MAX), False
    end = min(max(min(room, MARK_GAP + MARK_MAX), MARK_GAP + MARK_MIN), to_edge)
    start = max(0.0, min(MARK_GAP, end - MARK_MIN))  # nearer the trim only when the paper's edge is that near
    return start, end, outer_bleed > start


def _label(
    pw: float,
    ph: float,
    x0: float,
    y0: float,
    grid_w: float,
    grid_h: float,
    xs: list[float],
    ys: list[float],
    ob_x: float,
    ob_y: float,
    span_x: tuple[float, float, bool],
    span_y: tuple[float, float, bool],
) -> tuple[Label, float, float]:
    """Where the label goes, and where the left and bottom marks end (from the trim; `_mark_span`'s unless they
    give up length for the label). Below the grid between two bottom marks, when a typical label is set there at
    5 pt or more; else wherever it is set largest (the earlier of equals): there, beside the grid between two side
    marks (rotated), or in a lane of margin beyond the marks, below them (the page's width) or beside them (its
    height, rotated). Small pieces put their marks close together: between two of them a label was cut short at
    3.5 pt, while a lane below them holds it whole (the marks there shortened for it as far as `LABEL_LANE` asks,
    never under `MARK_MIN`)."""
    band_y = y0 - ob_y - MARGIN  # thickness of the band below the grid
    band_x = x0 - ob_x - MARGIN
    ends = (span_x[1], span_y[1])
    need = 2.2 * MM
    found: list[tuple[Label, float, float]] = []  # in order of preference, where set as large
    if band_y >= need:
        length, centre = _widest_gap(xs, x0, x0 + grid_w)
        below = Label(centre, MARGIN + band_y / 2, length - 2 * MM, band_y, False)
        if _label_size(below) >= 5.0:
            return below, *ends
        found.append((below, *ends))
    if band_x >= need:
        length, centre = _widest_gap(ys, y0, y0 + grid_h)
        found.append((Label(MARGIN + band_x / 2, centre, length - 2 * MM, band_x, True), *ends))
    lane_y, end_y = _lane(y0 - MARGIN, *span_y)
    if lane_y >= need:
        found.append(
            (Label(pw / 2, MARGIN + lane_y / 2, pw - 2 * MARGIN - 2 * MM, lane_y, False), ends[0], end_y)
        )
    lane_x, end_x = _lane(x0 - MARGIN, *span_x)
    if lane_x >= need:
        found.append(
            (Label(MARGIN + lane_x / 2, ph / 2, ph - 2 * MARGIN - 2 * MM, lane_x, True), end_x, ends[1])
        )
    if found:
        return max(found, key=lambda f: _label_size(f[0]))  # the first of the largest
    # no band is thick enough: use the bottom one at the smallest size
    length, centre = _widest_gap(xs, x0, x0 + grid_w)
    return Label(centre, MARGIN + max(band_y, 0) / 2, length - 2 * MM, max(band_y, 0.1 * MM), False), *ends


def _label_size(lb: Label) -> float:
    """The size in pt a typical label is set at in `lb` (as `render.sheets` sets labels: at most 7 pt)."""
    return min(7.0, lb.thickness * 0.7, lb.length / LABEL_EM)


def _lane(room: float, start: float, end: float, over: bool) -> tuple[float, float]:
    """The lane of margin beyond one side's marks, and where the marks then end: as long as they are, or shortened
    (never under `MARK_MIN`) until the lane is `LABEL_LANE` thick. Marks drawn over the bleed keep their length."""
    lane = room - end
    most = room - start - MARK_MIN  # the widest lane the marks can give
    if over or lane >= LABEL_LANE or most <= lane:
        return lane, end
    lane = min(LABEL_LANE, most)
    return lane, room - lane


def _widest_gap(cuts: list[float], lo: float, hi: float) -> tuple[float, float]:
    """The longest stretch between neighbouring cut lines (marks stand on the cut lines)."""
    points = sorted(set(cuts) | {lo, hi})
    best = max(zip(points, points[1:]), key=lambda ab: ab[1] - ab[0])
    return best[1] - best[0], (best[0] + best[1]) / 2


def paginate(n_faces: int, per_sheet: int) -> list[range]:
    """Face indices on each sheet."""
    return [range(i, min(i + per_sheet, n_faces)) for i in range(0, n_faces, per_sheet)]
