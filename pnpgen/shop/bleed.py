"""Whether a piece's bleed is there: every side of the band between the trim and the bleed's outer edge filled
by something opaque (a background, art, or several side by side). A shop file's BleedBox claims that band, so a
side left empty is an error for the shop targets (`preflight`), and each written page is measured against it.
"""

from __future__ import annotations

import math
from dataclasses import replace

from pnpgen.colours import rgb_of
from pnpgen.faces import Ellipse, Image, Polygon, Rect, Vector
from pnpgen.shapes import grow, outline

SAMPLES = 48  # points along each edge of a shaped piece's bleed (a circle: four times as many round it)


def missing_bleed(face) -> list[str]:
    """The sides (left, top, right, bottom), then the corners, whose bleed nothing opaque fills from the trim to
    its outer edge: a background or art reaching over it, or several side by side. Empty when all is filled.
    A shaped piece (hex, triangle, circle) is cut along its outline: its band is that outline grown by the
    bleed, sampled, and a side is named by where its empty points lie."""
    b, w, h = face.bleed_pt, face.width_pt, face.height_pt
    if b <= 0:
        return []
    if face.shape not in ("rect", "square"):
        return _shaped(face)
    eps = 0.01
    boxes = []
    for op in face.ops:
        if isinstance(op, Rect) and op.fill is not None and op.opacity >= 1 and op.radius == 0:
            boxes.append((op.x, op.y, op.x + op.w, op.y + op.h))
        elif isinstance(op, (Image, Vector)):
            cx, cy, cw, ch = op.clip
            boxes.append((max(op.x, cx), max(op.y, cy), min(op.x + op.w, cx + cw), min(op.y + op.h, cy + ch)))
    # each side's strip along the trim (its corners are the corners'), the boxes spanning its depth and the spans
    # they cover along it
    sides = {
        "left": ([(y0, y1) for x0, y0, x1, y1 in boxes if x0 <= -b + eps and x1 >= -eps], h),
        "top": ([(x0, x1) for x0, y0, x1, y1 in boxes if y0 <= -b + eps and y1 >= -eps], w),
        "right": ([(y0, y1) for x0, y0, x1, y1 in boxes if x0 <= w + eps and x1 >= w + b - eps], h),
        "bottom": ([(x0, x1) for x0, y0, x1, y1 in boxes if y0 <= h + eps and y1 >= h + b - eps], w),
    }
    missing = [side for side, (spans, length) in sides.items() if not _spans_cover(spans, eps, length - eps)]
    corners = {  # (x0, y0, x1, y1) of each corner's square of bleed, and the sides it joins
        "top-left corner": ((-b, -b, 0.0, 0.0), ("top", "left")),
        "top-right corner": ((w, -b, w + b, 0.0), ("top", "right")),
        "bottom-right corner": ((w, h, w + b, h + b), ("bottom", "right")),
        "bottom-left corner": ((-b, h, 0.0, h + b), ("bottom", "left")),
    }
    for corner, ((cx0, cy0, cx1, cy1), joins) in corners.items():
        if any(side in missing for side in joins):
            continue  # said with its side
        if not any(
            x0 <= cx0 + eps and y0 <= cy0 + eps and x1 >= cx1 - eps and y1 >= cy1 - eps
            for x0, y0, x1, y1 in boxes
        ):
            missing.append(corner)
    return missing


def reaching_trim(face) -> list[str]:
    """The sides (left, top, right, bottom) that something opaque and not white fills up to the trim: art a cut
    off by a little would show paper beside, unless the face's bleed carries it on (a white sheet reaches none)."""
    inked = tuple(op for op in face.ops if not (isinstance(op, Rect) and _white(op.fill)))
    missing = missing_bleed(replace(face, bleed_pt=0.01, ops=inked))
    return [side for side in ("left", "top", "right", "bottom") if side not in missing]


def _white(fill) -> bool:
    return isinstance(fill, str) and fill.startswith(("#", "cmyk(")) and min(rgb_of(fill)) >= 0.999


def _spans_cover(spans: list[tuple[float, float]], start: float, end: float) -> bool:
    reached = start
    for a, z in sorted(spans):
        if a > reached:
            return False
        reached = max(reached, z)
        if reached >= end:
            return True
    return reached >= end


def _opaque(face) -> list:
    """(kind, shape) of every opaque fill that reaches past the trim's box: what can fill a bleed."""
    w, h = face.width_pt, face.height_pt
    found = []
    for op in face.ops:
        kind = type(op)
        if kind in (Rect, Ellipse, Polygon) and (op.fill is None or op.opacity < 1):
            continue
        if kind is Rect and op.radius == 0 or kind is Ellipse:
            box = (op.x, op.y, op.x + op.w, op.y + op.h)
        elif kind is Polygon:
            xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
            box = (min(xs), min(ys), max(xs), max(ys))
        elif kind in (Image, Vector):
            cx, cy, cw, ch = op.clip
            box = (max(op.x, cx), max(op.y, cy), min(op.x + op.w, cx + cw), min(op.y + op.h, cy + ch))
        else:
            continue
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
            found.append((kind, box, op))
    return found


def _inside(x: float, y: float, kind, box, op) -> bool:
    if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
        return False
    if kind is Ellipse:
        rx, ry = op.w / 2, op.h / 2
        return ((x - op.x - rx) / rx) ** 2 + ((y - op.y - ry) / ry) ** 2 <= 1.0001
    if kind is Polygon:
        pts, inside = op.points, False
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside
    return True


def _shaped(face) -> list[str]:
    b, w, h = face.bleed_pt, face.width_pt, face.height_pt
    fills = _opaque(face)
    points = []
    for depth in (0.05 * b, 0.5 * b, 0.95 * b):  # just outside the cut, halfway, just inside the bleed's edge
        if face.shape == "circle":
            r = w / 2 + depth
            n = 4 * SAMPLES
            points += [
                (w / 2 + r * math.cos(2 * math.pi * i / n), h / 2 + r * math.sin(2 * math.pi * i / n))
                for i in range(n)
            ]
            continue
        shape = [
            (x, h - y) for x, y in outline(face.shape, w, h) or []
        ]  # y downwards, as a face's operations
        ring = grow(shape, [depth] * len(shape))
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
            points += [(x1 + (x2 - x1) * i / SAMPLES, y1 + (y2 - y1) * i / SAMPLES) for i in range(SAMPLES)]
    eps = 0.01  # a grown corner may reach past the page (trim + bleed), where nothing is printed: not judged
    inside_page = [(x, y) for x, y in points if -b + eps <= x <= w + b - eps and -b + eps <= y <= h + b - eps]
    empty = [(x, y) for x, y in inside_page if not any(_inside(x, y, *fill) for fill in fills)]
    sides = set()
    for x, y in empty:  # named by where they lie from the centre, as the sides of its box
        dx, dy = (x - w / 2) / w, (y - h / 2) / h
        sides.add(("right" if dx > 0 else "left") if abs(dx) >= abs(dy) else ("bottom" if dy > 0 else "top"))
    return [side for side in ("left", "top", "right", "bottom") if side in sides]
