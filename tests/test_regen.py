"""Regeneration: an unchanged component is not re-rendered; an edit re-renders exactly its component."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import fast_once, run_cli


def stamps(folder: Path) -> dict:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(folder.glob("*.pdf"))}


def build(root, *extra):
    result = run_cli(
        "build", "--out", "out", "--no-print-all", *extra, cwd=root
    )  # print-all: test_printall.py
    assert result.exit_code in (0, 1), result.output
    return result


def manifest_true(out: Path) -> None:
    manifest = json.loads((out / "manifest.json").read_text())
    for f in manifest["files"]:
        assert hashlib.sha256((out / f["path"]).read_bytes()).hexdigest() == f["sha256"]


def test_nothing_changed_nothing_rendered(project):
    root = project("basic")
    build(root)
    before = stamps(root / "out" / "sample")
    result = build(root)
    assert result.output.strip() == "up to date sample"
    assert stamps(root / "out" / "sample") == before


def test_a_card_edit_re_renders_exactly_its_deck(project):
    root = project("basic")
    build(root)
    before = stamps(root / "out" / "sample")
    deck = root / "content" / "sample" / "decks" / "minis.yaml"
    deck.write_text(deck.read_text().replace("Tiny.", "Small but fierce."))
    result = build(root)
    assert "built sample: 2 files (1 rendered, 1 up to date)" in result.output
    after = stamps(root / "out" / "sample")
    assert after["heroes.pdf"] == before["heroes.pdf"]
    assert after["minis.pdf"] != before["minis.pdf"]
    manifest_true(root / "out" / "sample")


def test_a_layout_edit_re_renders_the_decks_that_use_it(project):
    root = project("basic")
    build(root)
    before = stamps(root / "out" / "sample")
    back = root / "layouts" / "sample-back.yaml"  # only the heroes deck has this back
    back.write_text(back.read_text().replace("#2b2140", "#402b21"))
    build(root)
    after = stamps(root / "out" / "sample")
    assert after["heroes.pdf"] != before["heroes.pdf"] and after["minis.pdf"] == before["minis.pdf"]


def test_a_new_layout_shadowing_a_shared_one_is_noticed(project):
    root = project("basic")
    build(root)
    shared = root / "layouts" / "sample-back.yaml"
    (root / "content" / "sample" / "layouts" / "sample-back.yaml").write_text(
        shared.read_text().replace("#2b2140", "#123456")
    )
    result = build(root)
    assert "heroes" not in result.output or "rendered" in result.output
    assert "up to date sample" not in result.output


def test_paper_change_and_deleted_outputs_are_rebuilt(project):
    root = project("basic")
    build(root)
    (root / "out" / "sample" / "minis.pdf").unlink()
    assert "(1 rendered, 1 up to date)" in build(root).output
    assert (root / "out" / "sample" / "minis.pdf").is_file()
    assert "(2 rendered)" in build(root, "--paper", "letter").output
    manifest_true(root / "out" / "sample")


def test_strict_reports_warnings_of_an_otherwise_fresh_build(project):
    root = project("basic")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text() + "  - type: text\n    x: 0\n    y: 0\n    w: 30\n    h: 5\n    text: edge\n"
    )
    assert build(root).exit_code == 0
    strict = build(root, "--strict")
    assert strict.exit_code == 1 and "[--strict]" in strict.output


def test_parallel_and_serial_writes_give_the_same_bytes(project, tmp_path):
    root = project("basic")
    assert run_cli("build", "--out", tmp_path / "a", "--jobs", "1", cwd=root).exit_code == 0
    assert run_cli("build", "--out", tmp_path / "b", "--jobs", "2", cwd=root).exit_code == 0
    for f in sorted((tmp_path / "a" / "sample").iterdir()):
        assert (tmp_path / "b" / "sample" / f.name).read_bytes() == f.read_bytes()


def built_in_game(root: Path, gid: str = "g") -> Path:
    """A game of cards drawn by pnpgen's built-in layouts alone: no layouts/ folder in it or beside it."""
    game = root / "content" / gid
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(f"id: {gid}\ntitle: Built in\nplayers: 2\ncomponents: [d.yaml]\n")
    (game / "d.yaml").write_text(
        "id: d\nkind: cards\nsize: poker\nfront: basic-card\nback: basic-back\n"
        "cards:\n  - {name: Alpha, type: spell, text: Draw twice.}\n  - {name: Beta}\n"
    )
    return game


