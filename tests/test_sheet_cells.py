"""A problem found while a sheet's card is drawn is told at the cell of the field to blame: every kind of sheet
(XLSX, ODS, CSV with commas or semicolons) and every kind of problem a field's value can cause while drawing (a
colour, an icon name, a template, a number out of range, an item of a list column). What no one field is to
blame for stays at the layout's line, and the card's label names its row."""

from __future__ import annotations

import pytest
from conftest import fast_once, run_cli
from test_datasheets import csv_text, ods, xlsx

LAYOUT = """\
elements:
  - type: rect
    area: bleed
    fill: "{{ card.colour }}"
  - type: icon
    name: "{{ card.icon }}"
    x: 5
    y: 5
    size: 10
  - type: text
    x: 4
    y: 20
    w: "{{ w - 8 }}"
    h: 10
    text: "{{ card.cost + 1 }}"
  - type: text
    x: 4
    y: 35
    w: 40
    h: 10
    text: "{{ card.name }}"
    leading: "{{ card.spacing }}"
  - type: text
    x: 4
    y: 70
    w: 40
    h: 10
    text: Hint
    size: "{{ card.small }}"
  - type: icon
    for_each: "{{ card.marks }}"
    as: mark
    name: "{{ mark }}"
    x: "{{ 5 + loop.index0 * 10 }}"
    y: 60
    size: 8
  - type: text
    x: 4
    y: 50
    w: 40
    h: 10
    text: "{{ card.name ~ card.cost }}"
    color: "{{ palette[card.colour ~ card.icon] | default('black') }}"
"""

DECK = """id: heroes
kind: cards
name: Hero cards
size: poker
front: cells
back: sample-back
columns: {{marks: {{list: ";"}}}}
cards_from: {ref}
"""

HEADER = ["name", "count", "colour", "icon", "cost", "spacing", "marks", "small"]
GOOD = ["Ash Walker", 1, "#c8431a", "drop", 2, 1.2, "drop;drop", 9]
# each kind of failure: (column it spoils, the bad value, the words the message holds)
KINDS = {
    "colour": ("colour", "rouge", "'fill' is not a colour"),
    "icon": ("icon", "nosuchicon", "nosuchicon"),
    "template": ("cost", "two", "can only concatenate"),
    "range": ("spacing", 9, "'leading' must be between"),
    "list item": ("marks", "drop;nosuchmark", "nosuchmark"),
}

SHEETS = {
    "xlsx": ("heroes.xlsx", xlsx, "{file: data/heroes.xlsx, sheet: Heroes}"),
    "ods": ("heroes.ods", ods, "{file: data/heroes.ods, sheet: Heroes}"),
    "csv": ("heroes.csv", csv_text, "data/heroes.csv"),
    "csv;": ("heroes.csv", lambda rows: csv_text(rows, ";"), "data/heroes.csv"),
}


def cell(sheet: str, row: int, col: int) -> str:
    if sheet in ("xlsx", "ods"):
        return f"content/sample/data/heroes.{sheet}:Heroes!{chr(64 + col)}{row}"
    return f"content/sample/data/heroes.csv:{row}:{col}"


def make(project, sheet: str, rows: list[list]):
    name, write, ref = SHEETS[sheet]
    root = project("basic")
    game = root / "content" / "sample"
    (game / "data").mkdir(exist_ok=True)
    data = write([HEADER, *rows])
    (game / "data" / name).write_bytes(data.encode() if isinstance(data, str) else data)
    (game / "decks" / "heroes.yaml").write_text(DECK.format(ref=ref))
    (game / "layouts" / "cells.yaml").write_text(LAYOUT)
    (game / "facts.yaml").write_text("document: Sample rules\nfacts: []\n")  # no counts these decks break
    return root


@pytest.mark.parametrize("sheet", fast_once(SHEETS))
@pytest.mark.parametrize("kind", KINDS)
def test_a_drawing_error_names_the_fields_cell(project, sheet, kind):
    column, bad, words = KINDS[kind]
    col = HEADER.index(column) + 1
    spoiled = list(GOOD)
    spoiled[col - 1] = bad
    root = make(project, sheet, [GOOD, GOOD, spoiled])  # the bad card is row 4
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    line = next(x for x in result.output.splitlines() if words in x and f"(field '{column}'" in x)
    assert line.startswith(f"{cell(sheet, 4, col)}: error: "), result.output
    assert f"(field '{column}', used at content/sample/layouts/cells.yaml:" in line
    assert "Traceback" not in result.output
    assert not (root / "out" / "sample" / "heroes.pdf").exists()


# each kind of warning a field's value can cause: (column, the value, the words the warning holds)
WARNINGS = {
    "glyph": ("name", "Ash \ue000", "U+E000"),
    "small text": ("small", 6.5, "is drawn as small as 6.5 pt"),
}


@pytest.mark.parametrize("sheet", fast_once(SHEETS))
@pytest.mark.parametrize("kind", WARNINGS)
def test_a_layout_warning_names_the_fields_cell(project, sheet, kind):
    """A warning a field's value causes (a character no font prints, text too small to read) is told at its cell."""
    column, value, words = WARNINGS[kind]
    col = HEADER.index(column) + 1
    row = list(GOOD)
    row[col - 1] = value
    root = make(project, sheet, [GOOD, row])
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if words in x and f"(field '{column}'" in x)
    assert line.startswith(f"{cell(sheet, 3, col)}: warning: "), result.output
    assert f"(field '{column}', used at content/sample/layouts/cells.yaml:" in line


@pytest.mark.parametrize("sheet", SHEETS)
def test_what_no_one_field_causes_stays_at_the_layout(project, sheet):
    """A value reading two fields blames neither: its layout line, the card's row in its label."""
    root = make(project, sheet, [GOOD, ["Ash", 1, "#c8431a", "drop", 2, 1.2, "drop", 9]])
    (root / "content" / "sample" / "layouts" / "cells.yaml").write_text(
        LAYOUT.replace("| default('black')", "")
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if "c8431adrop" in x)
    at = (
        LAYOUT.splitlines().index("    color: \"{{ palette[card.colour ~ card.icon] | default('black') }}\"")
        + 1
    )
    assert line.startswith(f"content/sample/layouts/cells.yaml:{at}:12: error: "), result.output
    assert f"of deck 'heroes' ({cell(sheet, 2, 1)}) and 1 more)" in line  # one message, the first card's row


def test_a_yaml_card_keeps_the_layouts_line(project):
    """Cards written in YAML are told at the layout's value, as before (their label names their line)."""
    root = project("basic")
    deck = root / "content" / "sample" / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("colour: sea", "colour: nosuch"))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/layouts/hero.yaml:" in result.output
    assert "(field 'colour'" not in result.output
