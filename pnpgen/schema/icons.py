"""Vector icons as data: shapes in a 100 x 100 box (y downwards), drawn as PDF paths.

pnpgen ships a set (pnpgen/data/icons.yaml); a game adds or overrides icons with its own file, and with a folder
of SVG files (`pnpgen.schema.svgicons`). Paths use an SVG subset: M L H V C S Q T Z, absolute or relative.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from pnpgen.colours import ColourError, parse_colour
from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.names import is_name, rule_of
from pnpgen.schema.fields import Invalid, Key, Table, as_number, as_str, listing
from pnpgen.source import LMap, load_file

BUILTIN = Path(__file__).resolve().parent.parent / "data" / "icons.yaml"
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Shape:
    kind: str  # path | circle | ellipse | rect | poly | line (all turned into path commands)
    commands: tuple  # (("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",))
    fill: str | None  # "#rrggbb", "tint" or None
    stroke: str | None
    stroke_width: float
    opacity: float


@dataclass(frozen=True)
class IconDef:
    name: str
    tint: str
    shapes: tuple

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the ink in the 100 x 100 box (control points included, strokes widened)."""
        xs, ys = [], []
        for shape in self.shapes:
            pad = shape.stroke_width / 2 if shape.stroke else 0.0
            for cmd in shape.commands:
                pts = cmd[1:]
                for i in range(0, len(pts), 2):
                    xs += [pts[i] - pad, pts[i] + pad]
                    ys += [pts[i + 1] - pad, pts[i + 1] + pad]
        if not xs:
            return 0.0, 0.0, 100.0, 100.0
        return max(min(xs), 0.0), max(min(ys), 0.0), min(max(xs), 100.0), min(max(ys), 100.0)


@dataclass(frozen=True)
class IconSources:
    """A game's own icons: its icons file and its folder of SVG icons (either may be None)."""

    file: Path | None
    svg: Path | None

    def __bool__(self) -> bool:
        return self.file is not None or self.svg is not None


class PathError(ValueError):
    pass


# No icon coordinate or stroke is larger than this (a 100 x 100 box, or an SVG's own view box): a number past it
# is a mistake, and one past about 1e20 cannot be written into a PDF at all.
MAX_ICON_NUMBER = 1e6


def _drawable(number: float, shown) -> float:
    if not math.isfinite(number) or abs(number) > MAX_ICON_NUMBER:
        text = str(shown)
        raise PathError(
            f"holds a number too large to draw (got {text if len(text) <= 24 else text[:20] + '...'})"
        )
    return number


def parse_path(d: str) -> tuple:
    tokens = _PATH_TOKEN.findall(d)
    if "".join(tokens).replace(" ", "") == "" or re.sub(r"[\s,]", "", d) != "".join(tokens):
        bad = re.sub(r"[\s,]|" + _PATH_TOKEN.pattern, "", d)
        if bad:
            raise PathError(f"unexpected '{bad[:10]}' in path")
    out: list[tuple] = []  # ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)
    i, cmd = 0, None
    cx = cy = sx = sy = 0.0
    last_ctrl = None

    def nums(n):
        nonlocal i
        vals = []
        for _ in range(n):
            if i >= len(tokens) or tokens[i].isalpha():
                raise PathError(f"command '{cmd}' needs {n} numbers")
            vals.append(_drawable(float(tokens[i]), tokens[i]))
            i += 1
        return vals

    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
        elif cmd is None:
            raise PathError("a path must start with M")
        rel = cmd.islower()
        c = cmd.upper()
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        if c == "Z":
            out.append(("Z",))
            cx, cy = sx, sy
            last_ctrl = None
            continue
        if c == "M":
            x, y = nums(2)
            cx, cy = x + ox, y + oy
            sx, sy = cx, cy
            out.append(("M", cx, cy))
            cmd = "l" if rel else "L"  # further pairs are line-tos
            last_ctrl = None
        elif c == "L":
            x, y = nums(2)
            cx, cy = x + ox, y + oy
            out.append(("L", cx, cy))
            last_ctrl = None
        elif c == "H":
            (x,) = nums(1)
            cx = x + ox
            out.append(("L", cx, cy))
            last_ctrl = None
        elif c == "V":
            (y,) = nums(1)
            cy = y + oy
            out.append(("L", cx, cy))
            last_ctrl = None
        elif c in ("C", "S"):
            if c == "C":
                x1, y1, x2, y2, x, y = nums(6)
                x1, y1 = x1 + ox, y1 + oy
            else:
                x2, y2, x, y = nums(4)
                x1, y1 = _reflected(last_ctrl, "C", cx, cy)
            x2, y2, x, y = x2 + ox, y2 + oy, x + ox, y + oy
            out.append(("C", x1, y1, x2, y2, x, y))
            last_ctrl = ("C", x2, y2)
            cx, cy = x, y
        elif c in ("Q", "T"):
            if c == "Q":
                qx, qy, x, y = nums(4)
                qx, qy = qx + ox, qy + oy
            else:
                x, y = nums(2)
                qx, qy = _reflected(last_ctrl, "Q", cx, cy)
            x, y = x + ox, y + oy
            out.append(
                (
                    "C",
                    cx + 2 / 3 * (qx - cx),
                    cy + 2 / 3 * (qy - cy),
                    x + 2 / 3 * (qx - x),
                    y + 2 / 3 * (qy - y),
                    x,
                    y,
                )
            )
            last_ctrl = ("Q", qx, qy)
            cx, cy = x, y
        else:
            raise PathError(f"unsupported path command '{cmd}' (use M L H V C S Q T Z)")
    if not out or out[0][0] != "M":
        raise PathError("a path must start with M")
    return tuple(out)


