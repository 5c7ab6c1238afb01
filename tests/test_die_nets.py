"""Every die net (`die-net`: d4, d6, d8, d12, d20): it folds into its solid (each glued pair of outline sides has
one tab, the corners close into the solid's corners), every face's side measures the given size in the written
PDF, tabs stay off the faces, and a net too big for its face is an error at the element's line."""

from __future__ import annotations

import math
from decimal import Decimal

import pikepdf
import pytest
from conftest import MM, fast_once, run_cli
from test_elements import brief, draw, library

from pnpgen.faces import Polygon
from pnpgen.layout.elements import _nets as nets
from pnpgen.layout.elements.die_net import NETS

# faces, sides of a face, corners of the solid (V - E + F = 2), the degrees round its corners
SOLIDS = {
    "d4": (4, 3, 4, (180.0,)),
    "d6": (6, 4, 8, (270.0,)),
    "d8": (8, 3, 6, (240.0,)),
    "d10": (
        10,
        4,
        12,
        (180.0, 324.0),
    ),  # a kite's apex 36 degrees, five round a pole; its others 108, three meet
    "d12": (12, 5, 20, (324.0,)),
    "d20": (20, 3, 12, (300.0,)),
}
SHORT = 1 / ((1 + 5**0.5) / 2) ** 2  # a d10 kite's short sides, in its long side


def lengths(die: str, sides: int) -> list[float]:
    """Each side of a face in `size`s, from corner 0."""
    return [1.0, SHORT, SHORT, 1.0] if die == "d10" else [1.0] * sides


def test_every_die_is_measured_here():
    assert set(SOLIDS) == set(NETS)


@pytest.mark.parametrize("die", sorted(SOLIDS))
def test_the_net_folds_into_its_solid_with_one_tab_per_glued_pair(die):
    faces, sides, corners, fulls = SOLIDS[die]
    shapes, tabbed = NETS[die]
    polys = [list(s) for s in shapes]
    assert len(polys) == faces and all(len(p) == sides for p in polys)
    pairs = nets.glued(polys, fulls)
    edges = faces * sides // 2
    assert len(pairs) == edges - (faces - 1)  # a tree of faces: every other side is on the outline, in pairs
    assert sorted(tabbed) == sorted(a if a in tabbed else b for a, b in pairs)
    assert all((a in tabbed) != (b in tabbed) for a, b in pairs), "one tab on each glued pair"
    parent: dict = {}

    def find(k):
        while parent.get(k, k) != k:
            k = parent[k]
        return k

    for (f1, s1), (f2, s2) in pairs:  # a side runs the other way round the face it is glued to
        a1, b1 = polys[f1][s1], polys[f1][(s1 + 1) % sides]
        a2, b2 = polys[f2][s2], polys[f2][(s2 + 1) % sides]
        for u, v in ((a1, b2), (b1, a2)):
            parent[find(nets.key(u))] = find(nets.key(v))
    assert len({find(nets.key(p)) for poly in polys for p in poly}) == corners


def project(tmp_path, elements: str, size: str = "200mm x 280mm"):
    game = tmp_path / "content" / "dice"
    (game / "boards").mkdir(parents=True)
    (game / "layouts").mkdir()
    (game / "game.yaml").write_text(
        "id: dice\ntitle: Dice\nplayers: 1-4\ncomponents:\n  - boards/dice.yaml\n"
    )
    (game / "boards" / "dice.yaml").write_text(
        f"id: dice\nkind: board\nsize: {size}\nbleed: 0mm\nsides:\n  - id: nets\n    layout: nets\n"
    )
    (game / "layouts" / "nets.yaml").write_text("elements:\n" + elements)
    return run_cli("build", "dice", cwd=tmp_path)


