"""Writing all or nothing: every output of a game goes to a staging folder beside the output, and moves into place
only when all of them were written.

A failure while writing (a full disk, a block too tall for a page, an image that fails to decode) discards the
staging folder and leaves the game's output as it was. Each file moves into place with one rename, the manifest
last, so a build killed at any moment leaves every file old or new; the next build sees any mismatch in the
manifest's digests. A rename that fails (Windows refuses to replace a PDF a viewer holds open) puts back every
file moved so far: the output is as it was, and the message names the file to close.

Staging folders and temporary files of builds that were killed are swept by a lease, the same on every OS: a live
build touches its staging folders every `BEAT` seconds (a daemon thread), and a staging folder or `.tmp` file
untouched for `LEASE` seconds belongs to a build that is gone. No process ids are asked after.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.pipeline import manifest
from pnpgen.pipeline.commitlock import one_at_a_time

if TYPE_CHECKING:
    import threading

_STAGING = ".staging-"
# inside a staging folder: the old outputs a commit may have to put back (no output is hidden)
_ASIDE = ".aside"
# seconds: a staging folder or temporary file untouched this long belongs to a build that is gone
LEASE = 600.0
BEAT = 30.0  # seconds between a live build's touches of its staging folders: far inside the lease


def refuse_link(folder: Path, top: Path | None = None) -> None:
    """An output folder that is a link (or not a folder) is refused, never written through; with `top` (the
    `--out` folder), so is every folder from `top` down to it (a `png/` folder that is a link, `--out` itself)."""
    chain = [folder]
    if top is not None and folder.is_relative_to(top):
        parts = folder.relative_to(top).parts
        chain = [top, *(top.joinpath(*parts[: i + 1]) for i in range(len(parts)))]
    for each in chain:
        _refuse_one(each)


def _refuse_one(folder: Path) -> None:
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise ContentError.at(
            Location(display_path(folder)), "the output folder is a link; refusing to write through it"
        )
    if not stat.S_ISDIR(mode):
        raise ContentError.at(
            Location(display_path(folder)), "the output folder is not a folder; refusing to replace it"
        )


class Stage:
    """A staging folder for one game's output folder `final`; use as a context manager."""

    def __init__(self, final: Path, top: Path | None = None):
        self.final, self.top = final, top
        refuse_link(final, top)
        self.dir = staging_folder(final)

    def __enter__(self) -> Stage:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.dir.exists():
            _remove_tree(self.dir)
        _release(self.dir)
        if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):  # a full disk, while staging
            with writing_into(self.dir, self.final):
                raise exc

    def path(self, name: str) -> Path:
        return self.dir / name

    def commit(self, names: list[str], remove: Iterable[str] = ()) -> None:
        """Move the staged `names` into the output folder (`manifest.json` last), then remove `remove`: old outputs
        the new manifest no longer lists, each only if pnpgen could have written it there.

        All or nothing across the renames: each output a new file replaces is first kept aside (a hard link, or a
        copy where the file system has none), each removed one is moved aside, and the first rename that fails
        (a PDF open in a Windows viewer) puts every file back as it was, bytes and manifest, before a located
        error naming that file is raised. An output is only ever replaced by one rename, never removed first, so
        a build killed during the commit leaves every file old or new (a link planted in the output folder is
        moved aside whole: it is not an output)."""
        refuse_link(self.final, self.top)
        self.final.mkdir(exist_ok=True)
        for name in names:  # checked before anything moves: all the files change, or none
            there = self.final / name
            if os.path.isdir(there) and not os.path.islink(there):
                raise ContentError.at(
                    Location(display_path(there)),
                    f"a folder stands where {name} goes; refusing to replace it",
                )
        ordered = sorted(names, key=lambda n: n == manifest.NAME)
        for name in ordered:
            try:
                _fsync(self.dir / name)
            except FileNotFoundError:
                raise ContentError.at(
                    Location(display_path(self.dir)),
                    f"{name} is gone from the staging folder (another program removed it); run pnpgen again",
                ) from None
            except OSError as exc:  # a full disk often shows only here, when the bytes reach it
                raise cannot_write(self.final / name, exc) from None
        aside = self.dir / _ASIDE
        aside.mkdir()
        undo = _Undo(self.final, aside)
        name = ""
        with one_at_a_time([self.final]):  # another command's commit here: before or after, never between
            try:
                for name in ordered:
                    undo.replace(self.dir / name, name)
                for name in remove:
                    if name not in names and manifest.ours(self.final, name):
                        undo.remove(name)
            except OSError as exc:
                undo.roll_back()
                raise cannot_replace(self.final / name, exc) from None
        _remove_tree(self.dir, quietly=True)  # the old files with it; what cannot go yet is swept later


