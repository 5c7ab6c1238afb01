"""The one way out: staged writing, an untrusted manifest, and sweeping what killed builds left."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnpgen.errors import ContentError
from pnpgen.pipeline import manifest, staging
from pnpgen.pipeline.staging import Stage, refuse_link, swap_folder, sweep


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_stage_moves_everything_into_place_together(tmp_path):
    final = tmp_path / "out" / "g"
    final.mkdir(parents=True)
    (final / "old.pdf").write_bytes(b"old")
    (final / "keep.pdf").write_bytes(b"keep")
    with Stage(final) as stage:
        stage.path("a.pdf").write_bytes(b"A")
        stage.path("manifest.json").write_text("{}")
        stage.commit(["a.pdf", "manifest.json"], remove=["old.pdf"])
    assert snapshot(final) == {"a.pdf": b"A", "keep.pdf": b"keep", "manifest.json": b"{}"}
    assert [p.name for p in final.parent.iterdir()] == ["g"]  # no staging folder left behind


def test_a_failure_while_staging_changes_nothing(tmp_path):
    final = tmp_path / "out" / "g"
    final.mkdir(parents=True)
    (final / "a.pdf").write_bytes(b"old")
    before = snapshot(final)
    with (
        pytest.raises(ContentError, match="g/a.pdf: error: could not write it: disk full"),
        Stage(final) as stage,
    ):
        stage.path("a.pdf").write_bytes(b"new")
        raise OSError(28, "disk full", str(stage.path("a.pdf")))  # named where it was going, not where staged
    assert snapshot(final) == before
    assert [p.name for p in final.parent.iterdir()] == ["g"]


def test_removal_spares_what_pnpgen_could_not_have_written(tmp_path):
    final = tmp_path / "g"
    final.mkdir()
    (tmp_path / "precious.pdf").write_bytes(b"mine")
    (final / "link.pdf").symlink_to(tmp_path / "precious.pdf")
    (final / "notes.txt").write_text("designer's")
    with Stage(final) as stage:
        stage.path("manifest.json").write_text("{}")
        stage.commit(["manifest.json"], remove=["link.pdf", "notes.txt", "../precious.pdf"])
    assert (tmp_path / "precious.pdf").read_bytes() == b"mine"
    assert (final / "link.pdf").is_symlink() and (final / "notes.txt").exists()


def test_an_output_folder_that_is_a_link_is_refused(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "g").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ContentError) as exc:
        refuse_link(tmp_path / "out" / "g")
    assert "the output folder is a link; refusing to write through it" in str(exc.value)
    with pytest.raises(ContentError):
        Stage(tmp_path / "out" / "g")


def test_swap_folder_replaces_a_folder_whole(tmp_path):
    final = tmp_path / "png"
    final.mkdir()
    (final / "old-001.png").write_bytes(b"old")
    staged = tmp_path / ".png.staging-1-x"
    staged.mkdir()
    (staged / "new-001.png").write_bytes(b"new")
    swap_folder(staged, final)
    assert snapshot(final) == {"new-001.png": b"new"} and not staged.exists()


def age(path, seconds):
    """Make `path` look untouched for `seconds` (its lease ran out that long ago)."""
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def test_sweep_removes_only_what_builds_gone_for_a_lease_left(tmp_path):
    gone = [tmp_path / ".g.staging-4242-abc", tmp_path / ".a.pdf.4242.x.tmp"]
    gone[0].mkdir()
    (gone[0] / "a.pdf").write_bytes(b"x")
    gone[1].write_bytes(b"x")
    (tmp_path / ".g.staging-4343-live").mkdir()  # another build, still writing (its lease is fresh)
    (tmp_path / ".b.pdf.4343.x.tmp").write_bytes(b"x")
    kept = [tmp_path / "g.staging-123-notours", tmp_path / ".g.staging-abc-notours", tmp_path / "notes.tmp"]
    kept[0].mkdir()
    kept[1].mkdir()
    kept[2].write_text("designer's")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / ".g.staging-4444-link").symlink_to(tmp_path / "elsewhere")  # never followed, never removed
    for path in [*gone, *kept, tmp_path / ".g.staging-4444-link"]:
        age(path, staging.LEASE + 5)
    sweep(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".g.staging-4343-live", ".b.pdf.4343.x.tmp", ".g.staging-4444-link", "elsewhere"]
        + [p.name for p in kept]
    )
    sweep(tmp_path, now=time.time() + staging.LEASE + 5)  # a lease later, the other build is gone too
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".g.staging-4444-link", "elsewhere"] + [p.name for p in kept]
    )


def test_a_stage_of_this_process_is_never_swept_however_old(tmp_path):
    final = tmp_path / "g"
    with Stage(final) as stage:
        age(stage.dir, staging.LEASE * 10)
        sweep(tmp_path)
        assert stage.dir.is_dir()


LIVE_BUILD = """
import sys, time
from pathlib import Path
from pnpgen.pipeline import staging
staging.BEAT = 0.05
with staging.Stage(Path(sys.argv[1])) as stage:
    stage.path("a.pdf").write_bytes(b"half")
    print(stage.dir, flush=True)
    time.sleep(60)
