"""Symbols a player must tell apart differ in outline, not only in colour.

Each set of tokens that stands for rival colours or Elements (Orbis's five Worshiper colours, the five Elements
of Elements of the Gods, Deity's seven Creatures) is rasterised with the PNG export. From each token the sign
is cut out as a silhouette (the pixels that stand off the token's body colour inside its centre), scaled to fill
a common grid so that only its outline counts, and every two silhouettes of a set are compared by their overlap
(intersection over union). Two signs that overlap as much as the old flame and water drop did would read alike
to a player who cannot tell the colours apart.
"""

from __future__ import annotations

import csv

import pytest
from conftest import ROOT, run_cli
from PIL import Image, ImageDraw, ImageStat

CONTENT = ROOT / "content"
DPI = 200
MAX_OVERLAP = 0.6  # the old flame and drop: 0.71 (EotG), 0.86 (Deity), 0.89 (Orbis); now at most 0.52
GRID = 40  # silhouettes are compared on a 40 x 40 grid, each scaled to fill it

pytestmark = pytest.mark.slow  # rasterises three components

SETS = [
    ("orbis", "worshiper", 0.34),  # the sign sits inside the dark rim: radius as a share of the token
    ("elements-of-the-gods", "elements", 0.36),
    ("deity", "creatures", 0.34),
]


def _silhouette(path, share: float) -> set[tuple[int, int]]:
    """The pixels of a token's sign: inside a centred disc, far from the disc's most common colour."""
    img = Image.open(path).convert("RGB")
    w, h = img.size
    cx, cy, r = w / 2, h / 2, share * w
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    # the body colour: the median of a thin ring at the disc's edge, where the sign does not reach
    ring = Image.new("L", img.size, 0)
    d = ImageDraw.Draw(ring)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    d.ellipse((cx - 0.92 * r, cy - 0.92 * r, cx + 0.92 * r, cy + 0.92 * r), fill=0)
    body = ImageStat.Stat(img, ring).median
    px, inside = img.load(), mask.load()
    points = [
        (x, y)
        for y in range(h)
        for x in range(w)
        if inside[x, y] and sum((a - b) ** 2 for a, b in zip(px[x, y], body, strict=True)) > 90**2
    ]
    if not points:
        return set()
    # the outline alone: scaled so its larger side spans the grid, centred, whatever its size on the token
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, y0 = min(xs), min(ys)
    side = max(max(xs) - x0, max(ys) - y0) + 1
    dx, dy = (side - (max(xs) - x0 + 1)) / 2, (side - (max(ys) - y0 + 1)) / 2
    return {(int((x - x0 + dx) / side * GRID), int((y - y0 + dy) / side * GRID)) for x, y in points}


@pytest.mark.parametrize("game, component, share", SETS)
def test_rival_signs_differ_in_outline(tmp_path, game, component, share):
    result = run_cli(
        "export", "png", game, component, "--no-bleed", "--dpi", DPI, "--content", CONTENT, "--out", tmp_path
    )
    assert result.exit_code == 0, result.output
    folder = tmp_path / game / "png" / component
    with open(folder / "cards.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    signs = {row["name"]: _silhouette(folder / row["front"], share) for row in rows}
    assert len(signs) >= 5
    for name, sign in signs.items():
        assert len(sign) > 100, f"{name}: no sign found on the token"
    names = sorted(signs)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            overlap = len(signs[a] & signs[b]) / len(signs[a] | signs[b])
            assert overlap < MAX_OVERLAP, f"{game}: the signs of {a} and {b} overlap {overlap:.2f}"
