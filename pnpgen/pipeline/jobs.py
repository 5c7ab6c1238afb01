"""Running work in parallel processes: the files of one game, or several games at once.

Workers are forked, so what they work on (faces, plans) is inherited, never pickled; each job is named by its
index, sent down a pipe, and only its result (a file's pages and digest, a game's result) comes back pickled. A
worker dies with a build that was killed. Errors in a worker come back as the ContentError they were, so a problem
found while writing still names its file:line:column.

The pool is a few plain `os.fork` calls and pipes, not `concurrent.futures.ProcessPoolExecutor`: importing that
and `multiprocessing` and starting its manager thread and queues cost 25-40 ms of every build, a tenth of a small
deck's (`make bench`), for nothing this use needs.
"""

from __future__ import annotations

import functools
import gc
import os
import pickle
import re
import selectors
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
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


def die_with_parent(parent: int) -> None:
    """A worker must not outlive a build that was killed (Linux: the kernel signals it when the parent dies).
    `parent`: the parent's pid, taken before the fork (pnpgen may itself be pid 1, in a container)."""
    prctl = _prctl()
    if prctl is not None:
        try:
            prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass
    if os.getppid() != parent:  # the parent died before we asked
        os._exit(1)


@functools.cache
def _prctl():
    """libc's prctl, found once in the parent before it forks (importing ctypes took each worker 4 ms); None where
    there is none."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory, or it crashed)."""


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker, set as that error's cause (shown with --debug)."""

    def __str__(self) -> str:
        return self.args[0] if self.args else ""


def write_one(job: Job) -> dict:
    """Write one job's file; a failure becomes a located ContentError."""
    try:
        pages, more = job.target.write(job.path, job.name, job.writing), {}
        if isinstance(pages, tuple):  # the page count and more fields for the file's manifest entry
            pages, more = pages
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
) -> list:
    """`work(item)` for every item, in forked processes when more than one worker and item; results in order.
    `done(i, result)`, when given, sees each result as soon as it is in. `first`, when given, is the order in
    which the items start (the longest first: the last to start is then a short one, and the workers end
    together). `meanwhile()`, when given, is work of the caller's that can be done before the results are in:
    with forked workers it is called once, when the first of them has nothing left to do, on the core that
    worker leaves free (alone, it is not called). `free`, when given, is kept told how many workers are at work,
    for the jobs to read (`FreeCores`).

    An error raised by `work` does not stop the other items: every item is worked, and then the errors are raised
    together (`failed`), so which errors a user sees never depends on which worker was quicker (two files too
    large for the disk are both named). A worker that dies, or an error of the caller's own, stops them all."""
    results: list = [None] * len(items)
    order = list(first) if first is not None else list(range(len(items)))
    failures: list[tuple[int, Exception]] = []
    if workers > 1 and len(items) > 1:
        with Pool(min(workers, len(items)), work, items) as pool:
            for i, ok, res in pool.run(order, meanwhile, free):
                if not ok:
                    failures.append((i, res))
                    continue
                results[i] = res
                if done is not None:
                    done(i, res)
                step(i)
    else:
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
    from pnpgen.errors import Diagnostics

    every = Diagnostics()
    for _i, exc in failures:
        every.extend(exc.diagnostics)  # type: ignore[attr-defined]
    return ContentError(every)


class FreeCores:
    """How many workers a job may use for its own parts, read by the job (a forked worker) while it runs: all
    the cores but those the pool's other workers hold now. The pool keeps the number of busy workers in a page of
    memory shared with its workers. Five games on two cores: the last game to start wrote its files alone on a
    core while the other had nothing left to do (0.2-0.4 s); it now writes them two at a time once it can."""

    def __init__(self, total: int) -> None:
        import mmap

        self.total = total
        self._busy = mmap.mmap(-1, 8)  # anonymous and shared: a forked worker reads what the parent writes

    def busy(self, n: int) -> None:
        self._busy[:8] = n.to_bytes(8, "little")

    def __call__(self) -> int:
        """Workers a running job may use now: its own, and every core no other job holds."""
        return max(1, min(self.total, self.total - int.from_bytes(self._busy[:8], "little") + 1))


_SIZE = 8  # bytes of the length before each answer


