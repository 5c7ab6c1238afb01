"""`pnpgen watch`, `pnpgen serve` and `pnpgen changes`: rebuilding while editing, seeing it, and what a revision
changed."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from pnpgen.cli import (
    _content_option,
    _debug_option,
    _guarded,
    _no_check_option,
    _out_option,
    _paper_option,
    _printer_option,
    _printing,
    _project,
    _report,
    main,
)
from pnpgen.cli.paths import PathParam
from pnpgen.errors import printable
from pnpgen.imposition.duplex import DEFAULT

EDITING = replace(DEFAULT, whole=False)  # watch and serve: no print-all file (the whole game again) per save


def _editing(content, out, paper, printer):
    """The resident project of watch and serve: the paper and a printer profile as `build` takes them."""
    paper, printing, asked = _printing(content, paper, None, False, None, None, printer)
    return replace(
        _project(content, out, paper, replace(printing, whole=EDITING.whole), asked), resident=True
    )


@main.command()
@click.argument("old", required=False, type=PathParam("earlier build folder", exists=True))
@click.argument("new", required=False, type=PathParam("build folder", exists=True, writes=True))
@click.option(
    "--since",
    type=PathParam("earlier build folder", exists=True),
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
    from pnpgen.changes.command import changes as run
    from pnpgen.changes.compare import summary

    if (old is None) == (since is None):
        raise click.UsageError("name the earlier build once: pnpgen changes OLD [NEW], or --since OLD")
    for w in run(_project(content, out), old or since, new, list(games), not no_check):
        for line in summary(w.result):
            click.echo(printable(line))
        for note in w.notes:
            click.echo(printable(note), err=True)
        click.echo(f"  -> {w.folder}: {', '.join(w.files)}")


@main.command()
@click.argument("games", nargs=-1)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0: any free port."
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on (::1 for IPv6); anything but this machine's own is warned about.",
)
@_content_option
@_out_option
@_paper_option
@_printer_option
@click.option("--poll", is_flag=True, help="Poll for changes instead of using file-system events.")
@_no_check_option
@_debug_option
@_guarded
def serve(games, port, host, content, out, paper, printer, poll, no_check, debug):
    """A live page of GAMES (all when none): every face and back, boards, the rulebook's pages, the counts and
    the rules check's findings, updated on every save.

    Builds like `watch` (into OUT) and shows the faces cut from the PDFs it wrote; only faces that changed
    reload. A save with an error shows it over the last good faces, with file:line:column. Click a face for its
    fields and where it comes from, and open it in the editor: drag, resize, add and delete elements, edit the
    card's values; each change is written into the layout or card file in place. Open the address it prints:
    it carries this run's token, without which the server answers and writes nothing (nor for another site,
    nor to another Host name).
    """
    import sys

    from pnpgen.serve.command import run

    def echo(text, err):
        click.echo(text, err=err)
        (sys.stderr if err else sys.stdout).flush()

    project = _editing(content, out, paper, printer)
    run(project, list(games) or None, echo, _report, host, port, poll, not no_check)


@main.command()
@click.argument("games", nargs=-1)
@_content_option
@_out_option
@_paper_option
@_printer_option
@click.option("--poll", is_flag=True, help="Poll for changes instead of using file-system events.")
@_no_check_option
@_debug_option
@_guarded
def watch(games, content, out, paper, printer, poll, no_check, debug):
    """Rebuild GAMES (all when none) whenever their content or the shared layouts change.

    Prints what was rebuilt and how long it took (or that nothing needed it); broken content is reported and the
    watch goes on.
    """
    from pnpgen.commands.watch import run

    project = _editing(content, out, paper, printer)
    project.select(list(games) or None)  # usage errors before anything starts

    def echo(text, err):
        click.echo(text, err=err)
        (sys.stderr if err else sys.stdout).flush()

    run(project, list(games) or None, echo, _report, poll=poll, check=not no_check)
