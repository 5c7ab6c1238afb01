"""Every value a template prints is the same text in every process (`templating/printable.py`).

Python prints a function, a generator or an object of its own as its memory address, and Jinja's filters give
generators: a template printing one would write other bytes on every build (a helper's attack found it in a
layout's text and in the rulebook). Such a value is refused wherever it would become text, at the template's
line, with what to write instead; what a designer means (a sequence joined or made a list, a function called, a
`for_each` over a range) still builds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from conftest import ROOT, fast_once, run_cli

# Values a layout's text may print whose str() is Python's default repr: an address that differs per process.
ADDRESSED = {
    "a-mapped-generator": "{{ card.name | map('upper') }}",
    "a-selected-generator": "{{ [card.name] | select }}",
    "a-cycler": "{{ cycler(card.name) }}",
    "a-joiner": "{{ joiner() }}",
    "the-range-function": "{{ range }}",
    "a-math-function": "{{ floor }}",
    "a-reversed-list": "{{ [card.name, 'b'] | reverse }}",
    "a-batched-list": "{{ [card.name, 'b'] | batch(1) }}",
    "a-method": "{{ card.name.upper }}",
    "joined-with-tilde": "{{ card.name ~ floor }}",
    "percent-formatted": "{{ '%s' % floor }}",
    "str-formatted": "{{ '{}'.format(floor) }}",
    "joined-by-a-filter": "{{ [floor] | join }}",
    "a-filter-making-text": "{{ range(2) | string }}",
}
ADDRESS = re.compile(r"0x[0-9a-f]{6,}")


def _game(root: Path, text: str, rulebook: str = "") -> Path:
    """A game of one two-card deck whose front prints `text` (a template); a rulebook when given."""
    game = root / "content" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\ntitle: Probe\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "layouts" / "front.yaml").write_text(
        "elements:\n  - type: text\n    x: 6\n    y: 6\n    w: 51.5\n    h: 60\n"
        f"    text: {json.dumps(text)}\n    size: 9\n"
    )
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: front\ncards:\n"
        "  - name: Ash\n    tags: [a, b]\n  - name: Oak\n    tags: [c]\n"
    )
    if rulebook:
        (game / "rulebook.md").write_text(f"# Probe\n\n## Play\n\n{rulebook}\n")
    return root


@pytest.mark.parametrize("case", fast_once(list(ADDRESSED)))
def test_a_template_printing_an_address_is_a_located_error(tmp_path, case):
    """Refused at the layout's line, saying what the value is; the same message in every process."""
    root = _game(tmp_path, ADDRESSED[case])
    result = run_cli("build", "--content", root / "content", "--out", root / "out")
    assert result.exit_code == 1, result.output
    assert "layouts/front.yaml:" in result.output, result.output
    assert re.search(
        r"(prints|gives|is given) (the function|a sequence not yet made|a \w+ object)", result.output
    )
    assert not ADDRESS.search(result.output), result.output  # the message holds no address either
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "case", fast_once(["the-range-function", "a-cycler", "a-math-function", "a-mapped-generator"])
)
def test_a_rulebook_printing_an_address_is_a_located_error(tmp_path, case):
    """The rulebook's text is rendered by the same sandbox (`render_document`): the same refusal."""
    root = _game(tmp_path, "{{ card.name }}", rulebook=ADDRESSED[case].replace("card.name", "'x'"))
    result = run_cli("build", "--content", root / "content", "--out", root / "out")
    assert result.exit_code == 1 and "rulebook.md:" in result.output, result.output
    assert not ADDRESS.search(result.output), result.output


MEANT = {  # what a designer writes instead, and what the face says
    "joined": ("{{ card.name | map('upper') | join }}", "ASH"),
    "a-list": ("x{{ [card.name] | select | list }}", "x['Ash']"),
    "called": ("{{ floor(2.5) }} of {{ card.name }}", "2 of Ash"),
    "formatted": ("{{ '{}!'.format(card.name) }}", "Ash!"),
    "a-text-joined": ("{{ '-'.join([card.name, 'b']) }}", "Ash-b"),
    "a-range-joined": ("{{ range(3) | join(',') }}", "0,1,2"),
    "percent": ("{{ '%s.' % card.name }}", "Ash."),
}


