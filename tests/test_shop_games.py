"""Every shipped game through every shop target: files written, and each PDF read back as PDF/X-1a in CMYK."""

from __future__ import annotations

import pikepdf
import pytest
from conftest import ROOT, run_cli

GAMES = ["deity", "elements-of-the-gods", "orbis", "river", "seven-gods"]
ALLOWED = {"k", "K", "cs", "CS", "scn", "SCN"}  # scn only for the die-cut spot colour (checked below)


def _check_pdfx(path) -> None:
    with pikepdf.open(path) as pdf:
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003", path.name
        assert pdf.Root.OutputIntents[0].S == "/GTS_PDFX"
        seen, todo = set(), [p.obj for p in pdf.pages]
        for page in pdf.pages:
            assert "/TrimBox" in page.obj and "/BleedBox" in page.obj and "/Annots" not in page.obj
        while todo:
            obj = todo.pop()
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            res = obj.get("/Resources", pikepdf.Dictionary())
            spaces = res.get("/ColorSpace", {})
            for operands, op in pikepdf.parse_content_stream(obj):
                name = str(op)
                if name in ("rg", "RG", "g", "G", "sc", "SC"):
                    pytest.fail(f"{path.name}: '{name}' {list(operands)}")
                if name in ("cs", "CS"):
                    assert spaces[str(operands[0])][1] == "/die-cut", path.name
            for _, font in res.get("/Font", {}).items():
                assert "/FontFile2" in font.FontDescriptor, (path.name, str(font.BaseFont))
            for _, x in res.get("/XObject", {}).items():
                if x.get("/Subtype") == "/Form":
                    todo.append(x)
                else:
                    assert x.ColorSpace in ("/DeviceCMYK", "/DeviceGray"), path.name


TARGETS = ("dtc", "pdfx", "factory")
# every target on Seven Gods (cards, tiles, tokens, boards, a spinner: every kind of piece), and every other game
# through one target by turns: each target meets two or three games (an export draws the whole game: 2-4 s)
CASES = [("seven-gods", t) for t in TARGETS] + [
    (g, TARGETS[i % 3]) for i, g in enumerate(g for g in GAMES if g != "seven-gods")
]


@pytest.mark.slow
@pytest.mark.parametrize("game, target", CASES)
def test_every_target_writes_a_shipped_game(game, target, tmp_path):
    out = tmp_path / "out"
    result = run_cli("export", "shop", target, game, "--content", ROOT / "content", "--out", out)
    assert result.exit_code == 0, result.output
    folder = out / game / "shop" / target
    pdfs = [p for p in folder.glob("*.pdf") if p.name != "spec.pdf"]
    assert pdfs, target
    for path in pdfs:
        _check_pdfx(path)
    assert (folder / "spec.csv").exists()
    if target != "dtc":
        return
    # The Game Crafter: the smallest card deck (a whole game's PNGs take minutes), at its template size
    import csv

    from PIL import Image

    from pnpgen.shop.sizes import CARD_SIZES

    with open(out / game / "shop" / "dtc" / "spec.csv", newline="") as fh:
        decks = [r for r in csv.DictReader(fh) if r["kind"] == "cards"]
    deck = min(decks, key=lambda r: int(r["pieces"]))
    result = run_cli(
        "export", "shop", "tgc", game, deck["component"], "--content", ROOT / "content", "--out", out
    )
    assert result.exit_code == 0, result.output
    images = sorted((out / game / "shop" / "tgc" / deck["component"]).glob("*.png"))
    inches = deck["size"].split("(")[1].split(" in")[0].split(" x ")
    sold = {(s.width_in, s.height_in): s for s in CARD_SIZES}
    size = sold.get((float(inches[0]), float(inches[1])))
    for path in images:
        with Image.open(path) as im:
            assert round(im.info["dpi"][0]) == 300
            if size is not None:
                assert im.size == size.template_px(), (path.name, im.size)
