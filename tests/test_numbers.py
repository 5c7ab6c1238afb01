"""Numbers from every source are finite and in range (issue 28, class 2): SVG attributes, styles and sheets at
their element and line; what svglib drew; every numeric option of every command; printer profiles; and the last
line of defence, a page or form that would hold NaN, refused with the page named. YAML numbers are
tests/test_numeric_keys.py's; spreadsheet cells and the end-to-end cases are in tests/hostile/."""

from __future__ import annotations

import math

import click
import pytest
from conftest import run_cli

from pnpgen import svg
from pnpgen.faces import Ellipse, Face, Line, Polygon, Rect, Text
from pnpgen.imposition.duplex import parse_offset

SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>\n{}\n</svg>"
GRADIENT = (
    "<defs><linearGradient id='g' {}><stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/>"
    "</linearGradient></defs><rect width='5' height='5' fill='url(#g)'/>"
)
# every numeric attribute of SVG pnpgen draws, on an element that uses it: {} is where the value goes
ATTRIBUTES = {
    "stroke-width": ("rect", "<rect width='5' height='5' stroke='red' stroke-width='{}'/>"),
    "x": ("rect", "<rect x='{}' width='5' height='5'/>"),
    "y": ("rect", "<rect y='{}' width='5' height='5'/>"),
    "width": ("rect", "<rect width='{}' height='5'/>"),
    "height": ("rect", "<rect width='5' height='{}'/>"),
    "rx": ("rect", "<rect width='5' height='5' rx='{}'/>"),
    "r": ("circle", "<circle cx='5' cy='5' r='{}'/>"),
    "cx": ("circle", "<circle cx='{}' cy='5' r='2'/>"),
    "ry": ("ellipse", "<ellipse cx='5' cy='5' rx='2' ry='{}'/>"),
    "x2": ("line", "<line x1='0' y1='0' x2='{}' y2='5' stroke='red'/>"),
    "points": ("polygon", "<polygon points='0,0 5,5 {},3'/>"),
    "d": ("path", "<path d='M0 0 L{} 5 Z'/>"),
    "transform": ("g", "<g transform='scale({})'><rect width='5' height='5'/></g>"),
    "gradientTransform": ("linearGradient", GRADIENT.format("gradientTransform='rotate({})'")),
    "x1": ("linearGradient", GRADIENT.format("x1='{}'")),
    "offset": (
        "stop",
        "<defs><linearGradient id='g'><stop offset='{}' stop-color='red'/></linearGradient></defs>"
        "<rect width='5' height='5' fill='url(#g)'/>",
    ),
    "stop-opacity": (
        "stop",
        "<defs><linearGradient id='g'><stop offset='0' stop-color='red' stop-opacity='{}'/></linearGradient>"
        "</defs><rect width='5' height='5' fill='url(#g)'/>",
    ),
    "stroke-dasharray": ("line", "<line x1='0' y1='0' x2='5' y2='5' stroke='red' stroke-dasharray='2 {}'/>"),
    "stroke-dashoffset": (
        "line",
        "<line x1='0' y1='0' x2='5' y2='5' stroke='red' stroke-dasharray='1 1' stroke-dashoffset='{}'/>",
    ),
    "opacity": ("rect", "<rect width='5' height='5' opacity='{}'/>"),
    "fill-opacity": ("rect", "<rect width='5' height='5' fill-opacity='{}'/>"),
    "font-size": ("g", "<g font-size='{}'><rect width='5' height='5'/></g>"),
    "fill": ("rect", "<rect width='5' height='5' fill='rgb({}, 0, 0)'/>"),
    "viewBox": ("svg", None),
}
NOT_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity"]
TOO_BIG = ["1e309", "1e300", "-2e6"]


def refused(body: str, root: str | None = None) -> svg.SvgError:
    text = root if root is not None else SVG.format(body)
    with pytest.raises(svg.SvgError) as caught:
        svg.convert(text.encode())
    return caught.value


