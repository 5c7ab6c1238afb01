"""The one pattern for names content gives things: ids of games, components, sides and facts, layout and icon
names. Lower-case letters, digits, '-' and '_', starting with a letter or digit: safe as a file name, never a
path."""

from __future__ import annotations

import re

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_NAME = 64
RULE = "lower-case letters, digits, '-' and '_'"


def is_name(text: object) -> bool:
    return isinstance(text, str) and len(text) <= MAX_NAME and NAME.match(text) is not None
