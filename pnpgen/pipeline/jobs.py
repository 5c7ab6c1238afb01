"""Running work in parallel processes: the files of one game, or several games at once.

Workers are forked, so what they work on (faces, plans) is inherited, never pickled; each job is named by its
index. A worker dies with a build that was killed. Errors in a worker come back as the ContentError they were,
so a problem found while writing still names its file:line:column.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError
from pnpgen.pipeline.staging import sha256_of


@dataclass
class Writing:
    """What every writer of one game needs besides its target."""

    game: object  # pnpgen.model.Game
    icons: dict
    paper: str
    printing: object = None  # pnpgen.imposition.duplex.Printing


@dataclass
class Job:
    target: object  # a pnpgen.pipeline.outputs.Target
    name: str  # the file's name in the output folder
    path: Path  # where it is written (in the staging folder)
    writing: Writing


def die_with_parent() -> None:
    """A worker must not outlive a build that was killed (Linux: the kernel signals it when the parent dies)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before we asked
            os._exit(1)
    except (OSError, AttributeError):
        pass


_inherited: list = []  # set in each forked worker by its initializer only


def _init_worker(items: list) -> None:
    die_with_parent()
    _inherited[:] = items


def write_one(job: Job) -> dict:
    """Write one job's file; a failure becomes a located ContentError."""
    try:
        pages = job.target.write(job.path, job.name, job.writing)
    except ContentError:
        raise
    except Exception as exc:  # a failure that shows only while writing (a full disk, damaged art...)
        raise ContentError.at(job.target.loc, f"could not write {job.name}: {plain_error(exc)}") from None
    return {"pages": pages, "sha256": sha256_of(job.path)}


def run_parallel(
    items: list,
    work: Callable,
    workers: int,
    step: Callable[[int], None],
    done: Callable | None = None,
    first: list[int] | None = None,
) -> list:
    """`work(item)` for every item, in forked processes when more than one worker and item; results in order.
    `done(i, result)`, when given, sees each result as soon as it is in. `first`, when given, is the order in
    which the items start (the longest first: the last to start is then a short one, and the workers end
    together)."""
    results: list = [None] * len(items)
    if workers > 1 and len(items) > 1:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            max_workers=min(workers, len(items)), mp_context=ctx, initializer=_init_worker, initargs=(items,)
        ) as pool:
            futures = [pool.submit(_call, work, i) for i in (first or range(len(items)))]
            for fut in as_completed(futures):
                i, res = fut.result()
                results[i] = res
                if done is not None:
                    done(i, res)
                step(i)
    else:
        for i, item in enumerate(items):
            results[i] = work(item)
            if done is not None:
                done(i, results[i])
            step(i)
    return results


def _call(work: Callable, index: int) -> tuple[int, object]:
    return index, work(_inherited[index])


def write_all(
    jobs: list[Job], workers: int, step: Callable[[int], None] = lambda i: None, done: Callable | None = None
) -> list[dict]:
    """Write every job's file; the first failure is raised (the caller discards the staging folder). `done(i,
    result)` sees each file as soon as it is written (in the staging folder)."""
    if (
        gc.get_freeze_count()
    ):  # inside `few_collections`, which unfreezes: the drawn faces are not scanned again
        gc.freeze()
    first = sorted(range(len(jobs)), key=lambda i: -LONGEST.get(getattr(jobs[i].target, "kind", ""), 0))
    return run_parallel(jobs, write_one, workers, step, done, first=first)


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
    text = re.sub(r"<[^<>]*@0x[0-9a-fA-F]+[^<>]*>", "an object", text).strip()
    return text or type(exc).__name__
