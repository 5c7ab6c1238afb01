"""A template mistake is told in the designer's words: where it is (the layout's line and the card, or the
rulebook's line) and never by one of pnpgen's internal classes (`'pnpgen.recorded.View object'`)."""

from __future__ import annotations

import re

import pytest
from conftest import run_cli

INTERNAL = re.compile(r"pnpgen\.|\b(View|ListView|Fields|Items|FrozenItems|LMap|LList)\b")

# a template mistake of each kind: unknown attribute, wrong type, filter error, undefined, call, index
MISTAKES = {
    "unknown-attribute": "components.heroes.cardz",
    "unknown-component": "components.nosuch.faces",
    "unknown-card-field": "components.heroes.cards[0].nosuch",
    "wrong-type": "components.heroes + 1",
    "filter-error": "components.heroes | round",
    "list-filter-error": "components.heroes.cards | round",
    "undefined": "nosuch_name",
    "not-callable": "components.heroes()",
    "index": "components.heroes.cards[99]",
    "attribute-of-number": "components.heroes.faces.x",
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_rulebook_template_mistake_is_told_in_plain_words(project, name):
    root = project("basic")
    book = "# Sample\n\nSome words.\n\nThere are {{ " + MISTAKES[name] + " }} cards.\n"
    (root / "content" / "sample" / "rulebook.md").write_text(book)
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/rulebook.md:5:1: error: template error: " in result.output
    assert not INTERNAL.search(result.output), result.output


CARD_MISTAKES = {
    "unknown-attribute": "card.name.nosuch",
    "wrong-type": "card + 1",
    "filter-error": "card | round",
    "undefined": "nosuch_name",
    "not-callable": "card()",
    "list-filter": "(card | list) | round",
}


@pytest.mark.parametrize("name", sorted(CARD_MISTAKES))
def test_a_layout_template_mistake_names_the_element_and_the_card(project, name):
    root = project("basic")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    text = layout.read_text()
    assert 'text: "{{ card.name }}"' in text
    layout.write_text(text.replace('text: "{{ card.name }}"', 'text: "{{ ' + CARD_MISTAKES[name] + ' }}"'))
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/layouts/hero.yaml:19:" in result.output
    assert "card 1 'Ash Walker' of deck 'heroes' (content/sample/decks/heroes.yaml:" in result.output
    assert not INTERNAL.search(result.output), result.output


FACT_MISTAKES = {
    "function-not-called": "count",
    "a-list": "range(3)",
    "a-mapping": "{'a': 1}",
    "filter-error": "count('heroes') | round(nosuch)",
    "undefined": "nosuch_name",
    "attribute": "count('heroes').x",
    "text": "count('heroes') ~ 'x'",
}


@pytest.mark.parametrize("name", sorted(FACT_MISTAKES))
def test_a_facts_expression_mistake_is_told_in_plain_words(project, name):
    root = project("basic")
    facts = root / "content" / "sample" / "facts.yaml"
    text = facts.read_text()
    assert "have: \"count('heroes')\"" in text
    facts.write_text(text.replace("have: \"count('heroes')\"", f'have: "{FACT_MISTAKES[name]}"'))
    result = run_cli("check", "--content", "content", cwd=root)
    assert result.exit_code == 1
    assert "error heroes: fact 'hands': " in result.output and "[content/sample/facts.yaml:" in result.output
    assert not INTERNAL.search(result.output) and " at 0x" not in result.output, result.output
    assert "Undefined" not in result.output