"""


def _live_build(final):
    env = {**os.environ, "PYTHONPATH": str(Path(staging.__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-c", LIVE_BUILD, str(final)], stdout=subprocess.PIPE, text=True, env=env
    )
    return proc, Path(proc.stdout.readline().strip())


def test_a_build_that_writes_for_minutes_keeps_its_lease_and_a_killed_one_loses_it(tmp_path):
    """Two builds racing into one output folder: the live one's heartbeat keeps its staging folder from the
    other's sweep, however long it writes; once killed, its folder is swept when the lease runs out."""
    final = tmp_path / "out" / "g"
    proc, folder = _live_build(final)
    try:
        age(folder, staging.LEASE * 10)  # as if it had written for over an hour with no new file
        deadline = time.time() + 10
        while time.time() - folder.stat().st_mtime > 60 and time.time() < deadline:
            time.sleep(0.05)
        sweep(folder.parent)
        assert (folder / "a.pdf").read_bytes() == b"half"  # the heartbeat renewed the lease
    finally:
        proc.kill()  # TerminateProcess on Windows: no chance to clean up
        proc.wait()
    sweep(folder.parent)
    assert folder.is_dir()  # killed just now: not yet provably gone
    age(folder, staging.LEASE + 1)
    sweep(folder.parent)
    assert not folder.exists()


def test_sweep_never_calls_anything_about_processes(tmp_path, monkeypatch):
    def refused(*args):
        raise AssertionError("os.kill called: on Windows it sends CTRL_C_EVENT or terminates")

    monkeypatch.setattr(os, "kill", refused)
    (tmp_path / ".g.staging-1-x").mkdir()
    age(tmp_path / ".g.staging-1-x", staging.LEASE + 1)
    sweep(tmp_path)
    assert not (tmp_path / ".g.staging-1-x").exists()
    assert "/proc" not in Path(staging.__file__).read_text()


def held_open(target):
    """`os.replace`/`os.rename` as Windows answers for `target` while a viewer holds it (winerror 32)."""
    real_replace, real_rename = os.replace, os.rename

    def check(dst):
        if os.path.abspath(dst) == os.path.abspath(target):
            exc = PermissionError(
                13, "The process cannot access the file: it is used by another process", dst
            )
            exc.winerror = 32
            raise exc

    def replace(src, dst, **kw):
        check(src)
        check(dst)
        return real_replace(src, dst, **kw)

    def rename(src, dst, **kw):
        check(src)
        check(dst)
        return real_rename(src, dst, **kw)

    return replace, rename


def _old_output(final):
    final.mkdir(parents=True)
    for name, data in (("a.pdf", b"old a"), ("b.pdf", b"old b"), ("gone.pdf", b"old gone")):
        (final / name).write_bytes(data)
    files = [{"path": n, "sha256": "0" * 64} for n in ("a.pdf", "b.pdf", "gone.pdf")]
    (final / "manifest.json").write_text(json.dumps({"files": files}))


@pytest.mark.parametrize("held", ["a.pdf", "b.pdf", "manifest.json", "gone.pdf"])
@pytest.mark.parametrize("links", [True, False])
def test_a_commit_that_cannot_replace_one_file_puts_every_file_back(tmp_path, monkeypatch, held, links):
    final = tmp_path / "out" / "g"
    _old_output(final)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in final.iterdir()}
    replace, rename = held_open(final / held)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "rename", rename)
    if not links:  # FAT, exFAT: old files are kept aside as copies
        monkeypatch.setattr(os, "link", lambda *a, **k: (_ for _ in ()).throw(OSError(1, "not supported")))
    with pytest.raises(ContentError) as exc, Stage(final) as stage:
        for name in ("a.pdf", "b.pdf", "new.pdf"):
            stage.path(name).write_bytes(b"new " + name.encode())
        stage.path("manifest.json").write_text("{}")
        stage.commit(["a.pdf", "b.pdf", "new.pdf", "manifest.json"], remove=["gone.pdf"])
    assert str(exc.value).startswith(
        f"{final / held}: error: cannot replace it: another program holds it open, or it may not be changed;"
        " close it in the viewer (or whatever holds it) and run pnpgen again"
    )
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in final.iterdir()} == before
    assert sorted(p.name for p in final.parent.iterdir()) == ["g"]  # nothing staged left behind


