"""A card read from a data sheet is named by its sheet's cell in every message and record about it: errors found
while drawing, the manifest's card records (which `changes` shows), and `serve`'s source of the card."""

from __future__ import annotations

import json

import pytest
from conftest import fast_once, run_cli
from test_datasheets import HEADER, ROWS, csv_text, ods, with_sheet, xlsx

BAD = [ROWS[0], ["Tide Caller", 6, "nosuchcolour", "Gain :drop: when a neighbour plays water."]]

SHEETS = [
    ("heroes.csv", lambda rows: csv_text(rows), "data/heroes.csv", "heroes.csv:{row}:1"),
    (
        "heroes.xlsx",
        lambda rows: xlsx(rows),
        "{file: data/heroes.xlsx, sheet: Heroes}",
        "heroes.xlsx:Heroes!A{row}",
    ),
    (
        "heroes.ods",
        lambda rows: ods(rows),
        "{file: data/heroes.ods, sheet: Heroes}",
        "heroes.ods:Heroes!A{row}",
    ),
]


@pytest.mark.parametrize("name, make, ref, cell", SHEETS)
def test_a_drawing_error_names_the_sheets_row(project, name, make, ref, cell):
    root = with_sheet(project("basic"), name, make([HEADER, *BAD]), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert f"of deck 'heroes' (content/sample/data/{cell.format(row=3)})" in result.output
    assert "decks/heroes.yaml:" not in result.output  # never the deck's YAML with the sheet's row number


@pytest.mark.parametrize("name, make, ref, cell", SHEETS)
def test_the_manifest_and_serve_name_the_sheets_row(project, name, make, ref, cell):
    from pnpgen.project import Project
    from pnpgen.serve.preview import _fields

    root = with_sheet(project("basic"), name, make([HEADER, *ROWS]), ref)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    data = json.loads((root / "out" / "sample" / "manifest.json").read_text())
    cards = next(f["cards"] for f in data["files"] if f["component"] == "heroes")
    assert [c["source"] for c in cards] == [f"content/sample/data/{cell.format(row=r)}" for r in (2, 3)]
    minis = next(f["cards"] for f in data["files"] if f["component"] == "minis")
    assert minis[0]["source"].startswith("content/sample/decks/minis.yaml:")  # a YAML card: file and line
    import os

    old = os.getcwd()
    os.chdir(root)
    try:
        fields = _fields(Project(root / "content", root / "out"), "sample")
        looks = [_look(component, n) for component, n in (("heroes", 1), ("minis", 0))]
    finally:
        os.chdir(old)
    assert fields["heroes"][1]["source"].endswith(cell.format(row=3))
    # the editor's look at a card names it as the page does: the sheet's row, not the deck's YAML at that line
    assert looks[0]["source"] == f"content/sample/data/{cell.format(row=3)}", looks[0]["source"]
    assert looks[1]["source"] == fields["minis"][0]["source"]
    assert looks[1]["source"].startswith("content/sample/decks/minis.yaml:")


def _look(component: str, n: int) -> dict:
    from pathlib import Path

    from pnpgen.project import Project
    from pnpgen.serve.command import Sketcher
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.preview import Preview

    project = Project(Path("content"), Path("out"), resident=True)
    editor = Editor(project, Preview(project, ["sample"]), Sketcher(project))
    status, look = editor.get("/look", {"game": ["sample"], "component": [component], "card": [str(n)]})
    assert status == 200, look
    return look


@pytest.mark.parametrize("name, make, ref, cell", SHEETS)
def test_a_sheets_errors_come_all_at_once(project, name, make, ref, cell):
    """Bad cells (a count, a front layout) and what only drawing finds (a colour) are told in one build."""
    header = [*HEADER, "front"]
    rows = [
        ["Ash Walker", "three", "", "x", ""],  # row 2: a bad count
        ["Tide Caller", 6, "nosuchcolour", "y", ""],  # row 3: found while drawing
        ["Reed", 1, "sea", "z", "nosuchlayout"],  # row 4: a layout that is not there
        ["Gale", -1, "sea", "z", ""],  # row 5: a bad count
        ["Ember", 1, "nosuch2", "z", ""],  # row 6: found while drawing
    ]
    root = with_sheet(project("basic"), name, make([header, *rows]), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    count, front = (cell.replace("{row}:1", "{row}:2"), cell.replace("{row}:1", "{row}:5"))
    if "!" in cell:
        count, front = cell.replace("!A", "!B"), cell.replace("!A", "!E")
    path = "content/sample/data/"
    assert f"{path}{count.format(row=2)}: error: 'count'" in result.output
    assert f"{path}{count.format(row=5)}: error: 'count'" in result.output
    assert f"{path}{front.format(row=4)}: error: layout 'nosuchlayout' not found" in result.output
    colour = cell.replace("!A", "!C") if "!" in cell else cell.replace("{row}:1", "{row}:3")
    for row, bad in ((3, "nosuchcolour"), (6, "nosuch2")):  # found while drawing: at the colour's cell
        told = f"{path}{colour.format(row=row)}: error: undefined value: the palette has no colour '{bad}'; "
        line = next(x for x in result.output.splitlines() if x.startswith(told))
        assert line.endswith(f"of deck 'heroes' ({path}{cell.format(row=row)}))")  # and the card's row
    assert "failed sample: 5 errors" in result.output
    assert "rules check" not in result.output  # a game missing rows is not counted against the facts
    assert not (root / "out" / "sample" / "heroes.pdf").exists()  # drawn to find errors, never written


@pytest.mark.parametrize("name, make, ref, cell", SHEETS)
def test_changes_and_the_checker_name_the_sheets_cell(project, name, make, ref, cell):
    from pnpgen.changes.compare import records
    from pnpgen.checker import Finding
    from pnpgen.errors import Location

    root = with_sheet(project("basic"), name, make([HEADER, *ROWS]), ref)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    found = {r.name: r.source for r in records(root / "out" / "sample").values() if r.component == "heroes"}
    assert found == {
        "Ash Walker": f"content/sample/data/{cell.format(row=2)}",
        "Tide Caller": f"content/sample/data/{cell.format(row=3)}",
    }
    sheet = "Heroes" if "!" in cell else ""
    finding = Finding("warning", "heroes", "a note", location=Location(f"data/{name}", 3, 4, sheet))
    assert finding.where == ("data/heroes.csv:3:4" if not sheet else f"data/{name}:Heroes!D3")


@pytest.mark.parametrize("name, make, ref, cell", fast_once(SHEETS))  # a build and a `changes` each
def test_the_changes_proof_names_the_sheets_row(project, name, make, ref, cell):
    import shutil

    import pypdfium2 as pdfium

    root = with_sheet(project("basic"), name, make([HEADER, *ROWS]), ref)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    shutil.copytree(root / "out", root / "old")
    edited = [ROWS[0], [*ROWS[1][:3], "Gain :drop: when a neighbour plays fire."]]
    (root / "content" / "sample" / "data" / name).write_bytes(
        (lambda d: d.encode() if isinstance(d, str) else d)(make([HEADER, *edited]))
    )
    result = run_cli("changes", "old", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    where = f"content/sample/data/{cell.format(row=3)}"
    assert f"changed heroes: 'Tide Caller': front [{where}]" in result.output
    pdf = pdfium.PdfDocument(root / "out" / "sample" / "changes" / "proof.pdf")
    try:
        assert where in pdf[0].get_textpage().get_text_range()
    finally:
        pdf.close()


@pytest.mark.parametrize("name, make, ref, cell", SHEETS)
def test_a_column_no_layout_reads_is_named_by_its_header_cell(project, name, make, ref, cell):
    header = [*HEADER, "colr"]
    rows = [[*ROWS[0], "red"], [*ROWS[1], ""]]
    root = with_sheet(project("basic"), name, make([header, *rows]), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    column = cell.format(row=1).replace("A1", "E1").replace(":1:1", ":1:5")
    assert (
        f"content/sample/data/{column}: warning: no layout of deck 'heroes' reads the field 'colr'"
        in result.output
    )


def test_every_cards_source_is_its_files_key_and_place(tmp_path):
    """A card's source in the manifest, for every kind of place a card has: a YAML line, a CSV row, a workbook's
    cell, a URL's sheet (its URL: it was made a path in the working folder), a file outside the project; each
    file's key worked out once for many cards gives what one card alone is given."""
    from pnpgen.errors import Location
    from pnpgen.inputs import Reader
    from pnpgen.pipeline.records import sources_of

    game = tmp_path / "content" / "g"
    places = {
        Location(str(game / "decks" / "a.yaml"), 12, 5): "content/g/decks/a.yaml:12",
        Location(str(game / "decks" / "a.yaml"), 0): "content/g/decks/a.yaml",
        Location(str(game / "data" / "b.csv"), 4, 1): "content/g/data/b.csv:4:1",
        Location(str(game / "data" / "b.CSV"), 5, 2): "content/g/data/b.CSV:5:2",
        Location(str(game / "data" / "c.xlsx"), 7, 3, "Market"): "content/g/data/c.xlsx:Market!C7",
        Location("https://example.org/sheet.csv", 3, 1): "https://example.org/sheet.csv:3:1",
        Location(str(tmp_path.parent / "else.yaml"), 2, 1): (tmp_path.parent / "else.yaml").as_posix() + ":2",
        Location(str(game / "decks" / "a.yaml"), 30, 1): "content/g/decks/a.yaml:30",
    }
    assert sources_of(Reader([game], tmp_path), list(places)) == list(places.values())
    assert [sources_of(Reader([game], tmp_path), [loc])[0] for loc in places] == list(places.values())


@pytest.mark.parametrize("name, make, ref, cell", fast_once(SHEETS))
def test_a_misspelt_header_is_told_at_its_cell_not_offered_to_the_layout(project, name, make, ref, cell):
    """The sheet heads a column `txet`; the layout reads `card.text`. The template alone can only offer the
    misspelling to the layout ("did you mean 'txet'?"): the error is told once, at the header cell, saying so."""
    root = with_sheet(project("basic"), name, make([["name", "count", "colour", "txet"], *ROWS]), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    header = cell.format(row=1).replace("A1", "D1").replace(":1:1", ":1:4")
    lines = [x for x in result.output.splitlines() if ": error: " in x]
    assert len(lines) == 1 and lines[0].startswith(f"content/sample/data/{header}: error: undefined value"), (
        lines
    )
    assert "the header names 'txet', which no value of the layout reads: misspelt here?" in lines[0]
    assert "(field 'text', used at content/sample/layouts/hero.yaml:" in lines[0]


@pytest.mark.parametrize("read", ["card.cots", "card.nmae"])
def test_a_layout_misspelling_a_reserved_key_is_told_at_the_layout(project, read):
    """`count` and `name` are the card's keys, never misspelt fields: a layout reading `card.cots` is wrong."""
    name, make, ref, _ = SHEETS[0]
    root = with_sheet(project("basic"), name, make([HEADER, *ROWS]), ref)
    hero = root / "content/sample/layouts/hero.yaml"
    hero.write_text(hero.read_text().replace("{{ card.name }}", "{{ " + read + " }}", 1))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    lines = [x for x in result.output.splitlines() if ": error: " in x]
    assert lines and all(
        x.startswith("content/sample/layouts/hero.yaml:19:11: error: undefined") for x in lines
    )
    assert "misspelt" not in result.output, (
        lines
    )  # heroes from the sheet, minis from YAML: both at the layout


@pytest.mark.parametrize("name, make, ref, cell", fast_once(SHEETS))
def test_a_declared_column_misspelt_in_the_header_points_at_the_header(project, name, make, ref, cell):
    root = with_sheet(project("basic"), name, make([["name", "count", "colour", "txet"], *ROWS]), ref)
    deck = root / "content/sample/decks/heroes.yaml"
    deck.write_text(deck.read_text() + "columns: {text: text}\n")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    header = cell.format(row=1).replace("A1", "D1").replace(":1:1", ":1:4")
    assert "error: 'columns' declares 'text', which the sheet's header does not have" in result.output
    assert (
        f"  the header names 'txet' at content/sample/data/{header}: correct whichever of the two is misspelt"
        in result.output
    ), result.output
    assert "did you mean 'txet'" not in result.output
