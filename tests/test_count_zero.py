"""`count: 0` leaves a card out of the build while it stays in its file: a YAML item, a data sheet's row, or
every card through `defaults`; printed nowhere, counted by no check, and refused by name where it is pictured."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from conftest import run_cli

HEROES = "content/sample/decks/heroes.yaml"

SHEET_DECK = """id: heroes
kind: cards
name: Hero cards
size: poker
front: hero
back: sample-back
cards_from: decks/heroes.csv
"""


def _yaml_item(root):
    p = root / HEROES
    p.write_text(p.read_text().replace("count: 5", "count: 0"))


def _defaults(root):  # every card left out unless it gives its own count
    p = root / HEROES
    text = p.read_text().replace("defaults:\n", "defaults:\n  count: 0\n").replace("    count: 5\n", "")
    p.write_text(text)


def _sheet_row(root):
    (root / HEROES).write_text(SHEET_DECK)
    (root / "content/sample/decks/heroes.csv").write_text(
        "name,count,colour,text\nAsh Walker,0,ember,Spend two.\nTide Caller,6,sea,Gain one.\n"
    )


def _text(pdf) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


@pytest.mark.parametrize("leave_out", [_yaml_item, _defaults, _sheet_row], ids=["item", "defaults", "sheet"])
def test_a_card_with_count_0_is_printed_nowhere_and_counted_by_no_check(project, tmp_path, leave_out):
    root = project("basic")
    leave_out(root)
    result = run_cli("build", "--out", tmp_path, "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    deck, every = _text(tmp_path / "sample" / "heroes.pdf"), _text(tmp_path / "sample" / "print-all.pdf")
    assert "Tide Caller" in deck and "Tide Caller" in every
    assert "Ash Walker" not in deck and "Ash Walker" not in every
    assert "26 faces" in result.output  # 6 heroes and 20 minis: the five Ash Walkers are not drawn
    # the rules check counts what is printed: the facts' 11 heroes (5 ember) are now 6
    check = run_cli("check", cwd=root)
    assert check.exit_code == 1
    assert "total pieces (expected 11, found 6)" in check.output
    assert "pieces with colour ember (expected 5, found 0)" in check.output


@pytest.mark.parametrize(
    "name, expect",
    [
        (
            "Ash Walker",
            f"card 'Ash Walker' of 'heroes' has count 0 ({HEROES}:11:5): it is left out of the build",
        ),
        (
            "Ash Walkr",
            "component 'heroes' has no card 'Ash Walkr'",
        ),  # the same class: a name that is not there
    ],
)
def test_a_pictured_card_that_is_not_printed_is_told_once_at_the_key(project, tmp_path, name, expect):
    root = project("basic")
    _yaml_item(root)
    deck = root / HEROES
    deck.write_text(deck.read_text().replace("back: sample-back\n", f"back: sample-back\npicture: {name}\n"))
    (root / "content/sample/rulebook.md").write_text("# Rules\n\n{{ picture('heroes') }}\n")
    result = run_cli("build", "--out", tmp_path, cwd=root)
    assert result.exit_code == 1
    assert f"{HEROES}:7:10: error: {expect}" in result.output
    assert "no card to draw" not in result.output  # not told again where the rulebook pictures the deck


def test_a_deck_whose_every_card_has_count_0_is_refused_at_its_first(project, tmp_path):
    root = project("basic")
    deck = root / HEROES
    deck.write_text(deck.read_text().replace("count: 5", "count: 0").replace("count: 6", "count: 0"))
    result = run_cli("build", "--out", tmp_path, cwd=root)
    assert result.exit_code == 1
    assert (
        f"{HEROES}:10:3: error: every item of the deck has count 0: nothing would be printed" in result.output
    )
    assert not (tmp_path / "sample").exists()


def test_list_tells_the_cards_left_out(project):
    root = project("basic")
    _yaml_item(root)
    text = run_cli("list", cwd=root).output
    assert "heroes                   cards        6 faces (1 different, 1 left out with count 0)" in text
    assert "minis                    cards       20 faces (1 different)\n" in text
    listed = json.loads(run_cli("list", "--format", "json", cwd=root).output)
    heroes, minis = listed["games"][0]["components"]
    assert (heroes["faces"], heroes["cards"], heroes["left_out"]) == (6, 1, 1) and minis["left_out"] == 0


@pytest.mark.parametrize("leave_out", [_yaml_item, _sheet_row], ids=["item", "sheet"])
def test_the_editor_writes_the_card_shown_after_one_left_out(project, monkeypatch, leave_out):
    """serve's editor names a card by its place in its file: the cards left out before it still stand there, so
    a field set on the card shown (Tide Caller, after Ash Walker's count 0) is written to its own item or row."""
    from pathlib import Path

    from pnpgen.project import Project
    from pnpgen.serve.command import Sketcher
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.preview import Preview

    root = project("basic")
    leave_out(root)
    monkeypatch.chdir(root)
    proj = Project(Path("content"), Path("out"), resident=True)
    editor = Editor(proj, Preview(proj, ["sample"]), Sketcher(proj))
    status, look = editor.get("/look", {"game": ["sample"], "component": ["heroes"], "card": ["0"]})
    assert status == 200, look
    card = look["card_edit"]
    assert card["fields"]["name"] == "Tide Caller" and card["pos"] == 1
    file = root / card["file"]
    before = file.read_text()
    body = {"op": "field", "game": "sample", "file": card["file"], "digest": look["files"][card["file"]]}
    body |= {"card_pos": card["pos"], "field": "text", "value": "Gain two."}  # the rules check allows it
    status, answer = editor.post("/edit", json.dumps(body).encode())
    assert status == 200, answer
    after = file.read_text()
    lines = after.splitlines()
    written = next(i for i, line in enumerate(lines) if "Gain two." in line)
    shown = next(i for i, line in enumerate(lines) if "Tide Caller" in line)
    assert written >= shown, after  # the card shown's line, not the one left out before it
    others = [line for i, line in enumerate(before.splitlines()) if i != written]
    assert [line for i, line in enumerate(lines) if i != written] == others, after  # nothing else changed


@pytest.mark.parametrize(
    "rows, expect",
    [
        (
            "Ash Walker,0,ember,a\nTide Caller,0,sea,b\n",
            "every item of the deck has count 0: nothing would be",
        ),
        (
            "Ash Walker,10000,ember,a\nTide Caller,10000,sea,b\n",
            "the deck has 20,001 pieces; the limit is 20,000",
        ),
    ],
    ids=["all-left-out", "too-many"],
)
def test_a_sheet_deck_s_count_is_told_at_its_cards_from(project, tmp_path, rows, expect):
    """A deck whose items all come from a data sheet has no `cards:` key: what its counts add up to is told at
    `cards_from`, where its items are given, not at the file's start."""
    root = project("basic")
    (root / HEROES).write_text(SHEET_DECK)
    extra = "Spark,1,sea,c\n" if "10000" in rows else ""
    (root / "content/sample/decks/heroes.csv").write_text("name,count,colour,text\n" + rows + extra)
    result = run_cli("build", "--out", tmp_path, "--no-check", cwd=root)
    assert result.exit_code == 1
    assert f"{HEROES}:7:13: error: {expect}" in result.output, result.output


def _bad_item(root):
    p = root / HEROES
    p.write_text(p.read_text().replace("count: 5", "count: 0").replace("count: 6", "count: lots"))
    return f"{HEROES}:15:12"


def _bad_row(root):
    (root / HEROES).write_text(SHEET_DECK)
    (root / "content/sample/decks/heroes.csv").write_text(
        "name,count,colour,text\nAsh Walker,0,ember,a\nTide Caller,lots,sea,b\n"
    )
    return "content/sample/decks/heroes.csv:3:2"


@pytest.mark.parametrize("break_one", [_bad_item, _bad_row], ids=["item", "sheet-row"])
def test_a_card_refused_beside_one_left_out_is_the_only_error(project, tmp_path, break_one):
    """A card whose count is refused may well be printed once fixed: 'every item has count 0' is not said of a
    deck whose other cards are left out."""
    root = project("basic")
    at = break_one(root)
    result = run_cli("build", "--out", tmp_path, "--no-check", cwd=root)
    assert result.exit_code == 1
    assert f"{at}: error: 'count' must be a whole number" in result.output, result.output
    assert "count 0" not in result.output and "failed sample: 1 error;" in result.output
