"""`pnpgen calibrate`: the sheet that measures a duplex printer's back offset."""

from __future__ import annotations

from pathlib import Path

import click

from pnpgen.cli import (
    _debug_option,
    _guarded,
    _paper_option,
    _printer_option,
    _project,
    main,
)
from pnpgen.cli.paths import PathParam


@main.command()
@click.argument("game", required=False)
@click.option(
    "--content",
    type=PathParam("content folder"),  # needed only with GAME, and checked then
    default="content",
    show_default=True,
    help="Folder holding one folder per game (read only for GAME's print: settings).",
)
@_paper_option
@_printer_option
@click.option(
    "--duplex",
    type=click.Choice(["long", "short"]),
    help="How your printer turns the sheet: long edge or short edge (default: the --printer profile's, else "
    "GAME's print.duplex, else long).",
)
@click.option(
    "--out",
    type=PathParam("calibration sheet", kind="file", writes=True),
    help="The PDF to write (default: calibration-PAPER-DUPLEX.pdf here).",
)
@_debug_option
@_guarded
def calibrate(game, content, paper, printer, duplex, out, debug):
    """Write a two-sided calibration sheet: print it duplex, hold it to a light, and read your printer's back
    offset off its scales, in the numbers --back-offset takes (keep them in printers.yaml: see the README).
    With GAME, on the paper (and duplex) its game.yaml's print: asks."""
    import os

    from pnpgen.pipeline.staging import cannot_replace, cannot_write, flush
    from pnpgen.render.calibration import write_calibration

    paper, duplex = _sheet_of(game, content, paper, printer, duplex)
    target = out or Path(f"calibration-{paper.lower()}-{duplex}.pdf")
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        try:
            write_calibration(temp, paper.lower(), duplex)
            flush(temp)  # a full disk often shows only when the bytes reach it
        except OSError as exc:
            raise cannot_write(target, exc) from None
        try:
            os.replace(temp, target)
        except OSError as exc:  # a sheet open in a Windows viewer: say which, and leave it as it was
            raise cannot_replace(target, exc) from None
    finally:
        if temp.exists():
            temp.unlink()
    click.echo(
        f"calibration sheet -> {target}: print both pages at 100 %, duplex, flipping on the {duplex} edge"
    )


def _sheet_of(game, content: Path, paper, printer, duplex) -> tuple[str, str]:
    """The calibration sheet's paper and flip: the flags, then the printer profile, then GAME's `print:`, then
    A4 and long, as `build` resolves them."""
    profile = defaults = None
    if printer:
        from pnpgen.schema.printers import find

        profile = find(printer, content.resolve().parent)
    if game:
        from pnpgen.schema.game import print_defaults

        project = _project(content)
        (root,) = project.select([game])
        defaults = print_defaults(root, project.reader(root))
    flips = ("long", "short")  # a sheet to measure a duplex printer: none is no choice here
    for given in (profile and profile.duplex, defaults and defaults.get("duplex")):
        duplex = duplex or (given if given in flips else None)
    paper = paper or (profile and profile.paper) or (defaults and defaults.get("paper")) or "a4"
    return paper.lower(), duplex or "long"
