"""A stand-in for the calls of the `pnpgen edit` engine (`pnpgen.edit`) that it does not make yet (it raises
NotImplementedError): the same calls, for layouts written in block style, as the page needs them.

Each call changes only the lines it must, found from the located YAML (`pnpgen.source`: every node knows its
line and column): a value is replaced where it stands (its quoting kept for text), a missing key is a new line at
the element's indentation, an element is a run of whole lines (its `- ` line to the last line indented under
it). Line endings (CRLF stays CRLF) and a byte order mark stay; every other byte of the file stays. A file
changed since `expect_digest` is refused. `serve/writes.call` asks `pnpgen.edit` first; when the engine makes
every call, this module goes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

BOM = "\ufeff"
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .-]*$")


class SpliceError(Exception):
    """A write this stand-in cannot make like a person would (flow style, a block scalar...): edit by hand."""


class Stale(SpliceError):
    """The file changed since the page read it."""


@dataclass(frozen=True)
class Edit:
    path: Path
    digest: str  # the file's new sha256
    lines: tuple[int, ...]  # the changed lines (1-based, in the new file)


class _File:
    def __init__(self, path: Path, expect_digest: str | None):
        data = path.read_bytes()
        if expect_digest is not None and hashlib.sha256(data).hexdigest() != expect_digest:
            raise Stale(f"{path.name} changed on disk since it was read")
        text = data.decode("utf-8")
        self.path, self.bom = path, text.startswith(BOM)
        self.text = text[1:] if self.bom else text
        self.lines = self.text.splitlines(keepends=True)
        self.eol = "\r\n" if "\r\n" in self.text else "\n"

    def elements(self):
        from pnpgen.source import LList, LMap, load_text

        data = load_text(self.text, str(self.path))
        elements = data.get("elements") if isinstance(data, LMap) else None
        if not isinstance(elements, LList):
            raise SpliceError("the layout has no block list of 'elements'")
        return elements

    def block(self, elements, index: int) -> tuple[int, int, int]:
        """(first line, end line (exclusive), column of its keys), 0-based, of element `index`."""
        from pnpgen.source import LMap

        if not 0 <= index < len(elements):
            raise SpliceError(f"there is no element {index}")
        at = elements.loc_at(index)
        first, col = at.line - 1, at.col - 1
        line = self.lines[first]
        if not isinstance(elements[index], LMap) or line[:col].strip() != "-" or "{" in line[col : col + 1]:
            raise SpliceError("only block-style elements ('- type: ...' lines) are edited here")
        end = first + 1
        last = first + 1
        while end < len(self.lines):
            raw = self.lines[end]
            if raw.strip() == "":
                end += 1
                continue
            if len(raw) - len(raw.lstrip(" ")) < col:
                break
            end += 1
            last = end
        return first, last, col

    def save(self, changed: list[int]) -> Edit:
        from pnpgen.serve.writes import write_atomically

        text = (BOM if self.bom else "") + "".join(self.lines)
        digest = write_atomically(self.path, text.encode("utf-8"))
        return Edit(self.path, digest, tuple(n + 1 for n in changed))


def written(value: object, old: str | None = None) -> str:
    """`value` as a person writes it: 12.5, not 12.500000001; text quoted as `old` was (or plain when safe)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SpliceError(f"cannot write {value!r}")
    if not isinstance(value, str):
        if float(value).is_integer():
            return str(int(value))
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if old is not None and old.startswith("'") and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if (old is None or not old.startswith(('"', "'"))) and _PLAIN.match(value) and value not in _WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "none", "~", "True", "False", "Null", "NULL"}


def _scalar_end(line: str, start: int) -> int:
    """Where the scalar that starts at `start` ends (exclusive)."""
    quote = line[start : start + 1]
    if quote == "'":
        i = start + 1
        while i < len(line):
            if line[i] == "'" and line[i + 1 : i + 2] == "'":
                i += 2
                continue
            if line[i] == "'":
                return i + 1
            i += 1
        raise SpliceError("a quoted value over several lines")
    if quote == '"':
        i = start + 1
        while i < len(line):
            if line[i] == "\\":
                i += 2
                continue
            if line[i] == '"':
                return i + 1
            i += 1
        raise SpliceError("a quoted value over several lines")
    if quote in ("|", ">", "[", "{", "&", "*", "!"):
        raise SpliceError("a block, flow, anchored or tagged value: edit it by hand")
    end = len(line.rstrip("\r\n"))
    comment = line.find(" #", start)
    if comment != -1:
        end = comment
    return start + len(line[start:end].rstrip())