@pytest.mark.parametrize("value", NOT_FINITE + TOO_BIG)
@pytest.mark.parametrize("name", sorted(ATTRIBUTES))
def test_every_numeric_svg_attribute_refuses_non_finite_and_huge_at_its_element(name, value):
    tag, body = ATTRIBUTES[name]
    if body is None:  # the root's own
        error = refused(
            "", f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {value} 10'>\n<rect/></svg>"
        )
    else:
        error = refused(body.format(value))
    assert error.line == (1 if tag == "svg" else 2), error.message
    assert f"<{tag}> whose '{name}'" in error.message, error.message
    assert ("not a finite number" in error.message) or ("beyond ±1,000,000" in error.message), error.message


@pytest.mark.parametrize("name", ["stroke-width", "transform", "stroke-dasharray", "offset", "x"])
@pytest.mark.parametrize("where", ["style", "sheet"])
def test_numbers_in_styles_and_style_sheets_are_checked_too(name, where):
    value = "1 nan" if name == "stroke-dasharray" else "scale(inf)" if name == "transform" else "nan"
    if where == "style":
        body = f"<rect width='5' height='5' style='fill:red;{name}: {value}'/>"
        expected = f"<rect> whose '{name}' (in its style)"
    else:
        body = f"<style>rect {{ {name}: {value} }}</style><rect width='5' height='5'/>"
        expected = f"<style> sheet whose '{name}'"
    error = refused(body)
    assert error.line == 2 and expected in error.message, error.message


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("<rect width='5' height='5' stroke='red' stroke-width='-1'/>", "'stroke-width' is negative"),
        ("<line x1='0' y1='0' x2='5' y2='5' stroke='red' stroke-dasharray='2,-1'/>", "is negative"),
        ("<circle cx='5' cy='5' r='-2'/>", "'r' is negative"),
        ("<line x1='0' x2='5' stroke='red' stroke-dasharray='1e-300 1e-300'/>", "too fine to print"),
        ("<line x1='0' x2='5' stroke='red' stroke-dasharray='0 0'/>", "too fine to print"),
    ],
)
def test_negative_lengths_and_dashes_too_fine_to_print_are_refused(body, said):
    assert said in refused(body).message


def test_transforms_combined_past_any_page_are_refused_in_the_drawing():
    """Each scale is in range; together they put the drawing 10^10 away: found in what svglib drew."""
    body = "<g transform='scale(100000)'><g transform='scale(100000)'><rect width='5' height='5'/></g></g>"
    assert "once its transforms are combined" in refused(body).message


def test_the_drawing_check_finds_a_number_svglib_made_whatever_the_file_said():
    from reportlab.graphics.shapes import Drawing
    from reportlab.graphics.shapes import Rect as RlRect

    from pnpgen.svgnumbers import NumberError, check_drawing

    drawing = Drawing(10, 10)
    drawing.add(RlRect(0, 0, 5, 5, strokeWidth=math.nan))
    with pytest.raises(NumberError, match="strokeWidth"):
        check_drawing(drawing)


def test_sane_numbers_in_every_form_still_draw():
    """The same attributes at ordinary values (and a gradient called `inf`, a name, not a number) draw."""
    body = "\n".join(
        [
            "<style>rect { stroke-width: 0.5 }</style>",
            "<rect x='1' y='1' width='5' height='5' rx='1' stroke='red' stroke-dasharray='1 2' opacity='0.5'/>",
            "<circle cx='5' cy='5' r='2' style='stroke:#1e9f00;stroke-width:0.3' fill='#9E10AA'/>",
            "<polygon points='0,0 5,5 4,3'/><path d='M0 0L5 5l-1e-3 2e2Z' transform='translate(-1,2) scale(.5)'/>",
            "<defs><linearGradient id='inf' x1='0' x2='1' gradientTransform='rotate(45)'>"
            "<stop offset='10%' stop-color='rgb(10, 20, 30)'/><stop offset='1' stop-color='#2e7d32'/></linearGradient>"
            "</defs><rect width='5' height='5' fill='url(#inf)'/>",
        ]
    )
    art = svg.convert(SVG.format(body).encode())
    assert art.shapes >= 5 and art.width == 7.5  # 10 px


