"""The print-all file and its gang sheets, measured from the written PDFs: every piece printed exactly once, each
back behind its own front after the flip, pieces inside the printable area, fewer sheets than printing each
component apart, and a print-and-build page that says what the content says."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from conftest import FIXTURES, MM, fast_first, run_cli
from test_duplex import texts

from pnpgen.imposition.gang import BAND_GAP, GangItem, gang_cards, plan_gang
from pnpgen.imposition.pieces import LABEL_BAND, extent
from pnpgen.imposition.sheets import MARGIN, PRINT_EDGE
from pnpgen.render.sheets import GUIDE_HALO, GUIDE_LINE
from pnpgen.units import PAPERS

ITEMS = [
    GangItem(0, "circle", 20 * MM, 20 * MM, 2 * MM, 32),
    GangItem(1, "hex", 30 * MM, 30 * MM, 2 * MM, 5),
    GangItem(2, "square", 40 * MM, 40 * MM, 3 * MM, 7),
    GangItem(3, "triangle", 30 * MM, 30 * MM * 3**0.5 / 2, 2 * MM, 9),
    GangItem(4, "hex-flat", 25 * MM, 25 * MM, 1 * MM, 11),
    GangItem(5, "rect", 60 * MM, 40 * MM, 3 * MM, 4),
]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gang_sheets_hold_every_piece_once_inside_the_printable_area(paper):
    sheets = plan_gang(paper, ITEMS)
    placed = Counter(owner for sheet in sheets for owner in sheet.owners)
    for item in ITEMS:  # each piece of each item exactly once
        assert sorted(n for (part, n) in placed if part == item.part) == list(range(item.count))
    assert set(placed.values()) == {1}
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    for sheet in sheets:
        for slot, (part, _) in zip(sheet.plan.slots, sheet.owners):
            b = ITEMS[part].bleed  # every cut line keeps its bleed's room inside the printer margin
            x0, y0, x1, y1 = extent(slot.guide)
            assert x0 >= MARGIN + b - 0.01 and x1 <= pw - MARGIN - b + 0.01
            assert y0 >= MARGIN + LABEL_BAND + b - 0.01 and y1 <= ph - MARGIN - b + 0.01
            x0, y0, x1, y1 = extent(slot.clip)  # the art past a sharp corner still prints
            assert min(x0, y0, pw - x1, ph - y1) >= PRINT_EDGE - 0.01


def test_gang_bands_of_different_components_stand_apart():
    for sheet in plan_gang("a4", ITEMS):
        boxes: dict = {}
        for slot, (part, _) in zip(sheet.plan.slots, sheet.owners):
            x0, y0, x1, y1 = extent(slot.clip)
            lo, hi = boxes.get(part, (1e9, -1e9))
            boxes[part] = (min(lo, y0), max(hi, y1))
        bands = sorted(boxes.values())
        for (_, top_below), (bottom_above, _) in zip(bands, bands[1:]):
            assert bottom_above - top_below >= BAND_GAP - 0.01  # a clear strip for the knife between bands


def test_gang_fills_earlier_sheets_first_and_saves_paper():
    small = [GangItem(k, "circle", 20 * MM, 20 * MM, 1 * MM, 5) for k in range(6)]
    sheets = plan_gang("a4", small)
    assert len(sheets) == 1  # six sets of five coins: one sheet, not six
    big = [
        GangItem(0, "square", 50 * MM, 50 * MM, 2 * MM, 20),
        GangItem(1, "circle", 20 * MM, 20 * MM, 1 * MM, 3),
    ]
    sheets = plan_gang("a4", big)
    assert len(sheets) == 2  # twenty 50 mm squares need more than one sheet...
    assert {p for p, _ in sheets[0].owners} == {0, 1}  # ...and the coins go into the first room left


def test_card_leftovers_share_sheets_deck_by_deck():
    sheets = gang_cards(9, [(0, 2), (1, 5), (2, 1), (3, 4), (4, 8)])
    assert sum(len(s) for s in sheets) == 20 and all(len(s) <= 9 for s in sheets)
    for part in range(4):  # each of these stays on one sheet
        assert len({i for i, s in enumerate(sheets) if any(p == part for p, _ in s)}) == 1
    assert len(sheets) == 3


def _words(page) -> list[tuple[str, float, float]]:
    """Each face's identity text (F.. on fronts, B.. on backs, 7 pt) with its centre, turned text read upright."""
    return texts(page, 7)


def _build(tmp_path: Path, *flags) -> Path:
    project = tmp_path / "p"
    if not project.exists():
        shutil.copytree(FIXTURES / "pieces", project)
    result = run_cli("build", "--out", "out", *flags, cwd=project)
    assert result.exit_code == 0, result.output
    return project / "out" / "pieces"


