"""Colours as content writes them: '#rrggbb', a palette name, a few plain names, or none. The one parser.

A colour with an alpha byte ('#rrggbbaa') is refused with a message pointing at `opacity`: PDF has no alpha in a
colour, and printing it as another colour would be worse than saying so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

NAMED = {"white": "#ffffff", "black": "#000000", "grey": "#808080", "gray": "#808080"}
NONE_WORDS = ("none", "")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_HEX_ALPHA = re.compile(r"^#[0-9a-fA-F]{8}$")
_SHORT_HEX = re.compile(r"^#[0-9a-fA-F]{3}$")


class ColourError(ValueError):
    """The value is not a colour; the message says what would be."""


def parse_colour(value, palette: Mapping[str, str] | None = None, allow_none: bool = True) -> str | None:
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
    if palette and text in palette:
        return palette[text]
    if text.lower() in NAMED:
        return NAMED[text.lower()]
    raise ColourError(
        f"is not a colour: {text!r} (use '#rrggbb', a palette name, white, black, grey or none)"
    )
