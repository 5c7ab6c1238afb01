"""SVG art and SVG icons on a canvas, as vectors: each file's drawing (`pnpgen.svg`) becomes one Form XObject,
placed by reference wherever a face shows it; an SVG icon gets one form per tint, in the 100 x 100 icon box.

svglib gives a ReportLab drawing, so the art is ReportLab's own paths, fills and gradients, inside our forms: no
bitmap, no font (text was taken out before), the same bytes for the same input.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.lib.colors import CMYKColor, Color, HexColor

from pnpgen import svg
from pnpgen.faces import Vector
from pnpgen.text.fonts import pdf_name


class VectorForms:
    """The forms of one canvas's SVG art, each file drawn once (`end_form` closes a form as pnpgen's renderer
    does, with every resource its stream uses)."""

    def __init__(self, canvas, prefix: str, end_form: Callable):
        self.c, self.prefix, self.end_form = canvas, prefix, end_form
        self.forms: dict[tuple[str, str], str] = {}

    def art_form(self, path: str, digest: str) -> str:
        """The form of one SVG file, its own size in points; made before any form that places it."""
        key = (path, digest)
        name = self.forms.get(key)
        if name is None:
            art = svg.load(Path(path), digest)
            name = f"{self.prefix}V{len(self.forms)}"
            self.c.beginForm(name, 0, 0, art.width, art.height)  # the box cuts it as SVG's viewport does
            draw_drawing(self.c, art.drawing)
            self.end_form(self.c, name)
            self.forms[key] = name
        return name

    def place(self, op: Vector, page_h: float) -> None:
        """Art in a face (y downwards, `page_h` high), scaled to its box and cut to its clip."""
        art = svg.load(Path(op.path), op.digest)
        name = self.art_form(op.path, op.digest)
        c = self.c
        cx, cy, cw, ch = op.clip
        c.saveState()
        p = c.beginPath()
        p.rect(cx, page_h - cy - ch, cw, ch)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(op.x, page_h - op.y - op.h)
        c.scale(op.w / art.width, op.h / art.height)
        c.doForm(name)
        c.restoreState()


def svg_icon_form(canvas, name: str, icon, tint: str | None, end_form: Callable) -> None:
    """An SVG icon as the form `name`: its drawing fitted (contain) to the 100 x 100 box, recoloured to `tint`
    (one colour: all of it; several: all but white)."""
    art = svg.load(Path(icon.path), icon.digest, icon=True)
    drawing = art.drawing
    if tint and icon.tintable and (not art.single_colour or tint.lower() != art.colour):
        drawing = recoloured(drawing, tint, keep_white=not art.single_colour)
    scale, ox, oy = art.in_icon_box()
    canvas.beginForm(name, 0, 0, 100, 100)
    canvas.saveState()
    canvas.translate(ox, oy)
    canvas.scale(scale, scale)
    draw_drawing(canvas, drawing)
    canvas.restoreState()
    end_form(canvas, name)


def draw_drawing(canvas, drawing) -> None:
    """A drawing at the canvas's origin, in its own units. Its initial font is pnpgen's (embedded), never
    ReportLab's default Helvetica, which the drawing would otherwise name though it sets no text."""
    drawing.initialFontName = pdf_name("sans")
    renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)


def _ink(tint: str, alpha: float):
    """A tint as `pnpgen.colours` parsed it ('#rrggbb' or 'cmyk(...)'), with an alpha."""
    if tint.startswith("cmyk("):
        from pnpgen.colours import cmyk_of

        return CMYKColor(*cmyk_of(tint), alpha=alpha)
    rgb = HexColor(tint)
    return Color(rgb.red, rgb.green, rgb.blue, alpha=alpha)


def _white(colour) -> bool:
    return all(getattr(colour, c, 0) >= WHITE for c in ("red", "green", "blue"))


WHITE = 0.94  # each of red, green and blue at least this (#f0f0f0 and lighter): white, kept by a recolouring


def recoloured(drawing, tint: str, keep_white: bool = False):
    """A copy of `drawing` with every fill and stroke in `tint` (each keeping its own opacity); with
    `keep_white`, white ones (`WHITE`) stay white: an icon's highlights and cut-outs."""
    out = copy.deepcopy(drawing)
    stack = [out]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "contents", None) or ())
        for attr in ("fillColor", "strokeColor"):
            old = getattr(node, attr, None)
            if old is not None and not (keep_white and _white(old)):
                setattr(node, attr, _ink(tint, getattr(old, "alpha", 1)))
    return out
