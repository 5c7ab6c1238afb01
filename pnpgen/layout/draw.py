"""Evaluate a layout for one card -> a Face (draw operations in points) plus warnings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen import units
from pnpgen.errors import Diagnostics, Location
from pnpgen.faces import Ellipse, Face, Icon, Image, Line, Polygon, Rect, Text
from pnpgen.layout.spec import Element, Layout
from pnpgen.templating import TemplateProblem
from pnpgen.text.fit import fit_text
from pnpgen.text.fonts import FONT_NAMES, missing_glyphs, unit_width, vertical_metrics

NAMED_COLOURS = {"white": "#ffffff", "black": "#000000", "grey": "#808080", "gray": "#808080"}
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{6})$")
MAX_REPEAT = 1_000
MAX_TEXT = 5_000  # characters in one text element
MAX_IMAGE_PIXELS = 60_000_000
MAX_IMAGE_BYTES = 60_000_000
MIN_DPI = 300
MIN_TRACK_SPACE = 4 * units.MM  # a track space smaller than this cannot hold a marker


class DrawProblem(Exception):
    def __init__(self, location: Location, message: str):
        self.location, self.message = location, message
        super().__init__(message)


@dataclass
class FaceContext:
    """Everything a face needs besides the layout: size, palette, icons, where images live."""

    width_pt: float
    height_pt: float
    bleed_pt: float
    safe_pt: float
    palette: dict
    icons: dict
    art_root: Path
    shape: str = "rect"
    board: object = None  # a board's data, for its sides' layouts
    reader: object = None  # pnpgen.inputs.Reader: wired in by the layout rework
    image_sizes: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)  # (location, message) -> cards it applies to
    faults: dict = field(default_factory=dict)

    def fault(self, loc: Location, message: str, card: str) -> None:
        """An error drawing one card; the same error on many cards is reported once with a count."""
        self.faults.setdefault((loc, message), []).append(card)

    def note(self, loc: Location, message: str, card: str) -> None:
        """A warning about one card; the same warning on many cards is reported once with a count."""
        self.notes.setdefault((loc, message), []).append(card)

    def flush_notes(self, diags: Diagnostics) -> None:
        for (loc, message), cards in self.faults.items():
            more = f" and {len(cards) - 1} more" if len(cards) > 1 else ""
            diags.error(loc, f"{message} (while drawing {cards[0]}{more})")
        for (loc, message), cards in self.notes.items():
            more = f" and {len(cards) - 1} more" if len(cards) > 1 else ""
            diags.warning(loc, f"{message} on {cards[0]}{more}")
        self.notes.clear()
        self.faults.clear()


def template_names(fc: FaceContext, card_fields: dict, deck: dict, game: dict) -> dict:
    return {
        "card": card_fields,
        "deck": deck,
        "game": game,
        "palette": fc.palette,
        "w": round(units.mm(fc.width_pt), 3),
        "h": round(units.mm(fc.height_pt), 3),
        "bleed": round(units.mm(fc.bleed_pt), 3),
        "safe": round(units.mm(fc.safe_pt), 3),
        "shape": fc.shape,
        "board": fc.board if fc.board is not None else {},
    }


def draw_face(
    layout: Layout, fc: FaceContext, names: dict, card_label: str, diags: Diagnostics
) -> Face | None:
    """Evaluate every element of `layout`; problems go to `diags` naming the card."""
    ctx = dict(names)
    ops: list = []
    try:
        for name, value in layout.vars:
            ctx[name] = value(ctx)
        for el in layout.elements:
            _element(el, ctx, fc, ops, card_label, diags)
    except (TemplateProblem, DrawProblem) as exc:
        fc.fault(exc.location, exc.message, card_label)
        return None
    return Face(fc.width_pt, fc.height_pt, fc.bleed_pt, tuple(ops), fc.shape)


def _element(el: Element, ctx: dict, fc: FaceContext, ops: list, label: str, diags: Diagnostics) -> None:
    if el.for_each is not None:
        items = el.for_each(ctx)
        if isinstance(items, (int, float)) and not isinstance(items, bool):
            items = range(int(items))
        if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
            raise DrawProblem(el.for_each.loc, f"'for_each' must give a list (got {items!r})")
        items = list(items)
        if len(items) > MAX_REPEAT:
            raise DrawProblem(
                el.for_each.loc, f"'for_each' repeats {len(items)} times; the limit is {MAX_REPEAT}"
            )
        for i, item in enumerate(items):
            loop = {
                "index0": i,
                "index": i + 1,
                "first": i == 0,
                "last": i == len(items) - 1,
                "length": len(items),
            }
            _one(el, {**ctx, el.as_name: item, "loop": loop}, fc, ops, label, diags)
    else:
        _one(el, ctx, fc, ops, label, diags)


def _one(el: Element, ctx: dict, fc: FaceContext, ops: list, label: str, diags: Diagnostics) -> None:
    if el.when is not None and not el.when(ctx):
        return
    p = _Props(el, ctx, fc)
    DRAW[el.type](p, fc, ops, label, diags)


class _Props:
    """Typed access to an element's evaluated values, with located errors."""

    def __init__(self, el: Element, ctx: dict, fc: FaceContext):
        self.el, self.ctx, self.fc = el, ctx, fc
        self._cache: dict = {}

    def raw(self, key, default=None):
        if key not in self.el.props:
            return default
        if key not in self._cache:
            self._cache[key] = self.el.props[key](self.ctx)
        return self._cache[key]

    def loc(self, key) -> Location:
        v = self.el.props.get(key)
        return v.loc if v is not None else self.el.loc

    def fail(self, key, message):
        raise DrawProblem(self.loc(key), f"'{key}' {message}")

    def length(self, key, default=None, unit="mm") -> float:
        v = self.raw(key, default)
        if v is None:
            self.fail(key, "is required")
        if isinstance(v, str):
            v = v.strip()
        try:
            return units.to_pt(v, unit)
        except units.UnitError as exc:
            self.fail(key, str(exc))

    def number(self, key, default, lo=None, hi=None) -> float:
        v = self.raw(key, default)
        try:
            f = float(v)
        except (TypeError, ValueError):
            self.fail(key, f"must be a number (got {v!r})")
        if (lo is not None and f < lo) or (hi is not None and f > hi):
            self.fail(key, f"must be between {lo} and {hi} (got {v!r})")
        return f

    def colour(self, key, default=None):
        v = self.raw(key, default)
        return resolve_colour(v, self.fc.palette, lambda m: self.fail(key, m))

    def choice(self, key, default, options):
        v = self.raw(key, default)
        if v not in options:
            from pnpgen.errors import did_you_mean

            self.fail(
                key, f"must be one of {', '.join(options)} (got {v!r}); " + did_you_mean(str(v), options)
            )
        return v

    def box(self):
        area = self.raw("area")
        fc = self.fc
        if area is not None:
            if area == "bleed":
                b = fc.bleed_pt
                return -b, -b, fc.width_pt + 2 * b, fc.height_pt + 2 * b
            if area == "trim":
                return 0.0, 0.0, fc.width_pt, fc.height_pt
            if area == "safe":
                s = fc.safe_pt
                return s, s, fc.width_pt - 2 * s, fc.height_pt - 2 * s
            self.fail("area", f"must be bleed, trim or safe (got {area!r})")
        return self.length("x"), self.length("y"), self.length("w"), self.length("h")


