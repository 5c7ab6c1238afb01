"""The one way in: every file a build reads is confined, bounded and recorded.

A `Reader` opens every file a build reads. It resolves the real path (links followed at every level) and
refuses anything outside its roots (the game folder, the shared layouts folder, pnpgen's built-in layouts) and
what is not a regular file (a folder, a pipe, a device) without opening it for reading; it bounds the size; it
decodes text as UTF-8 with a located error otherwise, and reads it the same whatever system wrote it: a byte
order mark dropped, CRLF or CR made LF (`textfiles.plain_text`): a game saved on Windows builds the same PDFs.

Everything it reads is recorded, with its digest, into every recording open at the time (the way Sphinx's
`env.note_dependency` works): `with reader.recording() as inputs: ...`. A lookup that found nothing is recorded
as `missing` (so a file added later, a layout that shadows a shared one for instance, makes the output stale),
and a folder listing as the digest of its names (a new rulebook chapter). Freshness is decided from these
records alone (`pnpgen.pipeline.freshness`); nobody lists an output's inputs by hand. Light on purpose
(hashlib, os, pathlib): the unchanged-game check uses it without YAML, Jinja or ReportLab.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.names import case_mismatch, listed, near_file
from pnpgen.textfiles import MAX_BYTES, READ_FLAGS, decoded, file_kind, plain_text, read_bounded

PACKAGE = Path(__file__).resolve().parent  # pnpgen's own folder, wherever it is installed
OWN = "pnpgen:"  # the key of a file of pnpgen's own (a built-in layout) starts so, then its path in PACKAGE
MISSING = "missing"  # the digest recorded for a lookup that found no file
NOT_A_FILE = "not-a-file"  # something is there that is not a regular file (a pipe, a folder): never "missing"
LISTING = "names:"  # the digest of a folder listing starts so
MAX_ART_BYTES = 60_000_000  # an image or a font
MAX_PIXELS = 400_000_000  # decoded pixels of all distinct images one game's build draws (a JPEG: a quarter)


def confined(path: Path, roots: list[Path]) -> Path | None:
    """The real path of `path` when it lies inside one of `roots` (links followed at every level), else None.

    `Path.resolve` with strings: the same answer (a link loop is None) without a Path made per step; the
    unchanged-game check calls this for every input of every game."""
    real = os.path.realpath(path)  # not strict: never raises for a missing file or a loop
    try:
        os.stat(real)
    except OSError as exc:  # missing is fine (a lookup records it); a loop is refused
        if exc.errno == errno.ELOOP:
            return None
    for r in roots:
        top = os.fspath(r)
        if real == top or real.startswith(top if top.endswith(os.sep) else top + os.sep):
            return Path(real)
    return None


def loops(path: Path) -> bool:
    """Whether following `path`'s links goes round in a circle (a refusal says so, not that it leaves)."""
    try:
        path.resolve()
    except RuntimeError:  # Python's "Symlink loop"
        return True
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def path_of(key: str, project: Path) -> Path:
    """The file a recorded key names: `pnpgen:<path>` inside pnpgen's own folder, any other key inside the
    project. (Reading it is still confined to the roots: a key naming another of pnpgen's files is refused.)"""
    return PACKAGE / key[len(OWN) :] if key.startswith(OWN) else project / key


def digest_of(path: Path, roots: list[Path]) -> str:
    """What a recorded input is now: its sha256, `missing`, or for a listing key (`folder/*.ext`) its names.

    Only confined regular files are read: a manifest names inputs, and a manifest is not trusted."""
    if "*" in path.name:
        return listing_digest(path.parent, path.name, roots)
    real = confined(path, roots)
    if real is None:
        return MISSING if not os.path.lexists(path) else "refused"
    try:
        st = os.stat(real)
    except OSError:
        return MISSING
    if not stat.S_ISREG(st.st_mode):
        return NOT_A_FILE
    try:
        return _sha_file(real)
    except OSError:
        return MISSING


