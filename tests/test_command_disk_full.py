"""Every command that writes is all or nothing on a full disk: the n-th file it writes fails with ENOSPC, and the
command ends with exit 1, a message naming a file and the system's reason, no traceback, and the project as it
was before, byte for byte: the old output kept, nothing half-made, no staging folder left.

The disk fills at the lowest layers a write goes through: `open` for writing (the n-th file opened for writing
inside the project fails at its first write; ReportLab, Pillow, json and csv all write through it), and the flush
every written file passes before it moves into place (`staging._fsync`, where a delayed-allocation file system
reports a full disk, and the only layer under pikepdf's own C++ writes). The count is kept in a file, so workers
forked by a build count with their parent."""

from __future__ import annotations

import builtins
import errno
import io
import os
import shutil

import pytest
from conftest import FIXTURES, run_cli
from test_hostile import tree

from pnpgen.pipeline import staging

EDIT = ("content/sample/decks/heroes.yaml", "Ash Walker", "Ash Runner")

# each command that writes: (what runs before, so there is an old output to keep; the command)
WRITERS = {
    "build": ([], ["build", "--out", "out"]),
    "build-jobs": ([], ["build", "--out", "out", "--jobs", "2"]),
    "new": ([], ["new", "fresh"]),
    "edit": ([], ["edit", "content/sample/layouts/hero.yaml", "2", "x=5"]),
    "calibrate": ([["calibrate", "--out", "sheet.pdf"]], ["calibrate", "--out", "sheet.pdf"]),
    "changes": ([], ["changes", "old", "out"]),  # the two builds as they stand: only the proof is written
    "export png": (
        [["export", "png", "sample", "--dpi", "50", "--out", "out"]],
        ["export", "png", "sample", "--dpi", "60", "--out", "out"],
    ),
    "export tts": (
        [["export", "tts", "sample", "--out", "out"]],
        ["export", "tts", "sample", "--out", "out"],
    ),
    "export sheet": (
        [["export", "sheet", "sample", "--out", "out"]],
        ["export", "sheet", "sample", "--out", "out"],
    ),
    "export checklist": (
        [["export", "checklist", "--out", "out"]],
        ["export", "checklist", "--out", "out"],
    ),
    "export shop tgc": (
        [["export", "shop", "tgc", "sample", "--out", "out"]],
        ["export", "shop", "tgc", "sample", "--out", "out"],
    ),
    "export shop dtc": (
        [["export", "shop", "dtc", "sample", "--out", "out"]],
        ["export", "shop", "dtc", "sample", "--out", "out"],
    ),
    "export shop pdfx": (
        [["export", "shop", "pdfx", "sample", "--out", "out"]],
        ["export", "shop", "pdfx", "sample", "--out", "out"],
    ),
    "export shop factory": (
        [["export", "shop", "factory", "sample", "--out", "out"]],
        ["export", "shop", "factory", "sample", "--out", "out"],
    ),
}


class Full:
    """A file opened for writing on a full disk: every write fails."""

    def __init__(self, real, name):
        self._real, self._name = real, name

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self._name)

    def __getattr__(self, attr):
        return getattr(self._real, attr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._real.close()

    def __iter__(self):
        return iter(self._real)


class Disk:
    """Fills after `n` files: at `layer` "open" (the n-th file opened for writing under `root`) or "flush" (the
    n-th file flushed before it moves into place). `n` None only counts."""

    def __init__(self, root, layer, n, counter):
        self.root, self.layer, self.n, self.counter = str(root), layer, n, counter
        self.real_open, self.real_fsync = builtins.open, staging._fsync

    def tick(self) -> bool:
        """This file's number among all the command writes, in whichever process writes it: each takes a ticket,
        a file made only if it is not there (a count read and written back lost a worker's file when two wrote at
        once, and the N-th file of a run was then never reached)."""
        count = 1
        while True:
            try:
                os.close(os.open(f"{self.counter}.{count}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                break
            except FileExistsError:
                count += 1
        return self.n is not None and count == self.n

    def open(self, file, mode="r", *args, **kwargs):
        fh = self.real_open(file, mode, *args, **kwargs)
        inside = isinstance(file, (str, os.PathLike)) and os.path.abspath(file).startswith(self.root)
        if inside and self.layer == "open" and any(m in mode for m in "wax+") and self.tick():
            return Full(fh, os.fspath(file))
        return fh

    def fsync(self, path):
        if self.layer == "flush" and self.tick():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.real_fsync(path)


def project_for(tmp_path, name, good_out):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    shutil.copytree(good_out, root / "out")  # its good build: the session's (conftest.basic_out)
    shutil.copytree(root / "out", root / "old")
    before, command = WRITERS[name]
    for earlier in before:
        result = run_cli(*earlier, cwd=root)
        assert result.exit_code == 0, result.output
    path, old, new = EDIT
    (root / path).write_text((root / path).read_text().replace(old, new))
    if name == "export sheet":  # it builds the game first, a commit of its own: that build done here
        assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    return root, command


def run_with(monkeypatch, root, command, layer, n, counter):
    disk = Disk(root, layer, n, counter)
    with monkeypatch.context() as patch:
        patch.setattr(builtins, "open", disk.open)
        patch.setattr(io, "open", disk.open)
        patch.setattr(staging, "_fsync", disk.fsync)
        return run_cli(*command, cwd=root)


def full_disk(tmp_path, monkeypatch, name, layer, which, good_out):
    root, command = project_for(tmp_path, name, good_out)
    spare = tmp_path / "spare"
    shutil.copytree(root, spare, symlinks=True)
    counted = tmp_path / "counted"
    ok = run_with(monkeypatch, spare, command, layer, None, counted)  # how many files: on a copy
    assert ok.exit_code == 0, ok.output
    total = len(list(tmp_path.glob("counted.*")))
    assert total >= 1, f"{name} wrote nothing at the {layer} layer"
    n = {"first": 1, "middle": max(1, total // 2), "last": total}[which]
    before = tree(root)
    result = run_with(monkeypatch, root, command, layer, n, tmp_path / "count")
    assert result.exit_code == 1, f"file {n} of {total}:\n{result.output}"
    assert "No space left on device" in result.output, result.output
    assert ": error: could not write" in result.output, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    after = tree(root)
    assert sorted(after) == sorted(before), sorted(
        set(after) ^ set(before)
    )  # nothing half-made, nothing left
    assert after == before, [k for k in after if after[k] != before[k]]  # the old output, byte for byte


@pytest.mark.parametrize("layer", ["open", "flush"])
def test_new_on_a_full_disk_leaves_no_half_game(tmp_path, monkeypatch, basic_out, layer):
    full_disk(tmp_path, monkeypatch, "new", layer, "middle", basic_out)
    root = tmp_path / "p"
    again = run_cli("new", "fresh", cwd=root)  # the name is free: nothing half-made refuses it
    assert again.exit_code == 0, again.output
    assert (root / "content" / "fresh" / "game.yaml").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("which", ["first", "middle", "last"])
@pytest.mark.parametrize("layer", ["open", "flush"])
@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_command_on_a_full_disk_keeps_the_old_output(
    tmp_path, monkeypatch, basic_out, name, layer, which
):
    full_disk(tmp_path, monkeypatch, name, layer, which, basic_out)
