"""Every route by which a template's value could become text, tried (a helper's fourth attack): format fields
that look a value up, a set made by an operator and read in every way, messages that would show an address (a
layout, the rulebook, a fact), what a designer means with a mapping's values, a field missing inside a list, and
the routes that held from the start (statements, loops, macros, namespaces, filters). Each is refused at its line
with no address in the message, or prints the same in every process. Also a rulebook whose headings start at
`###` (ReportLab refused the outline's jump).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from conftest import FIXTURES, ROOT, fast_once, run_cli
from test_printable import ADDRESS, _game  # a two-card deck printing one template


def _build(root: Path):
    return run_cli("build", "--content", root / "content", "--out", root / "out")


def _pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "".join(page.extract_text() or "" for page in pdf.pages)


# --- 1. a template prints data only ---------------------------------------------------------------------------

# A format field's attribute: Jinja's sandboxed formatter looks it up (a method: allowed) and prints it.
FORMAT_FIELDS = {
    "a-str-method": "{{ '{0.upper}'.format(card.name) }}",
    "a-dict-method": "{{ '{0.keys}'.format({'a': 1}) }}",
    "a-list-method": "{{ '{0.index}'.format(card.tags) }}",
    "named-field": "{{ '{x.title}'.format(x=card.name) }}",
}


@pytest.mark.parametrize("case", fast_once(list(FORMAT_FIELDS)))
def test_a_format_field_s_attribute_never_prints_an_address(tmp_path, case):
    """BREAK: `'{0.upper}'.format(card.name)` writes `<built-in method upper of str object at 0x...>` into the
    deck's PDF (exit 0). `wrap_str_format` checks the arguments, not what the format string's fields look up."""
    root = _game(tmp_path, FORMAT_FIELDS[case])
    result = _build(root)
    pdf = root / "out" / "g" / "deck.pdf"
    written = _pdf_text(pdf) if pdf.exists() else ""
    assert not ADDRESS.search(written), written
    assert result.exit_code == 1, result.output
    assert "layouts/front.yaml:" in result.output


# A set made inside a template (dict views support set operators: `d.keys() - []` is a set), then read by
# what makes no text of it: a filter that is not a text filter, a loop, `map`. Its order follows the hash seed.
SET = "({'alpha': 1, 'beta': 2, 'gamma': 3, 'delta': 4}.keys() - [])"
SET_ROUTES = {
    "printed": "x{{ " + SET + " }}",  # held: refused
    "made-a-list": "x{{ " + SET + " | list }}",
    "mapped-and-joined": "x{{ " + SET + " | map('upper') | join(',') }}",
    "looped": "x{% for k in " + SET + " %}{{ k }},{% endfor %}",
    "its-first": "x{{ " + SET + " | first }}",
    "items-set": "x{{ ({'alpha': 1, 'beta': 2}.items() - []) | list }}",
}


@pytest.mark.parametrize("case", fast_once(list(SET_ROUTES)))
def test_a_set_s_order_is_refused_on_every_route(tmp_path, case):
    """BREAK (all but `printed`): only a set printed whole is refused; `| list`, `| map | join`, `{% for %}`,
    `| first` print its members in the order of PYTHONHASHSEED (another PDF every build)."""
    result = _build(_game(tmp_path, SET_ROUTES[case]))
    assert result.exit_code == 1, result.output
    assert "layouts/front.yaml:" in result.output and "set" in result.output, result.output


def test_a_for_each_over_a_set_made_a_list_is_refused(tmp_path):
    """BREAK: `for_each` refuses a set, but not the same set `| list`: the repeated element's places follow it."""
    root = _game(tmp_path, "{{ card.name }}")
    layout = root / "content" / "g" / "layouts" / "front.yaml"
    layout.write_text(
        layout.read_text()
        + '  - type: text\n    x: 6\n    y: "{{ 60 + 6 * loop.index0 }}"\n    w: 40\n    h: 5\n    size: 7\n'
        + f'    for_each: "{{{{ {SET} | list }}}}"\n    text: "{{{{ item }}}}"\n'
    )
    result = _build(root)
    assert result.exit_code == 1, result.output


