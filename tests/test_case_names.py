"""A file named in content under another case than on disk (`Tour.png` for `tour.png`) opens on Windows and macOS
and not on Linux: refused on every system, at the value that names it, with the path to write. Folders listed
for files (icons, chapters, diagrams, layouts) match their pattern and sort alike on every system."""

from __future__ import annotations

import shutil

import pytest
from conftest import ROOT, run_cli

from pnpgen.names import case_mismatch, listed


def _game(root):
    return root / "content" / "sample"


def _component(root) -> str:
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text().replace("decks/minis.yaml", "Decks/minis.yaml"))
    return "content/sample/game.yaml:10:5: error: component file 'Decks/minis.yaml' names 'Decks', which is "


def _sheet(root) -> str:
    (_game(root) / "data").mkdir()
    (_game(root) / "data" / "minis.csv").write_text("name,count\nSpark,20\n")
    minis = _game(root) / "decks" / "minis.yaml"
    text = minis.read_text()
    minis.write_text(text[: text.index("cards:")] + "cards_from: data/Minis.csv\n")
    return "content/sample/decks/minis.yaml:6:13: error: data sheet 'data/Minis.csv' names 'Minis.csv', which is "


def _art(root) -> str:
    hero = _game(root) / "layouts" / "hero.yaml"
    hero.write_text(hero.read_text() + "  - {type: image, src: Split.png, x: 5, y: 20, w: 10, h: 10}\n")
    return "content/sample/layouts/hero.yaml:39:24: error: image 'Split.png' names 'Split.png', which is "


def _icons(root) -> str:
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text().replace("icons: icons.yaml", "icons: Icons.yaml"))
    return "content/sample/game.yaml:7:8: error: icons 'Icons.yaml' names 'Icons.yaml', which is "


def _font(root) -> str:
    (_game(root) / "fonts").mkdir()
    shutil.copy(ROOT / "pnpgen" / "fonts" / "NotoSans-Regular.ttf", _game(root) / "fonts" / "mine.ttf")
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text() + "fonts: {mine: {regular: fonts/Mine.ttf}}\n")
    return "error: font 'fonts/Mine.ttf' names 'Mine.ttf', which is 'mine.ttf' on disk"


CASES = {"component": _component, "data sheet": _sheet, "art": _art, "icons": _icons, "font": _font}


@pytest.mark.parametrize("kind", list(CASES))
def test_a_file_named_under_another_case_is_refused_with_the_path_to_write(project, kind):
    root = project("basic")
    expected = CASES[kind](root)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert "only Windows and macOS find it so; write '" in result.output
    assert "Traceback" not in result.output


def test_the_check_names_the_path_to_write(tmp_path):
    (tmp_path / "Art").mkdir()
    (tmp_path / "Art" / "tour.svg").write_text("<svg/>")
    assert case_mismatch(tmp_path, "Art/tour.svg") is None
    said = case_mismatch(tmp_path, "art/Tour.svg")
    assert (
        said == "names 'art', which is 'Art' on disk: only Windows and macOS find it so; write 'Art/Tour.svg'"
    )
    assert case_mismatch(tmp_path, "Art/Tour.svg").endswith("write 'Art/tour.svg'")
    assert case_mismatch(tmp_path, "Art/missing.svg") is None  # missing: told as missing, by its reader


def test_a_listed_folder_matches_and_sorts_alike_on_every_system(tmp_path):
    for name in ("b.md", "A.md", "Intro.MD", "notes.txt", "c.Md"):
        (tmp_path / name).write_text("x")
    assert listed(tmp_path, "*.md") == ["A.md", "Intro.MD", "b.md", "c.Md"]  # code points: upper case first
    assert listed(tmp_path / "none", "*.md") == []


def test_an_svg_icon_with_an_upper_case_extension_is_an_icon_on_linux_too(project):
    root = project("basic")
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text().replace("icons: icons.yaml", "icons: {file: icons.yaml, svg: icons/}"))
    (_game(root) / "icons").mkdir()
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M1 1 L9 9 L1 9 Z"/></svg>'
    (_game(root) / "icons" / "sword.SVG").write_text(svg)
    result = run_cli("icons", "sample", cwd=root)
    assert result.exit_code == 0 and "sword" in result.output.split(), result.output


