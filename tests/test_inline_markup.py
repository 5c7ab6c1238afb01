"""Inline markup (`:icon:`, `**bold**`, `*italic*`) either prints as meant or is a warning at the value's place:
a YAML card's field, a sheet card's cell, a layout's constant text, the rulebook's line. Colons in plain text
(times, "Note:", URLs) stay quiet."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli
from test_sheet_cells import GOOD, HEADER, cell, make

GAME = "content/sample"
HERO_TEXT = "Spend :drop: to move **two** spaces. *Once per turn.*"
# each markup kind: (a text that misuses it, the words of its warning)
MARKUP = {
    "icon": (
        "Spend :dorp: now",
        "':dorp:' names no icon of the game; it would print as typed; did you mean :drop:?",
    ),
    "bold": ("Spend **two now", "a '**' is never closed; the rest of the text would be set bold"),
    "italic": ("Spend *two now", "a '*' is never closed; the rest of the text would be set italic"),
}
COLONS = "At 10:30 or 12:30:45. Note: see http://example.org:8080/a or std::map, ratio 2:1"


def _yaml_card(root, text):
    f = root / GAME / "decks" / "heroes.yaml"
    f.write_text(f.read_text().replace(HERO_TEXT, text))
    # told at the layout's text line, naming the card and its place in the deck (a YAML card's own fields are
    # not yet blamed the way a sheet's cells are)
    layout = (root / GAME / "layouts" / "hero.yaml").read_text().splitlines()
    line = layout.index('    text: "{{ card.text }}"') + 1
    return f"{GAME}/layouts/hero.yaml:{line}:"


def _layout(root, text):
    f = root / GAME / "layouts" / "hero.yaml"
    f.write_text(
        f.read_text() + f'  - type: text\n    x: 5\n    y: 5\n    w: 40\n    h: 8\n    text: "{text}"\n'
    )
    return f"{GAME}/layouts/hero.yaml:{len(f.read_text().splitlines())}:"


def _rulebook(root, text):
    (root / GAME / "rulebook.md").write_text(f"# Rules\n\nEach player takes 11 Hero cards.\n\n{text}\n")
    return f"{GAME}/rulebook.md:5:"


SOURCES = {"yaml card": _yaml_card, "layout text": _layout, "rulebook": _rulebook}


def _build(root, *extra):
    result = run_cli("build", "--out", "out", *extra, cwd=root)
    assert "Traceback" not in result.output
    return result


CASES = [
    (s, k) for s in SOURCES for k in MARKUP if s != "rulebook" or k == "icon"
]  # Markdown owns its emphasis


@pytest.mark.parametrize(("source", "kind"), fast_once(CASES))
def test_misused_markup_warns_at_its_place(project, source, kind):
    text, words = MARKUP[kind]
    root = project("basic")
    where = SOURCES[source](root, text)
    result = _build(root)
    assert result.exit_code == 0, result.output
    line = next((x for x in result.output.splitlines() if words in x), None)
    assert line is not None, result.output
    assert line.startswith(where) and ": warning: " in line, line
    strict = _build(root, "--strict")
    assert strict.exit_code == 1, strict.output
    assert any(words in x and ": error: " in x for x in strict.output.splitlines()), strict.output


@pytest.mark.parametrize("kind", MARKUP)
def test_misused_markup_in_a_sheet_warns_at_its_cell(project, kind):
    text, words = MARKUP[kind]
    row = list(GOOD)
    row[HEADER.index("name")] = text
    root = make(project, "csv", [GOOD, row])
    result = _build(root)
    assert result.exit_code == 0, result.output
    line = next((x for x in result.output.splitlines() if words in x), None)
    assert line is not None and line.startswith(f"{cell('csv', 3, 1)}: warning: "), result.output


@pytest.mark.parametrize("source", SOURCES)
def test_colons_in_plain_text_stay_quiet(project, source):
    root = project("basic")
    SOURCES[source](root, COLONS)
    result = _build(root)
    assert result.exit_code == 0, result.output
    assert "names no icon" not in result.output and "never closed" not in result.output


def _text(pdf) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    return "".join(page.get_textpage().get_text_range() for page in doc)


def test_a_known_icon_draws_and_its_name_does_not(project):
    root = project("basic")
    result = _build(root, "--strict")
    assert result.exit_code == 0, result.output
    text = _text(root / "out" / "sample" / "heroes.pdf")
    assert "Spend" in text and "two" in text
    assert ":drop:" not in text and "drop" not in text
    assert ":dorp:" not in text


def test_an_unknown_icon_prints_as_typed(project):
    """What the warning says is true: the name is in the PDF's text."""
    spoiled = project("basic")
    _yaml_card(spoiled, MARKUP["icon"][0])
    assert _build(spoiled).exit_code == 0
    assert ":dorp:" in _text(spoiled / "out" / "sample" / "heroes.pdf")
