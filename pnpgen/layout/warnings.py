"""Layout warnings: what a designer sees only by looking, found on every drawn face. Text overlapping another
element's text; text crossing another element's outline or line (where no solid fill drawn after the line
covers it); an element hidden under a later opaque one (a filled rectangle or ellipse, a JPEG picture); text or
icons outside the safe zone; text set under the size a print shop recommends.

The build reports the first three through `note_overlaps` (called by `draw.draw_face`; the safe zone by the
elements that draw text and icons, the text size by `draw.FaceContext.check_size`); `face_warnings` gives all
five for one face, each with the boxes of the elements concerned, for the editor's page. An element with
`overlap: allowed` is meant to overlap: none of the first three names it; one with `small_text: allowed` is not
named for its text size. Boxes are in points from the trim's top-left corner, y downwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpgen import units
from pnpgen.errors import Location
from pnpgen.faces import Ellipse, Icon, Image, Line, Polygon, Rect, Text, Vector, turned, turned_bounds
from pnpgen.layout.outlines import crosses, inside
from pnpgen.text import TEXT_ERROR_PT, TEXT_WARN_PT
from pnpgen.text.fonts import unit_width, vertical_metrics

TOLERANCE_PT = 1.0  # boxes that share less than this, across and down, only touch
PAIR_BUDGET = 200_000  # box comparisons one face may cost (hostile content draws thousands of shapes)
HIDDEN_SHARE = 0.2  # an icon or shape with this much of its area under a later opaque one is hidden
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
JPEG = (".jpg", ".jpeg")


@dataclass(frozen=True)
class LayoutWarning:
    """One warning on one face: its kind (overlap, hidden, outside-safe, small-text), the element's location
    and box (x, y, w, h in points), and for overlap and hidden the other element's."""

    kind: str
    message: str
    loc: Location
    box: tuple[float, float, float, float]
    other: Location | None = None
    other_box: tuple[float, float, float, float] | None = None


class _Part:
    """What one element drew, as boxes: its set text (glyph boxes, line by line), its icons, its shapes, the
    opaque parts of them, and all of it."""

    __slots__ = ("el", "text", "marks", "opaque", "lines", "box", "allowed")

    def __init__(self, el: Any, ops: Any, icons: dict):
        self.el = el
        self.allowed = getattr(el, "overlap", None) == "allowed"
        self.text: list[Box] = []
        self.marks: list[Box] = []  # icons and shapes: what can be hidden (art is framed on purpose)
        self.opaque: list[Box] = []
        # outlines and lines: kind ("rect", "ellipse", "line", a polygon's "edge"), box (a line: its ends), half width
        self.lines: list[tuple[str, Box, float]] = []
        boxes: list[Box] = []
        for op in ops:
            kind = type(op)
            if kind is Line:
                if op.stroke_width > 0:
                    self.lines.append(("line", (op.x1, op.y1, op.x2, op.y2), op.stroke_width / 2))
                continue
            if kind is Polygon:  # its outline, edge by edge; the other checks leave polygons out
                if op.stroke and op.stroke_width > 0:
                    pts = op.points
                    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
                        self.lines.append(("edge", (ax, ay, bx, by), op.stroke_width / 2))
                continue
            if (kind is Rect or kind is Ellipse) and op.stroke and op.stroke_width > 0:
                b = (
                    min(op.x, op.x + op.w),
                    min(op.y, op.y + op.h),
                    max(op.x, op.x + op.w),
                    max(op.y, op.y + op.h),
                )
                self.lines.append(("rect" if kind is Rect else "ellipse", b, op.stroke_width / 2))
            if kind is Text:
                if not op.text.strip():
                    continue
                ascent, descent = vertical_metrics(op.font)
                b = (
                    op.x,
                    op.y - ascent * op.size * 0.75,
                    op.x + unit_width(op.text, op.font) * op.size,
                    op.y + descent * op.size * 0.5,
                )
                self.text.append(turned(op, b) if op.turn else b)
            elif kind is Icon:
                bounds = icons[op.name].bounds if op.name in icons else (0, 0, 100, 100)
                bx0, by0, bx1, by1 = turned_bounds(op, bounds) if op.turn else bounds
                b = (
                    op.x + op.w * bx0 / 100,
                    op.y + op.h * by0 / 100,
                    op.x + op.w * bx1 / 100,
                    op.y + op.h * by1 / 100,
                )
                self.marks.append(b)
            elif kind is Rect or kind is Ellipse:
                b = (op.x, op.y, op.x + op.w, op.y + op.h)
                self.marks.append(b)
                if op.fill and op.opacity >= 0.999:
                    if kind is Ellipse:  # the rectangle inside it
                        dx, dy = op.w * 0.1464, op.h * 0.1464
                        self.opaque.append((b[0] + dx, b[1] + dy, b[2] - dx, b[3] - dy))
                    else:
                        self.opaque.append(b)
            elif kind is Image or kind is Vector:
                cx, cy, cw, ch = op.clip  # what shows of the art: its box cut to the clip
                b = (max(op.x, cx), max(op.y, cy), min(op.x + op.w, cx + cw), min(op.y + op.h, cy + ch))
                if kind is Image and op.path.lower().endswith(JPEG):  # a JPEG has no transparency: it hides
                    self.opaque.append(b)
            else:
                continue
            boxes.append(b)
        self.box: Box | None = _around(boxes) if boxes else None


