"""Running work in parallel processes: the files of one game, or several games at once.

Each job is named by its index and only its result (a file's pages and digest, a game's result) comes back
pickled. Where workers are forked (Linux), what they work on (faces, plans) is inherited; where they are spawned
(Windows, macOS), the items are pickled as each worker starts, so only work whose items pickle (a game to build,
named by its folder) runs in parallel there, and a game's files are written one after another in its own process.
Where no pool can start, everything runs in this process. Errors in a worker come back as the ContentError they
were, so a problem found while writing still names its file:line:column.

The pool itself (`Pool`, `FreeCores`, `start_method`) is `pipeline/pool.py`.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pnpgen.errors import ContentError, Diagnostics, Location
from pnpgen.pipeline.pool import FreeCores, Pool, RemoteTraceback, WorkerDied, inherits
from pnpgen.pipeline.staging import flush, sha256_of

if TYPE_CHECKING:
    from pnpgen.imposition.duplex import Printing
    from pnpgen.model import Game

__all__ = [
    "FreeCores",
    "Job",
    "Pool",
    "RemoteTraceback",
    "WorkerDied",
    "beside_writers",
    "inherits",
    "Writing",
    "run_parallel",
    "write_all",
]


@dataclass
class Writing:
    """What every writer of one game needs besides its target."""

    game: Game
    icons: dict
    paper: str
    printing: Printing | None = None


class Writer(Protocol):
    """What a job writes its file with: a build target (`pnpgen.pipeline.target.Target`)."""

    loc: Location

    def write(self, path: Path, name: str, w: Writing) -> int | tuple[int, dict]: ...

    def entry(self, name: str, pages: int, sha256: str) -> dict: ...


@dataclass
class Job:
    target: Writer
    name: str  # the file's name in the output folder
    path: Path  # where it is written (in the staging folder)
    writing: Writing


def write_one(job: Job) -> dict:
    """Write one job's file; a failure becomes a located ContentError."""
    try:
        more: dict = {}
        pages = job.target.write(job.path, job.name, job.writing)
        if isinstance(pages, tuple):  # the page count and more fields for the file's manifest entry
            pages, more = pages
        flush(job.path)  # on the disk while the other files are written, not one after another at the commit
    except ContentError:
        raise
    except Exception as exc:  # a failure that shows only while writing (a full disk, damaged art...)
        raise ContentError.at(job.target.loc, f"could not write {job.name}: {plain_error(exc)}") from None
    return {"pages": pages, "sha256": sha256_of(job.path), "more": more}


def run_parallel(
    items: list,
    work: Callable,
    workers: int,
    step: Callable[[int], None],
    done: Callable | None = None,
    first: list[int] | None = None,
    meanwhile: Callable[[], object] | None = None,
    free: FreeCores | None = None,
    pickled: bool = True,
    alongside: Callable[[], object] | None = None,
) -> list:
    """`work(item)` for every item, in worker processes when more than one worker and item; results in order.
    `pickled=False`: the items are too big or too tied to this process to pickle (drawn faces), so they go to
    workers only where workers inherit them (fork), and are worked here otherwise.
    `done(i, result)`, when given, sees each result as soon as it is in. `first`, when given, is the order in
    which the items start (the longest first: the last to start is then a short one, and the workers end
    together). `meanwhile()`, when given, is work of the caller's that can be done before the results are in:
    with forked workers it is called once, when the first of them has nothing left to do, on the core that
    worker leaves free (alone, it is not called). `free`, when given, is kept told how many workers are at work,
    for the jobs to read (`FreeCores`). `alongside()`, when given, is the caller's own work done here while the
    workers start on theirs (alone: before the first item); with it, even one item goes to a worker, so that the
    two are done at once.

    An error raised by `work` does not stop the other items: every item is worked, and then the errors are raised
    together (`failed`), so which errors a user sees never depends on which worker was quicker (two files too
    large for the disk are both named). A worker that dies, or an error of the caller's own, stops them all."""
    results: list = [None] * len(items)
    order = list(first) if first is not None else list(range(len(items)))
    failures: list[tuple[int, Exception]] = []
    pool = None
    if workers > 1 and (len(items) > 1 or (items and alongside)) and (pickled or inherits()):
        try:
            pool = Pool(min(workers, len(items)), work, items)
        except (OSError, ImportError, NotImplementedError, ValueError):
            pool = None  # no processes to be had here (a sandbox, a frozen interpreter): work alone
    if pool is not None:
        with pool:
            for i, ok, res in pool.run(order, meanwhile, free, alongside):
                if not ok:
                    assert isinstance(res, Exception)  # what a worker's `work` raised
                    failures.append((i, res))
                    continue
                results[i] = res
                if done is not None:
                    done(i, res)
                step(i)
    else:
        if alongside is not None:
            alongside()
        for i, item in enumerate(items):
            try:
                results[i] = work(item)
            except Exception as exc:  # noqa: BLE001 - raised with the others' once every item is worked
                failures.append((i, exc))
                continue
            if done is not None:
                done(i, results[i])
            step(i)
    if failures:
        raise failed(failures)
    return results