# -- the last line of defence: a page or form never holds NaN ------------------------------------------------

BAD_OPS = [
    Rect(math.nan, 0, 10, 10, fill="#ff0000"),
    Rect(0, 0, 10, 10, stroke="#000000", stroke_width=math.nan),
    Ellipse(math.nan, 0, 10, 10, fill="#00ff00"),
    Line(0, 0, 10, math.nan),
    Line(0, 0, 10, 10, dash=(1.0, math.nan)),
    Polygon(((0, 0), (5, math.nan), (10, 0)), fill="#0000ff"),
    Text(math.nan, 10, "sans", 10, "#000000", "a"),
]


@pytest.mark.parametrize("op", BAD_OPS, ids=[type(op).__name__ + str(i) for i, op in enumerate(BAD_OPS)])
def test_a_face_holding_nan_never_reaches_a_pdf(op, tmp_path):
    from pnpgen.render.finite import NotFinite
    from pnpgen.render.pdf import write_face_pages

    good = Face(100, 100, 0, (Rect(0, 0, 100, 100, fill="#ffffff"),))
    bad = Face(100, 100, 0, (op,))
    path = tmp_path / "x.pdf"
    with pytest.raises(NotFinite, match=r"page 2 would hold(, in a face or art drawn there,)? '-?nan'"):
        write_face_pages(path, [good, bad], 0.0, {}, "t")


def test_text_that_says_nan_and_inf_is_text_not_a_number(tmp_path):
    import pypdfium2

    from pnpgen.render.pdf import write_face_pages

    words = "nan inf -inf (nan) [inf]"
    face = Face(200, 100, 0, (Text(5, 50, "sans", 10, "#000000", words),))
    write_face_pages(tmp_path / "x.pdf", [face, face], 0.0, {}, "t")
    pdf = pypdfium2.PdfDocument(tmp_path / "x.pdf")
    assert pdf[0].get_textpage().get_text_range().strip() == words


# -- the command line: every numeric option of every command ------------------------------------------------


def numeric_options():
    """(command line before the option, option flag) of every option that takes a number, found by walking the
    click commands: integer and float types and ranges, and the options whose text holds numbers
    (--back-offset). Each command gets the arguments it needs (the game `sample`) and `--out` when it has one."""
    from pnpgen.cli import main

    found = []

    def walk(cmd, path):
        if isinstance(cmd, click.Group):
            for name, sub in sorted(cmd.commands.items()):
                walk(sub, [*path, name])
            return
        args = list(path)
        for param in cmd.params:
            if isinstance(param, click.Argument):
                args += (
                    ["dtc"]
                    if param.name == "target"
                    else ["sample"]
                    if param.name in ("game", "games")
                    else []
                )
            elif param.opts[0] == "--out":
                args += ["--out", "out"]
        for param in cmd.params:
            if not isinstance(param, click.Option) or param.is_flag:
                continue
            numeric = isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))
            if numeric or param.name == "back_offset":
                found.append((tuple(args), param.opts[0]))

    walk(main, [])
    return found


OPTIONS = numeric_options()


def test_the_walk_finds_the_numeric_options():
    flags = {flag for _, flag in OPTIONS}
    assert {"--back-offset", "--dpi", "--jobs", "--players", "--port"} <= flags, flags


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "99999999999999999999999"])
@pytest.mark.parametrize(("args", "flag"), OPTIONS, ids=[f"{a[0]} {f}" for a, f in OPTIONS])
def test_every_numeric_option_refuses_non_finite_and_huge_as_a_usage_error(args, flag, value, project):
    root = project("basic")
    values = f"0,0,{value}" if flag == "--back-offset" else value
    result = run_cli(*args, f"{flag}={values}", cwd=root)
    assert result.exit_code == 2, result.output
    assert flag in result.output and "Traceback" not in result.output, result.output
    assert not (root / "out").exists()


