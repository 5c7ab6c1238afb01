"""A command killed between the two renames of a folder swap (`staging.swap_folders`: the old folder renamed
aside, the new one not yet in place) leaves no folder where its output was, and the old one only in a staging
folder beside it. The last good output is not lost: once the dead process's lease runs out, the sweep puts that
folder back (unless something was made in its place meanwhile). Every command that swaps folders: exports with a
folder per component or kind, and `changes`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest
from conftest import FIXTURES, ROOT, fast_once, run_cli
from test_hostile import tree

from pnpgen.pipeline import staging

# os.rename killed (os._exit, as SIGKILL: no cleanup runs) right after an old folder is renamed aside
KILLED = """
import os, sys
real = os.rename
def rename(a, b):
    real(a, b)
    if "-old-" in os.path.basename(os.fspath(b)):
        os._exit(9)
os.rename = rename
sys.argv = ["pnpgen", *sys.argv[1:]]
from pnpgen.__main__ import main
main()
"""

# each command that swaps folders: (its first run, which makes the old output; the run that is killed)
SWAPS = {
    "export png": (["export", "png", "sample", "--dpi", "50"], ["export", "png", "sample", "--dpi", "60"]),
    "export checklist": (["export", "checklist"], ["export", "checklist"]),
    "export shop tgc": (["export", "shop", "tgc", "sample"], ["export", "shop", "tgc", "sample"]),
    "changes": (["changes", "old", "out"], ["changes", "old", "out"]),
}


def visible(folder):
    """The output as a user or a print shop sees it: the killed process's staging folders and commit lock (taken
    over by the next commit, `commitlock.STALE`) left out."""
    return {k: v for k, v in tree(folder).items() if ".staging-" not in k and not k.endswith(".commit-lock")}


@pytest.mark.parametrize("command", fast_once(sorted(SWAPS)))
def test_a_folder_swap_killed_midway_loses_no_output(tmp_path, basic_out, command):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    shutil.copytree(basic_out, root / "out")
    shutil.copytree(basic_out, root / "old")
    first, killed = SWAPS[command]
    assert run_cli(*first, "--out", "out", cwd=root).exit_code == 0
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("Ash Walker", "Ash Runner"))
    before = visible(root / "out")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", KILLED, *killed, "--out", "out"], cwd=root, env=env, capture_output=True
    )
    assert done.returncode == 9, done.stderr  # killed between the renames
    asides = [p for p in (root / "out").rglob("*") if "-old-" in p.name]
    assert len(asides) == 1, asides
    final = asides[0].parent / asides[0].name[1:].split(".staging-")[0]
    assert not final.exists()  # the window: no folder where the output was
    gone = time.time() - staging.LEASE - 1  # the killed process's lease has run out
    os.utime(asides[0], (gone, gone))
    for lock in (root / "out").rglob("*.commit-lock"):  # and its commit lock (else the next waits to take it)
        os.utime(lock, (gone, gone))
    staging.sweep(asides[0].parent)
    after = visible(root / "out")
    assert after == before, sorted(k for k in set(after) | set(before) if after.get(k) != before.get(k))
    again = run_cli(*killed, "--out", "out", cwd=root)  # and the command, run again, does its work
    assert again.exit_code == 0, again.output
