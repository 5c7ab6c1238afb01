"""The print check, measured on the five shipped games in every form: art in the bleed on every outer edge of
every card, cut marks at least 3 mm long (A4 here; Letter's tight rows in tests/test_sheets_pdf.py), no
fold-over file for single-sided pieces."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pdfium_read
import pypdfium2 as pdfium
import pytest
from conftest import MM, ROOT, run_cli

from pnpgen.imposition import plan_for
from pnpgen.imposition.fold import plan_fold
from pnpgen.schema.game import load_game

pytestmark = pytest.mark.slow

GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())


@pytest.fixture(scope="module", params=["a4"])  # Letter's tight rows: tests/test_sheets_pdf.py
def every_form(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"forms-{request.param}")
    result = run_cli(
        "build",
        "--content",
        ROOT / "content",
        "--out",
        out,
        "--forms",
        "all",
        "--paper",
        request.param,
        "--no-check",
    )
    assert result.exit_code == 0, result.output
    return request.param, out


def decks(game: str):
    """The shipped game's card, tile and token decks cut on a grid."""
    return [
        d
        for d in load_game(ROOT / "content" / game).components
        if hasattr(d, "cards") and d.shape in ("rect", "square")
    ]


def sheet_files(out: Path) -> list[Path]:
    """Every file that holds card sheets: each deck's forms and the whole game's print-all forms."""
    listed = json.loads((out / "manifest.json").read_text())["files"]
    return [out / e["path"] for e in listed if "cards" in e or e["path"].startswith("print-all")]


def test_every_cut_mark_is_at_least_3_mm_long(every_form):
    """Cut marks lie outside the page's trim box (over the bleed at most); every one is at least 3 mm, on the first
    sheet of every file (the sheets after it are cut from the same plan; tests/test_imposition.py measures every
    plan's marks on both papers, fast). Read with pdfium: every black line on the page, in its faces too."""
    paper, out = every_form
    short, seen = [], 0
    for game in GAMES:
        for path in sheet_files(out / game):
            doc = pdfium.PdfDocument(str(path))
            try:
                page = doc[0]  # a file's sheets are cut from one plan: its first
                x0, y0, x1, y1 = page.get_trimbox()
                for ln in pdfium_read.lines(page):
                    lx0, lx1 = sorted((ln.x0, ln.x1))
                    ly0, ly1 = sorted((ln.y0, ln.y1))
                    outside = lx1 <= x0 + 0.01 or lx0 >= x1 - 0.01 or ly1 <= y0 + 0.01 or ly0 >= y1 - 0.01
                    if not outside or any(ln.rgb):  # black lines beyond the trim: marks
                        continue
                    seen += 1
                    if ln.length / MM < 3.0 - 0.01:
                        short.append((path.name, round(ln.length / MM, 2)))
            finally:
                doc.close()
    assert seen > 4000  # 4,360 in the five games (a partial sheet marks only its faces' cut lines)
    assert not short, short[:20]


def _held(slots, present):
    return [s for s, p in zip(slots, present) if p]


def _edges(slot, held):
    """The sides of a slot no other held slot shares: (side, probe inside, probe outside) in pt from the
    page's bottom-left, the probe outside half the bleed beyond the trim, both in the middle of the side."""
    d_in = 1 * MM
    for side in range(4):
        shared = False
        for o in held:
            if o is slot:
                continue
            if side in (0, 2):
                edge, other = (slot.x, o.x + o.w) if side == 0 else (slot.x + slot.w, o.x)
                shared |= abs(edge - other) < 0.01 and abs(o.y - slot.y) < 0.01
            else:
                edge, other = (slot.y, o.y + o.h) if side == 1 else (slot.y + slot.h, o.y)
                shared |= abs(edge - other) < 0.01 and abs(o.x - slot.x) < 0.01
        if shared:
            continue
        cx, cy = slot.x + slot.w / 2, slot.y + slot.h / 2
        yield (
            side,
            {
                0: ((slot.x + d_in, cy), (slot.x, cy), (-1, 0)),
                2: ((slot.x + slot.w - d_in, cy), (slot.x + slot.w, cy), (1, 0)),
                1: ((cx, slot.y + d_in), (cx, slot.y), (0, -1)),
                3: ((cx, slot.y + slot.h - d_in), (cx, slot.y + slot.h), (0, 1)),
            }[side],
        )


def _grey(image, height, x, y, scale):
    return image.getpixel((int(x * scale), int((height - y) * scale)))


