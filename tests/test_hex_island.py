"""Computed geometry without a script: `hexmap` (cells by coordinates, the coastline, piers), `die-net`, math in
templates; and docs/hex-island.md, built from its own files and measured in the PDF."""

from __future__ import annotations

import math
import re

import pypdfium2
import pytest
from conftest import MM, ROOT, run_cli
from test_elements import brief, draw, library, load_errors

from pnpgen.faces import Ellipse, Line, Polygon, Text

S3 = math.sqrt(3)


def centre(op: Polygon) -> tuple[float, float]:
    return (
        round(sum(x for x, _ in op.points) / len(op.points) / MM, 3),
        round(sum(y for _, y in op.points) / len(op.points) / MM, 3),
    )


def hexmap(tmp_path, extra: str):
    face, diags = draw(
        library(tmp_path, "elements:\n  - {type: hexmap, x: 10, y: 10, size: 4, " + extra + "}\n")
    )
    return (face.ops if face else []), diags


# where a cell's centre lies, mm from cell 0, 0 at (10, 10), size 4: each system, both orientations
CENTRES = [
    ("pointy", "odd-r", [1, 1], (10 + 4 * S3 * 1.5, 16)),
    ("pointy", "even-r", [1, 1], (10 + 4 * S3 * 0.5, 16)),
    ("pointy", "even-r", [0, 2], (10, 22)),
    ("pointy", "axial", [1, 1], (10 + 4 * S3 * 1.5, 16)),
    ("pointy", "axial", [-1, 2], (10, 22)),
    ("flat", "odd-q", [1, 1], (16, 10 + 4 * S3 * 1.5)),
    ("flat", "even-q", [1, 1], (16, 10 + 4 * S3 * 0.5)),
    ("flat", "axial", [2, -1], (22, 10)),
]


@pytest.mark.parametrize(("orient", "coords", "at", "mm"), CENTRES)
def test_a_cell_is_centred_where_its_coordinates_say(tmp_path, orient, coords, at, mm):
    ops, diags = hexmap(tmp_path, f"orient: {orient}, coords: {coords}, cells: [{at}]")
    assert not diags.errors
    cell = ops[0]
    assert centre(cell) == pytest.approx(mm, abs=1e-3)
    xs, ys = [x / MM for x, _ in cell.points], [y / MM for _, y in cell.points]
    wide, tall = (4 * S3, 8) if orient == "pointy" else (8, 4 * S3)
    assert max(xs) - min(xs) == pytest.approx(wide) and max(ys) - min(ys) == pytest.approx(tall)


FLOWER = "[[0, 0], [1, 0], [-1, 1], [0, 1], [1, 1], [0, 2], [1, 2]]"  # odd-r: (0,1)'s six neighbours and it


@pytest.mark.parametrize(
    ("cells", "loops", "vertices"),
    [("[[0, 0]]", 1, [6]), ("[[0, 0], [1, 0]]", 1, [10]), (FLOWER, 1, [18]), ("[[0, 0], [5, 0]]", 2, [6, 6])],
)
def test_the_coastline_is_the_boundary_of_the_land_as_closed_paths(tmp_path, cells, loops, vertices):
    ops, diags = hexmap(tmp_path, f"coast: '#123456', cells: {cells}")
    coasts = [op for op in ops if isinstance(op, Polygon) and op.stroke == "#123456"]
    assert [len(c.points) for c in coasts] == vertices and len(coasts) == loops
    corners = {(round(x, 3), round(y, 3)) for op in ops if op.stroke != "#123456" for x, y in op.points}
    for coast in coasts:
        assert len(set(coast.points)) == len(coast.points)  # closed: no corner twice
        assert {(round(x, 3), round(y, 3)) for x, y in coast.points} <= corners


