"""Card lists: a `cards_from` file that holds its cards as written, a YAML or a JSON list of mappings (as a
script or a database exports them), each card and value located at its line and column, as a YAML card file's.

JSON is parsed here with its places (`load_json`): strict JSON (RFC 8259): no comments, no trailing commas, no
NaN or Infinity; a number must be finite; a key given twice, and nesting deeper than YAML's bound
(`source.MAX_DEPTH`), are errors at their place, as in YAML; so are more values than YAML's bound
(`source.MAX_VALUES`, keys counted) and a lone UTF-16 surrogate escape (`"\\ud800"`: no character, and no
writer could encode it). Strings and numbers are read by the standard library's own scanners.
"""

from __future__ import annotations

import json.decoder
import json.scanner
import math
import re
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.schema.fields import describe
from pnpgen.sheetkinds import KINDS, kind_of
from pnpgen.source import MAX_DEPTH, MAX_VALUES, LList, LMap

_SPACE = re.compile(r"[ \t\n\r]*")
_WORDS = {"true": True, "false": False, "null": None}
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def list_rows(reader, path: Path, sheet: str | None, loc: Location) -> LList:
    """A card list's cards, read through the game's reader (so the file is an input of the deck)."""
    kind = kind_of(path.name)
    assert kind is not None and not kind.cells
    what = kind.name.split()[0]
    if sheet:
        raise ContentError.at(loc, f"a {what} file has no sheets (got sheet {sheet!r})")
    return _listed(_LISTS[kind.name](reader, path, loc), what, display_path(path))


def fetched_rows(data: bytes, url: str, sheet: str | None, loc: Location) -> LList:
    """The cards of a JSON list fetched from `url` (`bounds.remote.kind` tells it from its bytes), located at
    `url:line:column`."""
    from pnpgen.textfiles import decoded, plain_text

    if sheet:
        raise ContentError.at(loc, f"a JSON file has no sheets (got sheet {sheet!r})")
    return _listed(load_json(plain_text(decoded(data, url, "data sheet")), url), "JSON", url)


def _listed(data, what: str, display: str) -> LList:
    if not isinstance(data, LList):
        where = getattr(data, "loc", Location(display))
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
        self.text, self.display, self.pos, self.count = text, display, 0, 0
        self.at, self.line, self.line_start = 0, 1, 0  # the last place located, its line, the line's start

    def loc(self, pos: int) -> Location:
        """The line and column of `pos`, counted on from the last place located (the parser goes forwards; an
        index of every line's start would cost more than the text itself)."""
        if pos < self.at:
            self.at, self.line, self.line_start = 0, 1, 0
        self.line += self.text.count("\n", self.at, pos)
        self.line_start = max(self.line_start, self.text.rfind("\n", self.at, pos) + 1)
        self.at = pos
        return Location(self.display, self.line, pos - self.line_start + 1)

    def tally(self, pos: int) -> None:
        """One more value (or key) at `pos`: past YAML's bound, the file is refused there."""
        self.count += 1
        if self.count > MAX_VALUES:
            raise ContentError.at(self.loc(pos), f"this file holds more than {MAX_VALUES:,} values")

    def fail(self, pos: int, message: str) -> ContentError:
        return ContentError.at(self.loc(pos), f"invalid JSON: {message}")

    def skip(self) -> str:
        """Past white space; the next character ('' at the end)."""
        self.pos = pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # it matches ''
        return self.text[pos : pos + 1]

    def document(self):
        value = self.value(0)
        if self.skip():
            raise self.fail(self.pos, f"more after the end of the document: {self.text[self.pos]!r}")
        return value

    def value(self, depth: int):
        c = self.skip()
        start = self.pos
        self.tally(start)
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
        start = self.pos
        try:
            text, self.pos = json.decoder.scanstring(self.text, self.pos + 1)  # type: ignore[attr-defined]  # json.decoder has it; typeshed does not list it
        except json.JSONDecodeError as exc:
            raise self.fail(exc.pos, exc.msg.lower().removesuffix(" at").removesuffix(" starting")) from None
        if _SURROGATE.search(text):
            at = self.lone_surrogate(start)
            raise self.fail(at, f"'{self.text[at : at + 6]}' is half of a UTF-16 surrogate pair, alone")
        return text

    def lone_surrogate(self, start: int) -> int:
        """Where the string at `start` has a \\u escape of half a surrogate pair without its other half."""
        escapes = [
            (m.start(), m.end(), int(m.group(1) or "0", 16))
            for m in _ESCAPE.finditer(self.text, start, self.pos)
        ]
        i = 0
        while i < len(escapes):
            at, end, code = escapes[i]
            after = escapes[i + 1] if i + 1 < len(escapes) else (-1, -1, 0)
            if 0xD800 <= code < 0xDC00 and after[0] == end and 0xDC00 <= after[2] < 0xE000:
                i += 2  # a pair: one character
                continue
            if 0xD800 <= code < 0xE000:
                return at
            i += 1
        return start  # not reached: a surrogate in the text came from an escape

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
            self.tally(self.pos)
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
