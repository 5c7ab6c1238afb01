"""What a diagram's view may not do: cut a piece, a label or the board's own print in half, or let an arrow's
label cover its arrow. The geometry here is shared with `render/diagram.py`, which draws labels where
`arrow_label_centre` puts them, so what is checked is what is printed.

Lengths are the plan's (points of the board or area, y down) unless said; a label's type size is in printed
points, so its box in the plan's units depends on the scale it is printed at (`printed_scale`).
"""

from __future__ import annotations

import math

from pnpgen.errors import Diagnostics
from pnpgen.faces import turned
from pnpgen.text.fonts import unit_width
from pnpgen.units import MM

COLUMN_PT = 170 * MM  # the rulebook's text column on A4, its narrowest paper (Letter's is 175.9 mm)
MAX_H_PT = 200 * MM  # a diagram is never printed taller (render/diagram.py)
ARROW_LABEL_SIZE = 7.5
LABEL_FONT = "sans-bold"
TOLERANCE = 0.5  # points: a piece touching the view's edge is not cut


def printed_scale(plan, column_pt: float = COLUMN_PT) -> float:
    """Printed points per plan point, as `DiagramFlowable` prints the diagram in a column of that width."""
    vw, vh = plan.view[2], plan.view[3]
    scale = min(plan.width_pt or column_pt, column_pt) / vw
    return MAX_H_PT / vh if vh * scale > MAX_H_PT else scale


def label_half(text: str, size: float) -> tuple[float, float]:
    """Half the width and height of a label's box (its halo), in printed points."""
    pad = size * 0.35
    return unit_width(text, LABEL_FONT) * size / 2 + pad, size * 0.55 + pad * 0.6


