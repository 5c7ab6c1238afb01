"""The numbers in an SVG file: every one finite and in range before svglib reads it, and again in the drawing
svglib made of it, so that no NaN, infinity or number no PDF can hold reaches a page from SVG art or icons.

`check_tree` reads the parsed file (lxml's elements, duck-typed: no lxml here) and names the element and its
line: geometry (`x`, `r`, `points`, path data, `viewBox`), `transform`s, gradient stops, strokes and dashes,
opacities and font sizes, whether given as attributes, in a `style` attribute or in a `<style>` sheet.
`check_drawing` walks what svglib drew (paths, transforms, colours, gradient stops) for any number that still
got through, and bounds where the whole drawing lands once its transforms are composed.
"""

from __future__ import annotations

import math
import re
from typing import Any

MAX_SVG_NUMBER = 1_000_000.0  # any number an SVG writes: its size is already below this (svg._measure)
MAX_DRAWN = (
    1e9  # where anything lands once transforms are composed: far past any page, far below what PDF holds
)
MIN_DASH = 0.001  # a dash pattern shorter than this asks a printer for millions of dashes

# attributes (and CSS properties) that hold numbers, each with the least it may be (None: any sign)
_SINGLE: dict[str, float | None] = {
    **dict.fromkeys("x y dx dy cx cy x1 y1 x2 y2 fx fy offset stroke-dashoffset".split()),
    **dict.fromkeys(
        "width height r rx ry fr stroke-width font-size stroke-miterlimit pathLength".split(), 0.0
    ),
    **dict.fromkeys("opacity fill-opacity stroke-opacity stop-opacity".split()),
}
_LISTS: dict[str, float | None] = {
    "points": None,
    "viewBox": None,
    "d": None,
    "transform": None,
    "gradientTransform": None,
    "patternTransform": None,
    "stroke-dasharray": 0.0,
}
_COLOURS = frozenset("fill stroke stop-color color flood-color lighting-color".split())  # rgb(...), hsl(...)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
# NaN and infinity as float() reads them; no keyword, colour name or path command holds these letters
_NOT_FINITE = re.compile(r"nan|inf", re.I)
_NOT_NUMBERS = re.compile(r"url\([^)]*\)|#[0-9a-z]*", re.I)  # in a colour: a gradient's name, a hex colour
_DECLARATION = re.compile(r"([A-Za-z-]+)\s*:\s*([^;{}]*)")


class NumberError(ValueError):
    """A number that cannot be drawn; `line` is the element's in the file (0 when unknown)."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.message, self.line = message, line


def _tag(el: Any) -> str:
    tag = el.tag if isinstance(el.tag, str) else ""
    return tag.rpartition("}")[2]


def check_tree(root: Any) -> None:
    """Every number the file writes, at its element: finite, within ±MAX_SVG_NUMBER, and not negative where SVG
    forbids it (stroke widths, dash lengths, radii, sizes). Raises NumberError with the element's line."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        a = "an" if _tag(el)[:1] in ("a", "e", "i", "o", "u") or _tag(el) == "svg" else "a"  # an <ellipse>
        where = f"{a} <{_tag(el)}> whose '{{}}'"
        for key, value in el.attrib.items():
            if "}" not in key:  # SVG's own attributes (an editor's, such as sodipodi:cx, draw nothing)
                _check(key, value, where, el)
        style = el.get("style")
        if style:
            for name, value in _DECLARATION.findall(style):
                _check(name.strip(), value, f"{a} <{_tag(el)}> whose '{{}}' (in its style)", el)
        if _tag(el) == "style" and el.text:
            for name, value in _DECLARATION.findall(el.text):
                _check(name.strip(), value, "a <style> sheet whose '{}'", el)


def _check(name: str, value: str, where: str, el: Any) -> None:
    if name in _COLOURS:
        least, listed = None, True
        value = _NOT_NUMBERS.sub("", value)  # `url(#inf)` names a gradient, `#2e7d32` is no 2e7
    elif name in _SINGLE:
        least, listed = _SINGLE[name], False
    elif name in _LISTS:
        least, listed = _LISTS[name], True
    else:
        return
    line = el.sourceline or 0
    where, value = where.format(name), value.strip()
    shown = value if len(value) <= 40 else value[:37] + "..."
    found = _NOT_FINITE.search(value)
    if found:
        raise NumberError(f"has {where} is not a finite number ('{shown}')", line)
    numbers = []
    for text in _NUMBER.findall(value):
        number = float(text)
        if not math.isfinite(number) or abs(number) > MAX_SVG_NUMBER:
            raise NumberError(
                f"has {where} is beyond ±{MAX_SVG_NUMBER:,.0f} ('{short(text)}'), "
                "further than any drawing reaches",
                line,
            )
        if least is not None and number < least and name not in _COLOURS:
            raise NumberError(f"has {where} is negative ('{shown}'), which SVG does not allow", line)
        numbers.append(number)
        if not listed:
            break
    if name == "stroke-dasharray" and numbers and sum(numbers) < MIN_DASH:
        raise NumberError(
            f"has {where} adds up to less than {MIN_DASH} ('{shown}'): too fine to print; "
            "use 'none' for a solid line",
            line,
        )


def short(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."


def check_drawing(drawing: Any) -> None:
    """What svglib drew: every number in every shape (coordinates, transforms, dashes, colours and their alpha,
    gradient stops) finite, and the whole drawing, its transforms composed, within ±MAX_DRAWN. Raises
    NumberError naming the kind of shape and the attribute."""
    stack: list[tuple[Any, str]] = [(drawing, "drawing")]  # a loop, not recursion: any depth svglib made
    seen: set[int] = set()
    isfinite, number = math.isfinite, (int, float)
    while stack:
        value, where = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            items = [(v, where) for v in value]
        elif hasattr(value, "__dict__") and type(value).__module__.startswith(("reportlab", "svglib")):
            kind = type(value).__name__
            items = [(v, f"{kind}.{attr}") for attr, v in vars(value).items()]
        else:
            continue
        for v, at in items:
            if isinstance(v, number):  # bool among them: finite
                if not isfinite(v) or abs(v) > MAX_DRAWN:
                    raise NumberError(
                        f"draws a number that is not finite or too large ({v!r}, in {at.replace('._', '.')})"
                    )
            elif v is not None and not isinstance(v, str):
                stack.append((v, at))
    try:
        bounds = drawing.getBounds()
    except Exception:  # nothing drawn: no bounds
        return
    if not all(math.isfinite(b) and abs(b) <= MAX_DRAWN for b in bounds):
        raise NumberError(
            "draws beyond any page once its transforms are combined (a scale too large?); "
            f"its extent reaches {max(abs(b) for b in bounds):.3g}"
        )
