"""The rulebook's pictures cannot lie: every diagram names its pieces by a stable id or name (reordering a
component's file changes no diagram), obeys its game's rules (facts.yaml's `rules`), prints worked numbers that
the rules' expressions compute (`measures`), and never sets an arrow's label over its arrow."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import fast_once, run_cli

from pnpgen.errors import Diagnostics
from pnpgen.rulebook.crops import arrow_label_centre, arrow_label_spots, box_meets_segment, label_half

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
GAMES = sorted(p.name for p in CONTENT.iterdir() if (p / "diagrams").is_dir())
ITEMS = ("cards", "tiles", "tokens")


def copy_game(tmp_path: Path, game: str) -> Path:
    """A project holding one shipped game and the shared layouts; returns the project's root."""
    root = tmp_path / "p"
    shutil.copytree(CONTENT / game, root / "content" / game)
    shutil.copytree(REPO / "layouts", root / "layouts")
    return root


def plans(root: Path, game: str) -> dict:
    """Every diagram of the game (and so the cover's art) planned: its draw operations as stable text."""
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project
    from pnpgen.rulebook import load_rulebook
    from pnpgen.rulebook.diagrams import load_diagram

    run = GameRun(Project(root / "content", root / "out"), root / "content" / game)
    run.load(Diagnostics())
    diags = Diagnostics()
    out = {}
    for path in sorted((root / "content" / game / "diagrams").glob("*.yaml")):
        plan = load_diagram(run, path.stem, diags)
        out[path.stem] = plan.snapshot() if plan is not None else None
    book, _, pictured = load_rulebook(run, diags)  # and every picture(id, card) of the rulebook
    for (component, card), faces in sorted(book.cards.items()):
        out[f"picture {component} {card}"] = "\n".join(f.snapshot() if f else "" for f in faces)
    for component, faces in sorted(
        pictured.items()
    ):  # the component table's, picture(id)'s, a default cover's
        out[f"pictured {component}"] = "\n".join(f.snapshot() if f else "" for f in faces)
    assert not diags.errors, [d.format() for d in diags.errors]
    return out


def reverse_every_component(game_root: Path) -> int:
    """Turn round the list of cards, tiles or tokens of every component file; returns how many changed."""
    changed = 0
    load = getattr(
        yaml, "CSafeLoader", yaml.SafeLoader
    )  # libyaml: a tenth of pure Python's time, same schema
    for path in sorted(game_root.rglob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=load)
        if not isinstance(data, dict) or "kind" not in data:
            continue
        for key in ITEMS:
            if isinstance(data.get(key), list) and len(data[key]) > 1:
                data[key].reverse()
                path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
                changed += 1
    return changed


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_reordering_every_component_file_changes_no_diagram(tmp_path, game):
    root = copy_game(tmp_path, game)
    before = plans(root, game)
    assert before and all(before.values())
    assert reverse_every_component(root / "content" / game) > 0
    after = plans(root, game)
    assert after == before, [d for d in before if before[d] != after[d]]


def test_every_diagram_of_the_five_books_obeys_its_games_rules():
    result = run_cli("check", cwd=REPO)
    assert result.exit_code == 0, result.output
    for game in ("orbis", "seven-gods", "elements-of-the-gods", "deity", "river"):
        facts = yaml.safe_load((CONTENT / game / "facts.yaml").read_text(encoding="utf-8"))
        assert facts.get("rules"), f"{game} states no rules for its diagrams"


