"""Locations and diagnostics: every problem a user can act on names file:line:column."""

from __future__ import annotations

import codecs
import difflib
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from pnpgen.sheetkinds import kind_of


@dataclass(frozen=True, order=True)
class Location:
    """A place in a content file; line and column are 1-based (0 means unknown)."""

    path: str
    line: int = 0
    col: int = 0
    sheet: str = ""  # a workbook's sheet: the place reads as `file:Sheet!C14`

    def __str__(self) -> str:
        if self.sheet:
            return f"{self.path}:{self.sheet}!{column_letters(self.col)}{self.line}"
        if self.line:
            return f"{self.path}:{self.line}:{self.col or 1}"
        return self.path

    def place(self) -> str:
        """Where a whole record is, as a designer finds it: `file:line` in YAML or Markdown; in a data sheet its
        cell, `data/cards.xlsx:Market!A10` or `data/cards.csv:11:1` (a row's first cell)."""
        if self.in_sheet:
            return str(self)
        return f"{self.path}:{self.line}" if self.line else self.path

    @property
    def in_sheet(self) -> bool:
        """Whether this is a data sheet's cell: a workbook's, a CSV file's, or a sheet's fetched from a URL."""
        return (
            bool(self.sheet)
            or getattr(kind_of(self.path), "cells", False)
            or self.path.startswith(("http://", "https://"))
        )

    def shifted(self, lines: int) -> Location:
        """The same file, `lines` further down (used for a template's own line numbers)."""
        return Location(self.path, self.line + lines, self.col if lines == 0 else 1)


def column_letters(col: int) -> str:
    """1 -> A, 27 -> AA: a spreadsheet's name for a column."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters or "A"


def display_path(path: Path | str) -> str:
    """A path as the user should read it: relative to the working directory when possible."""
    p = Path(os.path.abspath(path))  # not resolved: a link is shown where it stands, not where it points
    for base in (Path(os.path.abspath(os.getcwd())), Path.cwd().resolve()):
        try:
            return str(p.relative_to(base))
        except ValueError:
            continue
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


MAX_SHOWN = 40  # characters of a name a message shows (a 10,000-character card name is shortened)


def short(text: object, limit: int = MAX_SHOWN) -> str:
    """A name as a message shows it: whole when short, else its start and '...'."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


IRREGULAR = {"erratum": "errata"}


def counted(n: int, word: str) -> str:
    """`n word`, the word in the plural unless n is 1: `1 image`, `2 images`, `0 errata`."""
    return f"{n} {word if n == 1 else IRREGULAR.get(word, word + 's')}"


def printable(text: str) -> str:
    """Text from content made safe for a terminal: control characters (escape sequences, carriage returns, line
    breaks) and the marks that reorder text (bidirectional overrides) are shown as escapes, never acted on."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else _escape(ch) for ch in text)


UNICODE_CODECS = (
    "utf-8",
    "utf-16",
    "utf-32",
    "utf-8-sig",
    "utf-16-le",
    "utf-16-be",
    "utf-32-le",
    "utf-32-be",
)


def safe_console(streams: Iterable[object] | None = None) -> None:
    """Make the console streams print any text: one that cannot encode every character (a Windows console or a
    redirect in cp1252, `PYTHONIOENCODING=cp1252:strict`) shows what it cannot encode as an escape (`\\u2192`)
    instead of failing the command. Called once, first thing, by the `pnpgen` command (`pnpgen.__main__`)."""
    for stream in streams if streams is not None else (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if encoding is None or not hasattr(stream, "reconfigure"):
            continue
        try:
            name = codecs.lookup(encoding).name
        except LookupError:
            name = ""
        if name not in UNICODE_CODECS and getattr(stream, "errors", "strict") in (
            "strict",
            "surrogateescape",
        ):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or detached stream: nothing will be printed on it anyway
                continue


PIPE_CLOSED = 141  # what a Unix tool ends with when its reader stops (128 + SIGPIPE): `pnpgen list | head -1`


def pipe_closed() -> NoReturn:
    """End the command quietly because whoever read its output stopped reading (`| head`): nothing more is
    printed, not even what is buffered (standard output is pointed at the null device, so the flush at exit
    cannot fail again), and the exit code is the one a Unix tool gives."""
    for stream in (sys.stdout, sys.stderr):
        try:
            fd = stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)
        except (OSError, ValueError, AttributeError):  # no file behind it (a test's capture): nothing to do
            continue
    sys.exit(PIPE_CLOSED)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning"
    location: Location
    message: str
    hint: str = ""
    follows: bool = False  # a consequence of another error (`Diagnostics.consequence`)

    def format(self) -> str:
        text = f"{printable(str(self.location))}: {self.severity}: {printable(self.message)}"
        if self.hint:
            text += f"\n  {printable(self.hint)}"
        return text

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.location.path, self.location.line, self.location.col, self.message)


@dataclass
class Diagnostics:
    """Collects every problem of a stage so the user sees them all at once."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, location: Location, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic("error", location, message, hint))

    def warning(self, location: Location, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic("warning", location, message, hint))

    def consequence(self, location: Location, message: str, hint: str = "") -> None:
        """An error that follows from another one reported on its own (a card that could not be drawn, shown by a
        picture or a diagram): it fails the build all the same, but is told only when no other error is, so one
        mistake gives one message, its cause's."""
        self.items.append(Diagnostic("error", location, message, hint, follows=True))

    def extend(self, other: Diagnostics) -> None:
        self.items.extend(other.items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def sorted(self) -> list[Diagnostic]:
        """Each problem once, by place; a consequence (`consequence`) only when no other error is told."""
        caused = any(d.severity == "error" and not d.follows for d in self.items)
        seen, out = set(), []
        for d in sorted(self.items, key=Diagnostic.sort_key):
            if d not in seen and not (caused and d.follows):
                seen.add(d)
                out.append(d)
        return out

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ContentError(self)


class UsageProblem(Exception):
    """The command line asks for something that is not there (a game, a component): exit code 2."""


class ContentError(Exception):
    """Raised when content cannot be built; carries every diagnostic found."""

    def __init__(self, diagnostics: Diagnostics | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = Diagnostics([diagnostics])
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics.sorted()))

    # crosses process boundaries with every diagnostic intact
    def __reduce__(self) -> tuple[type[ContentError], tuple[Diagnostics]]:
        return (type(self), (self.diagnostics,))

    @classmethod
    def at(cls, location: Location, message: str, hint: str = "") -> ContentError:
        return cls(Diagnostic("error", location, message, hint))