FILE = {"long": "print-all.pdf", "short": "print-all-short.pdf", "none": "print-all-single.pdf"}


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short", "none"])
def test_print_all_prints_every_piece_once_with_its_back_behind_it(tmp_path, flip, paper):
    out = _build(tmp_path, "--duplex", flip, "--paper", paper)
    entry = next(
        e for e in json.loads((out / "manifest.json").read_text())["files"] if e["kind"] == "print-all"
    )
    fronts: Counter = Counter()
    with pdfplumber.open(out / FILE[flip]) as pdf:
        assert len(pdf.pages) == entry["pages"]
        assert "print and build" in pdf.pages[0].extract_text()
        pages = pdf.pages[1:]
        if flip != "none":
            assert len(pdf.pages[1].chars) < 80  # the guide page's blank back: one line, no faces
            pages = pdf.pages[2:]
        i = 0
        while i < len(pages):
            words = _words(pages[i])
            front = [w for w in words if w[0].startswith("F")]
            if not front:  # a board's page: no backs behind it in a duplex form but a blank page
                i += 2 if flip != "none" else 1
                continue
            fronts.update(w[0] for w in front)
            width, height = pages[i].width, pages[i].height
            back = [w for w in _words(pages[i + 1]) if w[0].startswith("B")]
            if back or flip != "none":
                for name, x, y in (w for w in front if w[0][1:2] != "C"):  # coins have no back
                    bx, by = {"long": (width - x, y), "short": (x, height - y), "none": (x, y)}[flip]
                    near = [b[0] for b in back if abs(b[1] - bx) < 0.5 * MM and abs(b[2] - by) < 0.5 * MM]
                    assert near == ["B" + name[1:]], (flip, name, x, y)
                i += 2
            else:
                i += 1
    want = {"FH1": 20, "FH2": 15, "FT1": 9, "FT2": 8, "FC1": 30, "FS1": 12}
    assert {k: fronts[k] for k in want} == want  # every piece exactly once: nothing lost, nothing twice


def test_print_all_of_the_pieces_fixture_saves_sheets(tmp_path):
    out = _build(tmp_path)
    entry = next(
        e for e in json.loads((out / "manifest.json").read_text())["files"] if e["kind"] == "print-all"
    )
    assert entry["sheets"] < entry["sheets_apart"]
    apart = sum(
        e["pages"] // 2 if e["kind"] == "tiles" and e["path"] != "coins.pdf" else e["pages"]
        for e in json.loads((out / "manifest.json").read_text())["files"]
        if e["kind"] in ("tiles", "tokens") and "-full" not in e["path"]
    )
    assert entry["sheets_apart"] >= apart - 1  # what the components' own files take, counted from their pages


