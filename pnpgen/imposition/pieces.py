"""Shaped pieces (hexes, triangles, circles; squares too when asked) packed densely on a sheet, each cut to its
outline, backs mirrored for long-edge duplex. Positions in points, PDF convention (y upwards)."""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.imposition.duplex import LONG, Duplex
from pnpgen.imposition.sheets import MARGIN, ImpositionError, Label
from pnpgen.units import MM, PAPERS

LABEL_BAND = 7 * MM  # kept free at the foot of a piece sheet for its label


@dataclass(frozen=True)
class PieceSlot:
    x: float  # bounding box, bottom-left
    y: float
    w: float
    h: float
    up: bool
    clip: (
        tuple  # ("poly", ((x, y), ...)) or ("circle", cx, cy, r): where the face may paint, page coordinates
    )
    guide: tuple  # the cut line, same form


@dataclass(frozen=True)
class PiecePlan:
    paper: str
    paper_w: float
    paper_h: float
    shape: str
    slots: tuple
    label: Label

    @property
    def per_sheet(self) -> int:
        return len(self.slots)

    def back_slots(self, duplex: Duplex = LONG) -> tuple:
        """Where the backs go for the flip `duplex` names (a mirrored lattice is the same lattice). On a short-edge
        flip each back is also turned half round, which `up` records as the renderer reads it."""
        pw, ph = self.paper_w, self.paper_h
        return tuple(
            PieceSlot(
                *duplex.box(s.x, s.y, s.w, s.h, pw, ph),
                s.up != duplex.turned,
                _moved(s.clip, duplex, pw, ph),
                _moved(s.guide, duplex, pw, ph),
            )
            for s in self.slots
        )

    def boxes(self, back: bool = False, duplex: Duplex = LONG) -> tuple:
        slots = self.back_slots(duplex) if back else self.slots
        xs = [s.x for s in slots] + [s.x + s.w for s in slots]
        ys = [s.y for s in slots] + [s.y + s.h for s in slots]
        return (min(xs), min(ys), max(xs), max(ys))


def _moved(spec: tuple, duplex: Duplex, pw: float, ph: float) -> tuple:
    if spec[0] == "circle":
        return ("circle", *duplex.point(spec[1], spec[2], pw, ph), spec[3])
    return ("poly", tuple(duplex.point(x, y, pw, ph) for x, y in spec[1]))


def plan_pieces(paper: str, shape: str, w: float, h: float, bleed: float) -> PiecePlan:
    from pnpgen.shapes import outline, pack

    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (a4 or letter)")
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    gap = max(2 * bleed, 2 * MM) if shape == "circle" else 0.0
    edge = bleed if shape == "circle" else 0.0
    area = (MARGIN + edge, MARGIN + LABEL_BAND + edge, pw - MARGIN - edge, ph - MARGIN - edge)
    places = pack(shape, w, h, area, gap)
    if not places:
        raise ImpositionError(
            f"a {w / MM:.1f} x {h / MM:.1f} mm {shape} does not fit on {paper.upper()} paper inside the "
            f"{MARGIN / MM:.0f} mm printer margin"
        )
    slots = []
    for p in places:
        clip: tuple
        guide: tuple
        if shape == "circle":
            cx, cy, r = p.x + w / 2, p.y + h / 2, w / 2
            clip, guide = ("circle", cx, cy, r + bleed), ("circle", cx, cy, r)
        else:  # interlocking shapes share their cut lines: each face is cut exactly to its outline
            pts = tuple((p.x + x, p.y + y) for x, y in outline(shape, w, h, p.up) or ())
            clip = guide = ("poly", pts)
        slots.append(PieceSlot(p.x, p.y, w, h, p.up, clip, guide))
    label = Label(pw / 2, MARGIN + LABEL_BAND / 2, pw - 2 * MARGIN, LABEL_BAND, False)
    return PiecePlan(paper, pw, ph, shape, tuple(slots), label)
