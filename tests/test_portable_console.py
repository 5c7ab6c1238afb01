"""A console that cannot print UTF-8 (issue 26): Windows' cp1252, strict or not. Messages holding `×`, `−`, `→`,
`…`, curly quotes and names in any script never crash a command: what the console cannot show is printed as an
escape, and every command keeps its exit code. Run as users run it, `python -m pnpgen` in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, fast_once

TITLE = "Spiel → Ü − 5 × 3 … “Götter” ‘x’ 火の神"
CARD = "Ash → Walker 火"
SAYS = "11 Hero cards × 1 → ‘all’ − none…"


def pnpgen(cwd: Path, encoding: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONUTF8", None)
    return subprocess.run(
        [sys.executable, "-X", "utf8=0", "-m", "pnpgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=300,
    )


def text(result: subprocess.CompletedProcess) -> str:
    out = (result.stdout + result.stderr).decode("cp1252", errors="strict")  # every byte is cp1252
    assert "Traceback" not in out and "internal error" not in out, out
    return out


@pytest.fixture
def game(project) -> Path:
    """The basic game with a title, a card name and a fact in characters cp1252 cannot encode."""
    root = project("basic")
    g = root / "content" / "sample"
    for name, old, new in (
        ("game.yaml", "title: Sample Game", f'title: "{TITLE}"'),
        ("decks/heroes.yaml", "name: Ash Walker", f'name: "{CARD}"'),
        ("facts.yaml", "says: 11 Hero cards, 5 ember and 6 sea", f'says: "{SAYS}"'),
    ):
        path = g / name
        body = path.read_text(encoding="utf-8")
        assert old in body
        path.write_text(body.replace(old, new), encoding="utf-8")
    return root


@pytest.mark.parametrize("encoding", fast_once(["cp1252", "cp1252:strict"]))
def test_every_command_prints_on_a_cp1252_console(game, encoding):
    built = pnpgen(game, encoding, "build", "--out", "out")
    assert built.returncode == 0, text(built)
    assert "built sample" in text(built)
    assert (game / "out" / "sample" / "heroes.pdf").is_file()
    again = pnpgen(game, encoding, "build", "--out", "out")
    assert again.returncode == 0 and "up to date sample" in text(again)
    listed = pnpgen(game, encoding, "list")
    assert listed.returncode == 0, text(listed)
    assert (
        "Spiel \\u2192 \xdc \\u2212 5 \xd7 3 \u2026 \u201cG\xf6tter\u201d \u2018x\u2019 \\u706b\\u306e\\u795e"
        in text(listed)
    )
    checked = pnpgen(game, encoding, "check", "--format", "text")
    assert checked.returncode == 0, text(checked)
    assert "sample: 4 facts checked" in text(checked)
    icons = pnpgen(game, encoding, "icons", "sample")
    assert icons.returncode == 0, text(icons)


@pytest.mark.parametrize("encoding", ["cp1252", "cp1252:strict"])
def test_a_failing_check_and_a_broken_game_exit_1_on_a_cp1252_console(game, encoding):
    facts = game / "content" / "sample" / "facts.yaml"
    facts.write_text(facts.read_text(encoding="utf-8").replace("total: 11", "total: 12"), encoding="utf-8")
    checked = pnpgen(game, encoding, "check", "--format", "text")
    assert checked.returncode == 1, text(checked)
    assert "11 Hero cards \xd7 1 \\u2192 \u2018all\u2019 \\u2212 none\u2026" in text(checked)
    layout = game / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace('fill: "#fbf6ea"', 'fill: "→rouge"'))
    broken = pnpgen(game, encoding, "build", "--out", "out", "--no-check")
    assert broken.returncode == 1, text(broken)
    assert "error: 'fill' is not a colour: '\\u2192rouge'" in text(broken)
    assert not (game / "out" / "sample").exists()


def test_a_usage_error_naming_what_cp1252_cannot_print_exits_2(game):
    result = pnpgen(game, "cp1252:strict", "build", "Spiel→火")
    assert result.returncode == 2, text(result)
    assert "no game 'Spiel\\u2192\\u706b'" in text(result)


def test_the_console_is_left_alone_when_it_prints_utf8(game):
    result = pnpgen(game, "utf-8", "list")
    assert result.returncode == 0
    assert TITLE in result.stdout.decode("utf-8")
