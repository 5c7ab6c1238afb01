"""The words pnpgen prints itself (`pnpgen.words`), in the game's language: every key a game overrides reaches
the PDFs that print it, and none of the English defaults is left in the rulebook's or the sheets' text (read
back with pdfium); every built-in language gives every key; game.yaml's mistakes are located errors
(tests/broken/words-*.yaml, language-unknown.yaml)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, run_cli

from pnpgen.pipeline.printall import PrintDoc, Section, Sheet
from pnpgen.render.guide import draw_guide_page
from pnpgen.render.pdf import new_canvas
from pnpgen.render.printall import guide_lines
from pnpgen.text.fonts import missing_glyphs
from pnpgen.units import paper_pt
from pnpgen.words import ENGLISH, FONTS, LANGUAGES, Words, placeholders

ROOT_DOCS = Path(__file__).resolve().parent.parent / "docs" / "content-format.md"


def marker(i: int, key: str) -> str:
    """A text no English word holds, that keeps every placeholder of `key` (each shown once, in brackets)."""
    return f"Qz{i:02d}" + "".join(f"[{{{name}}}]" for name in dict.fromkeys(placeholders(ENGLISH[key])))


MARKERS = {key: marker(i, key) for i, key in enumerate(ENGLISH)}

GAME = """\
id: mots
title: Jeu
players: 2-4
print: {fold: true, checklist: true}
words:
"""

CARDS = """\
id: {id}
kind: cards
name: {name}
size: poker
front: basic-card
back: basic-back
cards:
{cards}"""

PIONS = (
    "id: pions\nkind: tokens\nname: Pions\nshape: circle\nsize: 10mm\nfront: piece-front\ntokens:\n"
    + "".join(f"  - {{name: P{i}, count: 1}}\n" for i in range(140))
)  # a checklist of two pages

ONE_SIDE = """\
id: plan
kind: board
name: Plan
size: 380mm x 150mm
sides:
  - {id: recto, name: Recto, layout: board-side, fields: {shape: square, cols: 4, rows: 4}}
data: {title: PLAN}
"""

DICE = "id: des\nkind: board\nname: Des\nsize: 150mm x 100mm\nsides:\n  - {id: face, name: Face, layout: dice-side}\n"
DICE_SIDE = "elements:\n  - {type: die-net, x: 5, y: 5, size: 8, die: d4, faces: [{}, {}, {}, {}]}\n"
SMALL = ONE_SIDE.replace("380mm x 150mm", "150mm x 100mm").replace("id: plan", "id: petit")
# games of one set each (a set alone shares no sheet: its own row on the print-and-build page), of what `mots`
# has not: one card, one token, one tile; square tokens (cut on cut marks); a board on one page, dice to fold
ALONE = {
    "seul": {
        "decks/carte.yaml": CARDS.format(id="carte", name="Carte", cards="  - {name: Delta, count: 1}\n"),
        "tiles/coins.yaml": None,
        "tiles/petit.yaml": SMALL,
    },
    "seul-tri": {"tiles/tri.yaml": None},  # and a game for one player, with a rulebook
    "seul-carres": {"tiles/squares.yaml": None, "tiles/des.yaml": DICE},
}
RULEBOOK = """\
# Jeu

## Matériel

{{ component_table() }}