def resolve_colour(v, palette, fail):
    if v is None or v == "none" or v == "":
        return None
    text = str(v).strip()
    if _HEX.match(text):
        return text.lower()
    if text in palette:
        return palette[text]
    if text in NAMED_COLOURS:
        return NAMED_COLOURS[text]
    fail(f"is not a colour: {text!r} (use '#rrggbb', a palette name, white, black, grey or none)")


def _dash(p: _Props):
    v = p.raw("dash")
    if v in (None, "", ()):
        return ()
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, (int, float)) for x in v):
        p.fail("dash", f"must be a list of lengths in pt such as [2, 1] (got {v!r})")
    return tuple(float(x) for x in v)


def _rect(p, fc, ops, label, diags):
    x, y, w, h = p.box()
    ops.append(
        Rect(
            x,
            y,
            w,
            h,
            p.length("radius", 0),
            p.colour("fill"),
            p.colour("stroke"),
            p.length("stroke_width", 0.5, "pt"),
            _dash(p),
            p.number("opacity", 1, 0, 1),
        )
    )


def _ellipse(p, fc, ops, label, diags):
    x, y, w, h = p.box()
    ops.append(
        Ellipse(
            x,
            y,
            w,
            h,
            p.colour("fill"),
            p.colour("stroke"),
            p.length("stroke_width", 0.5, "pt"),
            _dash(p),
            p.number("opacity", 1, 0, 1),
        )
    )


