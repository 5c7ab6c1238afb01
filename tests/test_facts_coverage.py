"""Every number in each source document's components and setup sections is accounted for in facts.yaml:
either the fact that checks it, or why it is not a count of pieces. Runs where ../shared/seeds is present."""

from __future__ import annotations

import re

import pytest
import yaml
from conftest import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"
# (seed file, [(first line, last line)] of its components and setup sections, 1-based, inclusive)
SECTIONS = {
    "elements-of-the-gods": ("000_58a2d3968c04714c.txt", [(9, 98), (315, 324)]),
    "orbis": ("001_fa29ccfeda424b3f.txt", [(1, 40), (136, 158)]),
    "deity": ("002_c296cf884f5fb0df.txt", [(40, 98)]),
    "river": ("003_23057d645901eef8.txt", [(1, 44)]),
    "seven-gods": ("004_d993adb5d1ed763d.txt", [(82, 150)]),
}


def section_numbers(game: str) -> set[int]:
    name, ranges = SECTIONS[game]
    lines = (SEEDS / name).read_text(encoding="utf-8", errors="replace").splitlines()
    found = set()
    for first, last in ranges:
        for line in lines[first - 1 : last]:
            found.update(int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", line))
    return found


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_every_number_of_components_and_setup_is_accounted_for(game):
    if not SEEDS.is_dir():
        pytest.skip("the source documents are not beside this checkout")
    facts_file = ROOT / "content" / game / "facts.yaml"
    facts = yaml.safe_load(facts_file.read_text())
    listed = {int(n["number"]) for n in facts.get("numbers", []) if str(n.get("number", "")).isdigit()}
    missing = sorted(section_numbers(game) - listed)
    assert not missing, f"{game}: numbers of the document not in facts.yaml 'numbers': {missing}"
    fact_ids = {f["id"] for f in facts["facts"]}
    for n in facts["numbers"]:
        assert n.get("fact") in fact_ids or n.get("why"), n


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_every_game_passes_its_check_strictly(game):
    from conftest import run_cli

    result = run_cli("check", game, "--content", ROOT / "content", "--strict")
    assert result.exit_code == 0, result.output
    assert f"{game}: " in result.output and "errors" in result.output
