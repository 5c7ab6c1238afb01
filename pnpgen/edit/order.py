"""Whole elements of a layout file: added, deleted, duplicated, moved in the drawing order. An element's text
is its lines, from its `-` to its last value and the comments indented inside it; comments and blank lines
between elements stay where they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpgen.edit import scalars
from pnpgen.edit.layout import (
    Edit,
    Opened,
    Ref,
    element_node,
    finish,
    index_of,
    open_layout,
    places_of,
)
from pnpgen.edit.mapping import last_end, line_end, line_start, next_line
from pnpgen.edit.textfile import read
from pnpgen.errors import ContentError, Location
from pnpgen.layout.elements import TYPES
from pnpgen.layout.kinds import Length
from pnpgen.source import LMap, Node


def _dash(o: Opened, node: Node) -> int:
    """The index of the `-` that starts a block list's item."""
    plain = o.tf.plain
    i = plain.rfind("-", line_start(plain, node.start), node.start)
    if i < 0 or o.seq.style == "flow":
        raise ContentError.at(
            Location(o.tf.display, node.line, node.col),
            "this element is not an item of a block list ('- ...')",
        )
    return i


def _span(o: Opened, i: int, above: bool = True) -> tuple[int, int]:
    """The text of element `i`: its lines, from the start of its `-` line to the end of its last value's line,
    with the comment lines after it indented deeper than its `-` and (`above`) the comment lines right above
    its `-`, indented as far."""
    plain = o.tf.plain
    node = o.seq.items[i]
    dash = _dash(o, node)
    col = dash - line_start(plain, dash)
    start = line_start(plain, dash)
    floor = _span_floor(o, i)
    while above and start > floor:  # comment lines right above its `-`, as far in as it is, are its own
        prev = line_start(plain, start - 1)
        line = plain[prev:start]
        if line.lstrip(" ").startswith("#") and len(line) - len(line.lstrip(" ")) == col:
            start = prev
        else:
            break
    end = line_end(plain, last_end(node))
    limit = line_start(plain, o.seq.items[i + 1].start) if i + 1 < len(o.seq.items) else len(plain)
    while end < limit:
        nxt = next_line(plain, end)
        line = plain[end:nxt]
        stripped = line.lstrip(" ")
        if stripped.startswith("#") and len(line) - len(stripped) > col:
            end = nxt
        else:
            break
    if end == len(plain) and not plain.endswith("\n"):
        return start, end  # the file's last line, without an ending
    return start, end


def _span_floor(o: Opened, i: int) -> int:
    """Where the text before element `i` ends: the previous element's end, or the line after `elements:`."""
    plain = o.tf.plain
    if i == 0:
        key = next(k for k, v in o.root.items if v is o.seq)
        return next_line(plain, key.end)
    return line_end(plain, last_end(o.seq.items[i - 1]))


def _text_of(o: Opened, i: int) -> str:
    a, b = _span(o, i)
    text = o.tf.plain[a:b]
    return text if text.endswith("\n") else text + "\n"


def _insert_at(o: Opened, position: int) -> int:
    """Where an element's text goes so that it becomes element `position` of the file."""
    if position < len(o.seq.items):
        return _span(o, position)[0]
    return _span(o, len(o.seq.items) - 1)[1]


def _lead(o: Opened, at: int) -> str:
    return "" if at == 0 or o.tf.plain[at - 1] == "\n" else "\n"