def test_a_commit_keeps_nothing_aside_once_done(tmp_path):
    final = tmp_path / "out" / "g"
    _old_output(final)
    with Stage(final) as stage:
        stage.path("a.pdf").write_bytes(b"new a")
        stage.path("manifest.json").write_text("{}")
        stage.commit(["a.pdf", "manifest.json"], remove=["gone.pdf"])
    assert snapshot(final) == {"a.pdf": b"new a", "b.pdf": b"old b", "manifest.json": b"{}"}
    assert sorted(p.name for p in final.parent.iterdir()) == ["g"]


@pytest.mark.parametrize("fails", ["final", "staged"])
def test_swap_folder_that_cannot_rename_leaves_the_old_folder(tmp_path, monkeypatch, fails):
    final = tmp_path / "png"
    final.mkdir()
    (final / "old-001.png").write_bytes(b"old")
    staged = tmp_path / ".png.staging-1-x"
    staged.mkdir()
    (staged / "new-001.png").write_bytes(b"new")
    replace, rename = held_open(final if fails == "final" else staged)
    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(ContentError) as exc:
        swap_folder(staged, final)
    assert str(exc.value).startswith(f"{final}: error: cannot replace it: another program holds it open")
    assert snapshot(final) == {"old-001.png": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".png.staging-1-x", "png"]  # the caller discards


GOOD = {
    "game": "g",
    "paper": "a4",
    "engine": "x",
    "model": {"content/g/game.yaml": "d"},
    "files": [
        {
            "path": "a.pdf",
            "component": "a",
            "kind": "cards",
            "faces": 1,
            "pages": 2,
            "sha256": "0" * 64,
            "inputs": {},
        }
    ],
}


@pytest.mark.parametrize(
    "change",
    [
        {"files": "nope"},
        {"files": [{**GOOD["files"][0], "path": "../../etc/passwd"}]},
        {"files": [{**GOOD["files"][0], "path": "sub/a.pdf"}]},
        {"files": [{**GOOD["files"][0], "path": ".hidden.pdf"}]},
        {"files": [{**GOOD["files"][0], "path": "manifest.json"}]},
        {"files": [{**GOOD["files"][0], "sha256": "zz"}]},
        {"files": [{**GOOD["files"][0], "pages": -1}]},
        {"files": [{**GOOD["files"][0], "inputs": {"../../x": "d"}}]},
        {"files": [{**GOOD["files"][0], "inputs": {"/etc/shadow": "d"}}]},
        {"model": ["not", "a", "mapping"]},
        {"engine": 5},
    ],
)
def test_a_manifest_of_the_wrong_shape_counts_as_absent(tmp_path, change):
    (tmp_path / "manifest.json").write_text(json.dumps({**GOOD, **change}))
    assert manifest.read(tmp_path) is None


def test_a_good_manifest_reads(tmp_path):
    manifest.write(tmp_path / "manifest.json", GOOD)
    assert manifest.read(tmp_path)["files"][0]["path"] == "a.pdf"
    (tmp_path / "manifest.json").unlink()
    (tmp_path / "manifest.json").symlink_to(tmp_path / "elsewhere.json")
    assert manifest.read(tmp_path) is None  # never read through a link


