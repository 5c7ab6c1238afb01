"""Card data from spreadsheets: CSV, XLSX and ODS give the same PDF as the same cards in YAML, byte for byte;
every problem names its cell; a sheet is an input like any other file."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
import yaml
from conftest import fast_once, run_cli

from pnpgen.sheetkinds import KINDS, kind_of

HEADER = ["name", "count", "colour", "text"]
ROWS = [
    ["Ash Walker", 5, "", "Spend :drop: to move **two** spaces. *Once per turn.*"],
    ["Tide Caller", 6, "sea", "Gain :drop::drop: when a neighbour plays water."],
]


def xlsx(rows: list[list], sheet: str = "Heroes") -> bytes:
    """A minimal XLSX workbook (inline strings, numbers as numbers)."""

    def cell(ref, value):
        if value == "":
            return ""
        if isinstance(value, (int, float)):
            return f'<c r="{ref}"><v>{value}</v></c>'
        return f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'

    body = "".join(
        f'<row r="{r}">' + "".join(cell(f"{chr(65 + c)}{r}", v) for c, v in enumerate(row)) + "</row>"
        for r, row in enumerate(rows, 1)
    )
    ns = "http://schemas.openxmlformats.org"
    files = {
        "[Content_Types].xml": f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{ns}/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{ns}/package/2006/relationships"><Relationship Id="rId1" '
        f'Type="{ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{ns}/spreadsheetml/2006/main" xmlns:r="{ns}/officeDocument/2006/'
        f'relationships"><sheets><sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{ns}/package/2006/relationships"><Relationship '
        f'Id="rId1" Type="{ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        "</Relationships>",
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{ns}/spreadsheetml/2006/main"><sheetData>{body}'
        "</sheetData></worksheet>",
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return out.getvalue()


def ods(rows: list[list], sheet: str = "Heroes") -> bytes:
    """A minimal ODS spreadsheet."""

    def cell(value):
        if value == "":
            return "<table:table-cell/>"
        if isinstance(value, (int, float)):
            return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'

    body = "".join("<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows)
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
        f'<office:spreadsheet><table:table table:name="{sheet}">{body}</table:table></office:spreadsheet>'
        "</office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
        'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("META-INF/manifest.xml", manifest)
        zf.writestr("content.xml", content)
    return out.getvalue()


def csv_text(rows: list[list], sep: str = ",") -> str:
    def field(v):
        text = str(v)
        return f'"{text}"' if sep in text or '"' in text else text

    return "\n".join(sep.join(field(v) for v in row) for row in rows) + "\n"


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


def with_sheet(root: Path, name: str, data: bytes | str, ref: str) -> Path:
    game = root / "content" / "sample"
    (game / "data").mkdir(exist_ok=True)
    target = game / "data" / name
    target.write_bytes(data.encode() if isinstance(data, str) else data)
    (game / "decks" / "heroes.yaml").write_text(DECK.format(ref=ref))
    return root


def cards(rows: list[list]) -> list[dict]:
    """The rows as cards (an empty cell left out, as in a sheet)."""
    return [{k: v for k, v in zip(HEADER, row, strict=True) if v != ""} for row in rows]


# One case of each kind of file `cards_from` reads (`pnpgen.sheetkinds.KINDS`: a new kind fails the test after
# this one until it has one here), and a CSV file of another delimiter.
EVERY_KIND = [
    ("heroes.csv", lambda: csv_text([HEADER, *ROWS]), "data/heroes.csv"),
    (
        "heroes-semicolons.csv",
        lambda: "\ufeff" + csv_text([HEADER, *ROWS], ";"),
        "data/heroes-semicolons.csv",
    ),
    ("heroes.xlsx", lambda: xlsx([HEADER, *ROWS]), "{file: data/heroes.xlsx, sheet: Heroes}"),
    ("heroes.ods", lambda: ods([HEADER, *ROWS]), "{file: data/heroes.ods, sheet: Heroes}"),
    ("heroes.yml", lambda: yaml.safe_dump(cards(ROWS), sort_keys=False), "data/heroes.yml"),
    ("heroes.json", lambda: json.dumps(cards(ROWS), indent="\t"), "data/heroes.json"),
]


def test_every_kind_of_sheet_has_a_case():
    covered = {kind_of(name).name for name, _, _ in EVERY_KIND}
    assert covered == {k.name for k in KINDS}, "add a case of the new kind of sheet to EVERY_KIND"


@pytest.mark.parametrize("name, make, ref", fast_once(EVERY_KIND))
def test_a_sheet_gives_the_same_pdf_as_the_same_cards_in_yaml(project, name, make, ref):
    yaml_root = project("basic")
    assert run_cli("build", "--out", "out", "--strict", cwd=yaml_root).exit_code == 0
    sheet_root = with_sheet(_copy(yaml_root), name, make(), ref)
    result = run_cli("build", "--out", "out", "--strict", cwd=sheet_root)
    assert result.exit_code == 0, result.output
    for pdf in ("heroes.pdf", "minis.pdf"):
        assert (sheet_root / "out" / "sample" / pdf).read_bytes() == (
            yaml_root / "out" / "sample" / pdf
        ).read_bytes()


def _copy(root: Path) -> Path:
    import shutil

    dest = root.parent / (root.name + "-sheet")
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns("out"))
    return dest


@pytest.mark.parametrize(
    "name, make, ref, where",
    [
        ("h.csv", lambda rows: csv_text(rows), "data/h.csv", "content/sample/data/h.csv:3:2"),
        (
            "h.xlsx",
            lambda rows: xlsx(rows),
            "{file: data/h.xlsx, sheet: Heroes}",
            "content/sample/data/h.xlsx:Heroes!B3",
        ),
        (
            "h.ods",
            lambda rows: ods(rows),
            "{file: data/h.ods, sheet: Heroes}",
            "content/sample/data/h.ods:Heroes!B3",
        ),
    ],
)
def test_a_bad_cell_is_named_by_its_place_in_the_sheet(project, name, make, ref, where):
    rows = [HEADER, ROWS[0], ["Tide Caller", "three", "sea", "x"]]
    root = with_sheet(project("basic"), name, make(rows), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert f"{where}: error: 'count' must be a whole number" in result.output, result.output


def test_sheet_problems_are_located(project):
    base = project("basic")
    root = with_sheet(base, "h.csv", "name,count,name\nA,1,B\n", "data/h.csv")
    result = run_cli("build", "--out", "out", cwd=root)
    assert (
        "content/sample/data/h.csv:1:3: error: column 'name' is named twice (also column 1)" in result.output
    )
    root = with_sheet(base, "h.xlsx", xlsx([HEADER, *ROWS]), "{file: data/h.xlsx, sheet: Heros}")
    result = run_cli("build", "--out", "out", cwd=root)
    assert "error: 'content/sample/data/h.xlsx' has no sheet 'Heros'" in result.output
    assert "did you mean 'Heroes'?" in result.output
    root = with_sheet(base, "h.xlsx", b"PK\x03\x04 not really a zip", "{file: data/h.xlsx}")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "error: 'content/sample/data/h.xlsx' is not a readable workbook (a damaged zip file)" in result.output
    )
    root = with_sheet(base, "h.csv", "x", "../../../outside.csv")
    result = run_cli("build", "--out", "out", cwd=root)
    assert "error: data sheet '../../../outside.csv' leaves the game folder; refused" in result.output


@pytest.mark.parametrize(
    ("sep", "cell", "said"),
    [
        (",", "2,5", "(got '2,5': write a decimal point, 2.5)"),  # a comma CSV: `1,500` may be a thousand
        ("\t", "-10,25", "(got '-10,25': write a decimal point, -10.25)"),
        (";", "2,5,1", "(got '2,5,1')"),  # no decimal comma: nothing offered
        (";", "deux", "(got 'deux')"),
    ],
)
def test_a_cell_not_read_as_a_number_in_a_number_column_says_why(project, sep, cell, said):
    """A decimal comma is read only where the delimiter leaves no doubt (`;`: below); elsewhere the number column
    asks for `2.5` at the cell."""
    sheet = csv_text([["name", "count", "weight"], ["A", 1, cell]], sep)
    root = with_sheet(project("basic"), "h.csv", sheet, "data/h.csv")
    deck = root / "content/sample/decks/heroes.yaml"
    deck.write_text(deck.read_text() + "columns: {weight: number}\n")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert f"content/sample/data/h.csv:2:3: error: 'weight' must be a number {said}\n" in result.output


WEIGHTS = {"": "1,5", "number": "1,5", "list": "1,5|0,25"}


@pytest.mark.parametrize("declared", list(WEIGHTS))
def test_a_decimal_comma_in_a_semicolon_csv_is_a_number_printed_as_written(project, declared):
    """Excel, Numbers and LibreOffice in German or French save a CSV separated by ';' with decimal commas
    (`1,5`). Such a cell is the number wherever a number is used: in a template's arithmetic, in a declared
    `number` column or list, in the facts' comparisons; and it prints as the sheet writes it, `1,5`, not
    `1.5`. Measured in the PDF's text."""
    import pdfplumber

    rows = [["name", "count", "colour", "text", "weight"], ["Ash Walker", 5, "ember", "a", WEIGHTS[declared]]]
    rows.append(["Tide Caller", 6, "sea", "b", "2,0"])
    root = with_sheet(project("basic"), "h.csv", "\ufeff" + csv_text(rows, ";"), "data/h.csv")
    game = root / "content/sample"
    deck = game / "decks/heroes.yaml"
    if declared:
        spec = "number" if declared == "number" else '{list: "|"}'
        deck.write_text(deck.read_text() + f"columns: {{weight: {spec}}}\n")
    weight = "card.weight[0]" if declared == "list" else "card.weight"
    hero = game / "layouts/hero.yaml"
    hero.write_text(
        hero.read_text()
        + f"""  - type: text
    x: 5
    y: 40
    w: "{{{{ w - 10 }}}}"
    h: 8
    text: "Gewicht {{{{ {weight} }}}}, doppelt {{{{ {weight} * 4 }}}}"
    size: 10
    when: "card.weight is defined"
"""
    )
    facts = game / "facts.yaml"
    facts.write_text(
        facts.read_text().replace(
            "facts:\n",
            "facts:\n  - id: heavy\n    component: heroes\n    value: \"pieces('heroes') | map(attribute='weight')"
            + (" | map('first')" if declared == "list" else "")
            + ' | sum"\n    equals: 3.5\n',
            1,
        )
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out/sample/heroes.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "Gewicht 1,5, doppelt 6.0" in text, text
    assert "Gewicht 2,0, doppelt 8.0" in text, text


def test_yaml_cards_and_sheet_rows_combine_and_a_card_may_choose_its_front(project):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "data").mkdir()
    (game / "data" / "more.csv").write_text(
        "name,count,text,front\nSea Witch,2,Calls the tide.,sample-back\n"
    )
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text() + "cards_from: data/more.csv\n")
    facts = game / "facts.yaml"
    facts.write_text(
        facts.read_text()
        .replace("total: 11", "total: 13")
        .replace("{ember: 5, sea: 6}", "{ember: 7, sea: 6}")
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    listed = run_cli("list", "--format", "json", cwd=root).output
    assert '"faces": 13' in listed


def test_editing_a_cell_rebuilds_exactly_the_deck_that_uses_the_sheet(project):
    root = with_sheet(project("basic"), "h.csv", csv_text([HEADER, *ROWS]), "data/h.csv")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    sheet = root / "content" / "sample" / "data" / "h.csv"
    sheet.write_text(sheet.read_text().replace("Tide Caller", "Tide Singer"))
    result = run_cli("build", "--out", "out", cwd=root)
    assert "(2 rendered, 1 up to date)" in result.output, result.output  # the deck and print-all
