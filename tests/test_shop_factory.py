"""`pnpgen export shop factory`: punchboard sheets with die lines 6 mm apart in an overprinting spot colour,
and a separate die file, measured from the written PDFs."""

from __future__ import annotations

import itertools

import pdfplumber
import pikepdf
import pytest
from conftest import MM, run_cli

from pnpgen.shop.punchboard import least_gap, plan

CHIT = """elements:
  - type: rect
    area: bleed
    fill: ember
  - type: text
    x: 5
    y: 7
    w: 10
    h: 6
    text: "7"
    size: 10
    color: white
    align: center
    valign: middle
"""
TOKENS = """id: chits
kind: tokens
name: Chits
shape: {shape}
size: 20mm
front: chit
back: chit
tokens:
  - name: Chit
    count: 70
"""


def test_plan_keeps_the_gap_and_fills_sheets():
    boards = plan(70, 20 * MM, 20 * MM, 6 * MM)
    assert sum(len(b.slots) for b in boards) == 70
    assert all(least_gap(b, 20 * MM, 20 * MM) == pytest.approx(6 * MM) for b in boards if len(b.slots) > 1)
    with pytest.raises(ValueError, match="does not fit"):
        plan(1, 300 * MM, 20 * MM, 6 * MM)


@pytest.mark.parametrize("shape", ["square", "circle"])
def test_factory_writes_punchboards_and_a_die_file(project, tmp_path, shape):
    root = project("basic")
    game = root / "content" / "sample" / "game.yaml"
    game.write_text(
        game.read_text().replace("  - decks/minis.yaml\n", "  - decks/minis.yaml\n  - decks/chits.yaml\n")
    )
    (root / "content" / "sample" / "decks" / "chits.yaml").write_text(TOKENS.format(shape=shape))
    (root / "content" / "sample" / "layouts" / "chit.yaml").write_text(CHIT)
    out = tmp_path / "out"
    result = run_cli("export", "shop", "factory", "sample", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    folder = out / "sample" / "shop" / "factory"
    names = sorted(p.name for p in folder.iterdir())
    assert {"chits-punchboard-fronts.pdf", "chits-punchboard-backs.pdf", "chits-die.pdf"} <= set(names)
    assert "heroes-fronts.pdf" in names  # cards go one a page, as for pdfx

    with pikepdf.open(folder / "chits-punchboard-fronts.pdf") as pdf:
        pages = len(pdf.pages)
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        page = pdf.pages[0]
        spaces = page.Resources.ColorSpace
        (sep,) = [v for _, v in spaces.items()]
        assert (sep[0], sep[1], sep[2]) == ("/Separation", "/die-cut", "/DeviceCMYK")
        ops = [(str(op), list(operands)) for operands, op in pikepdf.parse_content_stream(page)]
        i = next(i for i, (op, args) in enumerate(ops) if op == "CS" and str(args[0]) in spaces)
        # stroke overprint is on when the die lines are stroked
        states = [page.Resources.ExtGState[args[0]] for op, args in ops[i:] if op == "gs"]
        assert any(bool(s.get("/OP", False)) for s in states)
        assert "S" in [op for op, _ in ops[i:]]
    with pikepdf.open(folder / "chits-die.pdf") as pdf:
        assert len(pdf.pages) == pages  # a die sheet for each printed sheet
        for page in pdf.pages:
            for _, x in page.Resources.get("/XObject", {}).items():
                pytest.fail(f"the die file draws art: {x}")

    with pdfplumber.open(folder / "chits-die.pdf") as pdf:
        boxes = []
        for page in pdf.pages:
            if shape == "square":
                shapes = [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects]
            else:
                shapes = [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in page.curves]
            boxes.append(shapes)
    assert sum(len(b) for b in boxes) == 70
    for shapes in boxes:
        for a, b in itertools.combinations(shapes, 2):
            assert (b[2] - b[0]) / MM == pytest.approx(20, abs=0.1)
            dx = max(b[0] - a[2], a[0] - b[2])
            dy = max(b[1] - a[3], a[1] - b[3])
            assert max(dx, dy) / MM >= 6 - 0.05  # die lines at least 6 mm apart
