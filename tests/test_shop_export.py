"""`pnpgen export shop` and `pnpgen preflight`, measured from the files they write and the lines they print."""

from __future__ import annotations

import csv
import json

from conftest import run_cli
from PIL import Image, ImageCms

LAYOUT = "content/sample/layouts/hero.yaml"


def test_tgc_writes_each_face_at_the_game_crafters_template_size(project, tmp_path):
    root = project("basic")
    out = tmp_path / "out"
    result = run_cli("export", "shop", "tgc", "sample", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    for deck, px in (("heroes", (825, 1125)), ("minis", (600, 825))):
        folder = out / "sample" / "shop" / "tgc" / deck
        pngs = sorted(folder.glob("*.png"))
        assert pngs, deck
        for path in pngs:
            with Image.open(path) as im:
                assert im.size == px, (path.name, im.size)
                assert im.mode == "RGB"
                assert [round(v) for v in im.info["dpi"]] == [300, 300]
                profile = ImageCms.ImageCmsProfile(__import__("io").BytesIO(im.info["icc_profile"]))
                assert "sRGB" in ImageCms.getProfileDescription(profile)
        with open(folder / "cards.csv", newline="") as fh:
            rows = list(csv.DictReader(fh))
        assert sum(int(r["count"]) for r in rows) == (11 if deck == "heroes" else 20)
    with open(out / "sample" / "shop" / "tgc" / "spec.csv", newline="") as fh:
        spec = {r["component"]: r for r in csv.DictReader(fh)}
    assert spec["heroes"]["files"] == "heroes/: 3 PNG images and cards.csv"  # 2 fronts, 1 shared back
    assert spec["heroes"]["pieces"] == "11"
    # the card's background reaches the image's edge: the bleed is in the picture
    with Image.open(out / "sample" / "shop" / "tgc" / "heroes" / "heroes-001-front.png") as im:
        assert im.getpixel((2, 2)) == im.getpixel((20, 20))


def _with_layout_line(root, old: str, new: str) -> None:
    layout = root / LAYOUT
    text = layout.read_text()
    assert old in text
    layout.write_text(text.replace(old, new, 1))


def test_preflight_locates_ink_over_the_limit_at_the_element_and_card(project):
    root = project("basic")
    _with_layout_line(root, 'fill: "#fbf6ea"', "fill: cmyk(80, 70, 70, 90)")
    result = run_cli("preflight", "sample", "--target", "dtc", "--content", "content", cwd=root)
    assert result.exit_code == 1, result.output
    line = next(ln for ln in result.output.splitlines() if "ink" in ln)
    assert line.startswith(f"{LAYOUT}:13:11: error: [dtc] cmyk(80,70,70,90) is 310 % ink, over the 240 %")
    assert "on card 1 'Ash Walker' of deck 'heroes'" in line
    # 310 % is within a factory's 300 %? no: it is over too; a plain RGB colour never is (it is separated)
    ok = run_cli("preflight", "sample", "--target", "tgc", "--content", "content", cwd=root)
    assert ok.exit_code == 0, ok.output


def test_preflight_json_and_export_refusing_to_write(project, tmp_path):
    root = project("basic")
    _with_layout_line(root, 'fill: "#fbf6ea"', "fill: cmyk(80, 70, 70, 90)")
    result = run_cli("preflight", "sample", "--target", "dtc", "--json", "--content", "content", cwd=root)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    (ink,) = [f for f in data["findings"] if f["code"] == "ink"]
    assert (ink["file"], ink["line"], ink["column"], ink["severity"]) == (LAYOUT, 13, 11, "error")
    assert ink["cards"][0].startswith("card 1 'Ash Walker'")
    out = tmp_path / "out"
    refused = run_cli("export", "shop", "dtc", "sample", "--content", "content", "--out", out, cwd=root)
    assert refused.exit_code == 1
    assert "is 310 % ink" in refused.output
    assert not (out / "sample" / "shop").exists()


def test_preflight_warns_of_text_in_the_cut_band_and_a_size_no_shop_sells(project):
    root = project("basic")
    _with_layout_line(root, "    x: 4\n    y: 3\n", "    x: 4\n    y: -7\n")
    deck = root / "content" / "sample" / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: 70mm x 120mm"))
    result = run_cli("preflight", "sample", "--target", "tgc", "--content", "content", cwd=root)
    assert result.exit_code == 0, result.output  # warnings only
    text = result.output
    assert (
        "content/sample/decks/heroes.yaml:1:1: warning: [tgc] The Game Crafter sells no card of 70.0 x 120.0 mm; "
        in text
    )
    assert "the nearest it sells is tarot (2.75 x 4.75 in)" in text
    assert "reaches past the trim into the cut band; on card 1 'Ash Walker'" in text