# (game, diagram file, {text replaced: by}, the line reported, the rule broken)
BREAKS = [
    ("orbis", "pyramid", {"farm-yellow, at: [2.5, 3]": "farm-blue, at: [2.5, 3]"}, 15, "colour-match"),
    ("orbis", "cover", {"farm-yellow, at: [2.5, 3]": "farm-blue, at: [2.5, 3]"}, 12, "colour-match"),
    ("orbis", "central-area", {"card: stone-yellow, at: B2": "card: stone-red, at: B2"}, 30, "feeds"),
    (
        "seven-gods",
        "cover",
        {
            "Ixchel, at: [12, 6.83]": "Ixchel, at: [12, 6.17]",
            "Yemaya, at: [13, 7.17]": "Yemaya, at: [12, 6.2]",
        },
        11,
        "two-envoys-a-space",
    ),
    (
        "elements-of-the-gods",
        "monuments-gardens",
        {"Black Monument, at: E4": "Black Monument, at: D3"},
        20,
        "monuments-apart",
    ),
    ("elements-of-the-gods", "water", {"card: Zealot, at: D3": "card: Mystic, at: D3"}, 13, "water-gathers"),
    ("elements-of-the-gods", "fire", {"{from: C2, to: C1}": "{from: C2, to: B1}"}, 16, "fire-scatters"),
    ("elements-of-the-gods", "wind", {"to: D4, dashed: true,": "to: D4, dashed: false,"}, 21, "wind-pushes"),
    (
        "elements-of-the-gods",
        "setup-small",
        {"Mystic, at: [2.8, 3]}": "Mystic, at: [2.8, 2]}"},
        48,
        "setup-worshipers",
    ),
    (
        "deity",
        "cover",
        {"Water terrain, back: true, at: [20.05": "Fire terrain, back: true, at: [20.05"},
        25,
        "no-opposing",
    ),
    ("river", "start", {"start-desert, at: E3": "start-farmland, at: E3"}, 13, "start-line"),
    (
        "seven-gods",
        "discovery",
        {"kind: discovers, colour:": "kind: discovers, dashed: true, colour:"},
        15,
        "next-to",
    ),
    (
        "river",
        "neighbours",
        {"to: [5.25, 5.0], kind: moves,": "to: [5.25, 5.0], kind: moves, dashed: true,"},
        22,
        "neighbours",
    ),
    ("river", "attack", {'text: "red 4 2 5"': 'text: "red 4 2"'}, 21, "one-die-a-soldier"),
    ("seven-gods", "persuasion", {"size: 9mm, rotate: -90}": "size: 9mm, rotate: 0}"}, 6, "persuaded"),
    (
        "orbis",
        "irrigation",
        {"stone-yellow, at: [1.5, 2]": "stone-green, at: [1.5, 2]"},
        12,
        "irrigation-validated",
    ),
    ("deity", "placement", {"Earth terrain, at: A3": "Water terrain, at: A3"}, 14, "placement-marks"),
    (
        "orbis",
        "worship",
        {"card: Red Worshiper, at: [4, 2]": "card: Yellow Worshiper, at: [4, 2]"},
        11,
        "pays-cost",
    ),
    ("orbis", "worship", {"to: [6, 3.6], kind: pays,": "to: [6, 3.6],"}, 11, "pays-cost"),
    (
        "seven-gods",
        "setup",
        {"back: true, at: [8, 4.5]": "back: true, at: [10, 4.5]"},
        12,
        "island-placement",
    ),
    ("seven-gods", "setup", {"back: true, at: [8, 4.5]": "back: true, at: [9, 4.5]"}, 12, "island-placement"),
    (
        "seven-gods",
        "setup",
        {"back: true, at: [17, 7.5]": "back: true, at: [19, 1.5]"},
        13,
        "island-placement",
    ),
    ("seven-gods", "cover", {'island", at: [18, 4.5]': 'island", at: [16, 4.5]'}, 10, "island-placement"),
    ("seven-gods", "setup", {"Yemaya, at: [13, 7.17]": "Yemaya, at: [12, 6.9]"}, 18, "envoys-start-apart"),
    ("river", "building", {"soldier, at: [4.7, 5.2]": "soldier, at: [4.7, 3.2]"}, 20, "build-where"),
    ("river", "building", {"camp, at: [6.3, 5.2]": "camp, at: [5.45, 5.35]"}, 15, "one-structure-a-tile"),
]


