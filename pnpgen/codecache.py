"""A per-user store of compiled layout templates, so a layout's Jinja expressions are parsed and compiled once
per machine rather than once per build (about a tenth of a build's time: the five shipped games compile 948).

Each entry is a file named by the sha256 of what made it (the template's text, pnpgen's template code, Jinja's
and Python's versions), holding marshal data, as Python's own `__pycache__` does. It lives in
`$PNPGEN_CACHE`, else `$XDG_CACHE_HOME/pnpgen`, else `~/.cache/pnpgen`; `PNPGEN_CACHE=off` turns it off. Nothing
in it is needed: an entry that is missing, unreadable, damaged or from another version is compiled again, and a
folder that cannot be written is left alone. Content never names an entry: its key is a digest, and only what
pnpgen's own compiler produced from a template is ever stored. Entries are run, like `__pycache__`'s, so only
files owned by the user running pnpgen are read.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
from functools import cache
from pathlib import Path

MAX_ENTRY = 4 * 1024 * 1024  # bytes: an entry larger than this is not read (none comes near: a few KB each)
MAX_STORES = 5_000  # entries one process writes at most (the five games have 948): content with a flood of
# distinct templates cannot fill the folder; what is over is compiled again next time
_stored = [0]  # entries written by this process


def root() -> Path | None:
    """pnpgen's per-user cache folder (its templates here, the print-all file's kept faces in
    `pipeline/facestore.py`), or None when the cache is off."""
    chosen = os.environ.get("PNPGEN_CACHE")
    if chosen is not None:
        if chosen.strip().lower() in ("", "off", "0", "no", "false"):
            return None
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative (which the XDG rules say to ignore)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None  # no home to speak of (a bare service account): no cache rather than one in the cwd
    return Path(base) / "pnpgen"


@cache
def folder() -> Path | None:
    """Where entries go, or None when the cache is off."""
    where = root()
    return None if where is None else where / "templates"


@cache
def _file_digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def key(maker: str, *parts: str) -> str:
    """An entry's name: a digest of `parts` (what was compiled and how), of the source file `maker` that compiled
    it, and of Python's version (marshal data and bytecode are Python's own)."""
    head = f"{_file_digest(maker)}\0{sys.implementation.cache_tag}\0{sys.version}"
    return hashlib.sha256("\0".join((head, *parts)).encode("utf-8", "surrogatepass")).hexdigest()


def _path(key: str) -> Path | None:
    where = folder()
    return None if where is None else where / key[:2] / key


def ours(fh) -> bool:
    """Whether an open file belongs to the user running pnpgen (always, where there are no POSIX owners)."""
    return not hasattr(os, "geteuid") or os.fstat(fh.fileno()).st_uid == os.geteuid()


def load(key: str):
    """The value stored under `key` (a hex digest), or None."""
    path = _path(key)
    if path is None:
        return None
    try:
        with open(path, "rb") as fh:
            if not ours(fh):
                return None  # someone else's file: what it holds is run, so only our own is trusted
            data = fh.read(MAX_ENTRY + 1)
        if len(data) > MAX_ENTRY:
            return None
        return marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
        return None  # not there, unreadable or damaged: compiled again (and stored again)


def store(key: str, value) -> None:
    """Keep `value` (marshal-able: code, tuples, strings, numbers, None) under `key`; silently not when the
    folder cannot be written. Written whole or not at all: a second process storing the same entry at the same
    time writes the same bytes."""
    path = _path(key)
    if path is None or _stored[0] >= MAX_STORES:
        return
    _stored[0] += 1
    try:
        data = marshal.dumps(value)
    except ValueError:
        return
    put(path, data)


def put(path: Path, data: bytes) -> None:
    """Write `data` to `path` in the cache whole or not at all (a private folder made on the way); silently not
    when it cannot be written. Shared by this cache and the face store (`pipeline/facestore.py`)."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with open(part, "wb") as fh:
            fh.write(data)
        os.replace(part, path)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink()
