"""Work budgets for templates: what one evaluation, and one build, may spend.

Every look-up, call, operator, turn of `range` and turn of a loop over content is a step; texts, lists and
numbers are refused before they grow huge; a time limit is the backstop for work no step counts. Kept apart
from `templating` (the only Jinja user) so the rules read on their own; nothing here imports Jinja.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

MAX_STEPS = 100_000  # look-ups, calls, operators and loop turns in one evaluation of one value
MAX_BUILD_STEPS = 20_000_000  # all evaluations of one build together
MAX_ITEMS = 1_000_000  # characters of a text, or items of a list, a template may build
MAX_BITS = 4_096  # a number a template computes: about 1,200 digits
MAX_SECONDS = 20.0  # seconds of one evaluation (wall time): the backstop for work no step counts


class TooMuchWork(Exception):
    """A template went over a budget; the message says which."""


class Budget:
    """Steps left for the evaluation under way and for the whole build."""

    __slots__ = ("left", "build_left")

    def __init__(self) -> None:
        self.left, self.build_left = MAX_STEPS, MAX_BUILD_STEPS

    def charge(self, n: int = 1) -> None:
        self.left -= n
        self.build_left -= n
        if self.left < 0:
            raise TooMuchWork(
                f"this template does too much work (more than {MAX_STEPS:,} steps for one value)"
            )
        if self.build_left < 0:
            raise TooMuchWork(
                f"the game's templates do too much work (more than {MAX_BUILD_STEPS:,} steps in one build)"
            )


# The budget of the evaluation running now, and whether a CPU limit is armed (context variables: each
# evaluation sets its own and restores it).
budget_var: ContextVar[Budget | None] = ContextVar("pnpgen_template_budget", default=None)
_limited: ContextVar[bool] = ContextVar("pnpgen_time_limited", default=False)


def charge(n: int = 1) -> None:
    budget = budget_var.get()
    if budget is not None:
        budget.charge(n)


def check_size(value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_ITEMS:
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_BITS:
        raise TooMuchWork("this template computes a number too large to print")
    return value


def bounded_join(parts: Any) -> str:
    """Join the pieces of a template's output (or of `a ~ b`) into one text, refusing it as soon as it passes
    MAX_ITEMS: a loop that writes a huge piece a thousand times stops at the first piece too many."""
    out, total = [], 0
    for part in parts:
        total += len(part)
        if total > MAX_ITEMS:
            raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
        out.append(part)
    return "".join(out)


def bounded_sum(iterable: Any, start: Any = 0) -> Any:
    """A template's `sum`, bounded: a list or tuple `start` (`| sum(start=[])`, to join lists) is built once, in
    place, each part sized before it is added (Python's `sum` copies the growing list at every step: a thousand
    long lists took seconds before the result could be refused); numbers are summed as Python sums them. Any
    list joins, the content's own too (read-only sequences to Python, lists to the designer who wrote them)."""
    if not isinstance(start, (list, tuple)):
        return sum(iterable, start)  # numbers (a text `start` is refused by `sum` itself)
    out = list(start)
    for item in iterable:
        charge()
        if not isinstance(item, Sequence) or isinstance(item, (str, bytes)):
            raise TypeError(f"can only join lists (got {item!r:.40})")
        if len(out) + len(item) > MAX_ITEMS:
            raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
        out.extend(item)
    return out if isinstance(start, list) else tuple(out)


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse an operation before it builds something huge."""
    ints = isinstance(left, int) and isinstance(right, int) and not isinstance(left, bool)
    if operator == "**":
        if (
            ints
            and right > 0
            and left not in (0, 1, -1)
            and right * max(abs(left).bit_length(), 1) > MAX_BITS
        ):
            raise TooMuchWork("this template computes a number too large to print")
    elif operator == "*":
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_ITEMS:
                raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
        if ints and left.bit_length() + right.bit_length() > MAX_BITS:
            raise TooMuchWork("this template computes a number too large to print")
    elif operator == "%" and isinstance(left, str) and re.search(r"%[-+ #0]*\d{5,}", left):
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")


class Items(list):
    """A list of content whose every turn of a loop counts as a step."""

    __slots__ = ()

    def __iter__(self):
        for item in super().__iter__():
            charge()
            yield item


class FrozenItems(tuple):
    """A tuple of content whose every turn of a loop counts as a step."""

    __slots__ = ()

    def __iter__(self):
        for item in super().__iter__():
            charge()
            yield item


def check_format(args: tuple, kwargs: dict) -> None:
    """`'{:>999999999}'.format(x)` would build a gigabyte: refuse a width or precision of five digits."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, str) and re.search(r"\{[^{}]*:[^{}]*\d{5,}[^{}]*\}", value):
            raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")


def counted_range(*args: int):
    """`range`, with every turn counted (and never more than MAX_ITEMS long)."""
    r = range(*args)
    if len(r) > MAX_ITEMS:
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
    for i in r:
        charge()
        yield i