def _line(p, fc, ops, label, diags):
    ops.append(
        Line(
            p.length("x1"),
            p.length("y1"),
            p.length("x2"),
            p.length("y2"),
            p.colour("stroke", "black") or "#000000",
            p.length("stroke_width", 0.5, "pt"),
            _dash(p),
        )
    )


def _polygon(p, fc, ops, label, diags):
    pts = p.raw("points")
    if not isinstance(pts, (list, tuple)) or len(pts) < 3:
        p.fail("points", "must be a list of at least 3 [x, y] points")
    out = []
    for pt in pts:
        if not isinstance(pt, (list, tuple)) or len(pt) != 2:
            p.fail("points", f"each point must be [x, y] (got {pt!r})")
        try:
            out.append((units.to_pt(pt[0]), units.to_pt(pt[1])))
        except units.UnitError as exc:
            p.fail("points", str(exc))
    ops.append(
        Polygon(
            tuple(out),
            p.colour("fill"),
            p.colour("stroke"),
            p.length("stroke_width", 0.5, "pt"),
            p.number("opacity", 1, 0, 1),
            _dash(p),
        )
    )


def _text(p, fc, ops, label, diags):
    x, y, w, h = p.length("x"), p.length("y"), p.length("w"), p.length("h")
    text = p.raw("text")
    text = "" if text is None else str(text)
    if not text.strip():
        return
    if len(text) > MAX_TEXT:
        p.fail("text", f"is {len(text):,} characters long; the limit is {MAX_TEXT:,}")
    font = p.choice("font", "sans", FONT_NAMES)
    size = p.length("size", 9, "pt")
    min_size = p.length("min_size", round(size * 0.6, 2), "pt")
    if min_size > size:
        min_size = size
    fitted = fit_text(
        text,
        x=x,
        y=y,
        w=w,
        h=h,
        font=font,
        size=size,
        min_size=min_size,
        color=p.colour("color", "black") or "#000000",
        align=p.choice("align", "left", ("left", "center", "right", "justify")),
        valign=p.choice("valign", "top", ("top", "middle", "bottom")),
        leading=p.number("leading", 1.2, 0.5, 4),
        is_icon=lambda n: n in fc.icons,
        tint=None,
    )
    if not fitted.fits:
        raise DrawProblem(
            p.loc("text"),
            f"text does not fit its {units.mm(w):.1f} x {units.mm(h):.1f} mm box "
            f"even at the minimum size {min_size:g} pt: {_short(text)!r}",
        )
    for op in fitted.ops:
        if isinstance(op, Text):
            lost = missing_glyphs(op.text, op.font)
            if lost:
                codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
                fc.note(p.loc("text"), f"the font {op.font} has no {codes}; it would not print", label)
    if _outside_safe(fitted.ops, fc):
        fc.note(
            p.el.loc,
            f"text reaches outside the safe zone ({units.mm(fc.safe_pt):g} mm inside the cut)",
            label,
        )
    ops.extend(fitted.ops)


