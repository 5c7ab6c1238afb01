"""What a template may print: values whose text is the same in every process.

Python prints a function, a generator or an object of its own as its memory address (`<function floor at
0x7f...>`) and a set in an order that follows the process's hash seed: a template printing one would write other
bytes on every build. The sandbox (`templating.jinja`) refuses them wherever a value becomes text (a template's
output, `~`, `%`, a string's `format` or `join`, a filter) and wherever a single expression gives one as a value,
with what to write instead. A sequence not yet made (a generator, what `map` or `select` give) is let through
where it is read (a filter that reads it, a `for_each`), refused where it would be printed. Jinja's `random`
filter is left out of the sandbox for the same reason (`syntax_hint` says so to a template that names it).
"""

from __future__ import annotations

import re
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from functools import partial
from itertools import islice
from string import Formatter
from typing import Any

from pnpgen.budget import MAX_ITEMS, TooMuchWork, charge, check_size
from pnpgen.errors import did_you_mean
from pnpgen.recorded import ListView, View


class Unprintable(ValueError):
    """A value a template may not print: the message says what it is and what to write instead."""


def unprintable(value: Any, passed: tuple = (), depth: int = 0, lazy: bool = False) -> str:
    """What `value` is, when its text would differ from one process to the next; '' when it prints the same.
    `passed`: types let through (the template engine's undefined value, which says so itself when printed);
    `lazy`: a sequence not yet made is let through too (not inside another value): it is read, never printed.
    A list or mapping is looked into whole, each once however often it is held (`_parts`): `[[0] * 2000] * 2000`
    is one list of 2,000 held 2,000 times, not four million values."""
    kind = type(value)
    if value is None or kind is str or kind is int or kind is float or kind is bool:
        return ""
    if _container(value):
        return _parts(value, passed, depth)
    if isinstance(value, passed):
        if depth:  # given to a filter or a method, or in a list: a strict one says which name it lacks
            str(value)
        return "" if depth == 0 else "a value that is not defined (inside a list or a mapping)"
    if isinstance(value, (str, int, float, View, ListView)):
        return ""  # Markup, content as pnpgen reads it (its own values: data)
    if isinstance(value, (set, frozenset)):
        return "a set, whose order changes from one build to the next: sort it first (| sort)"
    if isinstance(value, Iterator):
        if lazy and depth == 0:
            return ""
        return "a sequence not yet made (a generator): make it a list (| list) or a text (| join(', '))"
    if callable(value):
        name = getattr(value, "__name__", "") or "function"
        return f"the function '{name}' itself rather than its result: call it, as in {name}(...)"
    return f"a {kind.__name__} object, whose text is its place in memory"


def _container(value: Any) -> bool:
    """A list, tuple or mapping (or a mapping's keys, values or items) made by a template: looked into."""
    kind = type(value)
    if kind is list or kind is tuple or kind is dict:  # the common ones, before the slower checks
        return True
    if kind is str or isinstance(value, (str, View, ListView)):  # Markup; content as pnpgen reads it
        return False
    return isinstance(value, (list, tuple, KeysView, ValuesView, ItemsView, Mapping))


def _parts(value: Any, passed: tuple, depth: int) -> str:
    """`unprintable` of every value inside the container `value`, in order, depth first, without recursion (no
    nesting is too deep to look into). Each container is looked into once, by identity, and held until the walk
    ends so that none made for it (a mapping's pairs) passes its id on to another."""
    seen = {id(value): value}
    stack = [_inside(value)]
    while stack:
        for item in stack[-1]:
            kind = type(item)
            if kind is int or kind is str or kind is float or kind is bool or item is None:
                continue  # the usual values, before the slower checks
            if _container(item):
                if id(item) not in seen:
                    seen[id(item)] = item
                    stack.append(_inside(item))
                    break  # into it; this container goes on from here once it is done
            elif found := unprintable(item, passed, depth + len(stack)):
                return found
        else:
            stack.pop()
    return ""


