"""The click layer: flags, output, exit codes. No logic beyond calling the stages.

Exit codes: 0 done; 1 content errors (with --strict, warnings too); 2 usage errors.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import click

from pnpgen import __version__
from pnpgen.errors import ContentError, Diagnostics

PAPER = click.Choice(["a4", "letter"], case_sensitive=False)


def _content_option(f):
    return click.option(
        "--content",
        "content",
        type=click.Path(file_okay=False, path_type=Path),
        default="content",
        show_default=True,
        help="Folder holding one folder per game.",
    )(f)


def _debug_option(f):
    return click.option("--debug", is_flag=True, help="Show Python tracebacks for internal errors.")(f)


def _report(diags: Diagnostics, strict: bool) -> None:
    for d in diags.sorted():
        if d.severity == "warning" and strict:
            d = type(d)("error", d.location, d.message + " [--strict]", d.hint)
        colour = "red" if d.severity == "error" else "yellow"
        text = d.format()
        head, _, rest = text.partition(f" {d.severity}: ")
        click.echo(head + " " + click.style(f"{d.severity}:", fg=colour, bold=True) + " " + rest, err=True)


def _fail_internal(exc: BaseException, debug: bool) -> None:
    if debug:
        traceback.print_exception(exc)
    else:
        click.echo(
            f"pnpgen: internal error: {type(exc).__name__}: {exc}\n"
            f"  run again with --debug for the traceback",
            err=True,
        )
    sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnpgen")
def main() -> None:
    """pnpgen: print-and-play component generator and rulebook builder for board games.

    Content (YAML) in content/<game>/ becomes printable PDFs in output/<game>/: cards, tiles, tokens, boards
    and the rulebook, checked against the counts the game's documents state.
    """


@main.command()
@click.argument("games", nargs=-1)
@_content_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default="output",
    show_default=True,
    help="Where the PDFs and manifest.json go (one folder per game).",
)
@click.option("--paper", type=PAPER, default="a4", show_default=True, help="Paper size of the sheets.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes that build in parallel: games, or one game's files (default: one per core).",
)
@click.option("--no-check", is_flag=True, help="Build even when the rules check finds errors (says so).")
@_debug_option
def build(games, content, out, paper, strict, debug, jobs, no_check):
    """Build GAMES (all games in the content folder when none are named).

    Writes OUT/<game>/<component>.pdf (boards also <id>-full.pdf), OUT/<game>/rulebook.pdf and
    OUT/<game>/manifest.json. The rules check (content/<game>/facts.yaml) runs first and a game it fails is not
    written. Only outputs whose inputs changed are drawn again. A game with an error keeps its last good output;
    the other games still build.
    """
    from pnpgen import freshness

    paper = paper.lower()
    roots = _named_roots(content, games)
    project = content.resolve().parent
    stale = []
    for root in roots:  # answered from the manifests alone: nothing heavy is imported for a fresh game
        folders = [root / "layouts", project / "layouts"]
        if freshness.game_up_to_date(root, out, paper, project, folders, strict, checked=not no_check):
            from pnpgen.writers import remove_stale_temps

            remove_stale_temps(out / root.name)  # what a killed build may have left beside good files
            click.echo(f"up to date {root.name}")
        else:
            stale.append(root.name)
    if not roots:
        click.echo(f"no games in {content} (a game is a folder with a game.yaml)", err=True)
    if not stale:
        sys.exit(0)
    if no_check:
        click.echo(
            "rules check skipped (--no-check): these PDFs have not been held against the documents", err=True
        )
    from pnpgen import build as build_mod

    tty = sys.stderr.isatty()
    bar = {"bar": None}

    def step_factory(total):
        if not tty or total == 0:
            return lambda name: None
        bar["bar"] = click.progressbar(length=total, label="  building", file=sys.stderr, show_pos=True)
        bar["bar"].__enter__()
        return lambda name: bar["bar"].update(1)

    try:
        results = build_mod.build(
            content,
            out,
            stale,
            paper,
            strict,
            step_factory=step_factory,
            workers=jobs,
            check=None if no_check else _build_check,
        )
    except LookupError as exc:
        raise click.UsageError(str(exc)) from None
    except ContentError as exc:
        _report(exc.diagnostics, strict)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - the CLI owns what the user sees
        _fail_internal(exc, debug)
    finally:
        if bar["bar"] is not None:
            bar["bar"].__exit__(None, None, None)
    failed = []
    for r in results:
        _report(r.diagnostics, strict)
        if r.ok:
            pages = sum(f["pages"] for f in r.files)
            faces = sum(f["faces"] for f in r.files)
            kept = len(r.reused)
            detail = f"{len(r.rendered)} rendered" + (f", {kept} up to date" if kept else "")
            click.echo(
                f"built {r.game}: {len(r.files)} files ({detail}), {faces} faces, {pages} pages -> {r.out_dir}"
            )
        else:
            failed.append(r.game)
            n = len(r.diagnostics.errors) + (len(r.diagnostics.warnings) if strict else 0)
            click.echo(
                f"failed {r.game}: {n} error{'s' if n != 1 else ''}; its output was left as it was", err=True
            )
    sys.exit(1 if failed else 0)


@main.command(name="list")
@click.argument("games", nargs=-1)
@_content_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_debug_option
def list_(games, content, fmt, debug):
    """List the games, their components, kinds and counts."""
    from pnpgen.build import game_roots
    from pnpgen.schema import load_game

    try:
        roots = game_roots(content, list(games) or None)
    except LookupError as exc:
        raise click.UsageError(str(exc)) from None
    out, diags = [], Diagnostics()
    for root in roots:
        try:
            game = load_game(root)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        except Exception as exc:  # noqa: BLE001
            _fail_internal(exc, debug)
        out.append(
            {
                "game": game.id,
                "title": game.title,
                "players": game.players,
                "components": [
                    {
                        "id": c.id,
                        "name": c.name,
                        "kind": c.kind,
                        "cards": len(getattr(c, "cards", c.sides if hasattr(c, "sides") else ())),
                        "faces": c.faces,
                        "designed": sum(x.count for x in getattr(c, "cards", ()) if x.designed),
                    }
                    for c in game.components
                ],
            }
        )
    _report(diags, False)
    if fmt == "json":
        click.echo(json.dumps({"games": out}, indent=2, ensure_ascii=False))
    else:
        for g in out:
            click.echo(f"{g['game']}  {g['title']}  ({g['players']} players)")
            for c in g["components"]:
                designed = f", {c['designed']} designed" if c["designed"] else ""
                click.echo(
                    f"  {c['id']:<24} {c['kind']:<8} {c['faces']:>5} faces ({c['cards']} different{designed})"
                )
    sys.exit(1 if diags.errors else 0)


@main.command()
@click.argument("game", required=False)
@_content_option
def icons(game, content):
    """List the icon names available (built in, plus GAME's own)."""
    from pnpgen.build import game_roots, load_game_icons
    from pnpgen.icons import BUILTIN, load_icons
    from pnpgen.schema import load_game

    diags = Diagnostics()
    if game:
        try:
            g = load_game(game_roots(content, [game])[0])
        except LookupError as exc:
            raise click.UsageError(str(exc)) from None
        except ContentError as exc:
            _report(exc.diagnostics, False)
            sys.exit(1)
        found = load_game_icons(g, diags)
    else:
        found = load_icons(BUILTIN, {}, diags)
    _report(diags, False)
    for name in sorted(found):
        click.echo(name)
    sys.exit(1 if diags.errors else 0)


@main.group()
def export():
    """Export a game's components as images: png (print-on-demand), tts (Tabletop Simulator), sheet."""


def _export_common(f):
    f = click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        default="output",
        show_default=True,
        help="Images go to OUT/<game>/...",
    )(f)
    f = _content_option(f)
    f = _debug_option(f)
    return f


