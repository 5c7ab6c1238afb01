"""The rules checker: mutation tests (every single change to a count fails, naming the component, the expected
and the found number), expression rules (malformed and hostile), the CLI, and the build refusing on errors."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

HEROES = "content/sample/decks/heroes.yaml"
GAME = "content/sample/game.yaml"
MINIS = "content/sample/decks/minis.yaml"
FACTS = "content/sample/facts.yaml"


def edit(root, path, old, new):
    f = root / path
    text = f.read_text()
    assert old in text, (old, path)
    f.write_text(text.replace(old, new, 1))


def check(root, *args):
    return run_cli("check", *args, cwd=root)


def test_the_sample_game_passes_and_lists_its_errata(project):
    result = check(project("basic"))
    assert result.exit_code == 0, result.output
    assert (
        "erratum Components: the box lists 7 sea heroes but the card list has 6; resolved: we print the 6 "
        "the card list names [content/sample/facts.yaml:31:5]"
    ) in result.output
    assert "sample: 4 facts checked, 0 errors, 0 warnings, 1 erratum: ok" in result.output


@pytest.mark.parametrize(
    "path, old, new, expected",
    [
        # take away a card
        (
            HEROES,
            "count: 5",
            "count: 4",
            "error heroes: 11 Hero cards, 5 ember and 6 sea: total pieces (expected 11, found 10)",
        ),
        # add a copy
        (
            HEROES,
            "count: 6",
            "count: 7",
            "error heroes: 11 Hero cards, 5 ember and 6 sea: pieces with colour sea (expected 6, found 7)",
        ),
        # recolour a piece
        (
            HEROES,
            "colour: sea",
            "colour: ember",
            "error heroes: 11 Hero cards, 5 ember and 6 sea: pieces with colour ember (expected 5, found 11)",
        ),
        # lower a supply below what setup needs
        (
            MINIS,
            "count: 20",
            "count: 12",
            "error minis: 5 Sparks per player: supply with 3 players (expected at least 15, found 12)",
        ),
        # drop a component
        (GAME, "  - decks/minis.yaml\n", "", "error minis: no component 'minis'"),
    ],
)
def test_any_single_change_to_a_count_fails_naming_what_and_where(project, path, old, new, expected):
    root = project("basic")
    edit(root, path, old, new)
    result = check(root)
    assert result.exit_code == 1
    assert expected in result.output, result.output
    assert "[content/sample/facts.yaml:" in result.output


def test_players_limits_the_supply_rules(project):
    root = project("basic")
    edit(root, MINIS, "count: 20", "count: 12")
    edit(root, FACTS, "    total: 20\n", "    total: 12\n")
    assert check(root, "--players", "2").exit_code == 0
    assert check(root, "--players", "3").exit_code == 1


def test_json_output(project):
    root = project("basic")
    edit(root, HEROES, "count: 5", "count: 4")
    data = json.loads(check(root, "--format", "json").output)
    (game,) = data["games"]
    assert game["game"] == "sample" and game["ok"] is False
    errors = [f for f in game["findings"] if f["severity"] == "error"]
    assert {"component": "heroes", "expected": 11, "actual": 10} == {
        k: errors[0][k] for k in ("component", "expected", "actual")
    }
    assert errors[0]["location"].startswith("content/sample/facts.yaml:")
    assert any(f["severity"] == "erratum" for f in game["findings"])


@pytest.mark.parametrize(
    "expr, expected",
    [
        (
            "4 * players +",
            "fact 'hands': template error: unexpected 'end of template' [content/sample/facts.yaml:21:11]",
        ),
        ("count('nosuch')", "no component 'nosuch'"),
        ("().__class__.__bases__[0].__subclasses__() | length", "not allowed in a template"),
        ("lipsum()", "undefined value"),
        ("'many'", "'need' must give a number (got 'many')"),
    ],
)
def test_malformed_and_hostile_expressions_are_clear_errors(project, expr, expected):
    root = project("basic")
    edit(root, FACTS, 'need: "4 * players + 2"', f'need: "{expr}"')
    result = check(root)
    assert result.exit_code == 1
    assert expected in result.output, result.output
    assert "Traceback" not in result.output


def test_unknown_fact_keys_and_dangling_references(project):
    root = project("basic")
    edit(root, FACTS, "    total: 20\n", "    totl: 20\n")
    edit(root, FACTS, "fact: minis}", "fact: mini}")
    result = check(root)
    assert result.exit_code == 1
    assert "unknown key 'totl' in fact" in result.output and "did you mean 'total'?" in result.output
    assert "number 20 names no fact 'mini'" in result.output


def test_unused_components_and_missing_facts_are_warnings(project):
    root = project("basic")
    edit(root, FACTS, "  - {piece: Mini cards, component: minis, in: [turn]}\n", "")
    result = check(root)
    assert result.exit_code == 0
    assert "warning minis: no rule uses this component" in result.output
    assert check(root, "--strict").exit_code == 1
    (root / FACTS).unlink()
    assert "warning facts: no facts.yaml" in check(root).output


def test_build_refuses_when_the_check_fails_and_no_check_builds_anyway(project):
    root = project("basic")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    before = (root / "out" / "sample" / "heroes.pdf").read_bytes()
    edit(root, HEROES, "count: 5", "count: 4")
    refused = run_cli("build", "--out", "out", cwd=root)
    assert refused.exit_code == 1
    assert (
        "content/sample/facts.yaml:8:12: error: rules check: heroes: 11 Hero cards, 5 ember and 6 sea: total "
        "pieces (expected 11, found 10)"
    ) in refused.output
    assert "failed sample: 2 errors; its output was left as it was" in refused.output
    assert (root / "out" / "sample" / "heroes.pdf").read_bytes() == before
    forced = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert forced.exit_code == 0 and "rules check skipped (--no-check)" in forced.output
    assert (root / "out" / "sample" / "heroes.pdf").read_bytes() != before


def test_a_no_check_build_is_checked_by_the_next_plain_build(project):
    root = project("basic")
    assert run_cli("build", "--out", "out", "--no-check", cwd=root).exit_code == 0
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0 and "up to date sample" not in result.output
    assert run_cli("build", "--out", "out", cwd=root).output.strip() == "up to date sample"


def test_a_breakdown_by_a_field_the_pieces_lack_names_the_field_and_them(project):
    """A misspelt `by` once counted every piece as the value 'None': `values: 1` passed."""
    root = project("basic")
    edit(
        root,
        FACTS,
        "errata:\n",
        "  - id: colours\n    says: one colour\n    component: heroes\n    by: colur\n    values: 1\nerrata:\n",
    )
    result = check(root)
    assert result.exit_code == 1
    assert (
        "error heroes: one colour: 'by' names the field 'colur', which 2 of the 2 pieces lack "
        "(Ash Walker, Tide Caller); did you mean 'colour'?"
    ) in result.output, result.output
    assert "[content/sample/facts.yaml:36:5]" in result.output


def test_a_breakdown_names_only_the_pieces_that_lack_the_field(project):
    root = project("basic")
    edit(root, HEROES, "defaults:\n  colour: ember\n", "")
    result = check(root)
    assert result.exit_code == 1
    assert "'by' names the field 'colour', which 1 of the 2 pieces lack (Ash Walker)" in result.output


@pytest.mark.parametrize("players", ["1", "5"])
def test_players_outside_the_games_range_is_an_error_not_a_silent_pass(project, players):
    root = project("basic")
    result = check(root, "--players", players)
    assert result.exit_code == 1
    assert f"error players: {players} players is outside the game's 2–4 [content/sample/game.yaml:3:10]" in (
        result.output
    )


@pytest.mark.parametrize("players", ["1", "5"])
def test_a_tts_save_for_players_outside_the_range_names_where_the_range_is(project, players):
    """`export tts --save --players N`, like `check --players N`, points at game.yaml's `players:`."""
    result = run_cli(
        "export", "tts", "sample", "--save", "--players", players, "--out", "out", cwd=project("basic")
    )
    assert result.exit_code == 2
    assert f"sample is for 2–4 players (content/sample/game.yaml:3:10); a save for {players}" in result.output


