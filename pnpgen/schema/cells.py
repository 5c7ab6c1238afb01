"""A data sheet's cell as a card's value: declared lists and types first, then numbers as numbers, the rest text.

A workbook's numbers stay numbers (`3.0` is `3`); a CSV's text that reads as a number is one, and so is `1,5` in a
CSV separated by ';' (`DecimalComma`: what Excel, Numbers and LibreOffice write in a language whose decimal mark
is a comma), which prints as written.
"""

from __future__ import annotations

import math
import re

from pnpgen.errors import Location
from pnpgen.source import LList

MAX_CELL = 5_000  # characters in one cell
TYPES = ("int", "number", "bool", "text")
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
_TRUE, _FALSE = {"true", "yes", "y", "1", "x"}, {"false", "no", "n", "0", ""}
_COMMA = re.compile(r"^([+-]?\d+),(\d+)$")  # `1,5`: a decimal comma


class DecimalComma(float):
    """A number a sheet writes with a decimal comma (`1,5`), as Excel, Numbers and LibreOffice write numbers in
    a CSV separated by ';' (the CSV of a language whose decimal mark is a comma: German, French...). It is the
    number wherever one is used (`1,5 * 2` is 3.0, `ertrag: 1.5` in facts matches it) and prints as the sheet
    writes it (`Ertrag {{ card.ertrag }}` is `Ertrag 1,5`), the decimal mark the designer chose."""

    text: str

    def __new__(cls, text: str) -> DecimalComma:
        number = super().__new__(cls, text.replace(",", "."))
        number.text = text
        return number

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return self.text if not spec else float.__format__(self, spec)

    def __reduce__(self):  # to a worker process: the text it was read from makes it again
        return (DecimalComma, (self.text,))


def convert(raw, name: str, spec, cell: Location, comma: bool = False):
    """A cell's value: declared lists and types first, then the reserved columns, then numbers as numbers.
    `cell`: where the cell is, which a declared list keeps as its own place; `comma`: `1,5` is a number."""
    if isinstance(spec, dict) and "list" in spec:
        sep = str(spec["list"])
        parts = [p.strip() for p in str(raw).split(sep)] if sep else [str(raw)]
        items = LList(_auto(p, comma) for p in parts if p)
        items.loc, items.item_locs = cell, []
        return items
    # `designed` reads yes/no too; every other reserved column (count, name...) is checked by the card table
    kind = spec if isinstance(spec, str) else ("bool" if name == "designed" else None)
    if kind == "text":
        return _text(raw)
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        word = _text(raw).strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise ValueError(f"must be true or false (got {_text(raw)!r})")
    value = _auto(raw, comma)
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"must be a whole number (got {_text(raw)!r})")
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        mark = re.fullmatch(r"\s*(-?\d+),(\d+)\s*", _text(raw))  # a decimal comma outside a ';' CSV
        said = f": write a decimal point, {mark[1]}.{mark[2]}" if mark else ""
        raise ValueError(f"must be a number (got {_text(raw)!r}{said})")
    return value


def _auto(raw, comma: bool = False):
    """Numbers stay numbers (3.0 from a workbook is 3); text that reads as a number is one (`1,5` too when
    `comma`: a `DecimalComma`); the rest is text."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise ValueError(f"must be a finite number (got {raw!r})")
        return int(raw) if raw.is_integer() and abs(raw) < 2**53 else raw
    if isinstance(raw, int):
        return raw
    text = _text(raw).strip()
    if _INT.match(text) and len(text) < 16:
        return int(text)
    if _FLOAT.match(text) and len(text) < 32:
        number = float(text)
        if not math.isfinite(number):
            raise ValueError(f"must be a finite number (got {text!r})")
        return number
    if comma and _COMMA.match(text) and len(text) < 32:
        return DecimalComma(text)
    return text


def _text(raw) -> str:
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if hasattr(raw, "isoformat"):
        return raw.isoformat()
    text = str(raw)
    if len(text) > MAX_CELL:
        raise ValueError(f"holds {len(text):,} characters; the limit is {MAX_CELL:,}")
    return text
