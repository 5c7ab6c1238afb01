"""Two cores for one game. A big deck drawn in halves (`pipeline/halves.py`) gives what drawing it in order
gives: the same faces, shared the same way, the same problems in the same order, the same reads; the same files,
byte for byte; and whatever stops a drawing (a template's budget, the build's image bound, an error in one half)
stops it where, and as, the drawing in order does. The rules check run beside the drawing finds what it finds
after it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import fast_once

import pnpgen.pipeline.faces as painting
from pnpgen.errors import Diagnostics
from pnpgen.faces import face_digest
from pnpgen.pipeline.jobs import inherits
from pnpgen.pipeline.run import GameRun
from pnpgen.project import Project

pytestmark = pytest.mark.skipif(not inherits(), reason="decks are drawn in halves only where workers fork")

CARDS = 64  # with SPLIT_AT lowered to 40 here: a deck drawn in two halves of 32 cards
FRONT = """
elements:
  - type: rect
    area: bleed
    fill: "#f6efe0"
  - type: text
    x: 6
    y: 6
    w: 51.5
    h: 8
    text: "{{ card.name }}"
    size: 12
  - type: text
    x: 6
    y: 15
    w: 51.5
    h: 5
    text: "{{ card.type }}"
    size: 6.5
  - type: image
    src: "{{ card.art }}"
    x: 24
    y: 22
    w: 15
    h: 15
  - type: text
    x: 6
    y: 52
    w: 51.5
    h: 22
    text: "{% for w in card.text.split() %}{{ w }} {% endfor %}"
    size: 9
"""
BACK = """
elements:
  - type: rect
    area: bleed
    fill: "#2b2140"
  - type: text
    x: 5
    y: 38
    w: 53.5
    h: 12
    text: "{{ card.type }}"
    size: 14
    color: "#d8b45a"