def _shared(a: Box, b: Box) -> tuple[float, float]:
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def _meet(a: Box, b: Box) -> bool:
    """Whether two boxes share more than TOLERANCE_PT across and down."""
    t = TOLERANCE_PT
    return (
        a[2] - b[0] > t
        and b[2] - a[0] > t
        and a[3] - b[1] > t
        and b[3] - a[1] > t
        and (a[2] - a[0] > t and b[2] - b[0] > t and a[3] - a[1] > t and b[3] - b[1] > t)
    )


def _area(b: Box) -> float:
    return max(b[2] - b[0], 0.0) * max(b[3] - b[1], 0.0)


def _xywh(b: Box) -> tuple[float, float, float, float]:
    return (b[0], b[1], b[2] - b[0], b[3] - b[1])


def _name(el: Any, of: Any) -> str:
    """The other element, as a message names it: its type and id, and its line (its file when another)."""
    what = el.type + " element" + (f" '{el.id}'" if el.id else "")
    where = f"line {el.loc.line}" if el.loc.path == of.loc.path else str(el.loc)
    return f"the {what} at {where}"


def _near(boxes: Any, box: Box) -> list[Box]:
    """The distinct boxes among `boxes` that reach into `box` (a for_each of a thousand shapes is one box a place)."""
    x0, y0, x1, y1 = box
    return [b for b in dict.fromkeys(boxes) if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]]


def overlaps(parts: list[_Part]) -> list[LayoutWarning]:
    """Text over another element's text, and text, icons and shapes hidden under a later opaque element. The box
    comparisons a face may cost are bounded (PAIR_BUDGET): past it, the rest of the face is not compared, and a
    warning says so at the element where the checking stopped."""
    out: list[LayoutWarning] = []
    t = TOLERANCE_PT
    spent = 0
    for j, top in enumerate(parts):
        if top.box is None or top.allowed or not (top.text or top.opaque):
            continue  # nothing it draws can cover or overlap another element
        tb = top.box
        tx0, ty0, tx1, ty1 = tb
        for under in parts[:j]:
            ub = under.box
            if ub is None or under.allowed or not (under.text or under.marks):
                continue
            if ub[0] >= tx1 - t or tx0 >= ub[2] - t or ub[1] >= ty1 - t or ty0 >= ub[3] - t:
                continue
            mine, theirs = (
                (_near(top.text, ub), _near(under.text, tb)) if top.text and under.text else ([], [])
            )
            spent += len(mine) * len(theirs)
            if mine and spent <= PAIR_BUDGET and any(_meet(a, b) for a in mine for b in theirs):
                out.append(
                    LayoutWarning(
                        "overlap",
                        f"this {top.el.type} element's text overlaps the text of {_name(under.el, top.el)}",
                        top.el.loc,
                        _xywh(tb),
                        under.el.loc,
                        _xywh(ub),
                    )
                )
            if not top.opaque:
                continue
            cover = _near(top.opaque, ub)
            big = [
                o for o in cover if _area(o) > _area(ub)
            ]  # only a cover larger than the element hides its marks
            texts, marks = _near(under.text, tb), _near(under.marks, tb) if big else []
            spent += len(texts) * len(cover) + len(marks) * len(big)
            if spent > PAIR_BUDGET:
                out.append(
                    LayoutWarning(
                        "unchecked",
                        f"this face draws too many shapes to check what hides what (over {PAIR_BUDGET:,} "
                        "comparisons); the rest of it is not checked",
                        top.el.loc,
                        _xywh(tb),
                    )
                )
                return out
            hidden = any(_meet(t, o) for t in texts for o in cover) or any(
                _covered(m, o) for m in marks for o in big
            )
            if hidden:
                out.append(
                    LayoutWarning(
                        "hidden",
                        f"this {under.el.type} element is hidden under {_name(top.el, under.el)}, "
                        + (
                            "drawn after it (a JPEG has no transparency)"
                            if top.el.type == "image"
                            else "drawn after it with a solid fill"
                        ),
                        under.el.loc,
                        _xywh(ub),
                        top.el.loc,
                        _xywh(tb),
                    )
                )
    return out


