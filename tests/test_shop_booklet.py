"""The rulebook's print version: a saddle-stitched booklet, padded to a multiple of 4 before its back cover, a
cover spread printed into the bleed, no links, every font embedded, PDF/X-1a: measured from the written file."""

from __future__ import annotations

import pdfplumber
import pikepdf
import pypdfium2
import pytest
from conftest import run_cli

from pnpgen.shop.booklet import BACK, order
from pnpgen.units import MM


def test_saddle_stitch_order():
    assert order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert order(6) == [(None, 1), (2, None), (6, 3), (4, 5)]  # padded to 8: the blanks close the book
    flat = [p for side in order(12) for p in side]
    assert sorted(flat) == list(range(1, 13))


def test_the_back_cover_closes_the_book_and_blanks_fall_inside():
    assert order(6, back=True) == [(BACK, 1), (2, None), (6, 3), (4, 5)]
    assert order(7, back=True) == [(BACK, 1), (2, 7), (6, 3), (4, 5)]
    assert order(8, back=True)[0] == (BACK, 1) and len(order(8, back=True)) == 6  # 9 pages: padded to 12


RULES = (
    "# {{ game.title }}\n\nSee [the glossary](#glossary).\n\n"
    + "".join(
        f"## Part {i}\n\n" + ("Words of the rules, written out to fill a page. " * 120) + "\n\n"
        for i in range(1, 5)
    )
    + "## Glossary\n\nA term.\n"
)


def test_pdfx_writes_the_rulebook_as_a_booklet(project, tmp_path):
    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(RULES)
    out = tmp_path / "out"
    built = run_cli("build", "sample", "--content", "content", "--out", out, cwd=root)
    assert built.exit_code == 0, built.output
    with pikepdf.open(out / "sample" / "rulebook.pdf") as pdf:
        single = len(pdf.pages)
        w, h = (float(v) for v in pdf.pages[0].MediaBox[2:])
    result = run_cli("export", "shop", "pdfx", "sample", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    booklet = out / "sample" / "shop" / "pdfx" / "rulebook-booklet.pdf"
    b = 3 * MM  # the pdfx target's bleed
    with pikepdf.open(booklet) as pdf:
        sides = len(pdf.pages)
        # the rulebook's pages and a back cover, padded to a multiple of 4
        assert sides * 2 % 4 == 0 and sides * 2 >= single + 1 > sides * 2 - 4
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == pytest.approx([0, 0, 2 * w + 2 * b, h + 2 * b])
            assert [float(v) for v in page.BleedBox] == pytest.approx([0, 0, 2 * w + 2 * b, h + 2 * b])
            assert [float(v) for v in page.TrimBox] == pytest.approx([b, b, 2 * w + b, h + b])
            assert "/Annots" not in page.obj
        assert "/Outlines" not in pdf.Root
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        fonts = {}
        for page in pdf.pages:
            stack = [page.obj]
            while stack:
                obj = stack.pop()
                res = obj.get("/Resources", {})
                fonts.update({str(f.BaseFont): f for _, f in res.get("/Font", {}).items()})
                stack += [x for _, x in res.get("/XObject", {}).items() if x.get("/Subtype") == "/Form"]
        assert fonts and all("/FontFile2" in f.FontDescriptor for f in fonts.values()), sorted(fonts)
        assert not any("Helvetica" in name for name in fonts)
    # the first sheet's right half is page 1 (the cover), its left half the back cover
    with pdfplumber.open(booklet) as pdf, pdfplumber.open(out / "sample" / "rulebook.pdf") as rules:
        first = pdf.pages[0]
        right = first.crop((w + b, 0, first.width, first.height)).extract_text()
        cover = rules.pages[0].extract_text()
        assert right.split()[:3] == cover.split()[:3]
        left = first.crop((0, 0, w + b, first.height)).extract_text()
        assert "Sample" in left and "Rules of play" not in left, left  # the back cover: the title, small
    # the cover spread's ground reaches the sheet's edge on every side; an inside sheet's bleed is paper
    doc = pypdfium2.PdfDocument(str(booklet))
    k = 1.0  # pixels per point
    outside = doc[0].render(scale=k).to_pil().convert("RGB")
    inside = doc[1].render(scale=k).to_pil().convert("RGB")
    width, height = outside.size
    edge = int(b * k / 2)  # halfway into the bleed
    for x, y in (
        (edge, height // 2),
        (width - 1 - edge, height // 2),
        (width // 4, edge),
        (3 * width // 4, height - 1 - edge),
    ):
        assert sum(outside.getpixel((x, y))) < 250, (x, y, outside.getpixel((x, y)))  # pnpgen's dark ground
        assert sum(inside.getpixel((x, y))) > 740, (x, y, inside.getpixel((x, y)))


def test_a_booklet_exported_twice_is_the_same_file(project, tmp_path):
    """Its pages' resources are named by page number, not at random (pikepdf's default prefix names)."""
    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(RULES)
    out = tmp_path / "out"
    booklet = out / "sample" / "shop" / "pdfx" / "rulebook-booklet.pdf"
    seen = []
    for _ in range(2):
        result = run_cli("export", "shop", "pdfx", "sample", "--content", "content", "--out", out, cwd=root)
        assert result.exit_code == 0, result.output
        seen.append(booklet.read_bytes())
    assert seen[0] == seen[1]


def test_the_srgb_profile_of_shop_pngs_carries_no_time():
    """littleCMS dates a profile when it makes it: the PNGs' profile would change every second."""
    from pnpgen.shop.tgc import srgb_profile

    profile = srgb_profile()
    assert profile[24:36] == bytes([7, 208, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])  # 2000-01-01 00:00:00
    assert profile[36:40] == b"acsp" and len(profile) > 128
