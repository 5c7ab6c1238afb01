"""Jinja, imported only when a build evaluates a template that is more than a field's look-up (`{{ card.name }}`
and a bare `{{ name }}` are answered without it): the sandbox, compiling (kept in `codecache`), the card fields
a template reads, and whole documents (a rulebook)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache, lru_cache
from types import CodeType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.environment import TemplateExpression
from jinja2.parser import Parser
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from pnpgen import codecache
from pnpgen.budget import (
    MAX_ITEMS,
    MAX_SECONDS,
    MAX_STEPS,
    Budget,
    TooMuchWork,
    bounded_join,
    bounded_sum,
    budget_var,
    charge,
    check_binop,
    check_format,
    check_size,
    counted_range,
    time_limit,
    too_much,
)
from pnpgen.errors import ContentError, Location, did_you_mean
from pnpgen.recorded import View
from pnpgen.templating import ALL, Fields, Palette, TemplateProblem, printable
from pnpgen.templating.told import TEXT_FOR_NUMBER, plain_words, text_for_number

_UNDEFINED = (jinja2.Undefined,)  # printed as Jinja prints it: a strict one raises, naming the value
printed, printed_str = printable.bound(_UNDEFINED)


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, with `a ~ b` joined by the environment's `concat` (bounded, like every other text
    a template builds: its output, a `{% set %}` block, a macro's) instead of an unbounded join of its own."""

    def visit_Concat(self, node, frame) -> None:
        self.write("concat(map(environment.printed_str, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")


