"""`--strict` is never answered from an older, laxer build: every kind of warning a build gives is printed by a
plain build, counted in the manifest, and fails a strict build whether the output is fresh or not."""

from __future__ import annotations

import json

import pytest
from conftest import fast_once, run_cli

GAME = "content/sample"


def _append(path: str, text: str):
    def edit(root):
        f = root / path
        f.write_text(f.read_text() + text)

    return edit


def _replace(path: str, old: str, new: str):
    def edit(root):
        f = root / path
        assert old in f.read_text()
        f.write_text(f.read_text().replace(old, new))

    return edit


def _rulebook(text: str):
    def edit(root):
        (root / GAME / "rulebook.md").write_text(text)

    return edit


# each kind of warning a build gives: (what makes it, a word of the warning it prints); in the `basic` fixture
# but where the kind is marked with its fixture (`fixture:kind`)
KINDS = {
    # the rules check (checker.py): a component no rule uses
    "rules-check": (
        _replace(f"{GAME}/facts.yaml", "  - {piece: Mini cards, component: minis, in: [turn]}\n", ""),
        "rules check: minis: no rule uses this component",
    ),
    # drawing a face (layout/draw.py): text set on the card's edge
    "layout": (
        _append(
            f"{GAME}/layouts/hero.yaml",
            "  - type: text\n    x: 0\n    y: 0\n    w: 30\n    h: 5\n    text: edge\n",
        ),
        "text reaches outside the safe zone",
    ),
    # a card field no layout reads (pipeline/unused.py)
    "unused-field": (
        _replace(f"{GAME}/decks/heroes.yaml", "    count: 6\n", "    count: 6\n    resouce: 2\n"),
        "reads the field 'resouce'",
    ),
    # a board side's field no layout reads (pipeline/unused.py)
    "pieces:board-field": (
        _replace(
            "content/pieces/tiles/board.yaml",
            "fields: {shape: hex, cols: 7, rows: 5}",
            "fields: {shape: hex, cols: 7, rows: 5, colums: 3}",
        ),
        "no layout of board 'board' reads the field 'colums' (first given on side 'back')",
    ),
    # the rulebook (rulebook/checks.py): a character its font cannot print
    "rulebook": (
        _rulebook("# Rules\n\nEach player takes 11 Hero cards \U00013000 and 20 Mini cards.\n"),
        "would not print",
    ),
}


def build(root, *extra):
    result = run_cli("build", "--out", "out", *extra, cwd=root)
    assert result.exit_code in (0, 1), result.output
    return result


def manifest_warnings(root, game: str = "sample") -> int:
    data = json.loads((root / "out" / game / "manifest.json").read_text())
    return data.get("warnings", 0) + sum(f.get("warnings", 0) for f in data["files"])


@pytest.mark.parametrize("kind", fast_once(sorted(KINDS)))
def test_every_warning_fails_strict_fresh_or_not(project, kind):
    fixture, game = ("pieces", "pieces") if kind.startswith("pieces:") else ("basic", "sample")
    root = project(fixture)
    make, said = KINDS[kind]
    make(root)
    plain = build(root)
    assert plain.exit_code == 0, plain.output
    assert said in plain.output and "warning" in plain.output  # a plain build prints it
    assert manifest_warnings(root, game) > 0  # ... and the manifest counts it
    assert build(root).output.strip() == f"up to date {game}"  # a plain rebuild has nothing to do
    files = {p.name: p.read_bytes() for p in (root / "out" / game).iterdir()}
    for _ in range(2):  # from the lax build's output, then from the strict build's failure
        strict = build(root, "--strict")
        assert strict.exit_code == 1, strict.output
        assert "up to date" not in strict.output
        assert said in strict.output and "[--strict]" in strict.output
        assert {p.name: p.read_bytes() for p in (root / "out" / game).iterdir()} == files


def test_a_strict_build_after_a_clean_one_is_up_to_date(project):
    root = project("basic")
    assert build(root).exit_code == 0
    assert manifest_warnings(root) == 0
    strict = build(root, "--strict")
    assert strict.exit_code == 0 and strict.output.strip() == "up to date sample"
