"""Writing all or nothing: every output of a game goes to a staging folder beside the output, and moves into place
only when all of them were written.

A failure while writing (a full disk, a block too tall for a page, an image that fails to decode) discards the
staging folder and leaves the game's output as it was. Each file moves into place with one rename, the manifest
last, so a build killed at any moment leaves every file old or new; the next build sees any mismatch in the
manifest's digests. Staging folders and temporary files of builds that were killed are swept.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.pipeline import manifest

_STAGING = ".staging-"


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

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.dir.exists():
            _remove_tree(self.dir)

    def path(self, name: str) -> Path:
        return self.dir / name

    def commit(self, names: list[str], remove: Iterable[str] = ()) -> None:
        """Move the staged `names` into the output folder (`manifest.json` last), then remove `remove`: old outputs
        the new manifest no longer lists, each only if pnpgen could have written it there."""
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
            staged = self.dir / name
            _fsync(staged)
            os.replace(staged, self.final / name)
        for name in remove:
            if name not in names and manifest.ours(self.final, name):
                (self.final / name).unlink()
        _remove_tree(self.dir)


def swap_folder(staged: Path, final: Path, top: Path | None = None) -> None:
    """Put the folder `staged` where `final` is, in one step where Linux allows (renameat2 RENAME_EXCHANGE), so a
    reader sees the old folder or the new one, never a mix; the old one is removed afterwards."""
    refuse_link(final, top)
    for f in staged.iterdir():
        _fsync(f)
    if not final.exists():
        os.rename(staged, final)
        return
    if _exchange(staged, final):
        _remove_tree(staged)  # now holds the old folder
        return
    old = final.with_name(final.name + f".old-{os.getpid()}")
    os.rename(final, old)
    os.rename(staged, final)
    _remove_tree(old)


def staging_folder(final: Path) -> Path:
    """A fresh staging folder beside `final` (same file system, so renames are atomic)."""
    import tempfile  # here, like shutil and ctypes: the unchanged-game check only sweeps

    final.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{final.name}{_STAGING}{os.getpid()}-", dir=final.parent))


def sweep(folder: Path) -> None:
    """Remove what builds that were killed left in `folder`: staging folders and temporary files of processes
    that no longer run. Only pnpgen's own names, and never through a link."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        pid = _pid_in(name)
        if pid is None or pid == os.getpid() or _alive(pid):
            continue
        try:
            if _STAGING in name and entry.is_dir(follow_symlinks=False):
                _remove_tree(Path(entry.path))
            elif name.endswith(".tmp") and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            pass


def _pid_in(name: str) -> int | None:
    if not name.startswith("."):
        return None
    if _STAGING in name:
        digits = name.split(_STAGING, 1)[1].split("-", 1)[0]
        return int(digits) if digits.isdigit() else None
    if name.endswith(".tmp"):
        return next((int(x) for x in name.split(".") if x.isdigit()), None)
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed writer nobody has reaped is a zombie: it will never finish its file
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    except (OSError, IndexError):
        return True


def _remove_tree(folder: Path) -> None:
    """Remove a staging folder pnpgen made: its files and folders, never following a link out of it."""
    try:
        if os.path.islink(folder):
            os.unlink(folder)
            return
        import shutil

        shutil.rmtree(folder)  # rmtree does not follow links inside the tree
    except FileNotFoundError:
        pass


def _fsync(path: Path) -> None:
    if path.is_dir():
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 with RENAME_EXCHANGE); False where that is not available."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()
