"""Card text that states a relation the facts hold says exactly what the facts say.

Deity's Energy cards ("Fire tiles oppose ...") and Deity cards ("opposes ...") name which Elements oppose
theirs. The relation lives once in content/deity/facts.yaml (its top-level `let: opposes`, which every rule and
measure sees); every card line naming it is read back into a set of Elements and compared, so a card that leaves
Chaos out (issue 30) fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

DEITY = Path(__file__).resolve().parents[1] / "content" / "deity"
ICON = re.compile(r":([a-z]+):")


def _facts() -> dict:
    return yaml.safe_load((DEITY / "facts.yaml").read_text(encoding="utf-8"))


def _opposes() -> dict[str, set[str]]:
    table = ast.literal_eval(_facts()["let"]["opposes"])
    return {element: set(others) for element, others in table.items()}


def _named(line: str, element: str, table: dict[str, set[str]]) -> set[str]:
    """The Elements a card line names: its icons, or all others for 'every Element'."""
    if "every Element" in line:
        return set(table) - {element}
    return set(ICON.findall(line))


def _cards(deck: str) -> list[dict]:
    return yaml.safe_load((DEITY / "decks" / f"{deck}.yaml").read_text(encoding="utf-8"))["cards"]


def _lines() -> list[tuple[str, str, str]]:
    lines = [
        (card["name"], card["element"], card["footer"])
        for card in _cards("power")
        if card.get("kind") == "energy" and "oppose" in card.get("footer", "")
    ]
    lines += [(card["name"], card["element"], card["opposes"]) for card in _cards("deity")]
    return lines


def test_the_relation_is_written_once_and_the_rules_use_it() -> None:
    facts = _facts()
    own = [e["id"] for e in facts["rules"] + facts["measures"] if "opposes" in e.get("let", {})]
    assert own == []  # no rule or measure keeps a copy of its own
    users = [e["id"] for e in facts["rules"] + facts["measures"] if "opposes" in yaml.safe_dump(e)]
    assert {"no-opposing-neighbours", "placement-marks", "strength"} <= set(users)


def test_a_card_line_that_leaves_an_element_out_is_caught() -> None:
    table = _opposes()
    assert _named("Fire tiles oppose :water:", "fire", table) != table["fire"]
    assert _named("opposes :water: and :chaos:", "fire", table) == table["fire"]


def test_both_decks_state_the_relation_for_every_element() -> None:
    lines = _lines()
    table = _opposes()
    assert {element for _, deck_element, _ in lines for element in [deck_element]} == set(table)
    assert len(lines) == 7 + 14  # seven Energy kinds, fourteen Deities


@pytest.mark.parametrize(("name", "element", "line"), _lines(), ids=lambda v: str(v))
def test_card_line_names_exactly_the_opposed_elements(name: str, element: str, line: str) -> None:
    table = _opposes()
    assert _named(line, element, table) == table[element], f"{name}: {line!r}"


def test_facts_let_is_seen_by_every_rule_and_measure_and_never_shadowed() -> None:
    from pnpgen.errors import Diagnostics
    from pnpgen.schema.facts import read_facts
    from pnpgen.source import load_text

    text = (
        "let:\n  table: \"{'a': 1}\"\n"
        "rules:\n  - {id: r, says: s, holds: \"table['a'] == 1\"}\n"
        "  - {id: q, says: s, let: {table: '2'}, holds: 'true'}\n"
        "measures:\n  - {id: m, says: s, let: {b: 'table'}, value: b}\n"
    )
    diags = Diagnostics()
    facts = read_facts(load_text(text, "facts.yaml"), diags, "facts.yaml")
    assert list(facts.rules[0]["let"]) == ["table"]
    assert list(facts.measures["m"]["let"]) == ["table", "b"]  # the file's names first, then its own
    assert [(str(d.location), d.message) for d in diags.errors] == [
        ("facts.yaml:5:28", "'table' is already named by facts.yaml's own 'let'")
    ]
