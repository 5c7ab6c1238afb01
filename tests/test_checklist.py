"""A deck's checklist (`print: {checklist: true}`: `<deck>-checklist.pdf`) and `export checklist` (a game's
`checklist/checklist.csv`), measured from the files written: pages, paper in mm, every card's name and count in
the deck's order, kept while the deck holds, rewritten when a name or a count changes, all games or none."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, fast_once, run_cli

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MINI_SHEET = "name,count,text\nSheet Sprite,3,From a sheet.\n=Formula Fox,2,Starts like a formula.\n"


def _with_checklist(root: Path, game: str) -> None:
    path = root / "content" / game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "print:\n  checklist: true\n", encoding="utf-8")


def _basic(project) -> Path:
    """The basic game with its checklists asked for and a deck that takes more cards from a CSV sheet."""
    root = project("basic")
    _with_checklist(root, "sample")
    game = root / "content" / "sample"
    (game / "facts.yaml").unlink()  # its counts are not what these tests change
    (game / "data").mkdir()
    (game / "data" / "minis.csv").write_text(MINI_SHEET, encoding="utf-8")
    minis = game / "decks" / "minis.yaml"
    minis.write_text(minis.read_text(encoding="utf-8") + "cards_from: data/minis.csv\n", encoding="utf-8")
    return root


def _decks(root: Path, game: str, paper: str = "a4") -> dict[str, list[tuple[str, int]]]:
    """Each deck's cards (name, count) as the model has them, in order."""
    from pnpgen.exports import loaded
    from pnpgen.model import Deck
    from pnpgen.project import Project

    run, _ = loaded(Project(root / "content", root / "out", paper), game, check=False)
    return {
        c.id: [(card.name, card.count) for card in c.cards]
        for c in run.game.components
        if isinstance(c, Deck)
    }


def _pages(pdf: Path) -> list[tuple[float, float, str]]:
    """Each page's width and height in mm and its text."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for page in doc:
            w, h = page.get_size()
            text = page.get_textpage().get_text_range()
            out.append((w / 72 * 25.4, h / 72 * 25.4, text.replace("\r\n", "\n")))
        return out
    finally:
        doc.close()


def _in_order(text: str, cards: list[tuple[str, int]]) -> None:
    """Every card's row, `N× name`, found once in the text, in the deck's order."""
    at = 0
    for name, count in cards:
        rows = [m.start() for m in re.finditer(rf"(?m)^{count}\u00d7 ?{re.escape(name)}$", text)]
        assert len(rows) == 1, (name, count, text[:2000])
        assert rows[0] >= at, f"'{name}' is out of the deck's order"
        at = rows[0]


CASES = [("basic", "sample", "a4"), ("basic", "sample", "letter"), ("pieces", "pieces", "a4")]


@pytest.mark.parametrize("fixture, game, paper", fast_once(CASES))
def test_every_deck_gets_a_checklist_of_its_cards_on_the_builds_paper(project, fixture, game, paper):
    """Cards from YAML and from a CSV sheet, tiles and tokens: one page of the build's paper per deck, every
    card's name and count in the deck's order; nothing else of the build is a checklist's."""
    root = _basic(project) if fixture == "basic" else project(fixture)
    if fixture != "basic":
        _with_checklist(root, game)
    result = run_cli("build", "--out", "out", "--paper", paper, cwd=root)
    assert result.exit_code == 0, result.output
    decks = _decks(root, game, paper)
    assert decks and (fixture != "basic" or ("Sheet Sprite", 3) in decks["minis"])
    out = root / "out" / game
    entries = {e["path"]: e for e in json.loads((out / "manifest.json").read_text())["files"]}
    assert sorted(p for p in entries if p.endswith("-checklist.pdf")) == sorted(
        f"{d}-checklist.pdf" for d in decks
    )
    for deck, cards in decks.items():
        pages = _pages(out / f"{deck}-checklist.pdf")
        assert len(pages) == 1 and entries[f"{deck}-checklist.pdf"]["pages"] == 1
        w, h, text = pages[0]
        assert (round(w, 1), round(h, 1)) == PAPER_MM[paper]
        noun = {"hex": "tiles", "tri": "tiles", "coins": "tokens", "squares": "tokens"}.get(deck, "cards")
        assert f"{sum(n for _, n in cards)} {noun}, {len(cards)} different" in text  # tiles are not cards
        _in_order(text, cards)
        assert entries[f"{deck}-checklist.pdf"]["faces"] == 0  # a page of words: no piece in the face count


