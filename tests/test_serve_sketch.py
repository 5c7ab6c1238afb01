"""`pnpgen serve` between a save and its build: the cards a save changed are drawn at once and shown (`Sketcher`,
`Preview.sketch`); the build's files then replace them. Measured on the images the page is given."""

from __future__ import annotations

import io
import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import FIXTURES
from PIL import Image, ImageChops, ImageFilter

from pnpgen import pipeline
from pnpgen.errors import Diagnostics, Location
from pnpgen.imposition.duplex import DEFAULT
from pnpgen.pipeline.run import GameResult
from pnpgen.project import Project
from pnpgen.serve import command as serve_command
from pnpgen.serve.command import Sketcher
from pnpgen.serve.preview import DPI, Preview

HEROES = "content/sample/decks/heroes.yaml"


@pytest.fixture
def served(tmp_path):
    """A copy of the basic game built once, with the page's state and the sketcher as `serve` has them."""
    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    project = Project(
        tmp_path / "p" / "content", tmp_path / "p" / "out", printing=replace(DEFAULT, whole=False)
    )
    preview, sketcher = Preview(project, ["sample"]), Sketcher(project)
    results = pipeline.build(project, ["sample"])
    sketcher.remember(results)
    preview.update(results)
    return tmp_path / "p", project, preview, sketcher


def edit(root: Path, old: str, new: str, path: str = HEROES) -> str:
    file = root / path
    text = file.read_text()
    assert old in text
    file.write_text(text.replace(old, new))
    return str(file)


def heroes(preview: Preview) -> list[dict]:
    (game,) = preview.state(-1, 0)["games"]
    return next(c for c in game["components"] if c["id"] == "heroes")["items"]


def picture(preview: Preview, url: str) -> Image.Image:
    data = preview.image(url[len("/img/") : -len(".png")])
    assert data is not None and data.startswith(b"\x89PNG"), url
    return Image.open(io.BytesIO(data)).convert("RGB")


def unlike(a: Image.Image, b: Image.Image) -> float:
    """The share of two pictures of a card that differ, blurred first: a fraction of a pixel's shift (a face drawn
    alone against one cut from a sheet) is not a difference."""
    b = b.resize(a.size)
    diff = ImageChops.difference(a.filter(ImageFilter.GaussianBlur(2)), b.filter(ImageFilter.GaussianBlur(2)))
    histogram = diff.convert("L").histogram()
    return sum(histogram[40:]) / sum(histogram)


def test_a_saved_card_is_shown_before_its_build_then_as_cut_from_the_file_the_build_wrote(served):
    root, project, preview, sketcher = served
    before = heroes(preview)
    old_front = picture(preview, before[0]["front"])
    path = edit(root, "  - name: Ash Walker\n", "  - name: Ash Runner of the Long Road\n")

    looked = sketcher.look(["sample"], [path])
    assert looked is not None
    game, cards, icons = looked
    assert game == "sample" and [(c.was, c.card.name) for c in cards] == [
        (("Ash Walker", 10), "Ash Runner of the Long Road")
    ]
    preview.sketch(game, cards, icons)
    sketched = heroes(preview)
    assert [i["name"] for i in sketched] == ["Ash Runner of the Long Road", "Tide Caller"]
    assert sketched[1] == before[1]  # the other card is as it was
    first = sketched[0]
    assert (
        first["front"].startswith("/img/q") and first["back"] == before[0]["back"]
    )  # the back did not change
    assert first["source"] == before[0]["source"] and first["source"].endswith("sample/decks/heroes.yaml:10")
    assert first["fields"]["colour"] == "ember"
    quick = picture(preview, first["front"])
    assert abs(quick.width - old_front.width) <= 1 and abs(quick.height - old_front.height) <= 1
    assert quick.size == (round(2.5 * DPI), round(3.5 * DPI))  # a poker card's trim at the page's resolution

    (built,) = pipeline.build(project, ["sample"])
    sketcher.remember([built])
    preview.update([built])
    final = heroes(preview)
    assert final[0]["name"] == "Ash Runner of the Long Road"
    assert final[0]["front"] == "/img/" + first["front"][len("/img/q") :]  # the face the build printed, cut
    cut = picture(preview, final[0]["front"])
    assert unlike(quick, cut) < 0.001 and unlike(quick, old_front) > 0.005  # the new face (its name: 1%)


