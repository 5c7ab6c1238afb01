"""The CMYK separation of content streams, operator by operator, and transparency refused in PDF/X-1a."""

from __future__ import annotations

import pikepdf
from conftest import run_cli

from pnpgen.shop.separate import Inks, _Stream


def _run(text: bytes):
    pdf = pikepdf.new()
    out = _Stream(Inks(2.4)).run(pikepdf.parse_content_stream(pikepdf.Stream(pdf, text)))
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
        "content/sample/layouts/hero.yaml:14:14: error: [pdfx] opacity 0.8: PDF/X-1a allows no transparency"
        in (result.output)
    )
    assert not (out / "sample" / "shop").exists()
    ok = run_cli("preflight", "sample", "--target", "tgc", "--content", "content", cwd=root)
    assert ok.exit_code == 0  # The Game Crafter takes RGB PNGs: transparency is flattened by the rasteriser


GRADIENT = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ff0000"/>
<stop offset="0.5" stop-color="#00ff00"/><stop offset="1" stop-color="#0000ff"/></linearGradient></defs>
<rect x="0" y="0" width="100" height="100" fill="url(#g)"/></svg>
"""


def test_an_svg_gradient_is_separated_stop_by_stop(project, tmp_path):
    root = project("basic")
    (root / "content" / "sample" / "art" / "grad.svg").write_text(GRADIENT)
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: grad.svg\n    x: 10\n    y: 40\n    w: 20\n    h: 20\n"
    )
    out = tmp_path / "out"
    result = run_cli(
        "export", "shop", "dtc", "sample", "heroes", "--content", "content", "--out", out, cwd=root
    )
    assert result.exit_code == 0, result.output
    stops = []
    with pikepdf.open(out / "sample" / "shop" / "dtc" / "heroes-fronts.pdf") as pdf:
        seen, todo = set(), [p.obj for p in pdf.pages]
        while todo:
            obj = todo.pop()
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            res = obj.get("/Resources", pikepdf.Dictionary())
            for _, shading in res.get("/Shading", {}).items():
                assert shading.ColorSpace == "/DeviceCMYK"
                for fn in shading.Function.Functions:
                    stops.append([float(v) for v in fn.C0])
            todo += [x for _, x in res.get("/XObject", {}).items() if x.get("/Subtype") == "/Form"]
    assert [0, 1, 1, 0] in stops and [1, 0, 1, 0] in stops  # red and green, as process colours


def test_art_with_a_profile_other_than_srgb_is_a_warning(project):
    from PIL import Image, ImageCms

    root = project("basic")
    art = root / "content" / "sample" / "art"
    lab = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    Image.new("RGB", (600, 600), "#884422").save(art / "tagged.png", icc_profile=lab)
    Image.new("RGB", (600, 600), "#884422").save(art / "plain.png", icc_profile=srgb)
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: tagged.png\n    x: 10\n    y: 40\n    w: 20\n    h: 20\n"
        + "  - type: image\n    src: plain.png\n    x: 30\n    y: 40\n    w: 20\n    h: 20\n"
    )
    result = run_cli("preflight", "sample", "--target", "dtc", "--content", "content", cwd=root)
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.output.splitlines() if "colour profile" in ln]
    assert len(lines) == 1 and "tagged.png" in lines[0] and "Lab colour profile 'Lab" in lines[0], lines
