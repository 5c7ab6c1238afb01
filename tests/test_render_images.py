"""Bitmap art in the written PDF: stored once per file, drawn with its transparency, named by its bytes (so the
same project built in two folders gives the same bytes)."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
from conftest import run_cli
from PIL import Image

FRONT = """
elements:
  - type: rect
    area: bleed
    fill: "#0000ff"
  - type: image
    area: bleed
    src: "{{ card.art }}"
    fit: stretch
"""


def game(root: Path) -> Path:
    content = root / "content"
    g = content / "pics"
    (g / "layouts").mkdir(parents=True)
    (g / "art").mkdir()
    # left half opaque red, right half fully transparent: the blue background must show through there
    im = Image.new("RGBA", (800, 1100), (255, 0, 0, 255))
    im.paste((0, 0, 0, 0), (400, 0, 800, 1100))
    im.save(g / "art" / "half.png")
    Image.new("RGB", (800, 1100), (0, 200, 0)).save(g / "art" / "green.jpg", quality=95)
    (g / "game.yaml").write_text("id: pics\ntitle: Pics\nplayers: 2\ncomponents: [deck.yaml]\n")
    (g / "layouts" / "front.yaml").write_text(FRONT)
    cards = "".join(
        f"  - name: C{i}\n    art: {art}\n" for i, art in enumerate(["half.png", "green.jpg"] * 3)
    )
    (g / "deck.yaml").write_text(f"id: deck\nkind: cards\nsize: poker\nfront: front\ncards:\n{cards}")
    return content


def build(root: Path) -> Path:
    content = game(root)
    result = run_cli("build", "--content", content, "--out", root / "out", "--no-check")
    assert result.exit_code == 0, result.output
    return root / "out" / "pics" / "deck.pdf"


def test_art_is_stored_once_drawn_with_alpha_and_named_by_its_bytes(tmp_path):
    pdf = build(tmp_path / "one")
    data = pdf.read_bytes()
    # two files: two images and the PNG's alpha mask, however many cards draw them
    assert len(re.findall(rb"/Subtype /Image", data)) == 3
    assert str(tmp_path).encode() not in data
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[0].render(scale=50 / 72).to_pil().convert("RGB")
    doc.close()
    w = page.width
    # the first card (top left of the 3x3 sheet): the PNG's left half red, its right half shows the blue
    card_w = 63.5 / 25.4 * 50
    x0 = (w - 3 * card_w) / 2
    y = int(page.height / 2 - 88.9 / 25.4 * 50)  # inside the top row
    red = page.getpixel((int(x0 + card_w * 0.25), y))
    blue = page.getpixel((int(x0 + card_w * 0.75), y))
    green = page.getpixel((int(x0 + card_w * 1.5), y))
    assert red[0] > 200 and red[2] < 50, red
    assert blue[2] > 200 and blue[0] < 50, blue
    assert green[1] > 150 and green[0] < 50, green
    # the same project elsewhere: the same bytes
    assert build(tmp_path / "elsewhere" / "two").read_bytes() == data
