"""A game's own paper: game.yaml's `print: {paper: letter}` and a printer profile's `paper:`, resolved as `duplex`
is (the flag, then the profile, then the game, then A4) by every command that takes `--paper`, and by every file
a build writes on paper; judged by the up-to-date check; each game of a build on its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from conftest import FIXTURES, MM, fast_once, run_cli

from pnpgen.commands.build import answer_unchanged

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def _sizes(pdf: Path) -> set[tuple[float, float]]:
    """Every page's size in mm, as written (portrait or landscape alike: a board may turn its pages)."""
    with pdfplumber.open(pdf) as doc:
        return {tuple(sorted((round(p.width / MM, 1), round(p.height / MM, 1)))) for p in doc.pages}


def _on(pdf: Path, paper: str) -> bool:
    return _sizes(pdf) == {PAPER_MM[paper]}


def _game(root: Path, game: str, paper: str | None, extra: str = "") -> None:
    """Set game.yaml's `print:` (its paper, when given), with a checklist per deck, and a rulebook."""
    folder = root / "content" / game
    text = (folder / "game.yaml").read_text().split("\nprint:")[0].rstrip("\n")
    keys = ", ".join(k for k in (f"paper: {paper}" if paper else "", "checklist: true", extra) if k)
    (folder / "game.yaml").write_text(f"{text}\nprint: {{{keys}}}\n")
    (folder / "rulebook.md").write_text("# Sample Game\n\nEach player takes heroes and minis, then plays.\n")


def _sample(tmp_path: Path, paper: str | None) -> Path:
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    _game(root, "sample", paper)
    return root


def _quiet_watch(monkeypatch) -> None:
    """`watch` and `serve` build once and return: the file watcher reports nothing and stops."""
    import watchfiles

    monkeypatch.setattr(watchfiles, "watch", lambda *folders, **options: iter([set()]))


# every command that takes --paper: its arguments, and the PDFs it writes on paper (from the project's root)
COMMANDS = {
    "build": (["build", "--out", "out"], "out/sample"),
    "watch": (["watch", "--out", "out"], "out/sample"),
    "serve": (["serve", "--port", "0", "--out", "out"], "out/sample"),
    "export sheet": (["export", "sheet", "sample", "--out", "out"], "out/sample"),
    "calibrate": (["calibrate", "sample", "--out", "cal.pdf"], "cal.pdf"),
}
# (game.yaml's paper, the printer profile's, the flag) -> the paper every sheet must be
SOURCES = {
    "the game's": ("letter", None, None, "letter"),
    "the flag over the game's": ("letter", None, "a4", "a4"),
    "a profile's over the game's": ("a4", "letter", None, "letter"),
    "the flag over a profile's": ("letter", "letter", "a4", "a4"),
}


def test_the_cases_cover_every_command_that_takes_paper():
    """A command given --paper later must join COMMANDS (the help of every command is read)."""
    from pnpgen.cli import main

    def commands(group, prefix=""):
        for name, cmd in group.commands.items():
            if hasattr(cmd, "commands"):
                yield from commands(cmd, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}", cmd

    taking = {name for name, cmd in commands(main) if any(p.name == "paper" for p in cmd.params)}
    assert taking == set(COMMANDS)
    for name, cmd in commands(main):
        if name in taking:
            (paper,) = [p for p in cmd.params if p.name == "paper"]
            given = cmd.make_context(name, [], resilient_parsing=True).params["paper"]
            assert given is None, name  # no A4 of its own: the game's
            assert "the game's print.paper, else A4" in (paper.help or ""), name


@pytest.mark.parametrize("source", fast_once(list(SOURCES)))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_prints_on_the_paper_resolved_as_duplex_is(tmp_path, monkeypatch, command, source):
    game_paper, profile_paper, flag, want = SOURCES[source]
    root = _sample(tmp_path, game_paper)
    args, written = COMMANDS[command]
    args = list(args)
    if profile_paper:
        (root / "printers.yaml").write_text(f"office:\n  paper: {profile_paper}\n")
        args += ["--printer", "office"]
    if flag:
        args += ["--paper", flag]
    _quiet_watch(monkeypatch)
    result = run_cli(*args, cwd=root)
    assert result.exit_code == 0, result.output
    target = root / written
    pdfs = sorted(target.glob("*.pdf")) if target.is_dir() else [target]
    kinds = {p.name for p in pdfs}
    if command in ("build", "export sheet"):  # the sheets, each deck's checklist, the rulebook, print-all
        assert {"heroes.pdf", "heroes-checklist.pdf", "rulebook.pdf", "print-all.pdf"} <= kinds, kinds
    assert pdfs and all(_on(pdf, want) for pdf in pdfs), {p.name: _sizes(p) for p in pdfs}
    if target.is_dir():
        assert json.loads((target / "manifest.json").read_text())["paper"] == want


