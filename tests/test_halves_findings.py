"""What a deck drawn in halves (`pipeline/halves.py`) tells: what drawing it in order tells, in the same order.

The worker starts from the drawing's state as it was before the deck: an empty memo and a `FaceContext` that has
seen nothing. What it tells because of that is dropped when the two halves are merged (`halves._told`):
- a face the memo shares (a layout reading only some fields) is drawn once in order, but drawn again by the
  worker for each key its half meets first: its findings would be counted again ("and N more"), for every kind
  of finding a face can have (small text at both floors, a missing glyph, the safe zone, low-dpi art, overlaps);
- a finding told once per deck because the `FaceContext` keeps what it saw (an SVG's left-out effects,
  `image.find_svg`) would be told again.
Each test compares the two ways of drawing the same deck.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from conftest import fast_once

from pnpgen.errors import Diagnostics
from pnpgen.pipeline.jobs import inherits
from pnpgen.pipeline.run import GameRun
from pnpgen.project import Project

halves_only = pytest.mark.skipif(not inherits(), reason="decks are drawn in halves only where workers fork")

CARDS = 64  # with SPLIT_AT lowered to 40: two halves of 32 cards, every type in both
NAME = """
  - type: text
    x: 6
    y: 6
    w: 51.5
    h: 8
    text: "{{ card.name }}"
    size: 12
"""
# A back that reads only `card.type`: drawn once per type in order (the memo), each with one finding.
BACKS = {
    "text-under-7-pt": '  - {type: text, x: 6, y: 30, w: 51.5, h: 8, text: "{{ card.type }}", size: 6.5}\n',
    "text-under-6-pt": '  - {type: text, x: 6, y: 30, w: 51.5, h: 8, text: "{{ card.type }}", size: 5.5}\n',
    "a-missing-glyph": '  - {type: text, x: 6, y: 30, w: 51.5, h: 8, text: "{{ card.type }} \\ue000", size: 12}\n',
    "outside-the-safe-zone": '  - {type: text, x: 0.5, y: 30, w: 40, h: 8, text: "{{ card.type }}", size: 12}\n',
    "art-under-300-dpi": '  - {type: image, src: "{{ card.type }}.png", x: 10, y: 20, w: 40, h: 40}\n',
    "text-over-text": (
        '  - {type: text, x: 6, y: 30, w: 51.5, h: 8, text: "{{ card.type }} {{ card.type }}", size: 12}\n'
        '  - {type: text, x: 6, y: 30, w: 51.5, h: 8, text: "{{ card.type }} {{ card.type }}", size: 12}\n'
    ),
}
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f"/>'
    '<rect width="100" height="100" fill="red" filter="url(#f)"/></svg>'
)


def _game(tmp_path: Path, back: str, front_more: str = "", cards: int = CARDS) -> Path:
    """A game of one deck from a CSV: a front per card (its name), a back given by `back`, three types."""
    from PIL import Image

    game = tmp_path / "content" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "art").mkdir()
    (game / "game.yaml").write_text("id: g\ntitle: Halves\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "layouts" / "front.yaml").write_text("elements:" + NAME + front_more)
    (game / "layouts" / "back.yaml").write_text("elements:\n" + back)
    for t in "ABC":
        Image.new("RGB", (60, 60), (200, 90, 40)).save(game / "art" / f"{t}.png")
    (game / "art" / "pic.svg").write_text(SVG)
    with open(game / "cards.csv", "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "type"])
        for i in range(1, cards + 1):
            out.writerow([f"Card {i}", "ABC"[i % 3]])
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: front\nback: back\ncards_from: cards.csv\n"
    )
    return tmp_path


def _said(root: Path, cores: int) -> list[str]:
    """What drawing the deck with `cores` free said, as the build draws it."""
    run = GameRun(Project(root / "content", root / "out"), root / "content" / "g")
    run.load(Diagnostics())
    run.painter.cores = lambda: cores
    diags = Diagnostics()
    run.painter.deck(run.game.component("deck"), diags)
    return [str(d) for d in diags.items]


def _cards_named(messages: list[str]) -> int:
    """How many cards the findings are told on: each message's card and its "and N more"."""
    return sum(1 + int(m.group(1)) if (m := re.search(r" and (\d+) more", said)) else 1 for said in messages)


@halves_only
@pytest.mark.parametrize("finding", fast_once(list(BACKS)))
def test_a_face_the_memo_shares_is_told_as_in_order(tmp_path, split, finding):
    """In order, a back read by type is drawn three times (once per type) and its finding is on three cards. The
    worker draws the three types again for its half (its memo starts empty; `_unpacked` only swaps the objects
    afterwards), so the finding is counted on six: "and 5 more" where the drawing in order says "and 2 more", or
    (a finding told at the card's cell) three messages more."""
    root = _game(tmp_path, BACKS[finding])
    alone = _said(root, 1)
    both = _said(root, 2)
    assert len(split) == 1 and split[0] is not None  # drawn in two halves
    assert _cards_named(alone) == 3, alone  # three backs drawn: the finding on three cards
    assert both == alone


@halves_only
def test_a_finding_told_once_per_deck_is_told_once(tmp_path, split):
    """An SVG's left-out effects are told once per deck: the context keeps the SVG's size after the first card
    (`fc.image_sizes`). The worker's context is the one from before the deck, so it tells them again."""
    front = "  - {type: image, src: pic.svg, x: 10, y: 20, w: 20, h: 20}\n"
    root = _game(tmp_path, BACKS["outside-the-safe-zone"].replace("x: 0.5", "x: 6"), front)
    alone = _said(root, 1)
    both = _said(root, 2)
    assert len(split) == 1 and split[0] is not None
    told = [m for m in alone if "drawn without" in m]
    assert told and "more" not in told[0], told  # once, on the first card
    assert both == alone


@halves_only
@pytest.mark.slow
def test_a_build_of_a_big_deck_says_what_a_build_in_order_says(tmp_path):
    """The same at the shipped SPLIT_AT (300): a whole build of 320 cards on one core and on two."""
    from pnpgen import pipeline

    front = "  - {type: image, src: pic.svg, x: 10, y: 20, w: 20, h: 20}\n"
    root = _game(tmp_path, BACKS["text-under-7-pt"], front, cards=320)
    said = {}
    for cores in (1, 2):
        (result,) = pipeline.build(Project(root / "content", root / f"out{cores}"), None, workers=cores)
        said[cores] = [str(d) for d in result.diagnostics.items]
    for name in sorted(p.name for p in (root / "out1" / "g").iterdir()):
        assert (root / "out1" / "g" / name).read_bytes() == (root / "out2" / "g" / name).read_bytes(), name
    assert said[2] == said[1]
