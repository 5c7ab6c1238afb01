"""The foundation's promises, measured on written files: outputs claimed before drawing, a game written all or
nothing, freshness from recorded inputs (new chapters, art under a rulebook picture, shadowing layouts), an
untrusted manifest, and the rules check owned by every command that builds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, fast_once, run_cli

from pnpgen.errors import Diagnostics, Location
from pnpgen.pipeline import outputs


def build(root, *extra):
    return run_cli("build", "--out", "out", *extra, cwd=root)


def files_of(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def rendered(result) -> str:
    return result.output.strip().splitlines()[-1]


def test_two_outputs_claiming_one_file_is_an_error_naming_both(project):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text("# Sample\n\nPlay.\n")
    deck = (game / "decks" / "minis.yaml").read_text().replace("id: minis", "id: rulebook")
    (game / "decks" / "minis.yaml").write_text(deck)
    (game / "facts.yaml").unlink()
    result = build(root)
    assert result.exit_code == 1
    assert (
        "content/sample/rulebook.md: error: the rulebook (content/sample/rulebook.md) would write 'rulebook.pdf', "
        "which deck 'rulebook' (content/sample/decks/minis.yaml:1:1) writes too" in result.output
    )
    assert not (root / "out" / "sample").exists()


def test_claims_cover_a_board_full_size_file():
    class Fake(outputs.Target):
        def __init__(self, kind, cid, names):
            super().__init__(cid, Location(f"{cid}.yaml", 1, 1))
            self.kind, self._names = kind, names

        def names(self):
            return self._names

        def prepare(self, run, diags):
            return True

    diags = Diagnostics()
    board = Fake("board", "map", ["map.pdf", "map-full.pdf"])
    deck = Fake("cards", "map-full", ["map-full.pdf"])
    assert not outputs.claim([board, deck], diags)
    assert (
        diags.errors[0].message
        == "deck 'map-full' (map-full.yaml:1:1) would write 'map-full.pdf', which board 'map' (map.yaml:1:1) writes too"
    )


def test_a_failure_found_while_writing_changes_nothing(project, monkeypatch):
    root = project("basic")
    assert build(root).exit_code == 0
    out = root / "out" / "sample"
    before = files_of(out)
    for name in ("heroes", "minis"):  # both decks are stale now
        path = root / "content" / "sample" / "decks" / f"{name}.yaml"
        path.write_text(path.read_text() + "\n# edited\n")
    original = outputs.DeckSheets.write

    def failing(self, path, name, w):
        if name == "minis.pdf":
            raise OSError(28, "No space left on device")
        return original(self, path, name, w)

    monkeypatch.setattr(outputs.DeckSheets, "write", failing)
    result = build(root)
    assert result.exit_code == 1
    assert (
        "content/sample/decks/minis.yaml:1:1: error: could not write minis.pdf: No space left on device"
        in (result.output)
    )
    assert files_of(out) == before  # heroes.pdf was written too, but only into the staging folder
    assert sorted(p.name for p in (root / "out").iterdir()) == ["sample"]  # no staging folder left


def test_a_manifest_naming_files_outside_its_folder_removes_nothing(project):
    root = project("basic")
    assert build(root).exit_code == 0
    victim = root / "victim.pdf"
    victim.write_bytes(b"precious")
    (root / "out" / "sample" / "notes.txt").write_text("the designer's")
    manifest = root / "out" / "sample" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["files"].append({**data["files"][0], "path": "../../victim.pdf", "component": "gone"})
    manifest.write_text(json.dumps(data))
    assert build(root).exit_code == 0  # a manifest of the wrong shape counts as absent: all rebuilt
    assert victim.read_bytes() == b"precious"
    assert (root / "out" / "sample" / "notes.txt").exists()


def test_an_output_folder_that_is_a_link_is_refused(project, tmp_path):
    root = project("basic")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "out").mkdir()
    (root / "out" / "sample").symlink_to(elsewhere)
    result = build(root)
    assert result.exit_code == 1
    assert "out/sample: error: the output folder is a link; refusing to write through it" in result.output
    assert list(elsewhere.iterdir()) == []


def test_a_new_rulebook_chapter_rebuilds_the_rulebook_only(project):
    root = project("basic")
    chapters = root / "content" / "sample" / "rulebook"
    chapters.mkdir()
    (chapters / "01-intro.md").write_text("# Sample\n\n## Goal\n\nWin.\n")
    assert build(root).exit_code == 0
    (chapters / "02-setup.md").write_text("## Setup\n\nDeal {{ components['heroes'].faces }} cards.\n")
    result = build(root)
    assert result.exit_code == 0
    assert "1 rendered, 3 up to date" in result.output  # the book; the decks and print-all are kept


def test_art_under_a_rulebook_picture_rebuilds_the_book(project):
    from PIL import Image

    root = project("basic")
    game = root / "content" / "sample"
    layout = game / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text() + "  - {type: image, src: split.png, x: 3, y: 60, w: 20, h: 20}\n")
    (game / "rulebook.md").write_text("# Sample\n\n## Cards\n\n{{ picture('heroes') }}\n")
    Image.new("RGB", (400, 400), "#aa0000").save(game / "art" / "split.png")
    assert build(root).exit_code == 0
    book = (root / "out" / "sample" / "rulebook.pdf").read_bytes()
    Image.new("RGB", (400, 400), "#0000aa").save(game / "art" / "split.png")
    result = build(root)
    assert (
        result.exit_code == 0 and "4 rendered" in result.output
    )  # both decks draw it, the book shows it, and print-all prints the decks
    assert (root / "out" / "sample" / "rulebook.pdf").read_bytes() != book


def test_an_edit_the_rulebook_does_not_show_leaves_it(project):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text("# Sample\n\n## Cards\n\n{{ picture('heroes') }} {{ game.title }}\n")
    assert build(root).exit_code == 0
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("when a neighbour plays water", "when a neighbour plays rain"))
    result = build(root)
    assert (
        "2 rendered, 2 up to date" in result.output
    )  # the deck and print-all; the book: the card is not pictured
    deck.write_text(deck.read_text().replace("name: Ash Walker", "name: Ash Strider"))
    assert "3 rendered, 1 up to date" in build(root).output  # the first card is


def test_a_board_only_rebuild_succeeds(tmp_path, shipped_build):
    """A build whose only stale output is a board used to fail with a font error reported as a usage error."""
    shutil.copytree(ROOT / "content" / "river", tmp_path / "content" / "river")
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    # River's good output from the session's build, not built again: the copy is up to date
    shutil.copytree(shipped_build / "river", tmp_path / "out" / "river")
    assert run_cli("build", "--out", "out", cwd=tmp_path).exit_code == 0
    board = tmp_path / "content" / "river" / "boards" / "dice.yaml"
    board.write_text(board.read_text() + "\n# touched\n")
    result = run_cli("build", "--out", "out", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "(3 rendered," in result.output  # the board's two files and print-all


@pytest.mark.parametrize("command", [("build",), ("export", "png", "sample"), ("export", "tts", "sample")])
def test_every_command_that_builds_runs_the_rules_check(project, command):
    root = project("basic")
    facts = root / "content" / "sample" / "facts.yaml"
    facts.write_text(facts.read_text().replace("total: 20", "total: 21"))
    result = run_cli(*command, "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/facts.yaml:15:12" in result.output
        and "rules check: minis: 20 Mini cards" in result.output
    )
    assert run_cli(*command, "--out", "out", "--no-check", cwd=root).exit_code == 0


def test_a_field_no_layout_reads_is_a_warning_with_did_you_mean(project):
    root = project("basic")
    deck = root / "content" / "sample" / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("    colour: sea", "    color: sea"))  # read with a default
    facts = root / "content" / "sample" / "facts.yaml"
    facts.unlink()  # the facts count by colour: they would fail first
    result = build(root)
    assert result.exit_code == 0, result.output
    assert (
        "content/sample/decks/heroes.yaml:14:5: warning: no layout of deck 'heroes' reads the field 'color' "
        "(first given on card 'Tide Caller')\n  did you mean 'colour'?" in result.output
    )
    assert build(root, "--strict").exit_code == 1


def test_a_cards_id_is_never_a_field_no_layout_reads(project):
    """`id` is a card's key (as `name` and `count` are): without facts or a rulebook naming the word, it was
    warned about as a field no layout reads."""
    root = project("basic")
    deck = root / "content" / "sample" / "decks" / "heroes.yaml"
    deck.write_text(
        deck.read_text().replace("  - name: Tide Caller\n", "  - name: Tide Caller\n    id: tide\n")
    )
    (root / "content" / "sample" / "facts.yaml").unlink()
    result = build(root)
    assert result.exit_code == 0, result.output
    assert "reads the field" not in result.output, result.output


def test_a_rulebook_added_to_a_game_without_one_is_noticed(project):
    root = project("basic")
    assert build(root).exit_code == 0
    assert build(root).output.strip() == "up to date sample"
    (root / "content" / "sample" / "rulebook.md").write_text("# Sample\n\n## Goal\n\nWin.\n")
    result = build(root)
    # the book, and print-all, whose first page now names it
    assert result.exit_code == 0 and "(2 rendered, 2 up to date)" in result.output, result.output
    assert (root / "out" / "sample" / "rulebook.pdf").is_file()


def test_the_biggest_games_start_first_and_results_keep_their_order(tmp_path, monkeypatch):
    """Five games on two workers end together when the two biggest start first, not whichever sorts first."""
    import pnpgen.pipeline as pipeline
    import pnpgen.pipeline.jobs as jobs
    from pnpgen.project import Project

    content = tmp_path / "content"
    for name, size in (("a", 10), ("b", 50_000), ("c", 300), ("d", 90_000), ("e", 0)):
        (content / name / "art").mkdir(parents=True)
        (content / name / "game.yaml").write_text("id: x\n")
        (content / name / "art" / "big.png").write_bytes(b"\0" * size)
    started: list[str] = []

    def run_parallel(items, work, workers, step, done=None, first=None, free=None):
        started.extend(items[i].name for i in first)
        return [item.name for item in items]

    monkeypatch.setattr(jobs, "run_parallel", run_parallel)
    monkeypatch.setattr(pipeline, "warm", lambda: None)
    results = pipeline._build(Project(content, tmp_path / "out"), None, False, True, 2, lambda name: None)
    assert started == ["d", "b", "c", "a", "e"]
    assert results == ["a", "b", "c", "d", "e"]


def test_a_kept_deck_is_not_drawn_again_to_judge_the_rulebooks_picture(project, monkeypatch):
    """Without print-all (as watch and serve build), an edit to one deck leaves the other deck's sheets kept;
    the rulebook's picture of that deck is then the recorded one, not drawn again to be compared. A change to a
    pictured card still redraws the book."""
    from pnpgen.pipeline.faces import Painter

    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text(
        "# Sample\n\n## Cards\n\n{{ picture('heroes') }} {{ picture('minis') }}\n"
    )
    assert build(root, "--no-print-all").exit_code == 0
    asked: list[str] = []
    first = Painter.first
    monkeypatch.setattr(Painter, "first", lambda self, deck: asked.append(deck.id) or first(self, deck))
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("when a neighbour plays water", "when a neighbour plays rain"))
    result = build(root, "--no-print-all")
    assert result.exit_code == 0 and "1 rendered, 2 up to date" in result.output  # the deck; minis, the book
    assert "minis" not in asked  # kept: not drawn again
    book = (root / "out" / "sample" / "rulebook.pdf").read_bytes()
    minis = game / "decks" / "minis.yaml"
    minis.write_text(minis.read_text().replace('text: "Tiny."', 'text: "Small."', 1))  # its first card
    result = build(root, "--no-print-all")
    assert result.exit_code == 0 and "2 rendered, 1 up to date" in result.output  # minis and the book
    assert (root / "out" / "sample" / "rulebook.pdf").read_bytes() != book


def test_a_games_longest_files_start_first(monkeypatch):
    """With two workers, the rulebook and print-all start before the decks: the last to start is a short one."""
    from types import SimpleNamespace

    import pnpgen.pipeline.jobs as jobs

    seen: list = []
    monkeypatch.setattr(jobs, "run_parallel", lambda items, *a, first=None, **k: seen.append(first) or [])
    kinds = ["cards", "tokens", "print-all", "cards", "rulebook"]
    jobs.write_all([SimpleNamespace(target=SimpleNamespace(kind=k)) for k in kinds], 2)
    assert seen == [[4, 2, 0, 1, 3]]


def test_a_face_over_its_time_limit_after_drawing_is_the_cards_error_not_a_crash(tmp_path, monkeypatch):
    """A deck arms its time backstop once (`time_limit_each`); a strike that lands outside the face's own
    drawing (here: its low-ink form) is reported at the layout, naming the card, and the next face is limited
    again."""
    import shutil
    import time
    from pathlib import Path

    import pnpgen.pipeline.faces as faces
    from pnpgen.errors import Diagnostics
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project

    root = tmp_path / "p"
    shutil.copytree(Path(__file__).parent / "fixtures" / "basic", root)
    run = GameRun(Project(root / "content", root / "out"), root / "content" / "sample")
    run.load(Diagnostics())

    def slow_low_ink(face):
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
        return face

    monkeypatch.setattr(faces, "MAX_SECONDS", 0.1)
    monkeypatch.setattr(faces, "low_ink", slow_low_ink)
    run.painter.transform = True
    deck = run.game.component("heroes")
    diags = Diagnostics()
    assert run.painter.deck(deck, diags) is None
    texts = [e.format() for e in diags.errors]
    assert texts and all("too much work (more than 0.1 s of computing)" in t for t in texts), texts
    assert all("layouts/" in t and "of deck 'heroes'" in t for t in texts), (
        texts
    )  # at the layout, the card named
    assert (
        "and 1 more" in " ".join(texts) or len(texts) > 1
    )  # every face stopped: the limit set again each time


def test_the_architectures_example_output_builds_claims_and_stays_fresh(project, monkeypatch):
    """ARCHITECTURE.md's example of a new output, taken from the page as it is written: one class and one line in
    `targets_of` give a file, its manifest entry with what it read, and freshness (kept until its deck changes)."""
    import re

    from pnpgen import pipeline
    from pnpgen.pipeline.target import Target
    from pnpgen.project import Project

    page = (ROOT / "ARCHITECTURE.md").read_text()
    code = re.search(r"```python\n(class FirstCard\(Target\):.*?)```", page, re.S)
    assert code is not None
    scope: dict = {"Target": Target}
    exec(code.group(1), scope)
    made = outputs.targets_of

    def targets_of(game, *args, **kwargs):
        decks = [scope["FirstCard"](deck) for deck in game.components if hasattr(deck, "cards")]
        return made(game, *args, **kwargs) + decks

    monkeypatch.setattr(outputs, "targets_of", targets_of)
    root = project("basic")
    p = Project(root / "content", root / "out")
    (first,) = pipeline.build(p, None, check=False, workers=1)
    assert first.ok, [str(d) for d in first.diagnostics.errors]
    out = root / "out" / "sample"
    entry = next(
        e for e in json.loads((out / "manifest.json").read_text())["files"] if e["kind"] == "first-card"
    )
    assert (
        entry["path"] == "heroes-first.pdf" and entry["pages"] == 1 and (out / "heroes-first.pdf").is_file()
    )
    assert "content/sample/decks/heroes.yaml" in entry["inputs"]
    assert any(key.endswith(".yaml") and "layouts/" in key for key in entry["inputs"])  # read while drawn
    before = (out / "heroes-first.pdf").read_bytes()
    (again,) = pipeline.build(p, None, check=False, workers=1)
    assert again.rendered == []
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("Ash Walker", "Ash Strider"))
    (third,) = pipeline.build(p, None, check=False, workers=1)
    assert "heroes" in third.rendered and (out / "heroes-first.pdf").read_bytes() != before


def _fails_its_check(game: Path) -> str:
    facts = game / "facts.yaml"
    facts.write_text(facts.read_text().replace("total: 20", "total: 21"))
    return "content/sample/facts.yaml:15:12"


def _fails_its_rulebook(game: Path) -> str:
    (game / "rulebook.md").write_text("# Sample\n\n{{ picture('nosuch') }}\n")
    return "content/sample/rulebook.md:3:1: error: template error: picture(): no component"


# -j 1: the check before the files are written; -j 2: beside the writers (a rulebook's error stops it before)
@pytest.mark.parametrize("jobs", fast_once(["2", "1"]))
@pytest.mark.parametrize("breaks", [_fails_its_check, _fails_its_rulebook])
def test_a_game_failing_its_check_or_rulebook_keeps_its_last_good_output(project, jobs, breaks):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text("# Sample\n\nPlay.\n")
    assert build(root, "-j", jobs).exit_code == 0
    before = files_of(root / "out" / "sample")
    assert "rulebook.pdf" in before
    deck = game / "decks" / "minis.yaml"
    deck.write_text(deck.read_text() + "\n# touched: the deck's files are drawn and written again\n")
    good = {p: p.read_text() for p in (game / "facts.yaml", game / "rulebook.md")}
    expected = breaks(game)
    result = build(root, "-j", jobs)
    assert result.exit_code == 1
    assert expected in result.output and "Traceback" not in result.output
    assert files_of(root / "out" / "sample") == before  # nothing written, the manifest included
    assert sorted(p.name for p in (root / "out").iterdir()) == ["sample"]  # no staging folder left
    for path, text in good.items():
        path.write_text(text)
    result = build(root, "-j", jobs)
    assert result.exit_code == 0, result.output
    assert files_of(root / "out" / "sample") != before
