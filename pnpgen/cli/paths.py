"""The one check of every path the command line gives (`PathParam`): an odd path is a usage error naming it, before
any command touches the file system with it.

Refused, the same on every system: a NUL byte or another control character (no file system holds one portably;
Python cannot even ask about a NUL), a name longer than file systems allow (255 bytes) or a path longer than 4,096,
a folder or file named as a Windows device (`con`, `nul`, `com1`...), a path typed as on Windows off Windows
(`names.typed_for_windows`), a file where a folder is wanted and a folder where a file is, what must exist and
does not, and where something is written: a place that cannot be written (its nearest existing folder is not
writable, or is a file), or a name it would make that not every system accepts (`names.file_name_problem`: `out.`
or `out ` is `out` on Windows, `a?b` and `a:b` cannot be made there).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from pnpgen.errors import printable
from pnpgen.names import file_name_problem, is_device, typed_for_windows

MAX_PART = 255  # bytes in one name: ext4, NTFS (in UTF-16 units), APFS
MAX_PATH = 4096  # Linux's PATH_MAX; Windows' long paths allow 32,767


def path_problem(path: Path, kind: str, exists: bool, writes: bool) -> str | None:
    """Why `path` cannot be the `kind` ("folder" or "file") a command wants, or None; `exists`: it must be there
    already; `writes`: the command writes it (or into it)."""
    text = os.fspath(path)
    if text == "":
        return "is empty"
    odd = sorted({ch for ch in text if ord(ch) < 32 or ord(ch) == 127})
    if odd:
        shown = ", ".join(repr(ch) for ch in odd)
        return f"holds {shown}: a control character no file system accepts in a name"
    if len(text.encode("utf-8", "surrogateescape")) > MAX_PATH:
        return f"is longer than {MAX_PATH} bytes"
    for part in path.parts:
        if len(part.encode("utf-8", "surrogateescape")) > MAX_PART:
            return f"has a name longer than {MAX_PART} bytes ('{part[:24]}...')"
        if part not in (path.anchor, ".", "..") and is_device(part):
            return f"names '{part}', which Windows keeps for a device (con, prn, aux, nul, com1-9, lpt1-9)"
    why = typed_for_windows(path)
    if why is not None:
        return why
    try:
        there = path.exists()
    except OSError as exc:  # a name too long for this file system, a loop of links
        return f"cannot be used: {exc.strerror or exc}"
    if there:
        if kind == "folder" and not path.is_dir():
            return "is a file, not a folder" if path.is_file() else "is not a folder (a pipe or a device)"
        if kind == "file" and path.is_dir():
            return "is a folder, not a file"
        if kind == "file" and not path.is_file():
            return "is not a regular file"
        if writes and not os.access(path if kind == "folder" else path.parent, os.W_OK):
            return "cannot be written here (permission denied)"
        return None
    if exists:
        return "does not exist"
    if writes:
        return _unwritable(path)
    return None


def _unwritable(path: Path) -> str | None:
    """Why nothing can be made at `path`: its nearest existing folder is a file or may not be written, or a name
    to be made below it is not one every system accepts."""
    made = Path(os.path.abspath(path))
    above = Path(made.anchor)
    for above in made.parents:
        if above.exists():
            if not above.is_dir():
                return f"cannot be made: '{printable(str(above))}' is a file, not a folder"
            if not os.access(above, os.W_OK | os.X_OK):
                return f"cannot be made: '{printable(str(above))}' may not be written (permission denied)"
            break
    for part in made.relative_to(above).parts:  # the names it makes: each one every system accepts
        why = file_name_problem(part)
        if why is not None:
            return f"cannot be made as '{printable(part)}': {why}"
    return None


class PathParam(click.ParamType):
    """A path option or argument: checked by `path_problem`, given to the command as a `Path`. `what` names it in
    the message ("output folder 'x' is a file, not a folder")."""

    name = "path"

    def __init__(self, what: str, kind: str = "folder", exists: bool = False, writes: bool = False):
        self.what, self.kind, self.exists, self.writes = what, kind, exists, writes

    def get_metavar(self, param, ctx=None) -> str | None:  # an argument keeps its own name (OLD, NEW)
        if isinstance(param, click.Argument):
            return None
        return "FOLDER" if self.kind == "folder" else "FILE"

    def convert(self, value, param, ctx) -> Path:
        if isinstance(value, Path):
            path = value
        elif isinstance(value, bytes):
            path = Path(os.fsdecode(value))
        else:
            path = Path(str(value))
        why = path_problem(path, self.kind, self.exists, self.writes)
        if why is not None:
            self.fail(f"{self.what} '{printable(str(value))}' {why}", param, ctx)
        return path
