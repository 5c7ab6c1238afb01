"""`polygon`: a closed shape through its `points` ([x, y] in mm)."""

from __future__ import annotations

from pnpgen.faces import Polygon
from pnpgen.layout.kinds import PAINT, ElementType, Points, paint


def draw(p, fc, ops, label, diags) -> None:
    ops.append(Polygon(p.get("points"), **paint(p)))


TYPE = ElementType(
    "polygon",
    keys={
        "points": Points(),
        **PAINT,
    },
    draw=draw,
    required=("points",),
    example="{type: polygon, points: [[0, 0], [10, 0], [5, 8]], fill: grey}",  # for tests/test_elements.py: every type draws its example
    draws=("Polygon",),
)
