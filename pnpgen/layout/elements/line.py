"""`line`: a straight line from (x1, y1) to (x2, y2)."""

from __future__ import annotations

from pnpgen.faces import Line
from pnpgen.layout.kinds import STROKE_WIDTH, Colour, Dash, ElementType, Length


def draw(p, fc, ops, label, diags) -> None:
    ops.append(
        Line(
            p.get("x1"),
            p.get("y1"),
            p.get("x2"),
            p.get("y2"),
            p.get("stroke") or "#000000",
            p.get("stroke_width"),
            p.get("dash"),
        )
    )


TYPE = ElementType(
    "line",
    keys={
        "x1": Length(),
        "y1": Length(),
        "x2": Length(),
        "y2": Length(),
        "stroke": Colour("black"),
        "stroke_width": STROKE_WIDTH,
        "dash": Dash(),
    },
    draw=draw,
    required=("x1", "y1", "x2", "y2"),
    example="{type: line, x1: 0, y1: 0, x2: 10, y2: 10, stroke: none}",  # for tests/test_elements.py: every type draws its example
    draws=("Line",),
)
