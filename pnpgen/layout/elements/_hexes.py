"""Hex geometry for the `hexmap` element, in points with y down: cell centres from offset or axial
coordinates, corners, the sides by name, and the coastline of a set of cells as closed paths."""

from __future__ import annotations

import math

SQRT3 = math.sqrt(3)
SYSTEMS = ("odd-r", "even-r", "odd-q", "even-q", "axial")
# The sides in the order of their corners (corner i to corner i+1, clockwise on the page), each with the axial
# step to the neighbour across it.
SIDES = {
    "pointy": (
        ("se", (0, 1)),
        ("sw", (-1, 1)),
        ("w", (-1, 0)),
        ("nw", (0, -1)),
        ("ne", (1, -1)),
        ("e", (1, 0)),
    ),
    "flat": (
        ("se", (1, 0)),
        ("s", (0, 1)),
        ("sw", (-1, 1)),
        ("nw", (-1, 0)),
        ("n", (0, -1)),
        ("ne", (1, -1)),
    ),
}


def side_names(orient: str) -> tuple[str, ...]:
    return tuple(name for name, _ in SIDES[orient])


def to_axial(system: str, a: int, b: int) -> tuple[int, int]:
    """(q, r) of the cell at `a, b` given as col, row (offset systems) or q, r (axial)."""
    if system == "odd-r":
        return a - (b - (b & 1)) // 2, b
    if system == "even-r":
        return a - (b + (b & 1)) // 2, b
    if system == "odd-q":
        return a, b - (a - (a & 1)) // 2
    if system == "even-q":
        return a, b - (a + (a & 1)) // 2
    return a, b


def centre(orient: str, size: float, q: int, r: int) -> tuple[float, float]:
    """The centre of axial cell (q, r), relative to the centre of cell (0, 0)."""
    if orient == "pointy":
        return size * SQRT3 * (q + r / 2), size * 1.5 * r
    return size * 1.5 * q, size * SQRT3 * (r + q / 2)


def corners(orient: str, size: float, cx: float, cy: float) -> list[tuple[float, float]]:
    """The six corners, clockwise on the page; side i runs from corner i to corner i + 1."""
    first = 30 if orient == "pointy" else 0
    out = []
    for i in range(6):
        a = math.radians(first + 60 * i)
        out.append((cx + size * math.cos(a), cy + size * math.sin(a)))
    return out


def side(orient: str, size: float, cx: float, cy: float, index: int):
    """Side `index`'s midpoint and its outward unit normal."""
    c = corners(orient, size, cx, cy)
    (x1, y1), (x2, y2) = c[index], c[(index + 1) % 6]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    d = math.hypot(mx - cx, my - cy)
    return (mx, my), ((mx - cx) / d, (my - cy) / d)


def coast_sides(orient: str, cells: set[tuple[int, int]]) -> list[tuple[tuple[int, int], int]]:
    """Every (cell, side index) whose neighbour across it is not in `cells`: the coast, in a stable order."""
    steps = SIDES[orient]
    return [
        (cell, i)
        for cell in sorted(cells)
        for i, (_, (dq, dr)) in enumerate(steps)
        if (cell[0] + dq, cell[1] + dr) not in cells
    ]


def coastlines(orient: str, size: float, x0: float, y0: float, cells: set[tuple[int, int]]):
    """The boundary of the union of `cells` as closed paths (lists of corners), one per coast (an island's
    outline, a lake's shore), each clockwise on the page, starting from its lowest cell's first coast side."""
    nxt: dict[tuple[int, int], tuple[tuple[int, int], tuple[float, float]]] = {}
    order = []
    for (q, r), i in coast_sides(orient, cells):
        cx, cy = centre(orient, size, q, r)
        c = corners(orient, size, x0 + cx, y0 + cy)
        start, end = c[i], c[(i + 1) % 6]
        key = _key(start)
        nxt[key] = (_key(end), start)
        order.append(key)
    paths, seen = [], set()
    for first in order:
        if first in seen:
            continue
        path, key = [], first
        while key not in seen:
            seen.add(key)
            end, point = nxt[key]
            path.append(point)
            key = end
        paths.append(path)
    return paths


def _key(point: tuple[float, float]) -> tuple[int, int]:
    """A corner shared by neighbouring cells, the same whichever cell computed it (to 1/1000 pt)."""
    return round(point[0] * 1000), round(point[1] * 1000)