def test_sea_cells_stay_out_of_the_coastline(tmp_path):
    ops, _ = hexmap(tmp_path, "coast: '#123456', cells: [[0, 0], {at: [1, 0], land: false}]")
    assert [len(op.points) for op in ops if op.stroke == "#123456"] == [6]


@pytest.mark.parametrize(
    ("orient", "side", "normal"),
    [
        ("pointy", "e", (1, 0)),
        ("pointy", "nw", (-0.5, -S3 / 2)),
        ("flat", "n", (0, -1)),
        ("flat", "se", (S3 / 2, 0.5)),
    ],
)
def test_a_pier_stands_on_its_side_midpoint_pointing_out(tmp_path, orient, side, normal):
    ops, diags = hexmap(
        tmp_path,
        f"orient: {orient}, coords: axial, cells: [[0, 0]], pier_length: 3, piers: [{{cell: [0, 0], side: {side}}}]",
    )
    assert not diags.errors
    (pier,) = [op for op in ops if isinstance(op, Line)]
    apothem = 4 * S3 / 2
    assert (pier.x1 / MM, pier.y1 / MM) == pytest.approx((10 + apothem * normal[0], 10 + apothem * normal[1]))
    assert (pier.x2 / MM, pier.y2 / MM) == pytest.approx(
        (10 + (apothem + 3) * normal[0], 10 + (apothem + 3) * normal[1])
    )


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ("cells: [[0, 0.5]]", "'cells' cell 1: 'at' must be two whole numbers [col, row] (got [0, 0.5])"),
        ("cells: [[0, 0], [0]]", "'cells' cell 2: 'at' must be two whole numbers"),
        (
            "coords: axial, cells: [[0, 0], {at: [0, 0]}]",
            "'cells' cell 2 ([0, 0]) is the same cell as cell 1",
        ),
        ("cells: [{at: [0, 0], colour: red}]", "'cells' cell 1 has the key 'colour'"),
        (
            "cells: [[0, 0]], piers: [{cell: [0, 0], side: north}]",
            "pier 1: a pointy hex's side is one of ne, e, se, sw, w, nw (got 'north')",
        ),
        ("cells: [[0, 0]], piers: [{cell: [0, 0], side: n}]", "(got 'n')"),
        (
            "cells: [[0, 0], [1, 0]], piers: [{cell: [0, 0], side: e}]",
            "side e of cell [0, 0] is not on the coast",
        ),
        ("cells: [[0, 0]], piers: [{cell: [3, 3], side: e}]", "pier 1: cell [3, 3] is not a land cell"),
        ("cells: [[0, 0]], piers: [[0, 0]]", "pier 1 must be {cell: [col, row], side: ...}"),
    ],
)
def test_bad_cells_and_piers_are_errors_at_their_key(tmp_path, extra, says):
    _, diags = hexmap(tmp_path, extra)
    messages = [brief(d) for d in diags.errors]
    assert len(messages) == 1 and says in messages[0], messages
    assert messages[0].startswith("2:"), messages  # the element's line


@pytest.mark.parametrize(
    ("element", "says"),
    [
        ("{type: hexmap, x: 1, y: 1, cells: 5}", "'cells' must be a list (got '5')"),
        ("{type: hexmap, x: 1, y: 1, cells: [], coords: odd-x}", "'coords' must be one of odd-r, even-r"),
        ("{type: hexmap, x: 1, y: 1, cells: [], orient: round}", "'orient' must be one of pointy, flat"),
        (
            "{type: die-net, x: 1, y: 1, faces: [], die: d100}",
            "'die' must be one of d6, d4, d8, d10, d12, d20",
        ),
    ],
)
def test_bad_constants_are_errors_when_the_layout_loads(tmp_path, element, says):
    messages = load_errors(tmp_path, f"elements:\n  - {element}\n")
    assert len(messages) == 1 and messages[0].startswith("2:") and says in messages[0], messages


def net(tmp_path, extra: str):
    face, diags = draw(
        library(tmp_path, "elements:\n  - {type: die-net, x: 10, y: 10, size: 10, " + extra + "}\n")
    )
    return (face.ops if face else []), diags


