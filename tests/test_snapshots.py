"""Golden snapshots of what the first face of every shipped component draws (`Face.snapshot()`: its draw
operations as stable text, rounded to 0.01 pt): a change to layouts, text fitting or the engine that moves a
single glyph shows here as a readable diff.

To accept an intended change: `PNPGEN_UPDATE_SNAPSHOTS=1 make test-fast`, then review `git diff tests/snapshots`.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from conftest import ROOT, fast_once

from pnpgen.errors import Diagnostics
from pnpgen.model import Board
from pnpgen.pipeline.run import GameRun
from pnpgen.project import Project

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE = os.environ.get("PNPGEN_UPDATE_SNAPSHOTS") == "1"
PROJECT = Project(ROOT / "content")
GAMES = [root.name for root in PROJECT.games()]


def first_faces(game_name: str) -> str:
    """Each component's first card (front and back) or board side, as snapshot text."""
    run = GameRun(PROJECT, PROJECT.select([game_name])[0])
    run.load()
    parts = []
    for comp in run.game.components:
        if isinstance(comp, Board):
            diags = Diagnostics()
            drawn = run.painter.board(comp, diags)
            assert drawn is not None, diags.sorted()
            faces = {"side 1": drawn.faces[0]}
        else:
            front, back = run.painter.first(comp)
            faces = {"front": front, **({"back": back} if back is not None else {})}
        for side, face in faces.items():
            parts.append(f"## {comp.id} {side}\n{face.snapshot()}\n")
    return "\n".join(parts)


@pytest.mark.parametrize("game", fast_once(GAMES))
def test_first_faces_match_their_snapshot(game):
    actual = first_faces(game)
    path = SNAPSHOTS / f"{game}.txt"
    if UPDATE or not path.exists():
        path.write_text(actual)
        if not UPDATE:
            pytest.fail(f"wrote a new snapshot {path.name}: review and commit it")
    expected = path.read_text()
    if actual != expected:
        diff = "".join(
            list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "snapshot", "now"))[
                :60
            ]
        )
        pytest.fail(f"{game}: first faces differ from tests/snapshots/{game}.txt\n{diff}")
