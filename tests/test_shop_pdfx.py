"""`pnpgen export shop dtc|pdfx`: PDF/X-1a:2003 in CMYK, read back with pikepdf operator by operator."""

from __future__ import annotations

import shutil
import subprocess

import pikepdf
import pytest
from conftest import MM, run_cli

COLOUR_OPS = {"rg", "RG", "g", "G", "k", "K", "sc", "SC", "scn", "SCN", "cs", "CS"}


def streams(pdf):
    """(holder, resources, instructions) for every page and form XObject, each once."""
    seen, todo = set(), [p.obj for p in pdf.pages]
    while todo:
        obj = todo.pop()
        if obj.objgen in seen and obj.objgen != (0, 0):
            continue
        seen.add(obj.objgen)
        resources = obj.get("/Resources", pikepdf.Dictionary())
        yield obj, resources, pikepdf.parse_content_stream(obj)
        for _, x in resources.get("/XObject", {}).items():
            if x.get("/Subtype") == "/Form":
                todo.append(x)


@pytest.fixture
def exported(project, tmp_path):
    root = project("basic")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: split.png\n    x: 10\n    y: 40\n    w: 5\n    h: 4\n"
        + "  - type: text\n    x: 5\n    y: 50\n    w: 50\n    h: 8\n    text: Black words\n    size: 8\n"
        + "    color: black\n"
        + '  - type: rect\n    x: 20\n    y: 40\n    w: 10\n    h: 10\n    fill: "#800000"\n'
    )
    game = root / "content" / "sample" / "game.yaml"
    game.write_text(game.read_text().replace('sea: "#1f6fb2"', "sea: cmyk(90, 40, 0, 10)"))
    out = tmp_path / "out"

    def run(target: str):
        result = run_cli("export", "shop", target, "sample", "--content", "content", "--out", out, cwd=root)
        assert result.exit_code == 0, result.output
        return out / "sample" / "shop" / target

    return run


def test_dtc_is_pdf_x1a_cmyk_one_card_per_page_with_an_eighth_inch_bleed(exported):
    folder = exported("dtc")
    assert sorted(p.name for p in folder.iterdir()) == [
        "heroes-backs.pdf",
        "heroes-fronts.pdf",
        "minis-fronts.pdf",
        "spec.csv",
        "spec.pdf",
    ]
    for path in folder.glob("*-*.pdf"):
        with pikepdf.open(path) as pdf:
            assert pdf.pdf_version == "1.4"
            assert "/ID" in pdf.trailer
            info = pdf.docinfo
            assert str(info.GTS_PDFXVersion) == "PDF/X-1a:2003"
            assert info.Trapped == pikepdf.Name("/False")
            (intent,) = pdf.Root.OutputIntents
            assert intent.S == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
            assert str(intent.RegistryName) == "http://www.color.org"
            for page in pdf.pages:
                trim = [float(v) for v in page.obj.TrimBox]
                bleed = [float(v) for v in page.obj.BleedBox]
                media = [float(v) for v in page.MediaBox]
                assert bleed == media
                assert [t - b for t, b in zip(trim[:2], bleed[:2])] == pytest.approx([9, 9])  # 1/8 in
                assert [b - t for t, b in zip(trim[2:], bleed[2:])] == pytest.approx([9, 9])
                assert "/Annots" not in page.obj
            for _holder, resources, instructions in streams(pdf):
                ops = {str(op) for _, op in instructions}
                assert not (ops & COLOUR_OPS) - {"k", "K"}, (path.name, ops & COLOUR_OPS)
                assert "BI" not in ops
                for _, font in resources.get("/Font", {}).items():
                    assert "/FontFile2" in font.FontDescriptor, font.get("/BaseFont")
                for _, state in resources.get("/ExtGState", {}).items():
                    assert float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1
                for _, x in resources.get("/XObject", {}).items():
                    if x.get("/Subtype") == "/Image":
                        assert x.ColorSpace == "/DeviceCMYK" and "/SMask" not in x
    with pikepdf.open(folder / "heroes-fronts.pdf") as pdf:
        assert len(pdf.pages) == 11  # 5 + 6 copies, one card a page
        w, h = (float(v) for v in pdf.pages[0].obj.TrimBox[2:])
        assert ((w - 9) / MM, (h - 9) / MM) == pytest.approx((63.5, 88.9), abs=0.01)
        texts = []
        for _holder, resources, instructions in streams(pdf):
            ops = [(str(op), [str(v) for v in operands]) for operands, op in instructions]
            texts += _black_text(ops, resources)
        assert texts and all(texts), "black text is 0 0 0 1 k with fill overprint on"
        # the palette's cmyk() is kept exactly
        every = [
            [str(v) for v in operands]
            for _h, _r, instructions in streams(pdf)
            for operands, op in instructions
            if str(op) == "k"
        ]
        assert ["0.9", "0.4", "0", "0.1"] in every


def _black_text(ops, resources) -> list[bool]:
    """For each text object drawn in pure black: is fill overprint on at that point?"""
    fill, overprint, pending, found = None, False, False, []
    for op, args in ops:
        if op == "k":
            fill = [float(a) for a in args]
        elif op == "gs":
            state = resources.ExtGState[args[0]]
            overprint = bool(state.get("/op", False))
        elif op == "BT":
            pending = True
        elif op in ("Tj", "TJ") and pending:
            pending = False
            if fill == [0, 0, 0, 1]:
                found.append(overprint)
    return found


