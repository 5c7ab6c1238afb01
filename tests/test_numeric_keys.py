"""Every numeric key of every layout element type, given a number no page can hold: a located error or a good
build, never a crash inside ReportLab, an internal error or a file written with a number PDF readers reject.

The element types come from the registry, each walked from its own example (`ElementType.example`) unless
FULLER below gives an element that reaches more of its keys: a new type is covered with nothing added here."""

from __future__ import annotations

import re
import shutil

import pytest
import yaml
from conftest import FIXTURES, run_cli

from pnpgen.layout.elements import TYPES
from pnpgen.layout.kinds import ElementType, Length, Number


def _example(t: ElementType) -> dict:
    """The type's own example element, without its `type`."""
    given = yaml.safe_load(t.example)
    return {k: v for k, v in given.items() if k != "type"}


# Elements chosen for this walk (values in mm; a hexmap with a coast and piers); any other type is walked from its
# own example.
FULLER = {
    "cells": {"x": 5, "y": 20, "w": 40, "h": 30, "cols": 3, "rows": 2},
    "die-net": {"x": 5, "y": 5, "size": 8, "die": "d6", "faces": ["1", "2", "3", "4", "5", "6"]},
    "ellipse": {"x": 5, "y": 20, "w": 10, "h": 10, "fill": "black"},
    "grid": {"x": 5, "y": 20, "w": 40, "h": 30, "cells": [["", ""]]},
    "hexmap": {
        "x": 10,
        "y": 10,
        "size": 5,
        "cells": [[0, 0], [1, 0]],
        "coast": "black",
        "piers": [{"cell": [0, 0], "side": "w"}],
    },
    "icon": {"x": 5, "y": 20, "name": "drop"},
    "image": {"x": 5, "y": 20, "w": 10, "h": 10, "src": "split.png"},
    "line": {"x1": 1, "y1": 1, "x2": 10, "y2": 10},
    "polygon": {"points": [[1, 1], [10, 1], [5, 10]]},
    "rect": {"x": 5, "y": 20, "w": 10, "h": 10, "fill": "black"},
    "text": {"x": 5, "y": 20, "w": 40, "h": 10, "text": "hi"},
    "track": {"x": 5, "y": 20, "w": 40, "h": 10, "count": 5},
}
# The smallest element of each type that draws, to which one hostile value is added.
MINIMAL = {name: FULLER.get(name) or _example(t) for name, t in TYPES.items()}
# More forms of a type whose drawing differs by a value (each die's net; cells as a sheet's rows), walked too.
VARIANTS = {
    "die-net/d10": {**MINIMAL["die-net"], "die": "d10", "faces": [str(i) for i in range(10)]},
    "die-net/d12": {**MINIMAL["die-net"], "die": "d12", "faces": [str(i) for i in range(1, 13)]},
    "die-net/d20": {**MINIMAL["die-net"], "size": 5, "die": "d20", "faces": [str(i) for i in range(1, 21)]},
    "hexmap/rows": {
        **MINIMAL["hexmap"],
        "cells": [{"col": 0, "row": 0, "fill": "black", "label": "1"}, {"col": 1, "row": 0, "land": "false"}],
        "piers": [{"col": 0, "row": 0, "side": "w", "label": "A"}],
    },
}
# Written into the layout as YAML text: huge, huge whole, negative, and infinite and NaN computed by a template.
HOSTILE = {
    "1e300": "1.0e+300",
    "int400": "1" + "0" * 400,
    "negative": "-5",
    "inf": '"{{ 1e308 * 10 }}"',
    "nan": '"{{ (1e308 * 10) - (1e308 * 10) }}"',
}
NUMERIC = [
    (name, key)
    for name in sorted([*TYPES, *VARIANTS])
    for key, kind in sorted(TYPES[name.split("/")[0]].keys.items())
    if isinstance(kind, (Length, Number))
]


def test_every_element_type_has_a_minimal_element():
    assert set(FULLER) <= set(TYPES), "FULLER names a type that is not registered"
    for name, given in MINIMAL.items():
        assert isinstance(given, dict) and given, f"{name}'s example is not a mapping of keys"


@pytest.mark.slow
@pytest.mark.parametrize("value", sorted(HOSTILE))
@pytest.mark.parametrize(("element", "key"), NUMERIC, ids=[f"{e}.{k}" for e, k in NUMERIC])
def test_a_number_no_page_can_hold_is_a_located_error(element, key, value, tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "basic", project)
    given = VARIANTS[element] if element in VARIANTS else MINIMAL[element]
    body = yaml.safe_dump({"elements": [{"type": element.split("/")[0], **given}]}, sort_keys=False)
    lines = [ln for ln in body.splitlines() if not ln.strip().startswith(f"{key}:")]
    lines.append(f"  {key}: {HOSTILE[value]}")
    (project / "content/sample/layouts/hero.yaml").write_text("\n".join(lines) + "\n")
    result = run_cli("build", "--out", "out", cwd=project)
    output = result.output
    assert result.exit_code in (0, 1), output
    assert "internal error" not in output and "Traceback" not in output, output
    assert "could not write" not in output, f"refused only when writing the PDF:\n{output}"
    if result.exit_code == 1:  # at the key, or at the element it makes impossible (a grid of negative height)
        assert re.search(r"^content/sample/layouts/hero\.yaml:\d+:\d+: error: ", output, re.M), output


NUMBERS = [
    (name, key) for name, key in NUMERIC if "/" not in name and isinstance(TYPES[name].keys[key], Number)
]


@pytest.mark.parametrize(("element", "key"), NUMBERS, ids=[f"{e}.{k}" for e, k in NUMBERS])
def test_a_yes_or_no_is_no_number(element, key):
    """YAML reads true, yes and on as True, which float() makes 1: `cols: yes` drew one column, `opacity: on` full
    ink, with no word. Every Number key refuses them, as every Length key does."""
    from pnpgen.layout.kinds import Bad

    for value in (True, False):
        with pytest.raises(Bad) as exc:
            TYPES[element].keys[key].parse(value, None)
        assert exc.value.message == f"must be a number (got {str(value).lower()})"


def test_a_yes_for_a_count_is_an_error_at_its_key(project):
    root = project("basic")
    layout = root / "content/sample/layouts/hero.yaml"
    layout.write_text(
        layout.read_text() + "  - {type: cells, x: 5, y: 20, w: 40, h: 30, rows: 2, cols: yes}\n"
    )
    result = run_cli("build", "--out", "out", cwd=root)
    line = len(layout.read_text().splitlines())
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"content/sample/layouts/hero.yaml:{line}:" in result.output
    assert "'cols' must be a number (got true)" in result.output, result.output
