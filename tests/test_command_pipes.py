"""Every command ends quietly when its reader stops (`pnpgen list | head -1`, `pnpgen changes ... | head`): exit 0
or 141 (as a Unix tool killed by SIGPIPE), nothing on stderr, never 'internal error: BrokenPipeError'.

Each command runs in a process of its own whose standard output is a pipe nobody reads any more (its read end
closed before the command starts), so the first line it prints meets the closed pipe. The commands are walked
from the click tree: a new command without an invocation here fails the test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, ROOT, run_cli
from test_command_paths import commands

# how to run each command on the built `basic` fixture (in `p/`, output in `out/`, an earlier copy in `old/`)
RUNS = {
    "build": ["build", "--out", "fresh"],
    "build (up to date)": ["build", "--out", "out"],
    "list": ["list"],
    "icons": ["icons", "sample"],
    "check": ["check"],
    "new": ["new", "starter"],
    "edit": ["edit", "content/sample/layouts/hero.yaml", "2", "x=5"],
    "calibrate": ["calibrate", "--out", "sheet.pdf"],
    "changes": ["changes", "old", "out"],
    "export png": ["export", "png", "sample", "heroes", "--dpi", "50", "--out", "out"],
    "export tts": ["export", "tts", "sample", "minis", "--out", "out"],
    "export sheet": ["export", "sheet", "sample", "--out", "out"],
    "export checklist": ["export", "checklist", "sample", "--out", "out"],
    "export shop": ["export", "shop", "tgc", "sample", "minis", "--out", "out"],
    "preflight": ["preflight", "tgc", "sample"],
    "watch": ["watch", "--out", "out"],
    "serve": ["serve", "--out", "out", "--port", "0"],
    "help": ["--help"],
    "version": ["--version"],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("pipes") / "p"
    shutil.copytree(FIXTURES / "basic", root)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    shutil.copytree(root / "out", root / "old")
    return root


def test_every_command_has_a_run_here():
    named = {" ".join(words) for words, _ in commands()}
    assert named <= set(RUNS), named - set(RUNS)


def closed_pipe_run(args: list[str], cwd) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)  # nobody will read: the first write meets a closed pipe
    try:
        return subprocess.run(
            [sys.executable, "-m", "pnpgen", *args],
            cwd=cwd,
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
            timeout=120,
            text=True,
        )
    finally:
        os.close(write)


def quiet(name: str, built, tmp_path) -> None:
    root = tmp_path / "p"
    shutil.copytree(built, root, symlinks=True)
    proc = closed_pipe_run(RUNS[name], root)
    assert proc.returncode in (0, 141), (proc.returncode, proc.stderr)
    assert proc.stderr == "", proc.stderr


def test_list_piped_to_a_reader_that_stops_is_quiet(built, tmp_path):
    quiet("list", built, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(RUNS) - {"list"}))
def test_every_command_piped_to_a_reader_that_stops_is_quiet(built, tmp_path, name):
    quiet(name, built, tmp_path)
