"""One YAML mapping's values changed in place: a value's characters replaced, a key added with the mapping's
indentation (or inside its braces), a key removed with its line. Shared by layout elements and YAML cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpgen.edit import scalars
from pnpgen.edit.textfile import TextFile
from pnpgen.errors import ContentError, Location
from pnpgen.source import Node

Change = tuple[int, int, str]  # (start, end, new text) in the plain text


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


def last_end(node: Node) -> int:
    """Where the last value inside `node` ends (a block collection's own end reaches into what follows)."""
    while node.kind in ("map", "seq") and node.style != "flow" and node.items:
        last = node.items[-1]
        node = last[1] if isinstance(last, tuple) else last
    return node.end


def places(root: Node) -> int:
    """Decimals a new length gets: 1 (0.1 mm), or as many as the file's plain numbers already use (at most 3)."""
    most = 1
    stack = [root]
    while stack:
        n = stack.pop()
        if n.kind == "scalar" and n.style is None and n.text[:1] in "-+.0123456789" and n.text:
            try:
                float(n.text)
            except ValueError:
                continue
            most = max(most, scalars.decimals_of(n.text))
        for it in n.items:
            stack.extend(x for x in (it if isinstance(it, tuple) else (it,)) if x is not None)
    return min(most, scalars.MAX_DECIMALS)


def changes(
    tf: TextFile, node: Node, values: dict[str, Any], digits: Callable[[str], int], what: str
) -> list[Change]:
    """The splices that give the mapping `node` each of `values` (None removes the key)."""
    plain = tf.plain
    flow = node.style == "flow"
    keys = {k.text: (k, v) for k, v in node.items if k.kind == "scalar"}
    indent = node.items[0][0].col - 1 if node.items else node.col + 1
    out: list[Change] = []
    inserts: list[str] = []
    for key, value in values.items():
        if key in keys:
            k, v = keys[key]
            if value is None:
                out.append(_removal(tf, node, k, v, what))
                continue
            if v.kind == "alias":
                raise ContentError.at(
                    Location(tf.display, v.line, v.col), f"'{key}' is an alias here; edit the anchor it names"
                )
            if v.kind != "scalar" and v.style != "flow":
                raise ContentError.at(
                    Location(tf.display, v.line, v.col),
                    f"'{key}' is written as a block {'list' if v.kind == 'seq' else 'mapping'}; edit it by hand",
                )
            text = scalars.scalar(value, v, digits(key), flow or v.style == "flow", k.col - 1 + 2)
            if v.style in ("|", ">"):  # its span took the line endings (and blank lines) after it: kept
                old = plain[v.start : v.end]
                text += old[len(old.rstrip("\n ")) :] if not text.endswith("\n") else ""
            out.append((v.start, v.end, text))
        elif value is not None:
            name = scalars.scalar(str(key), None, 0, flow, 0)
            inserts.append(f"{name}: {scalars.scalar(value, None, digits(key), flow, indent + 2)}")
    if not inserts:
        return out
    if flow:
        if node.items:
            at = node.items[-1][1].end
            out.append((at, at, "".join(", " + s for s in inserts)))
        else:
            out.append((node.start + 1, node.start + 1, ", ".join(inserts)))
        return out
    at = line_end(plain, last_end(node))
    lead = "" if at == 0 or plain[at - 1] == "\n" else "\n"
    out.append(
        (at, at, lead + "".join(" " * indent + s + ("" if s.endswith("\n") else "\n") for s in inserts))
    )
    return out


def _removal(tf: TextFile, node: Node, k: Node, v: Node, what: str) -> Change:
    plain = tf.plain
    items = node.items
    i = next(j for j, (kk, _) in enumerate(items) if kk is k)
    if len(items) == 1:
        raise ContentError.at(Location(tf.display, k.line, k.col), f"{what} keeps at least one key")
    if node.style == "flow":
        if i + 1 < len(items):
            return (k.start, items[i + 1][0].start, "")
        return (items[i - 1][1].end, v.end, "")
    if i + 1 < len(items) and plain[line_start(plain, k.start) : k.start].strip():
        return (k.start, items[i + 1][0].start, "")  # the first key of a `- key: ...` line: the next moves up
    if i + 1 < len(items):
        return (line_start(plain, k.start), line_start(plain, items[i + 1][0].start), "")
    return (line_start(plain, k.start), line_end(plain, last_end(v)), "")
