"""A rulebook diagram (`pnpgen.rulebook.diagrams.DiagramPlan`) drawn as a flowable: the board side (or a plain
area), shaded cells, the grid, the pieces' own faces, arrows and labels, cut to the view, with a caption."""

from __future__ import annotations

import math

from reportlab.platypus import Flowable

from pnpgen.errors import column_letters
from pnpgen.render.flowables import MUTED, SHRINK, drafting, drawer_for
from pnpgen.render.pdf import colour as rl_colour
from pnpgen.rulebook.crops import ARROW_LABEL_SIZE, arrow_label_spots
from pnpgen.shapes import outline
from pnpgen.text.breaks import tokens
from pnpgen.text.fit import break_word
from pnpgen.text.fonts import pdf_name, unit_width
from pnpgen.units import MM

CAPTION_SIZE = 7.5
SPACE_BEFORE = 2 * MM
HALO = "#ffffff"


class DiagramFlowable(Flowable):
    """A diagram at `width` (or the column's), its height from the view's proportions."""

    def __init__(self, plan, icons, width: float, max_h: float = 200 * MM, bare: bool = False):
        super().__init__()
        self.plan, self.icons, self.bare, self.max_h = plan, icons, bare, max_h
        vw, vh = plan.view[2], plan.view[3]
        self.width = width  # the column: the picture is centred in it, the caption set across it
        self.pic_w = min(plan.width_pt or width, width) if not bare else width
        self.scale = self.pic_w / vw
        if vh * self.scale > max_h:  # a tall view: no taller than most of a page
            self.scale = max_h / vh
            self.pic_w = vw * self.scale
        self.left = (width - self.pic_w) / 2
        self.lines = (
            []
            if bare
            else _wrap(plan.caption, "sans-italic", CAPTION_SIZE, min(width, max(self.pic_w, 90 * MM)))
        )
        self.cap_h = len(self.lines) * CAPTION_SIZE * 1.3 + 3 * MM if not bare else 0.0
        self.height = vh * self.scale + self.cap_h + (SPACE_BEFORE if not bare else 0.0)

    def wrap(self, aw, ah):
        return self.width, self.height

    def split(self, aw, ah):
        """Never parted: set a little smaller when that makes it fit (`shrunk`), else moved on whole."""
        small = self.shrunk(ah)
        return [small] if small is not None else []

    def shrunk(self, height: float) -> DiagramFlowable | None:
        """This diagram set smaller to stand in `height`, its picture no smaller than `SHRINK` of its size (its
        caption's lines keep their size); None when it cannot."""
        pic_h = self.plan.view[3] * self.scale
        room = pic_h - (self.height - height)
        if room >= pic_h or room < pic_h * SHRINK:
            return None
        small = DiagramFlowable(self.plan, self.icons, self.width, room, self.bare)
        return small if small.height <= height + 1e-6 else None

    def at(self, x: float, y: float) -> tuple[float, float]:
        """A point of the board (points, y down) -> the flowable's canvas."""
        vx, vy, _, vh = self.plan.view
        return self.left + (x - vx) * self.scale, self.cap_h + (vh - (y - vy)) * self.scale

    def draw(self):
        if drafting(self.canv):
            return
        c, plan, s = self.canv, self.plan, self.scale
        vw, vh = plan.view[2] * s, plan.view[3] * s
        drawer = drawer_for(c, self.icons)
        c.saveState()
        clip = c.beginPath()
        clip.rect(self.left, self.cap_h, vw, vh)
        c.clipPath(clip, stroke=0, fill=0)
        if plan.board is not None:
            x, y = self.at(0, plan.board.height_pt)
            drawer.draw_face(plan.board, x, y, s, bleed=False)
        else:
            c.setFillColor(rl_colour(plan.fill or "#f4ecd8"))
            c.rect(self.left, self.cap_h, vw, vh, stroke=0, fill=1)
        self._marks()
        self._grid()
        for face, cx, cy, w, h, rotate in plan.pieces:
            self._piece(drawer, face, cx, cy, w, h, rotate)
        for (x1, y1, x2, y2, label, colour, dashed), spot in zip(
            plan.arrows, arrow_label_spots(plan.arrows, s), strict=True
        ):
            self._arrow(x1, y1, x2, y2, label, colour, dashed, spot)
        for x, y, text, size, colour in plan.labels:
            self._label(*self.at(x, y), text, size, colour)
        c.restoreState()
        if self.bare:  # a cover's art: no frame, no caption
            return
        c.setStrokeColor(rl_colour("#8c8273"))
        c.setLineWidth(0.6)
        c.rect(self.left, self.cap_h, vw, vh, stroke=1, fill=0)
        c.setFillColor(rl_colour(MUTED))
        c.setFont(pdf_name("sans-italic"), CAPTION_SIZE)
        y = self.cap_h - 1.5 * MM - CAPTION_SIZE
        for line in self.lines:
            c.drawCentredString(self.width / 2, y, line)
            y -= CAPTION_SIZE * 1.3

    def _marks(self):
        c, s = self.canv, self.scale
        for x, y, w, h, fill, cross in self.plan.marks:
            x0, y0 = self.at(x, y + h)
            c.saveState()
            if cross:
                c.setStrokeColor(rl_colour("#b3261e"))
                c.setLineWidth(max(1.2, w * s * 0.06))
                m = 0.22
                c.line(x0 + w * s * m, y0 + h * s * m, x0 + w * s * (1 - m), y0 + h * s * (1 - m))
                c.line(x0 + w * s * m, y0 + h * s * (1 - m), x0 + w * s * (1 - m), y0 + h * s * m)
            else:
                # hatched, not see-through: a print shop's PDF/X-1a takes no transparency, and the board under
                # the cell still shows between the lines
                c.setStrokeColor(rl_colour(fill))
                clip = c.beginPath()
                clip.rect(x0, y0, w * s, h * s)
                c.clipPath(clip, stroke=0, fill=0)
                c.setLineWidth(1.1)
                step = 4.0
                k = -h * s
                while k < w * s:
                    c.line(x0 + k, y0, x0 + k + h * s, y0 + h * s)
                    k += step
                c.setLineWidth(2.4)
                c.rect(x0, y0, w * s, h * s, stroke=1, fill=0)
            c.restoreState()

    def _grid(self):
        g, c, s = self.plan.grid, self.canv, self.scale
        if g.lines:
            c.setStrokeColor(rl_colour("#9c8f78"))
            c.setLineWidth(0.5)
            for i in range(g.cols + 1):
                x = g.x + i * g.cw
                c.line(*self.at(x, g.y), *self.at(x, g.y + g.rows * g.ch))
            for j in range(g.rows + 1):
                y = g.y + j * g.ch
                c.line(*self.at(g.x, y), *self.at(g.x + g.cols * g.cw, y))
        if g.coords:
            size = max(6.0, min(9.0, min(g.cw, g.ch) * s * 0.35))
            marks = [
                (*self.at(g.x + (i + 0.5) * g.cw, g.y), column_letters(i + 1), "top") for i in range(g.cols)
            ]
            marks += [(*self.at(g.x, g.y + (j + 0.5) * g.ch), str(j + 1), "left") for j in range(g.rows)]
            for x, y, text, side in marks:
                w = unit_width(text, "sans-bold") * size
                cx, cy = (x, y + 2 + size * 0.35) if side == "top" else (x - 2 - w / 2, y)
                if (
                    self.plan.board is not None
                ):  # a pale ground, so the board's own print does not show through
                    c.saveState()
                    c.setFillColor(rl_colour(HALO))  # solid: PDF/X-1a takes no transparency
                    c.roundRect(cx - w / 2 - 1.5, cy - size * 0.55, w + 3, size * 1.1, 1.5, stroke=0, fill=1)
                    c.restoreState()
                c.setFont(pdf_name("sans-bold"), size)
                c.setFillColor(rl_colour("#4a4238"))
                c.drawCentredString(cx, cy - size * 0.35, text)

    def _piece(self, drawer, face, cx, cy, w, h, rotate):
        c, s = self.canv, self.scale
        x, y = self.at(cx, cy)
        k = s * w / face.width_pt
        c.saveState()
        c.translate(x, y)
        c.rotate(rotate)
        pw, ph = face.width_pt * k, face.height_pt * k
        c.saveState()  # a soft shadow, so a piece stands off the board under it
        c.translate(-pw / 2 + 0.8, -ph / 2 - 0.8)
        c.setFillColor(rl_colour("#5f5a54"))  # solid, not a see-through black: PDF/X-1a takes no transparency
        _shape(c, face.shape, pw, ph)
        c.restoreState()
        drawer.draw_face(face, -pw / 2, -ph / 2, k, bleed=False)
        c.translate(-pw / 2, -ph / 2)
        c.setStrokeColor(rl_colour("#2a2620"))
        c.setLineWidth(0.5)
        _shape(c, face.shape, pw, ph, fill=False)
        c.restoreState()

    def _arrow(self, x1, y1, x2, y2, label, colour, dashed, spot=None):
        c = self.canv
        (ax, ay), (bx, by) = self.at(x1, y1), self.at(x2, y2)
        length = math.hypot(bx - ax, by - ay)
        if length < 1:
            return
        ux, uy = (bx - ax) / length, (by - ay) / length
        trim = min(length * 0.18, 6.0)
        ax, ay, bx, by = ax + ux * trim, ay + uy * trim, bx - ux * trim, by - uy * trim
        head = 6.5
        tip = (bx, by)
        base = (bx - ux * head, by - uy * head)
        left = (base[0] - uy * head * 0.55, base[1] + ux * head * 0.55)
        right = (base[0] + uy * head * 0.55, base[1] - ux * head * 0.55)
        for ink, width in ((HALO, 3.6), (colour, 1.7)):
            c.saveState()
            c.setStrokeColor(rl_colour(ink))
            c.setFillColor(rl_colour(ink))
            c.setLineWidth(width)
            c.setLineCap(1)
            c.setLineJoin(1)
            if dashed and ink != HALO:
                c.setDash(4, 3)
            c.line(ax, ay, base[0], base[1])
            c.setDash()
            p = c.beginPath()
            p.moveTo(*tip)
            p.lineTo(*left)
            p.lineTo(*right)
            p.close()
            c.drawPath(p, stroke=1, fill=1)
            c.restoreState()
        if label and spot is not None:  # beside the arrow, never on one: where the rulebook's check holds it
            self._label(*self.at(*spot), label, ARROW_LABEL_SIZE, colour)

    def _label(self, x, y, text, size, colour):
        c = self.canv
        font = pdf_name("sans-bold")
        w = unit_width(text, "sans-bold") * size
        pad = size * 0.35
        c.saveState()
        c.setFillColor(rl_colour(HALO))
        c.setStrokeColor(rl_colour(colour))
        c.setLineWidth(0.6)
        c.roundRect(
            x - w / 2 - pad, y - size * 0.55 - pad * 0.6, w + 2 * pad, size * 1.1 + pad * 1.2, 2, 1, 1
        )
        c.restoreState()
        c.setFillColor(rl_colour(colour))
        c.setFont(font, size)
        c.drawCentredString(x, y - size * 0.35, text)


def _shape(c, shape: str, w: float, h: float, fill: bool = True) -> None:
    p = c.beginPath()
    if shape in ("rect", "square"):
        p.rect(0, 0, w, h)
    elif shape == "circle":
        p.circle(w / 2, h / 2, w / 2)
    else:
        points = outline(shape, w, h) or [(0, 0), (w, 0), (w, h), (0, h)]  # y up, as the canvas
        p.moveTo(*points[0])
        for q in points[1:]:
            p.lineTo(*q)
        p.close()
    c.drawPath(p, stroke=0 if fill else 1, fill=1 if fill else 0)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """A caption broken at spaces into lines no wider than `width` (a word longer than that broken where it must)."""
    lines: list[str] = []
    for word in (part for w in tokens(text) for part in break_word(w, font, size, width)):
        if lines and unit_width(lines[-1] + " " + word, font) * size <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]
