"""Where text meets a line: a glyph box against a stroked outline's band (a rectangle's, an ellipse's) or a
line's stroke, for the layout warnings (`warnings.crossings`). Pure geometry, in points."""

from __future__ import annotations

import math

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def crosses(t: Box, line: tuple[str, Box, float]) -> bool:
    """Whether a glyph box meets a stroked outline's band or a line's stroke (a polygon's edge: kind "edge")."""
    kind, (x0, y0, x1, y1), h = line
    if kind == "rect":
        meets = t[0] < x1 + h and x0 - h < t[2] and t[1] < y1 + h and y0 - h < t[3]
        return meets and not inside(t, (x0 + h, y0 + h, x1 - h, y1 - h))
    if kind == "ellipse":
        rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
        if rx <= 0 or ry <= 0:  # drawn flat (w or h 0): its stroke is a line through its middle
            return crosses(
                t, ("line", (x0, y0 + ry, x1, y0 + ry) if rx > 0 else (x0 + rx, y0, x0 + rx, y1), h)
            )
        cx, cy, r = x0 + rx, y0 + ry, (rx + ry) / 2  # in units of the radii; the stroke as a share of r

        def reach(x: float, y: float) -> float:
            return math.hypot((x - cx) / rx, (y - cy) / ry)

        far = max(reach(x, y) for x in (t[0], t[2]) for y in (t[1], t[3]))
        near = reach(min(max(cx, t[0]), t[2]), min(max(cy, t[1]), t[3]))
        return near < 1 + h / r and far > 1 - h / r
    # a line's or an edge's stroke: its segment against the glyph box grown by half the stroke (Liang-Barsky)
    bx0, by0, bx1, by1 = t[0] - h, t[1] - h, t[2] + h, t[3] + h
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            lo = max(lo, q / p)
        else:
            hi = min(hi, q / p)
    return lo < hi
