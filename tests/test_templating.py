"""Templates see content's items, never the methods of the dicts holding them."""

from __future__ import annotations

import os

import pytest

from pnpgen.errors import Location
from pnpgen.templating import Compiler, Fields, TemplateProblem, content

METHODS = ("values", "items", "keys", "get", "copy")


def evaluate(source: str, **names):
    return Compiler().value(source, Location("l.yaml", 3, 9))(names)


@pytest.mark.parametrize("name", METHODS)
def test_a_card_field_named_like_a_dict_method_is_the_field(name):
    card = content({name: f"my {name}", "name": "Nova"})
    assert evaluate(f"{{{{ card.{name} }}}}", card=card) == f"my {name}"
    assert evaluate(f"{{{{ card['{name}'] }}}}", card=card) == f"my {name}"
    assert (
        evaluate(f"{{{{ card.{name} | upper }}}} of {{{{ card.name }}}}", card=card)
        == f"MY {name.upper()} of Nova"
    )


@pytest.mark.parametrize("name", METHODS)
def test_a_missing_field_is_undefined_never_a_bound_method(name):
    card = content({"name": "Nova"})
    for source in (f"{{{{ card.{name} }}}}", f"{{{{ card['{name}'] }}}}", f"{{{{ card.{name}() }}}}"):
        with pytest.raises(TemplateProblem) as exc:
            evaluate(source, card=card)
        assert exc.value.message.startswith(f"undefined value: the mapping has no '{name}'; ")
        assert exc.value.message.endswith(("(accepted: name)", "expected one of: name"))  # its one field
        assert str(exc.value.location) == "l.yaml:3:9"


def test_nested_content_and_lists_of_it_show_items_only():
    card = content({"stats": {"keys": 3}, "bonuses": [{"items": "two"}], "pair": ({"get": 1},)})
    assert isinstance(card, Fields) and isinstance(card["bonuses"][0], Fields)
    assert isinstance(card["pair"], tuple) and isinstance(card["pair"][0], Fields)
    assert evaluate("{{ card.stats.keys + card.pair[0].get }}", card=card) == 4
    assert evaluate("{{ card.bonuses[0].items }}", card=card) == "two"
    with pytest.raises(TemplateProblem, match="the mapping has no 'values'"):
        evaluate("{{ card.stats.values() }}", card=card)


@pytest.mark.parametrize(
    ("source", "told"),
    [
        ("{{ card.nmae }}", "the mapping has no 'nmae'; did you mean 'name'? (accepted: colour, cost, name)"),
        (
            "{{ card['nmae'] }}",
            "the mapping has no 'nmae'; did you mean 'name'? (accepted: colour, cost, name)",
        ),
        (
            "{{ palette[card.colour] }}",
            "the mapping has no 'flam'; did you mean 'flame'? (accepted: flame, sea)",
        ),
        ("{{ palette.flam }}", "the mapping has no 'flam'; did you mean 'flame'? (accepted: flame, sea)"),
        ("{{ card.zzz }}", "the mapping has no 'zzz'; expected one of: colour, cost, name"),
        *(  # given to a filter that prints it, to a text's method, or in a list: the same words
            (source, "the mapping has no 'nmae'; did you mean 'name'? (accepted: colour, cost, name)")
            for source in (
                "{{ card.nmae | upper }}",
                "x {{ '{} x'.format(card.nmae) }}",
                "{{ [1, card.nmae] }}",
            )
        ),
        (
            "{{ range(card.cots) | list }}",
            "the mapping has no 'cots'; did you mean 'cost'? (accepted: colour, cost, name)",
        ),
        (
            "{{ ['a', 'b'][card.cots] }}",
            "the mapping has no 'cots'; did you mean 'cost'? (accepted: colour, cost, name)",
        ),
        ("{{ deck.defaults.x }}", "the mapping has no 'x'; it is empty"),
    ],
)
def test_a_missing_field_names_the_nearest_one_the_mapping_has(source, told):
    """Every look-up a mapping of content misses (attribute or item, card, palette, nested) says what it has."""
    names = {
        "card": content({"name": "Nova", "cost": 2, "colour": "flam"}),
        "palette": content({"flame": "#e0902a", "sea": "#7fb3d5"}),
        "deck": content({"defaults": {}}),
    }
    with pytest.raises(TemplateProblem) as exc:
        evaluate(source, **names)
    assert exc.value.message == f"undefined value: {told}"


def test_a_missing_field_tested_with_is_defined_makes_no_message():
    assert evaluate("{{ card.nmae is defined }}", card=content({"name": "Nova"})) is False


