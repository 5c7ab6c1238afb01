"""`star`: a regular star of `points` tips around its centre `x y`, `size` from the centre to a tip."""

from __future__ import annotations

import math

from pnpgen.faces import Polygon
from pnpgen.layout.kinds import PAINT, ElementType, Length, Number, paint

# The inner radius of a five-pointed star whose edges run straight from tip to tip (a pentagram's outline).
PENTAGRAM = round(math.sin(math.radians(18)) / math.sin(math.radians(54)), 3)


def corners(cx: float, cy: float, tips: int, outer: float, inner: float, rotate: float) -> tuple:
    """The star's corners, tip first, clockwise on the face (y downwards): the first tip points up, turned by
    `rotate` degrees clockwise."""
    out = []
    for i in range(2 * tips):
        r = outer if i % 2 == 0 else outer * inner
        a = math.radians(rotate + 180.0 * i / tips)
        out.append((cx + r * math.sin(a), cy - r * math.cos(a)))
    return tuple(out)


def draw(p, fc, ops, label, diags) -> None:
    points = corners(
        p.get("x"), p.get("y"), int(p.get("points")), p.get("size"), p.get("inner"), p.get("rotate")
    )
    ops.append(Polygon(points, **paint(p)))


TYPE = ElementType(
    "star",
    keys={
        "x": Length(),
        "y": Length(),
        "size": Length(least="positive"),
        "points": Number(3, 100, 5, whole=True),
        "inner": Number(0.05, 1, PENTAGRAM),
        "rotate": Number(-360, 360, 0),
        **PAINT,
    },
    draw=draw,
    required=("x", "y", "size"),
    example="{type: star, x: 10, y: 10, size: 8, points: 5, fill: '#e8b81f'}",  # for tests/test_elements.py
    draws=("Polygon",),
)