@pytest.mark.parametrize(
    "game, diagram, swaps, line, rule",
    fast_once(BREAKS),  # make test-fast: the first
    ids=[f"{b[0]}-{b[1]}-{b[4]}" for b in BREAKS],
)
def test_a_piece_that_breaks_its_games_rule_fails_the_check_at_its_line(
    tmp_path, game, diagram, swaps, line, rule
):
    root = copy_game(tmp_path, game)
    path = root / "content" / game / "diagrams" / f"{diagram}.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in swaps.items():
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    result = run_cli("check", game, "--content", "content", cwd=root)
    assert result.exit_code == 1, result.output
    assert f"breaks rule '{rule}" in result.output
    assert f"[content/{game}/diagrams/{diagram}.yaml:{line}:" in result.output, result.output  # and column
    built = run_cli("build", game, "--content", "content", "--out", "out", cwd=root)  # every build checks
    assert built.exit_code == 1 and f"content/{game}/diagrams/{diagram}.yaml:{line}:" in built.output


def test_a_diagram_that_says_it_shows_an_illegal_move_must_break_a_rule(tmp_path):
    root = copy_game(tmp_path, "orbis")
    path = root / "content" / "orbis" / "diagrams" / "pyramid.yaml"
    good = path.read_text(encoding="utf-8")
    path.write_text(good.replace("caption:", "shows: illegal\ncaption:", 1), encoding="utf-8")
    result = run_cli("check", "orbis", "--content", "content", cwd=root)
    assert result.exit_code == 1, result.output
    line = good[: good.index("caption:")].count("\n") + 1
    assert "says 'shows: illegal' but breaks none of the game's rules" in result.output
    assert f"pyramid.yaml:{line}:" in result.output
    wrong = good.replace("card: farm-yellow, at: [2.5, 3]", "card: farm-blue, at: [2.5, 3]")
    path.write_text(wrong.replace("caption:", "shows: illegal\ncaption:", 1), encoding="utf-8")
    result = run_cli("check", "orbis", "--content", "content", cwd=root)
    assert result.exit_code == 0, result.output  # the wrong move is the point of it


def test_a_changed_rule_changes_the_worked_example(tmp_path):
    root = copy_game(tmp_path, "seven-gods")
    shown = plans(root, "seven-gods")["currents"]
    assert "'Odin: card of 4'" in shown and "'Ra: card of 3'" in shown
    facts = root / "content" / "seven-gods" / "facts.yaml"
    text = facts.read_text(encoding="utf-8")
    facts.write_text(
        text.replace('value: "2 if (b[0] - a[0])', 'value: "3 if (b[0] - a[0])'), encoding="utf-8"
    )
    changed = plans(root, "seven-gods")["currents"]
    assert "'Odin: card of 5'" in changed and "'Ra: card of 3'" in changed
    assert (
        "'2 + 4 = 6'" in plans(root, "seven-gods")["persuasion"]
    )  # the tokens' sum, from how they are turned


def test_a_wars_strengths_are_worked_out_by_the_rule(tmp_path):
    root = copy_game(tmp_path, "deity")
    shown = plans(root, "deity")["war"]
    assert "'Water: 4'" in shown and "'Fire: 3'" in shown
    facts = root / "content" / "deity" / "facts.yaml"
    text = facts.read_text(encoding="utf-8")
    assert 'home: "2 if tile == element else (-2 if' in text
    facts.write_text(
        text.replace('home: "2 if tile == element else (-2 if', 'home: "3 if tile == element else (-1 if')
    )
    changed = plans(root, "deity")["war"]
    assert "'Water: 5'" in changed and "'Fire: 4'" in changed


