"""Exports: image sizes print shops expect, order-keeping names, Tabletop Simulator limits, contact sheet."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import ROOT, run_cli
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