@pytest.mark.parametrize(
    ("asked", "on_disk", "what"),
    [
        ("layouts/hero.yaml", "Hero.yaml", "layout 'content/sample/layouts/hero.yaml'"),
        ("facts.yaml", "Facts.yaml", "facts file 'content/sample/facts.yaml'"),
        ("rulebook.md", "Rulebook.md", "rulebook source 'content/sample/rulebook.md'"),
    ],
)
def test_a_file_pnpgen_looks_for_under_another_case_is_refused_with_its_name(project, asked, on_disk, what):
    """The names pnpgen looks up itself (a layout by its name, facts.yaml, rulebook.md): a file of that name
    under another case is refused on every system, saying what to rename it; never taken as missing on Linux
    and found on Windows."""
    root = project("basic")
    path = _game(root) / asked
    if path.exists():
        path.rename(path.with_name(on_disk))
    else:
        path.with_name(on_disk).write_text("# Sample\n\nThe rules.\n")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert f"error: {what} names '{path.name}', which is '{on_disk}' on disk" in result.output, result.output
    assert f"rename it '{path.name}'" in result.output


def test_a_folder_is_listed_once_a_build_however_many_files_it_holds(project, monkeypatch):
    """The case check lists each folder a file is named in: once per build, not once per file (a deck whose 60
    cards each name their own art listed the art folder 60 times: 1,000 cards, a quarter more time)."""
    import os

    root = project("basic")
    art = _game(root) / "art"
    for n in range(60):
        shutil.copy(art / "split.png", art / f"card-{n}.png")
    (_game(root) / "facts.yaml").unlink()  # its counts are not what this test changes
    minis = _game(root) / "decks" / "minis.yaml"
    cards = "".join(f"  - {{name: Card {n}, count: 1, text: x, art: card-{n}.png}}\n" for n in range(60))
    text = minis.read_text()
    minis.write_text(text[: text.index("cards:")] + "cards:\n" + cards)
    heroes = _game(root) / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("defaults:\n", "defaults:\n  art: split.png\n"))
    hero = _game(root) / "layouts" / "hero.yaml"
    hero.write_text(
        hero.read_text() + "  - {type: image, src: '{{ card.art }}', x: 5, y: 20, w: 10, h: 10}\n"
    )
    listed_folders: list = []
    real = os.listdir

    def listdir(folder="."):
        listed_folders.append(os.fspath(folder))
        return real(folder)

    monkeypatch.setattr(os, "listdir", listdir)
    result = run_cli("build", "--out", "out", "-j", "1", cwd=root)
    assert result.exit_code == 0, result.output
    art_listings = [f for f in listed_folders if f.rstrip("/").endswith("sample/art")]
    assert 1 <= len(art_listings) <= 2, len(art_listings)  # the deck's build, and the check's


def _nfd_component(root, disk: str, named: str) -> str:
    (_game(root) / "decks" / "minis.yaml").rename(_game(root) / "decks" / f"{disk}.yaml")
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text().replace("decks/minis.yaml", f"decks/{named}.yaml"))
    return f"content/sample/game.yaml:10:5: error: component file 'decks/{named}.yaml' names '{named}.yaml'"


def _nfd_sheet(root, disk: str, named: str) -> str:
    (_game(root) / "data").mkdir()
    (_game(root) / "data" / f"{disk}.csv").write_text("name,count\nSpark,20\n")
    minis = _game(root) / "decks" / "minis.yaml"
    text = minis.read_text()
    minis.write_text(text[: text.index("cards:")] + f"cards_from: data/{named}.csv\n")
    return f"error: data sheet 'data/{named}.csv' names '{named}.csv'"


def _nfd_art(root, disk: str, named: str) -> str:
    shutil.copy(_game(root) / "art" / "split.png", _game(root) / "art" / f"{disk}.png")
    hero = _game(root) / "layouts" / "hero.yaml"
    hero.write_text(hero.read_text() + f"  - {{type: image, src: {named}.png, x: 5, y: 20, w: 10, h: 10}}\n")
    return f"error: image '{named}.png' names '{named}.png'"


