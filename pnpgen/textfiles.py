"""Text files read the one way, on every system: bounded, never blocking, decoded as UTF-8 with a located error,
a byte order mark dropped and line ends made LF. The `Reader` (`pnpgen.inputs`) reads content through these;
`source.load_file` (pnpgen's own files, printers.yaml) and the editor (`edit.textfile`) read through them too.
Standard library only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pnpgen.errors import ContentError, Location, not_utf8
from pnpgen.names import near_file

MAX_BYTES = 5_000_000  # a content file (YAML, Markdown, a data sheet)

# How a file is opened, on every OS: binary (Windows' os.open is text mode by default: CRLF made LF, Ctrl-Z an end)
# and without blocking on a named pipe (refused by fstat as not a regular file; Windows has none in folders)
READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)


def plain_text(text: str) -> str:
    """Text as pnpgen reads it from any system: one leading byte order mark dropped, CRLF and lone CR made LF.
    Lines keep their numbers and columns (a CR only ever ends a line), so locations stay right."""
    text = text[1:] if text.startswith("\ufeff") else text
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_bounded(
    path: Path, display: str, what: str = "", loc: Location | None = None, limit: int = MAX_BYTES
) -> bytes:
    """The bytes of the regular file at `path` (at most `limit`), the one bounded read of every text pnpgen opens
    (a `Reader`'s, `source.load_file`'s, the editor's): never blocking on a pipe, a folder or device refused
    without being read, a file that grows while read cut off. Errors are at `loc` (else the file), naming it as
    `what 'display'`, or as "file" when the place is the file itself."""
    loc = loc or Location(display)
    name = f"{what} '{display}'" if what else "file"
    try:
        fd = os.open(path, READ_FLAGS)  # a pipe must never block the build
    except FileNotFoundError:
        raise ContentError.at(loc, f"{name} not found", near_file(path, display)) from None
    except OSError as exc:
        raise ContentError.at(loc, f"cannot read {name}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ContentError.at(loc, f"{name} is {file_kind(st.st_mode)}, not a regular file; refused")
        if st.st_size > limit:
            raise ContentError.at(loc, f"{name} is {st.st_size:,} bytes; the limit is {limit:,}")
        chunks, size = [], 0
        while block := os.read(fd, 1 << 20):
            size += len(block)
            if size > limit:  # it grew while being read
                raise ContentError.at(loc, f"{name} is over {limit:,} bytes")
            chunks.append(block)
    except OSError as exc:
        raise ContentError.at(loc, f"cannot read {name}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def decoded(raw: bytes, display: str, what: str = "") -> str:
    """UTF-8 text exactly as the file has it (BOM and line ends kept: `plain_text` reads it); bytes that are not
    UTF-8 are an error at their line and column (`not_utf8`)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(raw, exc.start, display, f"{what or 'file'} is not UTF-8 text") from None


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, for a message ("a folder", "a pipe"...)."""
    kinds = [(stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a device")]
    kinds += [(stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")]
    return next((name for test, name in kinds if test(mode)), "not a file")