def _reflected(last: tuple | None, kind: str, cx: float, cy: float) -> tuple[float, float]:
    """The first control point of S (kind "C") or T ("Q"): the last control point reflected in the current
    point when the command before was of the same family (C/S, or Q/T), else the current point (SVG 1.1, 8.3.6
    and 8.3.7: an S after a Q does not reflect the quadratic's control point)."""
    if last is None or last[0] != kind:
        return cx, cy
    return 2 * cx - last[1], 2 * cy - last[2]


_K = 0.5522847498


def _ellipse(cx, cy, rx, ry) -> tuple:
    kx, ky = rx * _K, ry * _K
    return (
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("Z",),
    )


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> tuple:
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    k = r * (1 - _K)
    return (
        ("M", x + r, y),
        ("L", x + w - r, y),
        ("C", x + w - k, y, x + w, y + k, x + w, y + r),
        ("L", x + w, y + h - r),
        ("C", x + w, y + h - k, x + w - k, y + h, x + w - r, y + h),
        ("L", x + r, y + h),
        ("C", x + k, y + h, x, y + h - k, x, y + h - r),
        ("L", x, y + r),
        ("C", x, y + k, x + k, y, x + r, y),
        ("Z",),
    )


def _numbers(n: tuple[int, ...]):
    def convert(value) -> tuple[float, ...]:
        if not isinstance(value, list) or len(value) not in n:
            raise Invalid(f"needs {' or '.join(map(str, n))} numbers")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            raise Invalid("needs numbers")
        try:
            return tuple(_drawable(float(v), v) for v in value)
        except OverflowError:  # a whole number past 1e308
            raise Invalid("holds a number too large to draw") from None
        except PathError as exc:
            raise Invalid(str(exc)) from None

    return convert


def _path(value) -> tuple:
    try:
        return parse_path(as_str(value))
    except PathError as exc:
        message = str(exc)
        raise Invalid(f"'path' {message}" if message.startswith("holds") else message) from None


def _circle(value) -> tuple:
    cx, cy, r = _numbers((3,))(value)
    return _ellipse(cx, cy, r, r)


def _rect(value) -> tuple:
    nums = _numbers((4, 5))(value)
    x, y, w, h = nums[:4]
    return rounded_rect(x, y, w, h, nums[4] if len(nums) == 5 else 0)


def _poly(value) -> tuple:
    if not isinstance(value, list) or len(value) < 3:
        raise Invalid("needs a list of at least 3 [x, y] points")
    try:
        pts = [_numbers((2,))(p) for p in value]
    except Invalid:
        raise Invalid("needs a list of at least 3 [x, y] points, each two numbers") from None
    return (("M", *pts[0]), *(("L", *p) for p in pts[1:]), ("Z",))


def _line(value) -> tuple:
    x1, y1, x2, y2 = _numbers((4,))(value)
    return (("M", x1, y1), ("L", x2, y2))


def _colour(value, palette: Mapping[str, str]) -> str | None:
    """A colour for an icon: 'tint' (the icon's own colour, which an element's `color` replaces) or any colour
    `pnpgen.colours` reads, palette names included."""
    if value == "tint":
        return "tint"
    try:
        return parse_colour(value, palette)
    except ColourError as exc:
        if str(exc).startswith("is not a colour"):
            raise Invalid(f"{exc}; 'tint' is the icon's own colour") from None
        raise


def _tint(value, palette: Mapping[str, str]) -> str | None:
    """An icon's own colour: any colour `pnpgen.colours` reads (not 'tint', which names it)."""
    return parse_colour(value, palette)


def _stroke_width(value) -> float:
    number = as_number(value)
    if number < 0:
        raise Invalid(f"must not be negative (got {value!r})")
    if not math.isfinite(number) or number > 1000:
        raise Invalid(f"is too large (got {value!r}; at most 1000 box units)")
    return number


def _opacity(value) -> float:
    number = as_number(value)
    if not 0 <= number <= 1:
        raise Invalid(f"must be from 0 to 1 (got {value!r})")
    return number