def test_the_build_says_which_paper_when_it_is_not_a4(tmp_path):
    root = _sample(tmp_path, "letter")
    result = run_cli("build", "--out", "out", cwd=root)
    assert "pages on letter paper -> " in result.output, result.output
    with pdfplumber.open(root / "out" / "sample" / "print-all.pdf") as pdf:
        assert "Paper: US Letter" in pdf.pages[0].extract_text()  # the print-and-build page says it too
    result = run_cli("build", "--out", "out", "--paper", "a4", cwd=root)
    assert result.exit_code == 0 and "paper" not in result.output, result.output


def _quick(root: Path) -> bool:
    """What `pnpgen build` answers before anything is imported: True when every game is up to date."""
    return answer_unchanged(["build", "--content", str(root / "content"), "--out", str(root / "out")])


def test_a_changed_paper_is_stale_and_an_unchanged_one_fresh(tmp_path, capsys):
    root = _sample(tmp_path, "letter")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    heroes = root / "out" / "sample" / "heroes.pdf"
    assert _on(heroes, "letter")
    assert _quick(root)  # nothing changed: answered from the manifest, with the quick exit
    assert "up to date sample" in capsys.readouterr().out
    before = heroes.read_bytes()
    _game(root, "sample", "a4")  # the game's own paper changed
    assert not _quick(root)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    assert _on(heroes, "a4") and heroes.read_bytes() != before
    assert _quick(root)


def test_a_paper_asked_once_is_not_kept_by_the_next_plain_build(tmp_path):
    """Built with --paper letter (or a profile's), a build without it prints on the game's paper again."""
    root = _sample(tmp_path, None)
    (root / "printers.yaml").write_text("office:\n  paper: letter\n")
    heroes = root / "out" / "sample" / "heroes.pdf"
    for asked in (["--paper", "letter"], ["--printer", "office"]):
        assert run_cli("build", "--out", "out", *asked, cwd=root).exit_code == 0
        assert _on(heroes, "letter")
        assert not _quick(root)
        assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
        assert _on(heroes, "a4")
        assert _quick(root)


def test_two_games_of_one_build_each_on_its_own_paper(tmp_path):
    root = _sample(tmp_path, "letter")
    other = root / "content" / "other"
    shutil.copytree(root / "content" / "sample", other)
    (other / "game.yaml").write_text((other / "game.yaml").read_text().replace("id: sample", "id: other"))
    _game(root, "other", "a4")
    result = run_cli("build", "--out", "out", "--jobs", "2", cwd=root)
    assert result.exit_code == 0, result.output
    for game, paper in (("sample", "letter"), ("other", "a4")):
        folder = root / "out" / game
        assert all(_on(pdf, paper) for pdf in folder.glob("*.pdf")), game
        assert json.loads((folder / "manifest.json").read_text())["paper"] == paper
    assert "built sample:" in result.output and "on letter paper -> " in result.output
    assert _quick(root)
    _game(root, "other", "letter")  # one game's paper changes: that game alone is built again
    result = run_cli("build", "--out", "out", "--jobs", "2", cwd=root)
    assert "up to date sample" in result.output and "built other:" in result.output, result.output
    assert all(_on(pdf, "letter") for pdf in (root / "out" / "other").glob("*.pdf"))


@pytest.mark.parametrize(
    "file, text, where",
    [
        pytest.param("content/sample/game.yaml", None, "content/sample/game.yaml:11:16", id="game.yaml"),
        pytest.param(
            "printers.yaml", "office:\n  duplex: short\n  paper: leter\n", "printers.yaml:3:10", id="profile"
        ),
    ],
)
@pytest.mark.parametrize("command", ["build", "calibrate"])
def test_a_bad_paper_is_told_at_its_value_with_the_nearest_name(tmp_path, file, text, where, command):
    root = _sample(tmp_path, None)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    kept = {p.name: p.read_bytes() for p in (root / "out" / "sample").iterdir()}
    if text is None:
        _game(root, "sample", "leter")
    else:
        (root / file).write_text(text)
    args = ["build", "--out", "out"] if command == "build" else ["calibrate", "sample", "--out", "cal.pdf"]
    result = run_cli(*args, *(["--printer", "office"] if text else []), cwd=root)
    assert result.exit_code == 1, result.output
    told = f"{where}: error: 'paper' is not a paper size (str 'leter'); did you mean 'letter'? (accepted: a4, letter)"
    assert told in result.output and "Traceback" not in result.output, result.output
    assert {p.name: p.read_bytes() for p in (root / "out" / "sample").iterdir()} == kept
    assert not (root / "cal.pdf").exists()