def test_every_outer_edge_of_every_card_has_art_in_its_bleed(every_form):
    """Where a card's art reaches its trim (darker than paper 1 mm inside), it runs on half the bleed beyond
    it, on every side no other card shares: full, fold-over, short-edge and single-sided forms alike."""
    paper, out = every_form
    scale = 1.0
    bare, probed = [], 0
    for game in GAMES:
        for deck in decks(game):
            faces = [(c, deck.back_for(c) is not None) for c in deck.cards for _ in range(c.count)]
            backs = any(b for _, b in faces)
            forms = [(f"{deck.id}{s}.pdf", plan_for(deck, paper)) for s in ("", "-short", "-single")]
            if (out / game / f"{deck.id}-fold.pdf").exists():
                forms.append(
                    (f"{deck.id}-fold.pdf", plan_fold(paper, deck.width_pt, deck.height_pt, deck.bleed_pt))
                )
            for name, plan in forms:
                fold = name.endswith("-fold.pdf")
                doc = pdfium.PdfDocument(str(out / game / name))
                try:
                    for sheet in range(math.ceil(len(faces) / plan.per_sheet)):
                        chunk = faces[sheet * plan.per_sheet : (sheet + 1) * plan.per_sheet]
                        index = sheet if fold or not backs else 2 * sheet
                        page = doc[index]
                        image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
                        height = page.get_height()
                        sides = [(plan.slots, [True] * len(chunk))]
                        if fold:
                            sides.append((plan.backs, [b for _, b in chunk]))
                        for slots, present in sides:
                            held = _held(slots, present)
                            for slot in held:
                                for side, (inside, edge, (dx, dy)) in _edges(slot, held):
                                    d = deck.bleed_pt / 2
                                    ink_in = _grey(image, height, *inside, scale)
                                    ink_out = _grey(image, height, edge[0] + dx * d, edge[1] + dy * d, scale)
                                    if ink_in < 200:
                                        probed += 1
                                        if ink_out > 252:  # bare paper
                                            bare.append((game, name, sheet + 1, side, ink_in, ink_out))
                finally:
                    doc.close()
    assert probed > 500
    assert not bare, (len(bare), bare[:10])


def test_single_sided_pieces_get_no_fold_over_file(every_form):
    """A deck with no backs has nothing to fold: no `-fold.pdf` written or listed."""
    paper, out = every_form
    single = 0
    for game in GAMES:
        listed = {e["path"] for e in json.loads((out / game / "manifest.json").read_text())["files"]}
        for deck in decks(game):
            has_backs = any(deck.back_for(c) is not None for c in deck.cards)
            fold = f"{deck.id}-fold.pdf"
            if not has_backs:
                single += 1
                assert fold not in listed and not (out / game / fold).exists(), (game, fold)
    assert single >= 2  # orbis' reduction markers, seven-gods' story spinner


def _contrast(a, b) -> float:
    def rel(rgb):
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((rel(a), rel(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _text_contrasts(path: Path, scale: float = 1.0) -> list[tuple[str, float]]:
    """Each character's contrast with what is printed around it: its colour against the commonest colour of
    its box widened by 1 pt, rendered at 72 dpi (characters and colours as pdfium reads and draws them)."""
    out = []
    doc = pdfium.PdfDocument(str(path))
    try:
        for page in doc:
            image = page.render(scale=scale).to_pil().convert("RGB")
            left, _, _, top = page.get_cropbox()  # the raster's top-left corner
            for ch in pdfium_read.chars(page):
                if not ch.text.strip() or ch.size < 4:
                    continue
                x0, y0, x1, y1 = ch.box
                box = (x0 - 1 - left, top - y1 - 1, x1 + 1 - left, top - y0 + 1)
                crop = image.crop(tuple(int(v * scale) for v in box))
                colours = crop.getcolors(crop.width * crop.height or 1)
                if not colours:
                    continue
                under = [v / 255 for v in max(colours)[1]]
                out.append((ch.text, _contrast([v / 255 for v in ch.rgb], under)))
    finally:
        doc.close()
    return out


def test_low_ink_text_reads_as_well_as_full_colour_on_every_face(every_form):
    """Every character of every low-ink sheet of the five games has at least its full-colour contrast with what
    lies around it, or WCAG's 4.5:1 (less 0.5 for the antialiased edges a 72 dpi raster gives)."""
    paper, out = every_form
    faded, measured = [], 0
    for game in GAMES:
        for deck in decks(game):
            full = _text_contrasts(out / game / f"{deck.id}.pdf")
            low = _text_contrasts(out / game / f"{deck.id}-lowink.pdf")
            assert [t for t, _ in full] == [t for t, _ in low], (game, deck.id)
            for (text, a), (_, b) in zip(full, low):
                measured += 1
                if b < min(a, 4.5) - 0.5:
                    faded.append((game, deck.id, text, round(a, 2), round(b, 2)))
    assert measured > 10_000
    assert not faded, (len(faded), faded[:10])
