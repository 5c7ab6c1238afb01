"""A Deity Creature stands out on its own tile.

A Creature may only stand on a tile of its own Element, whose centre carries that Element's medallion. Each
Creature Token is rasterised (the PNG export) and laid over the centre of its Element's Tier 1 and Tier 2 tiles,
as a player would place it; the ground of the token's rim must contrast with the tile beneath it (WCAG ratio of
at least 2; the plain-coloured tokens this replaced measured 1.0 to 1.3: they vanished into the medallion).
"""

from __future__ import annotations

import csv

import pytest
from conftest import ROOT, run_cli
from PIL import Image, ImageDraw, ImageStat

CONTENT = ROOT / "content"
DPI = 150
MM = DPI / 25.4
TOKEN_MM, TILE_MM = 16, 40

pytestmark = pytest.mark.slow  # rasterises two components


def _ring(img: Image.Image, centre: tuple[float, float], r_in_mm: float, r_out_mm: float) -> tuple:
    """The median colour (the ground, not the beads) of an annulus of an image, radii in mm from a centre in pixels."""
    mask = Image.new("L", img.size, 0)
    d = ImageDraw.Draw(mask)
    cx, cy = centre
    d.ellipse((cx - r_out_mm * MM, cy - r_out_mm * MM, cx + r_out_mm * MM, cy + r_out_mm * MM), fill=255)
    d.ellipse((cx - r_in_mm * MM, cy - r_in_mm * MM, cx + r_in_mm * MM, cy + r_in_mm * MM), fill=0)
    return tuple(ImageStat.Stat(img.convert("RGB"), mask).median)


def _luminance(rgb: tuple) -> float:
    """Relative luminance (WCAG) of an sRGB colour given as 0-255 channels."""
    lin = [(c / 255) / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: tuple, b: tuple) -> float:
    """The WCAG contrast ratio of two colours: 1 (the same) to 21 (black on white)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _faces(folder, component: str) -> dict[str, list]:
    """Each piece's element (the first word of its name) -> its front and back PNGs, from the export's cards.csv."""
    with open(folder / component / "cards.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 7, rows
    return {
        row["name"].split()[0].lower(): [
            Image.open(folder / component / row[side]) for side in ("front", "back")
        ]
        for row in rows
    }


def test_a_creature_token_stands_out_on_its_own_tile(tmp_path):
    result = run_cli(
        "export", "png", "deity", "terrain", "creatures", "--no-bleed", "--dpi", DPI,
        "--content", CONTENT, "--out", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    folder = tmp_path / "deity" / "png"
    tokens, tiles = _faces(folder, "creatures"), _faces(folder, "terrain")
    assert set(tokens) == set(tiles) == {"fire", "water", "air", "earth", "light", "dark", "chaos"}
    for element, (token, _) in tokens.items():
        assert abs(token.size[0] - TOKEN_MM * MM) <= 2
        t = token.size[0] / 2
        rim = _ring(token, (t, t), 6.3, 7.7)  # the band inside the token's cut edge
        for tier, tile in enumerate(tiles[element], 1):
            assert abs(tile.size[0] - TILE_MM * MM) <= 2
            c = tile.size[0] / 2
            under = _ring(tile, (c, c), 6.3, 7.7)  # the same band of the tile, under the token
            assert _contrast(rim, under) >= 2.0, (
                f"the {element} Creature's rim {rim} hardly shows on its Tier {tier} tile {under}"
            )
