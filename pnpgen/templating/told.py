"""A template's mistake told in a designer's words: pnpgen's own types named as a designer knows them, and a
text met where a number is needed said to be one, with how a data sheet's cell reads as a number."""

from __future__ import annotations

import re

# pnpgen's own containers a template may hold, named as a designer knows them (never `pnpgen.recorded.View`)
_TYPE_WORDS = {
    "View": "mapping",
    "ListView": "list",
    "Fields": "mapping",
    "LocatedFields": "mapping",
    "Palette": "mapping",
    "Items": "list",
    "FrozenItems": "list",
    "LMap": "mapping",
    "LList": "list",
    "StrictUndefined": "undefined value",
    "Undefined": "undefined value",
}
_INTERNAL_TYPE = re.compile(r"\b(?:pnpgen\.[\w.]*\.)?(" + "|".join(_TYPE_WORDS) + r")\b")
_PNPGEN_NAME = re.compile(r"\bpnpgen(?:\.\w+)+")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def plain_words(message: str) -> str:
    """A template error as a designer reads it: pnpgen's own container types named `mapping` or `list`, never
    by their class (`'pnpgen.recorded.View object'`), and no other name of pnpgen's code."""
    message = _INTERNAL_TYPE.sub(lambda m: _TYPE_WORDS[m.group(1)], message)
    message = _ADDRESS.sub("", message)  # an object's place in memory: another in every process
    return _PNPGEN_NAME.sub("value", message)


# Python's words for a text met where a number is needed (`card.cost + 1`, `range(card.cost)`, `card.cost < 3`,
# `card.cost | round`): most often a sheet's cell that does not read as a number
_TEXT_FOR_NUMBER = re.compile(
    r"must be real number, not str|'str' object cannot be interpreted as an integer|type str doesn't define|"
    r"can only concatenate str|not supported between instances of '(str|int|float)' and '(str|int|float)'|"
    r"unsupported operand type\(s\) for .*'str'|can't multiply sequence by non-int"
)
TEXT_FOR_NUMBER = (
    ": a text where a number is needed (a sheet's cell is a number when it reads as one, `2.5`, or `1,5` in a"
    " CSV separated by ';')"
)


def text_for_number(message: str) -> bool:
    """Whether Python's TypeError `message` is a text met where a number is needed."""
    return _TEXT_FOR_NUMBER.search(message) is not None
