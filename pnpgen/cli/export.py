"""`pnpgen export png | tts | sheet | checklist`: a game's components as images, a virtual-table file, a list."""

from __future__ import annotations

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
from pnpgen.errors import counted, printable


@main.group()
def export():
    """Export a game's components: png (print-on-demand), tts (Tabletop Simulator), sheet, checklist (cards and
    counts as CSV), shop (print shops and factories: tgc, dtc, pdfx, factory)."""


def _export_common(f):
    for option in (_no_check_option, _debug_option, _content_option, _out_option):
        f = option(f)
    return f


def _no_decks(game, results) -> None:
    if not results:
        click.echo(f"{game} has no card decks to export")


@export.command(name="png")
@click.argument("game")
@click.argument("components", nargs=-1)
@click.option(
    "--dpi",
    type=click.IntRange(50, 1200),
    default=300,
    show_default=True,
    help="Pixels per inch of every image.",
)
@click.option(
    "--bleed/--no-bleed",
    default=True,
    show_default=True,
    help="Include the 1/8 in bleed print-on-demand shops ask for.",
)
@_export_common
@_guarded
def export_png(game, components, dpi, bleed, content, out, debug, no_check):
    """One PNG per card face and back, for print-on-demand shops, with cards.csv of counts."""
    from pnpgen.exports.png import export_png as run

    results, diags = run(_project(content, out), game, list(components), dpi, bleed, not no_check)
    _report(diags)
    _no_decks(game, results)
    for r in results:
        click.echo(
            f"exported {game}/{r.component}: {counted(len(r.files) - 1, 'image')} -> {out / game / 'png' / r.component}"
        )


def _url(ctx, param, value):
    """A URL base: no spaces or control characters (a NUL would reach the saved object)."""
    if value is not None and any(ord(ch) <= 32 or ord(ch) == 127 for ch in value):
        raise click.BadParameter(f"'{printable(value)}' holds a space or a control character; not a URL")
    return value


@export.command(name="tts")
@click.argument("game")
@click.argument("components", nargs=-1)
@click.option(
    "--url-base",
    callback=_url,
    help="Where the images will be uploaded (https://...): the saved object names them under it. "
    "Default: file:/// URLs of the exported images, which TTS loads on this machine.",
)
@click.option(
    "--save",
    is_flag=True,
    help="Also write OUT/GAME/tts/GAME-save-Np.json: the game set up for --players N (Games > Save & Load).",
)
@click.option(
    "--players",
    type=click.IntRange(1, 10),
    help="How many players the save sets the game up for (default with --save: the game's most, at most "
    "10, TTS's seats).",
)
@_export_common
@_guarded
def export_tts(game, components, url_base, save, players, content, out, debug, no_check):
    """Tabletop Simulator: deck sheets (10 x 7 at most, 4096 px a side) and backs, images of tiles, tokens and
    boards (transparent outside their outline), and OUT/GAME/tts/GAME-saved-object.json holding all of them
    (every deck with its counts, tile and token bags, boards): copy it into TTS's Saves/Saved Objects folder.
    With --save, also a whole table for --players N: copy it into TTS's Saves folder."""
    from pnpgen.exports.tts import export_tts as run

    if players is not None and not save:
        raise click.UsageError("--players sets up the save: give --save too")
    results, diags = run(
        _project(content, out),
        game,
        list(components),
        not no_check,
        url_base,
        (players or 0) if save else None,
    )
    _report(diags)
    for r in results:
        click.echo(f"exported {game}/{r.component}: {', '.join(r.files)} -> {out / game / 'tts'}")


@export.command(name="sheet")
@click.argument("game")
@_paper_option
@_printer_option
@_export_common
@_guarded
def export_sheet(game, paper, printer, content, out, debug, no_check):
    """A contact sheet of every component of GAME as one PNG (builds the game first if needed)."""
    from pnpgen.exports.sheet import export_sheet as run

    paper, printing, asked = _printing(content, paper, None, False, None, None, printer)
    target = run(_project(content, out, paper, printing, asked), game, not no_check)
    click.echo(f"contact sheet -> {target}")


@export.command(name="checklist")
@click.argument("games", nargs=-1)
@_export_common
@_guarded
def export_checklist(games, content, out, debug, no_check):
    """Every card of each deck with its count, one spreadsheet a game: OUT/<game>/checklist/checklist.csv
    (deck, card, count) for GAMES (all games when none are named). Every game is loaded and checked first;
    one that fails leaves every game's old checklist as it was."""
    from pnpgen.exports.checklist import export_checklist as run

    results, diags = run(_project(content, out), list(games) or None, not no_check)
    _report(diags)
    if not results:
        click.echo(f"no games in {content} (a game is a folder with a game.yaml)", err=True)
    for r in results:
        click.echo(f"exported {r.component}: {', '.join(r.files)} -> {out / r.component / 'checklist'}")
