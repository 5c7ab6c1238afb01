"""The text floor: game text under 6 pt and rules text (a sentence) under 7 pt is a warning at the element that
set it, naming the card and the smallest size; an error with --strict. Measured on the size actually drawn, so
text a box shrinks below the floor is caught as well as text asked for small."""

from __future__ import annotations

import re

import pytest
from conftest import run_cli

LAYOUT = """\
elements:
  - type: rect
    area: bleed
    fill: "#ffffff"
  - type: text
    x: 3
    y: 3
    w: 50
    h: 6
    text: "{{{{ card.name }}}}"
    font: sans-bold
    size: {label}
  - type: text
    x: 3
    y: 12
    w: {box}
    h: 12
    text: "Move one of your pieces to any empty space next to it, then draw a card."
    font: sans
    size: 8
    min_size: 5
  - type: track
    x: 3
    y: 50
    w: 57
    h: 20
    count: 10
"""


def _game(tmp_path, label=9, box=50, track=10):
    game = tmp_path / "content" / "floor"
    (game / "decks").mkdir(parents=True)
    (game / "layouts").mkdir()
    (game / "game.yaml").write_text("id: floor\ntitle: Floor\nplayers: 2\ncomponents:\n  - decks/d.yaml\n")
    (game / "decks" / "d.yaml").write_text(
        "id: d\nkind: cards\nname: D\nsize: poker\nfront: f\ncards:\n  - {name: Alpha, count: 2}\n  - {name: Beta}\n"
    )
    layout = LAYOUT.format(label=label, box=box).replace("count: 10", f"count: {track}")
    (game / "layouts" / "f.yaml").write_text(layout)
    return tmp_path / "content"


def _build(content, out, *extra):
    return run_cli("build", "--content", content, "--out", out, "--no-check", *extra)


def test_text_at_the_floor_builds_without_a_warning(tmp_path):
    result = _build(_game(tmp_path), tmp_path / "out", "--strict")
    assert result.exit_code == 0, result.output
    assert "pt a player reads" not in result.output


def test_small_game_text_is_a_warning_at_its_size_key(tmp_path):
    result = _build(_game(tmp_path, label=5), tmp_path / "out")
    assert result.exit_code == 0, result.output
    m = re.search(
        r"layouts/f\.yaml:(\d+):\d+: warning: game text is set as small as 5\.0 pt, under the 6 pt",
        result.output,
    )
    assert m and m.group(1) == "12", result.output  # the `size:` line of the label
    assert "on card 1 'Alpha'" in result.output and "and 1 more" in result.output


def test_a_sentence_shrunk_under_7_pt_is_rules_text(tmp_path):
    """8 pt asked, but a narrow box shrinks it: the size drawn is what counts."""
    result = _build(_game(tmp_path, box=20), tmp_path / "out")
    assert result.exit_code == 0, result.output
    m = re.search(r"warning: rules text is set as small as ([0-9.]+) pt, under the 7 pt", result.output)
    assert m and 5 <= float(m.group(1)) < 7, result.output


def test_track_numbers_are_game_text(tmp_path):
    result = _build(_game(tmp_path, track=30), tmp_path / "out")  # 30 spaces round the box: 5.6 pt numbers
    assert "game text is set as small as" in result.output, result.output


@pytest.mark.parametrize("label, box", [(5, 50), (9, 20)])
def test_strict_makes_the_floor_an_error_and_writes_nothing(tmp_path, label, box):
    result = _build(_game(tmp_path, label=label, box=box), tmp_path / "out", "--strict")
    assert result.exit_code == 1
    assert "pt a player reads" in result.output
    assert not (tmp_path / "out" / "floor" / "d.pdf").exists()
