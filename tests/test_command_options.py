"""One spelling per option across commands: walked from the click tree, every visible option and argument of every
command, so that a new command cannot bring a second spelling of something another command already says."""

from __future__ import annotations

import click
from test_command_paths import commands

# the one known case where a meaning has two spellings, and why it must
ALLOWED = {"game": "changes takes OLD [NEW] as its arguments, so it names games with --game"}


def visible():
    """(command words, kind, normalised name, choices) of every param a user sees."""
    for words, command in commands():
        for param in command.params:
            if getattr(param, "hidden", False):
                continue
            choices = tuple(param.type.choices) if isinstance(param.type, click.Choice) else ()
            if isinstance(param, click.Argument):
                yield " ".join(words), "argument", param.name.removesuffix("s"), choices
            else:
                long = max(param.opts, key=len).lstrip("-").replace("-", "_")
                kind = "flag" if param.is_flag else "option"
                yield " ".join(words), kind, long.removesuffix("s"), choices


def test_a_name_is_an_argument_everywhere_or_an_option_everywhere():
    """`preflight --target T` beside `export shop T` was one meaning spelt two ways."""
    kinds: dict[str, set[tuple[str, str]]] = {}
    for words, kind, name, _ in visible():
        kinds.setdefault(name, set()).add((kind if kind != "flag" else "option", words))
    mixed = {
        name: sorted(uses)
        for name, uses in kinds.items()
        if len({k for k, _ in uses}) > 1 and name not in ALLOWED
    }
    assert not mixed, mixed


def test_no_flag_spells_a_value_another_option_takes():
    """`preflight --json` beside `--format json` elsewhere was one meaning spelt two ways."""
    values = {c for _, kind, _, choices in visible() if kind != "flag" for c in choices}
    doubled = sorted(
        f"{words} --{name}" for words, kind, name, _ in visible() if kind == "flag" and name in values
    )
    assert not doubled, doubled


def test_one_set_of_choices_has_one_name():
    names: dict[tuple, set[str]] = {}
    for _, _, name, choices in visible():
        if choices:
            names.setdefault(tuple(sorted(choices)), set()).add(name)
    assert all(len(n) == 1 for n in names.values()), names


def test_the_old_spellings_still_work_hidden(project):
    from conftest import run_cli

    root = project("basic")
    new = run_cli("preflight", "tgc", "sample", "--format", "json", cwd=root)
    old = run_cli("preflight", "sample", "--target", "tgc", "--json", cwd=root)
    assert new.exit_code == old.exit_code == 0, new.output + old.output
    assert new.output == old.output and new.output.lstrip().startswith("{")
    bad = run_cli("preflight", "tgx", "sample", cwd=root)
    assert bad.exit_code == 2 and "'tgx' is not one of tgc, dtc, pdfx, factory" in bad.output
    helped = run_cli("preflight", "--help").output
    assert "--json" not in helped and "--target" not in helped and "TARGET GAME" in helped


class Told:
    """A build's progress, recorded."""

    def __init__(self):
        self.plans, self.writes = [], []

    def planned(self, n):
        self.plans.append(n)

    def written(self, n):
        self.writes.append(n)


def test_progress_is_counted_in_files_not_games(project):
    """One game no longer jumps from 0/1 to 1/1: the bar counts the files, each as it is written."""
    from pnpgen.cli import _Bar
    from pnpgen.commands.build import build
    from pnpgen.project import Project

    root = project("basic")
    told = Told()
    outcome = build(Project(root / "content", root / "out"), None, progress=lambda games: told, jobs=1)
    (result,) = outcome.results
    files = sorted(p.name for p in (root / "out" / "sample").iterdir() if p.name != "manifest.json")
    assert sum(told.plans) == sum(told.writes) == result.written == len(files) >= 3, (told.__dict__, files)
    assert told.writes == [1] * len(files)  # one step per file
    bar = _Bar()
    bar.planned(2)
    bar.written(1)
    bar.planned(3)  # another game knows its files: the bar grows
    bar.written(4)
    assert (bar.bar.pos, bar.bar.length) == (5, 5)
    bar.close()


def test_new_tells_the_next_command_with_the_content_folder_it_was_given(tmp_path):
    from conftest import run_cli

    result = run_cli("new", "fresh", "--content", "my games", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "next: pnpgen build fresh --content 'my games'," in result.output
    built = run_cli("build", "fresh", "--content", "my games", "--out", "out", cwd=tmp_path)
    assert built.exit_code == 0, built.output
    plain = run_cli("new", "other", cwd=tmp_path)
    assert "next: pnpgen build other, then open" in plain.output
