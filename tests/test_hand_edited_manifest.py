"""A manifest pnpgen did not write (hand-edited): never an internal error in the next build.

Its seal no longer holds, so the next build takes it as absent and writes what a build from scratch writes
(`test_a_hand_edit_breaks_the_seal_and_the_game_is_built_afresh`). The tests below seal each edit again, as a
manifest another version of pnpgen wrote would be: what reads it must still not trust it.
`manifest.valid` refuses an entry without what every entry has (its pages and faces: the summary adds them up);
the rows of a deck's or board's entry are read by those who read them (the face store, `changes`, serve's
preview), each skipping or distrusting what it cannot read. A helper's attack found both crashing a build.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, fast_once, run_cli

from pnpgen.pipeline import manifest


def _built_basic(tmp_path: Path) -> Path:
    root = tmp_path / "basic"
    shutil.copytree(FIXTURES / "basic", root)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    return root


def _edit_manifest(root: Path, change) -> None:
    path = root / "out" / "sample" / manifest.NAME
    data = json.loads(path.read_text())
    for entry in data["files"]:
        change(entry)
    data.pop("seal")
    manifest.write(path, data)  # sealed again


def _edit_one_deck(root: Path) -> None:
    """Change one deck's text: that deck is drawn again, the other deck's file is kept (its old entry reused)."""
    minis = root / "content" / "sample" / "decks" / "minis.yaml"
    minis.write_text(minis.read_text().replace('"Tiny."', '"Tiny!"'))


def _drop(key: str):
    def change(entry: dict) -> None:
        entry.pop(key, None)

    return change


def _cards(rows):
    def change(entry: dict) -> None:
        if entry["path"] == "heroes.pdf":
            entry["cards"] = rows

    return change


HAND_EDITS = {
    "no-pages": _drop("pages"),
    "no-faces": _drop("faces"),
    "cards-of-numbers": _cards([1, 2]),
    "cards-a-string": _cards("heroes"),
    "cards-of-nulls": _cards([None]),
}


@pytest.mark.parametrize("edit", fast_once(list(HAND_EDITS)))
def test_a_hand_edited_manifest_never_crashes_the_next_build(tmp_path, edit):
    """A manifest with values of a wrong shape: the next build (one deck edited, the other's file up to date)
    builds, and writes what a build from no manifest writes (an entry without pages or faces is no manifest; a
    deck's card records not mappings are faces not taken from the face store)."""
    root = _built_basic(tmp_path)
    _edit_manifest(root, HAND_EDITS[edit])
    _edit_one_deck(root)
    result = run_cli("build", "--out", "out", cwd=root)
    assert "internal error" not in result.output, result.output
    assert result.exit_code == 0, result.output
    written = json.loads((root / "out" / "sample" / manifest.NAME).read_text())
    assert all(isinstance(e.get("pages"), int) and isinstance(e.get("faces"), int) for e in written["files"])
    assert run_cli("build", "--out", "clean", cwd=root).exit_code == 0
    for name in sorted(p.name for p in (root / "clean" / "sample").iterdir()):
        assert (root / "out" / "sample" / name).read_bytes() == (
            root / "clean" / "sample" / name
        ).read_bytes(), name


@pytest.mark.parametrize("sides", fast_once([[1], "sides", [None]]))
def test_a_board_entry_of_wrong_sides_never_crashes_the_next_build(tmp_path, sides):
    """The same for a board's full-size entry: its `sides` not mappings (`facestore._as_recorded` reads them)."""
    root = tmp_path / "pieces"
    shutil.copytree(FIXTURES / "pieces", root)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    path = root / "out" / "pieces" / manifest.NAME
    data = json.loads(path.read_text())
    for entry in data["files"]:
        if "sides" in entry:
            entry["sides"] = sides
    data.pop("seal")
    manifest.write(path, data)  # sealed again
    assert manifest.read(path.parent) is not None  # its rows' readers skip what they cannot read
    hexes = root / "content" / "pieces" / "tiles" / "hex.yaml"
    hexes.write_text(hexes.read_text().replace("name: H2,", "name: H2 edited,"))
    result = run_cli("build", "--out", "out", cwd=root)
    assert "internal error" not in result.output, result.output
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("value", fast_once(["sha256", "pages", "cards"]))
def test_a_hand_edit_breaks_the_seal_and_the_game_is_built_afresh(tmp_path, value):
    """A kept entry's digest, page count or card records edited by hand were carried into every later manifest;
    now the edit breaks the seal: no file is taken as up to date, and the next manifest is a clean build's."""
    root = _built_basic(tmp_path)
    path = root / "out" / "sample" / manifest.NAME
    data = json.loads(path.read_text())
    (minis,) = [e for e in data["files"] if e["path"] == "minis.pdf"]
    minis.update(sha256="f" * 64) if value == "sha256" else minis.update(pages=minis["pages"] + 1)
    if value == "cards":
        minis["cards"][0]["name"] = "Sparkle"
    data.pop("seal")
    path.write_text(json.dumps(data, indent=2))  # by hand: no seal
    assert manifest.read(path.parent) is None
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0 and "(3 rendered)" in result.output, result.output
    assert run_cli("build", "--out", "clean", cwd=root).exit_code == 0
    written = (root / "out" / "sample" / manifest.NAME).read_text()
    assert written == (root / "clean" / "sample" / manifest.NAME).read_text()
    assert "Sparkle" not in written and "f" * 64 not in written
