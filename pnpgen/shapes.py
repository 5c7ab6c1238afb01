"""Piece shapes: bounding boxes, outlines, and dense packing on a sheet. Pure geometry in points, y upwards.

A shape's outline is given relative to its bounding box's bottom-left corner. Packing puts pieces edge to edge
where the shape allows it (squares and triangles share straight cut lines that run across the sheet) and with a
gap otherwise (hexes, circles: each cut round on its own).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SHAPES = ("square", "rect", "hex", "hex-flat", "triangle", "circle")
SQRT3 = math.sqrt(3)


class ShapeError(ValueError):
    pass


def bbox(shape: str, size: tuple[float, float]) -> tuple[float, float]:
    """Bounding box (w, h) of a shape from its `size` (w, h as given; a single length repeats)."""
    a, b = size
    if shape in ("square", "circle"):
        return a, a
    if shape == "rect":
        return a, b
    if shape == "hex":  # pointy top: `a` across the flats is its width
        return a, 2 * a / SQRT3
    if shape == "hex-flat":  # flat top: `a` across the flats is its height
        return 2 * a / SQRT3, a
    if shape == "triangle":
        return a, a * SQRT3 / 2
    raise ShapeError(f"unknown shape '{shape}'")


def outline(shape: str, w: float, h: float, up: bool = True) -> list[tuple[float, float]] | None:
    """Polygon of the shape in its box (y up), or None for a circle (and for rectangles: the box itself)."""
    if shape in ("square", "rect"):
        return [(0, 0), (w, 0), (w, h), (0, h)]
    if shape == "hex":
        return [(w / 2, h), (w, 3 * h / 4), (w, h / 4), (w / 2, 0), (0, h / 4), (0, 3 * h / 4)]
    if shape == "hex-flat":
        return [(w / 4, h), (3 * w / 4, h), (w, h / 2), (3 * w / 4, 0), (w / 4, 0), (0, h / 2)]
    if shape == "triangle":
        return [(0, 0), (w, 0), (w / 2, h)] if up else [(0, h), (w, h), (w / 2, 0)]
    return None


def grow(
    points: list[tuple[float, float]] | tuple[tuple[float, float], ...],
    dists: list[float] | tuple[float, ...],
) -> tuple[tuple[float, float], ...]:
    """A convex polygon with each edge i (from point i to point i+1) moved outward by dists[i], its corners
    where the moved edges meet: a piece's outline grown by its bleed (0 on an edge shared with a neighbour)."""
    n = len(points)
    area = sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)
    )
    sign = 1.0 if area > 0 else -1.0  # anticlockwise: the outward normal of (dx, dy) is (dy, -dx)
    lines = []
    for i in range(n):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        nx, ny = sign * dy / length, -sign * dx / length
        d = dists[i]
        lines.append(((x1 + nx * d, y1 + ny * d), (dx, dy)))
    out = []
    for i in range(n):
        (ax, ay), (adx, ady) = lines[i - 1]
        (bx, by), (bdx, bdy) = lines[i]
        det = adx * bdy - ady * bdx
        t = ((bx - ax) * bdy - (by - ay) * bdx) / det
        out.append((ax + adx * t, ay + ady * t))
    return tuple(out)


@dataclass(frozen=True)
class Place:
    x: float  # bounding box, bottom-left, on the page
    y: float
    up: bool = True  # triangles: point up


def pack(shape: str, w: float, h: float, area: tuple[float, float, float, float], gap: float) -> list[Place]:
    """As many pieces as fit the area (x0, y0, x1, y1), rows from the top, centred in the area."""
    x0, y0, x1, y1 = area
    aw, ah = x1 - x0, y1 - y0
    places: list[tuple[float, float, bool]] = []
    if shape in ("square", "rect"):
        cols, rows = int((aw + 1e-6) // w), int((ah + 1e-6) // h)
        places = [(c * w, r * h, True) for r in range(rows) for c in range(cols)]
    elif shape == "hex":  # offset rows, odd rows shifted right by half a step; `gap` between facing edges
        px, step = w + gap, (w + gap) * SQRT3 / 2  # hexes stand (w + gap) apart, centre to centre
        rows = max(0, int((ah - h + 1e-6) // step) + 1) if ah >= h else 0
        full = int((aw - w + 1e-6) // px) + 1 if aw >= w else 0
        shifted = int((aw - w - px / 2 + 1e-6) // px) + 1 if aw >= w + px / 2 else 0
        for r in range(rows):
            n, dx = (full, 0.0) if r % 2 == 0 else (shifted, px / 2)
            places += [(dx + c * px, r * step, True) for c in range(n)]
    elif shape == "hex-flat":  # offset columns, odd columns shifted down by half a step
        py, step = h + gap, (h + gap) * SQRT3 / 2
        cols = max(0, int((aw - w + 1e-6) // step) + 1) if aw >= w else 0
        full = int((ah - h + 1e-6) // py) + 1 if ah >= h else 0
        shifted = int((ah - h - py / 2 + 1e-6) // py) + 1 if ah >= h + py / 2 else 0
        for c in range(cols):
            n, dy = (full, 0.0) if c % 2 == 0 else (shifted, py / 2)
            places += [(c * step, dy + r * py, True) for r in range(n)]
    elif shape == "triangle":  # alternate up and down along a row, sharing edges
        rows = int((ah + 1e-6) // h)
        per_row = max(0, int((2 * aw / w) + 1e-6) - 1)
        for r in range(rows):
            for k in range(per_row):
                up = (k + r) % 2 == 0
                places.append((k * w / 2, r * h, up))
    elif shape == "circle":  # honeycomb with a gap
        p = w + gap
        rows = max(0, int((ah - w + 1e-6) // (p * SQRT3 / 2)) + 1) if ah >= w else 0
        full = int((aw - w + 1e-6) // p) + 1 if aw >= w else 0
        shifted = int((aw - w - p / 2 + 1e-6) // p) + 1 if aw >= w + p / 2 else 0
        for r in range(rows):
            n, dx = (full, 0.0) if r % 2 == 0 else (shifted, p / 2)
            places += [(dx + c * p, r * p * SQRT3 / 2, True) for c in range(n)]
    else:
        raise ShapeError(f"unknown shape '{shape}'")
    if not places:
        return []
    # rows were laid from y = 0 upwards: flip so the first row is at the top, then centre in the area
    top = max(y for _, y, _ in places) + h
    right = max(x for x, _, _ in places) + w
    ox = x0 + (aw - right) / 2
    oy = y0 + (ah - top) / 2
    out = [Place(ox + x, oy + (top - h - y), up) for x, y, up in places]
    out.sort(key=lambda p: (-round(p.y, 3), p.x))
    return out
