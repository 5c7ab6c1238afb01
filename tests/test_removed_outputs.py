"""A build that no longer writes a file of the last build removes it (it would print stale) and says so, in
`build` and in `watch`."""

from __future__ import annotations

import threading

import pytest
from conftest import fast_once, run_cli

# (first build's flags, second build's flags, the files the second removes)
CHANGES = [
    pytest.param([], ["--no-print-all"], ["print-all.pdf"], id="print-all-left-out"),
    pytest.param(["--fold"], [], ["heroes-fold.pdf"], id="fold-form-no-longer-asked"),
    pytest.param([], ["--duplex", "short"], ["heroes.pdf", "minis.pdf", "print-all.pdf"], id="other-duplex"),
    pytest.param([], ["--ink", "low"], ["heroes.pdf", "minis.pdf", "print-all.pdf"], id="low-ink-only"),
]


@pytest.mark.parametrize("first, second, removed", fast_once(CHANGES))
def test_build_names_each_file_it_removes(project, tmp_path, first, second, removed):
    root = project("basic")
    out = tmp_path / "out"
    assert run_cli("build", "--out", out, *first, cwd=root).exit_code == 0
    assert all((out / "sample" / name).is_file() for name in removed)
    result = run_cli("build", "--out", out, *second, cwd=root)
    assert result.exit_code == 0, result.output
    assert f"  removed (no longer built): {', '.join(removed)}" in result.output
    assert not any((out / "sample" / name).exists() for name in removed)
    again = run_cli("build", "--out", out, *second, cwd=root)
    assert "removed" not in again.output  # said once, when it happens


def test_a_build_that_removes_nothing_says_nothing(project, tmp_path):
    root = project("basic")
    run_cli("build", "--out", tmp_path, cwd=root)
    (root / "content" / "sample" / "decks" / "minis.yaml").write_text(
        (root / "content" / "sample" / "decks" / "minis.yaml").read_text().replace("count: 2", "count: 3", 1)
    )
    result = run_cli("build", "--out", tmp_path, "--no-check", cwd=root)
    assert result.exit_code == 0 and "removed" not in result.output


def test_watch_says_it_removed_the_print_all_file(project, tmp_path):
    """`watch` leaves print-all out: starting it over a build removes that build's print-all.pdf, which its
    next save would make stale. It used to say only "nothing changed"."""
    from pnpgen.cli import _project, _report
    from pnpgen.cli.iterate import EDITING
    from pnpgen.commands.watch import run as watch

    root = project("basic")
    out = tmp_path / "out"
    assert run_cli("build", "--out", out, cwd=root).exit_code == 0
    assert (out / "sample" / "print-all.pdf").is_file()
    lines: list[str] = []
    stop = threading.Event()
    stop.set()  # build once, then stop listening
    proj = _project(root / "content", out, None, EDITING, ())  # as `watch` without --paper
    watch(proj, None, lambda text, err: lines.append(text), _report, stop_event=stop)
    assert not (out / "sample" / "print-all.pdf").exists()
    assert lines[0].startswith("sample is up to date: nothing to rebuild (checked in ")
    assert (
        lines[1]
        == "  removed (no longer built): print-all.pdf; watch and serve leave print-all out: pnpgen build writes it"
    )


@pytest.mark.parametrize("kind", fast_once(["before-the-seal", "bom", "trailing-spaces", "hand-edited"]))
def test_the_last_builds_files_go_when_its_manifest_seal_does_not_hold(project, tmp_path, kind):
    """A manifest whose seal does not hold (a build from before the seal, an editor's re-encoding, a hand edit)
    is not trusted for what may be reused, but the files it names are still the last build's: one no longer
    built would print stale, so it is removed and named as any other."""
    import json

    root = project("basic")
    out = tmp_path / "out"
    assert run_cli("build", "--out", out, cwd=root).exit_code == 0
    path = out / "sample" / "manifest.json"
    text = path.read_text(encoding="utf-8")
    text = {
        "before-the-seal": lambda: json.dumps({k: v for k, v in json.loads(text).items() if k != "seal"}),
        "bom": lambda: "\ufeff" + text,
        "trailing-spaces": lambda: text.replace("\n", "  \n"),
        "hand-edited": lambda: text.replace('"pages": ', '"pages": 1', 1),
    }[kind]()
    path.write_bytes(text.encode("utf-8"))
    result = run_cli("build", "--out", out, "--no-print-all", cwd=root)
    assert result.exit_code == 0, result.output
    assert "  removed (no longer built): print-all.pdf" in result.output
    assert not (out / "sample" / "print-all.pdf").exists()


@pytest.mark.parametrize("kind", fast_once(["before-the-seal", "bom", "trailing-spaces"]))
@pytest.mark.parametrize("name", ["notes.pdf", "heroes-short.pdf"])
def test_an_unsealed_manifest_removes_only_what_pnpgen_wrote(project, tmp_path, kind, name):
    """A manifest whose seal does not hold may name files pnpgen never wrote (a hand edit, another tool's copy):
    a file whose bytes are not the ones it records is someone else's, and stays, whatever its name."""
    import json

    root = project("basic")
    out = tmp_path / "out"
    assert run_cli("build", "--out", out, cwd=root).exit_code == 0
    mine = out / "sample" / name
    mine.write_bytes(b"%PDF-1.4 my own notes\n")
    path = out / "sample" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("seal")
    data["files"].append({**data["files"][0], "path": name, "sha256": "0" * 64})
    text = json.dumps(data, indent=2)
    edited = {"before-the-seal": text, "bom": "\ufeff" + text, "trailing-spaces": text.replace("\n", "  \n")}
    text = edited[kind]
    path.write_bytes(text.encode("utf-8"))
    result = run_cli("build", "--out", out, cwd=root)
    assert result.exit_code == 0, result.output
    assert mine.read_bytes() == b"%PDF-1.4 my own notes\n"
    assert name not in result.output
