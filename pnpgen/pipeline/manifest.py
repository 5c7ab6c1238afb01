"""A game's manifest.json: what pnpgen wrote into the game's output folder, and what each file was made from.

A manifest is data pnpgen wrote, not data it trusts: it begins with a seal, the sha256 of the rest of its text,
so one edited by hand (or by anything but pnpgen) counts as absent, as one of the wrong shape does: a game whose
manifest does not hold is built afresh, and nothing a hand edit wrote into a kept entry (a digest, a page count,
a card's place) is ever carried into the next manifest. The files it names
are plain names inside the game's output folder that pnpgen could have written there, and its input keys are
paths inside the project (or, `pnpgen:...`, inside pnpgen's own folder: its built-in layouts). Only such files
are ever removed. Light: json, re and `pnpgen.inputs` (as light) only: the unchanged-game check reads it
without importing YAML, Jinja or ReportLab.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from pnpgen.inputs import OWN

NAME = "manifest.json"
# The files a build writes into a game's output folder: <component>.pdf, <board>-full.pdf, rulebook.pdf
OUTPUT_FILE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,80}\.pdf$")
_SHA = re.compile(r"^[0-9a-f]{64}$")
_KEY = re.compile(r"^[^/\x00][^\x00]*$")


def read(out_dir: Path, sealed_only: bool = True) -> dict[str, Any] | None:
    """The manifest of a game's output folder when it has the shape pnpgen writes; None otherwise.

    `sealed_only=False`: also one whose seal does not hold (a build from before the seal, one an editor saved
    again): what the last build wrote, to compare with (`changes`) or to remove, never to reuse."""
    data, sealed = last(out_dir)
    return sealed if sealed_only else data


def last(out_dir: Path) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The manifest of a game's output folder of the shape pnpgen writes (None otherwise), twice: as read, and
    only when its seal holds (None otherwise): only then may anything it records be reused."""
    path = out_dir / NAME
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode) or os.lstat(path).st_size > 20_000_000:
            return None, None
        raw = path.read_text(encoding="utf-8")
        text = unsealed(raw)
        data = json.loads(text if text is not None else raw.removeprefix("\ufeff"))
    except (OSError, ValueError):
        return None, None
    if isinstance(data, dict):
        data.pop("seal", None)
    return (data, data if text is not None else None) if valid(data) else (None, None)


SEAL = '{\n  "seal": "'


def sealed(text: str) -> str:
    """A manifest's text (`dumps`) with its seal first: the sha256 of that text, which `unsealed` checks."""
    return SEAL + hashlib.sha256(text.encode("utf-8")).hexdigest() + '",' + text[1:]


def unsealed(text: str) -> str | None:
    """The text a manifest's seal was made of, when it begins with a seal that holds; None otherwise."""
    seal, rest = text[len(SEAL) : len(SEAL) + 64], text[len(SEAL) + 64 :]
    if not text.startswith(SEAL) or not rest.startswith('",'):
        return None
    made = "{" + rest[2:]
    return made if hashlib.sha256(made.encode("utf-8")).hexdigest() == seal else None


def valid(data: object) -> bool:
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        return False
    for key in ("engine", "paper", "game"):
        if not isinstance(data.get(key), str):
            return False
    if not _inputs_ok(data.get("model", {})):
        return False
    warnings = data.get("warnings", 0)
    if isinstance(warnings, bool) or not isinstance(warnings, int) or warnings < 0:
        return False
    check = data.get("check")
    if check is not None and not (isinstance(check, dict) and _inputs_ok(check.get("inputs"))):
        return False
    return all(_entry_ok(e) for e in data["files"])


def _entry_ok(entry: object) -> bool:
    if not isinstance(entry, dict):
        return False
    path, sha = entry.get("path"), entry.get("sha256")
    if (
        not isinstance(path, str)
        or not OUTPUT_FILE.match(path)
        or not isinstance(sha, str)
        or not _SHA.match(sha)
    ):
        return False
    if not isinstance(entry.get("component"), str) or not isinstance(entry.get("kind"), str):
        return False
    for key in ("pages", "faces", "warnings"):
        value = entry.get(key, 0 if key == "warnings" else None)  # every entry has its pages and faces
        if not _count(value):
            return False
    return _inputs_ok(entry.get("inputs")) and _shown_ok(entry.get("shown", {}))


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def rows_ok(entry: dict[str, Any]) -> bool:
    """Whether a deck's card records and a board's sides are what a build writes (`records.card_records`): a
    kept entry is carried into the next manifest as it is, so one of another shape is written again. (Other
    readers skip a row they cannot read: `changes` compares what is left.)"""
    for key in ("cards", "sides"):
        rows = entry.get(key, [])
        if not isinstance(rows, list) or not all(_row_ok(row, key == "cards") for row in rows):
            return False
    return True