def test_checklists_are_off_unless_asked_and_go_when_no_longer_asked(basic_out, project):
    assert not list(basic_out.rglob("*-checklist.pdf"))
    root = _basic(project)
    game = root / "content" / "sample" / "game.yaml"
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    assert len(list((root / "out").rglob("*-checklist.pdf"))) == 2
    game.write_text(game.read_text(encoding="utf-8").replace("checklist: true", "checklist: false"))
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    assert not list((root / "out").rglob("*-checklist.pdf"))
    written = json.loads((root / "out" / "sample" / "manifest.json").read_text())["files"]
    assert not [e for e in written if e["kind"] == "checklist"]


def _count(root: Path) -> None:
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("count: 6", "count: 7"), encoding="utf-8")


def _name(root: Path) -> None:
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(
        heroes.read_text(encoding="utf-8").replace("Tide Caller", "Tide Singer"), encoding="utf-8"
    )


def _sheet_count(root: Path) -> None:
    sheet = root / "content" / "sample" / "data" / "minis.csv"
    sheet.write_text(MINI_SHEET.replace("Sheet Sprite,3", "Sheet Sprite,4"), encoding="utf-8")


@pytest.mark.parametrize(
    "change, deck, row",
    fast_once([(_count, "heroes", "7\u00d7 Tide Caller"), (_name, "heroes", "6\u00d7 Tide Singer"),
               (_sheet_count, "minis", "4\u00d7 Sheet Sprite")]),
)  # fmt: skip
def test_a_checklist_is_kept_until_a_name_or_count_of_its_deck_changes(project, change, deck, row):
    root = _basic(project)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    out = root / "out" / "sample"
    files = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*-checklist.pdf")}
    again = run_cli("build", "--out", "out", cwd=root)
    assert again.exit_code == 0 and "up to date sample" in again.output
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*-checklist.pdf")} == files
    change(root)
    third = run_cli("build", "--out", "out", cwd=root)
    assert third.exit_code == 0, third.output
    name = f"{deck}-checklist.pdf"
    assert (out / name).read_bytes() != files[name][1]
    (_, _, text), *_ = _pages(out / name)
    assert re.search(rf"(?m)^{row.replace(' ', ' ?')}$", text), text
    other = next(n for n in files if n != name)  # the other deck's checklist stood on nothing that changed
    assert (out / other).stat().st_mtime_ns == files[other][0]


@pytest.mark.parametrize("paper", fast_once(["a4", "letter"]))
def test_a_long_deck_goes_on_over_pages_and_drops_no_card(project, paper):
    root = project("basic")
    _with_checklist(root, "sample")
    (root / "content" / "sample" / "facts.yaml").unlink()
    minis = root / "content" / "sample" / "decks" / "minis.yaml"
    many = "".join(
        f"  - name: Card number {n} of a long deck\n    count: {n % 4 + 1}\n    text: x\n"
        for n in range(1, 231)
    )
    minis.write_text(minis.read_text(encoding="utf-8") + many, encoding="utf-8")
    result = run_cli("build", "--out", "out", "--paper", paper, cwd=root)
    assert result.exit_code == 0, result.output
    cards = _decks(root, "sample", paper)["minis"]
    pages = _pages(root / "out" / "sample" / "minis-checklist.pdf")
    assert len(pages) == 3  # 231 rows: two columns a page, about 90 to a page
    for n, (w, h, text) in enumerate(pages, 1):
        assert (round(w, 1), round(h, 1)) == PAPER_MM[paper] and f"page {n} of 3" in text
    _in_order("\n".join(text for _, _, text in pages), cards)


def _two_games(tmp_path: Path) -> Path:
    root = tmp_path / "two"
    shutil.copytree(FIXTURES / "basic", root)
    shutil.copytree(FIXTURES / "pieces" / "content" / "pieces", root / "content" / "pieces")
    (root / "content" / "sample" / "facts.yaml").unlink()
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(
        heroes.read_text(encoding="utf-8").replace("Ash Walker", "=Ash Walker"), encoding="utf-8"
    )
    return root


