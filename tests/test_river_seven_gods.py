"""River and 7 Gods as printed: the rules this edition adds are in the rulebook and on the aids, the counts
agree, the island backs are plain, and no character of the content is dropped or drawn as a missing glyph."""

from __future__ import annotations

import ctypes
import itertools
import re
from collections import deque

import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import yaml
from conftest import ROOT, fast_first, run_cli
from PIL import Image
from reportlab.pdfbase.ttfonts import TTFontFile

CONTENT = ROOT / "content"
FONTS = ROOT / "pnpgen" / "fonts"
GAMES = ["river", "seven-gods"]
RESOURCES = ["lumber", "food", "iron", "gold"]


def _text(pdf, pages=None) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        chosen = range(len(doc)) if pages is None else pages
        return "\n".join(doc[i].get_textpage().get_text_range() for i in chosen)
    finally:
        doc.close()


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _content_strings(game: str) -> list[str]:
    """Every string a player may see: rulebook Markdown and the values of the game's YAML and CSV files (not the
    notes, the facts or the icons)."""
    out: list[str] = []

    def walk(value):
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    root = CONTENT / game
    for path in sorted(root.rglob("*")):
        if path.name in ("facts.yaml", "icons.yaml", "NOTES.md") or not path.is_file():
            continue
        if path.suffix == ".yaml":
            walk(yaml.safe_load(path.read_text()))
        elif path.suffix in (".md", ".csv"):
            out.append(path.read_text())
    return out


def _printed_characters(pdfs):
    """(pdf, page number, font name, character) of every character set on every page, read with pdfium (in C: 25
    times faster than pdfplumber, and the same characters in the same fonts on every page of the shipped PDFs)."""
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    for pdf in pdfs:
        doc = pdfium.PdfDocument(str(pdf))
        try:
            for i in range(len(doc)):
                text = doc[i].get_textpage()
                for k in range(text.count_chars()):
                    if pdfium_c.FPDFText_IsGenerated(text, k):  # a space or line break pdfium adds
                        continue
                    pdfium_c.FPDFText_GetFontInfo(text, k, name, len(name), flags)
                    yield pdf, i + 1, name.value.decode(), chr(pdfium_c.FPDFText_GetUnicode(text, k))
        finally:
            doc.close()


@pytest.mark.parametrize("game", fast_first(GAMES, fast="river"))
def test_no_character_is_dropped_or_drawn_as_a_missing_glyph(shipped_build, game):
    """Every character in every PDF of the game is set in a font that has it (no fallback box), and every
    character beyond plain ASCII that the content writes reaches a PDF's text."""
    charsets: dict[str, set[int] | None] = {}

    def charset(fontname: str):
        base = fontname.split("+", 1)[-1]
        if base not in charsets:
            path = FONTS / f"{base}.ttf"
            charsets[base] = set(TTFontFile(str(path)).charToGlyph) if path.exists() else None
        return charsets[base]

    boxed, printed = [], set()
    pdfs = sorted(p for p in (shipped_build / game).glob("*.pdf") if not p.name.endswith("-full.pdf"))
    assert len(pdfs) >= 8
    for pdf, page_number, fontname, ch in _printed_characters(pdfs):
        have = charset(fontname)
        printed.add(ch)
        if have is None or (ord(ch) not in have and not ch.isspace()):
            boxed.append((pdf.name, page_number, fontname, ch))
    assert not boxed, f"characters set in a font without them: {boxed[:10]}"
    wanted = {ch for s in _content_strings(game) for ch in s if ord(ch) > 126}
    assert not wanted - printed, (
        f"characters of the content missing from every PDF: {sorted(wanted - printed)}"
    )


def test_river_rulebook_settles_what_the_fragment_leaves_open(shipped_build):
    text = _flat(_text(shipped_build / "river" / "rulebook.pdf"))
    for rule in (
        "Facing tiles are neighbours across the river",
        "the two Deserts are neighbours",
        "Winners move in",
        "Straight on to the structure",
        "When things run out (our rule)",
        "the God sits on the right and the King on the left",
        "Nature God, Blue King, Trickster God, Red King",
    ):
        assert rule in text, rule
    assert "agree on them before you play" not in text  # nothing is left for the table to settle


def test_river_sheet_backs_carry_the_table_rules(shipped_build):
    """The player aids (character sheets) print the same rules on their backs (page 2 of each sheet)."""
    pdf = shipped_build / "river" / "character-sheet.pdf"
    doc = pdfium.PdfDocument(pdf)
    pages = len(doc)
    doc.close()
    assert pages == 8  # four sheets, each front then back
    for back in range(1, pages, 2):
        text = _flat(_text(pdf, [back]))
        for rule in (
            "Table rules",
            "God sits on the right",
            "they are neighbours",
            "Winners move in",
            "Then the structure",
            "WHEN THINGS RUN OUT",
            "10 10 5",  # the King's supply, around the piece icons
        ):
            assert rule in text, (back, rule)