@pytest.mark.parametrize("text", ["nan,0", "0,nan", "0,0,nan", "0,0,-inf", "1e400,0", "0,0,Infinity"])
def test_a_back_offset_is_finite_in_every_part(text):
    with pytest.raises(ValueError, match="finite|at most"):
        parse_offset(text)


@pytest.mark.parametrize("value", ["'0,0,nan'", "'nan,1'", "[0, 0, .inf]", "'0,1e400'"])
def test_a_printer_profile_with_a_non_finite_offset_is_an_error_at_its_line(value, project):
    root = project("basic")
    (root / "printers.yaml").write_text(f"office:\n  duplex: short\n  back_offset: {value}\n")
    result = run_cli("build", "--printer", "office", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert "printers.yaml:3:" in result.output and "Traceback" not in result.output, result.output
    assert "finite" in result.output or "at most" in result.output, result.output
    assert not (root / "out").exists()


@pytest.mark.parametrize("box", ["size", "trim", "bleed"])
def test_a_page_whose_size_or_box_is_not_finite_is_refused(box, tmp_path):
    from pnpgen.render.finite import NotFinite
    from pnpgen.render.pdf import new_canvas

    c = new_canvas(tmp_path / "x.pdf", (100, math.inf if box == "size" else 100), "t")
    if box == "trim":
        c.setTrimBox((0, 0, math.nan, 100))
    elif box == "bleed":
        c.setBleedBox((0, 0, 100, -math.inf))
    with pytest.raises(NotFinite, match="page 1 would have a size or box that is not a finite number"):
        c.showPage()


def test_reportlab_refusing_a_number_is_said_plainly_never_its_internals(tmp_path):
    """Infinity fails inside ReportLab's C accelerator before any page is closed: its message is replaced."""
    from pnpgen.pipeline.jobs import plain_error
    from pnpgen.render.pdf import write_face_pages

    face = Face(100, 100, 0, (Line(0, 0, math.inf, 10),))
    with pytest.raises(Exception) as caught:
        write_face_pages(tmp_path / "x.pdf", [face], 0.0, {}, "t")
    said = plain_error(caught.value)
    assert said.startswith("a number too large or not finite reached the PDF"), said
    assert "_rl_accel" not in said and "_fp_" not in said


# -- data sheets: a cell that reads as a number that is not finite, in every kind of sheet --------------------


class Raw(float):
    """A number cell written exactly as given (NaN, 1e400) by the sheet makers of test_datasheets."""

    def __new__(cls, text: str):
        self = super().__new__(cls, 0.0)
        self.text = text
        return self

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return self.text


SHEETS = {
    "csv": ("h.csv", "data/h.csv", "content/sample/data/h.csv:3:5"),
    "xlsx": ("h.xlsx", "{file: data/h.xlsx, sheet: Heroes}", "content/sample/data/h.xlsx:Heroes!E3"),
    "ods": ("h.ods", "{file: data/h.ods, sheet: Heroes}", "content/sample/data/h.ods:Heroes!E3"),
}


@pytest.mark.parametrize("value", ["NaN", "1e400", "-1e999", "inf"])
@pytest.mark.parametrize("kind", sorted(SHEETS))
def test_a_sheet_cell_that_is_not_a_finite_number_is_an_error_at_its_cell(kind, value, project):
    from test_datasheets import HEADER, ROWS, csv_text, ods, with_sheet, xlsx

    name, ref, where = SHEETS[kind]
    rows = [[*HEADER, "power"], [*ROWS[0], 2], [*ROWS[1], Raw(value)]]
    make = {"csv": csv_text, "xlsx": xlsx, "ods": ods}[kind]
    root = with_sheet(project("basic"), name, make(rows), ref)
    result = run_cli("build", "--out", "out", cwd=root)
    if kind == "csv" and value in ("NaN", "inf"):  # words in a CSV, as in YAML: refused where used as numbers
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    assert f"{where}: error: 'power' must be a finite number" in result.output, result.output
    assert "Traceback" not in result.output
