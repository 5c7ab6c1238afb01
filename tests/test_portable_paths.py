"""Paths as designers type them (issue 26): spaces and non-ASCII letters in `--content` and `--out`, paths over
Windows' old 260-character limit, and paths typed as on Windows ('\\' between folders, a drive letter), which on
Linux and macOS would name something else. Messages show paths as they were given."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

from pnpgen.errors import display_path
from pnpgen.names import typed_for_windows

BROKEN = ('fill: "#fbf6ea"', "fill: rouge")


def spiel(tmp_path: Path, content: str) -> Path:
    """The basic fixture's game in `tmp_path/<content>/sample`, with the shared layouts beside that folder."""
    folder = tmp_path / content
    folder.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FIXTURES / "basic" / "content", folder)
    shutil.copytree(FIXTURES / "basic" / "layouts", folder.parent / "layouts")
    return folder


def break_layout(content: Path) -> None:
    layout = content / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(*BROKEN), encoding="utf-8")


def test_spaces_and_non_ascii_in_content_and_out(tmp_path):
    content = spiel(tmp_path, "my games/Spiel Ü")
    result = run_cli("build", "--content", "my games/Spiel Ü", "--out", "out dir with spaces", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "-> out dir with spaces/sample" in result.output
    out = tmp_path / "out dir with spaces" / "sample"
    assert {"heroes.pdf", "minis.pdf", "manifest.json"} <= {p.name for p in out.iterdir()}
    again = run_cli("build", "--content", "my games/Spiel Ü", "--out", "out dir with spaces", cwd=tmp_path)
    assert again.exit_code == 0 and "up to date sample" in again.output
    listed = run_cli("list", "--content", "my games/Spiel Ü", cwd=tmp_path)
    assert listed.exit_code == 0 and "heroes" in listed.output
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    break_layout(content)
    broken = run_cli("build", "--content", "my games/Spiel Ü", "--out", "out dir with spaces", cwd=tmp_path)
    assert broken.exit_code == 1
    assert (
        "my games/Spiel Ü/sample/layouts/hero.yaml:13:11: error: 'fill' is not a colour: 'rouge'"
        in broken.output
    )
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_path_over_260_characters(tmp_path):
    deep = Path(*[f"folder-{n}-" + "x" * 50 for n in range(5)])
    content = spiel(tmp_path, str(deep / "content"))
    out = tmp_path / deep / "output with a long name, deeper than Windows' old MAX_PATH"
    assert len(str(out / "sample" / "print-all.pdf")) > 260 and len(str(content)) > 260
    result = run_cli("build", "--content", content, "--out", out, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (out / "sample" / "print-all.pdf").is_file()
    break_layout(content)
    broken = run_cli("build", "--content", content, "--out", out, cwd=tmp_path)
    assert broken.exit_code == 1
    assert f"{deep}/content/sample/layouts/hero.yaml:13:11: error: 'fill' is not a colour" in broken.output


@pytest.mark.parametrize(
    "option, typed, why",
    [
        ("--content", "my games\\Spiel Ü", "write 'my games/Spiel Ü'"),
        ("--out", "out\\cards", "write 'out/cards'"),
        ("--content", "C:\\Users\\me\\games", "is a Windows path (a drive letter)"),
        ("--out", "D:/print", "is a Windows path (a drive letter)"),
    ],
)
def test_a_path_typed_as_on_windows_is_refused_with_the_path_to_write(tmp_path, option, typed, why):
    spiel(tmp_path, "my games/Spiel Ü")
    args = {"--content": "my games/Spiel Ü", "--out": "out", option: typed}
    result = run_cli("build", "--content", args["--content"], "--out", args["--out"], cwd=tmp_path)
    assert result.exit_code == 2, result.output
    what = "content folder" if option == "--content" else "output folder"
    assert f"{what} '{typed}' " in result.output and why in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my games"]  # nothing written, no 'out\cards' made


def test_a_folder_whose_name_holds_a_backslash_is_taken_as_it_is(tmp_path):
    spiel(tmp_path, "odd\\name/content")
    result = run_cli("build", "--content", "odd\\name/content", "--out", "out", cwd=tmp_path)
    assert result.exit_code == 0, result.output


def test_windows_reads_a_windows_path_as_typed():
    assert typed_for_windows(Path("C:\\games"), windows=True) is None
    assert typed_for_windows(Path("content"), windows=False) is None


def test_display_path_with_spaces_and_letters_of_any_script(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    inside = tmp_path / "my games" / "Spiel Ü" / "火の神.yaml"
    assert display_path(inside) == os.path.join("my games", "Spiel Ü", "火の神.yaml")
    assert display_path("my games/Spiel Ü") == os.path.join("my games", "Spiel Ü")
    outside = tmp_path.parent / "élsewhere dir" / "x.yaml"
    assert display_path(outside) == str(outside)


def test_an_output_folder_inside_a_folder_whose_name_holds_a_backslash(tmp_path, monkeypatch):
    """The folder named with a '\\' exists (a Linux user's own): a new output folder inside it is used as typed,
    as the folder itself is; one whose '\\' folder does not exist is still refused."""
    (tmp_path / "odd\\name").mkdir()
    monkeypatch.chdir(tmp_path)
    assert typed_for_windows(Path("odd\\name/out"), windows=False) is None
    assert typed_for_windows(Path(tmp_path / "odd\\name" / "out" / "deeper"), windows=False) is None
    assert "write 'new/name/out'" in (typed_for_windows(Path("new\\name/out"), windows=False) or "")
    assert "a drive letter" in (typed_for_windows(Path("C:/games/out"), windows=False) or "")
