"""Two commands writing one output at once (two builds of a game, two exports of a deck): the commits never
interleave, so the output is one command's whole, never some files of each. Each writer that moves files into
place is held to it: a build's `Stage.commit` (file by file) and an export's `swap_folders` (folder by folder).
The first writer is paused after its first rename until the second has done, or for a second when the second
waits for it, as it must."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from conftest import fast_once

from pnpgen.errors import ContentError
from pnpgen.pipeline import commitlock, staging
from pnpgen.pipeline.staging import Stage, swap_folders

NAMES = ["a.pdf", "b.pdf", "manifest.json"]


def build(final: Path, mark: bytes) -> None:
    with Stage(final) as stage:
        for name in NAMES:
            stage.path(name).write_bytes(mark)
        stage.commit(list(NAMES))


def export(top: Path, mark: bytes) -> None:
    pairs = []
    for deck in ("heroes", "minis"):
        staged = staging.staging_folder(top / deck)
        (staged / "1.png").write_bytes(mark)
        pairs.append((staged, top / deck))
    swap_folders(pairs, top)


def seen(final: Path, writer: str) -> dict:
    if writer == "build":
        return {n: (final / n).read_bytes() for n in NAMES}
    return {d: (final / d / "1.png").read_bytes() for d in ("heroes", "minis")}


WRITERS = {"build": build, "export": export}


@pytest.mark.parametrize("writer", fast_once(sorted(WRITERS)))
def test_two_commits_at_once_give_one_whole_output(tmp_path, monkeypatch, writer):
    final = tmp_path / "out" / "g"
    WRITERS[writer](final, b"old")
    first_moved, second_done = threading.Event(), threading.Event()
    first = {"thread": None}
    real_replace, real_rename = os.replace, os.rename

    def paused(real):
        def move(a, b):
            real(a, b)
            if threading.current_thread() is first["thread"] and not first_moved.is_set():
                first_moved.set()
                second_done.wait(1.0)  # the second either finishes meanwhile (interleaved) or waits for us

        return move

    monkeypatch.setattr(os, "replace", paused(real_replace))
    monkeypatch.setattr(os, "rename", paused(real_rename))
    errors = []

    def run(mark: bytes, done: threading.Event | None = None) -> None:
        try:
            WRITERS[writer](final, mark)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            if done is not None:
                done.set()

    a = threading.Thread(target=run, args=(b"A",))
    first["thread"] = a
    a.start()
    assert first_moved.wait(10)
    b = threading.Thread(target=run, args=(b"B", second_done))
    b.start()
    a.join(10)
    b.join(10)
    assert not errors, errors
    assert len(set(seen(final, writer).values())) == 1, seen(final, writer)  # one command's output, whole


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_commit_that_never_gets_its_turn_is_an_error_and_changes_nothing(tmp_path, monkeypatch, writer):
    final = tmp_path / "out" / "g"
    WRITERS[writer](final, b"old")
    monkeypatch.setattr(commitlock, "WAIT", 0.1)
    locked = [final] if writer == "build" else [final / "heroes", final / "minis"]
    for folder in locked:  # another command's, live: fresh
        folder.with_name(f".{folder.name}.commit-lock").touch()
    with pytest.raises(ContentError, match="another pnpgen command has been writing here"):
        WRITERS[writer](final, b"new")
    assert set(seen(final, writer).values()) == {b"old"}


def test_a_lock_left_by_a_killed_commit_is_taken_over(tmp_path):
    final = tmp_path / "out" / "g"
    build(final, b"old")
    lock = final.with_name(".g.commit-lock")
    lock.touch()
    gone = time.time() - commitlock.STALE - 1
    os.utime(lock, (gone, gone))
    build(final, b"new")
    assert set(seen(final, "build").values()) == {b"new"} and not lock.exists()