def test_findings_are_located_and_become_build_diagnostics(project, monkeypatch):
    from pnpgen.checker import check_game
    from pnpgen.errors import Location

    root = project("basic")
    monkeypatch.chdir(root)
    edit(root, HEROES, "count: 5", "count: 4")
    edit(root, FACTS, "  - {piece: Mini cards, component: minis, in: [turn]}\n", "")
    report = check_game(root / "content" / "sample")
    error = next(f for f in report.findings if f.severity == "error")
    assert error.location == Location(FACTS, 8, 12)  # the total the document states
    assert error.as_json()["location"] == f"{FACTS}:8:12"
    assert error.text().endswith(f"(expected 11, found 10) [{FACTS}:8:12]")
    plain = [d.format() for d in report.diagnostics(strict=False).items]
    assert plain == [
        f"{FACTS}:8:12: error: rules check: heroes: 11 Hero cards, 5 ember and 6 sea: "
        "total pieces (expected 11, found 10)",
        f"{FACTS}:10:21: error: rules check: heroes: 11 Hero cards, 5 ember and 6 sea: "
        "pieces with colour ember (expected 5, found 4)",
        f"{FACTS}: warning: rules check: minis: no rule uses this component (add it to 'uses')",
    ]  # a build prints the check's warnings (and --strict fails on them: tests/test_strict_warnings.py)
    strict = [d.format() for d in report.diagnostics(strict=True).items]
    assert strict[2:] == [
        f"{FACTS}: error: rules check: minis: no rule uses this component (add it to 'uses')"
    ]


def test_a_problem_of_facts_yaml_itself_is_a_plain_content_error_in_a_build(project, monkeypatch):
    from pnpgen.checker import check_game

    root = project("basic")
    monkeypatch.chdir(root)
    edit(root, FACTS, "    total: 20\n", "    totl: 20\n")
    report = check_game(root / "content" / "sample")
    (d,) = report.diagnostics().items
    assert (str(d.location), d.message) == (f"{FACTS}:15:5", "unknown key 'totl' in fact")
    assert d.hint.startswith("did you mean 'total'?")


def test_the_check_reads_facts_and_rulebook_through_the_reader(project, monkeypatch):
    from pnpgen.checker import check_game
    from pnpgen.inputs import MISSING, Reader
    from pnpgen.schema import load_game

    root = project("basic")
    game_root = root / "content" / "sample"
    (game_root / "rulebook.md").write_text("# Sample\n\n## Components\n\n11 Hero cards and 20 Mini cards.\n")
    reader = Reader([game_root, root / "layouts"], root)
    game = load_game(game_root, reader)
    with reader.recording() as read:
        report = check_game(game_root, game=game, reader=reader)
    assert report.ok() and set(read) == {FACTS, "content/sample/rulebook.md"}
    (game_root / "facts.yaml").unlink()
    with reader.recording() as read:
        check_game(game_root, game=game, reader=reader, require_facts=False)
    assert read[FACTS] == MISSING  # a facts.yaml added later makes the check's record stale