{{ picture('paquet', 'b2') }}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The `pieces` fixture (hex and triangle tiles, round and square tokens, a two-sided board tiled over pages)
    with two card decks, a one-sided board and a rulebook, every key of `ENGLISH` overridden: its output."""
    root = tmp_path_factory.mktemp("words") / "mots"
    shutil.copytree(FIXTURES / "pieces", root)
    game = root / "content" / "mots"
    (root / "content" / "pieces").rename(game)
    board = (game / "tiles/board.yaml").read_text()
    board = board.replace("Test board", "Carte").replace("Front side", "Nord").replace("Back side", "Sud")
    (game / "tiles/board.yaml").write_text(board.replace("TEST BOARD", "CARTE"))
    for comp in ("hex", "tri", "coins", "squares"):  # names of their own: no English word of pnpgen's
        path = game / f"tiles/{comp}.yaml"
        path.write_text(path.read_text().replace(f"id: {comp}\n", f"id: {comp}\nname: Jeu {comp[:2]}\n"))
    (game / "decks").mkdir()
    two = (
        "  - {id: a1, name: Alpha, count: 10}\n  - {id: b2, name: Beta, count: 1}\n"  # a sheet, and two more
    )
    (game / "decks/paquet.yaml").write_text(CARDS.format(id="paquet", name="Paquet", cards=two))
    one = "  - {id: c3, name: Gamma, count: 1}\n"  # a checklist of one card (so one tile, one token)
    (game / "decks/pioche.yaml").write_text(CARDS.format(id="pioche", name="Pioche", cards=one))
    (game / "tiles/tri.yaml").write_text(
        (game / "tiles/tri.yaml")
        .read_text()
        .replace("count: 9", "count: 1")
        .replace("  - {name: T2, count: 8}\n", "")
    )
    (game / "tiles/coins.yaml").write_text(
        (game / "tiles/coins.yaml").read_text().replace("count: 30", "count: 1")
    )
    (game / "tiles/pions.yaml").write_text(PIONS)
    (game / "tiles/plan.yaml").write_text(ONE_SIDE)
    (game / "rulebook.md").write_text(RULEBOOK)
    words = "".join(f"  {key}: {value!r}\n" for key, value in MARKERS.items())
    parts = ["decks/paquet.yaml", "decks/pioche.yaml", "tiles/hex.yaml", "tiles/tri.yaml", "tiles/coins.yaml"]
    parts += ["tiles/squares.yaml", "tiles/board.yaml", "tiles/plan.yaml", "tiles/pions.yaml"]
    listed = "components:\n" + "".join(f"  - {p}\n" for p in parts)
    (game / "game.yaml").write_text(GAME + words + listed)
    shutil.move(game / "layouts", root / "layouts")  # shared by every game of the project
    (root / "layouts/dice-side.yaml").write_text(DICE_SIDE)
    for name, files in ALONE.items():
        for path, text in files.items():
            (root / "content" / name / path).parent.mkdir(parents=True, exist_ok=True)
            (root / "content" / name / path).write_text(
                text if text is not None else (game / path).read_text()
            )
        listed = "components:\n" + "".join(f"  - {p}\n" for p in files)
        head = GAME.replace("mots", name).replace("2-4", "1" if name == "seul-tri" else "2-4")
        (root / "content" / name / "game.yaml").write_text(head + words + listed)
    (root / "content/seul-tri/rulebook.md").write_text("# Seul\n\nUn joueur.\n")
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    return root / "out"


def texts(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range().replace("\r\n", " ") for i in range(len(doc))]
    finally:
        doc.close()


def players_text(out: Path) -> dict[str, str]:
    """Each PDF's text, by game/file."""
    return {f"{pdf.parent.name}/{pdf.name}": " ".join(texts(pdf)) for pdf in sorted(out.glob("*/*.pdf"))}


def guide_page(
    folder: Path, n: int, flip: str, paper: str, offset: tuple, low: bool, sheets: int, apart: int
):
    """The print-and-build page of a print-all form the game does not take (single-sided, Letter, a printer's
    offset, low ink, one sheet or a list too long for the page), in the game's words: its text."""
    sheet = Sheet(None, [], None, "x")
    sections = [
        Section("pieces", f"Ligne {k}", "couper", [sheet] * (sheets if k == 0 else 0)) for k in range(n)
    ]
    one = ("a-fold.pdf",) if low else ("a-fold.pdf", "b-fold.pdf")
    made = PrintDoc(
        "Jeu",
        paper,
        flip,
        offset,
        low,
        ("dés",),
        sections,
        apart,
        True,
        2,
        one,
        one,
        Words("en", tuple(MARKERS.items())),
    )
    path = folder / f"guide-{flip}-{n}-{sheets}-{apart}.pdf"
    pw, ph = paper_pt(paper)
    canvas = new_canvas(path, (pw, ph), "guide", "guide")
    draw_guide_page(canvas, made.title, guide_lines(made), pw, ph, made.words)  # as `write_print_all` does
    canvas.save()
    return " ".join(texts(path))


