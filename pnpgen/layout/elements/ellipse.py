"""`ellipse`: the ellipse inside its bounding box `x y w h` (or one of the face's areas)."""

from __future__ import annotations

from pnpgen.faces import Ellipse
from pnpgen.layout.kinds import BOX, PAINT, Area, ElementType, paint


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    ops.append(Ellipse(x, y, w, h, **paint(p)))


TYPE = ElementType(
    "ellipse",
    keys={
        **BOX,
        "area": Area(),
        **PAINT,
    },
    draw=draw,
    area=True,
    example="{type: ellipse, area: safe, stroke: '#123456', dash: [2, 1]}",  # for tests/test_elements.py: every type draws its example
    draws=("Ellipse",),
)
