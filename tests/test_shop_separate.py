"""The CMYK separation of content streams, operator by operator, and transparency refused in PDF/X-1a."""

from __future__ import annotations

import pikepdf
from conftest import run_cli

from pnpgen.shop.separate import _Stream


def _run(text: bytes):
    pdf = pikepdf.new()
    out = _Stream(2.4).run(pikepdf.parse_content_stream(pikepdf.Stream(pdf, text)))
    return [([str(v) for v in operands], str(op)) for operands, op in out]


def test_rgb_becomes_cmyk_and_near_black_text_becomes_pure_k_overprinting():
    out = _run(b"0.113725 0.113725 0.105882 rg 0 0 10 10 re f BT /F1 9 Tf (Hi) Tj ET 0 0 5 5 re f")
    ops = [op for _, op in out]
    assert "rg" not in ops
    bt, et = ops.index("BT"), ops.index("ET")
    inside = out[bt:et]
    assert (["0", "0", "0", "1"], "k") in inside
    assert (["/PnpOPf"], "gs") in inside  # fill overprint on for the text
    after = out[et:]
    k_after = [args for args, op in after if op == "k"]
    assert k_after and k_after[0] != ["0", "0", "0", "1"]  # the dark grey comes back for the rectangle
    assert (["/PnpKO"], "gs") in after


def test_a_saturated_colour_is_held_to_the_ink_limit():
    out = _run(b"0.5 0 0 rg")
    (args,) = [a for a, op in out if op == "k"]
    assert sum(float(v) for v in args) <= 2.4 + 1e-3


def test_opacity_is_a_preflight_error_for_pdfx_and_nothing_is_written(project, tmp_path):
    root = project("basic")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text().replace('fill: "#fbf6ea"', 'fill: "#fbf6ea"\n    opacity: 0.8', 1))
    out = tmp_path / "out"
    result = run_cli("export", "shop", "pdfx", "sample", "--content", "content", "--out", out, cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/layouts/hero.yaml:7:5: error: [pdfx] opacity 0.8: PDF/X-1a allows no transparency"
        in (result.output)
    )
    assert not (out / "sample" / "shop").exists()
    ok = run_cli("preflight", "sample", "--target", "tgc", "--content", "content", cwd=root)
    assert ok.exit_code == 0  # The Game Crafter takes RGB PNGs: transparency is flattened by the rasteriser