def test_print_all_is_kept_when_nothing_changed_and_redrawn_after_an_edit(tmp_path):
    out = _build(tmp_path)
    before = (out / "print-all.pdf").read_bytes()
    project = tmp_path / "p"
    result = run_cli("build", "--out", "out", cwd=project)
    assert "up to date" in result.output and (out / "print-all.pdf").read_bytes() == before
    hexes = project / "content" / "pieces" / "tiles" / "hex.yaml"
    hexes.write_text(hexes.read_text().replace("count: 15", "count: 16"))
    result = run_cli("build", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(out / "print-all.pdf") as pdf:
        words = Counter(w[0] for p in pdf.pages for w in _words(p))
    assert words["FH2"] == 16


def test_print_all_guide_page_lists_pages_supply_and_the_duplex_setting(shipped_build):
    for game, supply in (("elements-of-the-gods", "cloth bag"), ("seven-gods", "Well of Wonders")):
        entry = next(
            e
            for e in json.loads((shipped_build / game / "manifest.json").read_text())["files"]
            if e["kind"] == "print-all"
        )
        with pdfplumber.open(shipped_build / game / "print-all.pdf") as pdf:
            text = " ".join((pdf.pages[0].extract_text() or "").split())
            assert len(pdf.pages) == entry["pages"]
        assert "flipping on the long edge" in text and "Print at 100 %" in text
        assert supply in text
        assert f"Print pages 1 to {entry['pages']}" in text
        assert entry["sheets"] < entry["sheets_apart"]  # gang sheets saved paper in every shipped game
        assert f"{entry['sheets_apart'] - entry['sheets']} fewer" in text


GAMES = ["deity", "elements-of-the-gods", "orbis", "river", "seven-gods"]


@pytest.mark.parametrize("game", fast_first(GAMES, fast="orbis"))
def test_print_and_build_page_speaks_to_players_not_to_the_tool(shipped_build, game):
    """A player holding print-all.pdf has no command line: the page names the printer's own setting, never a
    command or a flag, and every supply from home it lists is one the game needs (none marked optional)."""
    with pdfplumber.open(shipped_build / game / "print-all.pdf") as pdf:
        text = " ".join((pdf.pages[0].extract_text() or "").split())
    assert "pnpgen" not in text and " --" not in text and "calibrate" not in text, text
    assert "duplex offset" in text
    assert "optional" not in text, text


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_shipped_game_prints_every_face_exactly_once_in_print_all(tmp_path, paper):
    """The plan behind each shipped game's print-all file: every printed face of every deck on exactly one slot
    of one sheet, backs beside their own fronts, and fewer sheets than printing the components apart."""
    from pnpgen.errors import Diagnostics
    from pnpgen.imposition.duplex import Printing
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project

    root = Path(__file__).resolve().parent.parent
    project = Project(root / "content", tmp_path, paper, Printing(whole=True))
    for game_root in project.games():
        run = GameRun(project, game_root)
        diags = Diagnostics()
        run.load(diags)
        targets = run.claim(diags)
        run.draw(targets, diags)
        assert not diags.errors, diags.errors
        whole = targets[-1]
        doc = whole.docs["print-all.pdf"]
        placed: Counter = Counter()
        for section in doc.sections:
            for sheet in section.sheets:
                assert sheet.backs is None or len(sheet.backs) == len(sheet.fronts)
                placed.update(id(f) for f in sheet.fronts if f is not None)
        for part in whole.parts:
            if part.kind in ("cards", "tiles", "tokens"):
                want = Counter(id(f) for f, _ in part.drawn.faces)
                assert {k: placed[k] for k in want} == dict(want), (game_root.name, part.component)
        assert doc.sheets < doc.sheets_apart, game_root.name


def test_print_all_sets_every_character_in_an_embedded_font(shipped_build):
    for path in sorted(shipped_build.glob("*/print-all.pdf")):
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages[:2]:  # the print-and-build page and its blank back: pnpgen's own words
                fonts = {ch["fontname"] for ch in page.chars}
                assert fonts and all("Noto" in f for f in fonts), (path, fonts)  # the bullets were Helvetica


@pytest.mark.parametrize("game", fast_first(GAMES, fast="deity"))
def test_the_guide_page_names_the_colour_the_piece_sheets_draw_round_each_piece(shipped_build, game):
    """Each row that says to cut round a piece's outline names the colour its pages draw that outline in: measured
    from the strokes of the cut guide's width on the pages the row names (they were black; the page said grey)."""
    names = {(0.0, 0.0, 0.0): "black", (1.0, 1.0, 1.0): "white", (0.44, 0.44, 0.44): "grey"}

    def key(o) -> tuple:
        return tuple((round(x, 1), round(y, 1)) for x, y in o["pts"])

    with pdfplumber.open(shipped_build / game / "print-all.pdf") as pdf:
        rows = [
            (m.group(1), m.group(2))
            for line in (pdf.pages[0].extract_text() or "").splitlines()
            if (m := re.match(r"(\d+(?:–\d+)?) .*cut round each piece on its (\w+) outline", line))
        ]
        assert rows, game  # every shipped game has shaped pieces
        for pages, said in rows:
            first, _, last = pages.partition("–")
            seen = set()
            for n in range(int(first), int(last or first) + 1):
                strokes = [o for o in pdf.pages[n - 1].objects.get("curve", []) if o.get("stroke")]
                strokes += [o for o in pdf.pages[n - 1].rects + pdf.pages[n - 1].lines if o.get("stroke")]
                halos = {key(o) for o in strokes if abs(o["linewidth"] - GUIDE_HALO[1]) < 0.01}
                for o in strokes:  # a guide: the line drawn on its halo's path
                    if abs(o["linewidth"] - GUIDE_LINE[1]) < 0.01 and key(o) in halos:
                        seen.add(names.get(tuple(round(v, 2) for v in o["stroking_color"]), "another colour"))
            assert seen == {said}, (game, pages, seen, said)


def test_the_guide_page_says_to_fold_a_board_of_dice_and_to_trim_a_plain_one(project):
    """A board whose side draws a `die-net` (an extends chain too) is cut out, folded and glued, not trimmed."""
    root = project("basic")
    game = root / "content/sample"
    (game / "boards").mkdir()
    for board, layout in (("dice", "dice-side"), ("mat", "mat-side")):
        (game / "boards" / f"{board}.yaml").write_text(
            f"id: {board}\nkind: board\nsize: 150mm x 120mm\nbleed: 0mm\nsides: [{{id: one, layout: {layout}}}]\n"
        )
    (game / "layouts/mat-side.yaml").write_text("elements:\n  - {type: rect, area: trim, fill: '#dddddd'}\n")
    (game / "layouts/dice-base.yaml").write_text(
        "elements:\n  - {type: die-net, x: 10, y: 10, size: 20, faces: [1, 2, 3, 4, 5, 6]}\n"
    )
    (game / "layouts/dice-side.yaml").write_text("extends: dice-base\n")
    text = (game / "game.yaml").read_text().replace("components:\n", "components:\n  - boards/dice.yaml\n", 1)
    (game / "game.yaml").write_text(text.replace("components:\n", "components:\n  - boards/mat.yaml\n", 1))
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out/sample/print-all.pdf") as pdf:
        text = " ".join((pdf.pages[0].extract_text() or "").split())
    dice = text.index("Dice (board, 1 side)")
    mat = text.index("Mat (board, 1 side)")
    fold = "one page a side: cut each die out on its solid lines, fold on the dashed ones, glue the tabs"
    assert fold in text[dice:] and fold not in text[mat:dice] + text[:dice], text
    assert "one page a side: trim to the board's edge" in text[mat:], text
