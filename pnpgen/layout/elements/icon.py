"""`icon`: one of the game's icons, `size` square (or `w` by `h`), tinted by `color`, turned a quarter turn
clockwise by `rotate` (the box is where it lands)."""

from __future__ import annotations

from pnpgen import units
from pnpgen.faces import Icon
from pnpgen.layout.kinds import COLOUR, ICON, ElementType, Length, QuarterTurn
from pnpgen.layout.warnings import outside_safe


def draw(p, fc, ops, label, diags) -> None:
    name = p.get("name")
    x, y = p.get("x"), p.get("y")
    if p.given("w") or p.given("h"):
        w, h = p.get("w"), p.get("h")
    else:
        w = h = p.get("size")
    icon = Icon(name, x, y, w, h, p.get("color"), p.get("rotate"))
    if outside_safe([icon], fc):
        fc.note(
            p.el.loc,
            f"icon reaches outside the safe zone ({units.mm(fc.safe_pt):g} mm inside the cut)",
            label,
        )
    known = fc.icons.get(name)
    if p.given("color") and known is not None and getattr(known, "tintable", True) is False:
        fc.note(p.el.loc, f"'color' is ignored: the SVG icon '{name}' has gradients, drawn in its own", label)
    ops.append(icon)


TYPE = ElementType(
    "icon",
    keys={
        "x": Length(),
        "y": Length(),
        "size": Length(default=8, least="positive"),
        "w": Length(),
        "h": Length(),
        "name": ICON,
        "color": COLOUR,
        "rotate": QuarterTurn(),
    },
    draw=draw,
    required=("x", "y", "name"),
    example="{type: icon, name: star, x: 10, y: 10, size: 6}",  # for tests/test_elements.py: every type draws its example
    draws=("Icon",),
)