def not_one_of(word: object, choices: Iterable[str]) -> str:
    """`must be one of a, b, c (got 'x')`, with the closest choice when one is close: the list once, never again as
    did-you-mean's `expected one of`."""
    choices = list(choices)
    close = difflib.get_close_matches(str(word), sorted(choices), n=1, cutoff=0.6)
    said = f"must be one of {', '.join(choices)} (got {word!r})"
    return said + (f"; did you mean '{close[0]}'?" if close else "")


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A hint naming the closest accepted word, or listing them all when none is close."""
    choices = sorted(choices)
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    # every one, as many as any element's keys (a text element takes 19); a longer list (icon names) is cut
    listing = ", ".join(choices) if len(choices) <= 40 else ", ".join(choices[:40]) + ", ..."
    if close:
        return f"did you mean '{close[0]}'?" + (f" (accepted: {listing})" if len(choices) <= 16 else "")
    return f"expected one of: {listing}"


def not_utf8(raw: bytes, start: int, display: str, said: str) -> ContentError:
    """The error for text whose byte at `start` is not UTF-8, at its line and column, saying how to save the file
    as UTF-8 (a spreadsheet program's way for a data sheet, an editor's for the others)."""
    line, col, byte = utf8_fault(raw, start)
    how = (
        "in Excel, Save As 'CSV UTF-8 (Comma delimited)'; in Numbers, Export To CSV with Text Encoding "
        "'Unicode (UTF-8)'; in LibreOffice, character set 'Unicode (UTF-8)'"
        if Location(display).in_sheet
        else "in Notepad, Save As with encoding 'UTF-8'; in other editors, 'Save with Encoding' UTF-8"
    )
    return ContentError.at(Location(display, line, col), f"{said} ({byte})", f"save it as UTF-8: {how}")


def utf8_fault(raw: bytes, start: int) -> tuple[int, int, str]:
    """Where the byte at `start`, which is not UTF-8, stands (line, and column counted in characters as an editor
    counts them), and the byte as a message names it: with what it is in Windows-1252, the "ANSI" that Excel's
    plain "CSV" and older Notepad write (`byte 0xe0, 'à' in Windows-1252`), or in Mac OS Roman (`_legacy`)."""
    prefix = raw[:start]  # lines end as `plain_text` ends them: LF, CRLF or a lone CR
    line = prefix.count(b"\n") + prefix.count(b"\r") - prefix.count(b"\r\n") + 1
    line_start = max(prefix.rfind(b"\n"), prefix.rfind(b"\r")) + 1
    bom = b"\xef\xbb\xbf" if line_start == 0 else b""  # a byte order mark is no column
    before = prefix[line_start:].removeprefix(bom)
    byte = raw[start : start + 1]
    code, name = _legacy(raw)
    try:
        ansi = byte.decode(code)
    except UnicodeDecodeError:
        ansi = ""
    text = re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", raw) is None  # no control bytes: not binary data
    shown = f", '{ansi}' in {name}" if text and ansi.isprintable() and ansi.strip() else ""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # what Notepad calls "Unicode"
        shown = ": the file is UTF-16"
    return line, len(before.decode("utf-8", "replace")) + 1, f"byte 0x{byte[0]:02x}{shown}"


# the letters a European language's text most often has beyond ASCII: what a file's other bytes most likely are
_LETTERS = frozenset("äöüßéèêëàâáçîïíôóòûùúñœÄÖÜ")


def _legacy(raw: bytes) -> tuple[str, str]:
    """The code page a file that is not UTF-8 was most likely saved in: Windows-1252 (Excel's plain "CSV" and
    older Notepad on Windows), unless Mac OS Roman (older Mac programs' plain text) reads more of its bytes
    beyond ASCII as common letters (`Plättchen` saved on a Mac: byte 0x8a is 'ä' there, 'Š' in Windows-1252)."""
    high = bytes(b for b in raw[:100_000] if b > 0x7F)

    def letters(code: str) -> int:
        return sum(ch in _LETTERS for ch in high.decode(code, "replace"))

    return (
        ("mac_roman", "Mac OS Roman")
        if letters("mac_roman") > letters("cp1252")
        else ("cp1252", "Windows-1252")
    )