def _covered(m: Box, o: Box) -> bool:
    w, h = _shared(m, o)
    return w > TOLERANCE_PT and h > TOLERANCE_PT and w * h >= HIDDEN_SHARE * _area(m)


def parts_of(ops: Any, spans: Any, icons: dict) -> list[_Part]:
    """Each element's part of a face's operations (`spans`: (first op, end op, Element), as `draw_face` makes)."""
    return [_Part(el, ops[a:b], icons) for a, b, el in spans]


def crossings(parts: list[_Part]) -> list[LayoutWarning]:
    """Text whose glyph boxes meet another element's outline (a stroked `rect` or `ellipse`) or `line`, but for
    where a solid fill drawn after the line covers the text's place (a label on a panel laid over a circle's edge).
    Text wholly inside an outline, or clear of it, does not cross it. Comparisons are bounded as in `overlaps`."""
    out: list[LayoutWarning] = []
    spent = 0
    texts = {id(p): _around(p.text) for p in parts if p.text}  # each part's text as one box
    texted = [p for p in parts if p.text and not p.allowed]  # only these can cross: the others cost nothing
    for j, shape in enumerate(parts):
        if not shape.lines or shape.allowed:
            continue
        later: list[Box] | None = None  # the solid fills drawn after it where its lines reach, once needed
        # each line's reach: its box grown by half its width (an ellipse's band, measured along its mean radius,
        # reaches up to twice that past the box at the ends of its long axis), and all of them together
        grown = [
            (line, _grown(line[1], 2 * line[2] if line[0] == "ellipse" else line[2])) for line in shape.lines
        ]
        reach = _around([g for _, g in grown])
        (kind, b, h), *others = shape.lines
        frame = (b[0] + h, b[1] + h, b[2] - h, b[3] - h) if kind == "rect" and not others else None
        for part in texted:
            if part is shape:
                continue
            # its text as one box, clear of every line or inside a lone frame: none of its words crosses (one
            # comparison); else each word against each line near it
            near = not _apart(texts[id(part)], reach) and not (frame and inside(texts[id(part)], frame))
            if near and later is None:  # each word is checked against them too: they count
                drawn = [o for p in parts[j + 1 :] for o in p.opaque]
                later = [o for o in drawn if not _apart(o, reach)]
                spent += len(drawn)
            spent += len(part.text) * (len(shape.lines) + len(later or ())) if near else 1
            if spent > PAIR_BUDGET:
                where = part.box or (0.0, 0.0, 0.0, 0.0)
                out.append(
                    LayoutWarning(
                        "unchecked",
                        f"this face draws too many lines, fills and words to check what crosses what (over "
                        f"{PAIR_BUDGET:,} comparisons); the rest of it is not checked",
                        part.el.loc,
                        _xywh(where),
                    )
                )
                return out
            if not near:
                continue
            hit = next(
                (
                    (t, line)
                    for t in dict.fromkeys(part.text)
                    for line, g in grown
                    if not _apart(t, g) and crosses(t, line) and not any(inside(t, o) for o in later or ())
                ),
                None,
            )
            if hit is None:
                continue
            kind, b, half = hit[1]
            what = (
                f"the {shape.el.type} element"
                if kind == "line"
                else f"the outline of the {shape.el.type} element"
            )
            name = _name(shape.el, part.el).replace(f"the {shape.el.type} element", what, 1)
            lb = _grown(b, half)
            out.append(
                LayoutWarning(
                    "crossing",
                    f"this {part.el.type} element's text crosses {name}",
                    part.el.loc,
                    _xywh(part.box or hit[0]),
                    shape.el.loc,
                    _xywh(lb),
                )
            )
    return out


