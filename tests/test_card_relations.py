"""Card text that states a relation the facts hold says exactly what the facts say.

Deity's Energy cards ("Fire tiles oppose ...") and Deity cards ("opposes ...") name which Elements oppose
theirs. The relation lives once per rule in content/deity/facts.yaml (`opposes`); every card line naming it is
read back into a set of Elements and compared, so a card that leaves Chaos out (issue 30) fails here.
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
    rule = next(r for r in _facts()["rules"] if r["id"] == "no-opposing-neighbours")
    table = ast.literal_eval(rule["let"]["opposes"])
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


def test_every_copy_of_the_relation_in_the_facts_agrees() -> None:
    facts = _facts()
    copies = [
        entry["let"]["opposes"]
        for entry in facts.get("rules", []) + facts.get("measures", [])
        if "opposes" in entry.get("let", {})
    ]
    assert len(copies) >= 2
    assert {repr(ast.literal_eval(c)) for c in copies} == {repr(ast.literal_eval(copies[0]))}


def test_both_decks_state_the_relation_for_every_element() -> None:
    lines = _lines()
    table = _opposes()
    assert {element for _, deck_element, _ in lines for element in [deck_element]} == set(table)
    assert len(lines) == 7 + 14  # seven Energy kinds, fourteen Deities


@pytest.mark.parametrize(("name", "element", "line"), _lines(), ids=lambda v: str(v))
def test_card_line_names_exactly_the_opposed_elements(name: str, element: str, line: str) -> None:
    table = _opposes()
    assert _named(line, element, table) == table[element], f"{name}: {line!r}"
