"""End to end on the shipped content: every game builds (strict), holds the documented counts, and rebuilds
byte for byte."""

from __future__ import annotations

import ctypes
import json
import math
from functools import partial

import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import yaml
from conftest import MM, ROOT, face_uses, fast_once, run_cli

from pnpgen.imposition import plan_sheet
from pnpgen.units import CARD_SIZES

CONTENT = ROOT / "content"

# Numbers the source documents state (../shared/seeds), per game and deck.
DOCUMENTED = {
    "elements-of-the-gods": {
        "monument": 20,
        "garden": 20,
        "divinity": 48,
        "garden-tiles": 15,
        "monuments": 25,
        "worshipers": 128,  # the list says 32: read as 32 per colour (erratum worshipers-for-setup)
        "elements": 5,
        "score-markers": 5,
    },
    "deity": {"deity": 14, "power": 76, "terrain": 91, "creatures": 28, "rings": 14},
    "river": {
        "belief": 75,
        "character": 4,
        "land-large": 45,
        "land-medium": 16,
        "land-small": 8,
        "soldiers": 20,
        "camps": 20,
        "temples": 10,
        "resources": 120,
    },
    "seven-gods": {
        "envoy": 210,
        "objective": 12,
        "old-stories": 1,
        "god-boards": 7,
        "islands": 14,
        "envoys": 7,
        "story-tokens": 119,
        "triumph-tokens": 56,
    },
    "orbis": {"region": 65, "god": 10, "worshiper": 100, "cancelation": 18, "reduction": 5, "temple": 5},
}
BOARDS = {
    "elements-of-the-gods": {"board": 2},
    "deity": {"board": 1},
    "river": {"river": 1},
    "seven-gods": {"board": 1},
}


@pytest.fixture(scope="module")
def out(shipped_build):
    return shipped_build  # the shipped games, built once per session with --strict (conftest.py)