def _row_ok(row: object, card: bool) -> bool:
    if (
        not isinstance(row, dict)
        or not isinstance(row.get("name"), str)
        or not isinstance(row.get("front"), str)
    ):
        return False
    if card and not (all(_count(row.get(k)) for k in ("index", "count", "line")) and row["count"] > 0):
        return False
    if not isinstance(row.get("back", ""), str) or not isinstance(row.get("source", ""), str):
        return False
    return _at_ok(row.get("front_at")) and ("back" not in row or _at_ok(row.get("back_at")))


def _at_ok(at: object) -> bool:
    """[page from 0, x, y, width, height]: where a face stands in its file."""
    return (
        isinstance(at, list)
        and len(at) == 5
        and _count(at[0])
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in at[1:])
    )


def _shown_ok(shown: object) -> bool:
    """A rulebook entry's `shown`: per diagram and the cover, the components it drew on and two digests."""
    if not isinstance(shown, dict):
        return False
    for key, last in shown.items():
        if not isinstance(key, str) or not isinstance(last, dict):
            return False
        used = last.get("used")
        if not isinstance(used, list) or not all(isinstance(u, str) for u in used):
            return False
        if not isinstance(last.get("game"), str) or not isinstance(last.get("digest"), str):
            return False
    return True


def _inputs_ok(inputs: object) -> bool:
    if not isinstance(inputs, dict):
        return False
    for key, digest in inputs.items():
        if not isinstance(key, str) or not isinstance(digest, str):
            return False
        key = key.removeprefix(OWN)  # a file of pnpgen's own: a path inside pnpgen's folder
        if not _KEY.match(key) or ".." in key.split("/"):  # as Path(key).parts has it, without a Path per key
            return False
    return True


def write(path: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest to `path` (a file in the staging folder; it is moved into place last), sealed."""
    text = sealed(dumps(manifest) + "\n")
    with open(path, "w", encoding="utf-8", newline="\n") as fh:  # the same bytes on every system
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())


def dumps(value: object) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, the same text in half the time: with an indent, json
    takes its pure-Python encoder, a generator per level (0.25 s for the 10,000-card bench deck's manifest). Values
    other than str-keyed dicts, lists, tuples, str, int, float, bool and None are left to json itself."""
    try:
        return _text(value, "\n")
    except (TypeError, RecursionError):
        return json.dumps(value, indent=2, ensure_ascii=False)


class Ahead(list[Any]):
    """A list of values whose manifest text is made ahead (`ahead`), while the building process waits for its
    writers: `dumps` then takes the text as made (a 1,000-card deck's records: 7 ms less after the last file). A
    list to whoever reads the entry; not to be changed once made."""

    made: tuple[str, str] = ("", "")


def ahead(values: list[Any], depth: int = 3) -> Ahead:
    """`values` with their text made now, as `dumps` sets it at `depth` (3: a value of a file's entry)."""
    kept = Ahead(values)
    nl = "\n" + "  " * depth
    kept.made = (nl, _text(list(kept), nl))
    return kept


def _text(o: Any, nl: str) -> str:
    t = type(o)
    if t is str:
        return _string(o)
    if t is Ahead:
        made: tuple[str, str] = o.made
        if made[0] == nl:
            return made[1]
        t = list  # at another depth than made for: made again
    if t is int:
        return int.__repr__(o)
    if t is float:
        return _float(o)
    if t is dict:
        if not o:
            return "{}"
        inner = nl + "  "
        parts = []
        for k, v in o.items():
            if type(k) is not str:  # json turns a number or None into a key its own way
                raise TypeError(k)
            parts.append(f"{_string(k)}: {_text(v, inner)}")
        return "{" + inner + ("," + inner).join(parts) + nl + "}"
    if t is list or t is tuple:
        if not o:
            return "[]"
        inner = nl + "  "
        return "[" + inner + ("," + inner).join([_text(v, inner) for v in o]) + nl + "]"
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    raise TypeError(t)


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == _INF:
        return "Infinity"
    if o == -_INF:
        return "-Infinity"
    return float.__repr__(o)


_INF = float("inf")
_string = encode_basestring  # json's own, without ensure_ascii


def ours(out_dir: Path, name: str) -> bool:
    """Whether `name` in `out_dir` is a file pnpgen could have written there (a regular file, never a link)."""
    if not OUTPUT_FILE.match(name):
        return False
    try:
        return stat.S_ISREG(os.lstat(out_dir / name).st_mode)
    except OSError:
        return False
