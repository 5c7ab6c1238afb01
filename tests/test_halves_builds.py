"""Whole builds with a deck drawn in halves (`pipeline/halves.py`, a helper's second attack): builds with
`workers=2` (decks split, the check beside the drawing) against `workers=1` (in order), for the states a forked
worker starts from that may differ from those drawing in order has at the cut: a sheet's cells, the layout
library (a layout first used in the second half), low ink and fold forms, --strict, two big decks, counts,
pictures, several games built together, and a resident process building again after an edit.

Each case compares what the two builds say (ok, every message, in order) and every file they write, byte for
byte."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, fast_once, run_cli
from test_datasheets import xlsx

import pnpgen.pipeline.faces as painting
from pnpgen import pipeline
from pnpgen.imposition.duplex import Printing
from pnpgen.pipeline.jobs import inherits
from pnpgen.project import Project

pytestmark = pytest.mark.skipif(not inherits(), reason="decks are drawn in halves only where workers fork")

CARDS = 64  # SPLIT_AT lowered to 40: two halves of 32 cards

FRONT = """
elements:
  - {type: rect, area: bleed, fill: "{{ card.colour }}"}
  - {type: rect, x: 0.5, y: 0.5, w: 3, h: 3, fill: "#000000"}
  - {type: text, x: 6, y: 6, w: 51.5, h: 8, text: "{{ card.name }} of {{ deck.count }} in {{ game.title }}", size: 12}
  - {type: text, x: 6, y: 16, w: 51.5, h: 8, text: "{{ card.kind }}", size: "{{ card.small }}"}
  - {type: text, x: 6, y: 26, w: 51.5, h: 8, text: "{{ card.text }}", size: 10}
  - {type: image, src: "{{ card.art }}", x: 20, y: 40, w: 20, h: 20}
  - {type: icon, name: "{{ card.icon }}", x: 6, y: 70, size: 8}
"""
BACK = """
elements:
  - {type: rect, area: bleed, fill: "#2b2140"}
  - {type: text, x: 6, y: 40, w: 51.5, h: 8, text: "{{ card.kind }}", size: 6.5, color: "#ffffff"}
"""
OTHER_BACK = """
elements:
  - {type: rect, area: bleed, fill: "#40212b"}
  - {type: text, x: 0.5, y: 40, w: 51.5, h: 8, text: "Other {{ card.kind }}", size: 6.5, color: "#ffffff"}
"""
OTHER_FRONT = """
elements:
  - {type: rect, area: bleed, fill: "#d0e0f0"}
  - {type: text, x: 6, y: 6, w: 51.5, h: 8, text: "{{ card.name }} (other)", size: 6.8}
  - {type: image, src: pic.svg, x: 20, y: 40, w: 20, h: 20}
"""
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f"/>'
    '<rect width="100" height="100" fill="red" filter="url(#f)"/></svg>'
)
HEADER = ["name", "count", "colour", "kind", "small", "text", "art", "icon", "back", "front"]


def _row(i: int, opts: dict) -> list:
    """Card i's row: a few cards of each half carry a warning or an error, at a cell of their own."""
    n = opts.get("cards", CARDS)
    small = 9
    if i in (3, n - 3):
        small = 6.5  # a warning, at the cell
    if opts.get("errors") and i in (5, n - 5):
        small = 5  # an error, at the cell
    colour = "#f6efe0"
    if opts.get("errors") and i in (7, n - 7):
        colour = "rouge"  # not a colour: an error at the cell
    text = f"Card {i} says :drop: and {'word ' * (3 + i % 4)}"
    if i in (9, n - 9):
        text = "A :nosuchicon: here"  # an unknown icon in text: a warning
    if opts.get("symbols") and i > n // 2 + 2:
        text += (
            " \u2694 \u2660 \u222b \u2b50 \U0001f0a1"  # glyphs only fallback fonts have, in the second half
        )
    art = f"a{i % 3}.png"
    if opts.get("jpeg") and i % 5 == 0:
        art = "photo.jpg"
    if opts.get("svg_art") and i > n // 2:
        art = "pic.svg"  # SVG art only in the second half
    back = ""
    if opts.get("other_back") and i > n // 2 and i % 4 == 0:
        back = "other-back"  # a layout first used in the second half
    front = ""
    if opts.get("other_front") and i > n // 2 and i % 5 == 0:
        front = "other-front"
    count = (1 + i % 3) if opts.get("counts") else 1
    if opts.get("bad_row") and i in (6, n - 6):
        count = "many"  # a row the load refuses
    if opts.get("missing_layout") and i in (8, n - 8, n - 12):
        back = "nosuch"  # a card naming a layout that is not there
    if opts.get("bad_art") and i in (n - 10, n - 11):
        art = {n - 10: "gone.png", n - 11: "damaged.png"}[i]
    kind = ("Action", "Relic", "Spell")[i % 3]
    return [f"Card {i}", count, colour, kind, small, text, art, "drop", back, front]