def _outside_safe(ops, fc: FaceContext) -> bool:
    """Whether any glyph of the set text (not merely its box) crosses the safe zone."""
    s = fc.safe_pt
    for op in ops:
        if isinstance(op, Text):
            ascent, descent = vertical_metrics(op.font)
            x0, x1 = op.x, op.x + unit_width(op.text, op.font) * op.size
            y0, y1 = op.y - ascent * op.size * 0.75, op.y + descent * op.size * 0.5
        elif isinstance(op, Icon) and op.name in fc.icons:
            bx0, by0, bx1, by1 = fc.icons[op.name].bounds
            x0, x1 = op.x + op.w * bx0 / 100, op.x + op.w * bx1 / 100
            y0, y1 = op.y + op.h * by0 / 100, op.y + op.h * by1 / 100
        else:
            x0, x1, y0, y1 = op.x, op.x + op.w, op.y, op.y + op.h
        if x0 < s - 0.5 or y0 < s - 0.5 or x1 > fc.width_pt - s + 0.5 or y1 > fc.height_pt - s + 0.5:
            return True
    return False


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _icon(p, fc, ops, label, diags):
    name = str(p.raw("name"))
    if name not in fc.icons:
        from pnpgen.errors import did_you_mean

        p.fail("name", f"names no icon '{name}'; " + did_you_mean(name, fc.icons))
    x, y = p.length("x"), p.length("y")
    if "w" in p.el.props or "h" in p.el.props:
        w, h = p.length("w"), p.length("h")
    else:
        w = h = p.length("size", 8)
    icon = Icon(name, x, y, w, h, p.colour("color"))
    if _outside_safe([icon], fc):
        fc.note(
            p.el.loc,
            f"icon reaches outside the safe zone ({units.mm(fc.safe_pt):g} mm inside the cut)",
            label,
        )
    ops.append(icon)


def _image(p, fc, ops, label, diags):
    from pnpgen.errors import ContentError
    from pnpgen.schema import safe_path

    src = str(p.raw("src"))
    try:
        path = safe_path(fc.art_root, src, p.loc("src"), "image", "the game's art folder")
    except ContentError as exc:
        raise DrawProblem(p.loc("src"), exc.diagnostics.items[0].message) from None
    if not path.is_file():
        p.fail("src", f"names an image that does not exist: art/{src}")
    x, y, w, h = p.box()
    iw, ih = image_size(path, fc, p)
    fit = p.choice("fit", "contain", ("contain", "cover", "stretch"))
    if fit == "stretch":
        dx, dy, dw, dh = x, y, w, h
    else:
        scale = (min if fit == "contain" else max)(w / iw, h / ih)
        dw, dh = iw * scale, ih * scale
        dx, dy = x + (w - dw) / 2, y + (h - dh) / 2
    dpi = min(iw / (dw / 72), ih / (dh / 72)) if dw > 0 and dh > 0 else 0
    if dpi < MIN_DPI:
        fc.note(p.loc("src"), f"image art/{src} prints at {dpi:.0f} dpi, under {MIN_DPI}", label)
    ops.append(Image(str(path), dx, dy, dw, dh, (x, y, w, h)))


def image_size(path: Path, fc: FaceContext, p) -> tuple[int, int]:
    """Pixel size read from the file's header only: nothing is decoded before the size is known to be sane."""
    if path not in fc.image_sizes:
        from PIL import Image as PILImage

        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            p.fail(
                "src", f"names an image of {size / 1e6:.0f} MB; the limit is {MAX_IMAGE_BYTES / 1e6:.0f} MB"
            )
        try:
            with PILImage.open(path) as im:  # reads the header, decodes nothing
                fmt, dims = im.format, im.size
        except PILImage.DecompressionBombError:
            p.fail(
                "src",
                f"names an image too large to decode safely (over {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels)",
            )
        except Exception as exc:  # unreadable or not an image
            p.fail("src", f"cannot be read as an image: {exc}")
        if fmt not in ("PNG", "JPEG"):
            p.fail("src", f"must be a PNG or JPEG image (got {fmt})")
        if dims[0] * dims[1] > MAX_IMAGE_PIXELS:
            p.fail(
                "src",
                f"names an image of {dims[0]} x {dims[1]} pixels; the limit is "
                f"{MAX_IMAGE_PIXELS / 1e6:.0f} megapixels",
            )
        fc.image_sizes[path] = dims
    return fc.image_sizes[path]