def test_every_game_in_content_is_built(out):
    games = sorted(p.parent.name for p in CONTENT.glob("*/game.yaml"))
    assert games == sorted(DOCUMENTED)
    for game in games:
        manifest = json.loads((out / game / "manifest.json").read_text())
        for f in manifest["files"]:
            assert (out / game / f["path"]).is_file()


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, deck, count", [(g, d, n) for g, decks in DOCUMENTED.items() for d, n in decks.items()]
)
def test_deck_pdf_holds_exactly_the_documented_count(out, game, deck, count):
    manifest = json.loads((out / game / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f["component"] == deck)
    assert entry["faces"] == count
    # the margin label says which side a page is (a label up the side may read reversed in extracted text), read
    # by pdfium (pdfplumber parsed every face's text for it: 16 s for the 36 decks); the faces placed, from the
    # content stream pdfplumber hands over unparsed
    doc = pdfium.PdfDocument(out / game / entry["path"])
    try:
        with pdfplumber.open(out / game / entry["path"]) as pdf:
            sides = []
            for p, page in zip(pdf.pages, doc):
                text = page.get_textpage().get_text_range()
                sides.append(
                    ("backs" if any(w in text for w in ("· backs", "skcab")) else "fronts", face_uses(p))
                )
            assert len(sides) == entry["pages"] == len(doc)
    finally:
        doc.close()
    fronts = sum(n for side, n in sides if side == "fronts")
    backs = sum(n for side, n in sides if side == "backs")
    assert fronts == count
    assert backs in (0, count)  # single-sided, or every piece has its back


@pytest.mark.parametrize("game, board, sides", [(g, b, n) for g, bs in BOARDS.items() for b, n in bs.items()])
def test_every_board_prints_tiled_and_full_size(out, game, board, sides):
    manifest = json.loads((out / game / "manifest.json").read_text())
    paths = sorted(f["path"] for f in manifest["files"] if f["component"] == board)
    assert paths == [f"{board}-full.pdf", f"{board}.pdf"]
    with pdfplumber.open(out / game / f"{board}-full.pdf") as pdf:
        assert len(pdf.pages) == sides


def _rgb(hex_: str) -> tuple[int, int, int]:
    return tuple(int(hex_[i : i + 2], 16) for i in (1, 3, 5))


def test_each_envoy_card_prints_its_own_gods_back_behind_it(out):
    """The envoy deck has one back per god; sample each back where its front's card stands when flipped."""
    game = yaml.safe_load((CONTENT / "seven-gods" / "game.yaml").read_text())
    deck = yaml.safe_load((CONTENT / "seven-gods" / "decks" / "envoy.yaml").read_text())
    gods = [c["god"] for c in deck["cards"] for _ in range(c.get("count", 1))]
    w, h = CARD_SIZES["poker"]
    plan = plan_sheet("a4", w * MM, h * MM, 3 * MM)
    scale = 40 / 72  # 40 dpi
    doc = pdfium.PdfDocument(out / "seven-gods" / "envoy.pdf")
    try:
        for sheet in range(len(doc) // 2):
            image = doc[2 * sheet + 1].render(scale=scale).to_pil().convert("RGB")
            for i, slot in enumerate(plan.back_slots()):
                n = sheet * plan.per_sheet + i
                if n >= len(gods):
                    break
                # 1.5 mm inside the back's top-left corner: its background colour
                x = (slot.x + 1.5 * MM) * scale
                y = (plan.paper_h - (slot.y + slot.h - 1.5 * MM)) * scale
                got = image.getpixel((int(x), int(y)))
                want = _rgb(game["palette"][gods[n]])
                assert max(abs(a - b) for a, b in zip(got, want)) < 12, (n, gods[n], got, want)
    finally:
        doc.close()


@pytest.mark.slow
def test_a_second_build_gives_identical_bytes(out, tmp_path):
    """Another process, with another string hash seed (set and dict orders of strings move with it) and a face
    store of its own (nothing taken from the session's build), writes every file of the shipped games the same."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "PYTHONHASHSEED": "7",
        "PNPGEN_CACHE": str(tmp_path / "cache"),
        "PYTHONPATH": str(ROOT),
    }
    if os.environ.get("PYTHONHASHSEED") == "7":
        env["PYTHONHASHSEED"] = "8"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pnpgen",
            "build",
            "--content",
            str(CONTENT),
            "--out",
            str(tmp_path / "o"),
            "--strict",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    for game in DOCUMENTED:
        for f in sorted((out / game).iterdir()):
            assert (tmp_path / "o" / game / f.name).read_bytes() == f.read_bytes(), f"{game}/{f.name}"


def test_designed_cards_are_marked(out):
    """Every card the documents do not list individually carries designed: true (the documents list no card)."""
    result = run_cli("list", "--content", CONTENT, "--format", "json")
    data = json.loads(result.output)
    for g in data["games"]:
        for c in g["components"]:
            if c["kind"] == "cards" and c["id"] != "old-stories":
                assert c["designed"] == c["faces"], (g["game"], c["id"])


def _all_decks():
    """(game, deck, size) of every card deck, read while the cases are collected (libyaml: a tenth the time)."""
    load = partial(yaml.load, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for game_yaml in sorted(CONTENT.glob("*/game.yaml")):
        game = load(game_yaml.read_text())
        for comp in game.get("components", []):
            data = load((game_yaml.parent / comp).read_text())
            if data.get("kind") == "cards":
                yield game["id"], data["id"], data["size"]


def _size_mm(size) -> tuple[float, float]:
    from pnpgen.units import parse_size

    w, h = parse_size(size)
    return w / MM, h / MM


@pytest.mark.parametrize("game, deck, size", fast_once(list(_all_decks())))
def test_every_deck_measures_its_size_between_cut_marks(out, game, deck, size):
    w, h = _size_mm(size)
    with pdfplumber.open(out / game / f"{deck}.pdf") as pdf:
        page = pdf.pages[0]
        x0, y0, x1, y1 = page.page_obj.attrs["BleedBox"]
        top, bottom = page.height - y1, page.height - y0  # pdfplumber measures from the top
        # cut marks: the lines that reach out of the bleed box (a mark with too little room beside the bleed
        # starts inside it, over a white halo; card art's own lines stay inside)
        marks = [
            ln
            for ln in page.lines
            if ln["x0"] < x0 - 0.01
            or ln["x1"] > x1 + 0.01
            or ln["top"] < top - 0.01
            or ln["bottom"] > bottom + 0.01
        ]
        xs = sorted({round(ln["x0"], 2) for ln in marks if abs(ln["x0"] - ln["x1"]) < 0.01})
        ys = sorted({round(ln["top"], 2) for ln in marks if abs(ln["top"] - ln["bottom"]) < 0.01})
    gaps_x = [(b - a) / MM for a, b in zip(xs, xs[1:])]
    gaps_y = [(b - a) / MM for a, b in zip(ys, ys[1:])]
    assert any(abs(g - w) <= 0.2 for g in gaps_x), (gaps_x, w)
    assert any(abs(g - h) <= 0.2 for g in gaps_y), (gaps_y, h)


def _smallest_text_in_trim(path, pages: int) -> float | None:
    """The smallest size, in points, of any character printed inside the trim on the first pages of a PDF.

    Read with pdfium (C), not pdfplumber (pdfminer, in Python, 25 times slower here): a character's size is its
    font size scaled by its text matrix, as pdfplumber's `size` is; it is inside the trim when its origin is.
    """
    smallest = None
    doc = pdfium.PdfDocument(str(path))
    try:
        for i in range(min(pages, len(doc))):
            page = doc[i]
            x0, y0, x1, y1 = page.get_trimbox()
            text = page.get_textpage()
            matrix, x, y = pdfium_c.FS_MATRIX(), ctypes.c_double(), ctypes.c_double()
            for k in range(text.count_chars()):
                if (
                    pdfium_c.FPDFText_IsGenerated(text, k)
                    or not chr(pdfium_c.FPDFText_GetUnicode(text, k)).strip()
                ):
                    continue
                pdfium_c.FPDFText_GetCharOrigin(text, k, x, y)
                if not (x0 <= x.value <= x1 and y0 <= y.value <= y1):
                    continue
                pdfium_c.FPDFText_GetMatrix(text, k, matrix)
                size = pdfium_c.FPDFText_GetFontSize(text, k) * math.hypot(matrix.c, matrix.d)
                smallest = size if smallest is None else min(smallest, size)
    finally:
        doc.close()
    return smallest


@pytest.mark.parametrize("floor", fast_once([6, 7]))
def test_no_printed_text_is_under_the_floor(out, floor):
    """The text floors, measured from every page of every component PDF of every shipped game (cards, tiles,
    tokens, boards and their tiled pages): every character printed inside the trim is at least 6 pt (the build's
    error), and, the shipped games raised where the pieces allow, at least 7 pt (its warning). The margin labels,
    outside the trim, are not game text."""

    smallest = {}
    for game_dir in sorted(p for p in out.iterdir() if p.is_dir()):
        entries = json.loads((game_dir / "manifest.json").read_text())["files"]
        for e in entries:
            if e["kind"] not in ("cards", "tiles", "tokens", "board"):
                continue
            size = _smallest_text_in_trim(game_dir / e["path"], pages=10_000)
            if size is not None:
                smallest[f"{game_dir.name}/{e['path']}"] = size
    assert len(smallest) >= 35
    under = {k: round(v, 2) for k, v in smallest.items() if v < floor - 0.01}
    assert under == {}
