"""A resident process (watch, serve) keeps what does not change between its builds: YAML parses (re-parsed only
when a file's text changes, still read, confined and recorded every time), and its build modules and fonts,
loaded before the first build. None of it may change what a build writes."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import FIXTURES, fast_once, run_cli

from pnpgen.inputs import Reader
from pnpgen.project import Project

ROOT = Path(__file__).resolve().parent.parent


def test_a_file_is_parsed_again_only_when_its_text_changed(tmp_path):
    game = tmp_path / "g"
    game.mkdir()
    deck = game / "deck.yaml"
    deck.write_text("cards:\n  - name: Ash\n")
    parsed: dict = {}
    first = Reader([game], tmp_path, parsed)
    with first.recording() as read:
        a = first.load_yaml(deck)
    assert a["cards"][0]["name"] == "Ash" and "g/deck.yaml" in read
    second = Reader([game], tmp_path, parsed)  # the next build's reader
    with second.recording() as read:
        assert second.load_yaml(deck) is a  # the same parse, and the read recorded all the same
    assert read and "g/deck.yaml" in read
    deck.write_text("cards:\n  - name: Oak\n")
    third = Reader([game], tmp_path, parsed)
    b = third.load_yaml(deck)
    assert b is not a and b["cards"][0]["name"] == "Oak" and a["cards"][0]["name"] == "Ash"
    deck.write_text("cards: [\n")  # broken: its error every time, and the last good parse is not served
    for _ in range(2):
        with pytest.raises(Exception, match="invalid YAML"):
            Reader([game], tmp_path, parsed).load_yaml(deck)


def test_a_kept_parse_is_still_confined(tmp_path):
    game, outside = tmp_path / "g", tmp_path / "elsewhere"
    game.mkdir()
    outside.mkdir()
    (outside / "secret.yaml").write_text("a: 1\n")
    parsed: dict = {}
    (game / "deck.yaml").write_text("a: 1\n")
    Reader([game], tmp_path, parsed).load_yaml(game / "deck.yaml")
    (game / "deck.yaml").unlink()
    (game / "deck.yaml").symlink_to(outside / "secret.yaml")  # the same text, now through a link out
    with pytest.raises(Exception, match="leaves the game folder; refused"):
        Reader([game], tmp_path, parsed).load_yaml(game / "deck.yaml")


def test_only_a_resident_project_keeps_parses(tmp_path):
    project = Project(ROOT / "content", tmp_path / "out")
    assert project.reader(ROOT / "content" / "deity")._parsed is None and not project.memo.keeps
    resident = replace(project, resident=True)
    assert resident.reader(ROOT / "content" / "deity")._parsed is resident.memo.parses is not None
    assert replace(resident, out=tmp_path / "o2").memo is resident.memo  # kept across its builds


@pytest.mark.slow
def test_kept_parses_are_never_changed_by_a_build_and_change_no_byte(tmp_path):
    """The five games built twice by one resident project: the second build, from the first's parses, writes the
    same bytes, and no parse was changed by either build (a change would leak into the next)."""
    from pnpgen import pipeline

    project = Project(ROOT / "content", tmp_path / "one", resident=True)
    assert all(r.ok for r in pipeline.build(project, None, workers=1))
    before = {name: repr(data) for name, (_, data) in project.memo.parses.items()}
    assert len(before) > 50
    again = replace(project, out=tmp_path / "two")
    assert all(r.ok for r in pipeline.build(again, None, workers=1))
    assert {name: repr(data) for name, (_, data) in project.memo.parses.items()} == before
    one = {
        p.relative_to(tmp_path / "one"): p.read_bytes() for p in (tmp_path / "one").rglob("*") if p.is_file()
    }
    two = {
        p.relative_to(tmp_path / "two"): p.read_bytes() for p in (tmp_path / "two").rglob("*") if p.is_file()
    }
    assert one.keys() == two.keys()
    assert [k for k in one if one[k] != two[k]] == []


def test_a_resident_process_loads_fonts_before_its_first_build(tmp_path):
    """watch and serve register the shipped fonts in their own process before the first build, so the writers
    forked for each build inherit them; a one-off build registers only what it draws."""
    import shutil
    import subprocess
    import sys

    shutil.copytree(ROOT / "tests" / "fixtures" / "basic", tmp_path / "p")
    code = (
        "import sys; from pathlib import Path; from pnpgen.project import Project; from pnpgen import pipeline;"
        "from pnpgen.text.fonts import FONT_NAMES, pdf_name;"
        "p = Project(Path('content'), Path(sys.argv[2]), resident=sys.argv[1] == 'yes');"
        "assert all(r.ok for r in pipeline.build(p, None));"
        "print(pdf_name.cache_info().currsize, len(FONT_NAMES))"
    )
    counts = {}
    for resident in ("yes", "no"):
        done = subprocess.run(
            [sys.executable, "-c", code, resident, f"out-{resident}"],
            cwd=tmp_path / "p",
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PNPGEN_CACHE": "off"},
        )
        assert done.returncode == 0, done.stderr
        counts[resident] = [int(n) for n in done.stdout.split()]
    registered, shipped = counts["yes"]
    assert registered >= shipped
    assert counts["no"][0] < shipped


def _diagram_project(tmp_path) -> Path:
    import shutil

    support = ROOT / "tests" / "broken" / "support"
    root = tmp_path / "p"
    shutil.copytree(ROOT / "tests" / "fixtures" / "basic", root)
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text((support / "diagram-rulebook.md").read_text())
    (game / "diagrams").mkdir()
    (game / "diagrams" / "table.yaml").write_text((support / "diagram-table.yaml").read_text())
    return root


def test_a_resident_build_does_not_plan_again_a_diagram_whose_pieces_are_kept(tmp_path, monkeypatch):
    """watch and serve remember which components each diagram drew on: an edit to another deck keeps the
    rulebook without planning the diagram again; an edit to a card it shows, or to its file, redraws the book."""
    from dataclasses import replace as copy

    import pnpgen.rulebook.diagrams as diagrams
    from pnpgen import pipeline
    from pnpgen.imposition.duplex import DEFAULT

    root = _diagram_project(tmp_path)
    project = Project(root / "content", root / "out", "a4", copy(DEFAULT, whole=False), (), resident=True)
    planned: list[str] = []
    load = diagrams.load_diagram
    monkeypatch.setattr(
        diagrams, "load_diagram", lambda run, d, *a, **k: planned.append(d) or load(run, d, *a, **k)
    )

    def build() -> list[str]:
        planned.clear()
        (result,) = pipeline.build(project, None, check=False, workers=1)  # the check counts no Bolts
        assert result.ok, [str(d) for d in result.diagnostics.errors]
        return result.rendered

    minis = root / "content" / "sample" / "decks" / "minis.yaml"
    pictured = minis.read_text().replace("cards:\n", "picture: Spark\ncards:\n")  # the card its book shows
    minis.write_text(pictured + '  - name: Bolt\n    count: 2\n    text: "Zap."\n')
    assert "rulebook" in build() and planned == ["table"]
    minis.write_text(minis.read_text().replace('text: "Zap."', 'text: "Zip."'))  # not its pictured card
    assert build() == ["minis"] and planned == []  # heroes, the diagram's only pieces, are kept
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("Gain :drop:", "Take :drop:"))  # Tide Caller's text, on B1
    assert build() == ["heroes", "rulebook"] and set(planned) == {"table"}  # judged, then drawn
    table = root / "content" / "sample" / "diagrams" / "table.yaml"
    table.write_text(table.read_text().replace('text: "here"', 'text: "there"'))
    assert build() == ["rulebook"]
    minis.write_text(minis.read_text().replace('text: "Zip."', 'text: "Zap."'))
    assert build() == ["minis"] and planned == []
    # a one-off build (not resident) knows the same from the rulebook's manifest entry (`shown`)
    planned.clear()
    minis.write_text(minis.read_text().replace('text: "Zap."', 'text: "Zop."'))
    (result,) = pipeline.build(copy(project, resident=False), None, check=False, workers=1)
    assert result.rendered == ["minis"] and planned == []


@pytest.mark.parametrize(
    "spoil",
    fast_once(
        [
            pytest.param(lambda shown: shown.clear(), id="no-record"),  # a manifest written before `shown`
            pytest.param(lambda shown: shown["diagram/table"].update(digest="0" * 16), id="other-digest"),
            pytest.param(lambda shown: shown["diagram/table"].update(game="0" * 16), id="other-game"),
            pytest.param(
                lambda shown: shown["diagram/table"].update(used=["heroes", "minis"]), id="edited-piece"
            ),
        ]
    ),
)
def test_a_one_off_build_plans_a_diagram_its_manifest_does_not_vouch_for(tmp_path, monkeypatch, spoil):
    """A build that is not resident takes a diagram as it was only when the rulebook's manifest entry says what it
    drew on, with the same digest and game files, and all of it is kept: otherwise it plans it, and the book's
    bytes are what a build from scratch writes."""
    import json
    from dataclasses import replace as copy

    import pnpgen.pipeline.manifest as pnpgen_manifest
    import pnpgen.rulebook.diagrams as diagrams
    from pnpgen import pipeline
    from pnpgen.imposition.duplex import DEFAULT

    root = _diagram_project(tmp_path)
    minis = root / "content" / "sample" / "decks" / "minis.yaml"
    pictured = minis.read_text().replace("cards:\n", "picture: Spark\ncards:\n")  # the card its book shows
    minis.write_text(pictured + '  - name: Bolt\n    text: "Zap."\n')
    project = Project(root / "content", root / "out", "a4", copy(DEFAULT, whole=False), ())
    (result,) = pipeline.build(project, None, check=False, workers=1)
    assert result.ok
    manifest = root / "out" / "sample" / "manifest.json"
    data = json.loads(manifest.read_text())
    (book,) = [e for e in data["files"] if e["kind"] == "rulebook"]
    assert set(book["shown"]) == {"diagram/table"} and book["shown"]["diagram/table"]["used"] == ["heroes"]
    spoil(book["shown"])
    data.pop("seal")
    pnpgen_manifest.write(manifest, data)  # sealed again: as a build of pnpgen could leave it
    planned: list[str] = []
    load = diagrams.load_diagram
    monkeypatch.setattr(
        diagrams, "load_diagram", lambda run, d, *a, **k: planned.append(d) or load(run, d, *a, **k)
    )
    minis.write_text(minis.read_text().replace('text: "Zap."', 'text: "Zip."'))  # not a card its book shows
    (result,) = pipeline.build(project, None, check=False, workers=1)
    assert result.ok and planned == ["table"] and result.rendered == ["minis"]
    before = (root / "out" / "sample" / "rulebook.pdf").read_bytes()
    (result,) = pipeline.build(copy(project, out=root / "clean"), None, check=False, workers=1)
    assert (root / "clean" / "sample" / "rulebook.pdf").read_bytes() == before


def test_a_pictured_cards_change_is_found_before_any_diagram_is_planned(tmp_path, monkeypatch):
    """Judging the rulebook, pictures come before diagrams: a change to a deck's first card redraws the book
    without planning its diagrams once to judge and once more to draw."""
    import pnpgen.rulebook.diagrams as diagrams
    from pnpgen import pipeline

    root = _diagram_project(tmp_path)
    project = Project(root / "content", root / "out")
    assert all(r.ok for r in pipeline.build(project, None, check=False, workers=1))
    planned: list[str] = []
    load = diagrams.load_diagram
    monkeypatch.setattr(
        diagrams, "load_diagram", lambda run, d, *a, **k: planned.append(d) or load(run, d, *a, **k)
    )
    minis = root / "content" / "sample" / "decks" / "minis.yaml"
    minis.write_text(minis.read_text().replace('text: "Tiny."', 'text: "Small."', 1))  # its first card
    (result,) = pipeline.build(project, None, check=False, workers=1)
    assert result.ok and "rulebook" in result.rendered
    assert planned == ["table"]  # drawn once; judging stopped at the picture


def test_a_resident_build_pictures_a_kept_deck_without_drawing_it_again(tmp_path, monkeypatch):
    """A rulebook redrawn for one deck's edit takes the other decks' pictures from the build before (what drawing
    them read recorded all the same), and is the same file a one-off build writes; a change to the game's own
    file draws them again."""
    import shutil
    from dataclasses import replace as copy

    from pnpgen import pipeline
    from pnpgen.imposition.duplex import DEFAULT
    from pnpgen.pipeline.faces import Painter

    root = tmp_path / "p"
    shutil.copytree(ROOT / "tests" / "fixtures" / "basic", root)
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text(
        "# Sample\n\n## Cards\n\n{{ picture('heroes') }} {{ picture('minis') }}\n"
    )
    project = Project(root / "content", root / "out", "a4", copy(DEFAULT, whole=False), (), resident=True)
    drawn: list[tuple[str, int]] = []
    card = Painter.card
    monkeypatch.setattr(
        Painter,
        "card",
        lambda self, deck, c, *a, **k: drawn.append((deck.id, c.index)) or card(self, deck, c, *a, **k),
    )

    def build(p=project, out="out") -> list[str]:
        drawn.clear()
        (result,) = pipeline.build(copy(p, out=root / out), None, check=False, workers=1)
        assert result.ok, [str(d) for d in result.diagnostics.errors]
        return result.rendered

    assert "rulebook" in build()
    heroes = game / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("Ash Walker", "Ash Strider"))  # its first card: pictured
    assert build() == ["heroes", "rulebook"]
    assert ("minis", 1) not in drawn  # minis is kept: its picture is the one drawn before
    assert build(copy(project, resident=False), "once") and ("minis", 1) in drawn  # a one-off build draws it
    for name in ("rulebook.pdf", "heroes.pdf"):
        assert (root / "out" / "sample" / name).read_bytes() == (root / "once" / "sample" / name).read_bytes()
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "\n")  # the game's own file changed
    heroes.write_text(heroes.read_text().replace("Ash Strider", "Ash Walker"))
    assert "rulebook" in build() and ("minis", 1) in drawn


def test_a_rulebook_source_is_tokenized_again_only_when_its_text_changed(tmp_path, monkeypatch):
    """A resident process keeps each Markdown source's last text and tokens: the same text gives the same blocks
    without tokenizing it again; another text is tokenized."""
    import markdown_it

    from pnpgen.errors import Diagnostics
    from pnpgen.rulebook.markdown import parse

    calls: list[str] = []
    real = markdown_it.MarkdownIt.parse
    monkeypatch.setattr(
        markdown_it.MarkdownIt, "parse", lambda self, text, *a: calls.append(text) or real(self, text, *a)
    )
    kept: dict = {}
    src = tmp_path / "rulebook.md"
    text = "# Game\n\n## Setup\n\nDeal **five** cards.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    first = parse(text, src, Diagnostics(), kept=kept)
    again = parse(text, src, Diagnostics(), kept=kept)
    assert calls == [text] and repr(again.blocks) == repr(first.blocks) and again.title == "Game"
    other = parse(text.replace("five", "six"), src, Diagnostics(), kept=kept)
    assert len(calls) == 2 and "six" in repr(other.blocks)
    assert repr(parse(text, src, Diagnostics()).blocks) == repr(first.blocks)  # not resident: nothing kept


SUPPORT = Path(__file__).parent / "broken" / "support"


def _bad_shown(real: dict):
    """Wrong shapes of the rulebook entry's `shown`, the last with the true digests (so that `used` is read)."""
    entry = real["diagram/table"]
    return {
        "a-list": [1],
        "a-text": "diagram/table",
        "used-holds-a-list": {"diagram/table": {**entry, "used": [["heroes"]]}},
        "used-holds-a-mapping": {"diagram/table": {**entry, "used": [{}]}},
    }


