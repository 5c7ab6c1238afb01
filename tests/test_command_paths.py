"""Every command's paths: each path option and argument of every command (walked from the click tree, so a new
command or option is covered by itself) has the one shared type, `cli/paths.PathParam`, and an odd path is a
usage error (exit 2) naming it, with nothing written: a NUL byte, a Windows device name, a name too long, a file
where a folder is wanted and a folder where a file is, what is missing, a place that cannot be written, a name to
be made that Windows refuses or changes (a trailing dot or space, '?' or ':')."""

from __future__ import annotations

import os
import shutil

import click
import pytest
from conftest import FIXTURES, fast_first, run_cli

from pnpgen.cli import main
from pnpgen.cli.paths import PathParam
from pnpgen.errors import printable

# what each command needs besides the option under test, so that only that option can be wrong
NEEDS = {
    "new": ["fresh"],
    "edit": ["content/sample/layouts/hero.yaml", "2", "x=5"],
    "changes": ["old"],
    "export png": ["sample"],
    "export tts": ["sample"],
    "export sheet": ["sample"],
    "export shop": ["tgc", "sample"],
    "preflight": ["tgc", "sample"],
}


def commands(group: click.Group = main, prefix: tuple[str, ...] = ()):
    """(name words, command) of every command, groups walked."""
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from commands(command, (*prefix, name))
        else:
            yield (*prefix, name), command


def path_params():
    for words, command in commands():
        for param in command.params:
            if isinstance(param.type, PathParam):
                yield " ".join(words), param


PATHS = list(path_params())


def test_every_path_of_every_command_has_the_shared_type():
    """No path slips past the check: a param is a path when click's own path types or its name say so."""
    missed = []
    for words, command in commands():
        for param in command.params:
            pathish = isinstance(param.type, (click.Path, click.File)) or param.name in (
                "content",
                "out",
                "old",
                "new",
                "since",
                "cmyk_profile",
            )
            if pathish and not isinstance(param.type, PathParam):
                missed.append(f"{' '.join(words)} {param.name}")
    assert not missed, missed
    assert (
        len(PATHS) >= 20
    )  # every command's --content and --out, changes' folders, calibrate's sheet, a profile


def odd_values(param: click.Parameter) -> list[tuple[str, str]]:
    """(case, value) that must be refused for `param`."""
    kind, t = param.type.kind, param.type
    values = [
        ("nul", "a\0b"),
        ("control", "a\tb"),
        ("device", "aux" if kind == "folder" else "con.pdf"),
        ("device-inside", "games/nul/x"),
        ("too-long", "x" * 300),
        ("wrong-kind", "afile" if kind == "folder" else "afolder"),
    ]
    if hasattr(os, "mkfifo"):
        values.append(("pipe", "apipe"))
    if t.exists:
        values.append(("missing", "missing"))
    if t.writes:
        values.append(("under-a-file", "afile/inside"))
        values.append(("read-only", "readonly" if kind == "folder" else "readonly/sheet.pdf"))
        values.append(("inside-read-only", "readonly/inside/deeper"))
        # a name not every system accepts, to be made: Windows drops the dot or space (another folder), or refuses
        values.append(("trailing-dot", "made." if kind == "folder" else "sheet.pdf."))
        values.append(("trailing-space", "made/inside " if kind == "folder" else "made/sheet.pdf "))
        values.append(("forbidden-character", "ma?de/inside" if kind == "folder" else "made/sh:eet.pdf"))
    return values


CASES = [
    pytest.param(words, param, case, value, id=f"{words}-{param.name}-{case}")
    for words, param in PATHS
    for case, value in odd_values(param)
]


def invocation(words: str, param: click.Parameter, value: str) -> list[str]:
    args = [*words.split(), *NEEDS.get(words, [])]
    if isinstance(param, click.Argument):  # changes OLD NEW: a good OLD before a NEW under test
        return [*words.split(), *(["old"] if param.name == "new" else []), value]
    return [*args, param.opts[0], value]


@pytest.mark.parametrize("words, param, case, value", fast_first(CASES, key=lambda c: (c[0], c[2])))
def test_an_odd_path_is_a_usage_error_naming_it(tmp_path, monkeypatch, words, param, case, value):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    (root / "afile").write_text("a file\n")
    (root / "afolder").mkdir()
    (root / "old").mkdir()
    (root / "readonly").mkdir(mode=0o555)
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "apipe")
    if os.name != "nt" and os.geteuid() == 0:  # root may write anywhere: the folder is read-only to the check
        real = os.access
        ro = str(root / "readonly")
        monkeypatch.setattr(
            os, "access", lambda p, mode: False if os.path.abspath(p) == ro else real(p, mode)
        )
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    result = run_cli(*invocation(words, param, value), cwd=root)
    assert result.exit_code == 2, (case, result.output)
    assert f"{param.type.what} '{printable(value)}'" in result.output, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before  # nothing written


UNUSED = ("new_id", "sheet")  # edit's options for --duplicate and workbooks: ignored by a layout's KEY=VALUE


def string_params():
    for words, command in commands():
        if words[0] in ("serve", "watch"):
            continue  # they run until stopped: their GAMES are the same as build's
        for param in command.params:
            if param.type is click.STRING or (isinstance(param, click.Argument) and param.name != "target"):
                if not isinstance(param.type, PathParam):
                    yield " ".join(words), param


@pytest.mark.parametrize("words, param", [pytest.param(w, p, id=f"{w}-{p.name}") for w, p in string_params()])
def test_a_nul_in_any_other_argument_is_an_error_not_a_crash(tmp_path, words, param):
    """Games, components, names, a URL base: a NUL byte is refused with a message (exit 1 or 2), never 'internal
    error' (edit's --id and --sheet are not used by this edit: exit 0)."""
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    (root / "old").mkdir()
    needs = NEEDS.get(words, [])
    if isinstance(param, click.Argument):
        args = [*words.split(), *needs[: [p.name for p in param_args(words)].index(param.name)], "a\0b"]
    else:
        args = [*words.split(), *needs, param.opts[0], "a\0b"]
    result = run_cli(*args, cwd=root)
    assert result.exit_code in ((0, 1, 2) if words == "edit" and param.name in UNUSED else (1, 2)), (
        result.output
    )
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output


def param_args(words: str) -> list[click.Argument]:
    command = dict((" ".join(w), c) for w, c in commands())[words]
    return [p for p in command.params if isinstance(p, click.Argument)]