def _grid(p, fc, ops, label, diags):
    x, y, w, h = p.box()
    rows = p.raw("cells")
    if not isinstance(rows, (list, tuple)) or not rows or not all(isinstance(r, (list, tuple)) for r in rows):
        p.fail("cells", "must be a list of rows, each a list of cells")
    ncols = max(len(r) for r in rows)
    nrows = len(rows)
    if ncols == 0:
        p.fail("cells", "has no cells")
    gap = p.length("gap", 0.8)
    cell = min((w - (ncols - 1) * gap) / ncols, (h - (nrows - 1) * gap) / nrows)
    if cell <= 0:
        p.fail("cells", "do not fit the grid's box")
    gx = x + (w - (ncols * cell + (ncols - 1) * gap)) / 2
    gy = y + (h - (nrows * cell + (nrows - 1) * gap)) / 2
    fill, stroke = p.colour("cell_fill", "#f3ecdc"), p.colour("cell_stroke", "#4a4036")
    sw, radius = p.length("stroke_width", 0.6, "pt"), p.length("radius", 0.8)
    scale = p.number("icon_scale", 0.82, 0.1, 1.5)
    for r, row in enumerate(rows):
        for c, spec in enumerate(row):
            if spec is None:
                continue
            cx, cy = gx + c * (cell + gap), gy + r * (cell + gap)
            icons, cfill, cstroke = _cell(spec, p, fill, stroke)
            ops.append(Rect(cx, cy, cell, cell, radius, cfill, cstroke, sw))
            _cell_icons(icons, cx, cy, cell, scale, fc, p, ops)


def _cell(spec, p, fill, stroke):
    if isinstance(spec, str):
        return spec.split(), fill, stroke
    if isinstance(spec, (list, tuple)):
        return [str(s) for s in spec], fill, stroke
    if isinstance(spec, dict) or hasattr(spec, "keys"):
        icons = spec.get("icons", [])
        icons = icons.split() if isinstance(icons, str) else [str(s) for s in icons]
        f = (
            resolve_colour(spec.get("fill"), p.fc.palette, lambda m: p.fail("cells", m))
            if "fill" in spec
            else fill
        )
        s = (
            resolve_colour(spec.get("stroke"), p.fc.palette, lambda m: p.fail("cells", m))
            if "stroke" in spec
            else stroke
        )
        return icons, f, s
    p.fail("cells", f"a cell is a list of icon names, null, or {{icons: [...], fill: colour}} (got {spec!r})")


_ARRANGE = {1: (1, 1), 2: (2, 1), 3: (2, 2), 4: (2, 2), 5: (3, 2), 6: (3, 2)}


def _cell_icons(icons, cx, cy, cell, scale, fc, p, ops):
    if not icons:
        return
    if len(icons) > 6:
        p.fail("cells", f"a cell holds at most 6 icons (got {len(icons)})")
    for name in icons:
        if name not in fc.icons:
            from pnpgen.errors import did_you_mean

            p.fail("cells", f"names no icon '{name}'; " + did_you_mean(name, fc.icons))
    cols, rows = _ARRANGE[len(icons)]
    sub = cell / max(cols, rows)
    side = sub * (scale if len(icons) == 1 else min(0.95, scale + 0.1))
    oy = cy + (cell - rows * sub) / 2
    for i, name in enumerate(icons):
        r, c = divmod(i, cols)
        in_row = min(cols, len(icons) - r * cols)
        ox = cx + (cell - in_row * sub) / 2
        ix = ox + c * sub + (sub - side) / 2
        iy = oy + r * sub + (sub - side) / 2
        ops.append(Icon(name, ix, iy, side, side, None))


def _pairs(p, key, n):
    """A list of [col, row, ...] entries with at least n items each."""
    v = p.raw(key, [])
    if v in (None, ""):
        return []
    if not isinstance(v, (list, tuple)) or not all(isinstance(e, (list, tuple)) and len(e) >= n for e in v):
        p.fail(key, f"must be a list of [col, row{', value' if n > 2 else ''}] entries (got {v!r})")
    return v


