"""Files a Windows program saved in its own "ANSI" code page (Windows-1252: Excel's plain "CSV", older Notepad):
every kind of text file is refused at the byte's line and column (counted in characters), naming what the byte
is in Windows-1252 and how to save the file as UTF-8, once, and the last good output stays."""

from __future__ import annotations

import shutil

import pytest
from conftest import run_cli

from pnpgen.errors import ContentError, not_utf8, utf8_fault

SAVE_CSV = (
    "  save it as UTF-8: in Excel, Save As 'CSV UTF-8 (Comma delimited)'; in Numbers, Export To CSV with Text "
    "Encoding 'Unicode (UTF-8)'"
)
SAVE_TEXT = "  save it as UTF-8: in Notepad, Save As with encoding 'UTF-8'"

CSV_DECK = (
    "id: heroes\nkind: cards\nsize: poker\nfront: hero\nback: sample-back\ncards_from: data/heroes.csv\n"
)


def _csv(root) -> str:
    (root / "content/sample/decks/heroes.yaml").write_text(CSV_DECK)
    (root / "content/sample/data").mkdir()
    (root / "content/sample/data/heroes.csv").write_bytes(
        "name,count,text\nAsh,1,x\nCrème,2,y\n".encode("cp1252")
    )
    return "content/sample/data/heroes.csv:3:3: error: data sheet is not UTF-8 text (byte 0xe8, 'è' in Windows-1252)"


def _csv_mac(root) -> str:
    """Older Mac programs (Excel for Mac's plain "CSV") save in Mac OS Roman: the byte is told as what it is there."""
    (root / "content/sample/decks/heroes.yaml").write_text(CSV_DECK)
    (root / "content/sample/data").mkdir()
    (root / "content/sample/data/heroes.csv").write_bytes(
        "name,count,text\nAsh,1,x\nMühle,2,Größe\n".encode("mac_roman")
    )
    return "content/sample/data/heroes.csv:3:2: error: data sheet is not UTF-8 text (byte 0x9f, 'ü' in Mac OS Roman)"


def _yaml(root) -> str:
    path = root / "content/sample/decks/minis.yaml"
    path.write_bytes(path.read_bytes().replace(b"\n", "\n# déjà vu\n".encode("cp1252"), 1))
    return "content/sample/decks/minis.yaml:2:4: error: component file is not UTF-8 text (byte 0xe9, 'é' in Windows-1252)"


def _rulebook(root) -> str:
    (root / "content/sample/rulebook.md").write_bytes("# Sample\n\nLe château.\n".encode("cp1252"))
    return "content/sample/rulebook.md:3:6: error: rulebook source is not UTF-8 text (byte 0xe2, 'â' in Windows-1252)"


def _svg_art(root) -> str:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<title>Tour à créneaux</title>\n</svg>'
    )
    (root / "content/sample/art/tour.svg").write_bytes(svg.encode("cp1252"))
    hero = root / "content/sample/layouts/hero.yaml"
    hero.write_text(hero.read_text() + "  - {type: image, src: tour.svg, x: 5, y: 20, w: 10, h: 10}\n")
    return "art/tour.svg:2 is not UTF-8 text (byte 0xe0, 'à' in Windows-1252): save it as UTF-8"


def _svg_icon(root) -> str:
    game = root / "content/sample/game.yaml"
    game.write_text(game.read_text().replace("icons: icons.yaml", "icons: {file: icons.yaml, svg: icons/}"))
    (root / "content/sample/icons").mkdir()
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<!-- épée -->\n<path d="M1 1 L9 9"/></svg>'
    (root / "content/sample/icons/sword.svg").write_bytes(svg.encode("cp1252"))
    return "content/sample/icons/sword.svg:2:6: error: icon 'sword' is not UTF-8 text (byte 0xe9, 'é' in Windows-1252)"


CASES = {"csv": (_csv, SAVE_CSV), "csv-mac": (_csv_mac, SAVE_CSV), "yaml": (_yaml, SAVE_TEXT)}
CASES |= {"rulebook": (_rulebook, SAVE_TEXT)}
CASES |= {"svg-art": (_svg_art, ""), "svg-icon": (_svg_icon, "")}


@pytest.mark.parametrize("kind", list(CASES))
def test_a_windows_1252_file_is_refused_once_with_how_to_save_it(kind, project, basic_out):
    root = project("basic")
    shutil.copytree(basic_out, root / "out")
    good = {p: p.read_bytes() for p in (root / "out").rglob("*") if p.is_file()}
    write, hint = CASES[kind]
    expected = write(root)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert hint in result.output
    told = [line for line in result.output.splitlines() if "not UTF-8" in line]
    assert len(told) == (2 if kind == "svg-art" else 1), result.output  # once (per deck drawing the art)
    assert "rules check" not in result.output  # the check does not tell a file's own problem again
    assert "Traceback" not in result.output
    assert {p: p.read_bytes() for p in (root / "out").rglob("*") if p.is_file()} == good


@pytest.mark.parametrize(
    ("raw", "line", "col"),
    [
        (b"a\r\nb\r\ncr\xe8me", 3, 3),  # CRLF: Windows' line ends
        (b"a\rb\rcr\xe8me", 3, 3),  # a lone CR: old Mac line ends, lines as `plain_text` counts them
        (b"\xef\xbb\xbfcr\xe8me", 1, 3),  # a byte order mark is no column
        ("Château;".encode() + b"cr\xe8me", 1, 11),  # columns in characters, not bytes
    ],
)
def test_the_byte_is_placed_as_an_editor_places_it(raw, line, col):
    start = raw.index(b"\xe8")
    assert utf8_fault(raw, start) == (line, col, "byte 0xe8, 'è' in Windows-1252")


def test_utf16_and_binary_are_not_glossed_as_windows_1252():
    assert utf8_fault("id: g\n".encode("utf-16"), 0)[2] == "byte 0xff: the file is UTF-16"
    assert utf8_fault(b"\x00\xff\x00", 1)[2] == "byte 0xff"  # binary data: no letter to show
    err = not_utf8(b"a\xe9", 1, "data/x.csv", "data sheet is not UTF-8 text")
    assert isinstance(err, ContentError) and "CSV UTF-8" in err.diagnostics.items[0].hint


@pytest.mark.parametrize(
    ("text", "code", "said"),
    [
        ("Mühle, Größe, Ärger", "cp1252", "byte 0xfc, 'ü' in Windows-1252"),
        ("Mühle, Größe, Ärger", "mac_roman", "byte 0x9f, 'ü' in Mac OS Roman"),
        ("Crème brûlée", "cp1252", "byte 0xe8, 'è' in Windows-1252"),
        ("Crème brûlée", "mac_roman", "byte 0x8f, 'è' in Mac OS Roman"),
        ("Épée", "cp1252", "byte 0xc9, 'É' in Windows-1252"),  # a tie: Windows-1252, the likelier
    ],
)
def test_the_byte_is_read_in_the_code_page_that_makes_letters_of_the_file(text, code, said):
    """A file saved on Windows reads as Windows-1252, one saved by an older Mac program as Mac OS Roman: the
    message shows the letter the designer typed, from whichever reads more of the file's bytes as letters."""
    raw = text.encode(code)
    start = next(i for i, b in enumerate(raw) if b > 0x7F)
    assert utf8_fault(raw, start)[2] == said