def test_a_rule_that_does_not_evaluate_is_reported_at_its_line_in_facts(tmp_path):
    root = copy_game(tmp_path, "orbis")
    facts = root / "content" / "orbis" / "facts.yaml"
    text = facts.read_text(encoding="utf-8")
    facts.write_text(
        text.replace("holds: \"below(it, 'region') | length == 2\"", "holds: \"below(it, 'region')\"")
    )
    result = run_cli("check", "orbis", "--content", "content", cwd=root)
    assert result.exit_code == 1, result.output
    assert "'holds' must give true or false" in result.output
    assert "content/orbis/facts.yaml:" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("each", "told"),
    [
        ("pieces('region') | map('nosuchfilter')", "No filter named 'nosuchfilter'"),
        ("range(pieces('region')[0].levle)", "undefined value"),
        ("range(10 ** 9)", "more than 1,000,000 items"),
        ("range(20000)", "'each' gives more than 10,000 items"),
    ],
)
def test_an_each_that_fails_as_it_is_read_is_reported_at_its_line(tmp_path, each, told):
    """A sequence `each` gives is made as it is read (`map`, `range`): what fails then is the rule's error at
    `each`'s line, never an internal error."""
    root = copy_game(tmp_path, "orbis")
    facts = root / "content" / "orbis" / "facts.yaml"
    text = facts.read_text(encoding="utf-8")
    first = "each: \"pieces('region') | rejectattr('back')\""
    assert first in text
    facts.write_text(text.replace(first, f'each: "{each}"', 1), encoding="utf-8")
    line = text[: text.index(first)].count("\n") + 1
    result = run_cli("check", "orbis", "--content", "content", cwd=root)
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    reported = next(x for x in result.output.splitlines() if "rule colour-match" in x)
    assert told in reported and re.search(rf"\[content/orbis/facts.yaml:{line}:\d+\]$", reported), reported


@pytest.mark.parametrize("degrees", range(0, 360, 7))
@pytest.mark.parametrize("length, text", [(8.0, "1"), (40.0, "2 + 4 = 6"), (120.0, "to your realm")])
def test_an_arrows_label_never_covers_its_arrow(degrees, length, text):
    a = math.radians(degrees)
    x1, y1 = 100.0, 100.0
    x2, y2 = x1 + length * math.cos(a), y1 + length * math.sin(a)
    for scale in (0.3, 1.0, 2.5):
        hw, hh = (d / scale for d in label_half(text, 7.5))
        cx, cy = arrow_label_centre(x1, y1, x2, y2, hw, hh, 1.5 / scale)
        assert not box_meets_segment(cx, cy, hw, hh, x1, y1, x2, y2)
        # the label stays beside the arrow's middle: no farther than its own size and the gap
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        assert math.hypot(cx - mx, cy - my) <= hw + hh + 1.5 / scale + 1e-6
        # a box at the middle would cover it: the check can fail
        assert box_meets_segment(mx, my, hw, hh, x1, y1, x2, y2)