@pytest.mark.parametrize(
    "shape", fast_once(["a-list", "a-text", "used-holds-a-list", "used-holds-a-mapping"])
)
def test_a_hand_edited_shown_is_no_manifest(tmp_path, shape):
    """A manifest is untrusted data: a rulebook entry whose `shown` has the wrong shape must count as no `shown`
    (`manifest.valid`: the manifest is no manifest), and the book be what a clean build writes."""
    root = tmp_path / "basic"
    shutil.copytree(FIXTURES / "basic", root)
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text((SUPPORT / "diagram-rulebook.md").read_text())
    (game / "diagrams").mkdir()
    (game / "diagrams" / "table.yaml").write_text((SUPPORT / "diagram-table.yaml").read_text())
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    manifest = root / "out" / "sample" / "manifest.json"
    data = json.loads(manifest.read_text())
    (book,) = [e for e in data["files"] if e["kind"] == "rulebook"]
    book["shown"] = _bad_shown(book["shown"])[shape]
    manifest.write_text(json.dumps(data))
    heroes = game / "decks" / "heroes.yaml"  # a card no diagram shows: the rulebook's values are judged again
    heroes.write_text(heroes.read_text().replace("when a neighbour", "when a friend"))
    again = run_cli("build", "--out", "out", cwd=root)
    assert again.exit_code == 0, again.output
    assert "internal error" not in again.output
    assert run_cli("build", "--out", "clean", cwd=root).exit_code == 0
    for name in ("rulebook.pdf", "manifest.json"):
        assert (root / "out" / "sample" / name).read_bytes() == (
            root / "clean" / "sample" / name
        ).read_bytes()
