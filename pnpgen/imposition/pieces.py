"""Shaped pieces (hexes, triangles, circles; squares too when asked) packed densely on a sheet, each cut to its
outline, backs mirrored for long-edge duplex. Positions in points, PDF convention (y upwards)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pnpgen.imposition.duplex import LONG, Box, Duplex
from pnpgen.imposition.sheets import MARGIN, ImpositionError, Label
from pnpgen.shapes import Place, grow
from pnpgen.units import MM, PAPERS, paper_pt

# ("poly", ((x, y), ...)) or ("circle", cx, cy, r): what a piece's face may paint, or its cut line
Clip = tuple[Any, ...]

LABEL_BAND = 7 * MM  # kept free at the foot of a piece sheet for its label


@dataclass(frozen=True)
class PieceSlot:
    x: float  # bounding box, bottom-left
    y: float
    w: float
    h: float
    up: bool
    clip: Clip  # where the face may paint, page coordinates
    guide: Clip  # the cut line
    sides: tuple[int, ...] = ()  # per edge of a polygon: the index of the slot sharing it, or -1
    bleed: float | None = None  # this piece's own bleed, where pieces of several sizes share a sheet (`gang`)


@dataclass(frozen=True)
class PiecePlan:
    paper: str
    paper_w: float
    paper_h: float
    shape: str
    slots: tuple[PieceSlot, ...]
    label: Label
    bleed: float = 0.0

    @property
    def per_sheet(self) -> int:
        return len(self.slots)

    def opened(self, present: list[bool]) -> tuple[PieceSlot, ...]:
        """The slots with each polygon's clip grown by the bleed on every edge whose neighbour holds no face (a
        partial sheet's last row): there the art may run on."""
        out = []
        for s in self.slots:
            if s.clip[0] != "poly" or all(k < 0 for k in s.sides):
                out.append(s)
                continue
            b = self.bleed if s.bleed is None else s.bleed
            dists = [b if k < 0 or not (k < len(present) and present[k]) else 0.0 for k in s.sides]
            out.append(replace(s, clip=("poly", grow(s.guide[1], dists))))
        return tuple(out)

    def back_slots(self, duplex: Duplex = LONG, present: list[bool] | None = None) -> tuple[PieceSlot, ...]:
        """Where the backs go for the flip `duplex` names (a mirrored lattice is the same lattice). On a short-edge
        flip each back is also turned half round, which `up` records as the renderer reads it."""
        pw, ph = self.paper_w, self.paper_h
        return tuple(
            PieceSlot(
                *duplex.box(s.x, s.y, s.w, s.h, pw, ph),
                s.up != duplex.turned,
                _moved(s.clip, duplex, pw, ph),
                _moved(s.guide, duplex, pw, ph),
                s.sides,
                s.bleed,
            )
            for s in (self.slots if present is None else self.opened(present))
        )

    def boxes(self, back: bool = False, duplex: Duplex = LONG, present: list[bool] | None = None) -> Box:
        """The trim box: round the pieces placed (every slot when `present` is not given)."""
        slots = self.back_slots(duplex) if back else self.slots
        if present is not None and any(present):
            slots = tuple(s for s, here in zip(slots, present) if here)
        xs = [s.x for s in slots] + [s.x + s.w for s in slots]
        ys = [s.y for s in slots] + [s.y + s.h for s in slots]
        return (min(xs), min(ys), max(xs), max(ys))

    def bleed_box(self, back: bool = False, duplex: Duplex = LONG, present: list[bool] | None = None) -> Box:
        """The box of everything the faces may paint: each piece's outline grown by its bleed."""
        present = [True] * len(self.slots) if present is None else present
        slots = self.back_slots(duplex, present) if back else self.opened(present)
        boxes = [extent(s.clip) for s, here in zip(slots, present) if here] or [extent(slots[0].clip)]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