GUIDES = [  # (rows, flip, paper, offset, low ink, sheets, sheets printed apart)
    (1, "none", "letter", (2.0, 1.0, 0.5), True, 1, 2),
    (1, "short", "a4", (2.0, 0.0, 0.0), False, 2, 2),
    (1, "long", "a4", (0.0, 0.0, 0.0), False, 2, 3),
    (1, "long", "a4", (0.0, 0.0, 0.0), False, 1, 1),
    (70, "long", "a4", (0.0, 0.0, 0.0), False, 1, 1),
]


@pytest.fixture(scope="module")
def every(built, tmp_path_factory) -> dict[str, str]:
    """The game's PDFs' text (`players_text`), and the print-and-build pages of the forms it does not take."""
    folder = tmp_path_factory.mktemp("guides")
    return players_text(built) | {f"guide {i}": guide_page(folder, *args) for i, args in enumerate(GUIDES)}


# written by `pnpgen changes`, not a build: test_the_reprint_is_labelled_in_the_game_s_words
ELSEWHERE = {"reprint"}
# written by `pnpgen export tts`: tests/test_tts.py's test_the_saved_object_and_save_speak_the_game_s_language
ELSEWHERE |= {key for key in ENGLISH if key.startswith("tts_")}


@pytest.mark.parametrize("key", [k for k in ENGLISH if k not in ELSEWHERE])
def test_every_word_a_game_gives_is_printed(every, key):
    """Each key's own text, its placeholders filled, is in the PDFs a player holds."""
    shown = re.escape(f"Qz{list(ENGLISH).index(key):02d}") + r"(\[[^\]]+\])*"
    found = [name for name, text in every.items() if re.search(shown, text)]
    assert found, f"'{key}' ({MARKERS[key]!r}) is printed in none of {sorted(every)}"
    for match in re.finditer(shown, " ".join(every.values())):
        assert "{" not in match.group(0)  # every placeholder filled


# every writer that prints a name and what follows it (a picture's caption, a tiled board's map page, a checklist's
# heading and its loose pages, a shared sheet's label) joins them with the game's `colon`
JOINED = ["mots/rulebook.pdf", "mots/board.pdf", "mots/paquet-checklist.pdf", "mots/pions-checklist.pdf"]


@pytest.mark.parametrize("pdf", [*JOINED, "mots/print-all.pdf"])
def test_every_name_and_what_follows_it_are_joined_in_the_game_s_words(built, pdf):
    text = " ".join(texts(built / pdf))
    colon = re.escape(f"Qz{list(ENGLISH).index('colon'):02d}")
    joins = re.findall(colon + r"\[([^\]]*)\]\[([^\]]*)\]", text)
    assert joins, text[:300]
    if pdf == "mots/print-all.pdf":  # its shared sheets' labels: the sheet, and whose pieces it holds
        assert any(before.startswith("Qz") and after for before, after in joins)
    assert not re.search(r"[A-Za-z\]]: ", text.replace("Qz", ""))  # no join left in English


def english_phrases() -> list[str]:
    """Every run of words of the English defaults between placeholders, of a word of four letters or more."""
    out = set()
    for text in ENGLISH.values():
        for part in re.split(r"\{\w+\}", text.replace("\n", " ")):
            part = part.strip(" ,.:·()-×")
            if re.search(r"[A-Za-z]{4,}", part):
                out.add(part)
    return sorted(out)