@pytest.mark.parametrize(
    "value",
    [
        {"game": "x", "files": [], "model": {}, "check": {"ok": True, "inputs": {"a/b.yaml": "0" * 64}}},
        {
            "cards": [
                {
                    "index": 1,
                    "name": 'Ca\u00efn \u201cthe\u201d \\ "first"\n\t\x01',
                    "count": 2,
                    "at": [0, 27.64],
                },
                {"index": 2, "name": "\U0001f600", "count": 1, "back": None, "ok": False, "at": []},
            ],
            "big": 10**30,
            "small": -0.0,
            "odd": [1e-7, 1.5e300, 0.1 + 0.2, float("inf"), float("-inf"), float("nan")],
            "tuple": (1, (2, "3"), ()),
        },
        [[], {}, "", 0, True, None, [[{"deep": [[]]}]]],
        {"not a str key": {1: "a", None: "b"}},  # json's own way (number keys become strings)
        "plain",
    ],
)
def test_the_manifest_text_is_json_dumps_with_an_indent_of_two(value):
    assert manifest.dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_a_written_manifest_is_json_dumps_with_an_indent_of_two(tmp_path):
    data = {"game": "g", "files": [{"path": "deck.pdf", "cards": [{"front_at": [0, 1.25]}]}], "w": "\u00e9"}
    manifest.write(tmp_path / "m.json", data)
    text = (tmp_path / "m.json").read_text(encoding="utf-8")
    assert manifest.unsealed(text) == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    assert json.loads(text) == {"seal": text.split('"')[3], **data}  # JSON still, the seal its first key
    assert '"w": "\u00e9"' in text  # not escaped


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace('"a.pdf"', '"b.pdf"'),  # a value
        lambda t: t.replace('"pages": 2', '"pages": 3'),  # a number
        lambda t: t.replace('"seal": "', '"seal": "0', 1)[:-1],  # the seal itself
        lambda t: "{" + t[t.index(",") + 1 :],  # the seal taken out
        lambda t: json.dumps(json.loads(t)),  # written again by json: the same data, another text
    ],
)
def test_a_manifest_changed_by_anything_but_pnpgen_reads_as_none(tmp_path, edit):
    """The seal: the sha256 of the rest of the text, first in it. A hand edit of a value (a digest, a page
    count a later build would carry forward) makes the manifest absent, as a damaged one is."""
    manifest.write(tmp_path / "manifest.json", GOOD)
    text = (tmp_path / "manifest.json").read_text(encoding="utf-8")
    assert manifest.read(tmp_path) is not None
    (tmp_path / "manifest.json").write_text(edit(text), encoding="utf-8")
    assert manifest.read(tmp_path) is None


def test_the_manifest_text_does_not_take_json_s_slow_encoder(monkeypatch):
    value = {"files": [{"cards": [{"name": "A", "at": [0, 2.5], "back": None}]}], "ok": True}
    expected = json.dumps(value, indent=2, ensure_ascii=False)

    def slow(*args, **kwargs):
        raise AssertionError("json.dumps called")

    monkeypatch.setattr(manifest.json, "dumps", slow)
    assert manifest.dumps(value) == expected


@pytest.mark.parametrize("depth", [3, 1, 0, 5])
def test_records_made_ahead_are_the_text_json_writes(depth):
    """A deck's card records are made into text while the writers work (`manifest.ahead`, made for a value of a
    file's entry): in an entry the text is what json writes; anywhere else it is made again, the same."""
    records = [
        {"index": 1, "name": "A \u201cb\u201d", "front_at": [0, 1.25], "back": None},
        {"index": 2, "at": []},
    ]
    made = manifest.ahead(records, depth)
    data = {
        "game": "g",
        "files": [{"path": "deck.pdf", "cards": made}],
        "elsewhere": {"x": made},
        "top": made,
    }
    plain = {
        "game": "g",
        "files": [{"path": "deck.pdf", "cards": records}],
        "elsewhere": {"x": records},
        "top": records,
    }
    assert manifest.dumps(data) == json.dumps(plain, indent=2, ensure_ascii=False)
    assert manifest.dumps(made) == json.dumps(records, indent=2, ensure_ascii=False)


def _lease_beats_here(folder: str, answers) -> None:
    import threading

    from pnpgen.pipeline import staging

    staging._hold(Path(folder))
    answers.send([t.name for t in threading.enumerate() if t.is_alive()])
    staging._release(Path(folder))


def test_a_forked_worker_keeps_its_own_staging_folders_lease(tmp_path):
    """A game built in a forked worker (several games) stages its own folder; its lease is kept by a heartbeat in
    that process, even when the parent had started one before it forked (watch, serve): threads are not forked."""
    import multiprocessing

    from pnpgen.pipeline import staging

    staging._hold(tmp_path / "parent")
    ctx = multiprocessing.get_context("fork")
    reader, writer = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_lease_beats_here, args=(str(tmp_path / "child"), writer))
    child.start()
    names = reader.recv()
    child.join()
    staging._release(tmp_path / "parent")
    assert "pnpgen-staging-lease" in names