class Environment(ImmutableSandboxedEnvironment):
    """The sandbox, with a mapping's item winning over an attribute of the same name; `Fields` have no
    attributes at all. (Jinja's own order is the other way: `card.values` would be the dict's method.) Every
    look-up, call and operator is a step of the evaluation's budget, and nothing it builds may be huge: every
    text a template joins goes through `concat`, which stops at MAX_ITEMS."""

    code_generator_class = _CodeGenerator
    concat = staticmethod(bounded_join)
    printed_str = staticmethod(printed_str)  # what `~` joins (`printable`)

    intercepted_binops = frozenset({"**", "*", "%", "+", "//", "-"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        charge()
        check_binop(operator, left, right)
        if operator == "%" and isinstance(left, str):  # '%s' % value prints the value
            printed(right)
        made = super().call_binop(context, operator, left, right)
        if isinstance(made, (set, frozenset)):  # keys() - [...]: its order would follow the hash seed
            raise printable.Unprintable(
                "makes a set, whose order changes from one build to the next: sort it"
            )
        return check_size(made)

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        charge()
        if isinstance(getattr(__obj, "__self__", None), str):  # a text's join...: prints its arguments
            printed((args, kwargs))
        return check_size(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        charge()
        return self._getattr(obj, attribute)

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        # '{:>999999999}'.format(...) is refused before it builds a gigabyte
        check_format((value.__self__,), {})
        printable.plain_fields(value.__self__)  # '{0.upper}' would print what it looks up, unchecked
        return lambda *args, **kwargs: wrapped(*printed(args), **printed(kwargs))  # it prints its arguments

    def _getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, Mapping):
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                if isinstance(obj, Fields):
                    return self.undefined(obj=obj, name=attribute)
                if isinstance(obj, View):
                    return self.undefined(obj=obj, name=attribute, hint=_no_key(obj, attribute))
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        charge()
        if isinstance(obj, Fields | View):
            try:
                return obj[argument]
            except (TypeError, LookupError):
                hint = None if isinstance(obj, Fields) else _no_key(obj, argument)
                return self.undefined(obj=obj, name=argument, hint=hint)
        return super().getitem(obj, argument)


class Undefined(jinja2.StrictUndefined):
    """Strict; a key content lacks is told with the nearest it has, worked out only when a message is made."""

    __slots__ = ()
    __index__ = jinja2.StrictUndefined._fail_with_undefined_error  # `range(card.cots)` names the field

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint is not None or not isinstance(obj, Fields):
            return super()._undefined_message
        hint = did_you_mean(str(name), [str(k) for k in obj]) if obj else "it is empty"
        if isinstance(obj, Palette):
            return f"the palette has no colour {str(name)!r}; {hint}"
        return f"the mapping has no {str(name)!r}; {hint}"


def _no_key(view: View, name: Any) -> str:
    """What a rulebook's look-up of content missed, by the content's own path: `components.board has no 'cards'
    (it has: id, name, kind, ...)`. The keys are listed without recording them as read."""
    keys = [str(k) for k in view._data]
    shown = ", ".join(keys[:12]) + (", ..." if len(keys) > 12 else "")
    where = view._path.replace("/", ".") or "the content"
    return f"{where} has no {str(name)!r}" + (f" (it has: {shown})" if keys else "")


def make_environment() -> ImmutableSandboxedEnvironment:
    env = Environment(
        undefined=Undefined,
        finalize=printed,  # what `{{ }}` prints: the same text in every process
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.pop("lipsum", None)
    env.filters.pop("random", None)  # it draws from the process's random state: other bytes each build
    env.globals["range"] = counted_range
    env.filters.update(pad=_pad, sum=_sum)
    env.globals.update(MATH)
    for name, fn in list(env.filters.items()):  # a filter's result may not be huge either
        env.filters[name] = printable.sized(fn, name, _UNDEFINED)
    return env


def _finite(name: str, fn):
    """`fn` as a template calls it: numbers in, a finite number out, else a ValueError that says which."""

    def computed(*args: Any) -> Any:
        for arg in args:
            if isinstance(arg, bool) or not isinstance(arg, (int, float)):
                raise ValueError(f"{name}() takes numbers (got {arg!r})")
        try:
            result = fn(*args)
        except (ValueError, OverflowError, ZeroDivisionError):
            result = math.nan
        if isinstance(result, float) and not math.isfinite(result):
            shown = ", ".join(repr(a) for a in args)
            raise ValueError(f"{name}({shown}) is not a finite number")
        return result

    computed.__name__ = computed.__qualname__ = name  # as a message names it
    return computed


# The math a board needs, as template functions: `{{ cos(radians(60)) * 10 }}`. min, max and round are Jinja's
# filters already (`[a, b] | max`, `x | round(1)`) and also functions here.
MATH: dict[str, Any] = {
    "pi": math.pi,
    **{
        name: _finite(name, getattr(math, name))
        for name in "sin cos tan asin acos atan atan2 sqrt hypot radians degrees".split()
    },
    "floor": _finite("floor", math.floor),
    "ceil": _finite("ceil", math.ceil),
    "round": _finite("round", round),
    "abs": _finite("abs", abs),
    "min": _finite("min", min),
    "max": _finite("max", max),
}


def _pad(value: Any, width: Any, char: str = "0") -> str:
    if int(width) > MAX_ITEMS:
        raise TooMuchWork(f"this template builds a text or list of more than {MAX_ITEMS:,} items")
    return str(value).rjust(int(width), str(char))


@jinja2.pass_environment
def _sum(env: Any, items: Any, attribute: Any = None, start: Any = 0) -> Any:
    """Jinja's `sum` (its `attribute` and `start`), bounded as `budget.bounded_sum` is."""
    if attribute is not None:
        items = map(jinja2.filters.make_attrgetter(env, attribute), items)
    return bounded_sum(items, start)


def _explain(exc: Exception) -> str:
    if isinstance(exc, printable.Unprintable):
        return plain_words(str(exc))
    if isinstance(exc, jinja2.UndefinedError):
        return plain_words(f"undefined value: {exc.message}")
    if isinstance(exc, SecurityError):
        return plain_words(f"not allowed in a template: {exc}")
    if isinstance(exc, TypeError) and "no loader" in str(exc):
        return "not allowed in a template: templates cannot include, import or extend files"
    if isinstance(exc, TypeError) and text_for_number(str(exc)):
        return plain_words(f"{type(exc).__name__}: {exc}") + TEXT_FOR_NUMBER
    return plain_words(f"{type(exc).__name__}: {exc}")


def card_fields_used(env, source: str, kind: str):
    """Which `card.<field>` a template reads: a frozenset, or ALL when it reads the card in a way we cannot name."""
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


@cache
def shared_environment() -> ImmutableSandboxedEnvironment:
    """One sandbox per process: it holds no state of a build (budgets travel in `budget_var`), so what it compiled
    serves every game and every rebuild (`serve`, `watch`)."""
    return make_environment()


@lru_cache(maxsize=20_000)
def _compiled(kind: str, text: str) -> tuple[Any, Any]:
    """A template or expression compiled once per process, with the card fields it reads (a syntax error is
    raised each time: it is not remembered). The compiled code is kept in `codecache` across processes."""
    env = shared_environment()
    # the code depends on its text, on this module (the code generator, the sandbox's settings) and on Jinja
    key = codecache.key(__file__, jinja2.__version__, kind, text)
    found = codecache.load(key)
    if type(found) is tuple and len(found) == 2 and isinstance(found[1], CodeType):
        deps, code = found
        deps = ALL if deps is None else frozenset(deps)
    else:
        code = env.compile(_expression_node(env, text) if kind == "expr" else text)
        deps = card_fields_used(env, text, kind)
        codecache.store(key, (None if deps is ALL else tuple(sorted(deps, key=repr)), code))
    # the environment's globals as a plain dict, not Jinja's ChainMap over them: every evaluation copies them into
    # a fresh context, and a ChainMap is iterated in Python (they never change once the environment is made)
    template = env.template_class.from_code(env, code, dict(env.globals))
    return (TemplateExpression(template, False) if kind == "expr" else template), deps


def _expression_node(env, text: str):
    """What `Environment.compile_expression` compiles: a template whose one statement keeps the expression's
    value (Jinja's own construction, so that its code can be kept)."""
    parser = Parser(env, text, state="variable")
    try:
        expr = parser.parse_expression()
        if not parser.stream.eos:
            raise jinja2.TemplateSyntaxError(
                "chunk after expression", parser.stream.current.lineno, None, None
            )
        expr.set_environment(env)
    except jinja2.TemplateSyntaxError:
        env.handle_exception(source=text)
    return nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)], lineno=1)