def set_values(path: Path, element: int, values: dict, expect_digest: str | None = None) -> Edit:
    f = _File(path, expect_digest)
    elements = f.elements()
    first, end, col = f.block(elements, element)
    mapping = elements[element]
    changed = []
    added = []
    for key, value in values.items():
        if key in mapping:
            at = mapping.loc_of(key)
            n, start = at.line - 1, at.col - 1
            if not first <= n < end:
                raise SpliceError(f"'{key}' is not on the element's own lines")
            line = f.lines[n]
            stop = _scalar_end(line, start)
            f.lines[n] = line[:start] + written(value, line[start:stop]) + line[stop:]
            changed.append(n)
        else:
            added.append(" " * col + f"{key}: {written(value)}" + f.eol)
    if added:
        if not f.lines[end - 1].endswith(("\n", "\r")):
            f.lines[end - 1] += f.eol
        f.lines[end:end] = added
        changed += range(end, end + len(added))
    return f.save(changed)


def add_element(path: Path, kind: str, values: dict, after=None, expect_digest: str | None = None) -> Edit:
    f = _File(path, expect_digest)
    elements = f.elements()
    if not elements:
        raise SpliceError("the layout's 'elements' is empty: add the first one by hand")
    _first, end, col = f.block(elements, len(elements) - 1)
    pad = " " * col
    new = [pad[:-2] + f"- type: {written(kind)}" + f.eol]
    new += [pad + f"{k}: {written(v)}" + f.eol for k, v in values.items() if k != "type"]
    if not f.lines[end - 1].endswith(("\n", "\r")):
        f.lines[end - 1] += f.eol
    f.lines[end:end] = new
    return f.save(list(range(end, end + len(new))))


def delete_element(path: Path, element: int, expect_digest: str | None = None) -> Edit:
    f = _File(path, expect_digest)
    first, end, _col = f.block(f.elements(), element)
    del f.lines[first:end]
    return f.save([])


def duplicate_element(path: Path, element: int, expect_digest: str | None = None) -> Edit:
    f = _File(path, expect_digest)
    elements = f.elements()
    first, end, _col = f.block(elements, element)
    copy = list(f.lines[first:end])
    mapping = elements[element]
    if "id" in mapping:  # ids are unique within a layout: the copy gets a new one
        at = mapping.loc_of("id")
        taken = {str(e.get("id")) for e in elements if hasattr(e, "get")}
        n = 2
        while f"{mapping['id']}-{n}" in taken:
            n += 1
        i, start = at.line - 1 - first, at.col - 1
        stop = _scalar_end(copy[i], start)
        copy[i] = copy[i][:start] + written(f"{mapping['id']}-{n}", copy[i][start:stop]) + copy[i][stop:]
    if not copy[-1].endswith(("\n", "\r")):
        copy[-1] += f.eol
        f.lines[end - 1] += f.eol
    f.lines[end:end] = copy
    return f.save(list(range(end, end + len(copy))))


def move_order(path: Path, element: int, to: int, expect_digest: str | None = None) -> Edit:
    f = _File(path, expect_digest)
    elements = f.elements()
    if not 0 <= to < len(elements):
        raise SpliceError(f"there is no place {to} in the layout's elements")
    if to == element:
        return f.save([])
    blocks = [f.block(elements, i)[:2] for i in range(len(elements))]
    start, stop = blocks[0][0], blocks[-1][1]
    parts = [list(f.lines[a:b]) for a, b in blocks]
    for part in parts:
        if not part[-1].endswith(("\n", "\r")):
            part[-1] += f.eol
    moved = parts.pop(element)
    parts.insert(to, moved)
    gaps = [f.lines[blocks[i][1] : blocks[i + 1][0]] for i in range(len(blocks) - 1)]  # blank lines between
    out: list[str] = []
    for i, part in enumerate(parts):
        out += part
        if i < len(gaps):
            out += gaps[i]
    f.lines[start:stop] = out
    return f.save([])
