"""A deck from several sheets or files (`cards_from: [a.xlsx:Market, a.xlsx:Events, b.csv, c.yaml]`): one deck,
whatever mix of CSV, XLSX, ODS, YAML and JSON lists it is made of. It prints as the same cards written in YAML; the
rules checker counts the whole deck; every card keeps its own file and cell; a change in any one of the files
rebuilds the deck."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from conftest import fast_once, run_cli
from test_datasheets import HEADER, ROWS, _copy, cards, csv_text, ods

ASH, TIDE = ROWS


def workbook(sheets: dict[str, list[list]]) -> bytes:
    """A minimal XLSX workbook of several sheets (inline strings, numbers as numbers)."""

    def cell(ref, value):
        if value == "":
            return ""
        if isinstance(value, (int, float)):
            return f'<c r="{ref}"><v>{value}</v></c>'
        return f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'

    ns = "http://schemas.openxmlformats.org"
    rel = f"{ns}/officeDocument/2006/relationships"
    files = {
        "[Content_Types].xml": f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{ns}/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
        'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        + "".join(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.worksheet+xml"/>'
            for i in range(1, len(sheets) + 1)
        )
        + "</Types>",
        "_rels/.rels": f'<Relationships xmlns="{ns}/package/2006/relationships"><Relationship Id="rId1" '
        f'Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{ns}/spreadsheetml/2006/main" xmlns:r="{rel}"><sheets>'
        + "".join(f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>' for i, name in enumerate(sheets, 1))
        + "</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{ns}/package/2006/relationships">'
        + "".join(
            f'<Relationship Id="rId{i}" Type="{rel}/worksheet" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(sheets) + 1)
        )
        + "</Relationships>",
    }
    for i, rows in enumerate(sheets.values(), 1):
        body = "".join(
            f'<row r="{r}">' + "".join(cell(f"{chr(65 + c)}{r}", v) for c, v in enumerate(row)) + "</row>"
            for r, row in enumerate(rows, 1)
        )
        files[f"xl/worksheets/sheet{i}.xml"] = (
            f'<worksheet xmlns="{ns}/spreadsheetml/2006/main"><sheetData>{body}</sheetData></worksheet>'
        )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return out.getvalue()


def yaml_cards(rows: list[list]) -> str:
    """The rows as a YAML list of cards."""
    out = []
    for row in rows:
        fields = {k: v for k, v in zip(HEADER, row, strict=True) if v != ""}
        out.append(
            "- "
            + "\n  ".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}" for k, v in fields.items())
        )
    return "\n".join(out) + "\n"


# Each mix: its files (name -> bytes made from rows), its `cards_from`, and which file holds each of the rows.
MIXES = {
    "two sheets of one workbook": (
        lambda a, b: {"market.xlsx": workbook({"Market": [HEADER, *a], "Events": [HEADER, *b]})},
        "[data/market.xlsx:Market, data/market.xlsx:Events]",
        ("market.xlsx", "market.xlsx"),
    ),
    "csv then a mapped workbook sheet": (
        lambda a, b: {
            "a.csv": csv_text([HEADER, *a]),
            "b.xlsx": workbook({"Other": [["x"], [1]], "B": [HEADER, *b]}),
        },
        "[data/a.csv, {file: data/b.xlsx, sheet: B}]",
        ("a.csv", "b.xlsx"),
    ),
    "ods then semicolon csv": (
        lambda a, b: {"a.ods": ods([HEADER, *a], "A"), "b.csv": csv_text([HEADER, *b], ";")},
        "[data/a.ods:A, data/b.csv]",
        ("a.ods", "b.csv"),
    ),
    "csv then a yaml list": (
        lambda a, b: {"a.csv": csv_text([HEADER, *a]), "b.yaml": yaml_cards(b)},
        "[data/a.csv, data/b.yaml]",
        ("a.csv", "b.yaml"),
    ),
    "a json list then a yaml list": (
        lambda a, b: {"a.json": json.dumps(cards(a), indent=2), "b.yaml": yaml_cards(b)},
        "[data/a.json, data/b.yaml]",
        ("a.json", "b.yaml"),
    ),
}

DECK = """id: heroes
kind: cards
name: Hero cards
size: poker
front: hero
back: sample-back
defaults:
  colour: ember