def render_document(text: str, names: dict, display: str) -> str:
    """Render a whole document (a rulebook) as one template; errors name the document's own line."""
    env = make_environment()
    env.trim_blocks = False  # keep one output line per source line where possible
    try:
        template = env.from_string(text)
    except jinja2.TemplateSyntaxError as exc:
        raise ContentError.at(
            Location(display, exc.lineno or 1, 1),
            f"template error: {exc.message}",
            printable.syntax_hint(exc.message or "", make_environment().filters),
        ) from None
    except TOO_DEEP:
        raise ContentError.at(Location(display, 1, 1), f"template error: {NESTED}") from None
    token = budget_var.set(Budget())
    try:
        with time_limit(MAX_SECONDS):
            return check_size(template.render(names))
    except (TooMuchWork, RecursionError, MemoryError) as exc:
        raise ContentError.at(
            Location(display, _template_line(exc), 1), f"template error: {too_much(exc)}"
        ) from None
    except Exception as exc:  # user template failures become located messages
        if isinstance(exc, jinja2.UndefinedError):
            message = exc.message or "undefined value"
        else:
            message = _explain(exc)
            if isinstance(exc, (ValueError, TypeError)) and not message.startswith("not allowed"):
                message = str(exc)
        raise ContentError.at(
            Location(display, _template_line(exc), 1), f"template error: {plain_words(message)}"
        ) from None
    finally:
        budget_var.reset(token)


def _template_line(exc: BaseException) -> int:
    tb, line = exc.__traceback__, 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line or 1


# What compiling a template nested thousands deep raises: Jinja's parser and code generator recurse
# (RecursionError), Python's compiler refuses the code they make (SyntaxError: too many nested blocks or
# parentheses; MemoryError), marshal refuses to keep it (ValueError). Never Jinja's own syntax errors, caught first.
TOO_DEEP = (RecursionError, MemoryError, SyntaxError, ValueError)
NESTED = "it is nested too deeply to compile (brackets, blocks or filters inside each other hundreds deep)"


def compile_value(kind: str, text: str, loc: Location) -> tuple[Any, Any]:
    """`_compiled`, a syntax error a located ContentError."""
    try:
        return _compiled(kind, text)
    except jinja2.TemplateSyntaxError as exc:
        where = loc.shifted((exc.lineno or 1) - 1) if kind == "template" else loc
        raise ContentError.at(
            where,
            f"template error: {exc.message}",
            printable.syntax_hint(exc.message or "", make_environment().filters),
        ) from None
    except TOO_DEEP:
        raise ContentError.at(loc, f"template error: {NESTED}") from None


def evaluate(value, ctx: dict, read: Any = None) -> Any:
    """A compiled value (`templating.Value`) evaluated by Jinja, within its budget and time; or, given `read`, a
    sequence it gave read whole (`range(card.cost)` is made only then): its failures are the value's own."""
    budget = value.budget or budget_var.get() or Budget()
    budget.left = MAX_STEPS  # each value has its own; the build's total goes on
    token = budget_var.set(budget)
    try:
        with time_limit(MAX_SECONDS):  # armed once per face, rulebook or fact; nested uses cost nothing
            if read is not None:
                return list(read)
            if value.expr is not None:
                result = value.expr(**ctx)
                if isinstance(result, jinja2.Undefined):
                    result._fail_with_undefined_error()  # raises the UndefinedError that names the value
                found = printable.unprintable(result, _UNDEFINED, lazy=True)  # a sequence: read as it is used
                if found:
                    raise TemplateProblem(value.loc, f"gives {found}")
                return check_size(result)
            return check_size(value.template.render(ctx))
    except TemplateProblem:
        raise
    except (TooMuchWork, RecursionError, MemoryError) as exc:
        raise TemplateProblem(value.loc, too_much(exc)) from None
    except OverflowError as exc:  # inf|int, a whole number too large for a float
        raise TemplateProblem(value.loc, f"a number is infinite or too large ({exc})") from None
    except Exception as exc:  # any failure inside user templates becomes a located message
        raise TemplateProblem(value.loc, _explain(exc)) from None
    finally:
        budget_var.reset(token)