"""


def _game(
    tmp_path: Path, arts: int = 3, text=lambda i: f"Card {i} says a few words, then some more."
) -> Path:
    """A game of one deck of CARDS cards from a CSV: distinct fronts (each with a small-text warning and art under
    300 dpi: notes on every card of both halves), backs drawn once per type (shared faces across the halves), the
    pictured card in the second half. `arts` distinct images among the cards."""
    from PIL import Image

    game = tmp_path / "content" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "art").mkdir()
    (game / "game.yaml").write_text("id: g\ntitle: Halves\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "layouts" / "front.yaml").write_text(FRONT)
    (game / "layouts" / "back.yaml").write_text(BACK)
    for a in range(arts):
        Image.new("RGB", (100, 100), (a * 7 % 256, 90, 160)).save(game / "art" / f"a{a}.png")
    with open(game / "cards.csv", "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "type", "text", "art"])
        for i in range(1, CARDS + 1):
            out.writerow([f"Card {i}", ("Action", "Relic", "Spell")[i % 3], text(i), f"a{i % arts}.png"])
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: front\nback: back\ncards_from: cards.csv\n"
        f"picture: Card {CARDS - 3}\n"
    )
    return tmp_path


def _draw(root: Path, cores: int, steps_left: int | None = None) -> dict:
    """The deck drawn with `cores` free, as the build draws it; what came of it."""
    run = GameRun(Project(root / "content", root / "out"), root / "content" / "g")
    run.load(Diagnostics())
    run.painter.cores = lambda: cores
    budget = run.library.compiler.budget
    if steps_left is not None:
        budget.build_left = steps_left
    start = budget.build_left
    diags = Diagnostics()
    with run.reader.recording() as read:
        drawn = run.painter.deck(run.game.component("deck"), diags)
    out = {"messages": [str(d) for d in diags.items], "read": dict(read), "steps": start - budget.build_left}
    if drawn is not None:
        ids = [id(face) for pair in drawn.faces for face in pair]
        out["faces"] = [face_digest(face) for pair in drawn.faces for face in pair]
        out["shared"] = [
            ids.index(i) for i in ids
        ]  # which faces are one object, as drawing in order shares them
        out["first_read"] = drawn.first_read
        out["warnings"] = drawn.warnings
    return out


def test_a_deck_drawn_in_halves_is_the_deck_drawn_in_order(tmp_path, split):
    root = _game(tmp_path)
    alone = _draw(root, 1)
    assert split == []  # one core: never split
    both = _draw(root, 2)
    assert len(split) == 1 and split[0] is not None  # drawn in two halves
    assert both == alone
    assert (
        len(set(alone["shared"])) == CARDS + 4
    )  # a front per card, a back per type, the pictured card's own
    assert any("and 63 more" in m for m in alone["messages"])  # notes of both halves told once, with a count
    assert alone["first_read"]  # the pictured card, in the second half, recorded on its own


def test_a_build_with_a_deck_in_halves_writes_the_same_bytes(tmp_path, split):
    from pnpgen import pipeline

    root = _game(tmp_path)
    results = {}
    for cores in (1, 2):
        project = Project(root / "content", root / f"out{cores}")
        (results[cores],) = pipeline.build(project, None, workers=cores)
    assert [s is not None for s in split] == [True]  # the second build split its deck
    assert [str(d) for d in results[1].diagnostics.items] == [str(d) for d in results[2].diagnostics.items]
    names = sorted(p.name for p in (root / "out1" / "g").iterdir())
    assert "deck.pdf" in names and "print-all.pdf" in names and "manifest.json" in names
    for name in names:
        assert (root / "out1" / "g" / name).read_bytes() == (root / "out2" / "g" / name).read_bytes(), name


def _too_long(i: int) -> str:
    """A text that fits its box but on one card of the second half (told there, as in order)."""
    return ("word " * 400) if i == CARDS - 5 else f"Card {i} says a few words."


@pytest.mark.parametrize(
    "case",
    fast_once(
        [
            pytest.param("steps", id="template-steps-of-the-two-halves-together"),
            pytest.param("pixels", id="image-pixels-of-the-two-halves-together"),
            pytest.param("text", id="a-card-of-the-second-half-fails"),
        ]
    ),
)
def test_what_stops_a_deck_in_order_stops_it_in_halves(tmp_path, split, monkeypatch, case):
    """The build's template budget and image bound are passed only by the two halves together: both halves are
    thrown away and the deck drawn again in order, which stops at the card where it must and says so. A card that
    fails in the second half is told as in order, among the other problems."""
    import pnpgen.inputs as inputs

    made: dict = {"pixels": {"arts": CARDS}, "text": {"text": _too_long}}.get(case, {})
    root = _game(tmp_path, **made)
    left = None
    if case == "steps":
        left = _draw(root, 1)["steps"] * 3 // 4  # the two halves' steps together, not either alone
    if case == "pixels":
        monkeypatch.setattr(inputs, "MAX_PIXELS", 100 * 100 * CARDS * 3 // 4)
    split.clear()
    alone = _draw(root, 1, left)
    both = _draw(root, 2, left)
    assert both == alone
    assert "faces" not in alone  # the deck failed
    said = " ".join(alone["messages"])
    expected = {"steps": "too much work", "pixels": "megapixels", "text": "does not fit"}[case]
    assert expected in said, said
    if case == "text":
        assert len(split) == 1 and split[0] is not None  # a failed card is a problem like another: merged
    else:
        assert split == [None]  # both halves thrown away, the deck drawn in order


def test_an_error_in_the_second_half_is_raised_as_in_order(tmp_path, split, monkeypatch):
    """An error no card reports (a fault of pnpgen's own, say) in the worker's half is raised as drawing in order
    raises it, once the deck is drawn again in order, with nothing of the halves left behind."""
    root = _game(tmp_path)
    card = painting.Painter.card

    def failing(self, deck, c, *args):
        if c.index == CARDS - 5:
            raise RuntimeError(f"no drawing card {c.index}")
        return card(self, deck, c, *args)

    monkeypatch.setattr(painting.Painter, "card", failing)
    for cores in (1, 2):
        with pytest.raises(RuntimeError, match=f"no drawing card {CARDS - 5}"):
            _draw(root, cores)
    assert split == [None]  # the worker's error threw both halves away


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(None, id="passes-with-warnings"),
        pytest.param(("count: 5", "count: 4"), id="fails-a-count"),
    ],
)
def test_the_check_beside_the_drawing_is_the_check_after_it(project, edit, monkeypatch):
    """With a core free, the rules check runs in a forked worker while the components are drawn: its findings, in
    their place among the others, the manifest and the files are those of a build that checks alone."""
    from pnpgen import pipeline
    from pnpgen.pipeline.run import GameRun

    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(
        "# Sample\n\nThe {{ components.heroes.name }}.\n"
    )
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    if edit is not None:
        heroes.write_text(heroes.read_text().replace(*edit, 1))
    said, here = {}, []
    check = GameRun.check
    monkeypatch.setattr(GameRun, "check", lambda run, diags: here.append(1) or check(run, diags))
    for cores in (1, 2):
        here.clear()
        (result,) = pipeline.build(Project(root / "content", root / f"out{cores}"), None, workers=cores)
        said[cores] = (result.ok, [str(d) for d in result.diagnostics.items], len(here))
    assert said[1][2] == 1 and said[2][2] == 0  # in this process alone; beside the drawing, in a worker
    assert said[1][:2] == said[2][:2]
    ok, messages, _ = said[1]
    assert ok is (edit is None)
    if ok:
        import json

        kept = json.loads((root / "out2" / "sample" / "manifest.json").read_text())["check"]
        assert kept["ok"] and "content/sample/facts.yaml" in kept["inputs"]  # what the worker's check read
        names = sorted(p.name for p in (root / "out1" / "sample").iterdir())
        assert "manifest.json" in names
        for name in names:
            assert (root / "out1" / "sample" / name).read_bytes() == (
                root / "out2" / "sample" / name
            ).read_bytes()
    else:
        assert any("rules check: heroes" in m for m in messages), messages
        assert not (root / "out2" / "sample").exists()  # nothing written
