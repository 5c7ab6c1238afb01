"""Tables of keys: what a content mapping may hold, and the one reader that applies a table to a located mapping.

A `Table` lists each key of a mapping (a deck, a card, a fact...) with its converter, whether it is required or
its default, and a one-line doc (docs/content-format.md shows the same keys; tests/test_docs.py holds the two
together). `Table.read` converts every value, reports each problem at the value's file:line:column, and reports
keys the table does not know with a did-you-mean.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pnpgen import units
from pnpgen.colours import ColourError, parse_colour
from pnpgen.errors import Diagnostics, Location, did_you_mean
from pnpgen.model import Row
from pnpgen.names import DEVICE_RULE, MAX_NAME, RULE, is_name, rule_of, suggested
from pnpgen.source import LList, LMap

MAX_COUNT = 10_000  # copies of one card


class Invalid(ValueError):
    """A converter's complaint about one value; `at` places it somewhere inside the value instead."""

    def __init__(self, message: str, at: Location | None = None):
        super().__init__(message)
        self.at = at


class Problems(ValueError):
    """Several located complaints from one converter (a mapping whose entries are checked one by one)."""

    def __init__(self, items: list[tuple[Location, str]]):
        super().__init__("; ".join(m for _, m in items))
        self.items = items


PROBLEMS = (Invalid, Problems, units.UnitError, ColourError)  # what a converter may raise about content


@dataclass(frozen=True)
class Key:
    """One key of a mapping."""

    name: str
    convert: Callable[..., Any] | None = None  # None: the value as written
    doc: str = ""
    required: bool = False
    default: Any = None  # when the key is absent (never converted)
    takes: tuple[str, ...] = ()  # what the converter needs besides the value: 'loc' (the value's location),
    # an earlier key's converted value, or a name given to `read(context=...)`
    bare: bool = False  # the converter's message reads on its own, without the key's name in front


class Values(dict):
    """The converted values of a mapping (every key of the table; absent ones at their default)."""

    data: LMap
    given: frozenset  # keys the mapping sets (converted or not)
    ok: bool  # no problem was reported

    def loc_of(self, key) -> Location:
        return self.data.loc_of(key)

    @property
    def loc(self) -> Location:
        return self.data.loc

    def fields(self) -> dict:
        """The keys of an open mapping that the table does not name (a card's own fields), as written."""
        return {k: v for k, v in self.data.items() if k not in self}


@dataclass(frozen=True)
class Table:
    what: str  # how messages name the mapping: "deck", "board side", "fact"
    keys: tuple[Key, ...]
    open: bool = False  # keys not in the table are the mapping's own fields (a card's), not mistakes
    title: str = ""  # the heading of its table in docs/content-format.md, when it differs from what

    def __post_init__(self):
        names = [k.name for k in self.keys]
        assert len(names) == len(set(names)), f"{self.what}: a key is listed twice"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys)

    @property
    def heading(self) -> str:
        return self.title or f"Keys of {_article(self.what)}"

    def key(self, name: str) -> Key:
        return next(k for k in self.keys if k.name == name)

    def read(
        self,
        data: LMap,
        diags: Diagnostics,
        what: str | None = None,
        context: Mapping[str, Any] | None = None,
        at_item: bool = False,
    ) -> Values:
        """Convert each key of `data`; problems go to `diags`. `what` names this mapping in messages (default: the
        table's); with `at_item` problems are placed on the whole mapping as '<what>: <problem>'."""
        what = what or self.what
        context = context or {}
        mark = len(diags.items)  # its own problems come after: counted without a pass over all the others
        out = Values()
        out.data = data
        for key in self.keys:
            if key.name not in data:
                if key.required:
                    diags.error(data.loc, f"{what} needs '{key.name}'")
                out[key.name] = key.default
                continue
            value = data[key.name]
            if key.convert is None:
                out[key.name] = value
                continue
            extra = [_context(name, key, data, out, context) for name in key.takes]
            try:
                out[key.name] = key.convert(value, *extra)
            except Problems as exc:
                for loc, message in exc.items:
                    diags.error(loc, message)
                out[key.name] = key.default
            except PROBLEMS as exc:
                message = str(exc) if key.bare else f"'{key.name}' {exc}"
                if at_item:
                    diags.error(data.loc, f"{what}: {message}")
                else:
                    diags.error(getattr(exc, "at", None) or data.loc_of(key.name), message)
                out[key.name] = key.default
        if not self.open:
            for name in data:
                if name not in out:
                    diags.error(
                        data.key_loc(name), f"unknown key '{name}' in {what}", did_you_mean(str(name), out)
                    )
        out.given = frozenset(k for k in data if k in out)
        out.ok = not any(d.severity == "error" for d in diags.items[mark:])
        return out