def shown_pages(pdf_path: Path, captions: list[str]) -> dict:
    """The pages (by number) that hold a diagram's caption, rendered to pixels."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(pdf_path))
    out = {}
    try:
        for i in range(len(doc)):
            text = " ".join(doc[i].get_textpage().get_text_range().split())
            if any(c in text for c in captions):
                out[i] = doc[i].render(scale=0.6).to_pil().tobytes()
    finally:
        doc.close()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_reordering_every_component_file_changes_no_page_that_pictures_pieces(tmp_path, shipped_build, game):
    root = copy_game(tmp_path, game)
    captions = []
    for path in sorted((root / "content" / game / "diagrams").glob("*.yaml")):
        caption = yaml.safe_load(path.read_text(encoding="utf-8"))["caption"]
        if path.stem != "cover":  # the cover's art has no caption; its plan is compared above
            captions.append(" ".join(caption.split())[:40])
    reverse_every_component(root / "content" / game)
    result = run_cli("build", game, "--content", "content", "--out", "after", cwd=root)
    assert result.exit_code == 0, result.output
    before = shown_pages(shipped_build / game / "rulebook.pdf", captions)  # the same game, built as it ships
    after = shown_pages(root / "after" / game / "rulebook.pdf", captions)
    assert len(before) >= min(len(captions), 1)
    assert sorted(after) == sorted(before)
    assert [i for i in before if before[i] != after[i]] == []


def test_a_boards_words_outside_the_view_leave_the_page_text():
    from pnpgen.faces import Face, Rect, Text
    from pnpgen.rulebook.crops import seen_text_only

    face = Face(
        300.0,
        300.0,
        0.0,
        (
            Rect(0, 0, 300, 300, fill="#ffffff"),
            Text(50, 50, "sans", 10, "#000000", "seen"),
            Text(50, 290, "sans", 10, "#000000", "hidden below"),
            Text(280, 50, "sans", 10, "#000000", "partly"),
        ),
    )
    kept = seen_text_only(face, (0.0, 0.0, 200.0, 200.0))
    words = [op.text for op in kept.ops if isinstance(op, Text)]
    assert words == ["seen"]  # "partly" starts past the view too (x 280 of 200)
    assert "hidden below" not in words and len(kept.ops) == len(words) + 1  # shapes stay: the clip cuts them


def test_an_arrows_label_goes_to_the_side_where_it_covers_no_arrow():
    # two arrows side by side, 20 points apart: the first's label may not sit on the second
    arrows = [
        (100.0, 0.0, 100.0, 200.0, "facing: neighbours", "#000", False),
        (120.0, 0.0, 120.0, 200.0, None, "#000", False),
    ]
    (spot, none) = arrow_label_spots(arrows, 1.0)
    assert none is None
    hw, hh = label_half("facing: neighbours", 7.5)
    assert spot[0] < 100.0  # to the left: the right would cover the second arrow
    assert not any(box_meets_segment(*spot, hw, hh, *a[:4]) for a in arrows)


def test_an_attacks_sums_and_outcome_are_worked_out_from_its_dice(tmp_path):
    root = copy_game(tmp_path, "river")
    shown = plans(root, "river")["attack"]
    assert "'Red: 4 + 2 + 5 = 11'" in shown and "'Red 11 < Blue 12: every attacker dies'" in shown
    path = root / "content" / "river" / "diagrams" / "attack.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"red 4 2 5"', '"red 6 6 5"'), encoding="utf-8")
    changed = plans(root, "river")["attack"]
    assert "'Red: 6 + 6 + 5 = 17'" in changed and "'Red 17 > Blue 12: every defender dies'" in changed


def test_the_docs_name_every_name_a_rule_sees():
    from pnpgen.rules import NAMES

    docs = (REPO / "docs" / "content-format.md").read_text(encoding="utf-8")
    table = docs[docs.index("What a rule's expressions see:") : docs.index("### Keys of a rule")]
    for name in NAMES:
        assert f"`{name.split('(')[0]}" in table, name


def without_picture_keys(game_root: Path) -> int:
    """Take every component's `picture:` line out; returns how many went."""
    gone = 0
    for path in sorted(game_root.rglob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith("picture:")]
        if len(kept) != len(lines):
            path.write_text("".join(kept), encoding="utf-8")
            gone += 1
    return gone


@pytest.mark.slow
def test_without_a_picture_key_the_pictured_card_does_not_follow_the_list_order(tmp_path):
    root = copy_game(tmp_path, "river")
    assert without_picture_keys(root / "content" / "river") >= 5
    before = {k: v for k, v in plans(root, "river").items() if k.startswith("pictured ")}
    assert len(before) >= 5
    assert reverse_every_component(root / "content" / "river") > 0
    after = {k: v for k, v in plans(root, "river").items() if k.startswith("pictured ")}
    assert after == before, [k for k in before if before[k] != after.get(k)]


