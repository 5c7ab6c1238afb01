"""`rect`: a rectangle, its corners rounded by `radius`, filling `x y w h` or one of the face's areas."""

from __future__ import annotations

from pnpgen.faces import Rect
from pnpgen.layout.kinds import BOX, PAINT, Area, ElementType, Length, paint


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    ops.append(Rect(x, y, w, h, p.get("radius"), **paint(p)))


TYPE = ElementType(
    "rect",
    keys={
        **BOX,
        "area": Area(),
        "radius": Length(default=0, least="zero"),
        **PAINT,
    },
    draw=draw,
    area=True,
    example="{type: rect, x: 1, y: 1, w: 10, h: 5, fill: white, radius: 1}",  # for tests/test_elements.py: every type draws its example
    draws=("Rect",),
)
