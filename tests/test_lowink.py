"""The low-ink form, measured from the written PDFs: its files and names, the ink it saves, text kept dark,
the `ink` name layouts see, a game's own `palette_low`, and a game's `print:` defaults under the flags."""

from __future__ import annotations

import itertools
import json
import shutil

import pdfplumber
import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, ROOT, run_cli


def ink(pdf, index=0) -> float:
    """Mean darkness of a page, 0..1."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[index].render(scale=24 / 72, grayscale=True).to_pil().convert("L")
    finally:
        doc.close()
    hist = image.histogram()
    return sum((255 - v) * n for v, n in enumerate(hist)) / (255 * sum(hist))


@pytest.fixture(scope="module")
def deity(tmp_path_factory):
    out = tmp_path_factory.mktemp("lowink")
    result = run_cli(
        "build", "deity", "--content", ROOT / "content", "--out", out, "--ink", "both", "--no-check"
    )
    assert result.exit_code == 0, result.output
    return out / "deity"


def test_both_inks_write_each_sheet_and_board_twice_and_list_them(deity):
    names = {e["path"] for e in json.loads((deity / "manifest.json").read_text())["files"]}
    for stem in ("deity", "power", "aid", "terrain", "creatures", "rings", "board", "board-full"):
        assert {f"{stem}.pdf", f"{stem}-lowink.pdf"} <= names
    assert {"rulebook.pdf", "rulebook-lowink.pdf", "print-all.pdf", "print-all-lowink.pdf"} <= names


def test_the_low_ink_rulebook_has_a_pale_cover_and_low_ink_pictures(deity):
    cover_full, cover_low = ink(deity / "rulebook.pdf"), ink(deity / "rulebook-lowink.pdf")
    assert cover_low < 0.5 * cover_full, (cover_full, cover_low)
    with pdfplumber.open(deity / "rulebook.pdf") as a, pdfplumber.open(deity / "rulebook-lowink.pdf") as b:
        assert len(a.pages) == len(b.pages)  # the same book, page for page
        # the second page with pictures (the cover is the first): parsed page by page, up to it and no further
        pictured = (i for i, page in enumerate(a.pages) if page.images or len(page.rects) > 20)
        k = next(itertools.islice(pictured, 1, None), None)
    assert k is not None  # a page with pictures of the components prints with less ink too
    assert ink(deity / "rulebook-lowink.pdf", k) < ink(deity / "rulebook.pdf", k)


@pytest.mark.parametrize("stem", ["deity", "power", "aid", "board-full"])
def test_low_ink_uses_well_under_two_thirds_of_the_ink(deity, stem):
    full, low = ink(deity / f"{stem}.pdf"), ink(deity / f"{stem}-lowink.pdf")
    assert low < 0.6 * full, (stem, full, low)


def test_low_ink_text_is_never_light(deity):
    """Text that stood light on a dark banner turns dark with the banner made pale: no character of the
    low-ink cards is drawn lighter than mid grey."""
    with pdfplumber.open(deity / "deity-lowink.pdf") as pdf:
        page = pdf.pages[0]
        x0, y0, x1, y1 = (float(v) for v in page.page_obj.attrs["TrimBox"])
        colours = {
            tuple(round(v, 3) for v in (c.get("non_stroking_color") or (0,)))
            for c in page.chars
            if x0 <= c["x0"] <= x1 and c["text"].strip()
        }
    assert colours
    for colour in colours:
        grey = sum(colour) / len(colour) if len(colour) == 3 else 1 - colour[0] if len(colour) == 1 else 0
        assert grey < 0.6, colour
    with pdfplumber.open(deity / "deity.pdf") as pdf:  # the full form does have light text
        assert any(
            sum(c.get("non_stroking_color") or (0, 0, 0)) / 3 > 0.8
            for c in pdf.pages[0].chars
            if c["text"].strip()
        )


def _game(tmp_path, extra_yaml: str = "", layout_fill: str = '"#203040"'):
    src = FIXTURES / "duplex"
    dest = tmp_path / "p"
    shutil.copytree(src, dest)
    game = dest / "content" / "duplex"
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + extra_yaml)
    front = game / "layouts" / "ident-front.yaml"
    front.write_text(front.read_text().replace('fill: "#c8431a"', f"fill: {layout_fill}", 1))
    return dest / "content"


def _fills(pdf) -> set:
    with pdfplumber.open(pdf) as doc:
        return {tuple(round(v, 3) for v in r.get("non_stroking_color") or ()) for r in doc.pages[0].rects}


def test_layouts_see_ink_and_a_game_may_design_its_low_form(tmp_path):
    content = _game(
        tmp_path,
        "palette:\n  banner: '#203040'\npalette_low:\n  banner: '#e0f0ff'\n",
        "\"{{ 'banner' if ink == 'low' else '#102030' }}\"",
    )
    out = tmp_path / "out"
    result = run_cli("build", "--content", content, "--out", out, "--ink", "both")
    assert result.exit_code == 0, result.output
    low = _fills(out / "duplex" / "poker-lowink.pdf")
    full = _fills(out / "duplex" / "poker.pdf")
    assert (round(0xE0 / 255, 3), round(0xF0 / 255, 3), 1.0) in low  # palette_low's banner, not transformed
    assert (round(0x10 / 255, 3), round(0x20 / 255, 3), round(0x30 / 255, 3)) in full


def test_without_palette_low_pnpgen_pales_large_fills(tmp_path):
    out = tmp_path / "out"
    result = run_cli("build", "--content", _game(tmp_path), "--out", out, "--ink", "low")
    assert result.exit_code == 0, result.output
    assert not (out / "duplex" / "poker.pdf").exists()
    fills = _fills(out / "duplex" / "poker-lowink.pdf")
    assert fills and all(min(f) > 0.85 for f in fills if len(f) == 3), fills


def test_a_games_print_defaults_choose_its_forms_and_flags_override_them(tmp_path):
    content = _game(tmp_path, "print:\n  duplex: short\n  fold: true\n  ink: both\n  supply: [two dice]\n")
    out = tmp_path / "out"
    assert run_cli("build", "--content", content, "--out", out).exit_code == 0
    names = {p.name for p in (out / "duplex").glob("poker*.pdf")}
    assert names == {"poker-short.pdf", "poker-short-lowink.pdf", "poker-fold.pdf", "poker-fold-lowink.pdf"}
    again = run_cli("build", "--content", content, "--out", out)
    assert "0 rendered" in again.output or "up to date" in again.output, again.output
    assert (
        run_cli("build", "--content", content, "--out", out, "--duplex", "long", "--ink", "full").exit_code
        == 0
    )
    names = {p.name for p in (out / "duplex").glob("poker*.pdf")}
    assert names == {"poker.pdf", "poker-fold.pdf"}  # the game's fold default stays; the flags set the rest


def test_a_bad_print_section_is_located(tmp_path):
    content = _game(tmp_path, "print:\n  duplex: sideways\n")
    result = run_cli("build", "--content", content, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "game.yaml:" in result.output and "must be one of long, short, none" in result.output


@pytest.mark.parametrize("text", ["#ffffff", "#f7f0df", "#1d1d1b", "#7a5c1e", "#d9b24a"])
@pytest.mark.parametrize("under", ["#1d1d1b", "#2b3a67", "#c8102e", "#e2b022", "#f7f0df", None])
@pytest.mark.parametrize("size", [8.0, 60.0])  # a small disc keeps its colour; a large panel turns pale
def test_low_ink_text_reads_at_least_as_well_as_in_full_colour(text, under, size):
    """Every text colour on every kind of shape under it (or on the paper): in low ink its contrast with what
    now lies under it is at least the full form's, or WCAG's 4.5:1."""
    from pnpgen.faces import Ellipse, Face, Rect, Text
    from pnpgen.lowink import contrast, low_ink

    ops: list = [Rect(0, 0, 180, 252, fill="#f7f0df")]
    if under is not None:
        ops.append(Ellipse(40, 40, size, size, fill=under))
    ops.append(Text(40 + size / 2 - 2, 40 + size / 2 - 3, "sans", 7, text, "5"))
    face = Face(180, 252, 8.5, tuple(ops))
    low = low_ink(face)
    full_under = under or "#f7f0df"
    low_under = [op for op in low.ops if not isinstance(op, Text)][-1].fill
    after = contrast(low.ops[-1].color, low_under)
    assert after >= min(contrast(text, full_under), 4.5) - 1e-6, (after, low.ops[-1].color, low_under)


def test_an_icon_on_a_small_disc_that_keeps_its_colour_is_not_veiled():
    from pnpgen.faces import Ellipse, Face, Rect, Vector
    from pnpgen.lowink import low_ink

    icon = Vector("/x.svg", "0" * 64, 42, 42, 6, 6, (42, 42, 6, 6))
    face = Face(
        180, 252, 8.5, (Rect(0, 0, 180, 252, fill="#f7f0df"), Ellipse(40, 40, 10, 10, fill="#1d1d1b"), icon)
    )
    assert low_ink(face).ops[-1] == icon  # nothing drawn over it


def test_both_inks_draw_within_one_build_budget(tmp_path, monkeypatch, most_spent):
    """The template budget is the build's (README, Trust: 20,000,000 steps per build): the low-ink form spends
    the budget the full form spends, not one of its own (with `--ink both` a game had twice the steps). A build of
    the low form alone draws the full form too (its cards' records), so it spends as `--ink both` does."""
    import pnpgen.budget as budget

    content = _game(tmp_path, "", "\"{{ 'banner' if ink == 'low' else '#102030' }}\"")
    probe = run_cli("build", "--content", content, "--out", tmp_path / "probe", "--no-check", "-j", "1")
    assert probe.exit_code == 0, probe.output
    spent = most_spent()  # one ink's drawing
    assert spent >= 10
    monkeypatch.setattr(budget, "MAX_BUILD_STEPS", spent * 3 // 2)
    for ink, ok in (("full", True), ("low", False), ("both", False)):
        out = tmp_path / f"out-{ink}"
        result = run_cli("build", "--content", content, "--out", out, "--no-check", "--ink", ink, "-j", "1")
        assert (result.exit_code == 0) is ok, (ink, result.output)
        if not ok:
            assert f"more than {spent * 3 // 2:,} steps in one build" in result.output
            assert not out.exists()  # nothing written
