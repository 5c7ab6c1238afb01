"""A text file as a person keeps it: its exact text, and a way to change a few spans of it and nothing else.

pnpgen reads a file as `textfiles.plain_text` (a byte order mark dropped, CRLF and lone CR made LF), and the YAML
outline (`source.outline`) indexes that plain text. `TextFile` maps those indexes back to the file's own text,
so a splice keeps every other byte: the BOM, each line's own ending, the comments, the quoting. Writes are
whole or nothing (a temporary file beside it, one rename), and refused when the file changed since the digest
the caller saw (`Conflict`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.textfiles import MAX_BYTES, decoded, plain_text, read_bounded

MAX_EDIT_BYTES = MAX_BYTES  # the size a build reads


class Conflict(ContentError):
    """The file changed on disk since the digest the edit was asked against: refused, nothing written (the
    server answers 409 and the page reloads the file)."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class TextFile:
    path: Path
    raw: bytes  # the bytes as read
    text: str  # decoded, exactly as the file has it (BOM, CR, LF kept)
    plain: str  # as pnpgen reads it: what outline indexes

    @property
    def display(self) -> str:
        return display_path(self.path)

    @property
    def digest(self) -> str:
        return digest(self.raw)

    @property
    def newline(self) -> str:
        """The line ending a new line gets: the file's first one (LF for a file of one line)."""
        i = self.text.find("\n")
        if i > 0 and self.text[i - 1] == "\r":
            return "\r\n"
        if i < 0 and "\r" in self.text:
            return "\r"
        return "\n"

    def line_of(self, index: int) -> int:
        """The 1-based line of a plain-text index."""
        return self.plain.count("\n", 0, index) + 1

    def original(self, index: int) -> int:
        """The index in `text` of the plain-text index `index` (line ends are one character in plain text)."""
        line = self.plain.count("\n", 0, index)
        col = index - (self.plain.rfind("\n", 0, index) + 1)
        pos = 1 if self.text.startswith("\ufeff") else 0
        for _ in range(line):
            nl = _next_line_end(self.text, pos)
            pos = nl + (2 if self.text.startswith("\r\n", nl) else 1)
        return pos + col

    def spliced(self, changes: list[tuple[int, int, str]]) -> str:
        """The file's text with each (start, end, new) plain-text span replaced; `new` is written with the file's
        own line ending. Spans must not overlap."""
        out, last = [], 0
        nl = self.newline
        for start, end, new in sorted(changes, key=lambda c: (c[0], c[1])):
            a, b = self.original(start), self.original(end)
            if a < last:
                raise ValueError("overlapping edits")
            out.append(self.text[last:a])
            out.append(new.replace("\n", nl) if nl != "\n" else new)
            last = b
        out.append(self.text[last:])
        return "".join(out)


def _next_line_end(text: str, pos: int) -> int:
    n, r = text.find("\n", pos), text.find("\r", pos)
    if r >= 0 and (n < 0 or r < n):
        return r
    return n if n >= 0 else len(text)


def read(path: Path, expect_digest: str | None = None) -> TextFile:
    """The file at `path`; `Conflict` when `expect_digest` is given and the bytes are no longer those."""
    display = display_path(path)
    if path.is_symlink():  # replacing it would put a file where the link was: the target is what to edit
        raise ContentError.at(
            Location(display), f"this is a link; edit the file it points to ({display_path(path.resolve())})"
        )
    raw = read_bounded(path, display, limit=MAX_EDIT_BYTES)  # as the build reads it: bounded, a pipe refused
    if expect_digest is not None and digest(raw) != expect_digest:
        raise Conflict.at(
            Location(display),
            "the file changed on disk since it was loaded; nothing was written",
            "load it again and repeat the edit",
        )
    text = decoded(raw, display)
    return TextFile(path, raw, text, plain_text(text))


def write(tf: TextFile, text: str) -> bytes:
    """Write `text` over `tf`'s file whole or not at all; refused (`Conflict`) when the file changed since `tf`
    was read. Returns the bytes written."""
    data = text.encode("utf-8")
    path = tf.path
    try:
        if path.read_bytes() != tf.raw:
            raise Conflict.at(
                Location(tf.display),
                "the file changed on disk while it was being edited; nothing was written",
                "load it again and repeat the edit",
            )
    except OSError as exc:
        raise ContentError.at(Location(tf.display), f"cannot read file: {exc.strerror}") from None
    temp = path.with_name(f".{path.name}.{os.getpid()}.edit.tmp")  # swept by staging's lease if left behind
    try:
        from pnpgen.pipeline.staging import cannot_write, flush

        try:
            with open(temp, "wb") as fh:
                fh.write(data)
            flush(temp)  # a full disk often shows only when the bytes reach it
        except OSError as exc:
            raise cannot_write(path, exc) from None
        with contextlib.suppress(OSError):  # the file keeps its permissions (on Windows: its read-only bit)
            shutil.copymode(path, temp)
        try:
            os.replace(temp, path)
        except OSError as exc:
            from pnpgen.pipeline.staging import cannot_replace

            raise cannot_replace(path, exc) from None
    finally:
        if temp.exists():
            temp.unlink()
    return data
