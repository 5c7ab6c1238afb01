"""`pnpgen export shop TARGET GAME` and `pnpgen preflight TARGET GAME`: files for print shops."""

from __future__ import annotations

import sys

import click

from pnpgen.cli import (
    _content_option,
    _debug_option,
    _format_option,
    _guarded,
    _no_check_option,
    _out_option,
    _project,
    _report,
    main,
)
from pnpgen.cli.export import export
from pnpgen.cli.paths import PathParam
from pnpgen.errors import counted, printable

TARGET_NAMES = ("tgc", "dtc", "pdfx", "factory")


@export.command(name="shop")
@click.argument("target", type=click.Choice(TARGET_NAMES))
@click.argument("game")
@click.argument("components", nargs=-1)
@click.option(
    "--cmyk-profile",
    "cmyk_profile",
    type=PathParam("CMYK profile", kind="file", exists=True),
    help="The printer's CMYK ICC profile (.icc): colours and art are separated through it (else by pnpgen's "
    "formula), and it is embedded in the PDF/X output intent. dtc, pdfx and factory.",
)
@_no_check_option
@_debug_option
@_content_option
@_out_option
@_guarded
def export_shop(target, game, components, cmyk_profile, content, out, debug, no_check):
    """Files for a print shop or factory, into OUT/GAME/shop/TARGET/. TARGET: tgc (The Game Crafter: a PNG per
    card, tile and token face and board side at its template size, 300 dpi, sRGB), dtc (DriveThruCards: fronts and backs PDFs per card deck,
    one card a page, 1/8 in bleed, PDF/X-1a CMYK), pdfx (PDF/X-1a of every component, one piece a page, 3 mm
    bleed, and the rulebook as a saddle-stitched booklet), factory (tiles and tokens on punchboard sheets with
    die lines in the spot colour die-cut, and a die file; cards and boards as pdfx). Every target also gets
    spec.csv and spec.pdf. Preflight runs first: an error there writes nothing."""
    from pnpgen.shop.export import export_shop as run

    results, diags, skipped = run(
        _project(content, out), target, game, list(components), not no_check, cmyk_profile
    )
    _report(diags)
    for cid, why in skipped:
        click.echo(f"skipped {game}/{cid}: {why}")
    for r in results:
        click.echo(
            f"exported {game}/{r.component} for {target}: {counted(len(r.files), 'file')} -> {out / game / 'shop' / target}"
        )


def _target_first(target, game, components, old_target):
    """`preflight TARGET GAME [COMPONENTS]`; the older `preflight GAME [COMPONENTS] --target TARGET` still works
    (a game named like a target is not possible: the target is read first only without --target)."""
    if old_target is None:
        if target is None or game is None:
            raise click.UsageError("name the shop and the game: pnpgen preflight TARGET GAME [COMPONENTS]")
        if target not in TARGET_NAMES:
            raise click.BadParameter(
                f"'{printable(target)}' is not one of {', '.join(TARGET_NAMES)}", param_hint="TARGET"
            )
        return target, game, list(components)
    words = [w for w in (target, game, *components) if w is not None]
    if not words:
        raise click.UsageError("name the game: pnpgen preflight TARGET GAME [COMPONENTS]")
    return old_target, words[0], words[1:]


@main.command(name="preflight")
@click.argument("target", metavar="TARGET", required=False)
@click.argument("game", metavar="GAME", required=False)
@click.argument("components", nargs=-1)
@click.option(
    "--target", "old_target", type=click.Choice(TARGET_NAMES), hidden=True
)  # before 0.x: --target T
@_format_option
@click.option("--json", "as_json", is_flag=True, hidden=True)  # the old spelling of --format json
@_no_check_option
@_debug_option
@_content_option
@_guarded
def preflight(target, game, components, old_target, fmt, as_json, content, debug, no_check):
    """What TARGET (as `export shop TARGET`: tgc, dtc, pdfx, factory) would say about GAME's files: one line
    per finding at the content that causes it (file:line:column and the card). Exit 1 when there is an
    error."""
    from pnpgen.shop.export import preflight_game

    target, game, components = _target_first(target, game, components, old_target)
    as_json = as_json or fmt == "json"
    found, diags = preflight_game(_project(content), target, game, list(components), not no_check)
    _report(diags)
    if as_json:
        click.echo(found.as_json(), nl=False)
    else:
        from pnpgen.errors import Diagnostics

        lines = Diagnostics()
        found.report_into(lines)
        for d in lines.sorted():
            click.echo(d.format())
        click.echo(
            f"preflight {game} for {target}: {counted(len(found.errors), 'error')}, "
            f"{counted(len(found.warnings), 'warning')}"
        )
    if found.errors:
        sys.exit(1)