def _sheet(opts: dict, deck: str = "deck") -> tuple[str, bytes]:
    rows = [HEADER] + [_row(i, opts) for i in range(1, opts.get("cards", CARDS) + 1)]
    if opts.get("xlsx"):
        return f"{deck}.xlsx", xlsx(rows, "Cards")
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return f"{deck}.csv", out.getvalue().encode()


def _game(content: Path, gid: str = "g", **opts) -> Path:
    """A game of one (or two) big decks from a sheet, each card naming its own art, with findings in both
    halves; a rulebook and facts (so the rules check runs beside the drawing)."""
    from PIL import Image

    game = content / gid
    (game / "layouts").mkdir(parents=True)
    (game / "art").mkdir()
    (game / "data").mkdir()
    decks = ["deck", "deck2"] if opts.get("two") else ["deck"]
    (game / "game.yaml").write_text(
        f"id: {gid}\ntitle: Halves {gid}\nplayers: 2\nicons: icons.yaml\n"
        f"components: [{', '.join(d + '.yaml' for d in decks)}]\n"
    )
    (game / "icons.yaml").write_text('drop:\n  tint: "#1f6fb2"\n  shapes:\n    - circle: [50, 50, 40]\n')
    front = FRONT
    if opts.get("every_type"):
        from pnpgen.layout.elements import TYPES

        front += "".join(
            f"  - {t.example.replace('split.png', 'a1.png')}\n" for _n, t in sorted(TYPES.items())
        )
    (game / "layouts" / "front.yaml").write_text(front)
    (game / "layouts" / "back.yaml").write_text(BACK)
    (game / "layouts" / "other-back.yaml").write_text(OTHER_BACK)
    (game / "layouts" / "other-front.yaml").write_text(OTHER_FRONT)
    for a in range(3):
        Image.new("RGB", (300, 300), (a * 70 % 256, 90, 160)).save(game / "art" / f"a{a}.png")
    Image.new("RGB", (360, 270), (10, 200, 30)).save(game / "art" / "photo.jpg", quality=80)
    (game / "art" / "pic.svg").write_text(SVG)
    (game / "art" / "damaged.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    picture = opts.get("picture")
    for d in decks:
        name, data = _sheet(opts, d)
        (game / "data" / name).write_bytes(data)
        ref = f"{{file: data/{name}, sheet: Cards}}" if opts.get("xlsx") else f"data/{name}"
        kind = opts.get("kind", "cards")
        size = "size: poker" if kind == "cards" else "shape: hex\nsize: 30"
        yaml_cards = ""
        if opts.get("yaml_cards"):  # cards of the YAML file first, then the sheet's, and a second sheet
            yaml_cards = "defaults: {colour: '#e0e0e0', small: 9, art: a2.png, icon: drop, kind: Relic}\n"
            yaml_cards += f"{kind}:\n" + "".join(
                f"  - {{name: Y{k}, text: 'tiny :nosuchicon:', small: 6.5}}\n" for k in range(6)
            )
            (game / "data" / f"more-{name}").write_bytes(data)
            ref = f"[{ref}, data/more-{name}]"
        (game / f"{d}.yaml").write_text(
            f"id: {d}\nkind: {kind}\n{size}\nfront: front\nback: back\ncards_from: {ref}\n"
            + yaml_cards
            + (f"picture: {picture}\n" if picture else "")
        )
    if opts.get("rulebook", True):
        (game / "rulebook.md").write_text(
            f"# Halves {gid}\n\nThe {{{{ components.deck.name }}}} has {{{{ components.deck.faces }}}} cards.\n"
        )
        total = opts.get("total")
        facts = (
            f"  - {{id: deck, section: Components, says: {total} cards, component: deck, total: {total}}}\n"
            if total
            else ""
        )
        (game / "facts.yaml").write_text(
            f"document: Halves {gid}\nfacts:{' []' if not facts else ''}\n{facts}"
        )
    return game


def _files(folder: Path) -> dict:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _built(content: Path, out: Path, workers: int, names=None, strict=False, **kw) -> tuple:
    results = pipeline.build(Project(content, out, **kw), names, strict=strict, workers=workers)
    said = [(r.ok, [str(d) for d in r.diagnostics.items]) for r in results]
    return said, _files(out) if out.exists() else {}


def _same(tmp_path: Path, names=None, strict=False, **kw) -> tuple:
    """Build the content with one worker, then two; assert they agree. What the in-order build said."""
    content = tmp_path / "content"
    alone = _built(content, tmp_path / "out1", 1, names, strict, **kw)
    both = _built(content, tmp_path / "out2", 2, names, strict, **kw)
    assert both[0] == alone[0]
    assert sorted(both[1]) == sorted(alone[1])
    for name in alone[1]:
        assert both[1][name] == alone[1][name], name
    return alone


CASES = {
    "csv": {},
    "xlsx-cells": {"xlsx": True},
    "xlsx-errors-at-cells": {"xlsx": True, "errors": True},
    "csv-errors": {"errors": True},
    "counts": {"counts": True},
    "back-first-used-in-second-half": {"other_back": True},
    "front-first-used-in-second-half": {"other_front": True},
    "svg-art-in-second-half": {"svg_art": True},
    "jpeg-art": {"jpeg": True},
    "picture-in-second-half": {"picture": f"Card {CARDS - 4}", "counts": True},
    "picture-first-card": {"picture": "Card 1", "other_back": True},
    "two-big-decks": {"two": True, "other_back": True},
    "no-rulebook": {"rulebook": False, "other_back": True, "counts": True},
    "a-row-the-load-refuses": {"bad_row": True},
    "a-layout-not-there": {"missing_layout": True, "xlsx": True},
    "missing-and-damaged-art": {"bad_art": True},
    "check-fails": {"total": 99},
    "check-passes": {"total": CARDS},
    "every-element-type": {"every_type": True, "counts": True},
    "fallback-fonts-in-second-half": {"symbols": True},
    "yaml-cards-then-two-sheets": {"yaml_cards": True, "other_back": True},
    "hex-tiles": {"kind": "tiles", "counts": True},
    "tokens": {"kind": "tokens", "yaml_cards": True},
}


@pytest.mark.parametrize("case", fast_once(list(CASES)))
def test_a_build_in_halves_is_the_build_in_order(tmp_path, split, case):
    _game(tmp_path / "content", **CASES[case])
    said = _same(tmp_path)
    assert split and all(s is not None for s in split), split  # every big deck drawn in halves
    ((ok, messages),) = said[0]
    bad = ("errors", "bad_row", "missing_layout", "bad_art", "total")
    assert ok is (not any(CASES[case].get(k) for k in bad) or CASES[case].get("total") == CARDS), messages
    assert any("more" in m for m in messages), messages  # findings of both halves counted together


@pytest.mark.parametrize("case", fast_once(["check-fails", "check-passes", "csv"]))
def test_no_check_and_strict_in_halves(tmp_path, split, case):
    _game(tmp_path / "content", **CASES[case])
    content = tmp_path / "content"
    for n, kw in enumerate([dict(check=False), dict(strict=True)]):
        alone = pipeline.build(Project(content, tmp_path / f"o1-{n}"), None, workers=1, **kw)
        both = pipeline.build(Project(content, tmp_path / f"o2-{n}"), None, workers=2, **kw)
        assert [(r.ok, [str(d) for d in r.diagnostics.items]) for r in both] == [
            (r.ok, [str(d) for d in r.diagnostics.items]) for r in alone
        ]
        one, two = (
            _files(tmp_path / f"o1-{n}"),
            _files(tmp_path / f"o2-{n}") if (tmp_path / f"o2-{n}").exists() else {},
        )
        assert one == two


PRINTINGS = {
    "ink-both": dict(printing=Printing(inks=("full", "low")), asked=("ink",)),
    "ink-low": dict(printing=Printing(inks=("low",)), asked=("ink",)),
    "fold": dict(printing=Printing(flips=("long", "fold")), asked=("fold",)),
}


@pytest.mark.parametrize("printing", fast_once(list(PRINTINGS)))
def test_printing_forms_in_halves(tmp_path, split, printing):
    _game(tmp_path / "content", other_back=True, counts=True, xlsx=True)
    _same(tmp_path, **PRINTINGS[printing])
    assert split and all(s is not None for s in split), split
    if printing == "ink-both":  # the low-ink form's deck is drawn in halves too
        assert len(split) == 2, split  # each form once, in the build on two cores


def test_strict_in_halves(tmp_path, split):
    _game(tmp_path / "content", other_back=True)
    said = _same(tmp_path, strict=True)
    ((ok, _messages),) = said[0]
    assert not ok


def test_strict_clean_game_in_halves(tmp_path, split):
    """A strict build of a deck with no warnings at all writes the same."""
    game = _game(tmp_path / "content", rulebook=False)
    (game / "layouts" / "front.yaml").write_text(
        "elements:\n  - {type: rect, area: bleed, fill: '#f6efe0'}\n"
        "  - {type: text, x: 6, y: 6, w: 51.5, h: 8, text: '{{ card.name }}', size: 12}\n"
    )
    (game / "layouts" / "back.yaml").write_text(
        "elements:\n  - {type: text, x: 6, y: 40, w: 51.5, h: 8, text: '{{ card.kind }}', size: 12}\n"
    )
    _same(tmp_path, strict=True)


@pytest.mark.slow
def test_several_games_built_together(tmp_path, monkeypatch):
    """Five games built together (each in a forked worker, FreeCores lending cores to their decks)."""
    import os

    monkeypatch.setattr(painting, "SPLIT_AT", 40)
    marks = tmp_path / "marks"
    marks.mkdir()
    real = painting.halves

    def noted(*a):
        got = real(*a)
        (marks / f"{os.getpid()}-{a[1].id}-{len(list(marks.iterdir()))}").write_text(str(got is not None))
        return got

    monkeypatch.setattr(painting, "halves", noted)
    from pnpgen.pipeline.pool import FreeCores

    monkeypatch.setattr(FreeCores, "__call__", lambda self: 2)  # as when the other games are done
    content = tmp_path / "content"
    for n, opts in enumerate(
        [{}, {"other_back": True}, {"xlsx": True, "counts": True}, {"two": True}, {"svg_art": True}]
    ):
        _game(content, f"g{n}", **opts)
    said = _same(tmp_path)
    assert len(said[0]) == 5
    told = [p.read_text() for p in marks.iterdir()]
    assert "True" in told, told  # some deck of the build on two cores was drawn in halves


EDITS = {
    # (file, old, new): an edit between two builds of a resident process
    "a-card-of-the-second-half": ("data/deck.csv", f"Card {CARDS - 2},", f"Card {CARDS - 2} renamed,"),
    "the-back-layout": ("layouts/back.yaml", "#2b2140", "#21402b"),
    "an-art-file": None,
    "the-pictured-card": ("data/deck.csv", f"Card {CARDS - 4},", f"Card {CARDS - 4} renamed,"),
}


@pytest.mark.slow  # resident rebuilds: tests/test_resident.py in the fast run
@pytest.mark.parametrize("edit", list(EDITS))
def test_a_resident_build_after_an_edit(tmp_path, split, edit):
    """watch/serve: a resident project builds, the content is edited, it builds again in the same process. Done
    on one core and on two (the same content folder, edited and put back between): the same messages, the same
    files; and the files are what a fresh build of the edited content writes."""
    from PIL import Image

    game = _game(tmp_path / "content", other_back=True, two=True, picture=f"Card {CARDS - 4}")
    kept = {p: p.read_bytes() for p in game.rglob("*") if p.is_file()}

    def edited() -> None:
        if EDITS[edit] is None:
            Image.new("RGB", (300, 300), (1, 2, 3)).save(game / "art" / "a1.png")
            return
        name, old, new = EDITS[edit]
        text = (game / name).read_text()
        assert old in text
        (game / name).write_text(text.replace(old, new))
        if "deck.csv" in name:  # the picture follows the card
            deck = (game / "deck.yaml").read_text()
            (game / "deck.yaml").write_text(deck.replace(f"picture: {old[:-1]}", f"picture: {new[:-1]}"))

    said = {}
    for cores in (1, 2):
        for path, data in kept.items():
            path.write_bytes(data)
        resident = Project(tmp_path / "content", tmp_path / f"out{cores}", resident=True)
        pipeline.build(resident, None, workers=cores)
        edited()
        (again,) = pipeline.build(resident, None, workers=cores)
        said[cores] = (again.ok, [str(d) for d in again.diagnostics.items])
    assert split and all(s is not None for s in split), split
    assert said[2] == said[1]
    (fresh,) = pipeline.build(Project(tmp_path / "content", tmp_path / "out0"), None, workers=1)
    assert fresh.ok == said[1][0]
    zero, one, two = (_files(tmp_path / f"out{n}") for n in range(3))
    assert sorted(zero) == sorted(one) == sorted(two)
    for name in one:
        assert one[name] == two[name], name
        assert zero[name] == one[name], name


@pytest.mark.parametrize("share", fast_once([0.99, 0.75, 0.6]))
def test_the_build_budget_runs_out_where_it_does_in_order(tmp_path, split, monkeypatch, most_spent, share):
    """Two big decks, the first drawn in halves within the budget: what it spent, merged, is what drawing it in
    order spends, to the step, so the second deck runs out of the build's template budget at the same card."""
    import pnpgen.budget as budget

    _game(tmp_path / "content", two=True, other_back=True, counts=True, rulebook=False)
    _built(tmp_path / "content", tmp_path / "probe", 1)
    spent = most_spent()
    monkeypatch.setattr(budget, "MAX_BUILD_STEPS", int(spent * share))
    split.clear()
    alone = _built(tmp_path / "content", tmp_path / "out1", 1)
    both = _built(tmp_path / "content", tmp_path / "out2", 2)
    assert split and split[0] is not None  # the first deck drawn in halves
    assert both[0] == alone[0]
    ((ok, messages),) = alone[0]
    assert not ok and any("too much work" in m for m in messages), messages


@pytest.mark.parametrize(
    "flags, opts",
    fast_once(
        [
            pytest.param(("--strict",), {"xlsx": True}, id="strict-xlsx"),
            pytest.param(("--ink", "both", "--fold"), {"xlsx": True, "other_back": True}, id="ink-both-fold"),
            pytest.param(("--no-check",), {"errors": True, "counts": True}, id="errors-no-check"),
            # the low-ink form alone: its painter (`GameRun.low_painter`) draws a big deck in halves too
            pytest.param(("--ink", "low"), {"counts": True}, id="low-ink-only"),
            pytest.param(("--forms", "all"), {"counts": True, "svg_art": True}, id="every-form"),
            # one file to write: a core is free beside its writer, and the faces' digests are worked out there
            pytest.param(("--no-print-all",), {"rulebook": False, "counts": True}, id="one-file"),
        ]
    ),
)
def test_the_command_in_halves(tmp_path, split, flags, opts):
    """`pnpgen build -j 1` and `-j 2`: the same exit code, the same output and messages, the same files."""
    import shutil

    _game(tmp_path / "content", **opts)
    said, files = [], []
    for jobs in ("1", "2"):
        shutil.rmtree(tmp_path / "out", ignore_errors=True)
        got = run_cli(
            "build", "--content", tmp_path / "content", "--out", tmp_path / "out", "-j", jobs, *flags
        )
        said.append((got.exit_code, got.stdout, got.stderr))
        files.append(_files(tmp_path / "out") if (tmp_path / "out").exists() else {})
    assert split and all(s is not None for s in split), split
    assert said[1] == said[0]
    assert sorted(files[1]) == sorted(files[0])
    for name in files[0]:
        assert files[1][name] == files[0][name], name


SPLIT_CLI = (
    "import sys, pnpgen.pipeline.faces as painting\n"
    "painting.SPLIT_AT = 40\n"
    "from pnpgen.cli import main\n"
    "sys.argv[0] = 'pnpgen'\n"
    "main()\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [("build", "--ink", "both", "--fold", "--forms", "all")],  # the exports held too, tried once by hand
    ids=["build-every-form"],
)
def test_a_big_deck_writes_the_same_bytes_in_any_process(tmp_path, command):
    """A deck drawn in halves (SPLIT_AT 40): one process with hash seed 1 and one job, another with seed 2 and
    two jobs, each into the same --out path in turn: every file the same, byte for byte."""
    _game(tmp_path / "content", every_type=True, svg_art=True, other_back=True, counts=True, symbols=True)
    files = []
    for seed, jobs in (("1", "1"), ("2", "2")):
        shutil.rmtree(tmp_path / "out", ignore_errors=True)
        args = [*command, "--content", "content", "--out", "out"] + (
            ["-j", jobs] if command[0] == "build" else []
        )
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        subprocess.run(
            [sys.executable, "-c", SPLIT_CLI, *args], cwd=tmp_path, env=env, check=True, capture_output=True
        )
        files.append(_files(tmp_path / "out"))
    assert sorted(files[0]) == sorted(files[1]) and files[0]
    assert [n for n in files[0] if files[0][n] != files[1][n]] == []
