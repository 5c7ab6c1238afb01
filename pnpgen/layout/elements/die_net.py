"""`die-net`: a die's net (d4, d6, d8, d10, d12, d20) to cut, fold and glue: its faces placed from data (a
label, an icon, pips), a glue tab on one side of every pair of sides that meet, cut lines around the net and its
tabs, fold lines dashed."""

from __future__ import annotations

import math
from collections.abc import Mapping

from pnpgen.faces import Ellipse, Line, Polygon
from pnpgen.layout.draw import DrawProblem
from pnpgen.layout.elements import _nets as nets
from pnpgen.layout.elements._place import AnyList, icon, label, plain
from pnpgen.layout.kinds import COLOUR, ICON, Choice, Colour, ElementType, FontName, Length, Text
from pnpgen.units import mm

H = math.sqrt(3) / 2
# Each die: its faces' corners in face sides (clockwise on the page, y down), in the order the `faces` list
# fills them, and the (face, side) that carries a glue tab, one of each pair of sides glued together. A d6's
# faces given as 1 to 6 put opposite faces adding to 7.
NETS: dict[str, tuple[tuple[tuple[tuple[float, float], ...], ...], tuple[tuple[int, int], ...]]] = {
    "d6": (
        tuple(
            ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1))
            for c, r in ((1, 0), (1, 1), (0, 1), (2, 1), (1, 3), (1, 2))
        ),
        ((0, 1), (0, 3), (5, 1), (5, 3), (4, 1), (4, 2), (4, 3)),
    ),
    "d4": (
        (
            ((0.5, H), (1.5, H), (1, 2 * H)),
            ((1, 0), (1.5, H), (0.5, H)),
            ((0.5, H), (1, 2 * H), (0, 2 * H)),
            ((1.5, H), (2, 2 * H), (1, 2 * H)),
        ),
        ((1, 0), (2, 2), (3, 1)),
    ),
}
for _die, (_face, _fulls, _tree) in nets.TREES.items():  # the others unfolded, a tab on each glued pair
    _shapes = nets.unfold(_face, _tree)
    NETS[_die] = (tuple(tuple(f) for f in _shapes), tuple(b for _, b in nets.glued(_shapes, _fulls)))
_FACE_KEYS = ("label", "icon", "fill", "pips")
# pips of 1 to 6 on a 3 x 3 grid of a square face (column, row)
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
FOLD_DASH = (3.0, 2.0)


def draw(p, fc, ops, label_, diags) -> None:
    die = p.get("die")
    shapes, tabbed = NETS[die]
    s, x0, y0 = p.get("size"), p.get("x"), p.get("y")
    faces = _faces(p, die, len(shapes))
    polys = [[(x0 + a * s, y0 + b * s) for a, b in shape] for shape in shapes]
    cut, sw = p.get("stroke"), p.get("stroke_width")
    for poly, spec in zip(polys, faces):
        fill = p.parse(COLOUR, spec["fill"], "faces") if "fill" in spec else p.get("fill")
        ops.append(Polygon(tuple(poly), fill, None, 0))
    depth = p.get("tab")
    angles = nets.corner_angles(polys)
    tabs = []
    for f, i in tabbed:
        (ax, ay), (bx, by) = polys[f][i], polys[f][(i + 1) % len(polys[f])]
        ln = math.hypot(bx - ax, by - ay)
        dx, dy = (bx - ax) / ln, (by - ay) / ln
        nx, ny = dy, -dx  # outward: corners run clockwise on the page
        # each end slants in, no wider than three quarters of the gap outside the net at that corner, so a tab
        # stays out of the face across a narrow notch (a d12's is 36 degrees)
        ins = [
            max(min(depth, ln / 3), depth / math.tan(math.radians(min(89.0, 0.75 * (360 - angles[_key(c)])))))
            for c in ((ax, ay), (bx, by))
        ]
        shrink = min(1.0, 0.9 * ln / (ins[0] + ins[1]))
        d, ia, ib = depth * shrink, ins[0] * shrink, ins[1] * shrink
        tabs.append(
            (
                (ax, ay),
                (ax + nx * d + dx * ia, ay + ny * d + dy * ia),
                (bx + nx * d - dx * ib, by + ny * d - dy * ib),
                (bx, by),
            )
        )
    _fits(p, fc, polys + tabs)
    ops.extend(Polygon(tab, p.get("tab_fill"), cut, sw) for tab in tabs)
    edges: dict = {}
    for f, poly in enumerate(polys):
        for i in range(len(poly)):
            a, b = poly[i], poly[(i + 1) % len(poly)]
            key = frozenset((_key(a), _key(b)))
            edges.setdefault(key, [a, b, 0])[2] += 1 + ((f, i) in tabbed)
    for a, b, n in edges.values():
        ops.append(Line(a[0], a[1], b[0], b[1], cut, sw, FOLD_DASH if n > 1 else ()))
    for poly, spec in zip(polys, faces):
        _content(p, fc, die, poly, spec, s, ops, label_)