def test_export_checklist_writes_every_card_of_every_deck_of_each_game(tmp_path):
    root = _two_games(tmp_path)
    result = run_cli("export", "checklist", "--content", "content", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    for game in ("sample", "pieces"):
        path = root / "out" / game / "checklist" / "checklist.csv"
        assert f"exported {game}: checklist.csv" in result.output
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        want = [
            [deck, name, str(count)] for deck, cards in _decks(root, game).items() for name, count in cards
        ]
        want = [
            [d, "'" + n if n.startswith("=") else n, c] for d, n, c in want
        ]  # no formula in a spreadsheet
        assert rows == [["deck", "card", "count"], *want]
        assert sorted(p.name for p in path.parent.iterdir()) == ["checklist.csv"]
        assert game != "sample" or ["heroes", "'=Ash Walker", "5"] in rows


def test_export_checklist_is_all_games_or_none(tmp_path):
    """A game that fails to load leaves every game's last checklist as it was, with a located error and no
    traceback; nothing staged is left behind."""
    root = _two_games(tmp_path)
    assert run_cli("export", "checklist", "--content", "content", "--out", "out", cwd=root).exit_code == 0
    before = {p: p.read_bytes() for p in (root / "out").rglob("checklist.csv")}
    assert len(before) == 2
    hexes = root / "content" / "pieces" / "tiles" / "hex.yaml"  # pieces, exported first, changes
    hexes.write_text(hexes.read_text(encoding="utf-8").replace("count: 20", "count: 21"), encoding="utf-8")
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"  # sample, next, fails
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("count: 5", "count: lots"), encoding="utf-8")
    result = run_cli("export", "checklist", "--content", "content", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/decks/heroes.yaml:" in result.output and "Traceback" not in result.output
    assert {p: p.read_bytes() for p in (root / "out").rglob("checklist.csv")} == before
    assert not [p for p in (root / "out").rglob(".*") if "staging" in p.name]


def test_a_fresh_checklist_does_not_keep_a_deck_whose_sheets_are_drawn_again(project, monkeypatch):
    """`GameRun.kept` (the face store's and the rulebook's diagrams' word for "drawn from inputs that all hold")
    names a deck only when none of its targets is drawn again: its checklist does not read its layout."""
    from pnpgen import pipeline
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project

    root = _basic(project)
    seen: list[set] = []
    draw = GameRun.draw

    def watched(self, targets, diags):
        drawn = draw(self, targets, diags)
        seen.append(set(self.kept))
        return drawn

    monkeypatch.setattr(GameRun, "draw", watched)
    p = Project(root / "content", root / "out")
    assert pipeline.build(p, None, check=False, workers=1)[0].ok
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("#fbf6ea", "#fbf6eb"), encoding="utf-8")
    (again,) = pipeline.build(p, None, check=False, workers=1)
    assert again.ok and {"heroes", "minis"} <= set(again.rendered)
    assert not {"heroes", "minis"} & seen[-1]


@pytest.mark.parametrize("output", ["pdf", "csv"])
def test_a_name_given_to_several_cards_says_which_on_each_row(project, output):
    """7 Gods' envoys repeat a name once per god: each row then says its card's id, or its place in the deck, in
    the checklist PDF and the exported CSV alike."""
    root = _basic(project)
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(
        heroes.read_text(encoding="utf-8")
        + "  - {name: Ash Walker, id: ash-two, count: 2, text: Again.}\n"
        + "  - {name: Ash Walker, count: 1, text: Thrice.}\n",
        encoding="utf-8",
    )
    rows = [
        ("Ash Walker (card 1)", 5),
        ("Tide Caller", 6),
        ("Ash Walker (ash-two)", 2),
        ("Ash Walker (card 4)", 1),
    ]
    if output == "csv":
        assert run_cli("export", "checklist", "--out", "out", cwd=root).exit_code == 0
        with open(
            root / "out" / "sample" / "checklist" / "checklist.csv", newline="", encoding="utf-8"
        ) as fh:
            heroes = [(name, int(n)) for deck, name, n in list(csv.reader(fh))[1:] if deck == "heroes"]
        assert heroes == rows
        return
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    ((_, _, text),) = _pages(root / "out" / "sample" / "heroes-checklist.pdf")
    _in_order(text, rows)


def test_a_target_of_the_whole_game_stands_on_every_component(project):
    """`Target.stands_on` of a target whose `component` is "" (the checklist export): the game's files and every
    component's, whatever the components are called."""
    from pnpgen.errors import Diagnostics
    from pnpgen.exports import loaded
    from pnpgen.exports.checklist import ChecklistExport
    from pnpgen.pipeline.target import prepared
    from pnpgen.project import Project

    root = project("basic")
    run, _ = loaded(Project(root / "content", root / "out"), "sample", check=False)
    target = ChecklistExport(run.game)
    assert prepared(run, target, Diagnostics())
    for key in (
        "content/sample/game.yaml",
        "content/sample/decks/heroes.yaml",
        "content/sample/decks/minis.yaml",
    ):
        assert key in target.inputs, sorted(target.inputs)


def _name_card(game: Path) -> str:
    path = game / "decks" / "heroes.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "  - {name: Sage 中, text: Calm.}\n", encoding="utf-8")
    return "content/sample/decks/heroes.yaml:17:5"


def _name_row(game: Path) -> str:
    path = game / "data" / "minis.csv"
    path.write_text(path.read_text(encoding="utf-8") + "Fox 中,1,Quick.\n", encoding="utf-8")
    return "content/sample/data/minis.csv:4"


