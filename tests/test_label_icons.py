"""A label of the geometry elements (a die face, a hex cell or pier, a cells grid's label) is plain text: a
`:name:` in it naming an icon prints as typed, never as the icon a `text` element would draw. That is warned
of at the key, on every element that sets labels, saying what draws the icon."""

from __future__ import annotations

import pytest
from conftest import MM

from pnpgen.errors import Diagnostics, Location
from pnpgen.faces import Text
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler

# (element, with LABEL where the label goes; the key the warning is at; what it says draws the icon)
CASES = {
    "die-net face": (
        "{type: die-net, x: 5, y: 5, size: 12, faces: ['LABEL', '2', '3', '4', '5', '6']}",
        "faces",
        "to draw it, give the face `icon: air`",
    ),
    "hexmap cell": (
        "{type: hexmap, x: 20, y: 20, size: 8, cells: [{at: [0, 0], label: 'LABEL'}]}",
        "cells",
        "to draw it, give the cell `icon: air`",
    ),
    "hexmap pier": (
        "{type: hexmap, x: 20, y: 20, size: 8, coast: '#000000', cells: [[0, 0]],"
        " piers: [{cell: [0, 0], side: w, label: 'LABEL'}]}",
        "piers",
        "to draw it, give the pier `icon: air`",
    ),
    "cells label": (
        "{type: cells, x: 5, y: 5, w: 40, h: 40, cols: 2, rows: 2, labels: [[0, 0, 'LABEL']]}",
        "labels",
        "to draw it, add [col, row, air] to `icons`",
    ),
}


def _draw(tmp_path, element: str):
    (tmp_path / "l.yaml").write_text("elements:\n  - " + element + "\n")
    lib = LayoutLibrary([tmp_path], Compiler())
    icons = load_icons(BUILTIN, {}, Diagnostics())
    fc = FaceContext(63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, {}, icons, tmp_path)
    diags = Diagnostics()
    layout = lib.get("l", Location("l.yaml"))
    face = draw_face(layout, fc, template_names(fc, {"name": "A"}, {"id": "d"}, {"id": "g"}), "card 1", diags)
    fc.flush_notes(diags)
    assert face is not None, [d.message for d in diags.items]
    return face, diags


@pytest.mark.parametrize("case", list(CASES))
def test_an_icon_name_in_a_label_is_warned_of_at_its_key(tmp_path, case):
    element, key, instead = CASES[case]
    face, diags = _draw(tmp_path, element.replace("LABEL", "Gain :air:"))
    col = element.index(f"{key}: ") + len(key) + 2 + 5  # its value; the element starts at column 5: `  - {`
    assert [(d.severity, d.location.line, d.location.col, d.message) for d in diags.items] == [
        (
            "warning",
            2,
            col,
            f"a label is plain text: ':air:' prints as typed, not as the icon; {instead} on card 1",
        )
    ]
    assert any(isinstance(op, Text) and op.text == "Gain :air:" for op in face.ops)  # printed as typed


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("text", ["10:30", "Note: :nothing: here", "plain"])
def test_a_label_without_an_icon_name_is_not_warned_of(tmp_path, case, text):
    element, _, _ = CASES[case]
    _, diags = _draw(tmp_path, element.replace("LABEL", text))
    assert diags.items == []
