"""The command line: exit codes, list output, usage errors, tracebacks only with --debug."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import FIXTURES, ROOT, run_cli


def test_list_text_and_json(project):
    root = project("basic")
    text = run_cli("list", cwd=root)
    assert text.exit_code == 0
    assert "sample  Sample Game  (2–4 players)" in text.output
    assert "heroes" in text.output and "11 faces" in text.output
    data = json.loads(run_cli("list", "--format", "json", cwd=root).output)
    (game,) = data["games"]
    assert {c["id"]: c["faces"] for c in game["components"]} == {"heroes": 11, "minis": 20}


def test_unknown_game_is_a_usage_error(project):
    root = project("basic")
    result = run_cli("build", "nosuch", cwd=root)
    assert result.exit_code == 2
    assert "no game 'nosuch'" in result.output


@pytest.mark.parametrize(
    "command, said",
    [
        (["build"], "built sample:"),
        (["check"], "sample: "),
        (["list"], "sample  Sample Game"),
        (["export", "checklist"], "exported sample:"),
    ],
    ids=["build", "check", "list", "export-checklist"],
)
def test_a_game_named_twice_is_one_game(project, command, said):
    """`pnpgen build sample sample` built, wrote (on two workers at once) and counted the game twice."""
    root = project("basic")
    out = ["--out", "out"] if command[0] in ("build", "export") else []
    result = run_cli(*command, "sample", "sample", *out, cwd=root)
    assert result.exit_code == 0, result.output
    assert result.output.count(said) == 1, result.output


def test_bad_option_is_a_usage_error(project):
    result = run_cli("build", "--paper", "a3", cwd=project("basic"))
    assert result.exit_code == 2


def test_build_only_named_games_and_report_them(project, tmp_path):
    root = project("basic")
    result = run_cli("build", "sample", "--out", tmp_path, cwd=root)
    assert result.exit_code == 0
    # two decks (6 pages) and print-all.pdf (10: its guide page and a blank back, then each sheet of the decks
    # with its backs or a blank page); faces are counted once
    assert "built sample: 3 files (3 rendered), 31 faces, 16 pages" in result.output
    assert sorted(p.name for p in (tmp_path / "sample").iterdir()) == [
        "heroes.pdf",
        "manifest.json",
        "minis.pdf",
        "print-all.pdf",
    ]


def test_a_failing_game_does_not_stop_the_others(project, tmp_path):
    root = project("basic")
    broken = root / "content" / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("id: broken\ntitle: Broken\nplayers: 2\ncomponents: [nope.yaml]\n")
    result = run_cli("build", "--out", tmp_path, cwd=root)
    assert result.exit_code == 1
    assert "content/broken/game.yaml:4:14: error: component file 'nope.yaml' not found" in result.output
    assert "failed broken" in result.output
    assert (tmp_path / "sample" / "manifest.json").is_file()
    assert not (tmp_path / "broken").exists()


def test_strict_turns_warnings_into_errors(project, tmp_path):
    root = project("basic")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text() + "  - type: text\n    x: 0\n    y: 0\n    w: 30\n    h: 5\n    text: edge\n"
    )
    relaxed = run_cli("build", "--out", tmp_path / "a", cwd=root)
    assert relaxed.exit_code == 0 and "warning: text reaches outside the safe zone" in relaxed.output
    strict = run_cli("build", "--strict", "--out", tmp_path / "b", cwd=root)
    assert strict.exit_code == 1 and "[--strict]" in strict.output


def test_python_dash_m_and_quiet_non_tty_output(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pnpgen",
            "build",
            "--content",
            FIXTURES / "basic" / "content",
            "--out",
            tmp_path,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress bar when not a terminal
    assert proc.stdout.strip().startswith("built sample")


def test_version_through_python_dash_m_and_the_command(tmp_path, capsys):
    from pnpgen import __version__
    from pnpgen.__main__ import main

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "pnpgen", "--version"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"pnpgen, version {__version__}\n", "")
    # the `pnpgen` command's entry point, fast path first: `--version` is left to click
    old = sys.argv
    sys.argv = ["pnpgen", "--version"]
    try:
        with pytest.raises(SystemExit) as exit_:
            main()
    finally:
        sys.argv = old
    assert exit_.value.code in (0, None)
    assert capsys.readouterr().out == f"pnpgen, version {__version__}\n"
    assert run_cli("--version").output == f"pnpgen, version {__version__}\n"


def test_internal_errors_hide_the_traceback_unless_debug(project, tmp_path, monkeypatch):
    from pnpgen.pipeline.run import GameRun

    def boom(*a, **k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(GameRun, "write", boom)
    root = project("basic")
    quiet = run_cli("build", "--out", tmp_path, cwd=root)
    assert quiet.exit_code == 1
    assert "internal error: RuntimeError: kaboom" in quiet.output and "Traceback" not in quiet.output
    loud = run_cli("build", "--out", tmp_path, "--debug", cwd=root)
    assert loud.exit_code == 1 and "Traceback" in loud.output


def test_new_writes_a_starter_game_that_builds_and_checks(tmp_path):
    result = run_cli("new", "my-game", "--content", tmp_path / "content")
    assert result.exit_code == 0, result.output
    assert "data/cards.csv" in result.output
    build = run_cli(
        "build", "my-game", "--content", tmp_path / "content", "--out", tmp_path / "out", "--strict"
    )
    assert build.exit_code == 0, build.output
    assert "built my-game: 3 files" in build.output
    check = run_cli("check", "my-game", "--content", tmp_path / "content")
    assert check.exit_code == 0 and "my-game: 1 fact checked, 0 errors, 0 warnings" in check.output
    again = run_cli("new", "my-game", "--content", tmp_path / "content")
    assert again.exit_code == 2 and "exists already; pnpgen new never writes over a folder" in again.output
    bad = run_cli("new", "My Game", "--content", tmp_path / "content")
    assert bad.exit_code == 2 and "a game's name is lower-case letters" in bad.output


def test_the_build_summary_counts_files(project):
    """`built g: N files (R rendered, K up to date)`: R and K count files, as N does (a board writes two), so they
    add up; they counted components, and a kept board made a rebuild's numbers fall one short."""
    import re

    root = project("pieces")
    first = run_cli("build", "--out", "out", cwd=root)
    assert first.exit_code == 0, first.output
    n, r = map(int, re.search(r"built pieces: (\d+) files \((\d+) rendered\)", first.output).groups())
    assert n == r == len(json.loads((root / "out" / "pieces" / "manifest.json").read_text())["files"])
    coins = root / "content" / "pieces" / "tiles" / "coins.yaml"
    coins.write_text(coins.read_text().replace("count: 30", "count: 31"))
    second = run_cli("build", "--out", "out", cwd=root)
    found = re.search(r"built pieces: (\d+) files \((\d+) rendered, (\d+) up to date\)", second.output)
    assert found, second.output
    n2, r2, k2 = map(int, found.groups())
    assert n2 == n and r2 + k2 == n2 and r2 == 2, (
        second.output
    )  # the coins and print-all; the board's two kept


@pytest.mark.parametrize(
    "command, said",
    [
        (["export", "png", "--dpi", "50"], "exported sample/heroes:"),
        (["export", "tts"], "heroes"),
        (["export", "shop", "tgc"], "exported sample/heroes for tgc:"),
        (["preflight", "tgc"], "preflight sample for tgc:"),
    ],
    ids=["png", "tts", "shop", "preflight"],
)
def test_a_component_named_twice_is_exported_once(project, command, said):
    """`export tts sample heroes heroes` failed with 'cannot replace it: No such file or directory'; png and
    shop exported and reported the deck twice."""
    root = project("basic")
    out = (lambda name: ["--out", name]) if command[0] == "export" else (lambda name: [])
    once = run_cli(*command, "sample", "heroes", *out("once"), "--no-check", cwd=root)
    twice = run_cli(*command, "sample", "heroes", "heroes", *out("twice"), "--no-check", cwd=root)
    assert once.exit_code == twice.exit_code == 0, twice.output
    assert twice.output.replace("twice", "once") == once.output
    assert said in once.output
    files = [sorted(p.relative_to(root / n) for p in (root / n).rglob("*")) for n in ("once", "twice")]
    assert files[0] == files[1]
