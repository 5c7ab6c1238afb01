"""`polygon`: a closed shape through its `points` ([x, y] in mm)."""

from __future__ import annotations

from pnpgen.faces import Polygon
from pnpgen.layout.kinds import COLOUR, OPACITY, STROKE_WIDTH, Dash, ElementType, Points


def draw(p, fc, ops, label, diags) -> None:
    ops.append(
        Polygon(
            p.get("points"),
            p.get("fill"),
            p.get("stroke"),
            p.get("stroke_width"),
            p.get("opacity"),
            p.get("dash"),
        )
    )


TYPE = ElementType(
    "polygon",
    keys={
        "points": Points(),
        "fill": COLOUR,
        "stroke": COLOUR,
        "stroke_width": STROKE_WIDTH,
        "dash": Dash(),
        "opacity": OPACITY,
    },
    draw=draw,
    required=("points",),
)
