"""The one pattern for names content gives things, and the one rule for the names of the files pnpgen writes.

Names of games, components, sides and facts, layout and icon names: lower-case letters, digits, '-' and '_',
starting with a letter or digit, and never a name Windows keeps for a device (`con`, `prn`, `aux`, `nul`,
`com1`-`com9`, `lpt1`-`lpt9`). Such a name is safe as a file name on every system, never a path.

Every file name pnpgen writes (`<component>.pdf`, an export's PNGs, `changes.txt`...) is made from those names
and passes `file_name_problem`; names that differ only by case are one file on Windows and macOS, so they are
compared by `same_file_key`. A game that builds on one system builds on all; and a `--content` or `--out` typed
as on Windows is caught off Windows (`typed_for_windows`) rather than naming another folder there.
"""

from __future__ import annotations

import difflib
import fnmatch
import os
import re
import unicodedata
from pathlib import Path

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_NAME = 64
RULE = "lower-case letters, digits, '-' and '_'"

# Windows keeps these for devices, in any case and with any extension (`con.pdf`, `Aux.tiles.pdf`): such a file
# cannot be made or opened there. The superscript digits are Windows' own too.
DEVICES = frozenset(
    ["con", "prn", "aux", "nul", "conin$", "conout$"]
    + [f"{port}{n}" for port in ("com", "lpt") for n in "123456789\u00b9\u00b2\u00b3"]
)
DEVICE_RULE = "not a name Windows keeps for a device (con, prn, aux, nul, com1-9, lpt1-9)"
FORBIDDEN = '<>:"/\\|?*'


def is_device(text: str) -> bool:
    """Whether a file named `text` is a Windows device: only the part before the first dot counts (`con.pdf` and
    `aux.tiles.pdf` are, `aux-tiles.pdf` is not), and Windows ignores spaces at its end."""
    return text.split(".", 1)[0].rstrip(" ").lower() in DEVICES


def is_name(text: object) -> bool:
    return (
        isinstance(text, str)
        and len(text) <= MAX_NAME
        and NAME.match(text) is not None
        and not is_device(text)
    )


# German umlauts are written out as German writes them without accents (`Mühle` -> `Muehle`), not dropped
UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})


def without_accents(text: str) -> str:
    """`text` with its accents dropped, in either form they are stored (NFC, NFD), and umlauts written out
    (`Épée` -> `Epee`, `Plättchen.csv` -> `Plaettchen.csv`): a name every system stores alike."""
    plain = unicodedata.normalize("NFKD", unicodedata.normalize("NFC", text).translate(UMLAUTS))
    return "".join(ch for ch in plain if not unicodedata.combining(ch))


def suggested(text: str, suffix: str = "-1") -> str:
    """A name for what `text` names, to offer when it is not one: accents dropped (umlauts written out), case
    folded, every other character a '-' (`Épée Longue` -> `epee-longue`, `Die Mühle` -> `die-muehle`); never a
    device (`suffix` added: `con-1`, or `aux-icon` for an icon)."""
    plain = without_accents(text).casefold()
    name = re.sub(r"[^a-z0-9_-]+", "-", plain).strip("-_")[:MAX_NAME].rstrip("-_") or "name"
    return f"{name[: MAX_NAME - len(suffix)]}{suffix}" if is_device(name) else name


def rule_of(text: object) -> str:
    """What a name must be, said for the way `text` is not one (after 'must be')."""
    return DEVICE_RULE if isinstance(text, str) and NAME.match(text) and is_device(text) else RULE


def file_name_problem(name: str) -> str | None:
    """Why `name` could not be the name of a file on every system (Windows, macOS, Linux), or None when it can.
    The same answer on every system: the rule that every file pnpgen writes is named by."""
    if name in ("", ".", ".."):
        return "it is not a file name"
    bad = sorted({ch for ch in name if ch in FORBIDDEN or ord(ch) < 32 or ord(ch) == 127})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        return f"it holds {shown}, which Windows forbids in a file name"
    if name[-1] in ". ":
        return "it ends in a dot or a space, which Windows drops from a file name"
    if is_device(name):
        return f"'{name.split('.', 1)[0]}' is a name Windows keeps for a device (con, prn, aux, nul, com1-9, lpt1-9)"
    return None


def same_file_key(name: str) -> str:
    """Names with one key are one file where case is ignored (Windows, macOS): compare outputs by this."""
    return name.casefold()


def typed_for_windows(path: Path, windows: bool = os.name == "nt") -> str | None:
    """Why a path typed as on Windows would name another folder here, or None. On Windows, '\\' separates folders
    and 'C:' is a drive; elsewhere both are plain characters of a name, so `out\\cards` would make one folder
    named so: refused with the path to write instead, unless the folders of those names exist."""
    text = str(path)
    if windows or not ("\\" in text or re.match(r"^[A-Za-z]:[\\/]", text)):
        return None
    odd = [p for p in (path, *path.parents) if "\\" in p.name or re.match(r"^[A-Za-z]:$", p.name)]
    if all(os.path.lexists(p) for p in odd):  # those folders exist: a new `--out` inside one too
        return None
    better = text.replace("\\", "/")
    if re.match(r"^[A-Za-z]:/", better):
        return "is a Windows path (a drive letter): there are no drives here; give the folder's path on this system"
    return (
        f"is written with '\\' between folders, as on Windows: here '\\' is part of a name; write '{better}'"
    )


