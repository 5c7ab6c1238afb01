"""The low-ink form of a face, when a game designs none of its own (`palette_low:` in game.yaml).

A transform of the draw operations, not a greyscale filter, that spends ink where it carries the game and saves
it where it only decorates:
- large fills (backgrounds, backs, frames, banners: at least `LARGE` of the face's area) keep a pale tint of
  their colour, `TINT` of its ink; one that does not cover the face gets a thin outline in its own colour, so
  its shape still reads;
- small fills (icons' discs, pips, colour keys) keep their colour: players tell things apart by them;
- text and art are transformed with the shape under them: text keeps its colour while it still reads on what
  now lies under it (WCAG's 4.5:1), else takes whichever of its colour, near-black or white reads best
  (white numbers on a small dark disc stay white: the disc keeps its colour);
- art (raster and SVG) is lightened under a white veil that lets `ART` of its ink through, unless it stands on
  a small fill that keeps its colour (an icon on a disc stays as it was drawn);
- lines keep their colour.
Pure: faces in, faces out, no ReportLab.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from pnpgen.colours import rgb_of
from pnpgen.faces import Ellipse, Face, Image, Op, Polygon, Rect, Text, Vector, turned

LARGE = 0.02  # of the face's area
TINT = 0.10  # what a large fill keeps of its ink
ART = 0.30  # what art keeps of its ink
OUTLINE = 0.6  # pt: the outline a pale fill gets
DARK_TEXT = "#1d1d1b"
READABLE = 4.5  # WCAG's contrast for normal text


def _rgb(colour: str) -> tuple[float, float, float]:
    return rgb_of(colour)  # a cmyk() colour too: the low-ink form is for home printers, which print RGB


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)


def luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""

    def rel(colour: str) -> float:
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in _rgb(colour)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((rel(a), rel(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _covers(op: Op, x: float, y: float) -> bool:
    """Whether a filled shape covers the point (its bounding box; an ellipse by its equation)."""
    if isinstance(op, Rect):
        return min(op.x, op.x + op.w) <= x <= max(op.x, op.x + op.w) and min(op.y, op.y + op.h) <= y <= max(
            op.y, op.y + op.h
        )
    if isinstance(op, Ellipse):
        rx, ry = abs(op.w) / 2 or 1e-6, abs(op.h) / 2 or 1e-6
        cx, cy = op.x + op.w / 2, op.y + op.h / 2
        return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0
    if isinstance(op, Polygon) and op.points:
        xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
        return min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
    if isinstance(op, (Image, Vector)):
        cx, cy, cw, ch = op.clip
        return cx <= x <= cx + cw and cy <= y <= cy + ch
    return False


def _under(drawn: list[tuple[Op, str | None]], x: float, y: float) -> tuple[Op | None, str | None]:
    """The topmost opaque thing drawn so far under a point, and its colour (None: art), or (None, paper)."""
    for op, fill in reversed(drawn):
        if _covers(op, x, y):
            return op, fill
    return None, "#ffffff"


def _text_colour(text: Text, under: str | None) -> str:
    """The text's colour in low ink, given the colour now under it (None: art, pale once veiled): its own while
    that reads (WCAG's 4.5:1), else whichever of its own, near-black and white reads best."""
    now = under if under is not None else "#ffffff"
    if contrast(text.color, now) >= READABLE:
        return text.color
    return max((text.color, DARK_TEXT, "#ffffff"), key=lambda c: contrast(c, now))


def pale(colour: str, keep: float = TINT) -> str:
    """The colour mixed with white, keeping `keep` of its ink."""
    return _hex(1 - (1 - v) * keep for v in _rgb(colour))


def deepen(colour: str) -> str:
    """A colour dark enough to outline a pale version of itself."""
    r, g, b = _rgb(colour)
    k = min(1.0, 0.45 / max(luminance(colour), 1e-3))
    return _hex((r * k, g * k, b * k)) if luminance(colour) > 0.45 else colour


def _area(op: Op) -> float:
    if isinstance(op, (Rect, Ellipse)):
        return abs(op.w * op.h) * (0.785 if isinstance(op, Ellipse) else 1.0)
    if isinstance(op, Polygon) and len(op.points) >= 3:
        pts = op.points
        return (
            abs(
                sum(
                    pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
                    for i in range(len(pts))
                )
            )
            / 2
        )
    return 0.0


def low_ink(face: Face) -> Face:
    """The face as it prints in low ink."""
    whole = max(face.width_pt * face.height_pt, 1e-6)
    ops: list[Op] = []
    after: list[tuple[Op, str | None]] = []  # opaque shapes and art as drawn in low ink, with their colour
    for op in face.ops:
        if isinstance(op, (Rect, Ellipse, Polygon)) and op.fill is not None:
            share = _area(op) / whole
            if share >= LARGE and luminance(op.fill) < 0.93:
                stroke = op.stroke
                width = op.stroke_width
                if stroke is None and share < 0.6:  # a banner or a panel: keep its shape as a line
                    stroke, width = deepen(op.fill), OUTLINE
                elif stroke is not None and share >= LARGE:
                    stroke = deepen(stroke) if luminance(stroke) > 0.45 else stroke
                op = replace(op, fill=pale(op.fill), stroke=stroke, stroke_width=width)
            ops.append(op)
            if op.opacity >= 0.5:
                after.append((op, op.fill))
        elif isinstance(op, Text):
            x0, y0, x1, y1 = turned(
                op, (op.x, op.y, op.x + 0.5 * op.size * len(op.text), op.y + 0.7 * op.size)
            )
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2  # the run's middle, near enough
            colour = _text_colour(op, _under(after, cx, cy)[1])
            ops.append(op if colour == op.color else replace(op, color=colour))
        elif isinstance(op, (Image, Vector)):
            ops.append(op)
            x, y, w, h = op.clip
            base, fill = _under(after, x + w / 2, y + h / 2)
            kept = (
                base is not None and fill is not None and _area(base) / whole < LARGE
            )  # on a small kept fill
            if not kept:
                ops.append(Rect(x, y, w, h, fill="#ffffff", opacity=1 - ART))
            after.append((op, None))
        else:
            ops.append(op)
    return replace(face, ops=tuple(ops))