def test_pdfx_covers_every_component_with_fogra39(exported):
    folder = exported("pdfx")
    names = sorted(p.name for p in folder.iterdir())
    assert "heroes-fronts.pdf" in names and "minis-fronts.pdf" in names
    with pikepdf.open(folder / "heroes-fronts.pdf") as pdf:
        assert str(pdf.Root.OutputIntents[0].OutputConditionIdentifier) == "FOGRA39"
        trim, media = pdf.pages[0].obj.TrimBox, pdf.pages[0].MediaBox
        assert (float(trim[0]) - float(media[0])) / MM == pytest.approx(3.0)


@pytest.mark.skipif(shutil.which("gs") is None, reason="ghostscript is not installed")
def test_ghostscript_sees_only_cmyk_and_black_text_only_in_k(exported):
    folder = exported("dtc")
    # inkcov: per page the coverage of C, M, Y and K; a page of the minis (white-on-ember) has all four
    run = subprocess.run(
        ["gs", "-q", "-o", "-", "-sDEVICE=inkcov", str(folder / "heroes-fronts.pdf")],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [ln.split() for ln in run.stdout.splitlines() if ln.strip().endswith("OK")]
    assert len(rows) == 11
    assert all(row[4] == "CMYK" for row in rows)


def test_a_spec_sheet_lists_every_component_as_written(exported):
    import csv

    import pdfplumber

    folder = exported("dtc")
    with open(folder / "spec.csv", newline="") as fh:
        rows = {r["component"]: r for r in csv.DictReader(fh)}
    heroes = rows["heroes"]
    assert (heroes["kind"], heroes["sides"], heroes["pieces"]) == ("cards", "2", "11")
    assert heroes["size"] == "63.5 x 88.9 mm (2.50 x 3.50 in)"
    # every card shares one back: the backs file is one page
    assert heroes["files"] == "heroes-fronts.pdf: 11 pages; heroes-backs.pdf: 1 page"
    assert rows["minis"]["files"] == "minis-fronts.pdf: 20 pages"
    assert heroes["rules check"] == "held: no finding"
    with pikepdf.open(folder / "heroes-backs.pdf") as pdf:
        assert len(pdf.pages) == 1
    with pdfplumber.open(folder / "spec.pdf") as pdf:
        text = pdf.pages[0].extract_text()
        assert "Sample Game: manufacturing specification" in text
        assert "DriveThruCards" in text and "Hero cards (heroes)" in text
        assert all(f["fontname"].split("+")[-1].startswith("Noto") for f in pdf.pages[0].chars)


@pytest.mark.skipif(shutil.which("gs") is None, reason="ghostscript is not installed")
def test_no_pixel_carries_more_ink_than_the_limit(exported, tmp_path):
    """Ghostscript separates the written file (tiff32nc: CMYK pixels); the sum of the four inks of every
    pixel stays under DriveThruCards' 240 %, dark colours included."""
    from PIL import Image

    folder = exported("dtc")
    worst = 0.0
    for name in ("heroes-fronts.pdf", "minis-fronts.pdf", "heroes-backs.pdf"):
        tif = tmp_path / f"{name}.tif"
        subprocess.run(
            [
                "gs",
                "-q",
                "-o",
                str(tif),
                "-sDEVICE=tiff32nc",
                "-r50",
                "-dFirstPage=1",
                "-dLastPage=2",
                str(folder / name),
            ],
            check=True,
        )
        with Image.open(tif) as im:
            assert im.mode == "CMYK"
            raw = im.tobytes()
            worst = max(worst, max(sum(raw[i : i + 4]) for i in range(0, len(raw), 4)) / 255)
    assert 2.3 < worst <= 2.4 + 0.02, worst  # the dark red square: 250 % by the plain formula


def test_the_same_export_gives_the_same_bytes(exported):
    import hashlib

    def digests(folder):
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}

    first = digests(exported("dtc"))
    second = digests(exported("dtc"))
    assert first == second


def test_a_failure_halfway_leaves_the_last_export_as_it_was(exported, monkeypatch):
    import hashlib

    from pnpgen.shop import separate as separate_module
    from pnpgen.shop.separate import SeparationError

    folder = exported("dtc")
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    calls = {"n": 0}
    real = separate_module.separate

    def flaky(pdf, limit, profile=None):
        calls["n"] += 1
        if calls["n"] == 2:  # the second file of the export
            raise SeparationError("a colour space pnpgen cannot separate (made up for the test)")
        return real(pdf, limit, profile)

    monkeypatch.setattr("pnpgen.shop.pdfx.separate", flaky)
    root = folder.parents[3]
    result = run_cli(
        "export", "shop", "dtc", "sample", "--content", root / "basic" / "content", "--out", folder.parents[2]
    )
    assert result.exit_code == 1
    assert "cannot be made PDF/X-1a: a colour space pnpgen cannot separate" in result.output
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    assert after == before
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")]  # no staging folder left