class _Undo:
    """What a commit changed in `final`, so that a failed rename puts it all back; old files wait in `aside`."""

    def __init__(self, final: Path, aside: Path):
        self.final, self.aside = final, aside
        self.done: list[tuple[str, bool]] = []  # (name, whether an old file was kept aside), in order

    def replace(self, staged: Path, name: str) -> None:
        target, old = self.final / name, self.aside / name
        kept = _keep(target, old)
        try:
            os.replace(staged, target)
        except OSError:
            if kept and not os.path.lexists(target):  # a link was moved aside whole: back where it was
                os.replace(old, target)
            raise
        self.done.append((name, kept))

    def remove(self, name: str) -> None:
        os.replace(self.final / name, self.aside / name)
        self.done.append((name, True))

    def roll_back(self) -> None:
        for name, kept in reversed(self.done):
            target = self.final / name
            try:
                if kept:
                    os.replace(self.aside / name, target)
                else:
                    os.unlink(target)  # new: nothing stood there before
            except OSError:
                pass  # best effort: the error raised names the file that failed first


def _keep(target: Path, old: Path) -> bool:
    """Keep the file at `target` as `old` (a hard link: no bytes copied; a copy where links are not supported),
    leaving `target` in place; False when nothing is there. A link planted in the output is moved aside whole."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        os.replace(target, old)
        return True
    try:
        os.link(target, old)
    except OSError:
        import shutil

        shutil.copy2(target, old)  # FAT, exFAT, some network shares: no hard links
    return True


def cannot_replace(path: Path, exc: OSError) -> ContentError:
    """The located error for an output that could not be replaced or removed."""
    where = Location(display_path(path))
    if isinstance(exc, PermissionError):  # Windows: winerror 32 (in use) or 5 (access denied)
        return ContentError.at(
            where,
            "cannot replace it: another program holds it open, or it may not be changed; close it in the viewer"
            " (or whatever holds it) and run pnpgen again",
        )
    return ContentError.at(where, f"cannot replace it: {exc.strerror or exc}")


def cannot_write(path: Path, exc: OSError) -> ContentError:
    """The located error for an output that could not be written (a full disk): nothing was replaced."""
    why = exc.strerror or str(exc)
    return ContentError.at(Location(display_path(path)), f"could not write it: {why}; nothing was changed")


@contextmanager
def writing_into(staged: Path, final: Path) -> Iterator[None]:
    """A failure of the system while writing into the staging folder `staged` (a full disk, a file that may not
    be made) becomes the located error naming the file where it was going, under `final`; the caller discards
    `staged`, so the old output stays as it was."""
    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        where = final
        if exc.filename is not None:
            try:
                where = final / Path(os.fsdecode(exc.filename)).relative_to(staged)
            except ValueError:
                where = Path(os.fsdecode(exc.filename))
        raise cannot_write(where, exc) from None


def swap_folder(staged: Path, final: Path, top: Path | None = None) -> None:
    """Put the folder `staged` where `final` is: `swap_folders` of one pair."""
    swap_folders([(staged, final)], top)


def swap_folders(
    pairs: list[tuple[Path, Path]], top: Path | None = None, then: Callable[[], object] | None = None
) -> None:
    """Put each staged folder where its final folder is, all or none, the same way on every OS: each final folder
    is renamed aside and its staged one renamed in; `then()` (another commit, say a `Stage`'s) runs last; and only
    when all of that succeeded are the old folders removed. A reader sees a folder old or new, never a mix of two
    exports' files (two commands' swaps take turns: `commitlock`); for the moment between its two renames, none. When a rename fails (Windows refuses to rename a folder holding a file another
    program has open) or `then()` raises, every folder renamed so far is put back, new ones where they were
    staged, old ones in place, and a located error names the folder: the output is as it was. A process killed
    between the two renames of a folder leaves it absent and the old one in a staging folder beside it, which the
    sweep puts back once its lease has run out (unless the export, run again, made the folder meanwhile)."""
    for staged, final in pairs:
        refuse_link(final, top)
        for f in sorted(staged.rglob("*")):  # an export's folders of folders: every file in them
            try:
                _fsync(f)
            except OSError as exc:  # a full disk often shows only here, when the bytes reach it
                raise cannot_write(final / f.relative_to(staged), exc) from None
    with one_at_a_time([final for _, final in pairs]):  # another command's swap of these: before or after
        aside_of: list[tuple[Path, Path]] = []  # (final, its old folder) renamed aside
        moved_in: list[tuple[Path, Path]] = []  # (staged, final) renamed in
        failed: Path | None = None
        try:
            for staged, final in pairs:
                failed = final
                if os.path.lexists(final):
                    aside = final.with_name(f".{final.name}{_STAGING}{os.getpid()}-old-{os.urandom(4).hex()}")
                    os.rename(final, aside)
                    _hold(aside)
                    _touch(aside)  # its mtime may be days old: made fresh, so no sweep takes it meanwhile
                    aside_of.append((final, aside))
                os.rename(staged, final)
                moved_in.append((staged, final))
            failed = None
            if then is not None:
                then()
        except BaseException as exc:
            for staged, final in reversed(moved_in):
                _quietly(os.rename, final, staged)  # the caller discards it, as any staging folder
            for final, aside in reversed(aside_of):
                _quietly(os.rename, aside, final)
                _release(aside)
            if failed is not None and isinstance(exc, OSError):
                raise cannot_replace(failed, exc) from None
            raise
    for staged, _ in moved_in:
        _release(staged)
    for _, aside in aside_of:
        _remove_tree(aside, quietly=True)


def _quietly(rename: Callable[[Path, Path], None], a: Path, b: Path) -> None:
    with contextlib.suppress(OSError):  # best effort: the error raised names what failed first
        rename(a, b)


def staging_folder(final: Path) -> Path:
    """A fresh staging folder beside `final` (same file system, so renames are atomic), held by this process's
    lease; what killed builds left beside `final` is swept first."""
    import tempfile  # here, like shutil and threading: the unchanged-game check only sweeps

    final.parent.mkdir(parents=True, exist_ok=True)
    sweep(final.parent)
    folder = Path(tempfile.mkdtemp(prefix=f".{final.name}{_STAGING}{os.getpid()}-", dir=final.parent))
    _hold(folder)
    return folder


def sweep(folder: Path, now: float | None = None) -> None:
    """Remove what builds that were killed left in `folder`: staging folders and temporary files whose lease ran
    out (untouched for `LEASE` seconds; a live build touches its own every `BEAT` seconds). Only pnpgen's own
    names, and never through a link; an old folder `swap_folders` renamed aside with nothing in its place is put back."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    now = time.time() if now is None else now
    for entry in entries:
        name = entry.name
        if not _ours(name) or os.path.abspath(entry.path) in _held:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if now - st.st_mtime < LEASE:
                continue  # a live build's (or one gone only lately: swept by a later build)
            if _STAGING in name and stat.S_ISDIR(st.st_mode):
                # `swap_folders`' old folder (.<final>.staging-<pid>-old-*) with nothing in its place: put back
                head, _, rest = name.partition(_STAGING)
                final = os.path.join(folder, head[1:])
                if rest.split("-", 2)[1:2] == ["old"] and head[1:] and not os.path.lexists(final):
                    os.rename(entry.path, final)  # the only copy left of the last good output
                    continue
                _remove_tree(Path(entry.path))
            elif name.endswith(".tmp") and stat.S_ISREG(st.st_mode):
                os.unlink(entry.path)
        except OSError:
            pass


