"""Card lists: a `cards_from` file that holds its cards as written, a YAML or a JSON list of mappings (as a
script or a database exports them), each card and value located at its line and column, as a YAML card file's.

JSON is parsed here with its places (`load_json`): strict JSON (RFC 8259): no comments, no trailing commas, no
NaN or Infinity; a number must be finite; a key given twice, and nesting deeper than YAML's bound
(`source.MAX_DEPTH`), are errors at their place, as in YAML. Strings and numbers are read by the standard
library's own scanners.
"""

from __future__ import annotations

import bisect
import json.decoder
import json.scanner
import math
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.schema.fields import describe
from pnpgen.sheetkinds import KINDS, kind_of
from pnpgen.source import MAX_DEPTH, LList, LMap

_SPACE = " \t\n\r"
_WORDS = {"true": True, "false": False, "null": None}


def list_rows(reader, path: Path, sheet: str | None, loc: Location) -> LList:
    """A card list's cards, read through the game's reader (so the file is an input of the deck)."""
    kind = kind_of(path.name)
    assert kind is not None and not kind.cells
    what = kind.name.split()[0]
    if sheet:
        raise ContentError.at(loc, f"a {what} file has no sheets (got sheet {sheet!r})")
    data = _LISTS[kind.name](reader, path, loc)
    if not isinstance(data, LList):
        where = getattr(data, "loc", Location(display_path(path)))
        raise ContentError.at(where, f"a {what} card file is a list of cards (got {describe(data)})")
    return data


# How each kind of card list is parsed (`sheetkinds.KINDS`: those whose places are not cells).
_LISTS = {
    "YAML list": lambda reader, path, loc: reader.load_yaml(path, "data sheet", loc),
    "JSON list": lambda reader, path, loc: load_json(
        reader.read_text(path, "data sheet", loc), display_path(path)
    ),
}
if {k.name for k in KINDS if not k.cells} != set(_LISTS):
    raise TypeError("pnpgen.sheetkinds.KINDS has a kind of list that pnpgen.schema.cardlists does not read")


def load_json(text: str, display: str):
    """Parse JSON `text`; `display` names the file in messages (`data/cards.json:4:12: error: ...`)."""
    return _Parser(text, display).document()


class _Parser:
    def __init__(self, text: str, display: str):
        self.text, self.display, self.pos = text, display, 0
        self.lines = [i for i, c in enumerate(text) if c == "\n"]

    def loc(self, pos: int) -> Location:
        line = bisect.bisect_left(self.lines, pos)
        return Location(self.display, line + 1, pos - (self.lines[line - 1] + 1 if line else 0) + 1)

    def fail(self, pos: int, message: str) -> ContentError:
        return ContentError.at(self.loc(pos), f"invalid JSON: {message}")

    def skip(self) -> str:
        """Past white space; the next character ('' at the end)."""
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        self.pos = pos
        return text[pos : pos + 1]

    def document(self):
        value = self.value(0)
        if self.skip():
            raise self.fail(self.pos, f"more after the end of the document: {self.text[self.pos]!r}")
        return value

    def value(self, depth: int):
        c = self.skip()
        start = self.pos
        if c and c in "[{":
            if depth >= MAX_DEPTH:
                raise ContentError.at(
                    self.loc(start), f"lists and mappings nest deeper than {MAX_DEPTH} levels"
                )
            self.pos += 1
            return self.mapping(start, depth) if c == "{" else self.sequence(start, depth)
        if c == '"':
            return self.string()
        for word, meaning in _WORDS.items():
            if self.text.startswith(word, start):
                self.pos += len(word)
                return meaning
        found = json.scanner.NUMBER_RE.match(self.text, start)
        if not found:
            raise self.fail(start, f"expected a value, found {c!r}" if c else "the document ends early")
        whole, fraction, exponent = found.groups()
        self.pos = found.end()
        if fraction or exponent:
            number = float(found.group())
            if not math.isfinite(number):
                raise ContentError.at(self.loc(start), f"must be a finite number (got {found.group()})")
            return number
        if len(whole) > 400:  # int() of a longer run of digits is refused by Python itself
            raise ContentError.at(self.loc(start), f"a number of {len(whole)} digits is too large")
        return int(whole)

    def string(self) -> str:
        try:
            text, self.pos = json.decoder.scanstring(self.text, self.pos + 1)  # type: ignore[attr-defined]  # json.decoder has it; typeshed does not list it
        except json.JSONDecodeError as exc:
            raise self.fail(exc.pos, exc.msg.lower().removesuffix(" at").removesuffix(" starting")) from None
        return text

    def sequence(self, start: int, depth: int) -> LList:
        out = LList()
        out.loc, out.item_locs = self.loc(start), []
        if self.skip() == "]":
            self.pos += 1
            return out
        while True:
            self.skip()
            out.item_locs.append(self.loc(self.pos))
            out.append(self.value(depth + 1))
            if self.after(",]") == "]":
                return out

    def mapping(self, start: int, depth: int) -> LMap:
        out = LMap()
        out.loc, out.key_locs, out.val_locs = self.loc(start), {}, {}
        if self.skip() == "}":
            self.pos += 1
            return out
        while True:
            if self.skip() != '"':
                raise self.fail(self.pos, "expected a key in double quotes")
            where = self.loc(self.pos)
            key = self.string()
            if key in out:
                raise ContentError.at(
                    where, f"duplicate key '{key}' (first at line {out.key_locs[key].line})"
                )
            self.after(":")
            self.skip()
            out.key_locs[key], out.val_locs[key] = where, self.loc(self.pos)
            out[key] = self.value(depth + 1)
            if self.after(",}") == "}":
                return out

    def after(self, allowed: str) -> str:
        """One of the `allowed` punctuation characters, next after white space."""
        c = self.skip()
        if not c or c not in allowed:
            expected = " or ".join(f"'{a}'" for a in allowed)
            raise self.fail(self.pos, f"expected {expected}, found {c!r}" if c else f"expected {expected}")
        self.pos += 1
        return c
