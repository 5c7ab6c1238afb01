"""Which of a card's cells a drawing problem is to blame on.

A problem found while a face is drawn (a colour that is no colour, an unknown icon, a template that cannot be
evaluated, a number out of range) is located at the layout's value. When that value reads one field of the card
and the card came from a data sheet, the field's cell is where the designer must look: the problem is reported
there (`data/cards.xlsx:Market!E10`, `data/cards.csv:11:5`), saying which layout value used it. A value that
reads several fields, or none, or a field the card does not give itself (a deck's `defaults:`), stays at the
layout's line, and the card's label names its row. A value that reads a field the card lacks, where the sheet
heads a column of a close name that no value reads, is told at that header cell (`misspelt`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from pnpgen.errors import Location
from pnpgen.model import CARD_KEYS

_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")  # a name a template may read (not an attribute)

NOBODY: Mapping[str, Location] = {}


def reads_of(layout) -> dict[Location, frozenset | None]:
    """Each templated value of `layout` by its place: the card fields it reads (None: the whole card), with
    those of the layout's `vars` it names and, inside a `for_each`, those of the list it repeats over."""
    named: dict[str, frozenset | None] = {}  # a layout variable or a loop's item -> the card fields behind it
    for name, v in layout.vars:
        named[name] = _reads(v, named)
    out: dict[Location, frozenset | None] = {}
    for name, v in layout.vars:
        out[v.loc] = named[name]
    for el in layout.elements:
        inner = named
        if el.for_each is not None:
            out[el.for_each.loc] = _reads(el.for_each, named)
            inner = {**named, el.as_name: out[el.for_each.loc]}
        for v in [*el.props.values(), *([el.when] if el.when is not None else [])]:
            out[v.loc] = _reads(v, inner)
    return out


def _reads(v, named: Mapping[str, frozenset | None]) -> frozenset | None:
    if v.is_constant or v.compiler is None:
        return frozenset()
    fields = v.compiler.deps(v)
    for word in set(_NAME.findall(v.raw)) & named.keys() if isinstance(v.raw, str) else ():
        more = named[word]
        if fields is None or more is None:
            return None
        fields |= more
    return fields


def blamed(
    loc: Location,
    message: str,
    cells: Mapping[str, Location],
    reads: Mapping[Location, frozenset | None],
    heads: Mapping[str, Location] = NOBODY,
) -> tuple[Location, str]:
    """(where, message) of a problem at `loc`: the card's cell when the value there reads that one field; the
    header cell of a column of a close name (`misspelt`) when the card has no such field."""
    if not cells:
        return loc, message
    fields = reads.get(loc)
    if not fields or len(fields) != 1:
        return loc, message
    (name,) = fields
    cell = cells.get(name)
    if cell is None:
        return misspelt(loc, message, name, heads, reads)
    return cell, f"{message} (field '{name}', used at {loc})".lstrip()


def misspelt(
    loc: Location,
    message: str,
    name: str,
    heads: Mapping[str, Location],
    reads: Mapping[Location, frozenset | None],
) -> tuple[Location, str]:
    """A value reads a field the sheet's card does not have, and the sheet heads a column of a close name that no
    value of the layout reads: that header is most likely misspelt (`forse` for `force`). Told at its cell, once
    for every card of the sheet, saying which value read what (the template's own did-you-mean can only offer
    the misspelling to the layout). A reserved key (`count`, `name`...) is never the misspelt one: `card.cots`
    is the layout's mistake."""
    read: set[str] = set()
    for fields in reads.values():
        if fields is None:
            return loc, message  # the card is read whole somewhere: no column can be said to be unread
        read |= fields
    close = difflib.get_close_matches(name, sorted(set(heads) - read - CARD_KEYS), n=1, cutoff=0.6)
    if not close:
        return loc, message
    said = f"the header names '{close[0]}', which no value of the layout reads: misspelt here?"
    return heads[close[0]], f"{message} (field '{name}', used at {loc}; {said})"