@pytest.mark.parametrize(
    ("die", "faces", "tabs", "cuts", "folds"),
    [("d6", 6, 7, 7, 12), ("d4", 4, 3, 3, 6)],
)
def test_a_die_net_has_its_faces_tabs_cut_and_fold_lines(tmp_path, die, faces, tabs, cuts, folds):
    n = faces
    ops, diags = net(tmp_path, f"die: {die}, faces: {list(range(1, n + 1))}")
    assert not diags.errors
    polys = [op for op in ops if isinstance(op, Polygon)]
    assert len(polys) == faces + tabs
    lines = [op for op in ops if isinstance(op, Line)]
    assert sum(1 for op in lines if not op.dash) == cuts and sum(1 for op in lines if op.dash) == folds
    labels = [op.text for op in ops if isinstance(op, Text)]
    assert labels == [str(i) for i in range(1, n + 1)]


def test_a_d6_net_puts_opposite_faces_adding_to_seven_in_the_cross(tmp_path):
    ops, _ = net(tmp_path, "faces: [1, 2, 3, 4, 5, 6]")
    at = {
        centre(op): i + 1
        for i, op in enumerate(op for op in ops if isinstance(op, Polygon) and op.fill == "#ffffff")
    }
    assert at == {(25, 15): 1, (25, 25): 2, (15, 25): 3, (35, 25): 4, (25, 45): 5, (25, 35): 6}
    pips = [op for op in ops if isinstance(op, Ellipse)]
    assert not pips
    ops, _ = net(tmp_path, "faces: [{pips: 1}, {pips: 2}, {pips: 3}, {pips: 4}, {pips: 5}, {pips: 6}]")
    assert len([op for op in ops if isinstance(op, Ellipse)]) == 21


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ("faces: [1, 2, 3]", "'faces' must list the 6 faces of a d6 (got 3)"),
        ("faces: [1, 2, 3, 4, 5, {pips: 7}]", "face 6: 'pips' must be a whole number from 1 to 6"),
        ("die: d4, faces: [1, 2, 3, {pips: 1}]", "face 4: 'pips' must be a whole number from 1 to 6 on a d6"),
        ("faces: [1, 2, 3, 4, 5, {text: 6}]", "face 6 has the key 'text'"),
    ],
)
def test_bad_faces_are_errors_at_their_key(tmp_path, extra, says):
    _, diags = net(tmp_path, extra)
    messages = [brief(d) for d in diags.errors]
    assert len(messages) == 1 and says in messages[0], messages


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("sin(pi / 2)", 1.0),
        ("cos(radians(180))", -1.0),
        ("tan(pi / 4)", 1.0),
        ("degrees(atan2(1, 1))", 45.0),
        ("sqrt(16) + hypot(3, 4)", 9.0),
        ("floor(2.7) + ceil(2.2) + round(2.5)", 7),
        ("min(3, 1, 2) + max(3, 1, 2) + abs(-1)", 5),
    ],
)
def test_math_in_templates(tmp_path, expr, value):
    face, diags = draw(
        library(tmp_path, f"elements:\n  - {{type: rect, x: '{{{{ {expr} }}}}', y: 0, w: 1, h: 1}}\n")
    )
    assert not diags.errors
    assert face.ops[0].x / MM == pytest.approx(value)


@pytest.mark.parametrize(
    ("expr", "says"),
    [
        ("sqrt(-1)", "sqrt(-1) is not a finite number"),
        ("acos(2)", "acos(2) is not a finite number"),
        ("floor(1e308 * 10)", "floor(inf) is not a finite number"),
        ('sin("a")', "sin() takes numbers (got 'a')"),
    ],
)
def test_math_that_is_not_a_finite_number_is_an_error_at_its_line(tmp_path, expr, says):
    _, diags = draw(
        library(
            tmp_path, f"elements:\n  - type: rect\n    x: '{{{{ {expr} }}}}'\n    y: 0\n    w: 1\n    h: 1\n"
        )
    )
    messages = [brief(d) for d in diags.errors]
    assert len(messages) == 1 and messages[0].startswith("3:") and says in messages[0], messages


