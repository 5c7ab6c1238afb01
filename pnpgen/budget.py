"""Work budgets for templates: what one evaluation, and one build, may spend.

Every look-up, call, operator, turn of `range` and turn of a loop over content is a step; texts, lists and
numbers are refused before they grow huge; a CPU-time limit is the backstop for work no step counts. Kept apart
from `templating` (the only Jinja user) so the rules read on their own; nothing here imports Jinja.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

MAX_STEPS = 100_000  # look-ups, calls, operators and loop turns in one evaluation of one value
MAX_BUILD_STEPS = 20_000_000  # all evaluations of one build together
MAX_ITEMS = 1_000_000  # characters of a text, or items of a list, a template may build
MAX_BITS = 4_096  # a number a template computes: about 1,200 digits
MAX_SECONDS = 20.0  # CPU time of one evaluation: the backstop for work no step counts


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
_limited: ContextVar[bool] = ContextVar("pnpgen_cpu_limited", default=False)


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


@contextmanager
def cpu_limit_each(seconds: float) -> Iterator[Callable[[], None]]:
    """`cpu_limit` for each of many evaluations in a row (the faces of a deck), armed once for all of them:
    arming costs four system calls, 7 us, which is 70 ms at 10,000 cards. Call the yielded `next()` as each
    evaluation begins; when the timer strikes, it stops the evaluation only if that one has used `seconds`, and
    is otherwise set again for what that one has left (after a stop, `next()` sets it again). Nested
    `cpu_limit`s inside cost nothing."""
    if _limited.get() or threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    # CPU time (as ITIMER_PROF counts it) when the current evaluation began; whether the timer is set; whether
    # the limit is still up (a strike that lands as it is taken down does nothing)
    state = {"began": time.process_time(), "armed": True, "up": True}

    def next_one() -> None:
        state["began"] = time.process_time()
        if not state["armed"]:
            state["armed"] = True
            signal.setitimer(signal.ITIMER_PROF, seconds)

    def stop(signum, frame):
        if not state["up"]:
            return
        used = time.process_time() - state["began"]
        if used >= seconds * 0.99:
            state["armed"] = False
            raise _too_long(seconds)
        signal.setitimer(signal.ITIMER_PROF, max(seconds - used, 0.01))

    with _armed(stop, seconds, state):
        yield next_one


@contextmanager
def cpu_limit(seconds: float):
    """Stop an evaluation that has used `seconds` of CPU time (a loop no step counted). Only in the main thread,
    where signals are delivered; nested uses keep the outer limit."""
    if _limited.get() or threading.current_thread() is not threading.main_thread():
        yield
        return
    state = {"up": True}

    def stop(signum, frame):
        if state["up"]:
            raise _too_long(seconds)

    with _armed(stop, seconds, state):
        yield


@contextmanager
def _armed(handler: Callable, seconds: float, state: dict) -> Iterator[None]:
    """SIGPROF to `handler`, the CPU timer set to `seconds`, and the limit marked armed, for the block; then all
    as it was. `state["up"]` goes false first, so a strike that lands while this is undone does nothing (it would
    otherwise set the timer again, or skip the rest, and the restored default action ends the process)."""
    old = signal.signal(signal.SIGPROF, handler)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    token = _limited.set(True)
    try:
        yield
    finally:
        state["up"] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        _limited.reset(token)