def test_river_dice_agree_between_list_table_and_checker(shipped_build):
    text = _flat(_text(shipped_build / "river" / "rulebook.pdf"))
    assert re.search(r"Six-sided dice 4 used in combat", text)
    assert re.search(r"Dice sheet \(four dice to fold\) 1 board, 180 × 240 mm, 1 side", text)
    facts = yaml.safe_load((CONTENT / "river" / "facts.yaml").read_text())
    fact = next(f for f in facts["facts"] if f["id"] == "dice-for-combat")
    board = yaml.safe_load((CONTENT / "river" / "boards" / "dice.yaml").read_text())
    assert fact["need"] == "4" and board["sides"][0]["fields"]["dice"] == 4


def test_river_dice_are_die_nets_and_print_all_says_to_fold_them(shipped_build):
    """River's dice sheet draws its four dice as `die-net` elements (they were hand-drawn lines, which print-all
    took for a board to trim): its guide page says to fold and glue them, and each die prints 21 pips."""
    text = _flat(_text(shipped_build / "river" / "print-all.pdf", range(2)))
    sheet = text.index("Dice sheet (four dice to fold) (board, 1 side)")
    assert "fold on the dashed ones, glue the tabs" in text[sheet : sheet + 300], text[sheet : sheet + 300]
    with pdfplumber.open(shipped_build / "river" / "dice.pdf") as pdf:
        pips = [c for c in pdf.pages[0].curves if 3.5 * 2.83 < c["width"] < 4 * 2.83]  # 3.6 mm discs
    assert len(pips) == 4 * 21


def test_seven_gods_island_backs_are_plain(shipped_build):
    """Backs show no words but the sheet's footer and no dashed lines; the small islands' cut line is on the
    fronts, solid."""
    with pdfplumber.open(shipped_build / "seven-gods" / "islands.pdf") as doc:
        assert len(doc.pages) == 4
        for page in doc.pages:
            words = "".join(c["text"] for c in page.chars)
            dashed = [o for o in page.lines + page.curves + page.rects if o.get("dash") and o["dash"][0]]
            if page.page_number % 2 == 0:  # backs
                assert re.fullmatch(r"7 Gods · Islands · sheet \d of 2 · backs", words), words
                assert not dashed
            else:
                assert "waste:" in words and "cut it off" in words
                assert not dashed


def test_seven_gods_rulebook_explains_spinner_tokens_and_clouds(shipped_build):
    text = _flat(_text(shipped_build / "seven-gods" / "rulebook.pdf"))
    assert "Story tokens and story spinners (this edition's pieces)" in text
    # the two pictures' captions
    assert "Story tokens: Ra, front and back" in text and "Story spinners" in text
    assert "Story spinners: Story spinner" not in text  # a card named as its component is not named twice
    assert "spin it on its point like a top" in text
    assert "envoys sail into and through them like any other sea space" in text
    board = yaml.safe_load((CONTENT / "seven-gods" / "boards" / "board.yaml").read_text())
    assert "envoys sail through it like open sea" in yaml.safe_dump(board)


def _outline(path) -> set:
    """The pixels of a round token's inner field: everything inside the disc that the token's ring colour
    does not reach from the top edge (so the picture inside the field counts as field)."""
    im = Image.open(path).convert("RGB")
    w, h = im.size
    px = im.load()
    ring = px[w // 2, 3]
    seen: set = set()
    todo = deque([(w // 2, 3)])
    while todo:
        x, y = todo.popleft()
        if (
            (x, y) in seen
            or not (0 <= x < w and 0 <= y < h)
            or sum(abs(a - b) for a, b in zip(px[x, y], ring)) > 60
        ):
            continue
        seen.add((x, y))
        todo.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)])
    disc = {
        (x, y) for x in range(w) for y in range(h) if (x - w / 2) ** 2 + (y - h / 2) ** 2 < (0.45 * w) ** 2
    }
    return disc - seen


@pytest.mark.slow
def test_river_resources_and_belief_pictures_differ_in_shape(tmp_path):
    """Rasterised faces: each resource token's field has its own outline (with one shared circle the fields
    overlapped by 99 % or more; Food against Gold is the pair colour-blind players confused), and every Belief
    design has a picture of its own (the families used to share one)."""
    result = run_cli(
        "export",
        "png",
        "river",
        "resources",
        "belief",
        "--dpi",
        "150",
        "--no-bleed",
        "--out",
        tmp_path,
        "--content",
        CONTENT,
    )
    assert result.exit_code == 0, result.output
    png = tmp_path / "river" / "png"
    fields = {
        n: _outline(png / "resources" / f"resources-00{i}-front.png") for i, n in enumerate(RESOURCES, 1)
    }
    for a, b in itertools.combinations(RESOURCES, 2):
        overlap = len(fields[a] & fields[b]) / len(fields[a] | fields[b])
        assert overlap < (0.8 if {a, b} == {"food", "gold"} else 0.93), (a, b, overlap)
    fronts = sorted((png / "belief").glob("belief-*-front.png"))
    assert len(fronts) == 26
    dpmm = 150 / 25.4
    box = tuple(round(v * dpmm) for v in (4.5, 35, 59, 48))  # the picture row of the picture panel
    crops = [Image.open(f).convert("L").crop(box).tobytes() for f in fronts]
    for (i, a), (j, b) in itertools.combinations(enumerate(crops), 2):
        differ = sum(1 for p, q in zip(a, b) if abs(p - q) > 40) / len(a)
        assert differ > 0.02, (fronts[i].name, fronts[j].name, differ)
