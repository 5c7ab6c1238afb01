"""Text files as Windows saves them (issue 26): CRLF line endings and a UTF-8 byte order mark in YAML, CSV,
Markdown and SVG build the very same PDFs, byte for byte, as LF without a mark; and a message about such a file
still names the right line and column."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, fast_once, run_cli

from pnpgen.source import load_file
from pnpgen.textfiles import plain_text

TEXT = (".yaml", ".yml", ".csv", ".md", ".svg")
BOM = b"\xef\xbb\xbf"

RULEBOOK = """\
# Sample rules

A short game for testing, with a paragraph
that runs over two lines and **bold** text.

- Each player takes {{ 2 + 3 }} cards.
- The youngest player starts.

## Winning

The first to play every card wins.
"""

SHEET = 'name,count,text\nAsh Walker,5,"Spend :drop: to move.\nOnce per turn."\nTide Caller,6,Gain :drop:.\n'

DECK = """id: heroes
kind: cards
name: Hero cards
size: poker
front: hero
back: sample-back
defaults:
  colour: ember
cards_from: data/heroes.csv
"""

PLATE = """\
elements:
  - {type: rect, area: bleed, fill: white}
  - {type: image, src: bands.svg, x: 5, y: 5, w: 20, h: 20, fit: contain}
  - {type: icon, name: crossed-swords, x: 5, y: 28, size: 15, color: "#ff0000"}
  - {type: text, x: 45, y: 30, w: 50, h: 10, text: "Fight :crossed-swords: now", size: 12}