def _ellipse_of(value) -> tuple:
    return _ellipse(*_numbers((4,))(value))


SHAPE_KINDS = ("path", "circle", "ellipse", "rect", "poly", "line")
_BOX = "in the 100 x 100 box"
SHAPE = Table(
    "icon shape",
    (
        Key("path", _path, "an SVG path: M L H V C S Q T Z, absolute or (lower case) relative", bare=True),
        Key("circle", _circle, f"[cx, cy, r] {_BOX}"),
        Key("ellipse", _ellipse_of, f"[cx, cy, rx, ry] {_BOX}"),
        Key("rect", _rect, f"[x, y, w, h] or [x, y, w, h, corner radius] {_BOX}"),
        Key("poly", _poly, "[[x, y], ...]: a closed polygon of 3 or more points"),
        Key("line", _line, "[x1, y1, x2, y2]"),
        Key("fill", _colour, "a colour, tint or none; default tint (none for a line)", takes=("palette",)),
        Key("stroke", _colour, "a colour, tint or none; default none (tint for a line)", takes=("palette",)),
        Key("stroke_width", _stroke_width, "in box units, 0 to 1000; default 3 (4 for a line)"),
        Key("opacity", _opacity, "0 to 1; default 1", default=1.0),
    ),
    title="Keys of an icon shape",
)
ICON = Table(
    "icon",
    (
        Key("tint", _tint, "its colour, wherever a shape says tint; default black", takes=("palette",)),
        Key("shapes", listing("must be a list of shapes"), "what it is drawn with, in order", required=True),
        Key("description", as_str, "what it shows, for `pnpgen icons`"),
    ),
)


def _shape(data: LMap, name: str, palette: Mapping[str, str], diags: Diagnostics) -> Shape | None:
    what = f"icon '{name}'"
    v = SHAPE.read(data, diags, what, {"palette": palette}, at_item=True)
    kinds = [k for k in SHAPE_KINDS if k in v.given]
    if len(kinds) != 1:
        diags.error(data.loc, f"{what}: a shape needs exactly one of: {', '.join(SHAPE_KINDS)}")
        return None
    if not v.ok:
        return None
    kind = kinds[0]
    line = kind == "line"
    fill = v["fill"] if "fill" in v.given else (None if line else "tint")
    stroke = v["stroke"] if "stroke" in v.given else ("tint" if line else None)
    width = v["stroke_width"] if "stroke_width" in v.given else (4.0 if line else 3.0)
    return Shape(kind, v[kind], fill, stroke, width, v["opacity"])


@cache
def builtin_yaml():
    """pnpgen's own icons file, parsed once per process (it is part of pnpgen; nothing changes what was parsed)."""
    return load_file(BUILTIN, display_path(BUILTIN))


def load_icons(
    path: Path | IconSources,
    palette: Mapping[str, str],
    diags: Diagnostics,
    into: dict | None = None,
    reader=None,
) -> dict[str, IconDef]:
    """Read an icons file into `into` (later files override earlier ones); through `reader` (confined and recorded)
    when one is given. A game's `IconSources`: its file, then its SVG folder (through `reader`)."""
    icons = {} if into is None else into
    if isinstance(path, IconSources):
        before = dict(icons)
        if path.file is not None:
            load_icons(path.file, palette, diags, icons, reader)
        if path.svg is not None:
            from pnpgen.schema.svgicons import load_svg_icons

            own = frozenset(n for n in icons if before.get(n) is not icons[n])
            load_svg_icons(path.svg, diags, icons, reader, own)
        return icons
    display = display_path(path)
    try:
        if reader is not None:
            data = reader.load_yaml(path, "icons file")
        else:
            data = builtin_yaml() if path == BUILTIN else load_file(path, display)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return icons
    if not isinstance(data, LMap):
        diags.error(Location(display, 1, 1), "an icons file maps icon names to {tint:, shapes: [...]}")
        return icons
    for name, spec in data.items():
        loc = data.key_loc(name)
        if not is_name(name):
            diags.error(loc, f"icon name {name!r} must be {rule_of(name)}")
            continue
        if not isinstance(spec, LMap):
            diags.error(loc, f"icon '{name}' needs 'shapes', a list of shapes")
            continue
        v = ICON.read(spec, diags, f"icon '{name}'", {"palette": palette})
        if v["shapes"] is None:
            continue
        shapes = []
        for i, item in enumerate(v["shapes"]):
            if not isinstance(item, LMap):
                diags.error(
                    v["shapes"].loc_at(i),
                    f"icon '{name}': a shape is a mapping such as {{circle: [50, 50, 40]}}",
                )
                continue
            shape = _shape(item, name, palette, diags)
            if shape is not None:
                shapes.append(shape)
        icons[name] = IconDef(name, v["tint"] or "#000000", tuple(shapes))
    return icons