def test_mappings_a_template_makes_keep_their_methods_but_items_win():
    assert evaluate("{{ {'a': 1}.get(card.k, 0) }}", card=content({"k": "a"})) == 1
    assert evaluate("{{ {'a': 1}.get('b', 0) }}") == 0
    assert evaluate("{{ {'get': 5}.get }}") == 5
    assert evaluate("{{ {'a': 1, 'b': 2} | dictsort | map('last') | sum }}") == 3


def test_content_is_still_a_dict_to_filters_tests_and_python():
    card = content({"name": "Nova", "tags": ["a", "b"]})
    assert card == {"name": "Nova", "tags": ["a", "b"]} and repr(card) == repr(dict(card))
    assert evaluate("{{ 'name' in card and card is mapping and card | length == 2 }}", card=card) is True
    assert evaluate("{{ card.tags | join(',') }}", card=card) == "a,b"


def test_the_sandbox_still_refuses_python_internals():
    card = content({"name": "Nova"})
    with pytest.raises(TemplateProblem):
        evaluate("{{ card.__class__.__mro__ }}", card=card)
    with pytest.raises(TemplateProblem, match="not allowed"):
        evaluate("{{ card.name.__class__.__mro__ }}", card=card)


@pytest.mark.parametrize(
    "source, message",
    [
        ('{{ "x" * 10**9 }}', "builds a text or list of more than 1,000,000 items"),
        ("{{ [1] * 2000000 }}", "builds a text or list of more than 1,000,000 items"),
        ('{{ "%099999999d" % 1 }}', "builds a text or list of more than 1,000,000 items"),
        ('{{ "{:>999999999}".format(1) }}', "builds a text or list of more than 1,000,000 items"),
        ('{{ "x"|center(999999999) }}', "builds a text or list of more than 1,000,000 items"),
        ("{{ 9 ** (9 ** 9) }}", "computes a number too large to print"),
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "does too much work (more than 100,000 steps for one value)",
        ),
        (
            "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}",
            "nests calls too deeply (a macro calling itself?)",
        ),
    ],
)
def test_template_work_is_bounded_and_located(source, message):
    from pnpgen.errors import Location
    from pnpgen.templating import Compiler, TemplateProblem

    value = Compiler().value(source, Location("l.yaml", 3, 9))
    with pytest.raises(TemplateProblem) as exc:
        value({"card": {"name": "ash"}})
    assert str(exc.value) == f"l.yaml:3:9: this template {message}"


def test_the_build_budget_adds_up_across_values(monkeypatch):
    import pnpgen.budget as budget
    import pnpgen.templating as templating
    from pnpgen.errors import Location

    monkeypatch.setattr(budget, "MAX_BUILD_STEPS", 50)
    compiler = templating.Compiler()
    value = compiler.value("{% for i in range(20) %}{{ i }}{% endfor %}", Location("l.yaml", 1, 1))
    value({})
    value({})
    with pytest.raises(templating.TemplateProblem, match="more than 50 steps in one build"):
        value({})


def test_a_template_is_compiled_once_per_process_and_budgets_stay_per_compiler():
    from pnpgen.errors import Location
    from pnpgen.templating import Compiler

    loc = Location("x.yaml", 1, 1)
    a, b = Compiler(), Compiler()  # two games, or two rebuilds in `serve`
    va, vb = a.value("{{ card.name | upper }}!", loc), b.value("{{ card.name | upper }}!", loc)
    assert va.template is vb.template  # compiled by the first, reused by the second
    assert va.budget is a.budget and vb.budget is b.budget and a.budget is not b.budget
    assert vb({"card": {"name": "ox"}}) == "OX!"


def test_a_plain_field_look_up_gives_what_the_sandbox_gives(monkeypatch):
    import pnpgen.budget as budget

    card = content({"name": "Nova", "cost": 3, "tags": ["a"], "stats": {"keys": 1}})
    loc = Location("l.yaml", 3, 9)
    for field in ("name", "cost", "tags", "stats"):
        value = Compiler().value(f"{{{{ card.{field} }}}}", loc)
        assert value.lookup == ("card", field)  # answered without Jinja
        got, jinja = value({"card": card}), value.expr(card=card)
        assert got == jinja and type(got) is type(jinja)
    with pytest.raises(TemplateProblem, match="more than 1,000,000 items"):
        evaluate("{{ card.text }}", card=content({"text": "x" * 1_000_001}))
    monkeypatch.setattr(budget, "MAX_BUILD_STEPS", 3)  # each look-up is a step of the build's budget
    value = Compiler().value("{{ card.name }}", loc)
    for _ in range(3):
        value({"card": card})
    with pytest.raises(TemplateProblem, match="more than 3 steps in one build"):
        value({"card": card})


