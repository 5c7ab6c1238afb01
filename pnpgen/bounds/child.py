"""Parse a risky file in a short-lived child process: a native library that aborts or crashes on it (SIGABRT, a
segfault, an allocation it cannot make) ends that process only, and the caller gets `ChildDied` to report as a
located error, so that `serve` and `watch` keep running.

The child starts the platform's way (`start_method`, shared with `pipeline/pool.py`): forked on Linux, spawned on
Windows and macOS, where the function must be importable by name and its arguments and result must pickle.
Every child pnpgen starts is started by `start_holding_ctrl_c`, and ignores Ctrl-C (its parent stops it).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Literal, TypeVar

Method = Literal["fork", "spawn", "forkserver"]
METHODS: tuple[Method, ...] = ("fork", "spawn", "forkserver")
CHILD_SECONDS = (
    120  # a parse that has not answered by then is stopped (a backstop: real ones take well under 1 s)
)
ABORT_HOOK = (
    "PNPGEN_TEST_CHILD_ABORT"  # tests: a child started with this set aborts, as a crashing library does
)
T = TypeVar("T")


class ChildDied(RuntimeError):
    """The child ended without answering: `how` says how (killed by SIGABRT, exit status 1, ...)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


def start_method() -> Method:
    """How this platform starts workers: `fork` on Linux (where `os.fork` exists), `spawn` elsewhere; the
    environment variable PNPGEN_START_METHOD (fork, spawn or forkserver) chooses another where it is available."""
    import multiprocessing

    asked = os.environ.get("PNPGEN_START_METHOD", "").strip().lower()
    available = multiprocessing.get_all_start_methods()
    for method in METHODS:  # `asked`, when it is one of them
        if asked == method and method in available and (method == "spawn" or hasattr(os, "fork")):
            return method
    if sys.platform.startswith("linux") and hasattr(os, "fork") and "fork" in available:
        return "fork"
    return "spawn"


def main_can_be_run_again() -> bool:
    """A spawned worker runs the parent's main program again (its imports, not its `__main__` block): possible for
    a file, a module (`-m`) or `-c` code, not for a program read from standard input."""
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None:
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def isolated(func: Callable[..., T], *args: object) -> T:
    """`func(*args)` run in a child process: its result, or the error it raised, raised again here; `ChildDied`
    when the child ends without answering. Where no child can start (a program read from standard input, spawned),
    the work runs in this process."""
    import multiprocessing

    method = start_method()
    if method != "fork" and not main_can_be_run_again():
        return func(*args)
    # spelled out, so that each context is known to have its `Process` (the base class has none)
    ctx = (
        multiprocessing.get_context("fork")
        if method == "fork"
        else multiprocessing.get_context("forkserver")
        if method == "forkserver"
        else multiprocessing.get_context("spawn")
    )
    ours, theirs = ctx.Pipe(duplex=False)  # we read, the child writes
    process = ctx.Process(target=_run, args=(func, args, theirs), name="pnpgen-parse", daemon=True)
    for stream in (
        sys.stdout,
        sys.stderr,
    ):  # what this process buffered is not written again by a forked child
        try:
            stream.flush()
        except (AttributeError, ValueError, OSError):
            pass
    try:
        start_holding_ctrl_c(process)
    except BaseException:
        if process.pid is not None:  # started, then the Ctrl-C held meanwhile was raised
            process.kill()
            process.join(5)
        raise
    finally:
        theirs.close()
    try:
        if not ours.poll(CHILD_SECONDS):
            raise ChildDied(f"no answer within {CHILD_SECONDS} s")
        ok, value = ours.recv()
    except (EOFError, OSError):
        process.join(5)
        raise ChildDied(how_ended(process.exitcode)) from None
    finally:
        ours.close()
        if process.is_alive():
            process.kill()
        process.join(5)
    if ok:
        return value  # what `func` returned, through a pipe
    raise value


def start_holding_ctrl_c(process) -> None:
    """`process.start()`, with a Ctrl-C that comes meanwhile held, then raised here once the child has started.

    A Ctrl-C landing while Python forks runs in an at-fork handler (logging's), which swallows it with a traceback:
    the command went on as if nobody had pressed it; or in the forked child before it ignores Ctrl-C: a traceback,
    and a worker taken for dead. Held, the parent raises it (the caller stops its children), and the child, which
    inherits the holding handler, never sees it. Only the main thread may set a handler: elsewhere, a plain start."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        process.start()
        return
    held: list[int] = []
    before = signal.getsignal(signal.SIGINT)
    if before is None:  # a handler not set from Python: left alone
        process.start()
        return
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        process.start()
    finally:
        signal.signal(signal.SIGINT, before)
    if held and callable(before):
        before(signal.SIGINT, None)  # Python's default: KeyboardInterrupt


def _run(func: Callable, args: tuple, conn) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers a Ctrl-C, and stops this child
    if os.environ.get(ABORT_HOOK):
        os.abort()
    try:
        answer = (True, func(*args))
    except Exception as exc:  # noqa: BLE001 - the error goes back to be raised in the parent
        answer = (False, exc)
    try:
        conn.send(answer)
    except Exception as exc:  # noqa: BLE001 - an answer that does not pickle: its text does
        conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
    finally:
        conn.close()


def how_ended(code: int | None, unfinished: str = "it did not stop") -> str:
    """How a child process ended, from its exit code, in words (a signal by name)."""
    if code is None:
        return unfinished
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}" + (", perhaps out of memory" if name == "SIGKILL" else "")
    return f"exit status {code}"
