"""The forked pool behind `pipeline.jobs`: workers made with `os.fork`, so what they work on (faces, plans) is
inherited, never pickled; each is handed one index at a time down a pipe, and only its answer (a file's pages and
digest, a game's result, or the error it raised) comes back pickled.

Not `concurrent.futures.ProcessPoolExecutor`: importing it and `multiprocessing` and starting its manager thread
and queues cost 25-40 ms of every build, a tenth of a small deck's (`make bench`), for nothing this use needs. A
worker dies with a build that was killed, never runs on into the parent's code, and closes nothing of the
parent's; `serve` runs builds beside its server's threads, so each pipe end is closed exactly once.
"""

from __future__ import annotations

import functools
import os
import pickle
import selectors
import signal
import sys
import traceback
from collections.abc import Callable, Iterator


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