def cell_polygons(shape: str, cols: int, rows: int, x: float, y: float, w: float, h: float):
    """{(col, row): polygon points (y down)} of a grid as large as fits the box, centred in it."""
    import math

    r3 = math.sqrt(3)
    out = {}
    if shape == "square":
        s = min(w / cols, h / rows)
        ox, oy = x + (w - cols * s) / 2, y + (h - rows * s) / 2
        for r in range(rows):
            for c in range(cols):
                x0, y0 = ox + c * s, oy + r * s
                out[(c, r)] = [(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]
    elif shape == "hex":  # pointy, odd rows shifted right
        cw = min(w / (cols + (0.5 if rows > 1 else 0)), h / ((2 / r3) * (1 + 0.75 * (rows - 1))))
        ch = 2 * cw / r3
        tw, th = cols * cw + (cw / 2 if rows > 1 else 0), ch + 0.75 * ch * (rows - 1)
        ox, oy = x + (w - tw) / 2, y + (h - th) / 2
        for r in range(rows):
            for c in range(cols):
                x0, y0 = ox + c * cw + (cw / 2 if r % 2 else 0), oy + r * 0.75 * ch
                out[(c, r)] = [
                    (x0 + cw / 2, y0),
                    (x0 + cw, y0 + ch / 4),
                    (x0 + cw, y0 + 3 * ch / 4),
                    (x0 + cw / 2, y0 + ch),
                    (x0, y0 + 3 * ch / 4),
                    (x0, y0 + ch / 4),
                ]
    elif shape == "hex-flat":  # flat top, odd columns shifted down
        ch = min(h / (rows + (0.5 if cols > 1 else 0)), w / ((2 / r3) * (1 + 0.75 * (cols - 1))))
        cw = 2 * ch / r3
        tw, th = cw + 0.75 * cw * (cols - 1), rows * ch + (ch / 2 if cols > 1 else 0)
        ox, oy = x + (w - tw) / 2, y + (h - th) / 2
        for c in range(cols):
            for r in range(rows):
                x0, y0 = ox + c * 0.75 * cw, oy + r * ch + (ch / 2 if c % 2 else 0)
                out[(c, r)] = [
                    (x0 + cw / 4, y0),
                    (x0 + 3 * cw / 4, y0),
                    (x0 + cw, y0 + ch / 2),
                    (x0 + 3 * cw / 4, y0 + ch),
                    (x0 + cw / 4, y0 + ch),
                    (x0, y0 + ch / 2),
                ]
    elif shape == "triangle":  # alternating along each row: (col + row) even points up
        s = min(w / ((cols + 1) / 2), h / (rows * r3 / 2))
        t = s * r3 / 2
        tw, th = (cols + 1) * s / 2, rows * t
        ox, oy = x + (w - tw) / 2, y + (h - th) / 2
        for r in range(rows):
            for c in range(cols):
                x0, y0 = ox + c * s / 2, oy + r * t
                if (c + r) % 2 == 0:
                    out[(c, r)] = [(x0 + s / 2, y0), (x0 + s, y0 + t), (x0, y0 + t)]
                else:
                    out[(c, r)] = [(x0, y0), (x0 + s, y0), (x0 + s / 2, y0 + t)]
    return out


def _cells(p, fc, ops, label, diags):
    x, y, w, h = p.box()
    shape = p.choice("shape", "square", ("square", "hex", "hex-flat", "triangle"))
    cols, rows = int(p.number("cols", 1, 1, 200)), int(p.number("rows", 1, 1, 200))
    polys = cell_polygons(shape, cols, rows, x, y, w, h)
    fill, stroke = p.colour("cell_fill", "#f3ecdc"), p.colour("cell_stroke", "#4a4036")
    sw = p.length("stroke_width", 0.6, "pt")
    fills = {
        (int(e[0]), int(e[1])): resolve_colour(e[2], fc.palette, lambda m: p.fail("fills", m))
        for e in _pairs(p, "fills", 3)
    }
    skip = {(int(e[0]), int(e[1])) for e in _pairs(p, "skip", 2)}
    for (c, r), pts in sorted(polys.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if (c, r) in skip:
            continue
        ops.append(Polygon(tuple(pts), fills.get((c, r), fill), stroke, sw))
    scale = p.number("icon_scale", 0.6, 0.05, 1.5)
    for e in _pairs(p, "icons", 3):
        key = (int(e[0]), int(e[1]))
        if key not in polys:
            p.fail("icons", f"names cell {list(key)} outside the {cols} x {rows} grid")
        name = str(e[2])
        if name not in fc.icons:
            from pnpgen.errors import did_you_mean

            p.fail("icons", f"names no icon '{name}'; " + did_you_mean(name, fc.icons))
        cx, cy, side = _cell_centre(polys[key], shape, scale)
        tint = resolve_colour(e[3], fc.palette, lambda m: p.fail("icons", m)) if len(e) > 3 else None
        ops.append(Icon(name, cx - side / 2, cy - side / 2, side, side, tint))
    font = p.choice("font", "sans-bold", FONT_NAMES)
    size = p.length("size", 7, "pt")
    colour = p.colour("color", "black") or "#000000"
    from pnpgen.text.fonts import unit_width as uw
    from pnpgen.text.fonts import vertical_metrics as vm

    for e in _pairs(p, "labels", 3):
        key = (int(e[0]), int(e[1]))
        if key not in polys:
            p.fail("labels", f"names cell {list(key)} outside the {cols} x {rows} grid")
        cx, cy, _ = _cell_centre(polys[key], shape, 1)
        text = str(e[2])
        ascent, _ = vm(font)
        ops.append(Text(cx - uw(text, font) * size / 2, cy + ascent * size * 0.35, font, size, colour, text))


def _cell_centre(pts, shape, scale):
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    if shape == "triangle":  # centroid, and the inscribed circle for the icon's size
        cx, cy = sum(xs) / 3, sum(ys) / 3
        side = (max(xs) - min(xs)) / 3**0.5 * scale
    else:
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        side = min(max(xs) - min(xs), max(ys) - min(ys)) * scale
    return cx, cy, side


def track_positions(count: int, x: float, y: float, w: float, h: float):
    """Square spaces around the box's edge, clockwise from the top-left corner: (size, [(x, y), ...])."""
    best = None
    s = min(w, h) / 2
    while s >= MIN_TRACK_SPACE:
        along, down = int(w // s), int(h // s)
        if along >= 2 and down >= 2 and 2 * along + 2 * (down - 2) >= count:
            best = (s, along, down)
            break
        s *= 0.98
    if best is None:
        return None
    s, along, down = best
    gx = (w - along * s) / (along - 1) if along > 1 else 0  # spread to fill the edge exactly
    gy = (h - down * s) / (down - 1) if down > 1 else 0
    pos = [(x + i * (s + gx), y) for i in range(along)]
    pos += [(x + w - s, y + j * (s + gy)) for j in range(1, down - 1)]
    pos += [(x + (along - 1 - i) * (s + gx), y + h - s) for i in range(along)]
    pos += [(x, y + (down - 1 - j) * (s + gy)) for j in range(1, down - 1)]
    return s, pos[:count]


def _track(p, fc, ops, label, diags):
    x, y, w, h = p.box()
    count = int(p.number("count", 0, 1, 500))
    start = int(p.number("start", 0, -1000, 1000))
    placed = track_positions(count, x, y, w, h)
    if placed is None:
        p.fail("count", f"{count} spaces do not fit around a {units.mm(w):.0f} x {units.mm(h):.0f} mm box")
    s, pos = placed
    fill, stroke = p.colour("fill", "#fbf6ea"), p.colour("stroke", "#4a4036")
    hl = p.colour("highlight", "#e7d3a1")
    every = int(p.number("every", 5, 1, 1000))
    sw = p.length("stroke_width", 0.6, "pt")
    font = p.choice("font", "sans-bold", FONT_NAMES)
    colour = p.colour("color", "black") or "#000000"
    from pnpgen.text.fonts import unit_width as uw
    from pnpgen.text.fonts import vertical_metrics as vm

    size = min(s / 2.2, 18.0)
    ascent, _ = vm(font)
    for i, (px, py) in enumerate(pos):
        n = start + i
        ops.append(Rect(px, py, s, s, 0.0, hl if n % every == 0 else fill, stroke, sw))
        text = str(n)
        ops.append(
            Text(
                px + s / 2 - uw(text, font) * size / 2,
                py + s / 2 + ascent * size * 0.35,
                font,
                size,
                colour,
                text,
            )
        )


DRAW = {
    "rect": _rect,
    "ellipse": _ellipse,
    "line": _line,
    "polygon": _polygon,
    "text": _text,
    "icon": _icon,
    "image": _image,
    "grid": _grid,
    "cells": _cells,
    "track": _track,
}