def arrow_label_centre(
    x1, y1, x2, y2, half_w: float, half_h: float, gap: float, side: int = 1
) -> tuple[float, float]:
    """Where an arrow's label goes: beside the middle of the arrow, pushed off it along its normal by the box's
    own reach in that direction plus `gap`, so the box never covers the line it names. `side` 1 is below (y
    down), or right of an upright arrow; -1 the other side."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    if ny < 0 or (ny == 0 and nx < 0):  # the same side of the page whichever way the arrow points
        nx, ny = -nx, -ny
    nx, ny = nx * side, ny * side
    reach = abs(nx) * half_w + abs(ny) * half_h + gap
    return (x1 + x2) / 2 + nx * reach, (y1 + y2) / 2 + ny * reach


def arrow_label_spots(arrows, scale: float) -> list:
    """Each arrow's label centre (None without a label), in the plan's points: on the side where its box meets
    no arrow at all, when one side does; the renderer draws them here, the check holds them to it."""
    out: list = []
    for x1, y1, x2, y2, label, *_ in arrows:
        if not label:
            out.append(None)
            continue
        hw, hh = (d / scale for d in label_half(label, ARROW_LABEL_SIZE))
        spots = [arrow_label_centre(x1, y1, x2, y2, hw, hh, 1.5 / scale, side) for side in (1, -1)]
        clear = [p for p in spots if not any(box_meets_segment(*p, hw, hh, *a[:4]) for a in arrows)]
        out.append((clear or spots)[0])
    return out


def box_meets_segment(cx, cy, half_w, half_h, x1, y1, x2, y2) -> bool:
    """Whether a box (centre, half sizes) and a line segment share a point (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in (
        (-dx, x1 - (cx - half_w)),
        (dx, (cx + half_w) - x1),
        (-dy, y1 - (cy - half_h)),
        (dy, (cy + half_h) - y1),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _cut(box, view) -> bool:
    """Whether a box (x0, y0, x1, y1) is partly inside the view and partly outside it."""
    vx0, vy0, vx1, vy1 = view[0], view[1], view[0] + view[2], view[1] + view[3]
    x0, y0, x1, y1 = box
    inside = x0 < vx1 - TOLERANCE and x1 > vx0 + TOLERANCE and y0 < vy1 - TOLERANCE and y1 > vy0 + TOLERANCE
    return inside and not _within(box, view)


def _within(box, view) -> bool:
    """Whether a box (x0, y0, x1, y1) lies wholly inside the view."""
    vx0, vy0, vx1, vy1 = view[0], view[1], view[0] + view[2], view[1] + view[3]
    x0, y0, x1, y1 = box
    return x0 >= vx0 - TOLERANCE and x1 <= vx1 + TOLERANCE and y0 >= vy0 - TOLERANCE and y1 <= vy1 + TOLERANCE


def _shows(view, x1, y1, x2, y2) -> bool:
    """Whether any part of the segment lies inside the view."""
    return box_meets_segment(
        view[0] + view[2] / 2, view[1] + view[3] / 2, view[2] / 2, view[3] / 2, x1, y1, x2, y2
    )


def _piece_box(cx, cy, w, h, rotate):
    a = math.radians(rotate)
    hw = (abs(math.cos(a)) * w + abs(math.sin(a)) * h) / 2
    hh = (abs(math.sin(a)) * w + abs(math.cos(a)) * h) / 2
    return cx - hw, cy - hh, cx + hw, cy + hh


def _text_boxes(face):
    """The boxes of a face's own text (a board's legend, its letters), in the face's points, y down."""
    for op in face.ops:
        if type(op).__name__ == "Text" and op.text.strip():
            w = unit_width(op.text, op.font) * op.size if _known(op.font) else len(op.text) * op.size * 0.6
            yield op.text, turned(op, (op.x, op.y - op.size * 0.8, op.x + w, op.y + op.size * 0.25))


def _piece_words(face, cx, cy, w, h, rotate):
    """The boxes of a piece's own words in the plan, as `render/diagram.py` draws the piece: scaled to w x h,
    centred on (cx, cy) and turned `rotate` degrees anticlockwise."""
    k, a = w / face.width_pt, math.radians(rotate)
    cos, sin = math.cos(a), math.sin(a)
    for text, (x0, y0, x1, y1) in _text_boxes(face):
        corners = [(u * k - w / 2, v * k - h / 2) for u in (x0, x1) for v in (y0, y1)]
        xs = [cx + dx * cos + dy * sin for dx, dy in corners]
        ys = [cy - dx * sin + dy * cos for dx, dy in corners]
        yield text, (min(xs), min(ys), max(xs), max(ys))


def seen_text_only(face, view):
    """The board's face without the words that lie wholly outside the view: cut away, they would still be in the
    page's text (a search, a screen reader, a copy would find them, over the caption)."""
    from dataclasses import replace

    vx0, vy0, vx1, vy1 = view[0], view[1], view[0] + view[2], view[1] + view[3]
    hidden = set()
    for i, op in enumerate(face.ops):
        if type(op).__name__ == "Text" and op.text.strip():
            w = unit_width(op.text, op.font) * op.size if _known(op.font) else len(op.text) * op.size
            x0, y0, x1, y1 = turned(
                op, (op.x - w, op.y - op.size, op.x + 2 * w, op.y + op.size)
            )  # any alignment
            if x1 < vx0 or x0 > vx1 or y1 < vy0 or y0 > vy1:
                hidden.add(i)
    if not hidden:
        return face
    return replace(face, ops=tuple(op for i, op in enumerate(face.ops) if i not in hidden))


def _known(font: str) -> bool:
    try:
        unit_width("x", font)
    except Exception:  # a game's own font this module cannot measure: a generous estimate instead
        return False
    return True


def check_crops(plan, data, diags: Diagnostics, part: bool = False) -> None:
    """Report, at the diagram file's line, every piece, label or printed word of the board that the view cuts in
    half, and every arrow whose label would cover it. A diagram with `part:` says which part of a piece it shows:
    the view may cut the piece then, but not a word printed on it (take the word whole or leave it out)."""
    view, scale = plan.view, printed_scale(plan)
    hint = "move or widen the 'view' to take it whole, or leave it out"  # words: `part:` excuses none
    shown = "" if "view" in data else " (no 'view': the grid and its margin, or the board)"
    for (face, cx, cy, w, h, rotate), loc in zip(plan.pieces, plan.locs, strict=True):
        if _cut(_piece_box(cx, cy, w, h, rotate), view) and part:
            for text, box in _piece_words(face, cx, cy, w, h, rotate):
                if _cut(box, view):
                    diags.error(
                        loc,
                        f"the diagram's view cuts the words {text!r} printed on this piece",
                        "move or widen the 'view' so that the words are whole in it, or wholly outside it",
                    )
        elif _cut(_piece_box(cx, cy, w, h, rotate), view):
            sizes = (
                f"it is {w / MM:.4g} x {h / MM:.4g} mm, the view {view[2] / MM:.4g} x {view[3] / MM:.4g} mm"
            )
            message = f"the diagram's view cuts this piece in half: {sizes}{shown}"
            diags.error(
                loc,
                message,
                f"draw it smaller with 'size:', or {hint}; or say which part is shown with 'part:'",
            )
    for (x, y, text, size, _colour), loc in zip(plan.labels, plan.label_locs, strict=True):
        hw, hh = (d / scale for d in label_half(text, size))
        if _cut((x - hw, y - hh, x + hw, y + hh), view):
            diags.error(loc, f"the diagram's view cuts the label {text!r}", hint)
    spots = arrow_label_spots(plan.arrows, scale)
    for (x1, y1, x2, y2, label, _c, _d), loc, spot in zip(plan.arrows, plan.arrow_locs, spots, strict=True):
        if not label:
            continue
        hw, hh = (d / scale for d in label_half(label, ARROW_LABEL_SIZE))
        cx, cy = spot
        covered = [a for a in plan.arrows if box_meets_segment(cx, cy, hw, hh, *a[:4])]
        if covered:
            whose = "its arrow" if any(a[:4] == (x1, y1, x2, y2) for a in covered) else "another arrow"
            diags.error(loc, f"the arrow's label {label!r} would cover {whose}: move or shorten one of them")
        elif _cut((cx - hw, cy - hh, cx + hw, cy + hh), view):
            diags.error(loc, f"the diagram's view cuts the arrow's label {label!r}", hint)
        elif not _within((cx - hw, cy - hh, cx + hw, cy + hh), view) and _shows(view, x1, y1, x2, y2):
            # wholly outside while its arrow is shown (a long label set beside it): printed nowhere
            diags.error(
                loc,
                f"the diagram's view leaves out the arrow's label {label!r}: it would not print",
                "shorten the label, or move or widen the 'view' to take it whole",
            )
    if plan.board is not None:
        where = data.loc_of("view") if "view" in data else data.loc
        for text, box in _text_boxes(plan.board):
            if _cut(box, view):
                diags.error(where, f"the view cuts the board's own words {text!r} in half", hint)
        if plan.grid.coords:
            _coords_clear(plan, scale, where, diags)


def _coords_clear(plan, scale: float, where, diags: Diagnostics) -> None:
    """The column letters stand above the grid, over the board: inside the view, and off the board's own words."""
    g = plan.grid
    size = max(6.0, min(9.0, min(g.cw, g.ch) * scale * 0.35)) / scale
    texts = list(_text_boxes(plan.board))
    for i in range(g.cols):
        x, y = g.x + (i + 0.5) * g.cw, g.y - (2 / scale + size * 0.35)
        box = (x - size, y - size * 0.55, x + size, y + size * 0.55)
        if box[1] < plan.view[1] - TOLERANCE:
            diags.error(where, "the view cuts the grid's column letters: start it higher")
            return
        for text, (tx0, ty0, tx1, ty1) in texts:
            if box[0] < tx1 and box[2] > tx0 and box[1] < ty1 and box[3] > ty0:
                diags.error(where, f"the grid's column letters cover the board's own words {text!r}")
                return