def _inside(value: Any) -> Iterator:
    """What a container holds, in order: a mapping's keys and values in turn; a mapping's items as its pairs."""
    if isinstance(value, Mapping):
        return (part for pair in value.items() for part in pair)
    return iter(value)


def printed(value: Any, passed: tuple = ()) -> Any:
    """`value` as a template's output may print it; raises Unprintable (a located template error) when not."""
    if type(value) is str:
        return value
    found = unprintable(value, passed)
    if found:
        raise Unprintable(f"prints {found}")
    return value


def printed_str(value: Any, passed: tuple = ()) -> str:
    """`str(value)` where a template joins texts (`~`): refused as `printed` refuses it."""
    return value if type(value) is str else str(printed(value, passed))


def plain_fields(pattern: str) -> None:
    """A format string's fields may name an argument only (`{0}`, `{name:>5}`): one that looks a value up
    (`{0.upper}`, `{0[key]}`) would print what it finds, a method's address as readily as a text."""
    for _text, field, _spec, _conversion in Formatter().parse(pattern):
        if field and ("." in field or "[" in field):
            raise Unprintable(
                f"looks a value up inside a format field ({{{field}}}): look it up outside the format"
            )


def bound(passed: tuple) -> tuple:
    """`printed` and `printed_str`, letting `passed` through."""
    return partial(printed, passed=passed), partial(printed_str, passed=passed)


# Filters that make text of the value they are given (`join`: of its items): a function or a sequence not yet
# made would print as its address. The others only read it; what they give is checked where it is printed.
TEXT_FILTERS = frozenset(
    {"string", "format", "center", "indent", "wordwrap", "truncate", "title", "upper", "lower", "capitalize",
     "trim", "replace", "striptags", "escape", "e", "forceescape", "safe", "urlize", "urlencode", "wordcount",
     "xmlattr", "pprint", "pad", "filesizeformat", "join", "int", "float", "abs", "round"}
)  # fmt: skip


def sized(fn: Any, name: str, passed: tuple) -> Any:
    """A filter as the sandbox calls it: a step of the budget; no width or count that would build a huge text;
    nothing it makes text of that would print differently in another process (its arguments, and the value it is
    given when it is one of TEXT_FILTERS); and what it gives checked for size."""
    given = 1 if hasattr(fn, "jinja_pass_arg") else 0  # the context or environment Jinja passes first
    first = given if name in TEXT_FILTERS else given + 1  # the value it is given, when it makes text of it
    joins = name == "join"

    def filtered(*args: Any, **kwargs: Any) -> Any:
        charge()
        for arg in args[1:]:  # widths and counts given to a filter ('center', 'indent', 'truncate'...)
            if isinstance(arg, int) and not isinstance(arg, bool) and arg > MAX_ITEMS:
                raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
        if joins and len(args) > given and isinstance(args[given], Iterator):  # its items are what it prints
            items = list(islice(args[given], MAX_ITEMS + 1))
            args = (*args[:given], check_size(items), *args[given + 1 :])
        if len(args) > first or kwargs:
            found = unprintable((args[first:], kwargs), passed)
            if found:
                raise Unprintable(f"prints {found}")
        return check_size(fn(*args, **kwargs))

    if given:  # keep how Jinja passes the context or environment to it
        filtered.jinja_pass_arg = fn.jinja_pass_arg  # type: ignore[attr-defined]
    return filtered


RANDOM_HINT = (
    "pnpgen writes the same file from the same content, so no filter draws at random: choose by the card "
    "instead, as in {{ names[card.index % (names | length)] }}"
)


def syntax_hint(message: str, filters: Iterable[str]) -> str:
    """The hint of a template's syntax error naming a filter that is not there: why `random` is not (Jinja's
    drew from the process's random state), else the closest of `filters`."""
    found = re.match(r"No filter named '([^']*)'", message)
    if found is None:
        return ""
    if found.group(1) == "random":
        return RANDOM_HINT
    return did_you_mean(found.group(1), filters)