@pytest.mark.parametrize("phrase", english_phrases())
def test_no_english_default_is_left(every, phrase):
    pattern = re.compile(r"(?<![A-Za-z])" + re.escape(phrase) + r"(?![A-Za-z])")
    assert not [name for name, text in every.items() if pattern.search(text)]


def test_the_sheets_the_game_has_are_all_read(built):
    """The sweep reads what it means to: the rulebook, the decks' sheets, fold-overs and checklists (one of two
    pages), the tiled boards, the print-all files of every game."""
    names = set(players_text(built))
    mots = {
        "rulebook",
        "print-all",
        "paquet",
        "paquet-fold",
        "board",
        "coins",
        "paquet-checklist",
        "pions-checklist",
    }
    assert {f"mots/{n}.pdf" for n in mots} | {f"{game}/print-all.pdf" for game in ALONE} <= names
    assert len(texts(built / "mots/pions-checklist.pdf")) == 2


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_language_gives_every_key_with_its_placeholders(language):
    table = LANGUAGES[language]
    assert set(table) == set(ENGLISH)
    for key, text in table.items():
        assert set(placeholders(text)) == set(placeholders(ENGLISH[key])), (language, key)
        assert Words(language)(key, **{n: "1" for n in placeholders(text)})


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_size_is_written_with_the_times_sign(language):
    """A size's two numbers are joined by ×, in every word of every language, as the rulebook's table prints them
    (a tiled board's map page said `370 x 400 mm` beside the table's `370 × 400 mm`)."""
    sizes = [key for key, text in LANGUAGES[language].items() if re.search(r"\}\s*[x×]\s*\{", text)]
    assert len(sizes) >= 4  # printed_rect, printed_square, printed_board, board_map_row(s)
    assert [key for key in sizes if re.search(r"\}\s*x\s*\{", LANGUAGES[language][key])] == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_language_prints_in_the_fonts_it_is_set_in(language):
    for key, text in LANGUAGES[language].items():
        fonts = [FONTS.get(key, "sans")] + (
            ["sans-bold"] if key in ("component", "count", "printed_as") else []
        )
        assert not [missing_glyphs(text, font) for font in fonts if missing_glyphs(text, font)], (
            language,
            key,
        )


def test_a_word_the_font_cannot_draw_is_a_warning_at_it(project):
    root = project("basic")
    game = root / "content/sample/game.yaml"
    game.write_text(game.read_text().replace("players: 2-4\n", 'players: 2-4\nwords:\n  fronts: "表"\n'))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    said = (
        "content/sample/game.yaml:5:11: warning: the font sans has no '表' (U+8868) in words: 'fronts' '表'"
    )
    assert said in result.output
    assert run_cli("build", "--out", "out", "--strict", cwd=root).exit_code == 1  # the warning is kept


def test_a_language_and_words_over_it():
    words = Words("fr", (("contents", "Table"),))
    assert words("contents") == "Table"
    assert words("sheet_of", n=1, count=3) == "feuille 1 sur 3"
    assert Words()("sheet_of", n=1, count=3) == "sheet 1 of 3"
    assert Words("en", (("fronts", "{{recto}}"),))("fronts") == "{recto}"  # a brace written twice is a brace


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_built_in_language_prints_its_words(project, language):
    root = project("basic")
    game = root / "content/sample/game.yaml"
    game.write_text(game.read_text().replace("players: 2-4\n", f"players: 2-4\nlanguage: {language}\n"))
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    text = " ".join(texts(root / "out/sample/heroes.pdf"))
    table = LANGUAGES[language]
    assert table["fronts"] in text and table["backs"] in text
    assert table["sheet_of"].format(n=1, count=2) in text  # the deck takes two sheets


def test_the_docs_list_every_word_with_its_english():
    """docs/content-format.md's table of words is `ENGLISH`, key for key."""
    text = ROOT_DOCS.read_text(encoding="utf-8")
    section = text.split("### Words pnpgen prints", 1)[1].split("\n#", 1)[0]
    rows = dict(re.findall(r"^\| `(\w+)` \| (.*?) \|$", section, re.M))
    assert rows == {key: value.replace("\n", "\\n") for key, value in ENGLISH.items()}


