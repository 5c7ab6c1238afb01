"""The broken-input corpus: each tests/broken/*.yaml replaces one file of the `basic` fixture game.

Its header names the file it replaces (`# target:`) and the lines the build must print (`# expect:`). Every case
must give exit 1, no traceback, and leave the previous good output byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from conftest import fast_once, run_cli

CASES = sorted((Path(__file__).parent / "broken").glob("*.yaml"))


def header(path: Path, key: str) -> list[str]:
    prefix = f"# {key}: "
    return [
        line[len(prefix) :].rstrip("\n") for line in path.read_text().splitlines() if line.startswith(prefix)
    ]


def snapshot(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*"))}


def test_corpus_is_not_empty():
    assert len(CASES) >= 20


def check_case(case: Path, root: Path, good_out: Path | None = None) -> None:
    """Build the good game, swap in the case's file, build again: exit 1, the expected lines, output kept.

    `# before: <path> = <file>` first adds a good file of tests/broken/support/ to the game (a rulebook that
    calls a diagram, the good diagram), so a case can break a file the fixture does not have."""
    for spec in header(case, "before"):
        dest, src = (part.strip() for part in spec.split("="))
        (root / dest).parent.mkdir(parents=True, exist_ok=True)
        (root / dest).write_text((case.parent / "support" / src).read_text())
    if good_out is not None and not header(case, "before"):
        # the game is the fixture as it is: its good output is the session's build of it (conftest.basic_out)
        shutil.copytree(good_out, root / "out")
    else:
        first = run_cli("build", "--out", "out", cwd=root)
        assert first.exit_code == 0, first.output
    before = snapshot(root / "out" / "sample")
    (target,) = header(case, "target")
    (root / target).write_text(case.read_text())
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    for expected in header(case, "expect"):
        assert expected in result.output, f"expected:\n{expected}\ngot:\n{result.output}"
    assert "failed sample" in result.output
    assert snapshot(root / "out" / "sample") == before


@pytest.mark.parametrize("case", fast_once(CASES), ids=[c.stem for c in CASES])
def test_broken_input_gives_a_located_message_and_keeps_output(case, project, basic_out):
    check_case(case, project("basic"), basic_out)