def listing_digest(folder: Path, pattern: str, roots: list[Path]) -> str:
    if os.path.lexists(folder) and confined(folder, roots) is None:
        return "refused"  # the folder became a link out: never "the same empty listing"
    names = _list(folder, pattern, roots)
    return LISTING + hashlib.sha256("\n".join(p.name for p in names).encode()).hexdigest()[:16]


def _list(folder: Path, pattern: str, roots: list[Path]) -> list[Path]:
    real = confined(folder, roots)
    if real is None or not real.is_dir():
        return []
    # everything matching (alike on every system), folders too: a folder named like a chapter, a pipe or a link
    # out is then refused by name when it is read, never skipped in silence
    return [folder / name for name in listed(folder, pattern)]


def _sha_file(path: Path) -> str:
    h = hashlib.sha256()
    fd = os.open(path, READ_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        while block := os.read(fd, 1 << 20):
            h.update(block)
    finally:
        os.close(fd)
    return h.hexdigest()


class Reader:
    """Opens files for one game's build, confined to `roots`; records each read into the open recordings.

    Keys in the records are paths relative to `project` (the folder holding content/ and layouts/)."""

    def __init__(self, roots: list[Path], project: Path, parsed: dict | None = None):
        self.roots = [r.resolve() for r in roots]
        self.project = project.resolve()
        self._recordings: list[dict[str, str]] = []
        self._digests: dict[Path, str] = {}
        self._pixels: dict[Path, int] = {}
        # one build's answers, each worked out once per file, not once per card that names it: a path's real path
        # inside the roots (or None), an input's key, the files `use` has checked (path, limit -> real path), the
        # paths `inside` let through ((base, relative) -> path) and each folder's names (`names.case_mismatch`)
        self._real: dict[str, Path | None] = {}
        self._keys: dict[str, str] = {}
        self._used: dict[tuple[str, int], Path] = {}
        self._inside: dict[tuple[str, str], Path] = {}
        self._listings: dict[str, dict[str, list[str]]] = {}
        # a resident process's YAML parses, kept between builds: file -> (its text, what it parsed to); a file is
        # parsed again only when its text changed (it is still read, confined and recorded every time)
        self._parsed = parsed

    # -- recording ------------------------------------------------------------------------------------------
    @contextmanager
    def recording(self) -> Iterator[dict[str, str]]:
        """Collect what is read inside the block (nested recordings each get it too)."""
        inputs: dict[str, str] = {}
        self._recordings.append(inputs)
        try:
            yield inputs
        finally:  # by identity: two recordings may hold equal contents
            self._recordings[:] = [r for r in self._recordings if r is not inputs]

    @contextmanager
    def unrecorded(self) -> Iterator[None]:
        """Read inside the block without recording it: for what only a warning reads, never a file's content."""
        kept, self._recordings = self._recordings, []
        try:
            yield
        finally:
            self._recordings = kept

    def replay(self, inputs: dict[str, str]) -> None:
        """Record again what an earlier recording collected (for things read once and used many times)."""
        for rec in self._recordings:
            rec.update(inputs)

    def note_value(self, key: str, value: object) -> None:
        """Record a value of the content an output shows (`=key`); see `pnpgen.recorded`."""
        from pnpgen.recorded import value_digest

        self._note("=" + key, value_digest(value))

    def _note(self, key: str, digest: str) -> None:
        for rec in self._recordings:
            rec[key] = digest

    def key(self, path: Path) -> str:
        """How an input is named in a manifest: relative to the project, with '/' separators; a file of pnpgen's
        own outside the project (a built-in layout of an installed pnpgen) as `pnpgen:` and its path in the
        package, so that every key stays relative (`path_of` finds the file again). Kept once worked out."""
        name = os.fspath(path)
        key = self._keys.get(name)
        if key is None:
            absolute = Path(os.path.abspath(path))
            try:
                key = absolute.relative_to(self.project).as_posix()
            except ValueError:
                try:
                    key = OWN + absolute.relative_to(PACKAGE).as_posix()
                except ValueError:
                    key = absolute.as_posix()
            self._keys[name] = key
        return key

    def _confined(self, path: Path) -> Path | None:
        """`confined(path, self.roots)`, once per build and path (a card's art, its layouts: named by every card)."""
        name = os.fspath(path)
        if name not in self._real:
            self._real[name] = confined(path, self.roots)
        return self._real[name]

    # -- finding --------------------------------------------------------------------------------------------
    def inside(
        self, base: Path, relative: str, loc: Location, what: str, where: str = "the game folder"
    ) -> Path:
        """`relative` joined to `base`; refused when it is empty, absolute or leaves the roots (by '..' or links)."""
        known = self._inside.get((os.fspath(base), relative)) if isinstance(relative, str) else None
        if known is not None:  # found inside before, in this build (every card naming the same art)
            return known
        if not isinstance(relative, str) or not relative or Path(relative).is_absolute():
            raise ContentError.at(loc, f"{what} must be a path inside {where} (got {relative!r})")
        path = base / relative
        base_real = self._confined(base)
        real = self._confined(path)
        if real is None or base_real is None or not real.is_relative_to(base_real):
            why = "is a link that loops" if loops(path) else f"leaves {where}"
            raise ContentError.at(loc, f"{what} {relative!r} {why}; refused")
        if odd := case_mismatch(base, relative, self._listings):  # found on Windows and macOS only: refused
            raise ContentError.at(loc, f"{what} {relative!r} {odd}")
        self._inside[(os.fspath(base), relative)] = path
        return path

    def probe(self, path: Path, what: str = "file", loc: Location | None = None) -> bool:
        """Whether a regular file is there; either way the answer is recorded (a file added later counts).

        Something there that is not a regular file inside the roots (a link out, a pipe, a folder) is refused."""
        if odd := case_mismatch(path.parent, path.name, self._listings, rename=True):
            raise ContentError.at(loc or Location(display_path(path)), f"{what} '{display_path(path)}' {odd}")
        if not os.path.lexists(path):
            self._note(self.key(path), MISSING)
            return False
        self.use(path, what, loc, limit=MAX_ART_BYTES)  # confined, regular and recorded, or refused
        return True

    def listing(self, folder: Path, pattern: str, what: str = "folder") -> list[Path]:
        """The files of `folder` matching `pattern`, in name order; the listing itself is recorded. A folder
        that leaves the roots is refused, never listed as empty."""
        if os.path.lexists(folder) and confined(folder, self.roots) is None:
            raise ContentError.at(
                Location(display_path(folder)),
                f"{what} '{display_path(folder)}' leaves the game folder; refused",
            )
        names = _list(folder, pattern, self.roots)
        digest = LISTING + hashlib.sha256("\n".join(p.name for p in names).encode()).hexdigest()[:16]
        self._note(self.key(folder / pattern), digest)
        return names

    # -- reading --------------------------------------------------------------------------------------------
    def read_bytes(
        self, path: Path, what: str = "file", loc: Location | None = None, limit: int = MAX_BYTES
    ) -> bytes:
        """The bytes of a confined regular file of at most `limit` bytes; recorded."""
        display = display_path(path)
        loc = loc or Location(display)
        real = self._confine(path, what, loc)
        data = read_bounded(real, display, what, loc, limit)
        digest = hashlib.sha256(data).hexdigest()
        self._digests[real] = digest
        self._note(self.key(path), digest)
        return data

    def read_text(
        self, path: Path, what: str = "file", loc: Location | None = None, limit: int = MAX_BYTES
    ) -> str:
        """UTF-8 text (a BOM dropped, line endings made LF: `plain_text`); other bytes are a located error."""
        return plain_text(decoded(self.read_bytes(path, what, loc, limit), display_path(path), what))

    def load_yaml(self, path: Path, what: str = "file", loc: Location | None = None):
        """A YAML file with locations (see `pnpgen.source`)."""
        from pnpgen.source import load_text

        text, display = self.read_text(path, what, loc), display_path(path)
        if self._parsed is None:
            return load_text(text, display)
        known = self._parsed.get(display)
        if known is not None and known[0] == text:
            return known[1]
        data = load_text(text, display)  # a file that does not parse is not kept: its error comes again
        self._parsed[display] = (text, data)
        return data

    def use(
        self, path: Path, what: str = "file", loc: Location | None = None, limit: int = MAX_ART_BYTES
    ) -> Path:
        """A confined regular file that another library will open by name (art, fonts): its real path, recorded
        with its digest. The file is checked, and its digest computed, once per build. (Called per card for art:
        the path as messages show it is worked out only for a message.)"""
        known = self._used.get((os.fspath(path), limit))
        if known is not None:
            self._note(self.key(path), self._digests[known])
            return known
        loc = loc or Location(display_path(path))
        real = self._confine(path, what, loc)
        try:
            st = os.stat(real)
        except FileNotFoundError:
            shown = display_path(path)
            raise ContentError.at(loc, f"{what} '{shown}' not found", near_file(path, shown)) from None
        except OSError as exc:
            raise ContentError.at(loc, f"cannot read {what} '{display_path(path)}': {exc.strerror}") from None
        if not stat.S_ISREG(st.st_mode):
            raise ContentError.at(
                loc, f"{what} '{display_path(path)}' is {file_kind(st.st_mode)}, not a regular file; refused"
            )
        if st.st_size > limit:
            raise ContentError.at(
                loc, f"{what} '{display_path(path)}' is {st.st_size:,} bytes; the limit is {limit:,}"
            )
        self._note(self.key(path), self._digest(real))
        self._used[(os.fspath(path), limit)] = real
        return real

    def charge_pixels(self, real: Path, pixels: int, loc: Location, passthrough: bool = False) -> None:
        """Count an image's decoding work against the build's bound (each file once, however often it is drawn):
        every image may be within its own limit while thousands of them together are not. A JPEG that goes into
        the PDF as its own bytes (`passthrough`) counts a quarter of its pixels: it is never decoded to be
        written, only when a page is rasterised (measured: a tenth of a PNG's cost per pixel), so a game of a
        thousand cards with 300-dpi JPEG art fits where as many PNGs would not."""
        if real in self._pixels:
            return
        self._pixels[real] = pixels // 4 if passthrough else pixels
        total = sum(self._pixels.values())
        if total > MAX_PIXELS:
            raise ContentError.at(
                loc,
                f"the game's images come to {total / 1e6:,.0f} megapixels to decode in all (a JPEG counts a "
                f"quarter); the limit for one build is {MAX_PIXELS / 1e6:,.0f}",
                "use smaller art (300 dpi at the printed size is enough), or JPEG for photographic art",
            )

    def charged(self) -> dict[Path, int]:  # a copy of the images counted against the build's bound
        return dict(self._pixels)

    def recharge(self, charges: dict[Path, int], anew: bool = False) -> bool:
        """Count images drawn elsewhere (`anew`: instead of those so far); whether the total is within the bound."""
        self._pixels = dict(charges) if anew else {**charges, **self._pixels}
        return sum(self._pixels.values()) <= MAX_PIXELS

    def _digest(self, real: Path) -> str:
        if real not in self._digests:
            self._digests[real] = _sha_file(real)
            from pnpgen.faces import known_digest  # here: the unchanged-game check needs no faces

            known_digest(str(real), self._digests[real])  # art: the renderer and the manifest need it too
        return self._digests[real]

    def _confine(self, path: Path, what: str, loc: Location) -> Path:
        real = self._confined(path)
        if real is None:
            why = "is a link that loops" if loops(path) else "leaves the game folder"
            raise ContentError.at(loc, f"{what} '{display_path(path)}' {why}; refused")
        if odd := case_mismatch(path.parent, path.name, self._listings, rename=True):  # every read
            raise ContentError.at(loc, f"{what} '{display_path(path)}' {odd}")
        return real
