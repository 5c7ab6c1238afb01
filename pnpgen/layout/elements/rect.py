"""`rect`: a rectangle, its corners rounded by `radius`, filling `x y w h` or one of the face's areas."""

from __future__ import annotations

from pnpgen.faces import Rect
from pnpgen.layout.kinds import BOX, COLOUR, OPACITY, STROKE_WIDTH, Area, Dash, ElementType, Length


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    ops.append(
        Rect(
            x,
            y,
            w,
            h,
            p.get("radius"),
            p.get("fill"),
            p.get("stroke"),
            p.get("stroke_width"),
            p.get("dash"),
            p.get("opacity"),
        )
    )


TYPE = ElementType(
    "rect",
    keys={
        **BOX,
        "area": Area(),
        "radius": Length(default=0),
        "fill": COLOUR,
        "stroke": COLOUR,
        "stroke_width": STROKE_WIDTH,
        "dash": Dash(),
        "opacity": OPACITY,
    },
    draw=draw,
    area=True,
)