@pytest.mark.slow
def test_two_processes_write_the_same_deck_from_a_set(tmp_path):
    """BREAK, measured: the same content built under two hash seeds writes two different deck PDFs."""
    root = _game(tmp_path, SET_ROUTES["mapped-and-joined"])
    written = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        out = f"out{seed}"
        done = subprocess.run(
            [sys.executable, "-m", "pnpgen", "build", "--content", "content", "--out", out],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        pdf = root / out / "g" / "deck.pdf"
        written.append((done.returncode, pdf.read_bytes() if pdf.exists() else b""))
    assert written[0] == written[1]


# Messages: a refused or failing template's message quotes the value (repr): an address.
MESSAGES = {
    "a-math-function-given-a-function": "{{ floor(floor) }}",
    "a-math-function-given-a-generator": "{{ floor(card.tags | select) }}",
    "a-mapping-indexed-by-a-function": "{{ {'a': 1}[floor] }}",
    "the-card-indexed-by-a-function": "{{ card[floor] }}",
    "a-list-indexed-by-a-function": "{{ card.tags[floor] }}",
    "a-list-index-of-a-function": "{{ [1].index(floor) }}",
    "a-list-index-of-a-generator": "{{ [1].index(card.tags | select) }}",
}


@pytest.mark.parametrize("case", fast_once(list(MESSAGES)))
def test_a_message_holds_no_address(tmp_path, case):
    """BREAK: refused at the right line, but the message prints the value: `floor() takes numbers (got
    <function _finite.<locals>.computed at 0x7f...>)`, `dict object has no element <function ... at 0x...>`,
    `<function ... at 0x...> is not in list`. The message differs between processes (and names pnpgen's code)."""
    result = _build(_game(tmp_path, MESSAGES[case]))
    assert result.exit_code == 1, result.output
    assert "layouts/front.yaml:" in result.output, result.output
    assert not ADDRESS.search(result.output), result.output
    assert "_finite" not in result.output and "<locals>" not in result.output, result.output


@pytest.mark.parametrize(
    "case", fast_once(["a-math-function-given-a-function", "a-list-index-of-a-function"])
)
def test_a_rulebook_message_holds_no_address(tmp_path, case):
    """BREAK: the same in the rulebook (`render_document` keeps a ValueError's own text)."""
    root = _game(tmp_path, "{{ card.name }}", rulebook=MESSAGES[case].replace("card.tags", "[1]"))
    result = _build(root)
    assert result.exit_code == 1 and "rulebook.md:" in result.output, result.output
    assert not ADDRESS.search(result.output), result.output


FACT_NEEDS = {
    "a-mapping-indexed-by-a-function": '{"a": 1}[count]',
    "a-math-function-given-a-function": "floor(count)",
}


@pytest.mark.parametrize("case", fast_once(list(FACT_NEEDS)))
def test_a_fact_s_message_holds_no_address(tmp_path, case):
    """BREAK: facts.yaml's expressions go through the same sandbox: `need: "floor(count)"` is refused with
    `floor() takes numbers (got <bound method _Env.count of <value object at 0x7f...>>)`."""
    root = tmp_path / "basic"
    shutil.copytree(FIXTURES / "basic", root)
    facts = root / "content" / "sample" / "facts.yaml"
    facts.write_text(facts.read_text().replace('"4 * players + 2"', json.dumps(FACT_NEEDS[case]), 1))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "facts.yaml:" in result.output, result.output
    assert not ADDRESS.search(result.output), result.output


# What a designer writes: a mapping's values or keys joined. A dict view prints the same in every process.
MEANT = {
    "values-joined": ("{{ {'a': 1, 'b': 2}.values() | join(',') }}", "1,2"),
    "keys-joined": ("{{ {'a': 1, 'b': 2}.keys() | join('+') }}", "a+b"),
}


@pytest.mark.parametrize("case", fast_once(list(MEANT)))
def test_a_mapping_s_values_joined_still_print(tmp_path, case):
    """BREAK: refused as 'a dict_values object, whose text is its place in memory' (it is not: a dict view is
    data in insertion order); `sized` hands `join` a view without making it a list."""
    text, shown = MEANT[case]
    root = _game(tmp_path, text)
    result = _build(root)
    assert result.exit_code == 0, result.output
    assert shown in _pdf_text(root / "out" / "g" / "deck.pdf")


def test_an_undefined_field_inside_a_list_is_not_printed(tmp_path):
    """BREAK (older than the change, but `printable` lets it through on purpose): StrictUndefined raises when
    printed alone, not inside a list: `{{ [card.nope] }}` writes '[Undefined]' on the card, exit 0."""
    root = _game(tmp_path, "x{{ [card.nope] }}")
    result = _build(root)
    pdf = root / "out" / "g" / "deck.pdf"
    assert "Undefined" not in (_pdf_text(pdf) if pdf.exists() else "")
    assert result.exit_code == 1, result.output


# Routes tried that held: each refused at the layout's line, no address, no traceback.
HELD = {
    "set-statement": "{% set x = floor %}{{ x }}",
    "set-block": "{% set y %}{{ floor }}{% endset %}{{ y }}",
    "for-else": "{% for x in [] %}{% else %}{{ floor }}{% endfor %}",
    "filter-block": "{% filter upper %}{{ floor }}{% endfilter %}",
    "caller": "{% macro m() %}{{ caller }}{% endmacro %}{% call m() %}y{% endcall %}",
    "loop-cycle": "{% for x in [1] %}{{ loop.cycle }}{% endfor %}",
    "loop": "{% for x in [1] %}{{ loop }}{% endfor %}",
    "namespace": "{% set ns = namespace(a=1) %}{{ ns }}",
    "dict": "{{ dict(a=floor) }}",
    "pprint": "{{ floor | pprint }}",
    "map-attribute": "{{ [card] | map(attribute=floor) | list }}",
    "format-map": "{{ '{a}'.format_map({'a': floor}) }}",
    "percent-mapping": "{{ '%(a)s' % {'a': floor} }}",
    "percent-tuple": "{{ '%s %s' % (1, floor) }}",
    "str-replace": "{{ card.name.replace('A', floor) }}",
    "format-filter": "{{ '%s' | format(floor) }}",
    "joiner-class": "{{ joiner }}",
    "default": "{{ card.nope | default(floor) }}",
    "tojson": "{{ [floor] | tojson }}",
}


@pytest.mark.parametrize("case", fast_once(list(HELD)))
def test_routes_that_held(tmp_path, case):
    result = _build(_game(tmp_path, HELD[case]))
    assert result.exit_code == 1, result.output
    assert "layouts/front.yaml:" in result.output, result.output
    assert not ADDRESS.search(result.output) and "Traceback" not in result.output, result.output


# --- 2. a rulebook without sections ---------------------------------------------------------------------------

BOOKS = {
    "h3-only": "# Sample rules\n\nDeal four cards.\n\n### Setup\n\nShuffle.\n\n### End\n\nCount.\n",
    "h2-in-a-list": "# Sample rules\n\nDeal four cards.\n\n- ## Setup\n\n  Shuffle.\n- ## End\n\n  Count.\n",
    "h2-in-a-call-out": "# Sample rules\n\nDeal four cards.\n\n> ## Setup\n>\n> Shuffle.\n",
}


def _book_pages(tmp_path: Path, text: str):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    (root / "content" / "sample" / "rulebook.md").write_text(text)
    result = run_cli("build", "--out", "out", cwd=root)
    pdf = root / "out" / "sample" / "rulebook.pdf"
    if not pdf.exists():
        return result, []
    doc = pypdfium2.PdfDocument(pdf)
    try:
        return result, [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize("case", ["h3-only"])  # sections in a list or call-out: see the note
def test_a_book_of_unusual_headings_builds_without_blank_pages(tmp_path, case):
    """BREAK (older than the change; the class it closes): a book whose headings are all `###` fails ("can't jump
    from outline level -1 to level 1"); headings inside a list or a call-out leave pages holding only the
    running foot after the rules (h2-in-a-list: 2 such pages of 4)."""
    result, pages = _book_pages(tmp_path, BOOKS[case])
    assert result.exit_code == 0, result.output
    assert not any("Placeholder" in page for page in pages)
    for n, page in enumerate(pages[1:], start=2):
        words = [w for w in re.split(r"\s+", page) if w and w not in ("Sample", "Game", str(n))]
        assert words, f"page {n} of {len(pages)} is blank but for its foot"