def _grown(b: Box, by: float) -> Box:
    """A line's or outline's box (a line: its two ends, in any order) grown by `by` on every side."""
    return min(b[0], b[2]) - by, min(b[1], b[3]) - by, max(b[0], b[2]) + by, max(b[1], b[3]) + by


def _apart(a: Box, b: Box) -> bool:
    """Whether two boxes share no area (touching is apart)."""
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _around(boxes: list[Box]) -> Box:
    """The box holding every box of `boxes`."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def note_overlaps(ops: list, spans: list, fc: Any, label: str) -> None:
    """The build's overlap, crossing and hidden warnings for one face, noted once per element and message."""
    if len(spans) < 2:
        return
    parts = parts_of(ops, spans, fc.icons)
    for w in overlaps(parts) + crossings(parts):
        fc.note(w.loc, w.message, label)


def face_warnings(face: Any, spans: Any, fc: Any) -> list[LayoutWarning]:
    """Every layout warning of one drawn face, with the elements' boxes (for the editor's page). `spans` are the
    face's `FaceContext.origins[face][0]`: draw with `origins` given (`Painter.deck(deck, diags, origins={})`,
    or `fc = painter.context(deck); fc.origins = {}`); `fc` gives the safe zone, the size and the icons."""
    parts = parts_of(face.ops, spans, fc.icons)
    out = overlaps(parts) + crossings(parts)
    safe = units.mm(fc.safe_pt)
    for (a, b, el), part in zip(spans, parts):
        if part.box is None:
            continue
        shown = [op for op in face.ops[a:b] if type(op) is Text or type(op) is Icon]
        if shown and outside_safe(shown, fc):
            what = "text" if any(type(op) is Text for op in shown) else "icon"
            out.append(
                LayoutWarning(
                    "outside-safe",
                    f"{what} reaches outside the safe zone ({safe:g} mm inside the cut)",
                    el.loc,
                    _xywh(part.box),
                )
            )
        sizes = [op.size for op in shown if type(op) is Text and op.text.strip()]
        if sizes and min(sizes) < TEXT_WARN_PT - 0.005 and getattr(el, "small_text", None) != "allowed":
            under = (
                f"{TEXT_ERROR_PT:g} pt floor (the build fails)"
                if min(sizes) < TEXT_ERROR_PT - 0.005
                else f"{TEXT_WARN_PT:g} pt a print shop recommends"
            )
            out.append(
                LayoutWarning(
                    "small-text",
                    f"text is drawn as small as {min(sizes):.1f} pt, under the {under}",
                    el.loc,
                    _xywh(part.box),
                )
            )
    return out


def outside_safe(ops, fc: Any) -> bool:
    """Whether any glyph of the set text (not merely its box) crosses the safe zone."""
    s = fc.safe_pt
    for op in ops:
        if isinstance(op, Text):
            ascent, descent = vertical_metrics(op.font)
            x0, x1 = op.x, op.x + unit_width(op.text, op.font) * op.size
            y0, y1 = op.y - ascent * op.size * 0.75, op.y + descent * op.size * 0.5
            if op.turn:
                x0, y0, x1, y1 = turned(op, (x0, y0, x1, y1))
        elif isinstance(op, Icon) and op.name in fc.icons:
            bx0, by0, bx1, by1 = turned_bounds(op, fc.icons[op.name].bounds)
            x0, x1 = op.x + op.w * bx0 / 100, op.x + op.w * bx1 / 100
            y0, y1 = op.y + op.h * by0 / 100, op.y + op.h * by1 / 100
        else:
            x0, x1, y0, y1 = op.x, op.x + op.w, op.y, op.y + op.h
        if x0 < s - 0.5 or y0 < s - 0.5 or x1 > fc.width_pt - s + 0.5 or y1 > fc.height_pt - s + 0.5:
            return True
    return False