def listed(folder: Path, pattern: str) -> list[str]:
    """The names in `folder` that match `pattern` (`*.md`), alike on every system: the pattern's case is ignored
    (`Intro.MD` is a chapter on Linux as on Windows), and they come in the order of their code points, not in
    the order Windows compares paths in (`B.md` before `a.md` everywhere)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(n for n in names if fnmatch.fnmatchcase(n.casefold(), pattern.casefold()))


def near_file(path: Path, written: str = "") -> str:
    """A hint for a file that is not there: the name in its folder closest to it (`knight` for `knight.png`,
    `Mono-Bld.ttf` for `Mono-Bold.ttf`), written as the content wrote the path (`written`: `data/card.csv` gives
    `data/cards.csv`), so that a typo or a left-out extension is told with the name to write; '' when the folder
    is missing or holds nothing close. Hidden names are left out. Only ever called for a message: the listing is
    no input of the build."""
    try:
        names = sorted(n for n in os.listdir(path.parent) if not n.startswith("."))
    except OSError:
        return ""
    wanted = path.name
    stem, ext = (wanted.rsplit(".", 1) + [""])[:2] if "." in wanted[1:] else (wanted, "")
    stems: dict[str, list[str]] = {}
    for n in names:  # names by their stems, those with the extension asked for first
        stems.setdefault(n.rsplit(".", 1)[0] if "." in n[1:] else n, []).append(n)
    for group in stems.values():
        group.sort(key=lambda n: not n.endswith("." + ext) if ext else False)
    if wanted in stems:  # the extension left out: `knight` for `knight.png`
        close = stems[wanted]
    else:  # a typo: judged on the stems, so that a shared extension makes no name look close
        close = [stems[s][0] for s in difflib.get_close_matches(stem, sorted(stems), n=1, cutoff=0.6)]
    if not close:
        return ""
    head = written.replace("\\", "/").rstrip("/").rpartition("/")[0] if written else ""
    return f"did you mean '{head + '/' if head else ''}{close[0]}'?"


def _folded(name: str) -> str:
    """A name as macOS compares names: case folded and accents composed alike (`É` typed or stored as `E` and an
    accent). Windows folds case only; Linux neither."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def case_mismatch(
    base: Path, relative: str, listings: dict[str, dict[str, list[str]]] | None = None, rename: bool = False
) -> str | None:
    """What is wrong when a part of `relative`, from `base`, is there under another case (`Tour.svg` for
    `tour.svg`) or with its accents stored otherwise (NFC, NFD), or beside a name that differs from it only so
    (`Tour.svg` and `tour.svg`: Windows and macOS keep one of them), or written with '\\' (`sub\\tour.svg`), else
    None. Windows and macOS open it all the same, Linux does not: a game that names it so builds on one system
    only (or draws other art), so it is refused on all, with the path to write (or, for a name pnpgen looks for itself, `rename`: the name to give
    the file). `listings` keeps each folder's names, by `_folded` name, for the caller (a build's reader: one
    listing per folder, not one per file it holds: 1,000 cards of art in one folder)."""
    if "\\" in relative:  # Windows alone reads it as a folder's end (and allows no file name holding one)
        fixed = re.sub(r"\\+", "/", relative)
        return f"is written with '\\' between folders, which only Windows reads so; write '{fixed}'"
    folder, parts = base, list(Path(relative).parts)
    listings = {} if listings is None else listings
    for n, part in enumerate(parts):
        if part not in (".", ".."):
            key = os.fspath(folder)
            names = listings.get(key)
            if names is None:
                try:
                    found = sorted(os.listdir(folder))
                except OSError:
                    return None
                names = listings[key] = {}
                for name in found:
                    names.setdefault(_folded(name), []).append(name)
            alike = names.get(_folded(part), [])
            if part in alike:
                if len(alike) == 1:
                    folder = folder / part
                    continue
                beside = ", ".join(f"'{x}'" for x in alike if x != part)
                return (
                    f"names '{part}', and {beside} is beside it: names that differ only by case or accents are one "
                    "file on Windows and macOS, which keep only one of them; rename the others"
                )
            if not alike:
                return None
            if unicodedata.normalize("NFC", alike[0]) == unicodedata.normalize("NFC", part):
                return _accents_apart(part, alike[0], parts, n, rename)
            fixed = "/".join([*parts[:n], alike[0], *parts[n + 1 :]])
            said = f"names '{part}', which is '{alike[0]}' on disk"
            return f"{said}: only Windows and macOS find it so; " + (
                f"rename it '{part}'" if rename else f"write '{fixed}'"
            )
        folder = folder / part
    return None


def _accents_apart(part: str, disk: str, parts: list[str], n: int, rename: bool) -> str:
    """The message for a name written with its accents stored one way (`ä` as one character: NFC, what an editor
    types) and on disk the other (`a` and an accent: NFD, as macOS may store a file's name, Numbers' exports and
    unzipped folders among them): macOS finds the file, Windows and Linux do not. Its fix works on every system
    and in every editor: a name without accents (`Plättchen.csv` -> `Plaettchen.csv`), in the file and here."""

    def form(text: str) -> str:
        if unicodedata.is_normalized("NFC", text):
            return "composed (NFC, as typed)"
        return "decomposed (NFD, as macOS may store names)"

    what = "folder" if n < len(parts) - 1 else "file"
    said = (
        f"names '{part}' with its accents {form(part)}, the {what} on disk with them {form(disk)}: only macOS "
        "finds it so, Windows and Linux do not"
    )
    plain = without_accents(part)
    if rename:
        return f"{said}; rename the {what} '{plain}'"
    fixed = "/".join([*parts[:n], plain, *parts[n + 1 :]])
    return f"{said}; rename the {what} '{plain}' (no accents) and write '{fixed}'"
