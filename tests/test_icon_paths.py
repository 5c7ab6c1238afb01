"""The icon path parser (`icons.parse_path`) against svglib's, command by command: every command of SVG's path
grammar pnpgen accepts, absolute and relative, repeated without its letter, and each smooth curve after every
kind of command, must give the points svglib gives (both turn quadratic curves into cubic ones)."""

from __future__ import annotations

import io

import pytest
from reportlab.graphics.shapes import Path
from svglib.svglib import svg2rlg

from pnpgen.schema.icons import parse_path

PATHS = [
    "M10 10 L 20 20 H 40 V 5 Z",
    "m10 10 l 10 10 h 20 v -15 z m 5 5 l 1 1",
    "M 10 10 20 20 30 10",  # a moveto's further pairs are line-tos
    "m 10 10 5 5 5 -5",
    "M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80",
    "M10 80 c 30 -70 55 -70 85 0 s 55 70 85 0 s 10 10 20 0",
    "M10 80 Q 52.5 10, 95 80 T 180 80 T 200 60",
    "M10 80 q 42 -70 85 0 t 85 0 t 20 -20",
    "M10 80 Q 50 10 90 80 S 150 150 180 80",  # S after Q: the quadratic's control point is not reflected
    "M10 80 q 40 -70 80 0 s 60 70 90 0",
    "M10 80 C 40 10 65 10 95 80 T 180 80",  # T after C: the cubic's control point is not reflected
    "M10 80 c 30 -70 55 -70 85 0 t 85 0",
    "M10 80 L 50 50 S 80 20 100 80",  # S after a line: its first control point is the current point
    "M10 80 L 50 50 T 100 80",
    "M10 10 H 50 S 60 30 70 10 Q 80 0 90 10 T 110 10 C 120 0 130 0 140 10 Z M 5 5 T 20 20",
    "M 0 0 C 10 0 10 10 0 10 20 10 20 20 10 20",  # C repeated without its letter
    "M 0 0 Q 10 0 10 10 20 20 30 20",  # Q repeated without its letter
]


def _ours(d: str) -> list[float]:
    points: list[float] = []
    for op in parse_path(d):
        points.extend(op[1:])
    return points


def _svglibs(d: str) -> list[float]:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><path d="{d}"/></svg>'
    drawing = svg2rlg(io.BytesIO(svg.encode()))
    queue, paths = [drawing], []
    while queue:
        node = queue.pop(0)
        if isinstance(node, Path):
            paths.append(list(node.points))
        queue.extend(getattr(node, "contents", []))
    # an open path comes as two (one filled, one stroked) with the same points
    assert paths and all(p == paths[0] for p in paths)
    return paths[0]


@pytest.mark.parametrize("d", PATHS)
def test_each_path_command_gives_svglibs_points(d):
    assert _ours(d) == pytest.approx(_svglibs(d), abs=1e-6)


def test_an_s_after_a_q_starts_at_the_current_point():
    """The case the parser had wrong: an S after a Q reflected the quadratic's control point."""
    ops = parse_path("M10 80 Q 50 10 90 80 S 150 150 180 80")
    assert ops[2][0] == "C" and ops[2][1:3] == (90, 80)
