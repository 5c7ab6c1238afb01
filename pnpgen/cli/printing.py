"""`pnpgen calibrate`: the sheet that measures a duplex printer's back offset."""

from __future__ import annotations

from pathlib import Path

import click

from pnpgen.cli import PAPER, PAPER_HELP, _debug_option, _guarded, main
from pnpgen.cli.paths import PathParam


@main.command()
@click.option("--paper", type=PAPER, default="a4", show_default=True, help=PAPER_HELP)
@click.option(
    "--duplex",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="How your printer turns the sheet: long edge or short edge.",
)
@click.option(
    "--out",
    type=PathParam("calibration sheet", kind="file", writes=True),
    help="The PDF to write (default: calibration-PAPER-DUPLEX.pdf here).",
)
@_debug_option
@_guarded
def calibrate(paper, duplex, out, debug):
    """Write a two-sided calibration sheet: print it duplex, hold it to a light, and read your printer's back
    offset off its scales, in the numbers --back-offset takes (keep them in printers.yaml: see the README)."""
    import os

    from pnpgen.pipeline.staging import cannot_replace, cannot_write, flush
    from pnpgen.render.calibration import write_calibration

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