def test_a_bare_name_gives_what_the_sandbox_gives():
    """`{{ accent }}` (a layout variable, a loop's item) is answered without Jinja: the same object, the same
    refusal of a huge text, and a name that is not there is still Jinja's to report."""
    loc = Location("l.yaml", 3, 9)
    ctx = {
        "accent": "#aa3300",
        "n": 7,
        "pts": [[1, 2], [3, 4]],
        "card": content({"name": "Nova"}),
        "none": None,
        "nothing": None,
        "huge": "x" * 1_000_001,
    }
    for name in ("accent", "n", "pts", "card", "nothing"):
        value = Compiler().value(f"{{{{ {name} }}}}", loc)
        assert value.lookup == (name, None)
        got, jinja = value(ctx), value.expr(**ctx)
        assert got is jinja
    assert Compiler().value("{{ none }}", loc).lookup is None  # Jinja's constant, not the context's
    with pytest.raises(TemplateProblem, match="more than 1,000,000 items"):
        Compiler().value("{{ huge }}", loc)(ctx)
    with pytest.raises(TemplateProblem, match="undefined value: 'missing' is undefined"):
        Compiler().value("{{ missing }}", loc)(ctx)
    assert Compiler().value("{{ accent + 'ff' }}", loc).lookup is None  # anything more is Jinja's


