"""Vector icons as data: shapes in a 100 x 100 box (y downwards), drawn as PDF paths.

pnpgen ships a set (pnpgen/data/icons.yaml); a game adds or overrides icons with its own file. Paths use an
SVG subset: M L H V C S Q T Z, absolute or relative.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.source import LList, LMap, load_file

BUILTIN = Path(__file__).resolve().parent / "data" / "icons.yaml"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
SHAPE_KINDS = ("path", "circle", "ellipse", "rect", "poly", "line")
STYLE_KEYS = ("fill", "stroke", "stroke_width", "opacity")


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


class PathError(ValueError):
    pass


def parse_path(d: str) -> tuple:
    tokens = _PATH_TOKEN.findall(d)
    if "".join(tokens).replace(" ", "") == "" or re.sub(r"[\s,]", "", d) != "".join(tokens):
        bad = re.sub(r"[\s,]|" + _PATH_TOKEN.pattern, "", d)
        if bad:
            raise PathError(f"unexpected '{bad[:10]}' in path")
    out, i, cmd = [], 0, None
    cx = cy = sx = sy = 0.0
    last_ctrl = None

    def nums(n):
        nonlocal i
        vals = []
        for _ in range(n):
            if i >= len(tokens) or tokens[i].isalpha():
                raise PathError(f"command '{cmd}' needs {n} numbers")
            vals.append(float(tokens[i]))
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
                x1, y1 = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_ctrl else (cx, cy)
            x2, y2, x, y = x2 + ox, y2 + oy, x + ox, y + oy
            out.append(("C", x1, y1, x2, y2, x, y))
            last_ctrl = (x2, y2)
            cx, cy = x, y
        elif c in ("Q", "T"):
            if c == "Q":
                qx, qy, x, y = nums(4)
                qx, qy = qx + ox, qy + oy
            else:
                x, y = nums(2)
                qx, qy = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_ctrl else (cx, cy)
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
            last_ctrl = (qx, qy)
            cx, cy = x, y
        else:
            raise PathError(f"unsupported path command '{cmd}' (use M L H V C S Q T Z)")
    if not out or out[0][0] != "M":
        raise PathError("a path must start with M")
    return tuple(out)


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


def rounded_rect(x, y, w, h, r) -> tuple:
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


def _numbers(value, n: tuple[int, ...], what: str) -> list[float]:
    if not isinstance(value, list) or len(value) not in n:
        raise PathError(f"'{what}' needs {' or '.join(map(str, n))} numbers")
    try:
        return [float(v) for v in value]
    except (TypeError, ValueError):
        raise PathError(f"'{what}' needs numbers") from None


def _shape(data: LMap, palette: dict) -> Shape:
    kinds = [k for k in SHAPE_KINDS if k in data]
    if len(kinds) != 1:
        raise PathError(f"a shape needs exactly one of: {', '.join(SHAPE_KINDS)}")
    for key in data:
        if key not in SHAPE_KINDS and key not in STYLE_KEYS:
            raise PathError(
                f"unknown key '{key}' in icon shape; " + did_you_mean(str(key), SHAPE_KINDS + STYLE_KEYS)
            )
    kind = kinds[0]
    v = data[kind]
    if kind == "path":
        commands = parse_path(str(v))
    elif kind == "circle":
        cx, cy, r = _numbers(v, (3,), "circle")
        commands = _ellipse(cx, cy, r, r)
    elif kind == "ellipse":
        commands = _ellipse(*_numbers(v, (4,), "ellipse"))
    elif kind == "rect":
        nums = _numbers(v, (4, 5), "rect")
        commands = rounded_rect(*nums[:4], nums[4] if len(nums) == 5 else 0)
    elif kind == "poly":
        if not isinstance(v, list) or len(v) < 3:
            raise PathError("'poly' needs a list of at least 3 [x, y] points")
        pts = [_numbers(p, (2,), "poly point") for p in v]
        commands = (("M", *pts[0]), *(("L", *p) for p in pts[1:]), ("Z",))
    else:
        x1, y1, x2, y2 = _numbers(v, (4,), "line")
        commands = (("M", x1, y1), ("L", x2, y2))
    default_fill = None if kind == "line" else "tint"
    fill = _colour(data.get("fill", default_fill), palette)
    stroke = _colour(data.get("stroke", "tint" if kind == "line" else None), palette)
    try:
        sw = float(data.get("stroke_width", 4 if kind == "line" else 3))
        opacity = float(data.get("opacity", 1))
    except (TypeError, ValueError):
        raise PathError("stroke_width and opacity must be numbers") from None
    return Shape(kind, commands, fill, stroke, sw, opacity)


def _colour(value, palette: dict):
    if value is None or value == "none":
        return None
    text = str(value)
    if text == "tint" or _COLOUR.match(text):
        return text.lower()
    if text in palette:
        return palette[text]
    named = {"white": "#ffffff", "black": "#000000", "grey": "#808080", "gray": "#808080"}
    if text in named:
        return named[text]
    raise PathError(f"unknown colour '{text}' (use '#rrggbb', 'tint', 'none' or a palette name)")


def load_icons(
    path: Path, palette: dict, diags: Diagnostics, icons: dict | None = None, reader=None
) -> dict[str, IconDef]:
    """Read an icons file into `icons` (later files override earlier ones)."""
    icons = {} if icons is None else icons
    display = display_path(path)
    try:
        data = load_file(path, display)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return icons
    if not isinstance(data, LMap):
        diags.error(Location(display, 1, 1), "an icons file maps icon names to {tint:, shapes: [...]}")
        return icons
    for name, spec in data.items():
        loc = data.key_loc(name)
        if not isinstance(name, str) or not _NAME.match(name):
            diags.error(loc, f"icon name {name!r} must be lower-case letters, digits, '-' or '_'")
            continue
        if not isinstance(spec, LMap) or not isinstance(spec.get("shapes"), LList):
            diags.error(loc, f"icon '{name}' needs 'shapes', a list of shapes")
            continue
        for key in spec:
            if key not in ("tint", "shapes", "description"):
                diags.error(
                    spec.key_loc(key),
                    f"unknown key '{key}' in icon '{name}'",
                    did_you_mean(str(key), ["tint", "shapes", "description"]),
                )
        try:
            tint = _colour(spec.get("tint", "#000000"), palette) or "#000000"
        except PathError as exc:
            diags.error(spec.loc_of("tint"), str(exc))
            continue
        shapes = []
        for i, shape in enumerate(spec["shapes"]):
            try:
                if not isinstance(shape, LMap):
                    raise PathError("a shape is a mapping such as {circle: [50, 50, 40]}")
                shapes.append(_shape(shape, palette))
            except PathError as exc:
                diags.error(spec["shapes"].loc_at(i), f"icon '{name}': {exc}")
        icons[name] = IconDef(name, tint, tuple(shapes))
    return icons
