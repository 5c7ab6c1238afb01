"""Art printed under 300 dpi is a warning in every file a PDF target writes: the components' at the element
(preflight), the rulebook booklet's (a card's art pictured in the rules, a diagram's board zoomed in) read from
the written file, at the size it prints. Measured from the written PDF: its images' pixels over their inches."""

from __future__ import annotations

import pytest
from conftest import fast_once, run_cli

from pnpgen.shop.booklet import image_resolutions

RULES = (
    "# {{ game.title }}\n\nThe heroes:\n\n{{ component_table() }}\n\n" + "Words of the rules. " * 40 + "\n"
)
ART = "  - type: image\n    src: split.png\n    x: 10\n    y: 40\n    w: {w}\n    h: {h}\n"


def _project(project, w: float, h: float):
    root = project("basic")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text() + ART.format(w=w, h=h))
    (root / "content" / "sample" / "rulebook.md").write_text(RULES)
    return root


@pytest.mark.parametrize("target", fast_once(["dtc", "pdfx", "factory"]))
def test_art_under_300_dpi_is_a_warning_for_every_file_with_it(project, tmp_path, target):
    root = _project(project, 30, 20)  # 60 x 40 px over 30 x 20 mm: 51 dpi on the card
    out = tmp_path / "out"
    result = run_cli("export", "shop", target, "sample", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    folder = out / "sample" / "shop" / target
    low = {
        path.name: min(dpi for _, dpi, _, _ in found)
        for path in sorted(folder.glob("*.pdf"))
        if path.name != "spec.pdf" and (found := image_resolutions(path))
    }
    assert "heroes-fronts.pdf" in low and low["heroes-fronts.pdf"] == pytest.approx(50.8, abs=0.5)
    assert "art-dpi" in result.output or "effective dpi" in result.output
    if target != "dtc":  # the booklet pictures the card: its art is in the file, and said to be
        assert low["rulebook-booklet.pdf"] < 300
        lines = [line for line in result.output.splitlines() if "rulebook-booklet.pdf" in line]
        assert any("dpi" in line and "warning" in line for line in lines), result.output


@pytest.mark.parametrize("target", ["pdfx", "factory"])
def test_art_at_300_dpi_or_more_is_no_warning(project, tmp_path, target):
    root = _project(
        project, 4, 3
    )  # 60 x 40 px over 4 x 3 mm: 381 dpi on the card, more when pictured smaller
    out = tmp_path / "out"
    result = run_cli("export", "shop", target, "sample", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    booklet = out / "sample" / "shop" / target / "rulebook-booklet.pdf"
    found = image_resolutions(booklet)
    assert found and min(dpi for _, dpi, _, _ in found) >= 300
    said = [line for line in result.output.splitlines() if "warning" in line and " dpi" in line]
    assert not said, said