def test_the_reprint_is_labelled_in_the_game_s_words(project):
    root = project("basic")
    game = root / "content/sample/game.yaml"
    game.write_text(
        game.read_text().replace("players: 2-4\n", "players: 2-4\nlanguage: de\nwords: {reprint: Neu}\n")
    )
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    shutil.copytree(root / "out", root / "v1")
    heroes = root / "content/sample/decks/heroes.yaml"
    heroes.write_text(heroes.read_text().replace("to move **two** spaces", "to move **three** spaces"))
    result = run_cli("changes", "v1", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    pages = texts(root / "out/sample/changes/reprint.pdf")
    assert "Hero cards (Neu) · Bogen 1 von 1 · Rückseiten" in pages[1]


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_starter_game_shows_where_its_language_is_set(tmp_path, language):
    """`pnpgen new` writes the line commented out; taken in (with another language), the sheets speak it."""
    assert run_cli("new", "mine", cwd=tmp_path).exit_code == 0
    game = tmp_path / "content/mine/game.yaml"
    text = game.read_text()
    hint = next(line for line in text.splitlines() if line.startswith("# language: de "))
    game.write_text(text.replace(hint, hint[2:].replace("de", language, 1)))
    assert run_cli("build", "--out", "out", cwd=tmp_path).exit_code == 0
    table = LANGUAGES[language]
    assert table["sheet_of"].format(n=1, count=1) in " ".join(texts(tmp_path / "out/mine/cards.pdf"))


@pytest.mark.parametrize(
    ("written", "code"),
    [("de-DE", "de"), ("de_AT", "de"), ("fr-CA", "fr"), ("en-US", "en"), ("Deutsch", "de"), ("German", "de")]
    + [("Français", "fr"), ("französisch", "fr"), ("English", "en"), ("DE", "de")],
)
def test_a_language_named_or_tagged_otherwise_says_its_code(written, code):
    """A designer writes the language as a locale tag (a spreadsheet's `de-DE`) or by its name: refused, as
    only the built-in codes have words, with the code to write."""
    from pnpgen.schema.fields import Invalid
    from pnpgen.schema.words import as_language

    with pytest.raises(Invalid) as exc:
        as_language(written)
    assert str(exc.value).endswith(f"; did you mean '{code}'? (accepted: de, en, fr)"), str(exc.value)
    with pytest.raises(Invalid) as exc:
        as_language("klingon")
    assert str(exc.value).endswith("; expected one of: de, en, fr")


LONG = {key: "W" * 1000 + "".join(f" {{{n}}}" for n in placeholders(ENGLISH[key])) for key in ENGLISH}
LONG["decimal_mark"] = ","


@pytest.fixture(scope="module")
def long_words(tmp_path_factory) -> Path:
    """The `basic` game, with a rulebook, its checklists, a folded form and its print-all file, every word of
    pnpgen's a word of a thousand letters: its output."""
    root = tmp_path_factory.mktemp("long") / "basic"
    shutil.copytree(FIXTURES / "basic", root)
    game = root / "content/sample/game.yaml"
    words = "".join(f"  {key}: {value!r}\n" for key, value in LONG.items())
    game.write_text(game.read_text() + "print: {fold: true, checklist: true}\nwords:\n" + words)
    (root / "content/sample/rulebook.md").write_text(
        "# Sample\n\n## Play\n\n{{ picture('heroes', 'Tide Caller') }}\n"
    )
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    return root / "out/sample"


@pytest.fixture(scope="module")
def long_pieces(tmp_path_factory) -> Path:
    """The `pieces` game (shaped pieces, checklists, a board tiled over pages: its map page), every word a word of
    a thousand letters: its output."""
    root = tmp_path_factory.mktemp("long-pieces") / "pieces"
    shutil.copytree(FIXTURES / "pieces", root)
    game = root / "content/pieces/game.yaml"
    words = "".join(f"  {key}: {value!r}\n" for key, value in LONG.items())
    game.write_text(game.read_text() + "print: {checklist: true}\nwords:\n" + words)
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    return root / "out/pieces"


def off_the_page(pdf: Path) -> list[tuple[int, str]]:
    """(page, text near it) of each letter drawn outside its page."""
    doc = pdfium.PdfDocument(str(pdf))
    found = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            w, h = page.get_size()
            text = page.get_textpage()
            for k in range(text.count_chars()):
                left, bottom, right, top = text.get_charbox(k)
                if left < -0.5 or bottom < -0.5 or right > w + 0.5 or top > h + 0.5:
                    found.append((i + 1, text.get_text_range(max(0, k - 20), 40)))
                    break
    finally:
        doc.close()
    return found


@pytest.mark.parametrize(
    "name", ["rulebook", "print-all", "heroes", "heroes-fold", "heroes-checklist", "minis-checklist"]
)
def test_a_game_s_long_words_stay_on_the_page(long_words, name):
    """Every writer that prints a game's words keeps a word of a thousand letters on its page (shortened with an
    ellipsis on a line of its own, cut to a few lines in a checklist's summary), and a checklist still lists every
    card (it once drew its rows below the page, under a summary that ran off it)."""
    pdf = long_words / f"{name}.pdf"
    assert off_the_page(pdf) == []
    if name.endswith("-checklist"):
        deck = (
            long_words.parents[1] / f"content/sample/decks/{name.removesuffix('-checklist')}.yaml"
        ).read_text()
        names = re.findall(r"name: ([^,}\n]+)", deck.split("cards:", 1)[1])
        shown = " ".join(texts(pdf)).replace("\r", "").replace("\n", " ")
        assert names and all(n.strip().strip("'\"") in shown for n in names)


@pytest.mark.parametrize(
    "value",
    [
        "{" + "x" * 5000 + "}",  # a name pnpgen does not fill
        "{n:" + ">" * 5000 + "}",  # a format spec
        "{n." + "a" * 5000 + "}",  # an attribute
        "{n[" + "0" * 5000 + "]}",  # an index
        "{n!" + "r" * 5000 + "}",  # a conversion
    ],
    ids=["name", "spec", "attribute", "index", "conversion"],
)
def test_a_long_refused_placeholder_is_told_short(project, value):
    """A placeholder refused is told at its value, in a line of bounded length whatever its size."""
    root = project("basic")
    game = root / "content/sample/game.yaml"
    game.write_text(
        game.read_text().replace("players: 2-4\n", f'players: 2-4\nwords:\n  one_side: "{value}"\n')
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    said = [line for line in result.output.splitlines() if "error:" in line]
    assert said and said[0].startswith("content/sample/game.yaml:5:13: error: words: 'one_side'"), said
    assert max(len(line) for line in said) < 300, [len(line) for line in said]


@pytest.mark.parametrize("name", ["board", "print-all", "coins-checklist"])
def test_a_game_s_long_words_stay_on_a_tiled_board_s_map_page(long_pieces, name):
    """The map page of a board tiled over pages (its first) keeps a game's long words on it: a word wider than the
    page broken, the lines cut to twelve (they once ran off the page, and pushed the map off it)."""
    pdf = long_pieces / f"{name}.pdf"
    doc = pdfium.PdfDocument(str(pdf))
    try:
        maps = [i for i in range(len(doc)) if "1-1" in doc[i].get_textpage().get_text_range()[-400:]]
    finally:
        doc.close()
    found = off_the_page(pdf)
    if name != "coins-checklist":
        assert maps  # the map page is read, with its tiles' numbers
        found = [
            f for f in found if f[0] - 1 in maps
        ]  # a tile's page clips the board's face: its text runs on
    assert found == []
