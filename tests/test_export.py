"""Exports: image sizes print shops expect, order-keeping names, Tabletop Simulator limits, contact sheet."""

from __future__ import annotations

import csv
import json
import shutil

import pytest
from conftest import FIXTURES, ROOT, fast_once, run_cli
from PIL import Image

CONTENT = ROOT / "content"


@pytest.mark.slow
def test_png_export_gives_shop_sized_images_in_order(tmp_path):
    result = run_cli(
        "export", "png", "elements-of-the-gods", "monument", "--content", CONTENT, "--out", tmp_path
    )
    assert result.exit_code == 0, result.output
    folder = tmp_path / "elements-of-the-gods" / "png" / "monument"
    fronts = sorted(folder.glob("monument-*-front.png"))
    assert len(fronts) == 20 and fronts[0].name == "monument-001-front.png"
    for f in fronts[:3] + [folder / "monument-back.png"]:
        with Image.open(f) as im:
            assert im.size == (825, 1125) and im.mode == "RGB"  # poker + 1/8 in bleed at 300 dpi
    rows = list(csv.DictReader(open(folder / "cards.csv", encoding="utf-8")))
    assert sum(int(r["count"]) for r in rows) == 20
    assert rows[0]["front"] == "monument-001-front.png" and rows[0]["back"] == "monument-back.png"


def test_png_without_bleed_and_at_another_dpi(tmp_path):
    result = run_cli(
        "export",
        "png",
        "deity",
        "deity",
        "--content",
        CONTENT,
        "--out",
        tmp_path,
        "--dpi",
        "150",
        "--no-bleed",
    )
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / "deity" / "png" / "deity" / "deity-001-front.png") as im:
        assert im.size == (375, 525)  # 2.5 x 3.5 in at 150 dpi


@pytest.mark.slow
def test_png_export_shows_the_card_art_in_the_bleed(tmp_path):
    run_cli("export", "png", "elements-of-the-gods", "divinity", "--content", CONTENT, "--out", tmp_path)
    with Image.open(tmp_path / "elements-of-the-gods" / "png" / "divinity" / "divinity-001-front.png") as im:
        corner = im.getpixel((3, 3))
    assert corner != (255, 255, 255)  # the background runs into the bleed


@pytest.mark.slow
def test_tts_sheets_respect_the_limits_and_count_every_copy(tmp_path):
    result = run_cli("export", "tts", "deity", "--content", CONTENT, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "deity" / "tts"
    desc = json.loads((folder / "power.json").read_text())
    assert desc["cards"] == 76 and sum(s["cards"] for s in desc["sheets"]) == 76
    for sheet in desc["sheets"]:
        assert sheet["num_width"] <= 10 and sheet["num_height"] <= 7 and sheet["cards"] <= 69
        with Image.open(folder / sheet["face"]) as im:
            assert im.mode == "RGB" and max(im.size) <= 4096
            assert im.size == (
                sheet["num_width"] * desc["card_px"][0],
                sheet["num_height"] * desc["card_px"][1],
            )
        assert (folder / sheet["back"]).is_file()


@pytest.mark.slow
def test_tts_unique_backs_get_back_sheets(tmp_path):
    result = run_cli("export", "tts", "seven-gods", "envoy", "--content", CONTENT, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    desc = json.loads((tmp_path / "seven-gods" / "tts" / "envoy.json").read_text())
    assert desc["cards"] == 210 and len(desc["sheets"]) == 4
    assert all(s["unique_backs"] for s in desc["sheets"])


@pytest.mark.slow
def test_contact_sheet(tmp_path):
    result = run_cli("export", "sheet", "deity", "--content", CONTENT, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / "deity" / "deity-contact-sheet.png") as im:
        assert im.width > 300 and im.height > 200


def test_unknown_component_is_a_usage_error(tmp_path):
    result = run_cli("export", "png", "deity", "nosuch", "--content", CONTENT, "--out", tmp_path)
    assert result.exit_code == 2 and "no component 'nosuch'" in result.output


WRITERS = {  # every command that writes PNG files: its arguments, the fixture game, the dpi its files must say
    "png": (["export", "png", "sample", "--dpi", "150"], "basic", 150),
    "tts-cards": (["export", "tts", "sample"], "basic", None),
    "tts-pieces": (["export", "tts", "pieces"], "pieces", None),
    "sheet": (["export", "sheet", "sample"], "basic", None),
    "tgc-cards": (["export", "shop", "tgc", "sample"], "basic", 300),
    "tgc-pieces": (["export", "shop", "tgc", "pieces"], "pieces", 300),
}


@pytest.mark.parametrize("writer", fast_once(sorted(WRITERS)))
def test_every_png_writer_says_its_dpi(tmp_path, writer):
    args, game, dpi = WRITERS[writer]
    shutil.copytree(FIXTURES / game, tmp_path / "p")
    result = run_cli(*args, "--content", "content", "--out", "out", cwd=tmp_path / "p")
    assert result.exit_code == 0, result.output
    pngs = sorted((tmp_path / "p" / "out").rglob("*.png"))
    assert pngs
    for path in pngs:
        with Image.open(path) as im:
            said = im.info.get("dpi")
        assert said is not None and said[0] == pytest.approx(said[1]) and said[0] > 10, path.name
        if dpi is not None:
            assert said[0] == pytest.approx(dpi, abs=0.05), path.name  # pHYs: whole pixels a metre


def test_landscape_cards_are_turned_to_the_game_crafters_portrait_template(tmp_path):
    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    deck = tmp_path / "p" / "content" / "sample" / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: 88.9mm x 63.5mm"))
    result = run_cli(
        "export",
        "shop",
        "tgc",
        "sample",
        "heroes",
        "--content",
        "content",
        "--out",
        "out",
        cwd=tmp_path / "p",
    )
    assert result.exit_code == 0, result.output
    png = run_cli(
        "export", "png", "sample", "heroes", "--content", "content", "--out", "out", cwd=tmp_path / "p"
    )
    assert png.exit_code == 0, png.output
    shop = tmp_path / "p" / "out" / "sample" / "shop" / "tgc" / "heroes"
    plain = tmp_path / "p" / "out" / "sample" / "png" / "heroes"
    fronts = sorted(shop.glob("*-front.png"))
    assert fronts
    for path in fronts:
        with Image.open(path) as im, Image.open(plain / path.name) as flat:
            assert im.size == (825, 1125) and flat.size == (1125, 825)  # portrait template, landscape card
            turned = flat.convert("RGB").transpose(Image.Transpose.ROTATE_90)
            assert _mean_difference(im.convert("RGB"), turned) < 8  # the same picture, turned


def _mean_difference(a, b) -> float:
    from PIL import ImageChops, ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
