"""The low-ink form of a face, when a game designs none of its own (`palette_low:` in game.yaml).

A transform of the draw operations, not a greyscale filter, that spends ink where it carries the game and saves
it where it only decorates:
- large fills (backgrounds, backs, frames, banners: at least `LARGE` of the face's area) keep a pale tint of
  their colour, `TINT` of its ink; one that does not cover the face gets a thin outline in its own colour, so
  its shape still reads;
- small fills (icons' discs, pips, colour keys) keep their colour: players tell things apart by them;
- text stays as it is when it is dark, and turns near-black when it was light (it stood on a dark fill that is
  now pale): text is never lightened;
- art (raster and SVG) is lightened under a white veil that lets `ART` of its ink through;
- lines keep their colour.
Pure: faces in, faces out, no ReportLab.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from pnpgen.colours import rgb_of
from pnpgen.faces import Ellipse, Face, Image, Op, Polygon, Rect, Text, Vector

LARGE = 0.02  # of the face's area
TINT = 0.10  # what a large fill keeps of its ink
ART = 0.30  # what art keeps of its ink
OUTLINE = 0.6  # pt: the outline a pale fill gets
DARK_TEXT = "#1d1d1b"


def _rgb(colour: str) -> tuple[float, float, float]:
    return rgb_of(colour)  # a cmyk() colour too: the low-ink form is for home printers, which print RGB


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)


def luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


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
        elif isinstance(op, Text):
            ops.append(replace(op, color=DARK_TEXT) if luminance(op.color) > 0.55 else op)
        elif isinstance(op, (Image, Vector)):
            ops.append(op)
            x, y, w, h = op.clip
            ops.append(Rect(x, y, w, h, fill="#ffffff", opacity=1 - ART))
        else:
            ops.append(op)
    return replace(face, ops=tuple(ops))
