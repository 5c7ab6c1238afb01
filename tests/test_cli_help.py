"""`--help` of every command: every option says what it is (a designer reads `--help` before the docs)."""

from __future__ import annotations

import click
import pytest


def _options():
    from pnpgen.cli import edit, export, iterate, main, printing, shop  # noqa: F401 - they register their commands

    def walk(cmd, path):
        if isinstance(cmd, click.Group):
            for name, sub in sorted(cmd.commands.items()):
                yield from walk(sub, [*path, name])
        else:
            for p in cmd.params:
                if isinstance(p, click.Option) and not p.hidden:
                    yield pytest.param(p, id=f"{' '.join(path)} {p.opts[0]}")

    return list(walk(main, []))


@pytest.mark.parametrize("option", _options())
def test_every_option_of_every_command_says_what_it_is(option):
    assert option.help and option.help.strip(), "an option with no help line: `--help` shows only its name"