def _nfd_folder(root, disk: str, named: str) -> str:
    (_game(root) / "art" / disk).mkdir()
    shutil.copy(_game(root) / "art" / "split.png", _game(root) / "art" / disk / "split.png")
    hero = _game(root) / "layouts" / "hero.yaml"
    hero.write_text(
        hero.read_text() + f"  - {{type: image, src: {named}/split.png, x: 5, y: 20, w: 10, h: 10}}\n"
    )
    return f"error: image '{named}/split.png' names '{named}' with its accents"


def _nfd_font(root, disk: str, named: str) -> str:
    (_game(root) / "fonts").mkdir()
    shutil.copy(ROOT / "pnpgen" / "fonts" / "NotoSans-Regular.ttf", _game(root) / "fonts" / f"{disk}.ttf")
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text() + f"fonts: {{mine: {{regular: fonts/{named}.ttf}}}}\n")
    return f"error: font 'fonts/{named}.ttf' names '{named}.ttf'"


NFD_CASES = {
    "component": _nfd_component,
    "data sheet": _nfd_sheet,
    "art": _nfd_art,
    "folder": _nfd_folder,
    "font": _nfd_font,
}


# the fix each message gives: the name without accents (umlauts written out), in the folder and where it is written
NFD_FIXES = {
    "component": "rename the file 'Muehle-epee.yaml' (no accents) and write 'decks/Muehle-epee.yaml'",
    "data sheet": "rename the file 'Muehle-epee.csv' (no accents) and write 'data/Muehle-epee.csv'",
    "art": "rename the file 'Muehle-epee.png' (no accents) and write 'Muehle-epee.png'",
    "folder": "rename the folder 'Muehle-epee' (no accents) and write 'Muehle-epee/split.png'",
    "font": "rename the file 'Muehle-epee.ttf' (no accents) and write 'fonts/Muehle-epee.ttf'",
}
FORMS = {"NFC": "composed (NFC, as typed)", "NFD": "decomposed (NFD, as macOS may store names)"}


@pytest.mark.parametrize("disk_form", ["NFD", "NFC"])
@pytest.mark.parametrize("kind", list(NFD_CASES))
def test_a_file_named_with_its_accents_stored_otherwise_is_refused(project, kind, disk_form):
    """macOS stores a name's accents apart (NFD: `e` and an accent) and finds a file typed with them composed
    (NFC: `é`), and the other way round; Windows and Linux do not: a game naming it so builds on a Mac only,
    so it is refused on every system, in either direction, for every kind of file a game names. The message
    says which form is where and gives a fix that works on a Mac too (where Finder and Numbers may store the
    name decomposed again): a name without accents, its umlauts written out as German does."""
    import unicodedata

    root = project("basic")
    other = "NFC" if disk_form == "NFD" else "NFD"
    disk, named = (unicodedata.normalize(form, "Mühle-épée") for form in (disk_form, other))
    expected = NFD_CASES[kind](root, disk, named)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    said = (
        f"with its accents {FORMS[other]}, the {'folder' if kind == 'folder' else 'file'} on disk with them "
        f"{FORMS[disk_form]}: only macOS finds it so, Windows and Linux do not; {NFD_FIXES[kind]}"
    )
    assert said in unicodedata.normalize("NFC", result.output), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("kind", list(NFD_CASES))
def test_a_file_beside_one_named_alike_but_for_case_is_refused(project, kind):
    """Both `minis-2.yaml` and `Minis-2.yaml` (or a folder so) on Linux: the game names one of them and builds;
    Windows and macOS hold only one of the two after a copy or a checkout, maybe the other: the game refused to
    build there, or drew the other file. Refused on every system, for every kind of named file and a folder."""
    root = project("basic")
    NFD_CASES[kind](root, "Minis-2", "minis-2")
    made = next(p for p in _game(root).rglob("Minis-2*"))
    twin = made.with_name(made.name.replace("Minis-2", "minis-2"))
    (shutil.copytree if made.is_dir() else shutil.copy)(made, twin)
    if len({p.name for p in made.parent.iterdir()} & {made.name, twin.name}) < 2:
        pytest.skip("this file system holds one of two names that differ only by case")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert (
        f"names '{twin.name}', and '{made.name}' is beside it: names that differ only by case"
        in result.output
    )
    assert "Traceback" not in result.output


