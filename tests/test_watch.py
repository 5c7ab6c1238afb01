"""`pnpgen watch` as a user runs it: a save rebuilds its component, broken content is reported and the watch goes on."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT

from pnpgen.commands.watch import affected_games


def _reader(stream, q):
    for line in iter(stream.readline, ""):
        q.put(line.rstrip("\n"))


def wait_for(q, needle, timeout=30.0):
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        try:
            line = q.get(timeout=0.2)
        except queue.Empty:
            continue
        seen.append(line)
        if needle in line:
            return seen
    raise AssertionError(f"never saw {needle!r}; got {seen}")


@pytest.mark.slow
def test_watch_rebuilds_on_save_and_survives_broken_content(project):
    root = project("basic")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnpgen", "watch", "--out", "out"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    q: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, q), daemon=True).start()
    try:
        wait_for(q, "watching")
        deck = root / "content" / "sample" / "decks" / "minis.yaml"
        deck.write_text(deck.read_text().replace("Tiny.", "Tiny but brave."))
        lines = wait_for(q, "rebuilt sample")
        assert any("rebuilt sample: minis in" in line for line in lines), lines
        good = deck.read_text()
        time.sleep(0.3)
        deck.write_text(good.replace("count: 20", "count: many"))
        lines = wait_for(q, "failed sample")
        assert any("minis.yaml:8:12: error: 'count'" in line for line in lines), lines
        assert proc.poll() is None  # still watching
        time.sleep(0.3)
        deck.write_text(good.replace("Tiny but brave.", "Fixed."))
        wait_for(q, "rebuilt sample: minis")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_shared_layout_changes_touch_every_game(tmp_path):
    content, layouts = tmp_path / "content", tmp_path / "layouts"
    for g in ("a", "b"):
        (content / g).mkdir(parents=True)
        (content / g / "game.yaml").write_text("id: x\n")
    layouts.mkdir()
    assert affected_games([(1, str(content / "a" / "decks" / "x.yaml"))], content, layouts, None) == ["a"]
    assert affected_games([(1, str(layouts / "card.yaml"))], content, layouts, None) == ["a", "b"]
    assert affected_games([(1, str(layouts / "card.yaml"))], content, layouts, ["b"]) == ["b"]


@pytest.mark.parametrize(
    "rendered,first,says",
    [
        (["heroes"], True, "rebuilt sample: heroes in 0.25 s"),
        (["heroes", "minis"], False, "rebuilt sample: heroes, minis in 0.25 s"),
        ([], True, "sample is up to date: nothing to rebuild (checked in 0.25 s)"),
        ([], False, "sample is up to date: the save changed nothing it prints (checked in 0.25 s)"),
    ],
)
def test_watch_says_in_plain_words_what_a_build_did(rendered, first, says):
    from pnpgen.commands.watch import _built

    assert _built("sample", rendered, first, 0.25) == says


def test_watch_started_over_an_up_to_date_build_says_so(project, tmp_path):
    """Its first line used to read 'rebuilt sample: nothing changed' for a build that rebuilt nothing."""
    from conftest import run_cli

    from pnpgen.cli import _project, _report
    from pnpgen.cli.iterate import EDITING
    from pnpgen.commands.watch import run as watch

    root = project("basic")
    out = tmp_path / "out"
    assert run_cli("build", "--out", out, "--no-print-all", cwd=root).exit_code == 0
    lines: list[str] = []
    stop = threading.Event()
    stop.set()  # build once, then stop listening
    proj = _project(root / "content", out, None, EDITING, ())  # as `watch` without --paper
    watch(proj, None, lambda t, e: lines.append(t), _report, stop)
    assert lines[0].startswith("sample is up to date: nothing to rebuild (checked in "), lines
    assert not any("rebuilt" in line for line in lines), lines
