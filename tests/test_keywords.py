"""Every keyword and icon a component uses is introduced in the rulebook; every term its glossary defines is used.

`pnpgen check` (and so every build) warns at the card's field (a data sheet's cell) for a keyword or icon the
book never introduces, and at the book's line for a glossary term no component uses; `--strict` fails on them.
One small game (the `basic` fixture with a rulebook) is copied once; each case writes its cards, book and facts
over it and runs the check alone, no build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, run_cli

from pnpgen.checker import check_game

CARDS = """id: heroes
kind: cards
name: Hero cards
size: poker
front: hero
back: sample-back
defaults:
  colour: ember
cards:
  - name: Ash Walker
    count: 5
    text: "{ash}"
  - name: Tide Caller
    colour: sea
    count: 6
    text: "Gain one when a neighbour plays water."
"""
BOOK = "# Sample Game\n\n## Components\n\nHero cards and Mini cards.\n\n{body}\n"
GLOSSARY = "## Glossary\n\n| Term | Meaning |\n|---|---|\n| **Surge** | Move two spaces at once. |\n"

# (case, text of the first card, the book's body, facts.yaml's keywords, what the check must say or None)
CASES = [
    (
        "keyword-never-introduced",
        "**Surge:** move two spaces.",
        "Play a card, then draw.",
        None,
        "content/sample/decks/heroes.yaml:12:11: warning: rules check: rulebook: heroes uses the keyword 'Surge'",
    ),
    (
        "icon-never-shown-or-named",
        "Spend :drop: to move.",
        "Play a card, then draw.",
        None,
        "content/sample/decks/heroes.yaml:12:11: warning: rules check: rulebook: heroes uses the icon :drop:",
    ),
    (
        "declared-keyword-never-introduced",
        "Move to a neighbour.",
        "Play a card, then draw.",
        ["neighbour"],
        "heroes.yaml:12:11: warning: rules check: rulebook: heroes uses the keyword 'neighbour'",
    ),
    (
        "glossary-term-unused",
        "Move two spaces.",
        GLOSSARY,
        None,
        "content/sample/rulebook.md:11:5: warning: rules check: rulebook: the rulebook defines 'Surge' but no "
        "component uses it",
    ),
    ("all-introduced-by-glossary", "**Surge:** spend :drop:.", GLOSSARY + "\nA :drop: is water.", None, None),
    (
        "introduced-by-heading-and-name",
        "**Surge:** spend :drop:.",
        "### Surge\n\nA drop is water.",
        None,
        None,
    ),
    ("declared-and-bold", "Move to a neighbour.", "Your **neighbours** are beside you.", ["neighbour"], None),
] + [  # a glossary headed in German or French is one too
    (
        f"glossary-term-unused-{heading.lower()}",
        "Move two spaces.",
        GLOSSARY.replace("## Glossary", f"## {heading}"),
        None,
        "content/sample/rulebook.md:11:5: warning: rules check: rulebook: the rulebook defines 'Surge' but no "
        "component uses it",
    )
    for heading in ("Glossar", "Begriffe", "Glossaire", "Mots-clés")
]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("kw") / "basic"
    shutil.copytree(FIXTURES / "basic", root)
    return root


def _write(game: Path, ash: str, body: str, keywords) -> Path:
    folder = game / "content" / "sample"
    (folder / "decks" / "heroes.yaml").write_text(CARDS.replace("{ash}", ash), encoding="utf-8")
    (folder / "rulebook.md").write_text(BOOK.replace("{body}", body), encoding="utf-8")
    facts = (FIXTURES / "basic" / "content" / "sample" / "facts.yaml").read_text(encoding="utf-8")
    if keywords:
        facts += "keywords: [" + ", ".join(keywords) + "]\n"
    (folder / "facts.yaml").write_text(facts, encoding="utf-8")
    return folder


def _said(game: Path, *flags: str):
    return run_cli("check", "--content", "content", *flags, "sample", cwd=game)


@pytest.mark.parametrize(
    ("ash", "body", "keywords", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_keyword_or_icon_is_introduced_and_a_defined_term_used(game, ash, body, keywords, expected):
    _write(game, ash, body, keywords)
    result = _said(game)
    strict = _said(game, "--strict")
    found = [f for f in check_game(game / "content" / "sample").findings if f.component == "rulebook"]
    if expected is None:
        assert found == [], [f.text() for f in found]
        assert result.exit_code == 0 and strict.exit_code == 0, strict.output
        return
    assert len(found) == 1 and found[0].severity == "warning", [f.text() for f in found]
    where, _, message = expected.partition(": warning: rules check: rulebook: ")
    assert found[0].location.place().endswith(where.rsplit(":", 1)[0]), found[0].location
    assert message in found[0].message
    assert result.exit_code == 0, result.output  # a warning, not an error
    assert strict.exit_code == 1 and "FAILED" in strict.output and "Traceback" not in strict.output
    assert message in result.output


def test_a_data_sheet_card_is_located_at_its_cell(game):
    folder = _write(game, "Plain.", "Play a card, then draw.", None)
    (folder / "data").mkdir(exist_ok=True)
    (folder / "data" / "more.csv").write_text(
        "name,count,text\nSpark,1,Spend :drop: now.\n", encoding="utf-8"
    )
    deck = (folder / "decks" / "heroes.yaml").read_text(encoding="utf-8")
    (folder / "decks" / "heroes.yaml").write_text(deck + "cards_from: data/more.csv\n", encoding="utf-8")
    try:
        found = [f for f in check_game(folder).findings if f.component == "rulebook"]
        assert [str(f.location).replace("\\", "/")[-18:] for f in found] == ["/data/more.csv:2:3"], found
        assert "the icon :drop:" in found[0].message
    finally:
        (folder / "decks" / "heroes.yaml").write_text(deck, encoding="utf-8")


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "content").iterdir() if p.is_dir()))
def test_the_shipped_games_introduce_every_keyword_and_use_every_term(name):
    report = check_game(ROOT / "content" / name)
    assert [f.text() for f in report.findings if f.component == "rulebook"] == []


@pytest.mark.parametrize(
    ("field", "flagged"),
    [
        ("icon: drop", True),
        ("steps: [{icon: drop, text: Go.}]", True),
        ("role_icon: drop", True),
        ("mood: drop", False),
    ],
    ids=["icon", "nested-icon", "suffix-icon", "not-an-icon-field"],
)
def test_an_icon_named_by_an_icon_field_is_an_icon_the_card_uses(game, field, flagged):
    folder = _write(game, "Plain.", "Play a card, then draw.", None)
    deck = (folder / "decks" / "heroes.yaml").read_text(encoding="utf-8")
    (folder / "decks" / "heroes.yaml").write_text(deck + f"  - name: Extra\n    {field}\n", encoding="utf-8")
    found = [f for f in check_game(folder).findings if f.component == "rulebook"]
    assert [f.location.line for f in found] == ([18] if flagged else []), [f.text() for f in found]
    assert all("the icon :drop:" in f.message for f in found)
