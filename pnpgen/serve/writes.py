"""The editor's writes: values checked by the build's field tables, then handed to the write engine
(`pnpgen.edit`, the engine of `pnpgen edit`); what each write replaced is kept for undo and redo.

Every write names the file's digest as the page read it; the caller (`serve/editor.py`) has refused a file that
changed since. `History` keeps the bytes before and after each write the page made (bounded), so that undo and
redo put back exactly those bytes, and only bytes this server itself saw in that file.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from pathlib import Path

from pnpgen.errors import did_you_mean, printable

ADDABLE = ("text", "image", "icon", "rect", "ellipse", "line")
MAX_KEPT = 200  # file versions kept for undo and redo
MAX_KEPT_BYTES = 32 * 1024 * 1024  # ... and their bytes together (a large card sheet keeps fewer)
MAX_VALUES = 16  # keys one write may set
MAX_TEXT = 2_000  # characters of one value


class Refused(Exception):
    def __init__(self, code: int, message: str):
        self.code, self.message = code, printable(message)
        super().__init__(message)


def digest_of(path: Path) -> str:
    """The file's sha256, or '' when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def create(path: Path, data: bytes) -> None:
    """A new file holding `data`, all at once (written beside it, then renamed into place); FileExistsError when
    `path` is there already, which is never replaced (checked just before the rename: a file made in that
    instant by another program would be)."""
    import os

    if path.exists():
        raise FileExistsError(path)
    path.parent.mkdir(exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.adopt.tmp")
    try:
        temp.write_bytes(data)
        if path.exists():
            raise FileExistsError(path)
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


class History:
    """(file, digest) -> its bytes, for each version of a file the page wrote or replaced."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    def keep(self, path: Path, data: bytes) -> None:
        key = (str(path.resolve()), hashlib.sha256(data).hexdigest())
        self._kept[key] = data
        self._kept.move_to_end(key)
        while len(self._kept) > MAX_KEPT or sum(map(len, self._kept.values())) > MAX_KEPT_BYTES:
            if len(self._kept) == 1:
                break
            self._kept.popitem(last=False)

    def wrote(self, path: Path) -> bool:
        """Whether the page wrote `path` in this run."""
        where = str(path.resolve())
        return any(key[0] == where for key in self._kept)

    def restore(self, path: Path, digest: str, to: object) -> str:
        """Put back the version `to` of `path` (which now has `digest`); its digest."""
        from pnpgen.edit import Conflict
        from pnpgen.edit.textfile import read, write

        data = self._kept.get((str(path.resolve()), to)) if isinstance(to, str) else None
        if data is None:
            raise Refused(409, "that version of the file is not kept (the server was restarted?)")
        try:
            now = read(path, expect_digest=digest)
            self.keep(path, now.raw)
            return hashlib.sha256(write(now, data.decode("utf-8"))).hexdigest()  # the engine's atomic write
        except Conflict as exc:
            raise Refused(409, _said(exc)) from None


def _said(exc: Exception) -> str:
    errors = getattr(getattr(exc, "diagnostics", None), "errors", None)
    return f"{errors[0].location}: {errors[0].message}" if errors else str(exc)


def checked_values(etype: str, values: object, known) -> dict:
    """`values` ({key: value}) checked against the element type's keys, as the build checks a layout."""
    from pnpgen.layout.elements import COMMON_KEYS, TYPES
    from pnpgen.layout.kinds import Bad

    definition = TYPES.get(etype)
    if definition is None:
        raise Refused(422, f"unknown element type '{etype}'")
    if not isinstance(values, dict) or len(values) > MAX_VALUES:
        raise Refused(400, f"'values' must map at most {MAX_VALUES} keys to values")
    allowed = set(definition.keys) | {"id"}
    out = {}
    for key, value in values.items():
        if key not in allowed:
            hint = did_you_mean(str(key), allowed)
            common = " (set it in the file)" if key in COMMON_KEYS else ""
            raise Refused(
                422, f"unknown key '{key}' in {etype} element{common}" + (f" ({hint})" if hint else "")
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise Refused(422, f"'{key}' must be a finite number")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise Refused(422, f"'{key}' is longer than {MAX_TEXT} characters")
        if not isinstance(value, (int, float, str)) or isinstance(value, bool):
            raise Refused(422, f"'{key}' must be a number or a text")
        if key != "id" and not (isinstance(value, str) and "{{" in value):
            try:
                definition.keys[key].parse(value, known)
            except Bad as exc:
                raise Refused(422, f"'{key}' {exc.message}") from None
        out[key] = value
    return out


def element_type(path: Path, index: int) -> str:
    """The type of element `index` of the layout file `path`."""
    from pnpgen.source import LList, LMap, load_text

    data = load_text(path.read_text(encoding="utf-8-sig"), str(path))
    elements = data.get("elements") if isinstance(data, LMap) else None
    if not isinstance(elements, LList) or not 0 <= index < len(elements):
        raise Refused(404, f"{path.name} has no element {index}")
    element = elements[index]
    etype = element.get("type") if isinstance(element, LMap) else None
    if not isinstance(etype, str):
        raise Refused(422, f"element {index} of {path.name} has no type")
    return etype


def apply(path: Path, asked: dict, known, history: History) -> str:
    """One write of the page (`asked`: see `serve/editor.py`) through the engine; the file's new digest."""
    from pnpgen import edit  # the engine of `pnpgen edit`: one writer for the command, scripts and the page

    op = asked["op"]
    before = path.read_bytes()
    try:
        if op == "add":
            etype = asked.get("type")
            if etype not in ADDABLE:
                raise Refused(422, f"the palette adds {', '.join(ADDABLE)}")
            values = checked_values(etype, asked.get("values"), known)
            done = edit.add_element(path, etype, values, expect_digest=asked["digest"])
        else:
            index = asked.get("index")
            if not isinstance(index, int) or isinstance(index, bool):
                raise Refused(400, "'index' must be the element's position in its file")
            etype = element_type(path, index)
            if op == "set":
                values = checked_values(etype, asked.get("values"), known)
                done = edit.set_values(path, index, values, expect_digest=asked["digest"])
            elif op == "delete":
                done = edit.delete_element(path, index, expect_digest=asked["digest"])
            elif op == "duplicate":
                done = edit.duplicate_element(path, index, expect_digest=asked["digest"])
            else:
                to = asked.get("to")
                if not isinstance(to, int) or isinstance(to, bool):
                    raise Refused(400, "'to' must be the element's new position")
                done = edit.move_order(path, index, to, expect_digest=asked["digest"])
    except edit.Conflict as exc:
        raise Refused(409, _said(exc)) from None
    history.keep(path, before)
    history.keep(path, path.read_bytes())
    return getattr(done, "digest", None) or digest_of(path)


def card_field(path: Path, asked: dict, history: History) -> str:
    """One card field written where the build reads it (`pnpgen.edit.set_card_field`: a YAML line or a CSV
    cell); the file's new digest."""
    from pnpgen import edit

    card, field, value = asked.get("card_pos"), asked.get("field"), asked.get("value")
    if not isinstance(card, int) or isinstance(card, bool) or not isinstance(field, str) or not field:
        raise Refused(400, "a field write names the card's position in its file ('card_pos') and the 'field'")
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise Refused(422, f"'{field}' must be a number or a text")
    if isinstance(value, float) and not math.isfinite(value):
        raise Refused(422, f"'{field}' must be a finite number")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise Refused(422, f"'{field}' is longer than {MAX_TEXT} characters")
    before = path.read_bytes()
    try:
        done = edit.set_card_field(path, card, field, value, expect_digest=asked["digest"])
    except edit.Conflict as exc:
        raise Refused(409, _said(exc)) from None
    history.keep(path, before)
    history.keep(path, path.read_bytes())
    return done.digest
