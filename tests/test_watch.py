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
