"""The process pool behind `pipeline.jobs`, from the standard library's `multiprocessing`, the same on every OS.

How workers start is the platform's (`start_method`): forked on Linux, where what they work on (faces, plans) is
inherited and never pickled; spawned on Windows and macOS (Python's default there: forking a process that has
loaded native libraries is unsafe on macOS, impossible on Windows), where the work and its items are pickled
once, when each worker starts. Either way each worker is handed one index at a time and answers with a pickled
`(index, ok, result or error, traceback)`: results and errors cross as plain data. A worker stops when its
build is killed (it watches its parent between items), ignores Ctrl-C (the parent stops its workers itself), and
one that dies is named, with how it ended.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from pnpgen.bounds.child import (  # one rule for every child process
    how_ended,
    main_can_be_run_again,
    start_holding_ctrl_c,
    start_method,
)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess


def inherits() -> bool:
    """Whether workers inherit what the parent made (fork), so that items need not be pickled."""
    return start_method() == "fork"


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory, or it crashed)."""


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker, set as that error's cause (shown with --debug)."""

    def __str__(self) -> str:
        return self.args[0] if self.args else ""


class FreeCores:
    """How many workers a job may use for its own parts, read by the job (a worker) while it runs: all the cores
    but those the pool's other workers hold now. The count lives in a shared `multiprocessing` value, which forked
    and spawned workers alike receive when they start. Five games on two cores: the last game to start wrote its
    files alone on a core while the other had nothing left to do (0.2-0.4 s); it now writes them two at a time
    once it can."""

    def __init__(self, total: int) -> None:
        import multiprocessing

        self.total = total
        self._busy = multiprocessing.get_context(start_method()).RawValue("i", 0)

    def busy(self, n: int) -> None:
        self._busy.value = n

    def __call__(self) -> int:
        """Workers a running job may use now: its own, and every core no other job holds."""
        return max(1, min(self.total, self.total - self._busy.value + 1))


class Pool:
    """`n` workers, each given one index at a time on its own pipe and answering on another. Raises OSError (or
    another error of the platform's) when the workers cannot be started; `jobs.run_parallel` then works alone."""

    def __init__(self, n: int, work: Callable, items: list) -> None:
        import multiprocessing

        method = start_method()
        if method != "fork" and not main_can_be_run_again():
            raise OSError("spawned workers cannot run this program again (it was read from standard input)")
        # spelled out, so that each context is known to have its `Process` (the base class has none)
        ctx = (
            multiprocessing.get_context("fork")
            if method == "fork"
            else multiprocessing.get_context("forkserver")
            if method == "forkserver"
            else multiprocessing.get_context("spawn")
        )
        # (process, connection to send indexes, connection to read answers)
        self.workers: list[tuple[BaseProcess, Connection, Connection]] = []
        _flush_std_streams()  # what the parent buffered is written once, not once more by every forked worker
        try:
            for _ in range(n):
                tasks_r, tasks_w = ctx.Pipe(duplex=False)
                answers_r, answers_w = ctx.Pipe(duplex=False)
                # a forked worker closes the parent's ends of every pipe it inherits, so that a worker that dies
                # is seen to (its answer pipe ends); a spawned one is given only its own ends
                ours = [c for _p, a, b in self.workers for c in (a, b)] + [tasks_w, answers_r]
                process = ctx.Process(
                    target=_serve,
                    args=(work, items, tasks_r, answers_w, ours if method == "fork" else []),
                    name="pnpgen-writer",
                )
                try:
                    start_holding_ctrl_c(process)  # a Ctrl-C meanwhile: raised once it has started
                finally:
                    tasks_r.close()
                    answers_w.close()
                    if process.pid is not None:  # started: stopped with the others if this raised
                        self.workers.append((process, tasks_w, answers_r))
        except BaseException:
            self.close(kill=True)
            raise

    def run(
        self,
        order: list[int],
        meanwhile: Callable[[], object] | None = None,
        free: FreeCores | None = None,
        alongside: Callable[[], object] | None = None,
    ) -> Iterator[tuple[int, bool, object]]:
        """(index, True, result) or (index, False, the error it raised) for every index in `order`, as each is
        done; `meanwhile()` once a worker is idle; `alongside()` here once every worker has its first item;
        `free` told how many workers have work."""
        from multiprocessing.connection import wait

        waiting = list(reversed(order))
        if free is not None:
            free.busy(min(len(waiting), len(self.workers)))
        # answers -> (process, tasks, answers): `wait` is given the answers, and answers with one of them
        busy: dict[object, tuple[BaseProcess, Connection, Connection]] = {}
        for process, tasks, answers in self.workers:
            if waiting:
                _send(tasks, waiting.pop(), process)
                busy[answers] = (process, tasks, answers)
            else:
                _send(tasks, None, process)  # nothing for it: it ends
        if alongside is not None:
            alongside()
        while busy:
            ready = wait([answers for _process, _tasks, answers in busy.values()], timeout=1.0)
            if not ready:  # nothing for a second: is every worker still alive?
                for process, _tasks, _answers in busy.values():
                    if process.exitcode is not None:
                        raise WorkerDied(f"a writer process stopped before it answered ({_how(process)})")
                continue
            for ready_one in ready:
                process, tasks, answers = busy[ready_one]
                try:
                    i, ok, value, tb = answers.recv()
                except (EOFError, OSError):
                    process.join(5)
                    raise WorkerDied(
                        f"a writer process stopped before it answered ({_how(process)})"
                    ) from None
                if not ok:
                    value.__cause__ = RemoteTraceback(tb)
                if waiting:
                    _send(tasks, waiting.pop(), process)
                else:
                    del busy[ready_one]
                    _send(tasks, None, process)
                    if free is not None:
                        free.busy(len(busy))
                yield i, ok, value
                if meanwhile is not None and not waiting and busy:  # a worker is idle, others at work
                    meanwhile()
                    meanwhile = None

    def close(self, kill: bool = False) -> None:
        """Let the workers end; with `kill` (an error or an interrupt), stop them: asked first (SIGTERM, which a
        worker turns into an exit that undoes its staging folder; Windows ends the process at once), then killed
        if one is still there after a few seconds."""
        if kill:
            for process, _tasks, _answers in self.workers:
                if process.exitcode is None:
                    process.terminate()
        for process, tasks, answers in self.workers:
            if kill:
                process.join(5)
                if process.exitcode is None:
                    process.kill()
            else:
                try:
                    tasks.send(None)
                except OSError:
                    pass
            process.join()
            tasks.close()
            answers.close()
            process.close()
        self.workers = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self.close(kill=exc is not None)  # an error or an interrupt: the others' work is not wanted


