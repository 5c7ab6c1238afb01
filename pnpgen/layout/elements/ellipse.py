"""`ellipse`: the ellipse inside its bounding box `x y w h` (or one of the face's areas)."""

from __future__ import annotations

from pnpgen.faces import Ellipse
from pnpgen.layout.kinds import BOX, COLOUR, OPACITY, STROKE_WIDTH, Area, Dash, ElementType


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    ops.append(
        Ellipse(
            x,
            y,
            w,
            h,
            p.get("fill"),
            p.get("stroke"),
            p.get("stroke_width"),
            p.get("dash"),
            p.get("opacity"),
        )
    )


TYPE = ElementType(
    "ellipse",
    keys={
        **BOX,
        "area": Area(),
        "fill": COLOUR,
        "stroke": COLOUR,
        "stroke_width": STROKE_WIDTH,
        "dash": Dash(),
        "opacity": OPACITY,
    },
    draw=draw,
    area=True,
)
