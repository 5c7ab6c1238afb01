"""`pnpgen changes`: what a revision changed, and only those cards to print again."""

from __future__ import annotations

from pathlib import Path

import click

from pnpgen.cli import (
    _content_option,
    _debug_option,
    _guarded,
    _no_check_option,
    _out_option,
    _project,
    main,
)
from pnpgen.errors import printable


@main.command()
@click.argument("old", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.argument("new", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--since",
    type=click.Path(path_type=Path, file_okay=False),
    help="The saved build to compare with (the same as OLD).",
)
@click.option("--game", "-g", "games", multiple=True, help="Compare only this game (repeatable).")
@_content_option
@_out_option
@_no_check_option
@_debug_option
@_guarded
def changes(old, new, since, games, content, out, no_check, debug):
    """What changed between two builds, face by face, and only those cards to print again.

    OLD is an output folder saved earlier (cp -r output output-v1). Without NEW, the content is built into
    OUT first and compared with OLD; with NEW, the two folders are compared as they stand. Writes
    NEW/<game>/changes/: proof.pdf (each changed face old | new | difference), reprint.pdf (every copy of each
    changed or added card, and the extra copies of a card whose count grew, imposed with their backs) and
    changes.txt (the summary printed here).
    """
    from pnpgen.changes import summary
    from pnpgen.commands.changes import changes as run

    if (old is None) == (since is None):
        raise click.UsageError("name the earlier build once: pnpgen changes OLD [NEW], or --since OLD")
    for w in run(_project(content, out), old or since, new, list(games), not no_check):
        for line in summary(w.result):
            click.echo(printable(line))
        for note in w.notes:
            click.echo(printable(note), err=True)
        click.echo(f"  -> {w.folder}: {', '.join(w.files)}")
