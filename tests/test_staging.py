"""The one way out: staged writing, an untrusted manifest, and sweeping what killed builds left."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pnpgen.errors import ContentError
from pnpgen.pipeline import manifest
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
    with pytest.raises(OSError), Stage(final) as stage:
        stage.path("a.pdf").write_bytes(b"new")
        raise OSError("disk full")
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


def test_sweep_removes_only_what_dead_builds_left(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    pid = int(dead.stdout)
    (tmp_path / f".g.staging-{pid}-abc").mkdir()
    (tmp_path / f".g.staging-{pid}-abc" / "a.pdf").write_bytes(b"x")
    (tmp_path / f".a.pdf.{pid}.x.tmp").write_bytes(b"x")
    (tmp_path / f".g.staging-{os.getpid()}-live").mkdir()  # a build still running
    (tmp_path / "g.staging-123-notours").mkdir()
    sweep(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f".g.staging-{os.getpid()}-live",
        "g.staging-123-notours",
    ]


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
    (tmp_path / "manifest.json").write_text(json.dumps(GOOD))
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
    assert text == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    assert '"w": "\u00e9"' in text  # not escaped


def test_the_manifest_text_does_not_take_json_s_slow_encoder(monkeypatch):
    value = {"files": [{"cards": [{"name": "A", "at": [0, 2.5], "back": None}]}], "ok": True}
    expected = json.dumps(value, indent=2, ensure_ascii=False)

    def slow(*args, **kwargs):
        raise AssertionError("json.dumps called")

    monkeypatch.setattr(manifest.json, "dumps", slow)
    assert manifest.dumps(value) == expected
