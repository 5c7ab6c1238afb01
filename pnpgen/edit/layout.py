"""Layout elements changed in place: one element's values, an element added, deleted, duplicated or moved in
the order. See `pnpgen.edit` for the API; `textfile` keeps every byte not edited."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen.edit import scalars
from pnpgen.edit.textfile import TextFile, read, write
from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean
from pnpgen.layout.elements import COMMON_KEYS, TYPES
from pnpgen.layout.kinds import Length
from pnpgen.source import LList, LMap, Node, load_text, outline

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
    raise ContentError.at(
        o.raw.loc,
        f"no element with id '{element}' in this file",
        did_you_mean(str(element), [str(i) for i in ids if i is not None])
        if any(ids)
        else "no element has an id",
    )


def element_node(o: Opened, i: int) -> Node:
    node = o.seq.items[i]
    if node.kind != "map" or not isinstance(o.raw[i], LMap):
        raise ContentError.at(
            o.raw.loc_at(i), "an element written as an alias or a non-mapping cannot be edited here"
        )
    return node


def places_of(o: Opened) -> int:
    """Decimals a new number gets: 1 (0.1 mm), or as many as the file already writes (at most 3)."""
    most = 1
    stack = [o.root]
    while stack:
        n = stack.pop()
        if n.kind == "scalar" and n.style is None and n.text[:1] in "-+.0123456789" and n.text[1:2] != "":
            try:
                float(n.text)
            except ValueError:
                continue
            most = max(most, scalars.decimals_of(n.text))
        for it in n.items:
            stack.extend(x for x in (it if isinstance(it, tuple) else (it,)) if x is not None)
    return min(most, scalars.MAX_DECIMALS)


def line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def line_end(text: str, i: int) -> int:
    """Just past the line ending of the line a value ending at `i` stands on (`i` itself when the value took
    its line ending with it, as a block scalar does)."""
    if i > 0 and text[i - 1] == "\n":
        return i
    return next_line(text, i)


def next_line(text: str, i: int) -> int:
    """Just past the line ending of the line holding index `i` (or the text's end)."""
    j = text.find("\n", i)
    return len(text) if j < 0 else j + 1


def _value_changes(o: Opened, node: Node, etype: str, values: dict[str, Any]) -> list[tuple[int, int, str]]:
    plain = o.tf.plain
    flow = node.style == "flow"
    keys = {k.text: (k, v) for k, v in node.items if k.kind == "scalar"}
    places = places_of(o)
    indent = node.items[0][0].col - 1 if node.items else node.col + 1
    changes: list[tuple[int, int, str]] = []
    inserts: list[str] = []
    definition = TYPES.get(etype)
    for key, value in values.items():
        kind = definition.keys.get(key) if definition else None
        digits = places if isinstance(kind, Length) else 6
        if key in keys:
            k, v = keys[key]
            if value is None:
                changes.append(_removal(o, node, k, v))
                continue
            if v.kind == "alias":
                raise ContentError.at(
                    Location(o.tf.display, v.line, v.col),
                    f"'{key}' is an alias here; edit the anchor it names",
                )
            if v.kind != "scalar" and v.style != "flow":
                raise ContentError.at(
                    Location(o.tf.display, v.line, v.col),
                    f"'{key}' is written as a block {'list' if v.kind == 'seq' else 'mapping'}; edit it by hand",
                )
            text = scalars.scalar(value, v, digits, flow or v.style == "flow", v.col - 1 + 2)
            changes.append((v.start, v.end, text))
        elif value is not None:
            inserts.append(
                f"{scalars.scalar(key, None, 0, flow, 0)}: {scalars.scalar(value, None, digits, flow, indent + 2)}"
            )
    if inserts:
        if flow:
            if node.items:
                at = node.items[-1][1].end
                changes.append((at, at, "".join(", " + s for s in inserts)))
            else:
                changes.append((node.start + 1, node.start + 1, ", ".join(inserts)))
        else:
            last = node.items[-1][1]
            at = line_end(plain, last.end)
            lead = "" if at == 0 or plain[at - 1] == "\n" else "\n"
            changes.append((at, at, lead + "".join(" " * indent + s + "\n" for s in inserts)))
    del plain
    return changes


def _removal(o: Opened, node: Node, k: Node, v: Node) -> tuple[int, int, str]:
    plain = o.tf.plain
    items = node.items
    i = next(j for j, (kk, _) in enumerate(items) if kk is k)
    if node.style == "flow":
        if i + 1 < len(items):
            return (k.start, items[i + 1][0].start, "")
        if i > 0:
            return (items[i - 1][1].end, v.end, "")
        return (k.start, v.end, "")
    if i + 1 < len(items) and plain[line_start(plain, k.start) : k.start].strip() not in ("",):
        return (k.start, items[i + 1][0].start, "")  # the first key of a `- key: ...` line: the next moves up
    if i + 1 < len(items):
        return (line_start(plain, k.start), line_start(plain, items[i + 1][0].start), "")
    if len(items) == 1:
        raise ContentError.at(Location(o.tf.display, k.line, k.col), "an element keeps at least one key")
    return (line_start(plain, k.start), line_end(plain, v.end), "")


def finish(o: Opened, new_text: str, index: int | None) -> Edit:
    """Check the new text as the build would, then write it: a refused edit writes nothing."""
    from pnpgen.inputs import plain_text

    tf = o.tf
    plain = plain_text(new_text)
    data = load_text(plain, tf.display)
    raw = data.get("elements") if isinstance(data, LMap) else None
    if not isinstance(raw, LList):
        raise ContentError.at(Location(tf.display, 1, 1), "'elements' must be a list of elements")
    diags = Diagnostics()
    check_elements(raw, diags, [index] if index is not None else range(len(raw)))
    diags.raise_if_errors()
    written = write(tf, new_text)
    from pnpgen.edit.textfile import digest

    return Edit(tf.path, tf.digest, digest(written), changed_lines(tf.plain, plain))


def check_elements(raw: LList, diags: Diagnostics, which) -> None:
    """The elements at positions `which` of a layout file, checked by the build's field tables; ids unique."""
    from pnpgen.layout.spec import LayoutLibrary, duplicate_ids
    from pnpgen.templating import Compiler

    lib = LayoutLibrary([], Compiler())
    for i in which:
        lib.element(raw[i], raw.loc_at(i), diags)
    duplicate_ids(raw, diags)


def changed_lines(old: str, new: str) -> tuple[tuple[int, str], ...]:
    a, b = old.split("\n"), new.split("\n")
    out = []
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
    changes = _value_changes(o, node, str(etype), values)
    return finish(o, o.tf.spliced(changes), i)