def test_the_built_in_layouts_are_recorded_and_a_layout_shadowing_one_is_noticed(tmp_path):
    from pnpgen.commands.build import answer_unchanged
    from pnpgen.inputs import MISSING
    from pnpgen.project import BUILTIN_LAYOUTS

    def build_all():  # print-all too, as `answer_unchanged` (the `pnpgen build` fast path) expects
        result = run_cli("build", "--out", "out", cwd=tmp_path)
        assert result.exit_code == 0, result.output
        return result.output

    game = built_in_game(tmp_path)
    assert not BUILTIN_LAYOUTS.is_relative_to(tmp_path)  # pnpgen lies outside the project, as when installed
    build_all()
    out = tmp_path / "out" / "g"
    files = json.loads((out / "manifest.json").read_text())["files"]
    (entry,) = [f for f in files if f["path"] == "d.pdf"]
    card = (BUILTIN_LAYOUTS / "basic-card.yaml").read_bytes()
    # keyed inside pnpgen's own folder, never by an absolute path (which the manifest refuses): checked again
    assert entry["inputs"]["pnpgen:layouts/basic-card.yaml"] == hashlib.sha256(card).hexdigest()
    assert entry["inputs"]["content/g/layouts/basic-card.yaml"] == MISSING  # looked up first, in order
    assert entry["inputs"]["layouts/basic-card.yaml"] == MISSING
    assert not any(key.startswith("/") for key in entry["inputs"])
    before = stamps(out)
    assert build_all().strip() == "up to date g"
    assert answer_unchanged(["build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out")])
    assert stamps(out) == before

    shared = tmp_path / "layouts"  # beside the content folder: shadows the built-in layout
    shared.mkdir()
    (shared / "basic-card.yaml").write_text(card.decode().replace("#3c5a8a", "#8a3c5a"))
    assert "built g: 2 files (2 rendered)" in build_all()
    assert stamps(out) != before
    assert build_all().strip() == "up to date g"

    before = stamps(out)  # the game's own shadows both
    (game / "layouts").mkdir()
    (game / "layouts" / "basic-card.yaml").write_text(card.decode().replace("#3c5a8a", "#5a8a3c"))
    assert "built g: 2 files (2 rendered)" in build_all()
    assert stamps(out) != before


@pytest.mark.parametrize("flags", fast_once([[], ["--strict"]]))
def test_a_rebuild_judges_each_game_once(tmp_path, monkeypatch, capsys, flags):
    """`pnpgen build` first tries to answer from the manifests alone (`answer_unchanged`); when a game is stale,
    the build that follows takes what that found of every game instead of judging each again (8 ms of a one-card
    edit of the five games). With another option (`--strict`) nothing was judged before, and the build judges."""
    import sys

    import pnpgen.__main__ as entry
    from pnpgen.pipeline import freshness

    for gid in ("g", "h"):
        built_in_game(tmp_path, gid)
    args = ["build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "out"), *flags]
    assert run_cli(*args).exit_code == 0
    deck = tmp_path / "content" / "h" / "d.yaml"
    deck.write_text(deck.read_text().replace("Beta", "Gamma"))
    judged: list[str] = []
    real = freshness.game_up_to_date

    def counted(project, root, *a, **k):
        judged.append(root.name)
        return real(project, root, *a, **k)

    monkeypatch.setattr(freshness, "game_up_to_date", counted)
    monkeypatch.setattr(sys, "argv", ["pnpgen", *args])
    with pytest.raises(SystemExit) as done:
        entry.main()
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    assert "up to date g" in out and "built h:" in out, out
    assert sorted(judged) == ["g", "h"], judged  # each once, by whichever judged first
