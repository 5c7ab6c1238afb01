"""Issue 29's promise walked in Chromium: from `pnpgen new`, a card laid out with the mouse alone (palette, drag,
resize, the panel, undo and redo) leaves the YAML a person would write, and it builds with --strict."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from serving import ROOT, Served
from test_serve_editor import count, drag, written

LAYOUT = "content/walk/layouts/card-front.yaml"


def pnpgen(cwd, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pnpgen", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
        capture_output=True,
        text=True,
    )


@pytest.mark.slow
def test_a_new_games_card_is_laid_out_with_the_mouse_and_builds_strict(tmp_path, browser_page):
    assert pnpgen(tmp_path, "new", "walk").returncode == 0
    layout = tmp_path / LAYOUT
    start = layout.read_text()
    served = Served(tmp_path, game="walk")
    page = browser_page
    try:
        page.goto(served.url + "#edit=walk/cards/0")
        page.wait_for_selector("#e-face-front .el", timeout=30_000)
        for kind in ("text", "icon", "rect"):
            n = count(page)
            page.click(f"button[data-add='{kind}']")
            written(page, n)
            page.wait_for_selector("#e-face-front .el.selected", timeout=30_000)
        added = layout.read_text()
        assert added.startswith(start)
        n = count(page)
        drag(page, "#e-face-front .el.selected", 15, 24)  # the new rect, moved
        written(page, n)
        page.click("#e-face-front .el.selected")
        n = count(page)
        drag(page, "#e-handle-se", 4, -3)  # and resized
        written(page, n)
        n = count(page)
        page.fill("#e-props input[data-key='fill']", "#aa3344")
        page.press("#e-props input[data-key='fill']", "Enter")
        written(page, n)
        done = layout.read_text()
        for undo, want in (("#e-undo", None), ("#e-redo", done)):
            n = count(page)
            page.click(undo)
            written(page, n)
            if want is not None:
                assert layout.read_text() == want
        assert done.startswith(start)  # the comments and values written before stay as they were
        tail = done[len(start) :]
        assert "0000" not in tail and "9999" not in tail  # numbers as a person writes them
        assert all(line.startswith(("  - type: ", "    ")) for line in tail.splitlines())
        # each added where no element starts (the name's text starts at 5, 5), so none is stacked on another
        spots = re.findall(r"^    x: (\S+)\n    y: (\S+)\n", added[len(start) :], re.M)
        assert spots == [("10", "10"), ("15", "15"), ("20", "20")]
        # the rect: dragged 15 mm right and 24 down (snapped to the guides: its top to the card's centre line,
        # 44.45 mm, to the 0.1 mm), resized by its corner (its right edge snapped to the safe line, 60.5 mm),
        # filled from the panel
        assert tail.endswith(
            '  - type: rect\n    x: 35.8\n    y: 44.5\n    w: 24.7\n    h: 6.5\n    fill: "#aa3344"\n'
        ), tail
    finally:
        print(served.stop())
    built = pnpgen(tmp_path, "build", "walk", "--strict", "--out", "out2")  # no warning, no error
    assert built.returncode == 0, built.stdout + built.stderr
    import pypdfium2 as pdfium

    sheet = pdfium.PdfDocument(tmp_path / "out2/walk/cards.pdf")[0].render(scale=1).to_pil().convert("RGB")
    px = sheet.tobytes()
    red = sum(
        1
        for i in range(0, len(px), 3)
        if abs(px[i] - 0xAA) + abs(px[i + 1] - 0x33) + abs(px[i + 2] - 0x44) < 24
    )
    mm2 = 24.7 * 6.5 * (72 / 25.4) ** 2  # the rect's area in pixels at 72 dpi, on each of the 9 cards
    assert 0.8 * 9 * mm2 < red < 1.2 * 9 * mm2
