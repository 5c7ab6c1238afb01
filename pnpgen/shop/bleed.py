"""Whether a piece's bleed is there: every side of the band between the trim and the bleed's outer edge filled
by something opaque (a background, art, or several side by side). A shop file's BleedBox claims that band, so a
side left empty is an error for the shop targets (`preflight`), and each written page is measured against it.
"""

from __future__ import annotations

from pnpgen.faces import Image, Rect, Vector


def missing_bleed(face) -> list[str]:
    """The sides (left, top, right, bottom), then the corners, whose bleed nothing opaque fills from the trim to
    its outer edge: a background or art reaching over it, or several side by side. Empty when all is filled."""
    b, w, h = face.bleed_pt, face.width_pt, face.height_pt
    if b <= 0:
        return []
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


def _spans_cover(spans: list[tuple[float, float]], start: float, end: float) -> bool:
    reached = start
    for a, z in sorted(spans):
        if a > reached:
            return False
        reached = max(reached, z)
        if reached >= end:
            return True
    return reached >= end
