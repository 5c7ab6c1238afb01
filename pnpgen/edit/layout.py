"""Layout elements changed in place: one element's values, an element added, deleted, duplicated or moved in
the order. See `pnpgen.edit` for the API; `textfile` keeps every byte not edited."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen.edit import mapping
from pnpgen.edit.textfile import TextFile, digest, read, write
from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean
from pnpgen.layout.elements import COMMON_KEYS, TYPES
from pnpgen.layout.kinds import Length
from pnpgen.source import LList, LMap, Node, load_text, outline
from pnpgen.textfiles import plain_text

Ref = str | int  # an element's `id:`, or its position in a list of elements (from 0)


@dataclass(frozen=True)
class Edit:
    """What a call changed: the file, its digest before and after, and the changed lines of the new file
    (1-based number, text without its line ending)."""

    path: Path
    before: str
    digest: str
    lines: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Where:
    """Where an element is defined: the file (of the layout's `extends` chain), the line of its item and its
    position in that file's `elements:`; whether dragging may move it, and if not why and the line to edit."""

    path: Path
    line: int
    index: int
    id: str | None
    movable: bool
    why: str = ""
    edit_line: int = 0


@dataclass
class Opened:
    tf: TextFile
    root: Node
    data: LMap
    seq: Node  # the `elements:` list
    raw: LList


def open_layout(path: Path, expect_digest: str | None) -> Opened:
    tf = read(path, expect_digest)
    data = load_text(tf.plain, tf.display)
    root = outline(tf.plain, tf.display)
    if not isinstance(data, LMap) or root is None or root.kind != "map":
        raise ContentError.at(Location(tf.display, 1, 1), "a layout is a mapping with 'elements'")
    raw = data.get("elements")
    seq = next((v for k, v in root.items if k.kind == "scalar" and k.text == "elements"), None)
    if not isinstance(raw, LList) or seq is None or seq.kind != "seq":
        raise ContentError.at(data.loc_of("elements"), "'elements' must be a list of elements")
    return Opened(tf, root, data, seq, raw)


def index_of(o: Opened, element: Ref) -> int:
    """The position in the file's `elements:` of an element named by id or position."""
    if isinstance(element, int) and not isinstance(element, bool):
        if 0 <= element < len(o.raw):
            return element
        raise ContentError.at(
            o.raw.loc,
            f"no element {element} in this file: it has {len(o.raw)} (counted from 0)",
        )
    ids = [e.get("id") if isinstance(e, LMap) else None for e in o.raw]
    if element in ids:
        return ids.index(element)
    hint = did_you_mean(str(element), [str(i) for i in ids if i is not None]) if any(ids) else ""
    if "extends" in o.data:
        hint = (
            hint + "; " if hint else ""
        ) + f"it may be defined by the layout this one extends, '{o.data['extends']}'"
    raise ContentError.at(
        o.raw.loc, f"no element with id '{element}' in this file", hint or "no element has an id"
    )


def element_node(o: Opened, i: int) -> Node:
    node = o.seq.items[i]
    if node.kind != "map" or not isinstance(o.raw[i], LMap):
        raise ContentError.at(
            o.raw.loc_at(i), "an element written as an alias or a non-mapping cannot be edited here"
        )
    return node


def places_of(o: Opened) -> int:
    """Decimals a new length gets: 1 (0.1 mm), or as many as the file already writes (at most 3)."""
    return mapping.places(o.root)


def finish(o: Opened, new_text: str, index: int | None, wanted: dict[str, Any] | None = None) -> Edit:
    """Check the new text as the build would (and that element `index` reads back with the `wanted` values),
    then write it: a refused edit writes nothing."""
    tf = o.tf
    plain = plain_text(new_text)
    data = load_text(plain, tf.display)
    raw = data.get("elements") if isinstance(data, LMap) else None
    if not isinstance(raw, LList):
        raise ContentError.at(Location(tf.display, 1, 1), "'elements' must be a list of elements")
    diags = Diagnostics()
    check_elements(raw, diags, [index] if index is not None else range(len(raw)))
    diags.raise_if_errors()
    if wanted and index is not None:
        reads_back(raw[index], wanted, raw.loc_at(index))
    written = write(tf, new_text)
    return Edit(tf.path, tf.digest, digest(written), changed_lines(tf.plain, plain))


def reads_back(new: Mapping[str, Any], wanted: dict[str, Any], loc: Location) -> None:
    """Each wanted value as the new text reads it: the same (a number to its written precision), or refused."""
    for key, value in wanted.items():
        got = new.get(key)
        if value is None:
            same = key not in new
        elif isinstance(value, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
            same = abs(got - value) <= 1e-9 * max(1.0, abs(value))
        else:
            same = got == value or (isinstance(value, tuple) and got == list(value))
        if not same:
            raise ContentError.at(
                loc, f"'{key}' cannot be written so that it reads back as {value!r} (got {got!r})"
            )


def check_elements(raw: LList, diags: Diagnostics, which) -> None:
    """The elements at positions `which` of a layout file, checked by the build's field tables; ids unique."""
    from pnpgen.layout.spec import duplicate_ids

    check_elements_of([raw[i] for i in which], diags, [raw.loc_at(i) for i in which])
    duplicate_ids(raw, diags)


def check_elements_of(elements: list, diags: Diagnostics, locs: list | None = None) -> None:
    """Elements checked by the build's field tables (`LayoutLibrary.element`)."""
    from pnpgen.layout.spec import LayoutLibrary
    from pnpgen.templating import Compiler

    lib = LayoutLibrary([], Compiler())
    for n, raw in enumerate(elements):
        lib.element(raw, locs[n] if locs else raw.loc, diags)


def changed_lines(old: str, new: str) -> tuple[tuple[int, str], ...]:
    """The lines of `new` that `old` did not have (1-based number, text)."""
    a, b = old.split("\n"), new.split("\n")
    out: list[tuple[int, str]] = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            out.extend((j + 1, b[j]) for j in range(j1, j2))
    return tuple(out)


def set_values(path: Path, element: Ref, values: dict[str, Any], expect_digest: str | None = None) -> Edit:
    """Set each key of `values` on one element of the layout file `path` (None removes the key), in place."""
    o = open_layout(path, expect_digest)
    i = index_of(o, element)
    node = element_node(o, i)
    raw = o.raw[i]
    etype = raw.get("type")
    definition = TYPES.get(etype) if isinstance(etype, str) else None
    allowed = set(COMMON_KEYS) | set(definition.keys if definition else ())
    for key in values:
        if key not in allowed:
            raise ContentError.at(
                o.raw.loc_at(i), f"unknown key '{key}' in {etype} element", did_you_mean(str(key), allowed)
            )
        if key == "type":
            raise ContentError.at(
                raw.loc_of("type"), "an element's type cannot be changed; add a new element"
            )

    check = LMap(raw)
    check.loc, check.key_locs, check.val_locs = raw.loc, dict(raw.key_locs), dict(raw.val_locs)
    for key, value in values.items():
        if value is None:
            check.pop(key, None)
        else:
            check[key] = value
    diags = Diagnostics()
    check_elements_of([check], diags)  # a bad value is reported where the key stands now; nothing is written
    diags.raise_if_errors()

    def digits(key: str) -> int:
        return places if isinstance(definition.keys.get(key) if definition else None, Length) else 6

    places = places_of(o)
    values = {
        k: round(v, digits(k)) if type(v) is float else v for k, v in values.items()
    }  # as it is written
    changes = mapping.changes(o.tf, node, values, digits, "an element")
    return finish(o, o.tf.spliced(changes), i, dict(values))
