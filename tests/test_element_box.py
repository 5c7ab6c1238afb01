"""`layout.draw.element_box`: the box an element's own values give it, evaluated as the build evaluates them
(the editor outlines and resizes elements by it)."""

from __future__ import annotations

import pytest

from pnpgen.errors import Diagnostics, Location
from pnpgen.layout.draw import DrawProblem, FaceContext, element_box, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler
from pnpgen.units import MM

CARD = (63.5, 88.9)  # mm, safe zone 3 mm
CASES = {  # an element (a YAML flow mapping) -> its box in mm, or None when its keys give no box
    "rect": ("{type: rect, x: 5, y: 6, w: 20, h: 12.5}", (5, 6, 20, 12.5)),
    "ellipse": ("{type: ellipse, x: 1, y: 2, w: 3, h: 4}", (1, 2, 3, 4)),
    "text": ("{type: text, x: 5, y: 5, w: 50, h: 8, text: Hi}", (5, 5, 50, 8)),
    "a template value": ("{type: rect, x: '{{ 2 + 3 }}', y: 1, w: 2, h: 2}", (5, 1, 2, 2)),
    "an area": ("{type: rect, area: safe}", (3, 3, CARD[0] - 6, CARD[1] - 6)),
    "icon by size": ("{type: icon, name: coin, x: 4, y: 4, size: 10}", (4, 4, 10, 10)),
    "icon by default size": ("{type: icon, name: coin, x: 4, y: 4}", (4, 4, 8, 8)),
    "icon by w and h": ("{type: icon, name: coin, x: 4, y: 4, w: 10, h: 6}", (4, 4, 10, 6)),
    "line, ends in any order": ("{type: line, x1: 30, y1: 20, x2: 10, y2: 25}", (10, 20, 20, 5)),
    "polygon": ("{type: polygon, points: [[0, 0], [10, 0], [5, 8]]}", None),
}


def element(tmp_path, yaml: str):
    (tmp_path / "l.yaml").write_text(f"elements:\n  - {yaml}\n")
    layout = LayoutLibrary([tmp_path], Compiler()).get("l", Location("test"))
    fc = FaceContext(
        CARD[0] * MM, CARD[1] * MM, 3 * MM, 3 * MM, {}, load_icons(BUILTIN, {}, Diagnostics()), tmp_path
    )
    ctx = template_names(fc, {"name": "Ash"}, {"id": "d"}, {"id": "g"})
    return layout.elements[0], ctx, fc


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_box_is_the_elements_own_values(tmp_path, case):
    yaml, want = CASES[case]
    box = element_box(*element(tmp_path, yaml))
    if want is None:
        assert box is None
    else:
        assert box is not None and [round(v / MM, 6) for v in box] == pytest.approx(want)


def test_a_value_this_card_cannot_give_is_a_located_problem(tmp_path):
    el, ctx, fc = element(tmp_path, "{type: rect, x: '{{ card.name }}', y: 1, w: 2, h: 2}")
    with pytest.raises(DrawProblem) as caught:
        element_box(el, ctx, fc)
    assert caught.value.location.line == 2 and "'x'" in caught.value.message
