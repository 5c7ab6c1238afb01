"""The only `import jinja2`: a sandboxed environment and values compiled once, evaluated per card.

A layout keeps its YAML structure; only string values are templates. A value that is a single
`{{ expression }}` keeps its native type (number, list); any other template renders to text.
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from pnpgen.errors import ContentError, Location

_SINGLE_EXPR = re.compile(r"^\s*\{\{(?P<expr>.*?)\}\}\s*$", re.S)


class Fields(dict):
    """A mapping of content (a card's fields, the deck's, the game's, the palette): a template sees its items,
    never a method of the dict holding them (`card.values` is the card's field `values`, or undefined)."""

    __slots__ = ()


def content(value: Any) -> Any:
    """`value` as templates see it: every mapping in it (lists included) becomes `Fields`."""
    if isinstance(value, Mapping):
        return Fields((k, content(v)) for k, v in value.items())
    if isinstance(value, list):
        return Items(content(v) for v in value)
    if isinstance(value, tuple):
        return FrozenItems(content(v) for v in value)
    return value


# -- work budgets ----------------------------------------------------------------------------------------------
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
_budget: ContextVar[Budget | None] = ContextVar("pnpgen_template_budget", default=None)
_limited: ContextVar[bool] = ContextVar("pnpgen_cpu_limited", default=False)


def _charge(n: int = 1) -> None:
    budget = _budget.get()
    if budget is not None:
        budget.charge(n)


def _check_size(value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_ITEMS:
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_BITS:
        raise TooMuchWork("this template computes a number too large to print")
    return value


def _check_binop(operator: str, left: Any, right: Any) -> None:
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
            _charge()
            yield item


class FrozenItems(tuple):
    """A tuple of content whose every turn of a loop counts as a step."""

    __slots__ = ()

    def __iter__(self):
        for item in super().__iter__():
            _charge()
            yield item


def _counted_range(*args: int):
    """`range`, with every turn counted (and never more than MAX_ITEMS long)."""
    r = range(*args)
    if len(r) > MAX_ITEMS:
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
    for i in r:
        _charge()
        yield i


class Environment(ImmutableSandboxedEnvironment):
    """The sandbox, with a mapping's item winning over an attribute of the same name; `Fields` have no
    attributes at all. (Jinja's own order is the other way: `card.values` would be the dict's method.) Every
    look-up, call and operator is a step of the evaluation's budget, and nothing it builds may be huge."""

    intercepted_binops = frozenset({"**", "*", "%", "+", "//", "-"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        _charge()
        _check_binop(operator, left, right)
        return _check_size(super().call_binop(context, operator, left, right))

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _charge()
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        _charge()
        return self._getattr(obj, attribute)

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:  # '{:>999999999}'.format(...) is refused before it builds a gigabyte
            _check_format((value.__self__,), {})
        return wrapped

    def _getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, Mapping):
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                if isinstance(obj, Fields):
                    return self.undefined(obj=obj, name=attribute, hint=_no_field(attribute))
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _charge()
        if isinstance(obj, Fields):
            try:
                return obj[argument]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=argument, hint=_no_field(argument))
        return super().getitem(obj, argument)


def _check_format(args: tuple, kwargs: dict) -> None:
    """`'{:>999999999}'.format(x)` would build a gigabyte: refuse a width or precision of five digits."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, str) and re.search(r"\{[^{}]*:[^{}]*\d{5,}[^{}]*\}", value):
            raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")


def _no_field(name: Any) -> str:
    return f"'dict object' has no attribute {str(name)!r}"


def make_environment() -> ImmutableSandboxedEnvironment:
    env = Environment(
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.pop("lipsum", None)
    env.globals["range"] = _counted_range
    env.filters["pad"] = _pad
    for name, fn in list(env.filters.items()):  # a filter's result may not be huge either
        env.filters[name] = _sized(fn)
    return env


def _pad(value: Any, width: Any, char: str = "0") -> str:
    if int(width) > MAX_ITEMS:
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
    return str(value).rjust(int(width), str(char))


def _sized(fn):
    def filtered(*args: Any, **kwargs: Any) -> Any:
        _charge()
        for arg in args[1:]:  # widths and counts given to a filter ('center', 'indent', 'truncate'...)
            if isinstance(arg, int) and not isinstance(arg, bool) and arg > MAX_ITEMS:
                raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
        return _check_size(fn(*args, **kwargs))

    for attr in ("jinja_pass_arg",):  # keep how Jinja passes the context or environment to it
        if hasattr(fn, attr):
            setattr(filtered, attr, getattr(fn, attr))
    return filtered


class TemplateProblem(Exception):
    """A template failed while being evaluated; the caller adds which card."""

    def __init__(self, location: Location, message: str):
        self.location, self.message = location, message
        super().__init__(f"{location}: {message}")


def _explain(exc: Exception) -> str:
    if isinstance(exc, jinja2.UndefinedError):
        return f"undefined value: {exc.message}"
    if isinstance(exc, SecurityError):
        return f"not allowed in a template: {exc}"
    if isinstance(exc, TypeError) and "no loader" in str(exc):
        return "not allowed in a template: templates cannot include, import or extend files"
    return f"{type(exc).__name__}: {exc}"


ALL = None  # "depends on the whole card"


def card_fields_used(env, source: str, kind: str):
    """Which `card.<field>` a template reads: a frozenset, or ALL when it reads the card in a way we cannot name."""
    from jinja2 import nodes

    try:
        ast = env.parse(source if kind == "template" else "{{ " + source + " }}")
    except jinja2.TemplateSyntaxError:
        return ALL
    used, named = set(), set()
    for node in ast.find_all((nodes.Getattr, nodes.Getitem)):
        target = node.node
        if isinstance(target, nodes.Name) and target.name == "card":
            if isinstance(node, nodes.Getattr):
                used.add(node.attr)
            elif isinstance(node.arg, nodes.Const):
                used.add(node.arg.value)
            else:
                return ALL
            named.add(id(target))
    for name in ast.find_all(nodes.Name):
        if name.name == "card" and id(name) not in named:
            return ALL  # the card passed whole (to a filter, a loop...)
    return frozenset(used)


class Compiler:
    """Compiles template strings once and remembers them."""

    def __init__(self):
        self.env = make_environment()
        self.budget = Budget()  # the steps every value compiled here may take in one build, together
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
            v = Value(raw, loc, self._compile("expr", m.group("expr"), loc), None, self.budget)
            v.key = ("expr", m.group("expr"))
            return v
        v = Value(raw, loc, None, self._compile("template", raw, loc), self.budget)
        v.key = ("template", raw)
        return v

    def expression(self, raw: Any, loc: Location) -> Value:
        """`when:` and `for_each:` take a bare expression (braces are allowed and ignored)."""
        if not isinstance(raw, str):
            return Value(raw, loc, None, None)
        m = _SINGLE_EXPR.match(raw)
        text = m.group("expr") if m else raw
        v = Value(raw, loc, self._compile("expr", text, loc), None, self.budget)
        v.key = ("expr", text)
        return v

    def _compile(self, kind: str, text: str, loc: Location):
        key = (kind, text)
        if key not in self._cache:
            try:
                if kind == "expr":
                    self._cache[key] = self.env.compile_expression(text, undefined_to_none=False)
                else:
                    self._cache[key] = self.env.from_string(text)
                self._deps[key] = card_fields_used(self.env, text, kind)
            except jinja2.TemplateSyntaxError as exc:
                where = loc.shifted((exc.lineno or 1) - 1) if kind == "template" else loc
                raise ContentError.at(where, f"template error: {exc.message}") from None
        return self._cache[key]


class Value:
    """A layout value: a constant, a native-typed expression, or a text template."""

    __slots__ = ("raw", "loc", "expr", "template", "key", "budget")

    def __init__(self, raw, loc: Location, expr, template, budget: Budget | None = None):
        self.raw, self.loc, self.expr, self.template = raw, loc, expr, template
        self.key: tuple[str, str] | None = None
        self.budget = budget  # the build's (its compiler's)

    @property
    def is_constant(self) -> bool:
        return self.expr is None and self.template is None

    def __call__(self, ctx: dict) -> Any:
        if self.expr is None and self.template is None:
            return self.raw
        budget = self.budget or _budget.get() or Budget()
        budget.left = MAX_STEPS  # each value has its own; the build's total goes on
        token = _budget.set(budget)
        try:
            with cpu_limit(MAX_SECONDS):  # armed once per face, rulebook or fact; nested uses cost nothing
                if self.expr is not None:
                    result = self.expr(**ctx)
                    if isinstance(result, jinja2.Undefined):
                        result._fail_with_undefined_error()  # raises the UndefinedError that names the value
                    return _check_size(result)
                return _check_size(self.template.render(ctx))
        except TemplateProblem:
            raise
        except (TooMuchWork, RecursionError, MemoryError) as exc:
            raise TemplateProblem(self.loc, _too_much(exc)) from None
        except Exception as exc:  # any failure inside user templates becomes a located message
            raise TemplateProblem(self.loc, _explain(exc)) from None
        finally:
            _budget.reset(token)


def _too_much(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "this template nests calls too deeply (a macro calling itself?)"
    if isinstance(exc, MemoryError):
        return f"this template builds a text or list of more than {MAX_ITEMS:,} items"
    return str(exc)


@contextmanager
def cpu_limit(seconds: float):
    """Stop an evaluation that has used `seconds` of CPU time (a loop no step counted). Only in the main thread,
    where signals are delivered; nested uses keep the outer limit."""
    if _limited.get() or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise TooMuchWork(f"this template does too much work (more than {seconds:g} s of computing)")

    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    token = _limited.set(True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        _limited.reset(token)


def render_document(text: str, names: dict, display: str) -> str:
    """Render a whole document (a rulebook) as one template; errors name the document's own line."""
    env = make_environment()
    env.trim_blocks = False  # keep one output line per source line where possible
    try:
        template = env.from_string(text)
    except jinja2.TemplateSyntaxError as exc:
        raise ContentError.at(
            Location(display, exc.lineno or 1, 1), f"template error: {exc.message}"
        ) from None
    token = _budget.set(Budget())
    try:
        with cpu_limit(MAX_SECONDS):
            return _check_size(template.render(names))
    except (TooMuchWork, RecursionError, MemoryError) as exc:
        raise ContentError.at(
            Location(display, _template_line(exc), 1), f"template error: {_too_much(exc)}"
        ) from None
    except Exception as exc:  # user template failures become located messages
        message = exc.message if isinstance(exc, jinja2.UndefinedError) else _explain(exc)
        if isinstance(exc, (ValueError, TypeError)) and not isinstance(exc, SecurityError):
            message = str(exc)
        raise ContentError.at(
            Location(display, _template_line(exc), 1), f"template error: {message}"
        ) from None
    finally:
        _budget.reset(token)


def _template_line(exc: BaseException) -> int:
    tb, line = exc.__traceback__, 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line or 1