def test_a_sketch_gives_way_to_the_last_good_state_when_its_build_fails(served):
    root, project, preview, sketcher = served
    path = edit(root, "Ash Walker", "Ash Runner")
    preview.sketch(*sketcher.look(["sample"], [path]))
    assert [i["name"] for i in heroes(preview)] == ["Ash Runner", "Tide Caller"]
    failed = Diagnostics()
    failed.error(Location("content/sample/facts.yaml", 1, 1), "a rule is broken")
    preview.update([GameResult("sample", False, failed)])
    (game,) = preview.state(-1, 0)["games"]
    assert [i["name"] for i in heroes(preview)] == ["Ash Walker", "Tide Caller"]
    assert game["errors"][0]["message"] == "a rule is broken"


def test_only_a_few_changed_cards_are_drawn_ahead_and_anything_else_waits_for_the_build(served, monkeypatch):
    root, project, preview, sketcher = served
    deck = root / HEROES
    good = deck.read_text()

    def look(old: str, new: str, path: str = HEROES):
        changed = edit(root, old, new, path)
        try:
            return sketcher.look(["sample"], [changed])
        finally:
            (root / path).write_text((root / path).read_text().replace(new, old))

    assert look("to move **two** spaces", "to move **three** spaces") is not None
    assert look("count: 5", "count: three") is None  # a content error: the build reports it
    assert look("Ash Walker", "Ash " + "W" * 80) is None  # a card that does not draw: a word too wide
    assert look("    colour: sea\n", "    colour: sea\n  - name: New card\n") is None  # the items would shift
    assert look("kind: cards", "kind: cards  # a comment") is None  # no card changed
    assert sketcher.look(["sample"], [str(root / "content/sample/layouts/hero.yaml")]) is None  # every face
    assert sketcher.look(["sample", "other"], [str(deck)]) is None  # several games: the build shows them
    monkeypatch.setattr(serve_command, "MOST", 1)
    deck.write_text(good.replace("Ash Walker", "Ash Runner").replace("Tide Caller", "Tide Bringer"))
    assert sketcher.look(["sample"], [str(deck)]) is None  # more than a few cards: not a one-card edit
    monkeypatch.setattr(serve_command, "MOST", 2)
    looked = sketcher.look(["sample"], [str(deck)])
    assert looked is not None and [c.card.name for c in looked[1]] == ["Ash Runner", "Tide Bringer"]


def test_the_icons_are_loaded_again_only_when_their_file_changes(served):
    root, project, preview, sketcher = served
    path = edit(root, "Ash Walker", "Ash Runner")
    first = sketcher.look(["sample"], [path])[2]
    assert sketcher.look(["sample"], [path])[2] is first
    icons = root / "content/sample/icons.yaml"
    icons.write_text(icons.read_text() + "\n# touched\n")
    again = sketcher.look(["sample"], [path])[2]
    assert again is not first and again.keys() == first.keys()


@pytest.mark.slow
def test_watch_calls_before_with_the_changed_paths_ahead_of_the_build(tmp_path):
    from pnpgen.commands import watch

    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    root = tmp_path / "p"
    project = Project(root / "content", root / "out", printing=replace(DEFAULT, whole=False))
    stop, events = threading.Event(), []

    def before(games, paths, started):
        events.append(("before", games, sorted({Path(p).name for p in paths})))
        raise RuntimeError("a look ahead that fails")  # the build still runs

    def after(results, started):
        events.append(("after", [r.game for r in results], [r.ok for r in results]))
        if len(events) == 1:
            edit(root, "Ash Walker", "Ash Runner")
        else:
            stop.set()

    said = []
    thread = threading.Thread(
        target=watch.run,
        args=(project, None, lambda text, err: said.append(text), lambda d: None, stop),
        kwargs={"after": after, "before": before},
        daemon=True,
    )
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    assert events == [
        ("after", ["sample"], [True]),
        ("before", ["sample"], ["heroes.yaml"]),
        ("after", ["sample"], [True]),
    ], events
    assert any("internal error: RuntimeError: a look ahead that fails" in s for s in said), said


def test_a_game_built_in_a_worker_process_is_read_again_to_be_remembered(served):
    """Several games build in worker processes, whose results come back without their model: the sketcher reads
    the game itself, and the next save of a card is drawn ahead all the same."""
    root, project, preview, sketcher = served
    (built,) = pipeline.build(project, ["sample"])
    fresh = Sketcher(project)
    fresh.remember([replace(built, model=None)])
    path = edit(root, "Tide Caller", "Tide Bringer")
    looked = fresh.look(["sample"], [path])
    assert looked is not None and [(c.was, c.card.name) for c in looked[1]] == [
        (("Tide Caller", 13), "Tide Bringer")
    ]