def _burn(seconds: float) -> None:
    """Work for `seconds` of wall time, as the backstop counts it (CPU time would stretch on a loaded machine and
    cross a limit the test means it to stay under)."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.mark.slow  # waits out a time limit
def test_a_deck_arms_one_time_limit_that_stops_only_the_face_over_it():
    """`time_limit_each`, armed once for a deck: faces that together use more than the limit all finish; each
    face that alone uses it is stopped, the second as the first (the timer is set again after a stop), and the
    limit is gone afterwards."""
    from pnpgen import budget
    from pnpgen.budget import TooMuchWork, time_limit, time_limit_each

    done, stopped = [], []
    with time_limit_each(0.2) as next_face:
        for n, cost in enumerate([0.08, 0.08, 0.08, 0.5, 0.5, 0.08]):
            next_face()
            try:
                with time_limit(0.2):  # nested, as draw_face's own: costs nothing, changes nothing
                    _burn(cost)
                done.append(n)
            except TooMuchWork as exc:
                stopped.append(n)
                assert "more than 0.2 s of computing" in str(exc)
    assert done == [0, 1, 2, 5] and stopped == [3, 4]
    assert not [g for g in budget._watchdog().guards if g.up] and budget._limited.get() is False
    _burn(0.3)  # nothing lands once the limit is down


def test_the_time_limit_stops_a_template_in_any_thread_without_signals(monkeypatch):
    """The backstop needs no signal or timer (Windows has neither): it works with both taken out of Python,
    and in a thread that is not the main one (serve builds in its own)."""
    import signal
    import threading

    from pnpgen.budget import TooMuchWork, time_limit

    monkeypatch.delattr(signal, "setitimer", raising=False)
    monkeypatch.delattr(signal, "SIGALRM", raising=False)
    monkeypatch.delattr(signal, "SIGPROF", raising=False)
    seen: list = []

    def evaluate() -> None:
        try:
            with time_limit(0.1):
                _burn(2)
            seen.append("finished")
        except TooMuchWork as exc:
            seen.append(str(exc))

    thread = threading.Thread(target=evaluate)
    thread.start()
    thread.join(10)
    evaluate()
    assert seen == ["this template does too much work (more than 0.1 s of computing)"] * 2


@pytest.mark.parametrize("each", [True, False])
def test_a_strike_as_the_limit_is_taken_down_never_lands_after_it(monkeypatch, each):
    """The watchdog may strike just as a limit is taken down: the strike is then the evaluation's (raised at
    once) or taken back, never raised later in code that is not limited, and the limit is fully undone."""
    from pnpgen import budget

    real = budget.Watchdog.remove

    def remove(self, guard):
        if guard.claim():  # as the watchdog does, while the guard ends
            budget._raise_in(guard.ident, budget._strike_for(guard.seconds))
            guard.raised = True
        real(self, guard)

    monkeypatch.setattr(budget.Watchdog, "remove", remove)
    try:
        with budget.time_limit_each(5) if each else budget.time_limit(5) as mark:
            if each:
                mark()
            _burn(0.01)
    except budget.TooMuchWork:
        pass  # raised as the limit ended: the evaluation's own
    monkeypatch.setattr(budget.Watchdog, "remove", real)
    _burn(0.05)  # nothing lands here
    assert budget._limited.get() is False and not [g for g in budget._watchdog().guards if g.up]


def test_a_thread_a_strike_may_land_in_never_takes_the_watchdogs_lock(monkeypatch):
    """A strike lands at whatever instruction its thread runs next: just after a lock's acquire, it leaves the lock
    held, and the watchdog (and every other thread's limit) waits on it for ever (seen: a thread stuck in
    `Watchdog.add`, the watchdog in `wait`, after a strike as a limit ended). So the evaluating thread takes the
    watchdog's lock only to add its guard, before any strike can be on its way; a struck limit is re-armed and
    taken down without it, and the watchdog still stops the next thread that runs over."""
    import threading

    from pnpgen import budget
    from pnpgen.budget import TooMuchWork, time_limit, time_limit_each

    dog = budget.Watchdog()
    monkeypatch.setitem(budget._watchdogs, os.getpid(), dog)
    entered: list = []

    class Recording(type(dog.cond)):  # type: ignore[misc]
        def __enter__(self):
            entered.append(threading.current_thread() is not dog.thread)
            return super().__enter__()

    dog.cond = Recording()
    stopped = []
    with time_limit_each(0.05) as next_face:
        for cost in (0.3, 0.01, 0.3):
            next_face()
            try:
                _burn(cost)
            except TooMuchWork:
                stopped.append(cost)
    assert stopped == [0.3, 0.3]
    assert entered.count(True) == 1  # `add` alone; the watchdog's own entries are its business

    seen: list = []

    def other() -> None:
        try:
            with time_limit(0.05):
                _burn(2)
        except TooMuchWork:
            seen.append("stopped")

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(10)
    assert seen == ["stopped"]


# -- no template draws at random ---------------------------------------------------------------------------
# Jinja's `random` filter draws from the process's random state: the same content would print other bytes each
# build (and a deck drawn in halves other bytes than one drawn in order). It is not in the sandbox; every place a
# template lives says why, at its line, with a way to choose by the card instead.
RANDOM_PLACES = {
    "layout": (
        "content/sample/layouts/hero.yaml",
        'text: "{{ card.name }}"',
        'text: "{{ [card.name, 1] | random }}"',
    ),
    "fact": ("content/sample/facts.yaml", 'need: "4 * players + 2"', 'need: "[8, 10] | random"'),
    "rulebook": ("content/sample/rulebook.md", None, "# Rules\n\nDeal {{ [3, 4] | random }} cards.\n"),
}


@pytest.mark.parametrize("place", list(RANDOM_PLACES))
def test_a_template_drawing_at_random_is_a_located_error(tmp_path, place):
    import shutil

    from conftest import FIXTURES, run_cli

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    name, old, new = RANDOM_PLACES[place]
    path = root / name
    if old is None:
        path.write_text(new)
    else:
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))
    result = run_cli("check", cwd=root) if place == "fact" else run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert f"{name}:" in result.output and "No filter named 'random'" in result.output, result.output
    assert "no filter draws at random" in result.output and "card.index" in result.output
    assert "Traceback" not in result.output


def test_a_filter_misspelt_is_told_the_closest():
    from pnpgen.errors import ContentError, Location
    from pnpgen.templating.jinja import compile_value

    with pytest.raises(ContentError) as caught:
        compile_value("template", "{{ card.name | uper }}", Location("l.yaml", 3, 9))
    (item,) = caught.value.diagnostics.items
    assert "No filter named 'uper'" in item.message and "'upper'" in item.hint


@pytest.mark.parametrize(
    "source",
    [
        "{{ card.cost + 1 }}",  # can only concatenate str
        "{{ card.cost - 1 }}",  # unsupported operand type(s)
        "{{ card.cost * 1.5 }}",  # can't multiply a text by a float
        "{{ card.cost < 3 }}",  # not supported between instances
        "{{ card.cost | round }}",  # must be real number
        "{{ range(card.cost) | list }}",  # cannot be interpreted as an integer
        "{{ 3 > card.cost }}",
    ],
)
def test_a_text_where_a_number_is_needed_says_where_numbers_come_from(source):
    """A sheet's cell that does not read as a number (`1,5` in a comma CSV, `3 €`) is text: every way Python
    refuses a text in arithmetic, a comparison or a count says so, and how a cell reads as a number."""
    from pnpgen.templating.told import TEXT_FOR_NUMBER

    with pytest.raises(TemplateProblem) as exc:
        evaluate(source, card=content({"cost": "1,5"}))
    assert str(exc.value).startswith("l.yaml:3:9: TypeError: ") and str(exc.value).endswith(TEXT_FOR_NUMBER)
    with pytest.raises(TemplateProblem) as exc:  # a number where a text is needed is another matter
        evaluate("{{ card.cost | join }}", card=content({"cost": 2}))
    assert TEXT_FOR_NUMBER not in str(exc.value)