def add_element(
    path: Path, kind: str, values: dict[str, Any], after: Ref | None = None, expect_digest: str | None = None
) -> Edit:
    """Add an element of type `kind` with `values` after the element `after` (default: last, drawn on top),
    written like its neighbours: a block mapping, or a flow one when most of them are."""
    o = open_layout(path, expect_digest)
    definition = TYPES.get(kind)
    if definition is None:
        from pnpgen.errors import did_you_mean

        raise ContentError.at(o.raw.loc, f"unknown element type '{kind}'", did_you_mean(kind, TYPES))
    places = places_of(o)

    def text(key: str, value: Any, flow: bool, indent: int) -> str:
        digits = places if isinstance(definition.keys.get(key), Length) else 6
        return scalars.scalar(value, None, digits, flow, indent)

    items = {"type": kind, **({"id": values["id"]} if values.get("id") is not None else {})}
    items.update((k, v) for k, v in values.items() if k not in items and v is not None)
    if not o.seq.items:
        raise ContentError.at(o.raw.loc, "add the first element by hand: this file's 'elements' is empty")
    position = len(o.raw) if after is None else index_of(o, after) + 1
    first = o.seq.items[0]
    dash = _dash(o, first)
    col = dash - line_start(o.tf.plain, dash)
    key_col = first.col - 1 if first.kind == "map" and first.style != "flow" else col + 2
    flows = sum(1 for n in o.seq.items if n.style == "flow")
    if flows * 2 > len(o.seq.items):
        body = "{" + ", ".join(f"{k}: {text(k, v, True, 0)}" for k, v in items.items()) + "}\n"
        new = " " * col + "- " + body
    else:
        lines = [f"{k}: {text(k, v, False, key_col + 2)}\n" for k, v in items.items()]
        new = (
            " " * col
            + "-"
            + " " * (key_col - col - 1)
            + lines[0]
            + "".join(" " * key_col + ln for ln in lines[1:])
        )
    at = _insert_at(o, position)
    return finish(o, o.tf.spliced([(at, at, _lead(o, at) + new)]), position)


def delete_element(path: Path, element: Ref, expect_digest: str | None = None) -> Edit:
    """Delete one element: its lines, and the comments indented inside it."""
    o = open_layout(path, expect_digest)
    i = index_of(o, element)
    if len(o.raw) == 1:
        raise ContentError.at(o.raw.loc_at(i), "a layout keeps at least one element; change this one instead")
    a, b = _span(o, i)
    return finish(o, o.tf.spliced([(a, b, "")]), None)


def duplicate_element(
    path: Path, element: Ref, new_id: str | None = None, expect_digest: str | None = None
) -> Edit:
    """Copy one element's text just after it (drawn on top of it). The copy of an element with an `id:` gets
    `new_id`, or its id with the first free `-2`, `-3`... after it."""
    o = open_layout(path, expect_digest)
    i = index_of(o, element)
    node = element_node(o, i)
    raw = o.raw[i]
    a, b = _span(o, i, above=False)
    copy = o.tf.plain[a:b]
    copy += "" if copy.endswith("\n") else "\n"
    if isinstance(raw, LMap) and "id" in raw:
        ids = {e.get("id") for e in o.raw if isinstance(e, LMap)}
        if new_id is None:
            n = 2
            while f"{raw['id']}-{n}" in ids:
                n += 1
            new_id = f"{raw['id']}-{n}"
        v = next(v for k, v in node.items if k.text == "id")
        copy = copy[: v.start - a] + scalars.scalar(new_id, v, 0, node.style == "flow", 0) + copy[v.end - a :]
    edit = finish(o, o.tf.spliced([(b, b, _lead(o, b) + copy)]), i + 1)
    if new_id is not None and not (isinstance(raw, LMap) and "id" in raw):  # the copy's id is a new key
        from pnpgen.edit.layout import changed_lines, set_values

        named = set_values(path, i + 1, {"id": new_id}, edit.digest)
        final = read(path).plain
        return Edit(path, edit.before, named.digest, changed_lines(o.tf.plain, final))
    return edit


def move_order(path: Path, element: Ref, to: int, expect_digest: str | None = None) -> Edit:
    """Move one element to position `to` (from 0) of the file's `elements:`: later is drawn on top."""
    o = open_layout(path, expect_digest)
    i = index_of(o, element)
    n = len(o.raw)
    if not 0 <= to < n:
        raise ContentError.at(o.raw.loc, f"no position {to} in this file's {n} elements (counted from 0)")
    if to == i:  # already there: nothing is written
        return Edit(o.tf.path, o.tf.digest, o.tf.digest, ())
    a, b = _span(o, i)
    text = _text_of(o, i)
    at = _insert_at(o, to + 1 if to > i else to)
    return finish(o, o.tf.spliced([(a, b, ""), (at, at, _lead(o, at) + text)]), to)