def too_much(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "this template nests calls too deeply (a macro calling itself?)"
    if isinstance(exc, MemoryError):
        return f"this template builds a text or list of more than {MAX_ITEMS:,} items"
    return str(exc)


def _too_long(seconds: float) -> TooMuchWork:
    return TooMuchWork(f"this template does too much work (more than {seconds:g} s of computing)")


@functools.cache
def _strike_for(seconds: float) -> type[TooMuchWork]:
    """The exception a watchdog raises in a thread whose evaluation ran over `seconds`: a class (that is what
    Python's asynchronous exceptions take), one per limit, saying the limit when it is made."""
    message = str(_too_long(seconds))

    class TimeUp(TooMuchWork):
        def __init__(self, *args: object) -> None:
            super().__init__(*(args or (message,)))

    return TimeUp


class _Guard:
    """One limited run of evaluations in one thread: when the current one began, whether it is still up, and its
    strike: `armed` holds one token while the watchdog may strike; whoever pops it (the watchdog, as the limit
    runs out, or the thread, as the limit is taken down) decides, so a strike is made at most once per arming.
    `raised` is set once the watchdog's strike was made."""

    __slots__ = ("ident", "seconds", "began", "up", "armed", "raised")

    def __init__(self, ident: int, seconds: float) -> None:
        self.ident, self.seconds = ident, seconds
        self.began, self.up = time.monotonic(), True
        self.armed, self.raised = [True], False

    def claim(self) -> bool:
        """Take the token (atomic under the GIL): True for the one who got it."""
        try:
            self.armed.pop()
        except IndexError:
            return False
        return True

    def settle(self) -> None:
        """In the guard's own thread, once the watchdog has the token: wait until its strike is made, then take it
        back if it has not landed yet. A strike landing here is the evaluation's."""
        while not self.raised:
            time.sleep(0.001)
        _raise_in(self.ident, None)


class Watchdog:
    """The time backstop, the same on every OS: one daemon thread per process keeps the guards of the threads
    that evaluate templates, sleeps until the earliest can run out, and stops an evaluation that has run for its
    limit by raising `TimeUp` in its thread (CPython's `PyThreadState_SetAsyncExc`, which is what a signal
    handler's exception amounts to: it lands at the next instruction the thread runs). No signal, no timer: it
    works in any thread (serve's builds too), on Windows, and in processes that were spawned or forked.

    A strike can land anywhere in the thread's code, so that thread never takes the watchdog's lock once a strike
    may be on its way (a strike landing just after a lock's acquire leaves it held: the watchdog, and every other
    thread's limit, would wait on it for ever): it takes the lock only to add its guard, and re-arms and takes
    down a guard with the token alone (`_Guard.claim`, `_Guard.settle`).

    Wall time, not CPU time: a thread cannot read another's CPU clock on every OS. The limit (20 s for one face)
    is far above what any real face takes, so a loaded machine never comes near it."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.cond = threading.Condition()
        self.guards: list[_Guard] = []
        self.thread: threading.Thread | None = None

    def add(self, guard: _Guard) -> None:
        with self.cond:
            self.guards.append(guard)
            if self.thread is None:
                self.thread = threading.Thread(target=self._watch, name="pnpgen-watchdog", daemon=True)
                self.thread.start()
            self.cond.notify()

    def remove(self, guard: _Guard) -> None:
        """Take a guard down, without the watchdog's lock (the watchdog drops guards that are down). A strike made
        as it ended and not yet raised is taken back, so none lands outside the guard; one raised before this
        point is the evaluation's."""
        guard.up = False
        if not guard.claim():
            guard.settle()

    def again(self, guard: _Guard) -> None:
        """The next evaluation begins: its own full limit (and, after a strike, a fresh one). A struck guard is
        re-armed without the lock: the watchdog looks at it again within `seconds`."""
        guard.began = time.monotonic()
        if not guard.armed:
            guard.settle()
            guard.raised = False
            guard.began = time.monotonic()
            guard.armed.append(True)

    def _watch(self) -> None:
        while True:
            with self.cond:
                now = time.monotonic()
                wait = None
                self.guards = [g for g in self.guards if g.up]  # the ones taken down
                for guard in self.guards:
                    left = guard.began + guard.seconds - now
                    if guard.armed and left <= 0 and guard.claim():
                        _raise_in(guard.ident, _strike_for(guard.seconds))
                        guard.raised = True
                    if guard.armed:
                        wait = left if wait is None else min(wait, left)
                    else:  # struck: it may be re-armed, with a full limit, at any moment
                        wait = guard.seconds if wait is None else min(wait, guard.seconds)
                self.cond.wait(wait)


def _raise_in(ident: int, exc: type[BaseException] | None) -> None:
    """Raise `exc` in the thread `ident` at its next instruction (None: take back one not yet raised)."""
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc) if exc else None)


_watchdogs: dict[int, Watchdog] = {}  # per process id: a forked child starts its own (threads are not forked)


def _watchdog() -> Watchdog:
    pid = os.getpid()
    dog = _watchdogs.get(pid)
    if dog is None:
        _watchdogs.clear()  # a parent's, inherited by a fork: its thread and lock are not ours to touch
        dog = _watchdogs[pid] = Watchdog()
    return dog


@contextmanager
def time_limit_each(seconds: float) -> Iterator[Callable[[], None]]:
    """`time_limit` for each of many evaluations in a row (the faces of a deck), set up once for all of them.
    Call the yielded `next()` as each evaluation begins: it has `seconds` from then (after a stop too). Nested
    `time_limit`s inside cost nothing."""
    if _limited.get():
        yield lambda: None
        return
    dog = _watchdog()
    guard = _Guard(threading.get_ident(), seconds)
    token = _limited.set(True)
    dog.add(guard)
    try:
        yield lambda: dog.again(guard)
    finally:
        try:
            dog.remove(guard)
        finally:  # even when a strike lands as the guard is taken down
            guard.up = False
            _limited.reset(token)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Stop an evaluation that has run for `seconds` (a loop no step counted), in whatever thread it runs;
    nested uses keep the outer limit."""
    with time_limit_each(seconds):
        yield