cards_from: {ref}
"""


def with_sheets(root: Path, files: dict, ref: str) -> Path:
    game = root / "content" / "sample"
    (game / "data").mkdir(exist_ok=True)
    for name, data in files.items():
        (game / "data" / name).write_bytes(data.encode() if isinstance(data, str) else data)
    (game / "decks" / "heroes.yaml").write_text(DECK.format(ref=ref))
    return root


@pytest.mark.parametrize("mix", fast_once(MIXES))
def test_a_deck_from_several_sheets_prints_as_the_same_cards_in_yaml(project, mix):
    make, ref, _ = MIXES[mix]
    yaml_root = project("basic")
    assert run_cli("build", "--out", "out", "--strict", cwd=yaml_root).exit_code == 0
    root = with_sheets(_copy(yaml_root), make([ASH], [TIDE]), ref)
    # --strict: the rules checker's count of the deck (11: 5 ember + 6 sea) holds across both files
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 0, result.output
    assert (root / "out/sample/heroes.pdf").read_bytes() == (yaml_root / "out/sample/heroes.pdf").read_bytes()


@pytest.mark.parametrize("mix", MIXES)
def test_the_rules_checker_counts_the_whole_deck(project, mix):
    make, ref, _ = MIXES[mix]
    tide = [TIDE[0], 4, *TIDE[2:]]  # 4 sea cards in the second file, where the facts say 6
    root = with_sheets(project("basic"), make([ASH], [tide]), ref)
    result = run_cli("check", cwd=root)
    assert "total pieces (expected 11, found 9)" in result.output, result.output  # 5 + 4: both files
    assert "pieces with colour sea (expected 6, found 4)" in result.output
    assert "pieces with colour ember" not in result.output  # the first file's 5 are counted too
    strict = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert strict.exit_code == 1, strict.output
    assert "total pieces (expected 11, found 9)" in strict.output


@pytest.mark.parametrize("mix", MIXES)
@pytest.mark.parametrize("second", [False, True])
def test_each_card_keeps_its_own_file_and_cell(project, mix, second):
    make, ref, names = MIXES[mix]
    bad = [ASH[0], "five", *ASH[2:]]
    rows = ([ASH], [bad]) if second else ([bad], [TIDE])
    root = with_sheets(project("basic"), make(*rows), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    name = names[1] if second else names[0]
    sheet = {"market.xlsx": "Events" if second else "Market", "b.xlsx": "B", "a.ods": "A"}.get(name)
    if name.endswith(".yaml"):
        expected = f"content/sample/data/{name}:2:10: error: 'count'"  # the value on its `count:` line
    elif name.endswith(".json"):
        expected = f"content/sample/data/{name}:4:14: error: 'count'"  # the value, below `[`, `{` and "name"
    elif sheet:
        expected = f"content/sample/data/{name}:{sheet}!B2: error: 'count'"
    else:
        expected = f"content/sample/data/{name}:2:2: error: 'count'"
    assert expected in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("mix", fast_once(MIXES))
@pytest.mark.parametrize("which", [0, 1])
def test_a_change_in_any_of_the_files_rebuilds_the_deck(project, mix, which):
    make, ref, names = MIXES[mix]
    root = with_sheets(project("basic"), make([ASH], [TIDE]), ref)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    assert "up to date" in run_cli("build", "--out", "out", cwd=root).output
    renamed = [[ASH[0] + " II", *ASH[1:]]], [[TIDE[0] + " II", *TIDE[1:]]]
    path = root / "content/sample/data" / names[which]
    data = make(*renamed)[names[which]]
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    result = run_cli("build", "--out", "out", cwd=root)
    assert "(2 rendered, 1 up to date)" in result.output, result.output  # the deck and print-all


@pytest.mark.parametrize(
    "ref, message",
    [
        ("[]", "'cards_from' must name at least one data sheet"),
        ("[data/a.csv, 42]", "must be a file such as data/cards.csv"),
        ("[data/a.csv, {file: data/a.csv, sheet: 3}]", "'sheet' must be a sheet's name"),
        ("[data/a.csv, data/b.csv]", "data sheet 'data/b.csv' not found"),
        ("[data/a.csv, data/a.csv:X]", "a CSV file has no sheets (got sheet 'X')"),
        ("[data/a.csv, data/w.xlsx:Nope]", "has no sheet 'Nope'"),
        ("[data/a.csv, data/l.yaml]", "a YAML card file is a list of cards"),
        ("[data/a.csv, data/l.yaml:S]", "a YAML file has no sheets"),
        ("[data/a.csv, data/a.csv]", "card id 'ash' is used twice (first at line 2)"),
        (
            "[data/a.csv, data/w.xlsx:W]",
            "card id 'ash' is used twice (first at content/sample/data/a.csv:2:1)",
        ),
    ],
)
def test_a_bad_list_of_sheets_is_an_error_at_its_place(project, ref, message):
    files = {
        "a.csv": "id,name,count\nash,Ash,1\n",
        "w.xlsx": workbook({"W": [["id", "name", "count"], ["ash", "Ash", 1]]}),
        "l.yaml": "name: not a list\n",
    }
    root = with_sheets(project("basic"), files, ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert "content/sample/decks/heroes.yaml:" in result.output or "content/sample/data/" in result.output
    assert "Traceback" not in result.output


LISTED = "# more heroes\n- name: Ash   # first\n  cost: 2\n- {name: Tide, cost: 3, text: 'Wave'}\n"


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_a_yaml_list_of_cards_is_edited_in_place_like_a_deck(tmp_path, nl):
    from pnpgen.edit import set_card_field

    path = tmp_path / "more.yaml"
    path.write_bytes(LISTED.replace("\n", nl).encode())
    set_card_field(path, "Ash", "cost", 4)
    set_card_field(path, 1, "text", "Big wave")
    expected = LISTED.replace("cost: 2", "cost: 4").replace("'Wave'", "'Big wave'")
    assert path.read_bytes() == expected.replace("\n", nl).encode()
    result = run_cli("edit", path, "Tide", "cost=5")
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == expected.replace("cost: 3", "cost: 5").replace("\n", nl).encode()


@pytest.mark.parametrize(
    "declared, message", [({"cost": "int"}, ""), ({"cots": "int"}, "none of the sheets")]
)
def test_columns_are_declared_for_the_deck_each_in_one_sheet_at_least(project, declared, message):
    files = {
        "a.csv": csv_text([HEADER, ASH]),
        "b.csv": csv_text([[*HEADER, "cost"], [*TIDE, "three"]]),  # `cost` only here, and not a number
        "c.yaml": yaml_cards([TIDE]),
    }
    root = with_sheets(project("basic"), files, "[data/a.csv, data/b.csv, data/c.yaml]")
    deck = root / "content/sample/decks/heroes.yaml"
    deck.write_text(
        deck.read_text() + f"columns: {{{', '.join(f'{k}: {v}' for k, v in declared.items())}}}\n"
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    if message:
        assert (
            "content/sample/decks/heroes.yaml:10:10: error: 'columns' declares 'cots', which none of the sheets'"
            in result.output
        ), result.output
        assert "a sheet's header names 'cost': correct whichever of the two is misspelt" in result.output
    else:  # declared once for the deck, applied to the sheet that has the column
        assert "content/sample/data/b.csv:2:5: error: 'cost' must be a whole number" in result.output, (
            result.output
        )
        assert "declares" not in result.output
