"""A file the content names that is not there is told with the name to write, for every kind of file a game
names: the nearest name in its folder (a typo, or an extension left out as Squib and nanDECK scripts often
do). Also the two mistakes a designer moving from those tools makes in names: a game font's style and a layout
name written as a template."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnpgen.names import near_file
from tests.conftest import ROOT, fast_first, run_cli

GAME = "content/sample"


def _edit(root: Path, file: str, old: str, new: str) -> None:
    path = root / GAME / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _font(root: Path) -> None:
    fonts = root / GAME / "fonts"
    fonts.mkdir()
    shutil.copy(ROOT / "pnpgen/fonts/NotoSans-Regular.ttf", fonts / "Mine-Regular.ttf")


# (what is missing, how the game is broken, the error's start, the hint line)
CASES = [
    (
        "component file",
        lambda r: _edit(r, "game.yaml", "decks/minis.yaml", "decks/mini.yaml"),
        "content/sample/game.yaml:10:5: error: component file 'decks/mini.yaml' not found",
        "did you mean 'decks/minis.yaml'?",
    ),
    (
        "icons file",
        lambda r: _edit(r, "game.yaml", "icons: icons.yaml", "icons: icon.yaml"),
        "content/sample/game.yaml:7:8: error: icons file 'icon.yaml' not found",
        "did you mean 'icons.yaml'?",
    ),
    (
        "icons folder",
        lambda r: (
            (r / GAME / "svg-icons").mkdir(),
            _edit(r, "game.yaml", "icons: icons.yaml", "icons: {file: icons.yaml, svg: svg-icon/}"),
        ),
        "content/sample/game.yaml:7:32: error: icons folder 'svg-icon/' not found",
        "did you mean 'svg-icons'?",
    ),
    (
        "data sheet",
        lambda r: (
            (r / GAME / "data").mkdir(),
            (r / GAME / "data/extra.csv").write_text("name,count\nSpare,1\n", encoding="utf-8"),
            _edit(r, "decks/heroes.yaml", "defaults:", "cards_from: data/extras.csv\ndefaults:"),
        ),
        "content/sample/decks/heroes.yaml:7:13: error: data sheet 'data/extras.csv' not found",
        "did you mean 'data/extra.csv'?",
    ),
    (
        "font",
        lambda r: (
            _font(r),
            _edit(
                r,
                "game.yaml",
                "icons: icons.yaml",
                "icons: icons.yaml\nfonts: {mine: {regular: fonts/Mine-Reglar.ttf}}",
            ),
        ),
        "content/sample/game.yaml:8:25: error: font 'content/sample/fonts/Mine-Reglar.ttf' not found",
        "did you mean 'content/sample/fonts/Mine-Regular.ttf'?",
    ),
    (
        "image without its extension",
        lambda r: _edit(
            r, "layouts/hero.yaml", "elements:\n", "elements:\n  - {type: image, src: split, area: trim}\n"
        ),
        "content/sample/layouts/hero.yaml:4:24: error: 'src' names an image that does not exist: art/split; "
        "did you mean 'split.png'?",
        None,
    ),
    (
        "layout",
        lambda r: _edit(r, "decks/heroes.yaml", "front: hero", "front: heroe"),
        "content/sample/decks/heroes.yaml:5:8: error: layout 'heroe' not found",
        "did you mean 'hero'?",
    ),
]


@pytest.mark.parametrize("kind, breaks, error, hint", CASES, ids=[c[0] for c in CASES])
def test_a_missing_file_is_told_with_the_nearest_name(project, kind, breaks, error, hint):
    root = project("basic")
    breaks(root)
    result = run_cli("build", "--no-check", cwd=root)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith(error)), None)
    assert at is not None, result.output
    if hint is not None:
        assert lines[at + 1].strip().startswith(hint), result.output
    assert "Traceback" not in result.output
    assert not (root / "output/sample").exists()  # nothing written


@pytest.mark.parametrize(
    "files, written, hint",
    [
        (["knight.png", "troll.png"], "knight", "did you mean 'knight.png'?"),  # the extension left out
        (["cards.csv"], "data/card.csv", "did you mean 'data/cards.csv'?"),  # a typo, in its folder
        (["cards.csv"], "data\\card.csv", "did you mean 'data/cards.csv'?"),  # as typed on Windows
        (["rules.md", "zebra.png"], "knight.png", ""),  # nothing close: no hint
        (["split.png"], "portrait.png", ""),  # a shared extension makes no name close
        (["troll.jpg", "troll.png"], "trol.png", "did you mean 'troll.png'?"),  # the same extension first
        ([".knight.png"], "knight", ""),  # a hidden file is never offered
    ],
)
def test_near_file_offers_only_a_close_visible_name(tmp_path, files, written, hint):
    for name in files:
        (tmp_path / name).write_bytes(b"")
    assert near_file(tmp_path / Path(written.replace("\\", "/")).name, written) == hint


def test_near_file_of_a_missing_folder_is_no_hint(tmp_path):
    assert near_file(tmp_path / "nope" / "cards.csv", "nope/cards.csv") == ""


@pytest.mark.parametrize(
    "font, said",
    [
        (
            "mine-blod",
            "'font' names the style 'blod' of the game's font 'mine': a style is bold, italic or "
            "bolditalic (got 'mine-blod'); did you mean 'mine-bold'?",
        ),
        (
            "mine-italic",
            "'font' names the italic of the game's font 'mine', which has no such file "
            "(fonts: mine: italic: ...); it has mine, mine-bold",
        ),
    ],
)
def test_a_game_font_style_that_is_not_there_names_the_styles_given(project, font, said):
    root = project("basic")
    _font(root)
    shutil.copy(ROOT / "pnpgen/fonts/NotoSans-Bold.ttf", root / GAME / "fonts/Mine-Bold.ttf")
    _edit(
        root,
        "game.yaml",
        "icons: icons.yaml",
        "icons: icons.yaml\nfonts: {mine: {regular: fonts/Mine-Regular.ttf, bold: fonts/Mine-Bold.ttf}}",
    )
    _edit(
        root,
        "layouts/hero.yaml",
        "elements:\n",
        f"elements:\n  - {{type: text, x: 5, y: 5, w: 20, h: 8, text: Hi, font: {font}}}\n",
    )
    result = run_cli("build", "--no-check", cwd=root)
    assert result.exit_code == 1, result.output
    assert "content/sample/layouts/hero.yaml:4:" in result.output
    assert said in result.output, result.output


@pytest.mark.parametrize("key", ["front", "back"])
def test_a_layout_name_written_as_a_template_says_how_to_choose_per_card(project, key):
    root = project("basic")
    old = "front: hero" if key == "front" else "back: sample-back"
    _edit(root, "decks/heroes.yaml", old, f'{key}: "{{{{ card.kind }}}}-{key}"')
    result = run_cli("build", "--no-check", cwd=root)
    assert result.exit_code == 1, result.output
    assert f"layout name '{{{{ card.kind }}}}-{key}' must be lower-case letters" in result.output
    assert "a `front` or `back` column naming the layout" in result.output


@pytest.mark.parametrize(
    "source, name",
    fast_first(
        [("yaml", "qty"), ("yaml", "Count"), ("yaml", "copies"), ("sheet", "Quantity"), ("sheet", "amount")]
        + [
            ("sheet", "Anzahl"),
            ("yaml", "Stück"),
            ("sheet", "Nombre"),
            ("sheet", "Quantité"),
            ("sheet", "Cantidad"),
        ],
        key=lambda case: case[0],  # once from a deck's YAML, once from its sheet
    ),
)
def test_a_copies_column_not_named_count_says_to_rename_it(project, source, name):
    """nanDECK's LINKMULTI column and spreadsheets name copies in many ways; pnpgen reads `count`: the card
    prints once, and the warning says why, in a deck's YAML as in its data sheet."""
    root = project("basic")
    if source == "yaml":
        _edit(root, "decks/minis.yaml", "    count: 20", f"    {name}: 20")
        where = "content/sample/decks/minis.yaml:8:5"
    else:
        (root / GAME / "data").mkdir()
        (root / GAME / "data/minis.csv").write_text(f"name,{name},text\nSpark,20,Tiny.\n", encoding="utf-8")
        _edit(
            root,
            "decks/minis.yaml",
            'cards:\n  - name: Spark\n    count: 20\n    text: "Tiny."',
            "cards_from: data/minis.csv",
        )
        where = "content/sample/data/minis.csv:1:2"
    result = run_cli("build", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    assert (
        f"{where}: warning: no layout of deck 'minis' reads the field '{name}' (first given on card 'Spark')\n"
        f"  copies are read from a field named 'count' only (each piece now prints once): rename '{name}' to "
        "'count'"
    ) in result.output, result.output


def test_an_unread_field_that_is_no_copies_word_keeps_its_did_you_mean(project):
    root = project("basic")
    _edit(root, "decks/minis.yaml", "    count: 20", "    count: 20\n    texts: more")
    result = run_cli("build", "--no-check", cwd=root)
    assert "reads the field 'texts'" in result.output and "did you mean 'text'?" in result.output, (
        result.output
    )


@pytest.mark.parametrize(
    "font, ends",
    [
        (
            "Arial",
            "(got 'Arial'); a font of your own is named with its file in game.yaml "
            "(fonts: {arial: {regular: fonts/Arial.ttf}}), then 'font: arial'",
        ),  # nanDECK's FONT=Arial
        ("Times New Roman", "then 'font: times-new-roman'"),
        (
            "sans-blod",
            "(got 'sans-blod'); did you mean 'sans-bold'?",
        ),  # a typo: no word of fonts of one's own
    ],
)
def test_a_font_that_is_not_there_lists_the_fonts_once_and_says_how_to_bring_one(project, font, ends):
    root = project("basic")
    _edit(
        root,
        "layouts/hero.yaml",
        "elements:\n",
        f"elements:\n  - {{type: text, x: 5, y: 5, w: 20, h: 8, text: Hi, font: '{font}'}}\n",
    )
    result = run_cli("build", "--no-check", cwd=root)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if "'font' must be a font: one of " in line)
    assert line.startswith("content/sample/layouts/hero.yaml:4:")
    assert line.endswith(ends), line
    assert line.count("serif-bolditalic") == 1, line  # the list once, not again as 'expected one of'