def paths(pdf_path):
    """Every path of the board's page as (its points in mm, how it was painted)."""
    pdf = pikepdf.open(pdf_path)
    form = next(iter(pdf.pages[0].Resources.XObject.values()))
    out, points = [], []
    for op in pikepdf.parse_content_stream(form):
        name = str(op.operator)
        if name in ("m", "l"):
            x, y = (float(Decimal(str(v))) for v in op.operands)
            points.append((x / MM, y / MM))
        elif name in ("f", "f*", "S", "B", "B*", "s"):
            out.append((points, name))
            points = []
        elif name == "n" and points:
            points = []
    return out


@pytest.mark.parametrize(
    ("die", "size"), fast_once([("d4", 20), ("d6", 15), ("d8", 20), ("d10", 30), ("d12", 14), ("d20", 17.5)])
)
def test_every_side_of_every_face_measures_the_size_in_the_pdf(tmp_path, die, size):
    faces, sides, _, _ = SOLIDS[die]
    numbers = list(range(1, faces + 1))
    result = project(
        tmp_path, f"  - {{type: die-net, x: 12, y: 12, size: {size}, die: {die}, faces: {numbers}}}\n"
    )
    assert result.exit_code == 0, result.output
    drawn = paths(tmp_path / "output" / "dice" / "dice-full.pdf")
    filled = [p for p, how in drawn if how == "f*" and len(p) == sides]
    assert len(filled) == faces
    want = sorted(x * size for x in lengths(die, sides))
    for poly in filled:  # the PDF's y runs up, so a face's corners come the other way round: compare sorted
        got = sorted(math.dist(poly[i], poly[(i + 1) % sides]) for i in range(sides))
        assert got == pytest.approx(want, abs=0.01)
    strokes = [p for p, how in drawn if how == "S" and len(p) == 2]
    assert len(strokes) == faces * sides - (faces - 1)  # the outline cut, each shared side folded once
    for a, b in strokes:  # each cut or fold line is one face side
        assert min(abs(math.dist(a, b) - w) for w in want) < 0.01


def _inside(point, poly) -> bool:
    x, y = point
    hit = False
    for i in range(len(poly)):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % len(poly)]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


@pytest.mark.parametrize("die", sorted(SOLIDS))
def test_no_tab_lies_over_a_face(tmp_path, die):
    faces = SOLIDS[die][0]
    face, diags = draw(
        library(
            tmp_path,
            f"elements:\n  - {{type: die-net, x: 2, y: 2, size: 8, tab: 4, die: {die}, faces: {list(range(faces))}}}\n",
        )
    )
    assert not diags.errors, [brief(d) for d in diags.errors]
    polys = [op for op in face.ops if isinstance(op, Polygon)]
    shapes, tabs = polys[:faces], polys[faces:]
    assert len(tabs) == len(NETS[die][1])
    for tab in tabs:  # points a little inside each tab, near each of its corners and in its middle
        cx = sum(x for x, _ in tab.points) / 4
        cy = sum(y for _, y in tab.points) / 4
        probes = [(cx, cy)] + [(x + (cx - x) * 0.2, y + (cy - y) * 0.2) for x, y in tab.points]
        for point in probes:
            assert not any(_inside(point, s.points) for s in shapes), (die, point)


@pytest.mark.parametrize("die", fast_once(sorted(SOLIDS)))
def test_a_net_too_big_for_its_face_is_an_error_at_the_element(tmp_path, die):
    faces = list(range(SOLIDS[die][0]))
    net = f"  - {{type: die-net, x: 5, y: 5, size: SIZE, die: {die}, faces: {faces}}}\n"
    elements = "  - {type: rect, x: 0, y: 0, w: 1, h: 1}\n" + net
    result = project(tmp_path, elements.replace("SIZE", "60"), "100mm x 100mm")
    assert result.exit_code == 1
    assert f"content/dice/layouts/nets.yaml:3:5: error: the {die} net with its tabs is" in result.output
    assert "does not fit the 100.0 x 100.0 mm face" in result.output
    assert "Traceback" not in result.output
    (tmp_path / "content" / "dice" / "layouts" / "nets.yaml").write_text(
        "elements:\n" + net.replace("SIZE", "10")
    )
    assert run_cli("build", "dice", cwd=tmp_path).exit_code == 0