def _name_deck(game: Path) -> str:
    path = game / "decks" / "minis.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Mini cards", "Mini 中"), encoding="utf-8")
    return "content/sample/decks/minis.yaml:1:1"


@pytest.mark.parametrize("where", fast_once([_name_card, _name_row, _name_deck]))
def test_a_name_the_checklist_cannot_draw_is_a_warning_at_it(project, where):
    """A checklist's row or heading that would lose characters (its font has no glyph for them) says so, at the
    name's place, as a sheet's label does; the cards' own faces may not print the name at all."""
    root = _basic(project)
    at = where(root / "content" / "sample")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "the checklist would not show it" in line]
    assert len(said) == 1 and said[0].startswith(at) and "'中' (U+4E2D)" in said[0], result.output


@pytest.mark.parametrize("paper", fast_once(["a4", "letter"]))
def test_a_name_longer_than_a_column_goes_on_and_every_word_is_on_a_page(project, paper):
    """A name wrapped to more lines than a column holds is not drawn past the page's foot: it goes on in the
    next column or page, without a second tick box, and the card after it keeps its own row."""
    import pdfplumber

    root = _basic(project)
    game = root / "content" / "sample"
    (game / "layouts" / "blank.yaml").write_text("elements: []\n", encoding="utf-8")
    words = [f"w{n}" for n in range(1500)]
    (game / "decks" / "long.yaml").write_text(
        f"id: long\nkind: cards\nsize: mini\nfront: blank\ncards:\n  - name: {' '.join(words)}\n  - name: after\n",
        encoding="utf-8",
    )
    path = game / "game.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("decks/minis.yaml", "decks/minis.yaml\n  - decks/long.yaml")
    )
    result = run_cli("build", "--out", "out", "--paper", paper, cwd=root)
    assert result.exit_code == 0, result.output
    found, boxes = [], 0
    with pdfplumber.open(root / "out" / "sample" / "long-checklist.pdf") as pdf:
        for page in pdf.pages:
            foot = page.height - 14 * 72 / 25.4  # the rows' lowest line (BOTTOM); the footer is below it
            for word in page.extract_words():
                if re.fullmatch(r"w\d+|after", word["text"]):
                    assert 0 <= word["x0"] and word["x1"] <= page.width and word["bottom"] <= foot, word
                    found.append(word["text"])
            boxes += sum(1 for r in page.rects if abs(r["width"] - r["height"]) < 0.1)
    assert sorted(found) == sorted([*words, "after"])
    assert boxes == 2  # a tick box for each card, not for each part of the long name


@pytest.mark.parametrize("paper", fast_once(["a4", "letter"]))
def test_a_long_deck_name_is_cut_and_leaves_the_rows_their_page(project, paper):
    """The heading (the game's title and the deck's name) is cut to three lines with an ellipsis: a deck named in
    700 words ran off the page and took the card rows with it."""
    import pdfplumber

    root = _basic(project)
    minis = root / "content" / "sample" / "decks" / "minis.yaml"
    long = " ".join(["Longword"] * 700)
    minis.write_text(minis.read_text(encoding="utf-8").replace("Mini cards", long), encoding="utf-8")
    result = run_cli("build", "--out", "out", "--paper", paper, cwd=root)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out" / "sample" / "minis-checklist.pdf") as pdf:
        (page,) = pdf.pages
        foot = page.height - 14 * 72 / 25.4
        words = page.extract_words()
        heading = [w for w in words if "Longword" in w["text"] or w["text"].startswith("Long")]
        rows = [w for w in words if w["text"] in ("Spark", "Sheet", "Sprite")]
        assert len({round(w["top"]) for w in heading}) == 3 and heading[-1]["text"].endswith("\u2026")
        assert rows and all(w["bottom"] <= foot and w["x1"] <= page.width for w in heading + rows)
        assert max(w["bottom"] for w in heading) < min(w["top"] for w in rows)


@pytest.mark.parametrize("asked", [True, False])
def test_print_alls_first_page_names_every_checklist_written_beside_it(project, asked):
    """The page that says how to print names each checklist the build wrote (one per deck), and none when the
    game asks for none."""
    root = _basic(project) if asked else project("basic")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    out = root / "out" / "sample"
    written = sorted(p.name for p in out.glob("*-checklist.pdf"))
    first = " ".join(_pages(out / "print-all.pdf")[0][2].split())
    if not asked:
        assert not written and "checklist" not in first
        return
    assert len(written) == 2
    assert (
        f"Checklists: {', '.join(sorted(written, key=lambda n: first.index(n)))} list every piece of each deck"
        in first
    )
