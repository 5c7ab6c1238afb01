"""A file another program holds open (a PDF in a Windows viewer, which no one may replace or rename): every
command that replaces an output says which file to close, exits 1, and leaves the output exactly as it was.

Windows is imitated where it answers: `os.replace` and `os.rename` raise PermissionError (winerror 32) for the one
path held open, in-process, as they would on Windows; everything else renames as usual."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import fast_once, run_cli
from test_staging import held_open

DECKS = ("heroes", "minis")


def tree(folder: Path) -> dict:
    """Every file and folder under `folder`, hidden ones too, with the bytes and the time of each file."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        out[rel] = (path.read_bytes(), path.stat().st_mtime_ns) if path.is_file() else "folder"
    return out


def edit(root: Path) -> None:
    """Change both decks, so every file a command writes next differs from the one there."""
    for deck in DECKS:
        path = root / "content" / "sample" / "decks" / f"{deck}.yaml"
        path.write_text(path.read_text().replace("name: ", "name: New ", 1))


def hold(monkeypatch, target: Path) -> None:
    replace, rename = held_open(target)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "rename", rename)


def refused(result, shown: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert (
        f"{shown}: error: cannot replace it: another program holds it open, or it may not be changed; close it in"
        " the viewer (or whatever holds it) and run pnpgen again" in result.output
    ), result.output


@pytest.mark.parametrize("held", fast_once(["heroes.pdf", "minis.pdf", "manifest.json"]))
def test_a_build_with_an_output_held_open_changes_nothing(project, monkeypatch, held):
    root = project("basic")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    edit(root)
    before = tree(root / "out")
    hold(monkeypatch, root / "out" / "sample" / held)
    result = run_cli("build", "--out", "out", cwd=root)
    refused(result, f"out/sample/{held}")
    assert "failed sample" in result.output
    assert tree(root / "out") == before  # bytes, times, and nothing staged left behind
    monkeypatch.undo()  # closed in the viewer: the next build goes through
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    assert tree(root / "out") != before


@pytest.mark.parametrize("held", ["heroes", "minis"])
def test_an_export_png_with_a_folder_held_changes_no_deck_s_folder(project, monkeypatch, held):
    root = project("basic")
    png = ["export", "png", "sample", *DECKS, "--dpi", "50", "--out", "out"]
    assert run_cli(*png, cwd=root).exit_code == 0
    edit(root)
    before = tree(root / "out")
    hold(monkeypatch, root / "out" / "sample" / "png" / held)
    refused(run_cli(*png, cwd=root), f"out/sample/png/{held}")
    assert tree(root / "out") == before


@pytest.mark.parametrize("held", fast_once(["heroes", "minis", "spec.pdf"]))
def test_a_shop_export_with_a_file_held_changes_nothing(project, monkeypatch, held):
    root = project("basic")
    tgc = ["export", "shop", "tgc", "sample", "--content", "content", "--out", "out"]
    assert run_cli(*tgc, cwd=root).exit_code == 0
    edit(root)
    before = tree(root / "out")
    hold(monkeypatch, root / "out" / "sample" / "shop" / "tgc" / held)
    refused(run_cli(*tgc, cwd=root), f"out/sample/shop/tgc/{held}")
    assert tree(root / "out") == before


def test_a_calibration_sheet_held_open_stays_as_it_was(tmp_path, monkeypatch):
    sheet = tmp_path / "sheet.pdf"
    sheet.write_bytes(b"%PDF- the old sheet")
    hold(monkeypatch, sheet)
    refused(run_cli("calibrate", "--out", "sheet.pdf", cwd=tmp_path), "sheet.pdf")
    assert sheet.read_bytes() == b"%PDF- the old sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.pdf"]