def _run_export(debug, fn, game=None, diags=None):
    """Run an export; usage errors exit 2, content errors 1; warnings shown; an empty result said so."""
    try:
        results = fn()
    except LookupError as exc:
        raise click.UsageError(str(exc)) from None
    except ContentError as exc:
        _report(exc.diagnostics, False)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001
        _fail_internal(exc, debug)
    if diags is not None:
        _report(diags, False)
    if game is not None and not results:
        click.echo(f"{game} has no card decks to export")
    return results


@export.command(name="png")
@click.argument("game")
@click.argument("components", nargs=-1)
@click.option("--dpi", type=click.IntRange(50, 1200), default=300, show_default=True)
@click.option(
    "--bleed/--no-bleed",
    default=True,
    show_default=True,
    help="Include the 1/8 in bleed print-on-demand shops ask for.",
)
@_export_common
def export_png(game, components, dpi, bleed, content, out, debug):
    """One PNG per card face and back, for print-on-demand shops, with cards.csv of counts."""
    from pnpgen.export import export_png as run

    diags = Diagnostics()
    results = _run_export(
        debug, lambda: run(content, out, game, list(components), dpi, bleed, diags), game, diags
    )
    for r in results:
        click.echo(
            f"exported {game}/{r.component}: {len(r.files) - 1} images -> {out / game / 'png' / r.component}"
        )