def _stopped(signum, frame) -> None:
    raise SystemExit(1)  # unwinds the work: a game's staging folder is removed, its own writers stopped


def _send(tasks, index: int | None, process) -> None:
    try:
        tasks.send(index)
    except OSError:
        if index is None:
            return
        raise WorkerDied(f"a writer process stopped before it was given its work ({_how(process)})") from None


def _serve(work: Callable, items: list, tasks, answers, inherited: list) -> None:
    """A worker's loop: an index in, its answer out, until it is sent None or its parent is gone."""
    import multiprocessing
    from multiprocessing.connection import wait

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stopped)  # the pool stops its workers so: what they staged is undone
    for conn in inherited:
        conn.close()
    parent = multiprocessing.parent_process()
    watch = [tasks] + ([parent.sentinel] if parent is not None else [])
    try:
        while True:
            if tasks not in wait(watch):  # only the parent's sentinel: the build was killed
                os._exit(1)
            try:
                i = tasks.recv()
            except (EOFError, OSError):
                return
            if i is None:
                return
            try:
                answer = (i, True, work(items[i]), "")
            except Exception as exc:  # noqa: BLE001 - any error goes back to be raised in the parent
                answer = (i, False, exc, "".join(traceback.format_exception(exc)))
            _answer(answers, answer)
    finally:
        _flush_std_streams()


def _answer(answers, answer: tuple) -> None:
    """Send an answer back; an error that cannot cross (it does not pickle, or not back) goes as its text, and a
    result that does not pickle as the item's error. A parent that is gone gets nothing (the loop then ends)."""
    import pickle

    i, ok, value, tb = answer
    if not ok:
        try:
            pickle.loads(pickle.dumps(value))
        except Exception:  # noqa: BLE001 - an error that cannot cross: its text does
            answer = (i, False, RuntimeError(f"{type(value).__name__}: {value}"), tb)
    try:
        try:
            answers.send(answer)  # pickled whole before a byte is sent
        except OSError:
            raise
        except Exception as exc:  # noqa: BLE001 - a result that does not pickle: the item fails, named
            error = RuntimeError(f"the result of an item could not be sent back: {type(exc).__name__}: {exc}")
            answers.send((i, False, error, "".join(traceback.format_exception(exc))))
    except OSError:
        pass  # the parent is gone (killed): nobody to answer


def _how(process) -> str:
    return how_ended(process.exitcode, "still running")


def _flush_std_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, ValueError, OSError):
            pass