def write_example(root):
    doc = (ROOT / "docs" / "hex-island.md").read_text(encoding="utf-8")
    files = re.findall(r"`(content/isle/[^`]+)`:.*?```(?:yaml|csv)\n(.*?)```", doc, re.S)
    assert len(files) == 5
    for path, body in files:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")


def test_the_worked_hex_island_builds_and_its_pdf_shows_the_island(tmp_path):
    write_example(tmp_path)
    result = run_cli("build", "isle", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    pdf = pypdfium2.PdfDocument(tmp_path / "output" / "isle" / "island-full.pdf")
    page = pdf[0]
    assert page.get_size() == pytest.approx((200 * MM, 170 * MM), abs=0.1)
    dpmm = 4
    image = page.render(scale=dpmm / MM).to_pil().convert("RGB")

    def at(x, y):
        return image.getpixel((round(x * dpmm), round(y * dpmm)))

    def near(rgb, hexcode, tol=24):
        want = tuple(int(hexcode[i : i + 2], 16) for i in (1, 3, 5))
        return all(abs(a - b) <= tol for a, b in zip(rgb, want))

    size = 12

    def cell(col, row):  # odd-r, pointy, cell 0, 0 at (30, 25) mm
        return 30 + size * S3 * (col + 0.5 * (row & 1)) - 3, 25 + 1.5 * size * row - 3  # off the label

    for col, row in [(1, 1), (2, 2), (3, 2), (1, 3)]:
        assert near(at(*cell(col, row)), "#d9c48f"), (col, row)
    for col, row in [(2, 1), (1, 2), (2, 3)]:
        assert near(at(*cell(col, row)), "#6f9a55"), (col, row)
    for col, row in [(1, 0), (0, 2), (4, 2), (2, 4)]:
        assert near(at(*cell(col, row)), "#9cc9e3"), (col, row)
    # the coastline: on the west side of land cell (0, 2)'s neighbour (1, 2), between land and sea
    cx, cy = 30 + size * S3 * 1, 25 + 1.5 * size * 2
    assert near(at(cx - size * S3 / 2, cy), "#1f3f5f", 40)
    # pier B on the east side of (3, 2): its midpoint, then 2 mm out
    bx = 30 + size * S3 * 3 + size * S3 / 2
    assert near(at(bx + 2, cy), "#6b4a2b", 40)
    # the die's net: face 1 at the top of the cross, its one pip in the middle
    assert near(at(125 + 18 * 1.5, 20 + 18 * 0.5), "#000000", 40)
    assert near(at(125 + 18 * 1.5 + 5, 20 + 18 * 0.5), "#ffffff", 8)
    # the d8's net (x 120, y 118, side 14): the strip's fold at half height, face 8 white below it, the strip's
    # lower edge cut beside it, face 8's tab grey 2 mm beyond its right side's middle
    h = 14 * S3 / 2
    assert near(at(120 + 14 * 2, 118 + 2 * h + 2), "#ffffff", 8)
    assert min(sum(at(120 + 14 * 0.75, 118 + 2 * h + dy / 4)) for dy in range(-2, 3)) < 3 * 100
    assert near(at(120 + 14 * 2.25 + 0.866 * 2, 118 + 2.5 * h + 0.5 * 2), "#e6e6e6", 8)


def test_cells_and_piers_come_from_a_data_sheet_and_its_mistakes_fail_the_build(tmp_path):
    write_example(tmp_path)
    sheet = tmp_path / "content" / "isle" / "data" / "piers.csv"
    sheet.write_text("col,row,side,label\n1,1,nw,A\n3,2,north,B\n", encoding="utf-8")
    result = run_cli("build", "isle", cwd=tmp_path)
    assert result.exit_code == 1
    assert "data/piers.csv:3:3: error: 'piers' pier 2: a pointy hex's side is one of" in result.output
    assert "Traceback" not in result.output
    sheet.write_text("col,row,side,label\n1,1,nw,A\n2,2,e,B\n", encoding="utf-8")
    result = run_cli("build", "isle", cwd=tmp_path)
    assert result.exit_code == 1 and "pier 2: side e of cell [2, 2] is not on the coast" in result.output
    sheet.write_text("col,row,side\n1,1,nw\n", encoding="utf-8")
    assert run_cli("build", "isle", cwd=tmp_path).exit_code == 0
    board = tmp_path / "content" / "isle" / "boards" / "island.yaml"
    board.write_text(board.read_text().replace("  piers: data/piers.csv", "  die: data/piers.csv"))
    result = run_cli("build", "isle", cwd=tmp_path)
    assert result.exit_code == 1 and "'die' is given in both 'data' and 'data_from'" in result.output


def test_every_bad_hex_row_is_reported_at_its_sheet_cell_and_the_output_kept(tmp_path):
    write_example(tmp_path)
    assert run_cli("build", "isle", cwd=tmp_path).exit_code == 0
    pdf = tmp_path / "output" / "isle" / "island-full.pdf"
    before = pdf.read_bytes()
    sheet = tmp_path / "content" / "isle" / "data" / "hexes.csv"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    rows[3] = "1,1.5,land,2,"  # line 4: not a whole number
    rows[5] = "2,1,sea,,false"  # line 6: the cell of line 5 again
    rows[7] = "inf,2,forest,6,"  # line 8: not a finite number
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = run_cli("build", "isle", cwd=tmp_path)
    out = result.output
    assert result.exit_code == 1 and "Traceback" not in out, out
    assert (
        "content/isle/data/hexes.csv:4:2: error: 'cells' cell 3: 'at' must be two whole numbers [col, row]"
        in out
    )
    assert "content/isle/data/hexes.csv:6:1: error: 'cells' cell 5 ([2, 1]) is the same cell as cell 4" in out
    assert "content/isle/data/hexes.csv:8:1: error: 'cells' cell 7: 'at' must be two whole numbers" in out
    assert pdf.read_bytes() == before  # a failed build leaves the last good output
    sheet.write_text("q,r,fill\n0,0,land\n", encoding="utf-8")
    out = run_cli("build", "isle", cwd=tmp_path).output
    assert (
        "content/isle/data/hexes.csv:2:1: error: 'cells' cell 1 gives q, r but this map's coords are odd-r: give col, row"
        in out
    )


def test_a_map_of_too_many_cells_is_an_error_at_its_key(tmp_path):
    cells = "[" + ", ".join(f"[{i % 100}, {i // 100}]" for i in range(5_001)) + "]"
    _, diags = hexmap(tmp_path, f"cells: {cells}")
    messages = [brief(d) for d in diags.errors]
    assert len(messages) == 1 and messages[0].startswith("2:"), messages[:2]
    assert "'cells' has 5,001 cells; a map holds at most 5,000" in messages[0]


@pytest.mark.parametrize("land", ["false", "no", "0", False])
def test_a_cell_as_a_sheet_row_gives_its_columns(tmp_path, land):
    cells = f"[{{col: 0, row: 0, fill: '', label: ''}}, {{col: 1, row: 0, land: {land!r}}}]"
    ops, diags = hexmap(tmp_path, f"coast: '#123456', cells: {cells}")
    assert not diags.errors
    assert [centre(op) for op in ops if op.stroke != "#123456"] == [(10, 10), (round(10 + 4 * S3, 3), 10)]
    assert [len(op.points) for op in ops if op.stroke == "#123456"] == [6]
