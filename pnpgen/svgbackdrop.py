"""An SVG icon's full-bleed background taken out, so a white-on-black download prints as its icon.

game-icons.net offers each icon as a white shape on a black square: the square is the file's first shape and
covers its whole box. Drawn as it is, it prints a black square with a white hole. `drop_backdrop` removes such a
first shape (filled, opaque, covering the drawing's box within 1%, with other shapes after it) and gives every
shape left that was the one colour the backdrop's colour, so the icon prints as the black-on-white download
does: black, tinted like any one-colour icon. Only the drawing is changed; the file is never touched.
"""

from __future__ import annotations

from typing import Any

TOLERANCE = 0.01  # of the box's width and height: how closely a backdrop must cover it


def _mult(a: tuple, b: tuple) -> tuple:
    """`b` then `a` (ReportLab's 2 x 3 affine matrices): a point in `b`'s space to `a`'s parent's."""
    return (
        a[0] * b[0] + a[2] * b[1],
        a[1] * b[0] + a[3] * b[1],
        a[0] * b[2] + a[2] * b[3],
        a[1] * b[2] + a[3] * b[3],
        a[0] * b[4] + a[2] * b[5] + a[4],
        a[1] * b[4] + a[3] * b[5] + a[5],
    )


def _leaves(node, matrix: tuple, out: list) -> None:
    """Every shape in drawing order, with its parent group and its transform to the drawing's points."""
    for child in list(getattr(node, "contents", None) or ()):
        if getattr(child, "contents", None) is not None:
            _leaves(child, _mult(matrix, tuple(getattr(child, "transform", (1, 0, 0, 1, 0, 0)))), out)
        else:
            out.append((node, child, matrix))


def _hex(colour) -> str | None:
    if colour is None or getattr(colour, "alpha", 1) < 1:
        return None
    return "#" + colour.hexval()[2:].lower()[-6:]


def drop_backdrop(drawing: Any, width: float, height: float) -> bool:
    """Take out the drawing's full-bleed first shape (see the module); True when it did."""
    leaves: list = []
    _leaves(drawing, (1, 0, 0, 1, 0, 0), leaves)
    if len(leaves) < 2:
        return False
    parent, first, m = leaves[0]
    fill = _hex(getattr(first, "fillColor", None))
    if fill is None or "Gradient" in type(first).__name__:
        return False
    try:
        x0, y0, x1, y1 = first.getBounds()
    except Exception:  # a shape with no bounds covers nothing
        return False
    xs = [m[0] * x + m[2] * y + m[4] for x in (x0, x1) for y in (y0, y1)]
    ys = [m[1] * x + m[3] * y + m[5] for x in (x0, x1) for y in (y0, y1)]
    dx, dy = width * TOLERANCE, height * TOLERANCE
    if not (min(xs) <= dx and min(ys) <= dy and max(xs) >= width - dx and max(ys) >= height - dy):
        return False
    parent.contents.remove(first)
    rest = {
        c
        for _, leaf, _ in leaves[1:]
        for attr in ("fillColor", "strokeColor")
        if (c := _hex(getattr(leaf, attr, None))) is not None
    }
    if len(rest) == 1:  # the icon in one colour (white on black): it takes the backdrop's colour
        for _, leaf, _ in leaves[1:]:
            for attr in ("fillColor", "strokeColor"):
                if getattr(leaf, attr, None) is not None:
                    setattr(leaf, attr, first.fillColor)
    return True
