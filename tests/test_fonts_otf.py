"""Game fonts designers have: OpenType fonts with CFF outlines (converted to TrueType) and variable fonts at a
named instance or axis values. Every font here is made in the test with fontTools' FontBuilder."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from conftest import fast_once, run_cli
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.TupleVariation import TupleVariation

from pnpgen.bounds.fonts import check_font_bytes
from pnpgen.text import otf

CHARS = [chr(c) for c in range(0x21, 0x7F)]
NAMES = [".notdef", "space", *(f"g{ord(c)}" for c in CHARS)]


def _box(pen, width: int) -> None:  # a rectangle with a curved corner: the cubic has to become quadratics
    pen.moveTo((50, 0))
    pen.lineTo((width - 50, 0))
    pen.curveTo((width - 20, 200), (width - 20, 500), (width - 50, 700))
    pen.lineTo((50, 700))
    pen.closePath()


def _start(name: str, cff: bool) -> FontBuilder:
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(NAMES)
    fb.setupCharacterMap({0x20: "space", **{ord(c): f"g{ord(c)}" for c in CHARS}})
    fb.setupNameTable({"familyName": name, "styleName": "Regular"})
    return fb


def _finish(fb: FontBuilder, name: str, width: int) -> bytes:
    fb.setupHorizontalMetrics({g: (width, 50) for g in NAMES})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def cff_font(width: int = 500) -> bytes:
    fb = _start("Cubic", cff=True)
    charstrings = {}
    for g in NAMES:
        pen = T2CharStringPen(width, None)
        if g != "space":
            _box(pen, width)
        charstrings[g] = pen.getCharString()
    fb.setupCFF("Cubic-Regular", {"FullName": "Cubic"}, charstrings, {})
    return _finish(fb, "Cubic", width)


def cff2_font(width: int = 500) -> bytes:
    """The same outlines in a CFF2 table (as variable OpenType fonts carry them)."""
    fb = _start("Cubic", cff=True)
    charstrings = {}
    for g in NAMES:
        pen = T2CharStringPen(None, None, CFF2=True)
        if g != "space":
            _box(pen, width)
        charstrings[g] = pen.getCharString()
    fb.setupCFF2(charstrings)
    return _finish(fb, "Cubic", width)


def collection() -> bytes:
    """A TrueType collection whose first font (the one read) has CFF outlines."""
    from fontTools.ttLib import TTCollection

    ttc = TTCollection()
    ttc.fonts = [TTFont(io.BytesIO(cff_font())), TTFont(io.BytesIO(variable_font()))]
    out = io.BytesIO()
    ttc.save(out)
    return out.getvalue()


def variable_font() -> bytes:
    """TrueType outlines 500 units wide at wght 400 (instance Regular), 700 at wght 700 (Bold)."""
    fb = _start("Flex", cff=False)
    glyphs = {}
    for g in NAMES:
        pen = TTGlyphPen(None)
        if g != "space":
            pen.moveTo((50, 0)), pen.lineTo((450, 0)), pen.lineTo((450, 700)), pen.lineTo((50, 700))
            pen.closePath()
        glyphs[g] = pen.glyph()
    fb.setupGlyf(glyphs)
    fb.setupFvar(
        [("wght", 400, 400, 700, "Weight")],
        [
            {"stylename": "Regular", "location": {"wght": 400}},
            {"stylename": "Bold", "location": {"wght": 700}},
        ],
    )
    variations = {}
    for g in NAMES:
        points = 0 if g == "space" else 4
        deltas = [(0, 0)] * points + [(0, 0), (200, 0), (0, 0), (0, 0)]  # the advance phantom point moves
        if points:
            deltas[1] = deltas[2] = (200, 0)
        variations[g] = [TupleVariation({"wght": (0, 1, 1)}, deltas)]
    fb.setupGvar(variations)
    return _finish(fb, "Flex", 500)


def game_with(root, font: bytes, spec: str) -> None:
    game = root / "content" / "sample"
    (game / "fonts").mkdir(exist_ok=True)
    (game / "fonts" / "Mine.otf").write_bytes(font)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text().replace("components:", f"fonts:\n  mine:\n    regular: {spec}\ncomponents:")
    )
    layout = game / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text().replace("font: display-bold", "font: mine"))


def titles(pdf_path) -> tuple[str, list[float]]:
    """The text set in the game's font on the first page, and each character's advance in em."""
    with pdfplumber.open(pdf_path) as pdf:
        chars = [c for c in pdf.pages[0].chars if "Noto" not in c["fontname"]]  # not a shipped font
        return "".join(c["text"] for c in chars), [round(c["width"] / c["size"], 3) for c in chars]


@pytest.mark.parametrize(
    "kind, spec, em",
    fast_once(
        [
            ("cff", "fonts/Mine.otf", 0.5),
            ("cff2", "fonts/Mine.otf", 0.5),
            ("collection", "fonts/Mine.otf", 0.5),
            ("variable", "fonts/Mine.otf", 0.5),  # the default instance, as it is
            ("variable", "{file: fonts/Mine.otf, instance: Bold}", 0.7),
            ("variable", "{file: fonts/Mine.otf, axes: {wght: 550}}", 0.6),
        ]
    ),
)
def test_a_cff_or_variable_font_is_embedded_extractable_and_measured(project, kind, spec, em):
    root = project("basic")
    made = {"cff": cff_font, "cff2": cff2_font, "collection": collection, "variable": variable_font}
    game_with(root, made[kind](), spec)
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 0, result.output
    text, widths = titles(root / "out" / "sample" / "heroes.pdf")
    assert "AshWalker" in text.replace(" ", "")  # extractable: the title, in the game's font
    assert widths and set(widths) == {em}


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "{file: fonts/Mine.otf, instance: Black}",
            "has no instance named 'Black'; its named instances: Regular, Bold",
        ),
        ("{file: fonts/Mine.otf, axes: {wdth: 80}}", "has no axis wdth; its axes: wght"),
        ("{file: fonts/Mine.otf, axes: {wght: 900}}", "axis wght goes from 400 to 700 (got 900)"),
    ],
)
def test_an_instance_the_font_lacks_is_located_and_lists_what_it_has(project, spec, message):
    root = project("basic")
    game_with(root, variable_font(), spec)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/game.yaml:10:" in result.output and message in result.output, result.output
    assert "Traceback" not in result.output


def test_an_instance_of_a_static_font_is_refused(project):
    root = project("basic")
    game_with(root, cff_font(), "{file: fonts/Mine.otf, instance: Bold}")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "is not a variable font" in result.output, result.output


def test_the_conversion_is_the_same_bytes_and_truetype():
    cubic, flex = cff_font(), variable_font()  # once each: FontBuilder stamps the time it was made
    first, second = otf.convert(cubic), otf.convert(cubic)
    assert first == second and first[:4] == b"\x00\x01\x00\x00"
    check_font_bytes(first)  # the TrueType checks ReportLab's reading needs: loca inside glyf...
    assert "glyf" in TTFont(io.BytesIO(first)) and "CFF " not in TTFont(io.BytesIO(first))
    assert otf.convert(flex, "Bold") == otf.convert(flex, "Bold") != otf.convert(flex, {"wght": 550})


def test_an_unwritable_cache_folder_falls_back_to_a_folder_of_its_own(tmp_path, monkeypatch):
    font = tmp_path / "Mine.otf"
    font.write_bytes(cff_font())
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setattr(otf, "_folder", lambda: blocked)
    made = otf.prepare(str(font))
    assert not made.startswith(str(tmp_path)) and open(made, "rb").read(4) == b"\x00\x01\x00\x00"


def test_a_cff_font_passes_the_structure_check_and_a_broken_one_does_not():
    check_font_bytes(cff_font())
    data = bytearray(cff_font())
    count = int.from_bytes(data[4:6], "big")
    for i in range(count):  # rename the CFF table: a CFF font without outlines
        at = 12 + 16 * i
        if data[at : at + 4] == b"CFF ":
            data[at : at + 4] = b"XXXX"
    from pnpgen.bounds import Refused

    with pytest.raises(Refused, match="lacks the table CFF an OpenType"):
        check_font_bytes(bytes(data))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("{file: fonts/Mine.otf, instanse: Bold}", "'instanse' is not a key; did you mean 'instance'?"),
        ("{instance: Bold}", "needs 'file', such as {file: fonts/mine.ttf, instance: Bold}"),
        ("{file: fonts/Mine.otf, instance: Bold, axes: {wght: 700}}", "give 'instance' or 'axes', not both"),
        ("{file: fonts/Mine.otf, instance: 700}", "'instance' must be a named instance such as Bold"),
        ("{file: fonts/Mine.otf, axes: {wght: heavy}}", "'axes' must map axis tags to numbers"),
        ("{file: fonts/Mine.otf, axes: [700]}", "'axes' must map axis tags to numbers"),
    ],
)
def test_a_font_choice_is_checked_where_it_is_written(project, spec, message):
    root = project("basic")
    game_with(root, variable_font(), spec)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/game.yaml:" in result.output and message in result.output, result.output
    assert "Traceback" not in result.output


def test_two_fonts_of_one_name_each_print_as_themselves_in_one_process(project):
    """Two games (or one font file edited while `serve` runs) whose fonts share a PostScript name but not their
    outlines: ReportLab would print the second in the first."""
    root = project("basic")
    second = root.rename(root.with_name("again"))  # two copies of the game
    first = project("basic")
    for root, width in ((first, 500), (second, 700)):
        game_with(root, cff_font(width), "fonts/Mine.otf")
        result = run_cli("build", "--out", "out", cwd=root)
        assert result.exit_code == 0, result.output
    assert set(titles(first / "out" / "sample" / "heroes.pdf")[1]) == {0.5}
    assert set(titles(second / "out" / "sample" / "heroes.pdf")[1]) == {0.7}
