"""One commit at a time into an output folder: two commands writing one game's output at once (two builds, a
build and `watch`, two exports of a deck) move their files into place one after the other, never interleaved, so
the output is one command's whole, never some files of each.

The lock is a file beside the folder (`.<folder>.commit-lock`), made with `O_EXCL` (the same on every OS), held
only while files are renamed (milliseconds), and removed after. One older than `STALE` seconds belongs to a
commit that was killed: it is taken over (so a commit whose renames take longer, on a very slow share, may still
meet another's, as before there was a lock). A commit that cannot have its turn within `WAIT` seconds is a located
error, and its output is left as it was.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path

STALE = 2.0  # seconds: a lock this old was left by a killed commit (a commit renames files: milliseconds)
WAIT = 60.0  # seconds a commit waits for another's turn to end
POLL = 0.01  # seconds between two looks at a lock another commit holds


@contextmanager
def one_at_a_time(finals: list[Path]) -> Iterator[None]:
    """Hold the lock of each folder in `finals`, taken in one order by every command (none waits for one that
    waits for it), while the `with` block moves files into them."""
    with ExitStack() as stack:
        for final in sorted(set(finals)):
            stack.enter_context(_held(final))
        yield


@contextmanager
def _held(final: Path) -> Iterator[None]:
    lock = final.with_name(f".{final.name}.commit-lock")
    deadline = time.monotonic() + WAIT
    while True:
        try:
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            break
        except FileExistsError:
            try:
                if time.time() - os.stat(lock).st_mtime > STALE:
                    os.unlink(lock)  # left by a commit that was killed: taken over
                    continue
            except FileNotFoundError:
                continue  # released meanwhile
            if time.monotonic() > deadline:
                raise ContentError.at(
                    Location(display_path(final)),
                    f"another pnpgen command has been writing here for {WAIT:.0f} s; nothing was changed",
                    f"run pnpgen again once it is done (or remove {lock.name} if none is running)",
                ) from None
            time.sleep(POLL)
    try:
        yield
    finally:
        try:
            os.unlink(lock)
        except OSError:
            pass  # gone already (taken over): nothing to release