def _ours(name: str) -> bool:
    """Whether `name` is one pnpgen gives a staging folder (`.<name>.staging-<pid>-*`) or a temporary file
    (`.<name>.<pid>.<...>.tmp`); the number only tells them apart, it is never asked after."""
    if not name.startswith("."):
        return False
    if _STAGING in name:
        return name.split(_STAGING, 1)[1].split("-", 1)[0].isdigit()
    if name.endswith(".tmp"):
        return any(x.isdigit() for x in name.split("."))
    return False


# -- the lease ---------------------------------------------------------------------------------------------------
_held: set[str] = set()  # the staging folders this process still writes into
_beating: list[threading.Thread] = []  # the heartbeat thread, once started in this process


def _hold(folder: Path) -> None:
    """Keep `folder`'s lease fresh while this process lives: a daemon thread touches it every `BEAT` seconds."""
    _held.add(os.path.abspath(folder))
    if not _beating or not _beating[0].is_alive():  # none yet, or a parent's: forks copy no thread
        import threading

        _beating.clear()
        thread = threading.Thread(target=_beat, name="pnpgen-staging-lease", daemon=True)
        _beating.append(thread)
        thread.start()


def _release(folder: Path) -> None:
    _held.discard(os.path.abspath(folder))


def _beat() -> None:
    while True:
        time.sleep(BEAT)
        for path in list(_held):
            _touch(Path(path))


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except FileNotFoundError:
        _release(path)
    except OSError:
        pass  # held open exclusively for a moment (Windows): touched again at the next beat


def _remove_tree(folder: Path, quietly: bool = False) -> None:
    """Remove a staging folder pnpgen made: its files and folders, never following a link out of it. `quietly`:
    what cannot be removed now (a file another program holds open on Windows) stays, for a later sweep."""
    _release(folder)
    try:
        if os.path.islink(folder):
            os.unlink(folder)
            return
        import shutil

        shutil.rmtree(folder)  # rmtree does not follow links inside the tree
    except FileNotFoundError:
        pass
    except OSError:
        if not quietly:
            raise


def flush(path: Path) -> None:
    """`_fsync` for a file written outside a staging folder (calibrate's sheet), or by a worker once written."""
    _fsync(path)


def _fsync(path: Path) -> None:
    """Flush a written file to the disk before it moves into place: every file a command writes passes here,
    the last point where a full disk can still leave the old output as it was."""
    if path.is_dir():
        return
    fd = os.open(path, os.O_RDWR)  # not read-only: Windows' fsync (_commit) refuses a read-only descriptor
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sha256_of(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()