"""


def windows_copy(src: Path, dst: Path, kinds: tuple[str, ...] = TEXT) -> int:
    """Copy `src` to `dst` with every text file of `kinds` saved as Windows does: CRLF and a byte order mark."""
    shutil.copytree(src, dst)
    done = 0
    for path in dst.rglob("*"):
        if path.is_file() and path.suffix in kinds:
            data = path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            path.write_bytes(BOM + data)
            done += 1
    return done


def pdfs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def assert_same_pdfs(lf: Path, crlf: Path) -> None:
    a, b = pdfs(lf), pdfs(crlf)
    assert a and sorted(a) == sorted(b)
    differ = [name for name in a if a[name] != b[name]]
    assert not differ, f"these PDFs differ with CRLF and a BOM: {differ}"


@pytest.fixture(scope="module")
def rich(tmp_path_factory) -> Path:
    """The basic game with a rulebook (Markdown), a deck from a CSV sheet (a cell over two lines), SVG art and an
    SVG icon on a board, built once (LF, no BOM)."""
    root = tmp_path_factory.mktemp("rich") / "lf"
    shutil.copytree(FIXTURES / "basic", root)
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text(RULEBOOK, encoding="utf-8")
    (game / "data").mkdir()
    (game / "data" / "heroes.csv").write_text(SHEET, encoding="utf-8")
    (game / "decks" / "heroes.yaml").write_text(DECK, encoding="utf-8")
    (game / "art" / "bands.svg").write_bytes((FIXTURES / "svg" / "bands.svg").read_bytes())
    (game / "icons").mkdir()
    (game / "icons" / "crossed-swords.svg").write_bytes(
        (FIXTURES / "svg" / "crossed-swords.svg").read_bytes()
    )
    text = (
        (game / "game.yaml")
        .read_text()
        .replace("icons: icons.yaml", "icons: {file: icons.yaml, svg: icons/}")
    )
    (game / "game.yaml").write_text(text + "  - decks/plate.yaml\n")
    (game / "decks" / "plate.yaml").write_text(
        "id: plate\nkind: board\nsize: 100mm x 50mm\nbleed: 3mm\nsides:\n  - {id: a, layout: plate}\n"
    )
    (game / "layouts" / "plate.yaml").write_text(PLATE)
    result = run_cli("build", "--content", root / "content", "--out", root / "out", "--no-check")
    assert result.exit_code == 0, result.output
    assert {"heroes.pdf", "plate.pdf", "rulebook.pdf"} <= {
        p.name for p in (root / "out" / "sample").iterdir()
    }
    return root


@pytest.mark.parametrize("kind", fast_once([".yaml", ".csv", ".md", ".svg"]))
def test_a_file_saved_with_crlf_and_a_bom_builds_the_same_pdfs(rich, tmp_path, kind):
    copy = tmp_path / "crlf"
    assert windows_copy(rich, copy, (kind,)) > 0
    shutil.rmtree(copy / "out")
    result = run_cli("build", "--content", copy / "content", "--out", copy / "out", "--no-check")
    assert result.exit_code == 0, result.output
    assert_same_pdfs(rich / "out", copy / "out")


def test_a_printers_file_with_crlf_and_a_bom_reads_the_same(tmp_path):
    text = "office:\n  back_offset: 1.5,-0.5  # X,Y in mm\n  paper: a4\n"
    (tmp_path / "lf.yaml").write_bytes(text.encode())
    (tmp_path / "crlf.yaml").write_bytes(BOM + text.replace("\n", "\r\n").encode())
    lf, crlf = load_file(tmp_path / "lf.yaml", "lf.yaml"), load_file(tmp_path / "crlf.yaml", "crlf.yaml")
    assert lf == crlf and crlf.key_loc("office") == lf.key_loc("office").__class__("crlf.yaml", 1, 1)


def test_plain_text_drops_one_bom_and_makes_every_line_ending_lf():
    assert plain_text("\ufeffa\r\nb\rc\nd\r\n") == "a\nb\nc\nd\n"
    assert plain_text("\ufeff\ufeffa") == "\ufeffa"  # only the mark a file starts with
    assert plain_text("no change\n") == "no change\n"


@pytest.mark.parametrize(
    "target, body, expect",
    [
        (
            "content/sample/decks/heroes.yaml",
            "id: heroes\nkind: cards\nsize: poker\nfront: hero\nback: sample-back\ncards:\n"
            "  - name: Ash Walker\n    count: -1\n",
            "content/sample/decks/heroes.yaml:8:12: error: 'count' must be from 0 to 10,000 (got -1)",
        ),
        (
            "content/sample/layouts/hero.yaml",
            "elements:\n  - type: rect\n    area: bleed\n    fill: rouge\n",
            "content/sample/layouts/hero.yaml:4:11: error: 'fill' is not a colour: 'rouge'",
        ),
        (
            "content/sample/decks/heroes.yaml",
            "id: heroes\nkind: cards\nsize: poker\nfront: hero\nbogus: 1\ncards:\n  - {name: A, count: 1}\n",
            "content/sample/decks/heroes.yaml:5:1: error:",
        ),
    ],
)
def test_a_message_about_a_crlf_file_names_the_same_line_and_column(project, target, body, expect):
    for form in ("lf", "crlf"):
        root = project("basic") if form == "lf" else project("duplex").parent / "basic-crlf"
        if form == "crlf":
            shutil.copytree(FIXTURES / "basic", root)
        data = body.encode() if form == "lf" else BOM + body.replace("\n", "\r\n").encode()
        (root / target).write_bytes(data)
        result = run_cli("build", "--content", root / "content", "--out", root / "out", cwd=root)
        assert result.exit_code == 1, result.output
        assert expect in result.output, (form, result.output)
        assert not (root / "out" / "sample").exists()


def test_a_sheet_cell_in_a_crlf_csv_is_named_by_its_line(project):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "data").mkdir()
    text = 'name,count,text\r\nA,1,"two\r\nlines"\r\nB,zero,x\r\n'
    (game / "data" / "heroes.csv").write_bytes(BOM + text.encode())
    (game / "decks" / "heroes.yaml").write_text(DECK)
    result = run_cli("build", "--content", root / "content", "--out", root / "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert "content/sample/data/heroes.csv:4:2: error:" in result.output, result.output


@pytest.mark.slow
def test_the_shipped_games_saved_with_crlf_and_a_bom_build_the_same_pdfs(shipped_build, tmp_path):
    """Every text file of content/ and layouts/ made CRLF with a BOM: the five games' PDFs are byte-identical."""
    copy = tmp_path / "project"
    copy.mkdir()
    converted = windows_copy(ROOT / "content", copy / "content") + windows_copy(
        ROOT / "layouts", copy / "layouts"
    )
    assert converted > 100
    result = run_cli("build", "--content", copy / "content", "--out", copy / "out", "--strict")
    assert result.exit_code == 0, result.output
    assert_same_pdfs(shipped_build, copy / "out")


def test_a_crlf_sheet_gives_the_same_cells(tmp_path):
    """A cell over two lines keeps a CR in it unless the reader makes line endings LF: a card name or text with
    a CR in it would reach exports and the manifest (csv keeps a quoted cell's line ending as it is)."""
    from pnpgen.errors import Diagnostics, Location
    from pnpgen.inputs import Reader
    from pnpgen.schema.datasheets import load_rows

    rows = {}
    for form, data in (("lf", SHEET.encode()), ("crlf", BOM + SHEET.replace("\n", "\r\n").encode())):
        path = tmp_path / f"{form}.csv"
        path.write_bytes(data)
        got = load_rows(Reader([tmp_path], tmp_path), path, None, Location(path.name), {}, Diagnostics())
        rows[form] = [(dict(row), row.loc_of("name").line) for row in got]
    assert rows["lf"] == rows["crlf"]
    assert rows["crlf"][0][0]["text"] == "Spend :drop: to move.\nOnce per turn."