def test_an_export_without_a_paper_flag_prints_on_the_games(tmp_path):
    """The shop's rulebook booklet takes no --paper: its pages are the game's paper, two to a sheet."""
    import pikepdf

    root = _sample(tmp_path, "letter")
    result = run_cli("export", "shop", "pdfx", "sample", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    w, h = (v * MM for v in PAPER_MM["letter"])
    with pikepdf.open(root / "out" / "sample" / "shop" / "pdfx" / "rulebook-booklet.pdf") as pdf:
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.TrimBox)
            assert (x1 - x0, y1 - y0) == pytest.approx((2 * w, h), abs=0.01)


@pytest.mark.parametrize(
    "game_duplex, profile_duplex, flag, want",
    [
        ("short", None, None, "short"),
        ("short", "long", None, "long"),
        ("short", "none", None, "short"),
        ("short", "long", "short", "short"),
        (None, None, None, "long"),
    ],
)
def test_calibrate_flips_as_the_flag_then_the_profile_then_the_game_ask(
    tmp_path, game_duplex, profile_duplex, flag, want
):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    _game(root, "sample", None, f"duplex: {game_duplex}" if game_duplex else "")
    args = ["calibrate", "sample", "--out", "cal.pdf"]
    if profile_duplex:
        (root / "printers.yaml").write_text(f"office:\n  duplex: {profile_duplex}\n")
        args += ["--printer", "office"]
    result = run_cli(*args, *(["--duplex", flag] if flag else []), cwd=root)
    assert result.exit_code == 0 and f"flipping on the {want} edge" in result.output, result.output
    assert _on(root / "cal.pdf", "a4")


def test_the_starter_game_shows_where_its_paper_is_set(tmp_path):
    """`pnpgen new` writes the line commented out; taken in as it stands, the game prints on Letter."""
    assert run_cli("new", "mine", cwd=tmp_path).exit_code == 0
    game = tmp_path / "content" / "mine" / "game.yaml"
    text = game.read_text()
    hint = next(line for line in text.splitlines() if line.startswith("# print: {paper: letter}"))
    game.write_text(text.replace(hint, hint[2:]))
    assert run_cli("build", "--out", "out", cwd=tmp_path).exit_code == 0
    assert _on(tmp_path / "out" / "mine" / "cards.pdf", "letter")


def test_changes_reprints_on_the_games_paper(tmp_path):
    """`changes` takes no --paper: it builds the game on its own paper and reprints the changed cards on it."""
    root = _sample(tmp_path, "letter")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    shutil.copytree(root / "out", root / "v1")
    heroes = root / "content" / "sample" / "decks" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("to move **two** spaces", "to move **three** spaces"))
    result = run_cli("changes", "v1", "--out", "out", cwd=root)
    assert result.exit_code == 0 and "reprint.pdf" in result.output, result.output
    assert _on(root / "out" / "sample" / "changes" / "reprint.pdf", "letter")
    assert _on(root / "out" / "sample" / "heroes.pdf", "letter")


# a flag (or a profile) that asks what the game's `print:` already says: (game.yaml's extra print: keys, asked)
SAME = {
    "paper": ("paper: letter", ["--paper", "letter"]),
    "profile's paper": ("paper: letter", ["--printer", "office"]),
    "duplex": ("duplex: short", ["--duplex", "short"]),
    "ink": ("ink: low", ["--ink", "low"]),
}


@pytest.mark.parametrize("case", fast_once(list(SAME)))
def test_a_flag_that_asks_what_the_game_says_draws_nothing_again(tmp_path, case):
    """The sheets printed the same way are the same bytes: a build asking by flag what the game's `print:`
    already says (and the plain build after it) reuses every file instead of drawing it again."""
    extra, asked = SAME[case]
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    _game(root, "sample", None, extra)
    (root / "printers.yaml").write_text("office:\n  paper: letter\n")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    out = root / "out" / "sample"
    before = {p.name: p.read_bytes() for p in out.glob("*.pdf")}
    for args in (asked, []):
        result = run_cli("build", "--out", "out", *args, cwd=root)
        assert result.exit_code == 0 and "(0 rendered," in result.output, result.output
        assert {p.name: p.read_bytes() for p in out.glob("*.pdf")} == before
    assert _quick(root)