@pytest.mark.parametrize("case", fast_once(list(MEANT)))
def test_what_a_designer_means_still_prints(tmp_path, case):
    text, shown = MEANT[case]
    root = _game(tmp_path, text)
    result = run_cli("build", "--content", root / "content", "--out", root / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out" / "g" / "deck.pdf") as pdf:
        printed = "".join(page.extract_text() or "" for page in pdf.pages)
    assert shown in printed, printed


def test_a_for_each_still_reads_a_range_and_a_filter_s_sequence(tmp_path):
    root = _game(tmp_path, "{{ card.name }}")
    layout = root / "content" / "g" / "layouts" / "front.yaml"
    more = (
        '  - type: text\n    x: {x}\n    y: "{{{{ 60 + 6 * loop.index0 }}}}"\n    w: 20\n    h: 5\n    size: 8\n'
        '    for_each: "{each}"\n    text: "{mark}{{{{ item }}}}"\n'
    )
    layout.write_text(
        layout.read_text()
        + more.format(x=6, each="{{ range(2) }}", mark="r")
        + more.format(x=30, each="{{ [1, 2, 3] | select('odd') }}", mark="s")
    )
    result = run_cli("build", "--content", root / "content", "--out", root / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out" / "g" / "deck.pdf") as pdf:
        printed = "".join(page.extract_text() or "" for page in pdf.pages)
    assert all(word in printed for word in ("r0", "r1", "s1", "s3")), printed


@pytest.mark.slow
def test_two_processes_say_and_write_the_same(tmp_path):
    """The same content in two processes (other hash seeds): the same exit code, messages and files."""
    root = _game(tmp_path, ADDRESSED["a-mapped-generator"] + " " + ADDRESSED["a-math-function"])
    said = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        done = subprocess.run(
            [sys.executable, "-m", "pnpgen", "build", "--content", "content", "--out", "out"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        said.append((done.returncode, done.stdout, done.stderr))
    assert said[0] == said[1] and said[0][0] == 1, said


def _nested(value, levels: int):
    for _ in range(levels):
        value = [value]
    return value


SHARED_SHAPES = {
    "held-1000-times-at-each-level": lambda big: [[big] * 1000] * 1000,
    "held-at-64-depths": lambda big: [_nested(big, depth) for depth in range(63, -1, -1)],
    "held-under-long-chains": lambda big: [_nested(big, 500), _nested(big, 3), big],
}


@pytest.mark.parametrize("shape", list(SHARED_SHAPES))
def test_a_list_held_many_times_is_looked_into_once(monkeypatch, shape):
    """`[[[0] * 1000] * 1000] * 1000]` is three lists, not a billion values: each is walked once, wherever it is
    held and however deep (it was walked again at each depth it stood less deep: 64 walks of a long list)."""
    from pnpgen.templating import printable

    entered = []
    real = printable._inside

    def counting(value):
        entered.append(id(value))
        return real(value)

    monkeypatch.setattr(printable, "_inside", counting)
    big = [0] * 1000
    value = SHARED_SHAPES[shape](big)
    assert printable.printed(value) is value
    assert entered.count(id(big)) == 1 and len(entered) == len(set(entered))
    # what is found is still found wherever it stands, after a part already found printable
    assert "function" in printable.unprintable([[[0] * 3] * 3, [[0] * 3, [floor_of := round]]])
    assert floor_of is round


@pytest.mark.parametrize(
    "template, expect",
    [
        ("{{ [[1, 2], [3]] | sum(start=[]) }}", "[1, 2, 3]"),
        ("{{ [(1,), (2, 3)] | sum(start=()) | list }}", "[1, 2, 3]"),
        ("{{ [{'n': 2}, {'n': 5}] | sum(attribute='n') }}", "7"),
        ("{{ [1.5, 2] | sum }}", "3.5"),
        ("{{ [[1]] | sum(start=[0]) }}", "[0, 1]"),
        ("{{ [[1], (2,)] | sum(start=[]) }}", "[1, 2]"),
        ("{{ [card.tags, card.tags] | sum(start=[]) | join(',') }}", "a,b,a,b"),  # a card's own lists
    ],
)
def test_sum_adds_numbers_and_joins_lists_as_jinja_does(template, expect):
    from pnpgen.recorded import ListView
    from pnpgen.templating.jinja import make_environment

    tags = ListView(("a", "b"), "card/tags", lambda *a: None)  # a card's list, as a template reads it
    assert make_environment().from_string(template).render(card={"tags": tags}) == expect


def test_sum_refuses_a_list_too_long_before_it_is_built():
    """The part that would pass the limit is refused before it is added, never the parts after it looked at."""
    from pnpgen.budget import MAX_ITEMS, TooMuchWork
    from pnpgen.templating.jinja import make_environment

    def parts():
        yield [0] * MAX_ITEMS
        yield [0]
        raise AssertionError("read past the part that passes the limit")

    with pytest.raises(TooMuchWork, match="more than 1,000,000 items"):
        make_environment().from_string("{{ parts | sum(start=[]) | length }}").render(parts=parts())


SHARED_FIRST = {  # a value whose first appearance does not look into all of it, then one that would find it
    "deeper-first": "{% set L = [floor] %}{{ [" + "[" * 63 + "L" + "]" * 63 + ", L] }}",
    "items-views": "{{ [{'a': 1}.items(), {'b': floor}.items()] }}",
    "keys-then-values": "{% set d = {'a': floor} %}{{ [d.keys(), d.values()] }}",
}


@pytest.mark.parametrize("case", list(SHARED_FIRST))
def test_a_value_already_looked_into_elsewhere_is_still_refused(case):
    """Looking into a list once must not let through what a second look would find: one first met too deep to be
    looked into whole, or a list made only for the walk (a mapping's items) whose id a later one takes over."""
    from pnpgen.templating.jinja import make_environment

    with pytest.raises(Exception, match="the function 'floor' itself"):
        out = make_environment().from_string(SHARED_FIRST[case]).render()
        assert not ADDRESS.search(out), out