def _fits(p, fc, polys) -> None:
    """The net and its tabs inside the face's bleed box, or an error at the element saying where it lies."""
    xs = [x for poly in polys for x, _ in poly]
    ys = [y for poly in polys for _, y in poly]
    b = fc.bleed_pt
    box = (-b, -b, fc.width_pt + b, fc.height_pt + b)
    if (
        min(xs) < box[0] - 0.01
        or min(ys) < box[1] - 0.01
        or max(xs) > box[2] + 0.01
        or max(ys) > box[3] + 0.01
    ):
        w, h = mm(max(xs) - min(xs)), mm(max(ys) - min(ys))
        raise DrawProblem(
            p.el.loc,
            f"the {p.get('die')} net with its tabs is {w:.1f} x {h:.1f} mm from ({mm(min(xs)):.1f}, "
            f"{mm(min(ys)):.1f}) mm: it does not fit the {mm(fc.width_pt):.1f} x {mm(fc.height_pt):.1f} mm face "
            "and its bleed; move it or give a smaller 'size'",
        )


_key = nets.key


def _faces(p, die, count):
    faces = p.get("faces")
    if len(faces) != count:
        p.fail("faces", f"must list the {count} faces of a {die} (got {len(faces)})")
    out = []
    for n, raw in enumerate(faces, 1):
        spec = dict(raw.items()) if isinstance(raw, Mapping) else {"label": raw}
        unknown = [k for k in spec if k not in _FACE_KEYS]
        if unknown:
            p.fail("faces", f"face {n} has the key '{unknown[0]}'; a face takes {', '.join(_FACE_KEYS)}")
        pips = spec.get("pips")
        if pips is not None and (die != "d6" or isinstance(pips, bool) or pips not in PIPS):
            p.fail(
                "faces", f"face {n}: 'pips' must be a whole number from 1 to 6 on a d6's face (got {pips!r})"
            )
        out.append(spec)
    return out


def _content(p, fc, die, poly, spec, s, ops, card) -> None:
    cx = sum(x for x, _ in poly) / len(poly)
    cy = sum(y for _, y in poly) / len(poly)
    ink = p.get("color") or "#000000"
    if spec.get("pips") is not None:
        r = s * 0.09
        for c, row in PIPS[spec["pips"]]:
            px, py = poly[0][0] + s * (0.25 + 0.25 * c), poly[0][1] + s * (0.25 + 0.25 * row)
            ops.append(Ellipse(px - r, py - r, 2 * r, 2 * r, ink, None, 0))
    big = 0.45 if die in ("d6", "d12") else 0.3  # a square or a pentagon holds more than a triangle or a kite
    if spec.get("icon"):
        icon(
            ops,
            p.parse(ICON, spec["icon"], "faces"),
            cx,
            cy,
            s * (0.6 if big > 0.3 else 0.35),
            p.get("color"),
        )
    size = p.get("label_size") if p.given("label_size") else s * big
    instead = "to draw it, give the face `icon: {name}`"
    text = plain(p, fc, p.parse(Text(20), spec.get("label"), "faces"), "faces", card, instead)
    label(ops, text, cx, cy, p.get("font"), size, ink)


TYPE = ElementType(
    "die-net",
    keys={
        "x": Length(),
        "y": Length(),
        "size": Length(default=20, least="positive"),
        "die": Choice(tuple(NETS), "d6"),
        "faces": AnyList(),
        "fill": Colour("white"),
        "stroke": Colour("black"),
        "stroke_width": Length("pt", 0.6, "zero"),
        "tab": Length(default=5, least="positive"),
        "tab_fill": Colour("#e6e6e6"),
        "font": FontName("sans-bold"),
        "label_size": Length("pt", None, "positive"),
        "color": Colour("black"),
    },
    draw=draw,
    required=("x", "y", "faces"),
    example="{type: die-net, x: 5, y: 5, size: 8, die: d4, faces: [{}, {}, {}, {}]}",  # for tests/test_elements.py: every type draws its example
    draws=("Polygon",) * 7 + ("Line",) * 9,
    text_size="label_size",
)
