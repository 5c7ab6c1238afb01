"""Sheets of faces -> a PDF file with ReportLab.

A face placed more than once in a file (copies, shared backs) is drawn once into a Form XObject and placed by
reference, one `Do` each; a face a sheet places once is drawn on its page (`FaceDrawer.count`, `place`). Every
icon in each tint is a form, and every bitmap one image XObject named by its file's sha256. Output is
deterministic: invariant mode, fixed metadata, forms named in order of first use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnpgen import __version__
from pnpgen.artcolour import as_srgb, jpeg_without_profile
from pnpgen.faces import Ellipse, Face, Icon, Image, Line, Polygon, Rect, Text, Vector, file_digest
from pnpgen.render.finite import FiniteCanvas
from pnpgen.render.pdftext import PdfText, clip_box, colour
from pnpgen.text.fonts import ensure_registered, pdf_name

if TYPE_CHECKING:
    from pnpgen.render.vector import VectorForms

SEAM = 0.15  # pt
SHAPES_KEPT = 20_000  # rectangles and icons one file keeps the written form of (`FaceDrawer._draw_ops`)
rl_config.useA85 = 0  # smaller files; binary streams are fine in PDF


class _Form(pdfdoc.PDFFormXObject):
    """ReportLab's form XObject leaves out the ExtGState and Shading resources its stream uses (opacity, an SVG's
    gradients); add them."""

    Resources: pdfdoc.PDFResourceDictionary | None  # ReportLab's class attribute (None until set)

    def format(self, document):
        if not self.Resources:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            ext = getattr(self, "ExtGState", None)
            if ext:
                resources.ExtGState = ext
            shadings = getattr(self, "shadings", None)
            if shadings:
                resources.setShading(shadings)
            self.Resources = resources
        return super().format(document)


def _end_form(canvas: Canvas, name: str) -> None:
    shadings = dict(canvas._shadingUsed)  # this form's own: endForm hands the accumulators back to the page
    canvas.endForm()
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    form.__class__ = _Form
    form.shadings = shadings


def new_canvas(path: Path, size: tuple, title: str, subject: str = "") -> Canvas:
    """Every PDF pnpgen writes starts here: invariant (same input, same bytes), compressed, embedded fonts only."""
    ensure_registered()
    c = FiniteCanvas(
        str(path), pagesize=size, invariant=1, initialFontName=pdf_name("sans"), pageCompression=1
    )
    c.setTitle(title)  # the document ID derives from the metadata, so every file gets its own title
    if subject:
        c.setSubject(subject)
    c.setAuthor("pnpgen")
    c.setCreator(f"pnpgen {__version__}")
    c.setProducer(f"pnpgen {__version__}")
    return c


class FaceDrawer:
    """Draws faces and icons on one canvas, each distinct face and icon tint once, as a Form XObject."""

    def __init__(self, canvas: Canvas, icons: dict, prefix: str = ""):
        self.c = canvas
        self.icons = icons
        self.prefix = prefix
        self.face_forms: dict[Face, str] = {}
        # how often each face is placed in this file, when the writer knows (`count`): a face placed once is drawn
        # on its page, not wrapped in a form (a form costs time and bytes and pays off only when reused)
        self.uses: dict[Face, int] = {}
        self.icon_forms: dict[tuple, str] = {}
        self.images: dict[str, tuple[str, str]] = {}  # path -> (name, registered name) of its image XObject
        self._vectors: VectorForms | None = None  # SVG art, each file one form (`vectors`)
        self.text = PdfText(canvas)  # colours and strings, as ReportLab writes them
        # what a rectangle's path and an icon's placing wrote (`_draw_ops`): the same op writes the same again;
        # ReportLab's code: a clip's, a rectangle's, an icon's with its form
        self._kept: dict[tuple, Any] = {}
        # a function of a face, applied as it is drawn (the low-ink rulebook's pictures)
        self.transform: Callable[[Face], Face] | None = None

    @property
    def vectors(self):
        """The forms of this canvas's SVG art (`render.vector`, which imports ReportLab's graphics and platypus:
        imported by the first file that draws SVG, not by every writer)."""
        if self._vectors is None:
            from pnpgen.render.vector import VectorForms

            self._vectors = VectorForms(self.c, self.prefix, _end_form)
        return self._vectors

    def draw_face(self, face: Face, x: float, y: float, scale: float = 1.0, bleed: bool = True) -> None:
        """Place a face with its trim's bottom-left at (x, y), cut to its shape (with its bleed unless not)."""
        name = self.face_form(face)
        c, b = self.c, (face.bleed_pt if bleed else 0.0)
        c.saveState()
        c.translate(x, y)
        c.scale(scale, scale)
        p = c.beginPath()
        if face.shape in ("rect", "square"):
            p.rect(-b, -b, face.width_pt + 2 * b, face.height_pt + 2 * b)
        elif face.shape == "circle":
            p.circle(face.width_pt / 2, face.height_pt / 2, face.width_pt / 2 + b)
        else:  # grown by the bleed, as a circle is: a shaped piece's bleed is drawn, and its boxes hold
            from pnpgen.shapes import grow, outline

            points = outline(face.shape, face.width_pt, face.height_pt) or []
            _poly(p, grow(points, [b] * len(points)) if b > 0 else points)
        c.clipPath(p, stroke=0, fill=0)
        c.doForm(name)
        c.restoreState()

    def draw_icon(
        self, name: str, x: float, y: float, w: float, h: float, tint: str | None = None, turn: int = 0
    ) -> None:
        """An icon with its box's bottom-left at (x, y) in the canvas's current coordinates, its drawing turned
        `turn` degrees clockwise about the box's centre (the box is where it lands)."""
        form = self.icon_form(name, tint)
        c = self.c
        c.saveState()
        if turn:
            c.translate(x + w / 2, y + h / 2)
            c.rotate(-turn)
            if turn != 180:
                w, h = h, w
            x, y = -w / 2, -h / 2
        c.translate(x, y)
        c.scale(w / 100.0, h / 100.0)
        c.doForm(form)
        c.restoreState()

    def count(self, faces) -> None:
        """Note faces about to be placed (`place`); a face counted once is drawn on its page."""
        uses = self.uses
        for face in faces:
            if face is not None:
                uses[face] = uses.get(face, 0) + 1

    def prepare(self, face: Face) -> None:
        """Make the forms `place` will need for `face` before a page draws anything (forms are not nested)."""
        if self.uses.get(face, 2) > 1:
            self.face_form(face)
        else:
            self._inner_forms(face)

    def place(self, face: Face) -> None:
        """Draw a face with its trim's bottom-left at the origin of the current coordinates: by its form when it is
        placed more than once, else its operations on the page, cut to the box its form would have, marked as
        content `/Face` (no viewer shows it; tests count faces by it)."""
        if self.uses.get(face, 2) > 1:
            self.c.doForm(self.face_form(face))
            return
        c, b = self.c, face.bleed_pt
        c._code.append(
            "/Face BMC"
        )  # marked content: a face drawn on the page stays countable, as a form's Do is
        clip_box(c, self._kept, -b, -b, face.width_pt + 2 * b, face.height_pt + 2 * b)
        self._draw_ops(face)
        c._code.append("EMC")

    # -- forms ------------------------------------------------------------------------------------------
    def face_form(self, face: Face) -> str:
        name = self.face_forms.get(face)
        if name is None:
            name = f"{self.prefix}F{len(self.face_forms)}"
            b = face.bleed_pt
            drawn = face if self.transform is None else self.transform(face)
            self._inner_forms(drawn)  # they must exist before this form begins
            self.c.beginForm(name, -b, -b, face.width_pt + b, face.height_pt + b)
            self._draw_ops(drawn)
            _end_form(self.c, name)
            self.face_forms[face] = name
        return name

    def _inner_forms(self, face: Face) -> None:
        """The icon and SVG art forms a face draws."""
        op: Any  # dispatched on `type(op) is`, quicker than isinstance, which mypy does not narrow by
        for op in face.ops:
            t = type(op)
            if t is Icon:
                self.icon_form(op.name, op.tint)
            elif t is Vector:
                self.vectors.art_form(op.path, op.digest)

    def icon_form(self, name: str, tint: str | None) -> str:
        icon = self.icons[name]
        svg_icon = (
            getattr(icon, "digest", None) is not None
        )  # from an SVG file (`pnpgen.schema.svgicons.SvgIcon`)
        key = (name, tint if not svg_icon or icon.tintable else None)
        form = self.icon_forms.get(key)
        if form is None and svg_icon:
            form = f"{self.prefix}I{len(self.icon_forms)}"
            from pnpgen.render.vector import svg_icon_form

            svg_icon_form(self.c, form, icon, tint, _end_form)
            self.icon_forms[key] = form
        elif form is None:
            form = f"{self.prefix}I{len(self.icon_forms)}"
            tint_colour = tint or icon.tint
            c = self.c
            c.beginForm(form, 0, 0, 100, 100)
            for shape in icon.shapes:
                fill = tint_colour if shape.fill == "tint" else shape.fill
                stroke = tint_colour if shape.stroke == "tint" else shape.stroke
                if fill is None and stroke is None:
                    continue
                p = c.beginPath()
                for cmd in shape.commands:
                    op = cmd[0]
                    if op == "M":
                        p.moveTo(cmd[1], 100 - cmd[2])
                    elif op == "L":
                        p.lineTo(cmd[1], 100 - cmd[2])
                    elif op == "C":
                        p.curveTo(cmd[1], 100 - cmd[2], cmd[3], 100 - cmd[4], cmd[5], 100 - cmd[6])
                    else:
                        p.close()
                c.saveState()
                if shape.opacity < 1:
                    c.setFillAlpha(shape.opacity)
                    c.setStrokeAlpha(shape.opacity)
                if fill:
                    c.setFillColor(colour(fill))
                if stroke:
                    c.setStrokeColor(colour(stroke))
                    c.setLineWidth(shape.stroke_width)
                    c.setLineJoin(1)
                    c.setLineCap(1)
                c.drawPath(p, stroke=1 if stroke else 0, fill=1 if fill else 0)
                c.restoreState()
            _end_form(c, form)
            self.icon_forms[key] = form
        return form

    # -- drawing ----------------------------------------------------------------------------------------
    def _draw_ops(self, face: Face) -> None:
        c, H = self.c, face.height_pt
        fill, text, kept = self.text.fill, self.text.text, self._kept
        op: Any  # dispatched on `type(op) is`, quicker than isinstance, which mypy does not narrow by
        for op in face.ops:
            t = type(op)
            if t is Text:
                fill(op.color)
                text(op, H)
            elif t is Rect:
                if op.opacity < 1 or op.dash:
                    self._style(op.fill, op.stroke, op.stroke_width, op.dash, op.opacity)
                else:  # `_style`, quicker
                    if op.fill is not None:
                        fill(op.fill)
                    if op.stroke is not None:
                        self.text.stroke(op.stroke)
                        self.text.width(op.stroke_width)
                key: tuple = (op, H, c._fillMode)
                code = kept.get(key)
                if code is not None:  # a rectangle's path depends on nothing else: written as last time
                    c._code.extend(code)
                else:
                    start = len(c._code)
                    self._rect(op, H)
                    if len(kept) < SHAPES_KEPT:
                        kept[key] = c._code[start:]
                self._unstyle(op.opacity, op.dash)
            elif t is Icon:
                key = (op, H)
                known = kept.get(key)
                if known is not None:  # q, cm, Do, Q: as last time, the state left as it was
                    c._code.extend(known[0])
                    c._formsinuse.append(known[1])
                else:
                    form = self.icon_form(op.name, op.tint)  # made before anything is recorded
                    start = len(c._code)
                    self.draw_icon(op.name, op.x, H - op.y - op.h, op.w, op.h, op.tint, op.turn)
                    if len(kept) < SHAPES_KEPT:
                        kept[key] = (c._code[start:], form)
            elif t is Ellipse:
                self._style(op.fill, op.stroke, op.stroke_width, op.dash, op.opacity)
                c.ellipse(
                    op.x,
                    H - op.y - op.h,
                    op.x + op.w,
                    H - op.y,
                    stroke=op.stroke is not None,
                    fill=op.fill is not None,
                )
                self._unstyle(op.opacity, op.dash)
            elif t is Line:
                self._style(None, op.stroke, op.stroke_width, op.dash, 1.0)
                c.line(op.x1, H - op.y1, op.x2, H - op.y2)
                self._unstyle(1.0, op.dash)
            elif t is Polygon:
                self._style(op.fill, op.stroke, op.stroke_width, op.dash, op.opacity)
                p = c.beginPath()
                p.moveTo(op.points[0][0], H - op.points[0][1])
                for x, y in op.points[1:]:
                    p.lineTo(x, H - y)
                p.close()
                c.drawPath(p, stroke=op.stroke is not None, fill=op.fill is not None)
                self._unstyle(op.opacity, op.dash)
            elif t is Image:
                cx, cy, cw, ch = op.clip
                c.saveState()
                p = c.beginPath()
                p.rect(cx, H - cy - ch, cw, ch)
                c.clipPath(p, stroke=0, fill=0)
                self._image(op.path, op.x, H - op.y - op.h, op.w, op.h)
                c.restoreState()
            elif t is Vector:
                self.vectors.place(op, H)

    def _rect(self, op: Rect, H: float) -> None:
        y = H - op.y - op.h
        if op.radius > 0:
            self.c.roundRect(
                op.x, y, op.w, op.h, op.radius, stroke=op.stroke is not None, fill=op.fill is not None
            )
        else:
            self.c.rect(op.x, y, op.w, op.h, stroke=op.stroke is not None, fill=op.fill is not None)

    def _image(self, path: str, x: float, y: float, w: float, h: float) -> None:
        """`Canvas.drawImage(ImageReader(path), ..., mask="auto")`, the XObject made once per file and canvas and
        named by the file's sha256 (ReportLab hashes an `ImageReader`'s decoded pixels on every draw; a file name
        would tie the bytes to the project's place). A JPEG's own bytes, other images' pixels compressed; art
        with an RGB profile other than sRGB converted first (`artcolour`)."""
        c = self.c
        known = self.images.get(path)
        if known is None:
            name = file_digest(path)[:32]
            registered = c._doc.getXObjectName(name)
            if registered not in c._doc.idToObject:
                jpeg = path.lower().endswith((".jpg", ".jpeg")) and jpeg_without_profile(path)
                source = path if jpeg else ImageReader(as_srgb(path))  # a plain JPEG: read by ReportLab
                image = pdfdoc.PDFImageXObject(name, source, mask="auto")
                image.name = name
                c._setXObjects(image)
                c._doc.Reference(image, registered)
                c._doc.addForm(name, image)
                smask = getattr(image, "_smask", None)
                if smask:  # the alpha channel, as ReportLab's drawImage sets it up
                    smask_name = c._doc.getXObjectName(smask.name)
                    if smask_name not in c._doc.idToObject:
                        c._setXObjects(smask)
                        image.smask = c._doc.Reference(smask, smask_name)
                    else:
                        image.smask = pdfdoc.PDFObjectReference(smask_name)
                    del image._smask
            known = self.images[path] = (name, registered)
        name, registered = known
        c._currentPageHasImages = 1
        c.saveState()
        c.translate(x, y)
        c.scale(w, h)
        c._code.append(f"/{registered} Do")
        c.restoreState()
        c._formsinuse.append(name)

    def _style(self, fill, stroke, width, dash, opacity) -> None:
        c = self.c
        if opacity < 1 or dash:
            c.saveState()
            if opacity < 1:
                c.setFillAlpha(opacity)
                c.setStrokeAlpha(opacity)
            if dash:
                c.setDash(list(dash))
        if fill is not None:
            c.setFillColor(colour(fill))
        if stroke is not None:
            c.setStrokeColor(colour(stroke))
            c.setLineWidth(width)

    def _unstyle(self, opacity, dash) -> None:
        if opacity < 1 or dash:
            self.c.restoreState()


def _poly(path, pts) -> None:
    path.moveTo(*pts[0])
    for q in pts[1:]:
        path.lineTo(*q)
    path.close()


def write_face_pages(path: Path, faces: list, bleed_pt: float, icons: dict, title: str) -> None:
    """One face per page, the page its trim plus `bleed_pt` all round: the source of per-card images."""
    first = faces[0]
    size = (first.width_pt + 2 * bleed_pt, first.height_pt + 2 * bleed_pt)
    c = new_canvas(path, size, title)
    drawer = FaceDrawer(c, icons)
    for face in faces:
        drawer.draw_face(face, bleed_pt, bleed_pt)
        c.showPage()
    c.save()