def _slashed_component(root) -> str:
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text().replace("decks/minis.yaml", "decks\\minis.yaml"))
    return "content/sample/game.yaml:10:5: error: component file 'decks\\\\minis.yaml' is written with '\\' "


def _slashed_sheet(root) -> str:
    (_game(root) / "data").mkdir()
    (_game(root) / "data" / "minis.csv").write_text("name,count\nSpark,20\n")
    minis = _game(root) / "decks" / "minis.yaml"
    text = minis.read_text()
    minis.write_text(text[: text.index("cards:")] + "cards_from: data\\minis.csv\n")
    return "content/sample/decks/minis.yaml:6:13: error: data sheet 'data\\\\minis.csv' is written with '\\' "


def _slashed_art(root) -> str:
    (_game(root) / "art" / "sub").mkdir()
    shutil.copy(_game(root) / "art" / "split.png", _game(root) / "art" / "sub" / "split.png")
    hero = _game(root) / "layouts" / "hero.yaml"
    hero.write_text(
        hero.read_text() + "  - {type: image, src: 'sub\\split.png', x: 5, y: 20, w: 10, h: 10}\n"
    )
    return "content/sample/layouts/hero.yaml:39:24: error: image 'sub\\\\split.png' is written with '\\' "


def _slashed_icons(root) -> str:
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text().replace("icons: icons.yaml", "icons: {file: icons.yaml, svg: 'art\\'}"))
    return "content/sample/game.yaml:7:"


def _slashed_font(root) -> str:
    (_game(root) / "fonts").mkdir()
    shutil.copy(ROOT / "pnpgen" / "fonts" / "NotoSans-Regular.ttf", _game(root) / "fonts" / "mine.ttf")
    game = _game(root) / "game.yaml"
    game.write_text(game.read_text() + "fonts: {mine: {regular: 'fonts\\\\mine.ttf'}}\n")
    return "error: font 'fonts\\\\\\\\mine.ttf' is written with '\\' "


SLASHED = {
    "component": (_slashed_component, "decks/minis.yaml"),
    "data sheet": (_slashed_sheet, "data/minis.csv"),
    "art": (_slashed_art, "sub/split.png"),
    "icons folder": (_slashed_icons, "art/"),
    "font": (_slashed_font, "fonts/mine.ttf"),
}


@pytest.mark.parametrize("kind", list(SLASHED))
def test_a_path_written_with_backslashes_is_refused_with_the_path_to_write(project, kind):
    """`decks\\minis.yaml` is a folder and a file on Windows only; elsewhere one odd name, not found (or, for
    art, a file that does not exist): a game written so built on Windows alone. Refused on every system, for
    every kind of file a game names, with the path to write."""
    root = project("basic")
    mutate, fixed = SLASHED[kind]
    expected = mutate(root)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert f"between folders, which only Windows reads so; write '{fixed}'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("read, beside", [("game.yaml", "Game.yaml"), ("decks/heroes.yaml", "decks/Heroes.yaml"),
                                          ("layouts/hero.yaml", "layouts/HERO.yaml")])  # fmt: skip
def test_a_name_alike_added_after_a_good_build_is_not_up_to_date(project, read, beside):
    """A file added beside one a build read, alike but for case, after a good build: the next build is not
    answered "up to date" from the files' unchanged bytes (nor keeps what read the file): it is refused as a
    clean build is, on every system (found by attack12)."""
    root = project("basic")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    shutil.copy(_game(root) / read, _game(root) / beside)
    if (_game(root) / read).samefile(_game(root) / beside):
        pytest.skip("this file system ignores case: the two names are one file")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert "up to date" not in result.output
    assert "differ only by case or accents" in result.output, result.output