def test_a_components_picture_key_names_the_card_pictured_and_an_unknown_one_is_located(tmp_path):
    root = copy_game(tmp_path, "river")
    path = root / "content" / "river" / "tokens" / "camps.yaml"
    text = path.read_text(encoding="utf-8")
    assert "picture: Blue camp" in text
    blue = plans(root, "river")["pictured camps"]
    path.write_text(text.replace("picture: Blue camp", "picture: Red camp"), encoding="utf-8")
    assert plans(root, "river")["pictured camps"] != blue  # the key chooses the card
    path.write_text(text.replace("picture: Blue camp", "picture: Green camp"), encoding="utf-8")
    line = text[: text.index("picture: Blue camp")].count("\n") + 1
    result = run_cli("build", "river", "--content", "content", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "has no card 'Green camp'" in result.output
    assert f"content/river/tokens/camps.yaml:{line}:" in result.output, result.output


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, least", [("orbis", 4), ("seven-gods", 4), ("elements-of-the-gods", 4), ("river", 4), ("deity", 3)]
)
def test_each_book_pictures_its_rules_on_enough_pages(tmp_path, game, least):
    root = copy_game(tmp_path, game)
    captions = []
    for path in sorted((root / "content" / game / "diagrams").glob("*.yaml")):
        if path.stem != "cover":
            captions.append(
                " ".join(yaml.safe_load(path.read_text(encoding="utf-8"))["caption"].split())[:40]
            )
    result = run_cli("build", game, "--content", "content", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    pages = shown_pages(root / "out" / game / "rulebook.pdf", captions)
    assert len(pages) >= least, sorted(pages)


def test_a_lazy_let_is_the_same_sequence_for_every_use(tmp_path):
    """A rule's `let` that gives a sequence made as it is read (a `map`) is read once: used twice in one `holds`,
    the second use found it empty (one generator for both), and the rule broke where it holds."""
    root = copy_game(tmp_path, "orbis")
    facts = root / "content" / "orbis" / "facts.yaml"
    text = facts.read_text(encoding="utf-8")
    first = "    each: \"pieces('region') | rejectattr('back')\"\n    holds: >-\n"
    assert first in text
    twice = (
        "    let: {colours: \"pieces('region') | map(attribute='colour')\"}\n"
        "    each: \"pieces('region') | rejectattr('back')\"\n"
        "    holds: >-\n      (colours | list | length) == (colours | list | length) and (\n"
    )
    start = text.index(first)
    end = text.index("\n  - id:", start)
    rule = text[start:end].replace(first, twice) + ")"
    facts.write_text(text[:start] + rule + text[end:], encoding="utf-8")
    result = run_cli("check", "orbis", "--content", "content", cwd=root)
    assert result.exit_code == 0, result.output
    assert "colour-match" not in result.output


@pytest.mark.slow  # every shipped rulebook read back: 12 s
@pytest.mark.parametrize("game", GAMES)
def test_no_arrow_of_a_shipped_diagram_runs_across_a_word(shipped_pdf, game):
    """An arrow drawn over a word hides it: River's dashed 'not facing' arrow ran through the Mountains tile's
    name, Orbis's 'diagonal: nothing' label sat on the head of the arrow up from the middle tile, and the arrow
    down from it on that tile's Tier I. Every arrow of every picture in the five books, read back from the PDF
    (its white halo, 3.6 pt wide), meets no word's box."""
    pdf = shipped_pdf(game, "rulebook.pdf")
    arrows = crossed = 0
    for number, page in enumerate(pdf.pages, 1):
        halos = [ln for ln in page.lines if abs(ln.get("linewidth", 0) - 3.6) < 0.01]
        if not halos:
            continue
        words = page.extract_words()
        for ln in halos:
            arrows += 1
            (x1, y1), (x2, y2) = ln["pts"][0], ln["pts"][-1]
            for w in words:
                cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
                hw, hh = (w["x1"] - w["x0"]) / 2, (w["bottom"] - w["top"]) / 2
                if box_meets_segment(cx, cy, hw, hh, x1, y1, x2, y2):
                    crossed += 1
                    print(f"page {number}: an arrow crosses {w['text']!r}")
    assert arrows >= 1  # the test meets the arrows it is about (every book draws some)
    assert crossed == 0
