"""Colours as content writes them: '#rrggbb', 'cmyk(c, m, y, k)', a palette name, a few plain names, or none.
The one parser.

A colour is carried through pnpgen as a string: '#rrggbb' (lower case) for RGB, 'cmyk(c,m,y,k)' (percentages, no
spaces) for a process colour the designer chose, which the renderer draws as DeviceCMYK and a CMYK target keeps
exactly. `rgb_of` gives any colour as RGB fractions (a CMYK colour by the plain formula r = (1 - c)(1 - k)) for what
needs RGB: previews, PNG exports, the low-ink transform. `rgb_to_cmyk` is the documented separation a CMYK
target uses for RGB colours.

A colour with an alpha byte ('#rrggbbaa') is refused with a message pointing at `opacity`: PDF has no alpha in a
colour, and printing it as another colour would be worse than saying so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import get_close_matches

NAMED = {"white": "#ffffff", "black": "#000000", "grey": "#808080", "gray": "#808080"}
NONE_WORDS = ("none", "")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_HEX_ALPHA = re.compile(r"^#[0-9a-fA-F]{8}$")
_SHORT_HEX = re.compile(r"^#[0-9a-fA-F]{3}$")
_NUM = r"\s*(\d+(?:\.\d+)?|\.\d+)\s*%?\s*"
_CMYK = re.compile(rf"^cmyk\({_NUM},{_NUM},{_NUM},{_NUM}\)$", re.IGNORECASE)


class ColourError(ValueError):
    """The value is not a colour; the message says what would be."""


def parse_colour(
    value: object, palette: Mapping[str, str] | None = None, allow_none: bool = True
) -> str | None:
    """'#rrggbb' (lower case) for a colour, None for none; ColourError otherwise."""
    if value is None or (isinstance(value, str) and value.strip().lower() in NONE_WORDS):
        if allow_none:
            return None
        raise ColourError("must be a colour, not none")
    if not isinstance(value, str):
        raise ColourError(f"must be a colour such as '#1f3a5c' (got {type(value).__name__} {value!r})")
    text = value.strip()
    if _HEX.match(text):
        return text.lower()
    if _HEX_ALPHA.match(text):
        raise ColourError(
            f"{text!r} has an alpha byte; give the colour as '#rrggbb' and its transparency as 'opacity'"
        )
    if _SHORT_HEX.match(text):
        return "#" + "".join(ch * 2 for ch in text[1:]).lower()
    if text.lower().startswith("cmyk"):
        return _parse_cmyk(text)
    if palette and text in palette:
        return palette[text]
    if text.lower() in NAMED:
        return NAMED[text.lower()]
    names = [str(name) for name in (*(palette or {}), *NAMED, "none")]  # a misspelt name: the nearest one
    near = [] if text.startswith("#") else get_close_matches(text, names, 1)
    raise ColourError(
        f"is not a colour: {text!r} (use '#rrggbb', '#rgb', 'cmyk(c, m, y, k)', a palette name, white, black, grey or none)"
        + "".join(f"; did you mean {n!r}?" for n in near)
    )


def _parse_cmyk(text: str) -> str:
    m = _CMYK.match(text)
    if not m:
        raise ColourError(
            f"is not a colour: {text!r} (cmyk() takes four percentages from 0 to 100, such as 'cmyk(0, 60, 100, 0)')"
        )
    values = [float(v) for v in m.groups()]
    if any(v > 100 for v in values):
        raise ColourError(f"is not a colour: {text!r} (each cmyk() percentage is from 0 to 100)")
    return "cmyk(" + ",".join(f"{round(v, 2):g}" for v in values) + ")"


def is_cmyk(colour: str) -> bool:
    return colour.startswith("cmyk(")


def cmyk_of(colour: str) -> tuple[float, float, float, float]:
    """A parsed 'cmyk(...)' colour as fractions 0..1."""
    c, m, y, k = (float(v) / 100 for v in colour[5:-1].split(","))
    return c, m, y, k


def rgb_of(colour: str) -> tuple[float, float, float]:
    """Any parsed colour as RGB fractions; CMYK by r = (1 - c)(1 - k), and so on (no profile: a preview)."""
    if is_cmyk(colour):
        c, m, y, k = cmyk_of(colour)
        return (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
    return int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255


def rgb_to_cmyk(r: float, g: float, b: float, ink_limit: float = 4.0) -> tuple[float, float, float, float]:
    """The separation a CMYK target uses for an RGB colour (fractions 0..1): all the grey goes to black,
    k = 1 - max(r, g, b), c = (1 - r - k) / (1 - k) and so on; then, if c + m + y + k is over `ink_limit`
    (2.4 for 240 %), c, m and y are scaled down together until it is not (black is kept: it carries text and
    detail). Pure black is 0 0 0 100; white is 0 0 0 0."""
    k = 1 - max(r, g, b)
    if k >= 1 - 1e-9:
        return 0.0, 0.0, 0.0, 1.0
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    total = c + m + y
    if total + k > ink_limit and total > 0:
        scale = max(0.0, ink_limit - k) / total
        c, m, y = c * scale, m * scale, y * scale
    return c, m, y, k
