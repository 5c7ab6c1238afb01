"""A value written as YAML the way a person writes it: `12.5` (never `12.500000001`), a string plain when it
reads back the same and quoted the way the file already quotes it otherwise, a list in flow style."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pnpgen.errors import ContentError
from pnpgen.source import Node, load_text

_NUMBER = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)$")
MAX_DECIMALS = 3  # a length is written to 0.1 mm, or as finely as its file already writes them (up to this)


def decimals_of(text: str) -> int:
    """Digits after the point of a number as written (`12.25` -> 2, `12` -> 0)."""
    t = text.strip().lower()
    if "e" in t or "." not in t:
        return 0
    return len(t.split(".", 1)[1].rstrip())


def number(value: float, places: int, kept: int = 0) -> str:
    """`value` to `places` decimals, trailing zeros dropped but for `kept` of them (the number it replaces was
    written `1.0`: so is its successor, `2.0`): 12.5, 10, -3.25, never -0."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and not kept:
        return str(value)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    places = max(places, kept)
    text = f"{round(value, places):.{places}f}"
    if "." in text:
        whole, frac = text.split(".")
        frac = frac.rstrip("0").ljust(kept, "0")
        text = whole + ("." + frac if frac else "")
    if text.startswith("-") and text.strip("-0.") == "":  # -0, -0.0: zero
        text = text[1:]
    return text


def _reads_back(text: str, value: Any, flow: bool) -> bool:
    probe = "{k: " + text + "}" if flow else "k: " + text
    try:
        loaded = load_text(probe, "value")
    except ContentError:
        return False
    return isinstance(loaded, dict) and type(loaded.get("k")) is type(value) and loaded.get("k") == value


def string(value: str, old: Node | None, flow: bool, indent: int) -> str:
    """`value` as a YAML scalar: in the old scalar's style when it had one that can hold it."""
    style = old.style if old is not None and old.kind == "scalar" else None
    if style in ("|", ">") and old is not None and value[:1] not in (" ", "\n", ""):
        if not any(line[:1] == " " for line in value.split("\n")):
            return _block(value, old, indent)
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style is None and "\n" not in value and value == value.strip() and _reads_back(value, value, flow):
        return value
    if style == "'" or (style is None and "'" not in value and "\n" not in value and '"' in value):
        if "\n" not in value and _reads_back("'" + value.replace("'", "''") + "'", value, flow):
            return "'" + value.replace("'", "''") + "'"
    return json.dumps(value, ensure_ascii=False)  # a double-quoted YAML scalar: JSON's escapes are YAML's


def _block(value: str, old: Node, indent: int) -> str:
    """A block scalar (| or >) keeps its style when the text allows (no line starting with a space), its lines
    indented `indent`; without its final line ending (the caller keeps what followed the old one)."""
    body = value.rstrip("\n")
    ends = len(value) - len(body)
    chomp = "-" if ends == 0 else "" if ends == 1 else "+"
    style = ">" if old.style == ">" and "\n" not in body else "|"
    lines = [(" " * indent + line) if line else "" for line in body.split("\n")]
    return style + chomp + "\n" + "\n".join(lines) + "\n" * max(ends - 1, 0)


def scalar(value: Any, old: Node | None, places: int, flow: bool, indent: int) -> str:
    """Any value a layout or a card takes, as YAML text; `places`: decimals for a non-integer number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        kept = 0
        if old is not None and old.kind == "scalar" and old.style is None and _NUMBER.match(old.text):
            # zeros kept only where the old number showed them (`1.0`, `12.50`): 17.75 moved is 25.1, not 25.10
            kept = decimals_of(old.text) if old.text.strip().endswith("0") and "." in old.text else 0
        return number(value, places, kept)
    if isinstance(value, str):
        return string(value, old, flow, indent)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(scalar(v, None, places, True, indent) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(
            f"{scalar(str(k), None, places, True, indent)}: " + scalar(v, None, places, True, indent)
            for k, v in value.items()
        )
        return "{" + inner + "}"
    raise ValueError(f"cannot write a {type(value).__name__} as a layout value")
