"""Text, colours, line widths and clipping rectangles written into a PDF page or form: the operators ReportLab's
`setFillColor`, `setStrokeColor`, `setLineWidth`, `setFont`, `drawString` and `clipPath` write, byte for byte,
made faster by what one file keeps: each colour's and width's operator, each run of text already written, and
(for text whose characters all have their code in the font's first subset) the run made without ReportLab's
text object or its character by character bookkeeping; a run may be turned a quarter turn.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnpgen.faces import Text
from pnpgen.text.fonts import pdf_name

RUNS_KEPT = 20_000  # runs of text one file keeps the written form of (`PdfText.text`): a few MB at most


def clip_box(c: Canvas, kept: dict, x: float, y: float, w: float, h: float) -> None:
    """`c.clipPath` of the rectangle (x, y, w, h): its text made once per box and fill mode and kept in `kept` (the
    writer's), written again for every face or slot of that size."""
    key = ("clip", x, y, w, h, c._fillMode)
    code = kept.get(key)
    if code is None:
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        kept[key] = c._code[-1]
    else:
        c._code.append(code)


@lru_cache(maxsize=4096)
def colour(value: str):
    """A colour as `pnpgen.colours` parsed it: '#rrggbb' as DeviceRGB, 'cmyk(...)' as DeviceCMYK."""
    if value.startswith("cmyk("):
        from pnpgen.colours import cmyk_of

        return CMYKColor(*cmyk_of(value))
    return HexColor(value)


# a run's text matrix without its origin, by its turn (degrees clockwise on the page, whose y runs up)
TURNS = {0: "1 0 0 1", 90: "0 -1 1 0", 180: "-1 0 0 -1", 270: "0 1 -1 0"}


class PdfText:
    """Colours, line widths and strings on one canvas (one file)."""

    def __init__(self, canvas: Canvas):
        self.c = canvas
        self.fills: dict[str, tuple] = {}  # colour -> (its ReportLab colour, fill operator, alpha)
        self.strokes: dict[str, tuple] = {}  # the same for strokes
        self.widths: dict[float, str] = {}  # line width -> its operator
        self.fonts: dict[str, tuple] = {}  # pnpgen font name -> (registered name, ReportLab font)
        self.runs: dict[tuple, str] = {}  # (font, size, text) -> what `string` writes after the origin

    def fill(self, value: str) -> None:
        """`c.setFillColor(colour(value))`: the same operator and state, the operator's text made once per colour
        (`fp_str` of its components and ReportLab's checks cost more than the colour is worth on every run)."""
        self._set(value, self.fills, "rg", "_fillColorObj", "ca", self.c.setFillColor)

    def stroke(self, value: str) -> None:
        """`c.setStrokeColor(colour(value))`, as `fill` does it."""
        self._set(value, self.strokes, "RG", "_strokeColorObj", "CA", self.c.setStrokeColor)

    def _set(self, value: str, kept: dict, op: str, attr: str, alpha_key: str, fallback) -> None:
        c = self.c
        known = kept.get(value)
        if known is None:
            known = self._known(value, op)
            if known is None:  # CMYK (a separation?), a bad alpha: ReportLab's own way
                fallback(colour(value))
                return
            kept[value] = known
        col, code, alpha = known
        setattr(c, attr, col)
        c._code.append(code)
        if alpha is not None:
            c._doc.ensureMinPdfVersion("transparency")
            c._extgstate.set(c, alpha_key, alpha)

    def width(self, width: float) -> None:
        """`c.setLineWidth(width)`."""
        c = self.c
        c._lineWidth = width
        code = self.widths.get(width)
        if code is None:
            code = self.widths[width] = f"{fp_str(width)} w"
        c._code.append(code)

    def _known(self, value: str, operator: str) -> tuple | None:
        """(colour, its operator's text, its alpha) as ReportLab sets an RGB colour; None for any other."""
        col = colour(value)
        if type(col) is not Color or self.c._enforceColorSpace:
            return None
        alpha = getattr(col, "alpha", None)
        if alpha is not None and not (isinstance(alpha, (float, int)) and 0 <= alpha <= 1):
            return None
        return col, f"{fp_str((col.red, col.green, col.blue))} {operator}", alpha

    def text(self, op: Text, H: float) -> None:
        """`c.setFont(pdf_name(op.font), op.size)` then `string`: a run already written in this file (the same
        font, size and characters: every card's rules line that no card changes) is written again from its text
        of last time, not split into font subsets again. A subset never changes a character once it has one."""
        c = self.c
        known = self.fonts.get(op.font)
        if known is None:
            name = pdf_name(op.font)
            known = self.fonts[op.font] = (name, pdfmetrics.getFont(name))
        name, font = known
        size = op.size
        c._fontname, c._fontsize, c._leading = name, size, size * 1.2
        if not font._dynamicFont or not c.bottomup:
            if op.turn:
                c.saveState()
                c.translate(op.x, H - op.y)
                c.rotate(-op.turn)  # clockwise on the page
                c.setFont(name, size)
                self.string(0, 0, op.text)
                c.restoreState()
                return
            c.setFont(name, size)  # a Type 1 font writes its own operators
            self.string(op.x, H - op.y, op.text)
            return
        key = (name, size, op.text)
        tail = self.runs.get(key)
        if tail is None:
            tail = self._tail(font, op.text)
            if len(self.runs) < RUNS_KEPT:
                self.runs[key] = tail
        c._code.append(f"BT {TURNS[op.turn]} {fp_str(op.x, H - op.y)} Tm {tail}")

    def _tail(self, font, text: str) -> str:
        """What `string` writes after the origin: each run of one font subset, `T*`, `ET`. Text whose every
        character is in the font's first subset already (most text, once a few lines are written) is one run,
        made without `splitString`'s character by character bookkeeping."""
        c = self.c
        doc = c._doc
        state = font.state.get(doc)
        if state is not None and text:
            try:
                codes = bytes(
                    [state.assignments[ch] for ch in map(ord, text)]
                )  # KeyError: new; ValueError: > 255
            except (KeyError, ValueError):
                pass
            else:
                first = font.getSubsetInternalName(0, doc)
                return (
                    f"{first} {fp_str(c._fontsize)} Tf {fp_str(c._leading)} TL ({c._escape(codes)}) Tj T* ET"
                )
        escape, subset_now, tmpl = c._escape, -1, ""
        parts = []
        for subset, chunk in font.splitString(text, doc):
            if subset != subset_now:
                if not tmpl:
                    tmpl = f"{fp_str(c._fontsize)} Tf {fp_str(c._leading)} TL"
                parts.append(f"{font.getSubsetInternalName(subset, doc)} {tmpl}")
                subset_now = subset
            parts.append(f"({escape(chunk)}) Tj")
        return f"{' '.join(parts)} T* ET"

    def string(self, x: float, y: float, text: str) -> None:
        """`Canvas.drawString(x, y, text)` in the canvas's font, writing the same operators without the text object
        ReportLab builds for each string: `BT`, the origin, each run of one font subset, `T*`, `ET`."""
        c = self.c
        font = pdfmetrics.getFont(c._fontname)
        if (
            not font._dynamicFont or not c.bottomup
        ):  # a Type 1 font, a canvas upside down: ReportLab's own way
            c.drawString(x, y, text)
            return
        c._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {self._tail(font, text)}")
