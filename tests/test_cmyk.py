"""cmyk(c, m, y, k) wherever a colour is taken: parsed once, drawn as DeviceCMYK (read back from the PDF)."""

from __future__ import annotations

import pikepdf
import pytest
from conftest import run_cli

from pnpgen.colours import ColourError, parse_colour, rgb_of, rgb_to_cmyk


def test_cmyk_is_parsed_to_one_spelling():
    assert parse_colour("cmyk(0, 60, 100, 0)") == "cmyk(0,60,100,0)"
    assert parse_colour(" CMYK(0%, 60.5%, 100%, 0%) ") == "cmyk(0,60.5,100,0)"
    assert parse_colour("brand", {"brand": parse_colour("cmyk(100,0,0,0)")}) == "cmyk(100,0,0,0)"
    for bad in ("cmyk(1,2,3)", "cmyk(0,0,0,101)", "cmyk(a,b,c,d)", "cmyk(-1,0,0,0)"):
        with pytest.raises(ColourError):
            parse_colour(bad)


def test_rgb_of_a_cmyk_colour_and_the_separation_of_an_rgb_one():
    assert rgb_of("cmyk(0,60,100,0)") == pytest.approx((1.0, 0.4, 0.0))
    assert rgb_of("cmyk(0,0,0,100)") == pytest.approx((0, 0, 0))
    assert rgb_to_cmyk(0, 0, 0) == (0, 0, 0, 1)
    assert rgb_to_cmyk(1, 1, 1) == pytest.approx((0, 0, 0, 0))
    assert rgb_to_cmyk(1, 0.4, 0) == pytest.approx((0, 0.6, 1, 0))
    # a dark red is 250 % by the plain formula; under a 240 % limit its cyan, magenta and yellow give way
    c, m, y, k = rgb_to_cmyk(0.5, 0, 0, ink_limit=2.4)
    assert (c + m + y + k) == pytest.approx(2.4)
    assert k == pytest.approx(0.5)


def _number(value):
    try:
        return round(float(value), 4)
    except (TypeError, ValueError):
        return str(value)


def colour_ops(pdf: pikepdf.Pdf) -> list[tuple[str, tuple]]:
    """Every colour-setting operator of every page and form, with its operands."""
    found, seen = [], set()

    def walk(obj):
        if obj.objgen in seen and obj.objgen != (0, 0):
            return
        seen.add(obj.objgen)
        for operands, op in pikepdf.parse_content_stream(obj):
            if str(op) in ("rg", "RG", "k", "K", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS"):
                found.append((str(op), tuple(_number(v) for v in operands)))
        xobjects = obj.get("/Resources", {}).get("/XObject", {})
        for _, x in xobjects.items():
            if x.get("/Subtype") == "/Form":
                walk(x)

    for page in pdf.pages:
        walk(page.obj)
    return found


def test_cmyk_in_a_palette_and_a_layout_is_drawn_as_devicecmyk(project, tmp_path):
    root = project("basic")
    game = root / "content" / "sample" / "game.yaml"
    game.write_text(game.read_text().replace('ember: "#c8431a"', "ember: cmyk(0, 60, 100, 0)"))
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text().replace('fill: "#fbf6ea"', "fill: cmyk(0, 2, 6, 0)", 1))
    out = tmp_path / "out"
    result = run_cli("build", "sample", "--content", root / "content", "--out", out)
    assert result.exit_code == 0, result.output
    with pikepdf.open(out / "sample" / "heroes.pdf") as pdf:
        ops = colour_ops(pdf)
    assert ("k", (0.0, 0.6, 1.0, 0.0)) in ops  # the palette's ember, as the card's background
    assert ("k", (0.0, 0.02, 0.06, 0.0)) in ops  # the layout's panel
    assert ("rg", tuple(round(v / 255, 4) for v in (200, 67, 26))) not in ops  # the RGB it replaced