class Pool:
    """`n` forked workers, each given one index at a time down its own pipe and answering on another: a pickled
    `(index, ok, result or error, traceback)`. A worker whose pipe closes without an answer has died."""

    def __init__(self, n: int, work: Callable, items: list) -> None:
        self.workers: list[tuple[int, int, int]] = []  # (pid, fd to send indexes, fd to read answers)
        # the pipe ends this process still has open: each is closed once, as another thread (serve's server) may
        # be given the same number for a socket as soon as it is closed
        self.open: set[int] = set()
        _prctl()  # looked up once, here: every worker inherits it
        _flush_std_streams()  # what the parent buffered is written once, not once more by every worker
        try:
            for _ in range(n):
                self._fork(work, items)
        except BaseException:
            self.close(kill=True)
            raise

    def _fork(self, work: Callable, items: list) -> None:
        """One worker. Ctrl-C is held off from just before the fork until the worker is on the books (the
        parent) or ignores it (the worker: the parent stops its workers itself), so neither is left half made
        and no worker can ever run on into the parent's code."""
        tasks_r, tasks_w = os.pipe()
        answers_r, answers_w = os.pipe()
        parent = os.getpid()
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pid = os.fork()
        except BaseException:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            for fd in (tasks_r, tasks_w, answers_r, answers_w):
                os.close(fd)
            raise
        if pid == 0:  # the worker
            code = 1
            try:
                try:
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    signal.pthread_sigmask(signal.SIG_SETMASK, held)
                    for _pid, a, b in self.workers:  # the other workers' pipes, inherited
                        os.close(a)
                        os.close(b)
                    os.close(tasks_w)
                    os.close(answers_r)
                    die_with_parent(parent)
                    _serve(work, items, tasks_r, answers_w)
                    code = 0
                finally:
                    _flush_std_streams()
            finally:
                os._exit(code)
        os.close(tasks_r)
        os.close(answers_w)
        self.open.update((tasks_w, answers_r))
        self.workers.append((pid, tasks_w, answers_r))
        signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def run(
        self, order: list[int], meanwhile: Callable[[], object] | None = None, free: FreeCores | None = None
    ) -> Iterator[tuple[int, bool, object]]:
        """(index, True, result) or (index, False, the error it raised) for every index in `order`, as each is
        done; `meanwhile()` once a worker is idle; `free` told how many workers have work."""
        waiting = list(reversed(order))
        if free is not None:
            free.busy(min(len(waiting), len(self.workers)))
        sel = selectors.DefaultSelector()
        buffers: dict[int, bytearray] = {}
        try:
            for pid, tasks, answers in self.workers:
                if waiting:
                    _send(tasks, waiting.pop(), pid)
                    sel.register(answers, selectors.EVENT_READ, (pid, tasks))
                    buffers[answers] = bytearray()
                else:
                    self._close(tasks)  # nothing for it: it ends
            while buffers:
                for key, _events in sel.select():
                    answers, (pid, tasks) = key.fd, key.data
                    chunk = os.read(answers, 1 << 16)
                    buf = buffers[answers]
                    if not chunk:
                        raise WorkerDied(f"a writer process stopped before it answered ({_how_ended(pid)})")
                    buf += chunk
                    size = int.from_bytes(buf[:_SIZE], "little") if len(buf) >= _SIZE else -1
                    if size < 0 or len(buf) < _SIZE + size:
                        continue
                    i, ok, value, tb = pickle.loads(bytes(buf[_SIZE : _SIZE + size]))
                    del buf[: _SIZE + size]
                    if not ok:
                        value.__cause__ = RemoteTraceback(tb)
                    if waiting:
                        _send(tasks, waiting.pop(), pid)
                    else:
                        sel.unregister(answers)
                        del buffers[answers]
                        self._close(tasks)
                        if free is not None:
                            free.busy(len(buffers))
                    yield i, ok, value
                    if meanwhile is not None and not waiting and buffers:  # a worker is idle, others at work
                        meanwhile()
                        meanwhile = None
        finally:
            sel.close()

    def close(self, kill: bool = False) -> None:
        for pid, tasks, answers in self.workers:
            self._close(tasks)
            self._close(answers)
            if kill:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.workers = []

    def _close(self, fd: int) -> None:
        if fd in self.open:
            self.open.discard(fd)
            os.close(fd)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self.close(kill=exc is not None)  # an error or an interrupt: the others' work is not wanted


def _send(tasks: int, index: int, pid: int) -> None:
    try:
        os.write(tasks, index.to_bytes(4, "little"))
    except BrokenPipeError:
        raise WorkerDied(
            f"a writer process stopped before it was given its work ({_how_ended(pid)})"
        ) from None


def _serve(work: Callable, items: list, tasks: int, answers: int) -> None:
    """A worker's loop: an index in, its answer out, until the parent closes the pipe."""
    while True:
        data = os.read(tasks, 4)
        if len(data) < 4:
            return
        i = int.from_bytes(data, "little")
        try:
            answer = pickle.dumps((i, True, work(items[i]), ""))
        except Exception as exc:  # noqa: BLE001 - any error goes back to be raised in the parent
            tb = "".join(traceback.format_exception(exc))
            try:
                answer = pickle.dumps((i, False, exc, tb))
                pickle.loads(answer)  # what goes back must also come back out
            except Exception:  # noqa: BLE001 - an error that cannot cross: its text does
                answer = pickle.dumps((i, False, RuntimeError(f"{type(exc).__name__}: {exc}"), tb))
        view = memoryview(len(answer).to_bytes(_SIZE, "little") + answer)
        while view:
            view = view[os.write(answers, view) :]


def _how_ended(pid: int) -> str:
    """How a worker that closed its pipe ended, read without reaping it: `Pool.close` reaps each worker once (a
    pid reaped twice may by then be another process's)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        return "already reaped"
    if info is None:
        return "still running"
    if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
        sig = info.si_status
        return f"killed by {signal.Signals(sig).name}" + (
            ", perhaps out of memory" if sig == signal.SIGKILL else ""
        )
    return f"exit status {info.si_status}"


def _flush_std_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, ValueError, OSError):
            pass


def write_all(
    jobs: list[Job],
    workers: int,
    step: Callable[[int], None] = lambda i: None,
    done: Callable | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> list[dict]:
    """Write every job's file; the first failure is raised (the caller discards the staging folder). `done(i,
    result)` sees each file as soon as it is written (in the staging folder); `meanwhile` as in `run_parallel`."""
    if (
        gc.get_freeze_count()
    ):  # inside `few_collections`, which unfreezes: the drawn faces are not scanned again
        gc.freeze()
    first = sorted(range(len(jobs)), key=lambda i: -LONGEST.get(getattr(jobs[i].target, "kind", ""), 0))
    return run_parallel(jobs, write_one, workers, step, done, first=first, meanwhile=meanwhile)


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