def extent(spec: Clip) -> Box:
    if spec[0] == "circle":
        _, cx, cy, r = spec
        return cx - r, cy - r, cx + r, cy + r
    xs, ys = [x for x, _ in spec[1]], [y for _, y in spec[1]]
    return min(xs), min(ys), max(xs), max(ys)


def _moved(spec: Clip, duplex: Duplex, pw: float, ph: float) -> Clip:
    if spec[0] == "circle":
        return ("circle", *duplex.point(spec[1], spec[2], pw, ph), spec[3])
    return ("poly", tuple(duplex.point(x, y, pw, ph) for x, y in spec[1]))


def plan_pieces(paper: str, shape: str, w: float, h: float, bleed: float) -> PiecePlan:
    from pnpgen.shapes import pack

    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (a4 or letter)")
    pw, ph = paper_pt(paper)
    gap = piece_gap(shape, bleed)
    edge = bleed
    area = (MARGIN + edge, MARGIN + LABEL_BAND + edge, pw - MARGIN - edge, ph - MARGIN - edge)
    places = pack(shape, w, h, area, gap)
    if not places:
        raise ImpositionError(
            f"a {w / MM:.1f} x {h / MM:.1f} mm {shape} does not fit on {paper.upper()} paper inside the "
            f"{MARGIN / MM:.0f} mm printer margin"
        )
    slots = piece_slots(shape, w, h, bleed, places)
    label = Label(pw / 2, MARGIN + LABEL_BAND / 2, pw - 2 * MARGIN, LABEL_BAND, False)
    return PiecePlan(paper, pw, ph, shape, tuple(slots), label, bleed)


def piece_gap(shape: str, bleed: float) -> float:
    """Room between two pieces of a shape: circles and hexes are cut round one by one and stand apart by twice
    the bleed, each with all of it; squares and triangles share straight cut lines that cross the sheet."""
    return {"circle": max(2 * bleed, 2 * MM), "hex": 2 * bleed, "hex-flat": 2 * bleed}.get(shape, 0.0)


def piece_slots(
    shape: str, w: float, h: float, bleed: float, places: list[Place], own_bleed: bool = False
) -> list[PieceSlot]:
    """The slots of pieces placed at `places`: each cut to its outline, its art grown by the bleed on every edge
    no other of these pieces shares (`own_bleed`: the slots carry their bleed, for sheets of mixed pieces)."""
    from pnpgen.shapes import outline

    tag = bleed if own_bleed else None
    outlines = [tuple((p.x + x, p.y + y) for x, y in outline(shape, w, h, p.up) or ()) for p in places]
    owners: dict[tuple[tuple[float, float], ...], list[int]] = {}
    for k, pts in enumerate(outlines):
        for i in range(len(pts)):
            owners.setdefault(_edge_key(pts[i], pts[(i + 1) % len(pts)]), []).append(k)
    slots = []
    for k, (p, pts) in enumerate(zip(places, outlines)):
        if shape == "circle":
            cx, cy, r = p.x + w / 2, p.y + h / 2, w / 2
            round_clip = ("circle", cx, cy, r + bleed)
            slots.append(PieceSlot(p.x, p.y, w, h, p.up, round_clip, ("circle", cx, cy, r), (), tag))
            continue
        # the art runs past the outline by the bleed, except along a cut line shared with a neighbour
        sides = tuple(
            next((o for o in owners[_edge_key(pts[i], pts[(i + 1) % len(pts)])] if o != k), -1)
            for i in range(len(pts))
        )
        clip = ("poly", grow(pts, [0.0 if n >= 0 else bleed for n in sides]))
        slots.append(PieceSlot(p.x, p.y, w, h, p.up, clip, ("poly", pts), sides, tag))
    return slots


def _edge_key(a: tuple[float, float], b: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    return tuple(sorted(((round(a[0], 2), round(a[1], 2)), (round(b[0], 2), round(b[1], 2)))))