@export.command(name="tts")
@click.argument("game")
@click.argument("components", nargs=-1)
@_export_common
def export_tts(game, components, content, out, debug):
    """Tabletop Simulator deck sheets (10 x 7 at most, 4096 px a side) and back images."""
    from pnpgen.export import export_tts as run

    diags = Diagnostics()
    results = _run_export(debug, lambda: run(content, out, game, list(components), diags), game, diags)
    for r in results:
        click.echo(f"exported {game}/{r.component}: {', '.join(r.files)} -> {out / game / 'tts'}")


@export.command(name="sheet")
@click.argument("game")
@click.option("--paper", type=PAPER, default="a4", show_default=True)
@_export_common
def export_sheet(game, paper, content, out, debug):
    """A contact sheet of every component of GAME as one PNG (builds the game first if needed)."""
    from pnpgen import build as build_mod
    from pnpgen.export import export_sheet as run

    def go():
        results = build_mod.build(content, out, [game], paper.lower(), False)
        r = results[0]
        if not r.ok:
            raise ContentError(r.diagnostics)
        pdfs = [out / game / f["path"] for f in r.files]
        return run(out, game, pdfs)

    target = _run_export(debug, go)
    click.echo(f"contact sheet -> {target}")


@main.command()
@click.argument("games", nargs=-1)
@_content_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default="output", show_default=True)
@click.option("--paper", type=PAPER, default="a4", show_default=True)
@click.option("--poll", is_flag=True, help="Poll for changes instead of using file-system events.")
def watch(games, content, out, paper, poll):
    """Rebuild GAMES (all when none) whenever their content or the shared layouts change.

    Prints what was rebuilt and how long it took; broken content is reported and the watch goes on.
    """
    from pnpgen.watch import run

    _named_roots(content, games)  # usage errors before anything starts

    def echo(text, err):
        click.echo(text, err=err)
        (sys.stderr if err else sys.stdout).flush()

    run(content, out, list(games) or None, paper.lower(), echo, lambda d: _report(d, False), poll=poll)


def _build_check(root, game=None):
    """The rules check a build runs once the content has loaded and drawn without error."""
    from pnpgen.checker import check_game

    return check_game(root, None, require_facts=False, game=game)


def _check_games(roots, players, strict, require_facts=True):
    from pnpgen.checker import check_game

    return [check_game(root, players, require_facts) for root in roots]


@main.command()
@click.argument("games", nargs=-1)
@_content_option
@click.option(
    "--players", type=click.IntRange(1, 100), default=None, help="Check the supply rules for N players only."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@_debug_option
def check(games, content, players, fmt, strict, debug):
    """Hold each game's content against the counts its documents state (content/<game>/facts.yaml).

    One line per finding: severity component: message (expected X, found Y) [file:line], then a summary per
    game. Errata (known conflicts in the documents, resolved on purpose) are listed but never fail the check.
    """

    roots = _named_roots(content, games)
    try:
        reports = _check_games(roots, players, strict)
    except Exception as exc:  # noqa: BLE001
        _fail_internal(exc, debug)
    if fmt == "json":
        out = {
            "games": [
                {
                    "game": r.game,
                    "ok": r.ok(strict),
                    "facts": r.facts,
                    "findings": [f.as_json() for f in r.findings],
                }
                for r in reports
            ]
        }
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for r in reports:
            for f in r.findings:
                colour = {"error": "red", "warning": "yellow", "erratum": "cyan"}[f.severity]
                click.echo(click.style(f.severity, fg=colour, bold=True) + f.text()[len(f.severity) :])
            state = "ok" if r.ok(strict) else "FAILED"
            click.echo(
                f"{r.game}: {r.facts} facts checked, {r.count('error')} errors, {r.count('warning')} warnings, "
                f"{r.count('erratum')} errata: {state}"
            )
    sys.exit(0 if all(r.ok(strict) for r in reports) else 1)


def _named_roots(content, games):
    from pnpgen import freshness

    if not content.is_dir():
        raise click.UsageError(f"content folder '{content}' does not exist")
    try:
        return freshness.select(content, list(games) or None)
    except LookupError as exc:
        raise click.UsageError(str(exc)) from None