def failed(failures: list[tuple[int, Exception]]) -> Exception:
    """The error to raise for the items that failed: their ContentErrors as one (every diagnostic), or else the
    first other error in the items' order."""
    failures = sorted(failures, key=lambda f: f[0])
    other = [exc for _i, exc in failures if not isinstance(exc, ContentError)]
    if other:
        return other[0]
    if len(failures) == 1:
        return failures[0][1]
    every = Diagnostics()
    for _i, exc in failures:
        assert isinstance(exc, ContentError)  # `other` holds every other error
        every.extend(exc.diagnostics)
    return ContentError(every)


def write_all(
    jobs: list[Job],
    workers: int,
    step: Callable[[int], None] = lambda i: None,
    done: Callable | None = None,
    meanwhile: Callable[[], object] | None = None,
    alongside: Callable[[], object] | None = None,
) -> list[dict]:
    """Write every job's file; the failures are raised together once all are tried (the caller discards the
    staging folder). `done(i, result)` sees each file as soon as it is written (in the staging folder);
    `meanwhile` and `alongside` as in `run_parallel`."""
    if (
        gc.get_freeze_count()
    ):  # inside `few_collections`, which unfreezes: the drawn faces are not scanned again
        gc.freeze()
    first = sorted(range(len(jobs)), key=lambda i: -LONGEST.get(getattr(jobs[i].target, "kind", ""), 0))
    return run_parallel(
        jobs,
        write_one,
        workers,
        step,
        done,
        first=first,
        meanwhile=meanwhile,
        pickled=False,
        alongside=alongside,
    )


def beside_writers(
    jobs: list[Job], check: Callable | None, spare: bool, manifest_needs: Callable[[], object] = lambda: None
) -> tuple[Callable | None, Callable]:
    """What the building process does while its workers write `jobs`: the rules check (`check`) at once, and the
    manifest's entries made once (what they read, each face's digest, is kept for the real ones, made once the
    files are in) with whatever else the manifest needs (`manifest_needs`: pnpgen's own digest, 5 ms, once per
    process): at once when a core is `spare` (no file needs it: even one file then goes to a worker), else once a
    worker is done. Returns `write_all`'s (meanwhile, alongside)."""

    def entries() -> None:
        manifest_needs()
        for job in jobs:
            job.target.entry(job.name, 0, "")

    def here() -> None:
        if check is not None:
            check()
        if spare:
            entries()

    return (None if spare else entries), here


# Which files take longest to write, started first (the rest in their order) so that a short one ends the
# build: the rulebook (two layout passes, every font), then print-all (every face of the game again).
LONGEST = {"rulebook": 2, "print-all": 1}


@contextmanager
def few_collections() -> Iterator[None]:
    """A build makes millions of small objects (draw operations, faces, PDF objects) that live until their file
    is written, and almost none of them in cycles: the cyclic collector's full passes over them found nothing and
    cost 1-2 s at 10,000 cards. During a build, what exists is frozen out of its sight (`write_all` freezes again
    once the faces are drawn, which also keeps forked workers' pages shared) and young collections run ten times
    less often; the process's settings are restored after."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], 7000), threshold[1], threshold[2])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def cores() -> int:
    return os.cpu_count() or 1


def plain_error(exc: BaseException) -> str:
    """A library's error as a user reads it: no object addresses or internal reprs (ReportLab prefixes its
    errors with `identity=[ImageReader@0x...]`)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = re.sub(r"\s*identity=\[[^\]]*\]\s*", " ", str(exc))
    if "_fp_str" in text or "number too large" in text:  # ReportLab's C accelerator, refusing a number
        return (
            "a number too large or not finite reached the PDF, which no PDF may hold; refused "
            "(a number escaped pnpgen's checks: please report it with the content that led here)"
        )
    text = re.sub(r"<[^<>]*@0x[0-9a-fA-F]+[^<>]*>", "an object", text).strip()
    return text or type(exc).__name__
