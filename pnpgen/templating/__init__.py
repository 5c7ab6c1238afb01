"""Layout values: constants, a field's look-up (`{{ card.name }}`, answered without Jinja) and templates compiled
once and evaluated per card. `templating.jinja` holds the only `import jinja2`, imported by the first value that
needs Jinja: a deck whose templates are all look-ups never imports it.

A layout keeps its YAML structure; only string values are templates. A value that is a single
`{{ expression }}` keeps its native type (number, list); any other template renders to text.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Mapping
from itertools import islice
from typing import Any

from pnpgen.budget import (
    MAX_ITEMS,
    MAX_STEPS,
    Budget,
    FrozenItems,
    Items,
    TooMuchWork,
    budget_var,
    check_size,
    too_much,
)
from pnpgen.errors import Location

_SINGLE_EXPR = re.compile(r"^\s*\{\{(?P<expr>.*?)\}\}\s*$", re.S)
# `name.field`, the commonest value of all (`{{ card.name }}`): looked up without Jinja when `name` is content
_LOOKUP = re.compile(r"^[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\.(?P<field>[A-Za-z_][A-Za-z0-9_]*)[ \t]*$")
# a bare `name` (`{{ accent }}`, a layout variable): the context's value itself, as Jinja resolves it
_NAME = re.compile(r"^[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]*$")
_NOT_NAMES = frozenset(
    {"true", "false", "none", "True", "False", "None", "and", "or", "not", "in", "is", "if"}
)


class Fields(dict):
    """A mapping of content (a card's fields, the deck's, the game's, the palette): a template sees its items,
    never a method of the dict holding them (`card.values` is the card's field `values`, or undefined)."""

    __slots__ = ()


class Palette(Fields):
    """The game's palette as templates see it: a name it lacks is told as a colour it lacks."""

    __slots__ = ()


class LocatedFields(Fields):
    """`Fields` that remember where they were written (`model.Row`): a template sees only the items; an element
    given them reports a bad one at its `loc` and each value at `val_locs`."""

    __slots__ = ("loc", "val_locs")
    loc: Any
    val_locs: Mapping


def content(value: Any) -> Any:
    """`value` as templates see it: every mapping in it (lists included) becomes `Fields`."""
    if isinstance(value, Mapping):
        if isinstance(getattr(value, "val_locs", None), Mapping):
            out = LocatedFields((k, content(v)) for k, v in value.items())
            row: Any = value  # a `model.Row` or a located YAML mapping
            out.loc, out.val_locs = getattr(row, "loc", None), row.val_locs
            return out
        return Fields((k, content(v)) for k, v in value.items())
    if isinstance(value, list):
        return Items(content(v) for v in value)
    if isinstance(value, tuple):
        return FrozenItems(content(v) for v in value)
    return value


class TemplateProblem(Exception):
    """A template failed while being evaluated; the caller adds which card."""

    def __init__(self, location: Location, message: str):
        self.location, self.message = location, message
        super().__init__(f"{location}: {message}")


ALL = None  # "depends on the whole card"


class Compiler:
    """Compiles template strings once per process and remembers them; the work budget is this compiler's."""

    def __init__(self, budget: Budget | None = None):
        self.evaluate: Callable | None = None  # `jinja.evaluate`, once this compiler has compiled something
        # the steps every value compiled here may take in one build, together (shared with another compiler of the
        # same build when given: a game's low-ink painter spends the drawing's budget, not one of its own)
        self.budget = budget if budget is not None else Budget()
        self._cache: dict[tuple[str, str], Any] = {}
        self._deps: dict[tuple[str, str], Any] = {}

    def deps(self, value: Value):
        """The card fields a compiled value reads (frozenset), or ALL."""
        if value.is_constant:
            return frozenset()
        return self._deps.get(value.key, ALL) if value.key is not None else ALL

    def value(self, raw: Any, loc: Location) -> Value:
        if not isinstance(raw, str) or ("{{" not in raw and "{%" not in raw):
            return Value(raw, loc, None, None)
        m = _SINGLE_EXPR.match(raw)
        if m and "{{" not in m.group("expr") and "}}" not in m.group("expr"):
            return self._expr(raw, m.group("expr"), loc)
        v = Value(raw, loc, None, self._compile("template", raw, loc), self.budget)
        v.key, v.compiler = ("template", raw), self
        return v

    def expression(self, raw: Any, loc: Location) -> Value:
        """`when:` and `for_each:` take a bare expression (braces are allowed and ignored)."""
        if not isinstance(raw, str):
            return Value(raw, loc, None, None)
        m = _SINGLE_EXPR.match(raw)
        return self._expr(raw, m.group("expr") if m else raw, loc)

    def _expr(self, raw: str, text: str, loc: Location) -> Value:
        """An expression's value. `name.field` is compiled only when the look-up cannot answer (a missing field,
        a name that is not content): Jinja always parses it, and the card fields it reads are `field`'s."""
        lookup, key = _lookup(text), ("expr", text)
        if lookup is not None and lookup[1] is not None:
            v = Value(raw, loc, _Later(self, text, loc), None, self.budget)
            self._deps.setdefault(key, frozenset({lookup[1]}) if lookup[0] == "card" else frozenset())
        else:
            v = Value(raw, loc, self._compile("expr", text, loc), None, self.budget)
        v.key, v.lookup, v.compiler = key, lookup, self
        return v

    def _compile(self, kind: str, text: str, loc: Location):
        key = (kind, text)
        if key not in self._cache:
            from pnpgen.templating import jinja

            self.evaluate = jinja.evaluate
            self._cache[key], self._deps[key] = jinja.compile_value(kind, text, loc)
        return self._cache[key]


def _lookup(expr: str) -> tuple[str, str | None] | None:
    """(name, field) when an expression is nothing but `name.field`, (name, None) when it is a bare `name`;
    else None."""
    m = _LOOKUP.match(expr) or _NAME.match(expr)
    if m is None or m.group("name") in _NOT_NAMES:
        return None
    return m.group("name"), m.groupdict().get("field")


class Value:
    """A layout value: a constant, a native-typed expression, or a text template."""

    __slots__ = ("raw", "loc", "expr", "template", "key", "budget", "lookup", "compiler")

    def __init__(self, raw, loc: Location, expr, template, budget: Budget | None = None):
        self.raw, self.loc, self.expr, self.template = raw, loc, expr, template
        self.key: tuple[str, str] | None = None
        self.budget = budget  # the build's (its compiler's)
        # (name, field) of an expression that is only `name.field`, (name, None) of a bare `name`
        self.lookup: tuple[str, str | None] | None = None
        self.compiler: Compiler | None = None  # its compiler: compiles a `_Later` expression, evaluates it

    @property
    def is_constant(self) -> bool:
        return self.expr is None and self.template is None

    def __call__(self, ctx: dict) -> Any:
        if self.expr is None and self.template is None:
            return self.raw
        if (
            self.lookup is not None
        ):  # `card.name` on content: what the sandbox's look-up gives, one step charged
            name, key = self.lookup
            found = ctx.get(name)
            if key is None:  # a bare name: Jinja gives the context's value as it is, and charges no step
                if (found is not None or name in ctx) and not _undefined(found):
                    try:
                        return check_size(found)
                    except TooMuchWork as exc:
                        raise TemplateProblem(self.loc, too_much(exc)) from None
            elif type(found) is Fields and key in found:
                budget = self.budget or budget_var.get() or Budget()
                budget.left = MAX_STEPS
                try:
                    budget.charge()
                    return check_size(found[key])
                except TooMuchWork as exc:
                    raise TemplateProblem(self.loc, too_much(exc)) from None
            # anything else (a missing field, a name that is not content) is Jinja's to evaluate and explain
        if type(self.expr) is _Later:
            self.expr = self.expr.compiled()
        compiler = self.compiler
        assert compiler is not None and compiler.evaluate is not None  # set when the value was compiled
        return compiler.evaluate(self, ctx)


def read(value: Value, items: Any, limit: int) -> list:
    """The items of a sequence `value` gave, one past `limit` at most (the caller says what passing it means): one
    Jinja makes lazily (`range(card.cost)`, a `map`) is read within the value's budget, and what fails while it is
    read is told at the value's line as the value's own."""
    if isinstance(items, list | tuple | range):
        return list(items[: limit + 1])
    items = islice(items, limit + 1)
    if value.compiler is None or value.compiler.evaluate is None:
        return list(items)
    return value.compiler.evaluate(value, {}, items)


def made(value: Value, got: Any) -> Any:
    """What `value` gave, a sequence made as it is read (`range(card.cost)`, a `map`) read once into a list: a
    name every later expression gets (a layout's var, a rule's `let`; left lazy, the first to use it would leave
    nothing for the next). At most MAX_ITEMS items."""
    if not isinstance(got, Iterator):
        return got
    items = read(value, got, MAX_ITEMS)
    if len(items) > MAX_ITEMS:
        raise TemplateProblem(
            value.loc, f"this template builds a text or list of more than {MAX_ITEMS:,} items"
        )
    return items


class _Later:
    """A look-up's expression, compiled by Jinja only when the look-up cannot answer (or when called)."""

    __slots__ = ("compiler", "text", "loc")

    def __init__(self, compiler: Compiler, text: str, loc: Location):
        self.compiler, self.text, self.loc = compiler, text, loc

    def compiled(self):
        return self.compiler._compile("expr", self.text, self.loc)

    def __call__(self, **ctx: Any) -> Any:
        return self.compiled()(**ctx)


def _undefined(value: Any) -> bool:
    """Whether `value` is Jinja's undefined (only Jinja makes one: never so while Jinja is not imported)."""
    jinja = sys.modules.get("jinja2")
    return jinja is not None and isinstance(value, jinja.Undefined)
