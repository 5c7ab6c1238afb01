"""A board goes to the PDF/X targets at its own bleed (the page's BleedBox says so): under the target's 3 mm with
art reaching the trim, the shop's cut can leave a white edge, so preflight says so at the board. A sheet whose
art stops short of the trim (a white-edged sheet of dice to fold) needs no bleed and is no warning. Measured from
the written file's boxes and the export's messages."""

from __future__ import annotations

import pikepdf
import pytest
from conftest import MM, fast_once, run_cli


def _export(project, tmp_path, target: str, bleed: str, background: str = "#e9dfc8"):
    root = project("pieces")
    board = root / "content" / "pieces" / "tiles" / "board.yaml"
    board.write_text(board.read_text().replace("bleed: 3mm", f"bleed: {bleed}"))
    layout = root / "content" / "pieces" / "layouts" / "board-side.yaml"
    text = layout.read_text()
    ground = f'  - type: rect\n    area: bleed\n    fill: "{background}"\n' if background else ""
    layout.write_text(text.replace('  - type: rect\n    area: bleed\n    fill: "#e9dfc8"\n', ground, 1))
    out = tmp_path / "out"
    result = run_cli("export", "shop", target, "pieces", "board", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    with pikepdf.open(out / "pieces" / "shop" / target / "board.pdf") as pdf:
        page = pdf.pages[0]
        written = (float(page.TrimBox[0]) - float(page.BleedBox[0])) / MM
    said = [line for line in result.output.splitlines() if "bleed" in line and "warning" in line]
    return written, said


@pytest.mark.parametrize("target", ["pdfx", "factory"])
@pytest.mark.parametrize("bleed", fast_once(["0mm", "1mm", "2.5mm"]))
def test_a_board_under_the_targets_bleed_with_art_to_the_trim_is_a_warning(project, tmp_path, target, bleed):
    written, said = _export(project, tmp_path, target, bleed)
    assert written == pytest.approx(float(bleed[:-2]), abs=0.01)
    assert len(said) == 1, said
    assert "tiles/board.yaml" in said[0] and f"{float(bleed[:-2]):.1f} mm" in said[0] and "3.0 mm" in said[0]


@pytest.mark.parametrize("target", ["pdfx", "factory"])
def test_a_board_at_the_targets_bleed_is_no_warning(project, tmp_path, target):
    written, said = _export(project, tmp_path, target, "3mm")
    assert written == pytest.approx(3.0, abs=0.01)
    assert not said


@pytest.mark.parametrize(
    "target, background",
    fast_once([(t, b) for b in ("", "white", "#FFFFFF", "cmyk(0, 0, 0, 0)") for t in ("pdfx", "factory")]),
)
def test_a_white_edged_sheet_needs_no_bleed(project, tmp_path, target, background):
    written, said = _export(project, tmp_path, target, "0mm", background=background)
    assert written == pytest.approx(0.0, abs=0.01)
    assert not said
