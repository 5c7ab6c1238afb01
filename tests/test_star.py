"""The `star` element: its corners, its keys checked where they are written, and the stars a build prints."""

from __future__ import annotations

import math
import shutil

import pypdfium2 as pdfium
import pytest
import yaml
from conftest import FIXTURES, run_cli

from pnpgen.errors import ContentError, Diagnostics, Location
from pnpgen.faces import Polygon
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.elements import TYPES
from pnpgen.layout.elements.star import PENTAGRAM, corners
from pnpgen.layout.kinds import Number
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler
from pnpgen.units import MM

ICONS = load_icons(BUILTIN, {}, Diagnostics())
ART = FIXTURES / "basic" / "content" / "sample" / "art"


def drawn(tmp_path, element: str, card: dict | None = None):
    (tmp_path / "l.yaml").write_text(f"elements:\n  - {element}\n")
    layout = LayoutLibrary([tmp_path], Compiler()).get("l", Location("test"))
    fc = FaceContext(63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, {}, ICONS, ART)
    diags = Diagnostics()
    face = draw_face(layout, fc, template_names(fc, card or {}, {"id": "d"}, {"id": "g"}), "card 1", diags)
    fc.flush_notes(diags)
    return face, diags


@pytest.mark.parametrize(
    ("tips", "inner", "rotate"), [(5, PENTAGRAM, 0), (3, 0.3, 0), (7, 0.6, 15), (12, 0.9, -90)]
)
def test_a_star_has_its_tips_and_inner_corners_at_their_radii(tmp_path, tips, inner, rotate):
    element = f"{{type: star, x: 20, y: 30, size: 10, points: {tips}, inner: {inner}, rotate: {rotate}}}"
    face, diags = drawn(tmp_path, element)
    assert not diags.items
    (poly,) = [op for op in face.ops if isinstance(op, Polygon)]
    assert len(poly.points) == 2 * tips
    cx, cy = 20 * MM, 30 * MM
    radii = [math.hypot(x - cx, y - cy) for x, y in poly.points]
    assert radii[0::2] == pytest.approx([10 * MM] * tips) and radii[1::2] == pytest.approx(
        [10 * MM * inner] * tips
    )
    x0, y0 = poly.points[0]  # the first tip: up (y downwards), turned clockwise by `rotate`
    assert math.degrees(math.atan2(x0 - cx, cy - y0)) == pytest.approx(rotate)


def test_the_default_star_is_a_pentagram_outline():
    """Five tips and the inner radius where the lines from tip to tip cross: a tip, the inner corner after it and
    the next tip but one lie on a line."""
    (ax, ay), (bx, by), _, _, (cx, cy) = corners(0, 0, 5, 100, PENTAGRAM, 0)[:5]
    off_line = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / math.hypot(cx - ax, cy - ay)
    assert off_line < 0.05  # of a radius of 100


WHOLE = [
    (name, key)
    for name, t in sorted(TYPES.items())
    for key, k in t.keys.items()
    if getattr(k, "whole", False)
]


def test_every_count_key_is_whole():
    """Each key that counts (tips, cells, spaces) takes whole numbers: the registry says which."""
    assert {("star", "points"), ("cells", "cols"), ("cells", "rows"), ("track", "count")} <= set(WHOLE)


@pytest.mark.parametrize(("name", "key"), WHOLE, ids=[f"{n}.{k}" for n, k in WHOLE])
def test_a_count_that_is_not_whole_is_an_error_at_its_line(tmp_path, name, key):
    given = yaml.safe_load(TYPES[name].example)
    given[key] = 5.5
    (tmp_path / "l.yaml").write_text(yaml.safe_dump({"elements": [given]}, sort_keys=False))
    with pytest.raises(ContentError) as exc:
        LayoutLibrary([tmp_path], Compiler()).get("l", Location("test"))
    (d,) = exc.value.diagnostics.items
    assert d.message == f"'{key}' must be a whole number (got 5.5)" and d.location.line > 1
    assert Number(1, 9, whole=True).parse("5", None) == 5.0


def test_a_templated_count_that_is_not_whole_is_an_error_for_its_card(tmp_path):
    face, diags = drawn(tmp_path, "{type: star, x: 5, y: 5, size: 4, points: '{{ card.n }}'}", {"n": 4.5})
    assert [d.message for d in diags.errors] == [
        "'points' must be a whole number (got 4.5) (while drawing card 1)"
    ]


@pytest.mark.slow  # rendered and counted in pixels
def test_stars_print_with_the_area_their_corners_enclose(tmp_path):
    """Two stars on every hero card, each of a colour used nowhere else: the pixels of each colour on the written
    sheet stand in the ratio of their areas (n R r sin(pi / n) each)."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "basic", project)
    hero = project / "content/sample/layouts/hero.yaml"
    stars = [
        "{type: star, x: 15, y: 40, size: 9, fill: '#00ff00'}",
        "{type: star, x: 45, y: 40, size: 9, points: 8, inner: 0.6, rotate: 10, fill: '#ff00ff'}",
    ]
    hero.write_text(hero.read_text() + "".join(f"  - {s}\n" for s in stars))
    result = run_cli("build", "--out", "out", cwd=project)
    assert result.exit_code == 0, result.output
    image = (
        pdfium.PdfDocument(project / "out/sample/heroes.pdf")[0]
        .render(scale=DPI / 72)
        .to_pil()
        .convert("RGB")
    )
    green = sum(coverage(px, (0, 255, 0)) for px in image.get_flattened_data())
    magenta = sum(coverage(px, (255, 0, 255)) for px in image.get_flattened_data())
    area = {n: n * 9 * 9 * r * math.sin(math.pi / n) for n, r in ((5, PENTAGRAM), (8, 0.6))}
    assert green > 0 and magenta / green == pytest.approx(area[8] / area[5], rel=0.03)
    px_per_mm2 = (DPI / 25.4) ** 2
    cards = round(green / (area[5] * px_per_mm2))  # the sheet's hero fronts, each with one green star
    assert cards >= 1 and green / cards == pytest.approx(area[5] * px_per_mm2, rel=0.03)


DPI = 100
CREAM = (0xFB, 0xF6, 0xEA)  # the hero card's panel, where the stars stand


def coverage(pixel: tuple, ink: tuple) -> float:
    """How much of a pixel `ink` covers over the cream panel: 0 for any pixel that is not a mix of the two."""
    spread = [i - c for i, c in zip(ink, CREAM)]
    a = max((p - c) / s for p, c, s in zip(pixel, CREAM, spread) if abs(s) > 100)
    if not 0 < a <= 1 or any(abs(c + a * s - p) > 12 for p, c, s in zip(pixel, CREAM, spread)):
        return 0.0
    return a
