"""The text size floors, for every element that sets text on every kind of component: text drawn under 7 pt (the
size a print shop recommends) is a warning at the element's text size key, under 6 pt an error (exit 1, the last
good output kept), unless the element says `small_text: allowed`. The size drawn counts (after shrinking to fit).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from pnpgen.layout.elements import TYPES

# One element of each type that sets text, its text size key last (given by `_game`), in block style so that
# the key has a line of its own.
ELEMENTS = {
    "text": {"x": 5, "y": 5, "w": 50, "h": 10, "text": "Hello", "min_size": 1},
    "cells": {"x": 5, "y": 5, "w": 40, "h": 20, "cols": 2, "rows": 1, "labels": "[[0, 0, A]]"},
    "hexmap": {"x": 25, "y": 25, "size": 8, "cells": "[{at: [0, 0], label: '8'}]"},
    "die-net": {"x": 5, "y": 5, "size": 8, "die": "d4", "faces": "[A, B, C, D]"},
    "track": {"x": 5, "y": 5, "w": 50, "h": 70, "count": 3, "start": 1},
}
# what sets text: a Text operation, a label centred on a point, text fitted to a box
SETTERS = {
    ("pnpgen.faces", "Text"),
    ("pnpgen.layout.elements._place", "label"),
    ("pnpgen.text.fit", "fit_text"),
}
TEXT_TYPES = sorted(name for name, t in TYPES.items() if t.text_size)
KINDS = {
    "cards": "kind: cards\nsize: poker\nfront: f\ncards:\n  - {name: Alpha, count: 2}\n  - {name: Beta}\n",
    "tiles": "kind: tiles\nshape: square\nsize: 60mm\nfront: f\ntiles:\n  - {name: Alpha}\n",
    "tokens": "kind: tokens\nshape: circle\nsize: 60mm\nfront: f\ntokens:\n  - {name: Alpha}\n",
    "board": "kind: board\nsize: 200mm x 200mm\nsides:\n  - {id: a, layout: f}\n",
}


def test_every_type_that_sets_text_is_a_case():
    """The cases below are every element type that declares a text size key; one that draws text declares it."""
    assert sorted(ELEMENTS) == TEXT_TYPES
    for name, t in TYPES.items():
        tree = ast.parse(Path(sys.modules[t.draw.__module__].__file__).read_text(encoding="utf-8"))
        imported = {
            (node.module, alias.name)
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        sets_text = bool(imported & SETTERS)
        assert bool(t.text_size) == sets_text, name


def _game(tmp_path, etype: str, size: float, allowed: bool = False, kind: str = "cards", extra=None):
    game = tmp_path / "content" / "g"
    (game / "layouts").mkdir(parents=True, exist_ok=True)
    (game / "decks").mkdir(exist_ok=True)
    (game / "game.yaml").write_text("id: g\ntitle: G\nplayers: 2\ncomponents:\n  - decks/d.yaml\n")
    (game / "decks" / "d.yaml").write_text("id: d\nname: D\n" + KINDS[kind])
    keys = {**ELEMENTS[etype], **(extra or {})}
    lines = ["elements:", f"  - type: {etype}"] + [f"    {k}: {v}" for k, v in keys.items()]
    if allowed:
        lines.append("    small_text: allowed")
    lines.append(f"    {TYPES[etype].text_size}: {size}")
    (game / "layouts" / "f.yaml").write_text("\n".join(lines) + "\n")
    return tmp_path / "content", len(lines)  # the size key's line


def _build(content, out, *extra):
    return run_cli("build", "--content", content, "--out", out, "--no-check", *extra)


@pytest.mark.parametrize("etype", TEXT_TYPES)
def test_text_under_7_pt_is_a_warning_at_the_size_line(tmp_path, etype):
    content, line = _game(tmp_path, etype, 6.5)
    result = _build(content, tmp_path / "out")
    assert result.exit_code == 0, result.output
    m = re.search(r"layouts/f\.yaml:(\d+):(\d+): warning: text is drawn as small as 6\.5 pt", result.output)
    assert m and int(m.group(1)) == line, result.output
    assert "under the 7 pt a print shop recommends" in result.output
    assert (tmp_path / "out" / "g" / "d.pdf").exists()
    strict = _build(content, tmp_path / "strict", "--strict")
    assert strict.exit_code == 1 and not (tmp_path / "strict" / "g" / "d.pdf").exists()


@pytest.mark.parametrize("etype", TEXT_TYPES)
def test_text_under_6_pt_fails_the_build_and_keeps_the_last_good_output(tmp_path, etype):
    content, line = _game(tmp_path, etype, 7)
    out = tmp_path / "out"
    good = _build(content, out, "--strict")
    assert good.exit_code == 0 and "small as" not in good.output, good.output
    before = {p.name: p.read_bytes() for p in (out / "g").iterdir() if p.is_file()}
    _game(tmp_path, etype, 5.5)
    result = _build(content, out)
    assert result.exit_code == 1, result.output
    m = re.search(r"layouts/f\.yaml:(\d+):\d+: error: text is drawn as small as 5\.5 pt", result.output)
    assert m and int(m.group(1)) == line, result.output
    assert "on card 1 'Alpha' of deck 'd'" in result.output
    assert f"give it a larger '{TYPES[etype].text_size}'" in result.output  # the hint names the key to change
    assert "Traceback" not in result.output
    assert {p.name: p.read_bytes() for p in (out / "g").iterdir() if p.is_file()} == before


@pytest.mark.parametrize("etype", TEXT_TYPES)
def test_small_text_allowed_quiets_both(tmp_path, etype):
    content, _ = _game(tmp_path, etype, 4, allowed=True)
    result = _build(content, tmp_path / "out", "--strict")
    assert result.exit_code == 0, result.output
    assert "small as" not in result.output


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_component_is_held_to_the_floor(tmp_path, kind):
    content, line = _game(tmp_path, "text", 5.5, kind=kind)
    result = _build(content, tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert (
        f"layouts/f.yaml:{line}:" in result.output
        and "error: text is drawn as small as 5.5 pt" in result.output
    )
    assert ("side 'a' of board 'd'" if kind == "board" else "card 1 'Alpha'") in result.output


def test_text_shrunk_to_fit_counts_at_the_size_drawn(tmp_path):
    """9 pt asked, a narrow box shrinks it to under 6 pt: an error at the size line."""
    words = "'Move one of your pieces to any empty space next to it, then draw a card.'"
    content, line = _game(tmp_path, "text", 9, extra={"w": 18, "h": 12, "text": words, "min_size": 3})
    result = _build(content, tmp_path / "out")
    assert result.exit_code == 1, result.output
    m = re.search(rf"f\.yaml:{line}:\d+: error: text is drawn as small as ([0-9.]+) pt", result.output)
    assert m and 3 <= float(m.group(1)) < 6, result.output


def test_a_card_from_a_sheet_is_named_by_its_row(tmp_path):
    content, _ = _game(tmp_path, "text", 5.5, extra={"text": "'{{ card.name }}'"})
    deck = content / "g" / "decks" / "d.yaml"
    deck.write_text("id: d\nname: D\nkind: cards\nsize: poker\nfront: f\ncards_from: data/c.csv\n")
    (content / "g" / "data").mkdir()
    (content / "g" / "data" / "c.csv").write_text("name,count\nAlpha,1\nBeta,1\n")
    result = _build(content, tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert re.search(r"on card 1 'Alpha' of deck 'd' \(\S*data/c\.csv:2:1\) and 1 more", result.output), (
        result.output
    )


@pytest.mark.parametrize(
    "line, message",
    [
        ("    small_text: fine\n", "'small_text' takes only 'allowed' (got 'fine')"),
        ("    small_text: allowed\n", "a rect element sets no text: 'small_text' is for cells, die-net"),
    ],
)
def test_the_allow_key_is_checked(tmp_path, line, message):
    content, _ = _game(tmp_path, "text", 7)
    layout = content / "g" / "layouts" / "f.yaml"
    rect = "" if "fine" in line else "  - type: rect\n    x: 1\n    y: 1\n    w: 5\n    h: 5\n"
    layout.write_text(layout.read_text() + rect + line)
    result = _build(content, tmp_path / "out")
    assert result.exit_code == 1 and message in result.output, result.output


def test_a_size_worked_out_from_the_element_is_held_at_its_line(tmp_path):
    """A d4's labels, with no label_size, are sized from its faces: a small net sets them under 6 pt."""
    content, _ = _game(tmp_path, "die-net", 7)
    layout = content / "g" / "layouts" / "f.yaml"
    layout.write_text(
        layout.read_text().replace("    size: 8\n", "    size: 6\n").replace("    label_size: 7\n", "")
    )
    result = _build(content, tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert re.search(r"f\.yaml:2:\d+: error: text is drawn as small as 5\.1 pt", result.output), result.output
    assert "give it a 'label_size' (else worked out from the element's size)" in result.output