@pytest.mark.parametrize(
    "fixture, file, line, what",
    [
        (
            "basic",
            "decks/minis.yaml",
            "  - name: Spark",
            "deck 'minis' reads the field 'colur' (first given on card 'Spark')",
        ),
        (
            "pieces",
            "tiles/hex.yaml",
            "  - {name: H1, count: 20",
            "tile set 'hex' reads the field 'colur' (first given on tile 'H1')",
        ),
        (
            "pieces",
            "tiles/coins.yaml",
            "  - {name: C1, count: 30",
            "token sheet 'coins' reads the field 'colur' (first given on token 'C1')",
        ),
    ],
)
def test_an_unread_field_names_the_piece_by_its_kind(project, fixture, file, line, what):
    """A field nothing reads is told at the piece that gives it first, named as what it is: a card, a tile, a
    token (a board's side: tests/test_strict_warnings.py)."""
    root = project(fixture)
    game = next((root / "content").iterdir())
    path = game / file
    text = path.read_text()
    new = line + (", colur: red" if line.endswith("20") or line.endswith("30") else "\n    colur: red")
    path.write_text(text.replace(line, new, 1))
    result = run_cli("build", "--no-check", "--out", "out", cwd=root)
    assert f"warning: no layout of {what}" in result.output, result.output