def _context(name: str, key: Key, data: LMap, got: dict, context: Mapping[str, Any]):
    if name == "loc":
        return data.loc_of(key.name)
    if name in got:
        return got[name]
    return context[name]


def _article(what: str) -> str:
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"


# -- converters ------------------------------------------------------------------------------------------------


def describe(value) -> str:
    if isinstance(value, LMap):
        return "a mapping"
    if isinstance(value, LList):
        return "a list"
    if value is None:
        return "nothing"
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def as_str(value) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        raise Invalid(f"must be text (got {describe(value)})")
    return str(value)


def as_id(value) -> str:
    text = as_str(value)
    if len(text) > MAX_NAME:
        raise Invalid(f"must be an id of at most {MAX_NAME} characters (got {len(text)})")
    if not is_name(text):
        if rule_of(text) != RULE:
            raise Invalid(
                f"must be an id that is {DEVICE_RULE}: Windows can make no file '{text}.pdf' "
                f"(use '{suggested(text)}')"
            )
        raise Invalid(f"must be an id of {RULE} (got {text!r}; use '{suggested(text)}')")
    return text


def as_count(value) -> int:
    """A card's copies: 0 leaves it out of the build (its row or item stays, for a later print)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"must be a whole number from 0 to {MAX_COUNT:,} (got {describe(value)})")
    if not 0 <= value <= MAX_COUNT:
        raise Invalid(f"must be from 0 to {MAX_COUNT:,} (got {value})")
    return value


def as_whole(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"must be a whole number (got {value!r})")
    return value


def as_number(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Invalid(f"must be a number (got {describe(value)})")
    try:
        number = float(value)
    except OverflowError:  # a whole number past 1e308
        raise Invalid(f"is too large (got {describe(value)})") from None
    if not math.isfinite(number):
        raise Invalid(f"must be a finite number (got {describe(value)})")
    return number


def as_bool(value) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"must be true or false (got {describe(value)})")
    return value


def as_length(value) -> float:
    pt = units.to_pt(value)
    if pt < 0:
        raise Invalid(f"must not be negative (got {value!r})")
    return pt


def as_players(value) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    else:
        m = re.match(r"^\s*(\d+)\s*[-–]\s*(\d+)\s*$", str(value))
        if not m:
            raise Invalid(f"must be a number or a range such as '2-4' (got {value!r})")
        lo, hi = int(m.group(1)), int(m.group(2))
    if not 1 <= lo <= hi <= 100:
        raise Invalid(f"must be a range of players from 1 to 100 (got {value!r})")
    return lo, hi


def as_colour(value) -> str:
    """A colour written out ('#rrggbb', '#rgb' or white, black, grey): the one parser, `pnpgen.colours`."""
    colour = parse_colour(value, None, allow_none=False)
    assert colour is not None
    return colour


def as_expression(value):
    """A Jinja expression, or a plain number; compiled by whoever evaluates it."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        raise Invalid(f"must be an expression or a number (got {describe(value)})")
    return value


def mapping(message: str = "must be a mapping") -> Callable[[Any], LMap]:
    def convert(value) -> LMap:
        if not isinstance(value, LMap):
            raise Invalid(message)
        return value

    return convert


def listing(message: str = "must be a list") -> Callable[[Any], LList]:
    def convert(value) -> LList:
        if not isinstance(value, LList):
            raise Invalid(message)
        return value

    return convert


def each_value(convert: Callable[[Any], Any], label: str, message: str) -> Callable[[Any], Mapping]:
    """A mapping whose every value goes through `convert`; each problem is placed at its own value, as
    '<label> <problem>' (label may name the entry's key as {key}). `message`: when it is not a mapping at all."""

    def each(value) -> Mapping:
        if not isinstance(value, LMap):
            raise Invalid(message)
        out, problems = {}, []
        for k, v in value.items():
            try:
                out[str(k)] = convert(v)
            except PROBLEMS as exc:
                problems.append((value.loc_of(k), f"{label.format(key=k)} {exc}"))
        if problems:
            raise Problems(problems)
        return MappingProxyType(out)

    return each


def freeze(value, located: bool = False):
    """Located YAML data -> read-only plain data for templates (locations kept on the originals); `located`
    keeps each mapping's place with it (`model.Row`: a board's data rows, reported where they are written)."""
    if isinstance(value, dict):
        frozen = {k: freeze(v, located) for k, v in value.items()}
        if located and isinstance(value, LMap):
            return Row(frozen, value.loc, value.val_locs)
        return MappingProxyType(frozen)
    if isinstance(value, list):
        return tuple(freeze(v, located) for v in value)
    return value
