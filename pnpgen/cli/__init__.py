"""The click layer: flags, output, exit codes. Each command calls one function of `pnpgen.commands` (or the
pipeline) and reports what it returns.

Exit codes: 0 done; 1 content errors (with --strict, warnings too); 2 usage errors. Every command has the same
last line of defence (`_guarded`): one line naming what failed, a traceback only with --debug.
"""

from __future__ import annotations

import functools
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from pnpgen import __version__
from pnpgen.cli.guard import _guarded, _report
from pnpgen.cli.paths import PathParam
from pnpgen.errors import counted, printable
from pnpgen.project import Project

PAPER = click.Choice(["a4", "letter"], case_sensitive=False)
PAPER_HELP = (
    "Paper size of the sheets: a4 or letter (default: the game's print.paper, else A4; a --printer profile's "
    "paper comes before the game's)."
)
FORMAT_HELP = "text: one line per item, as a person reads it; json: the same as data, for a program."
_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help=FORMAT_HELP,
)


def _content_option(f, writes: bool = False):
    return click.option(
        "--content",
        "content",
        type=PathParam("content folder", exists=not writes, writes=writes),
        default="content",
        show_default=True,
        help="Folder holding one folder per game.",
    )(f)


def _out_option(f):
    return click.option(
        "--out",
        type=PathParam("output folder", writes=True),
        default="output",
        show_default=True,
        help="Where files go (one folder per game).",
    )(f)


def _debug_option(f):
    return click.option("--debug", is_flag=True, help="Show Python tracebacks for internal errors.")(f)


def _no_check_option(f):
    return click.option(
        "--no-check",
        is_flag=True,
        help="Skip the rules check; by default a game it fails is neither written nor exported.",
    )(f)


def _project(
    content: Path, out: Path = Path("output"), paper: str | None = None, printing=None, asked: tuple = ()
) -> Project:
    """The project of a command; `paper` None: each game's own `print: paper`, else A4."""
    if not content.is_dir():  # the options' type checked both paths (`cli/paths.py`)
        raise click.UsageError(f"content folder '{printable(str(content))}' does not exist")
    paper = paper.lower() if paper else None
    return Project(content, out, paper) if printing is None else Project(content, out, paper, printing, asked)


def _paper_option(f):
    return click.option("--paper", type=PAPER, help=PAPER_HELP)(f)


def _printer_option(f):
    return click.option(
        "--printer", metavar="NAME", help="A printer profile of printers.yaml (see the README)."
    )(f)


def _printing_options(f):
    """How the sheets are printed: duplex form(s), the printer's back offset, or a named printer profile."""
    for option in reversed(
        (
            click.option(
                "--duplex",
                type=click.Choice(["long", "short", "none"]),
                help="How the printer turns the sheet: long (the default), short, or none (backs as pages of their "
                "own, unmirrored, for single-sided printing and gluing).",
            ),
            click.option(
                "--fold",
                is_flag=True,
                help="Also write <deck>-fold.pdf: each front beside its own back, to print single-sided, fold "
                "and cut.",
            ),
            click.option(
                "--ink",
                type=click.Choice(["full", "low", "both"]),
                help="Full colour (the default), low ink (<deck>-lowink.pdf: pale backgrounds, black text, "
                "lightened art), or both.",
            ),
            click.option(
                "--forms",
                type=click.Choice(["all"]),
                help="Write every form: <deck>.pdf (long), <deck>-short.pdf, <deck>-single.pdf, <deck>-fold.pdf, "
                "each also in low ink (-lowink).",
            ),
            click.option(
                "--back-offset",
                metavar="X,Y[,ANGLE]",
                help="Move every back page X,Y mm (and turn it ANGLE degrees) to correct a printer's drift, as "
                "`pnpgen calibrate` measures it: positive X right, positive Y up, on the back page as the PDF "
                "shows it.",
            ),
            _printer_option,
        )
    ):
        f = option(f)
    return f


def _printing(content: Path, paper, duplex, fold, forms, back_offset, printer, ink=None):
    """(paper, Printing, asked) from the flags, over the named printer profile, over the defaults; `asked` names
    the choices made here, which a game's `print:` defaults do not override; the paper is None when neither
    gives one (each game's `print: paper` then, else A4)."""
    from pnpgen.imposition.duplex import FORMS, INKS, Printing, parse_offset

    profile = None
    if printer:
        from pnpgen.schema.printers import find

        profile = find(printer, content.resolve().parent)
    paper = paper or (profile.paper if profile else None)
    flip = duplex or (profile.duplex if profile else None) or "long"
    offset = back_offset or (profile.back_offset if profile else None)
    try:
        dx, dy, angle = parse_offset(offset) if offset else (0.0, 0.0, 0.0)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--back-offset") from None
    flips = FORMS if forms == "all" else (flip, "fold") if fold else (flip,)
    inks = INKS if forms == "all" else {"full": ("full",), "low": ("low",), "both": INKS}[ink or "full"]
    asked = tuple(
        name
        for name, given in (
            ("duplex", duplex or (profile and profile.duplex)),
            ("fold", fold),
            ("ink", ink),
            ("forms", forms),
        )
        if given
    )
    return paper, Printing(flips, dx, dy, angle, inks), asked


class _Bar:
    """The build's progress bar, in files written: its length grows as each game knows how many it writes."""

    def __init__(self) -> None:
        self.bar: Any = None  # click's ProgressBar, once a game knows its files

    def planned(self, n: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(length=n, label="  writing files", file=sys.stderr, show_pos=True)
            self.bar.__enter__()
        else:
            self.bar.length += n
        self.bar.render_progress()

    def written(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


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
@_out_option
@_paper_option
@_printing_options
@click.option(
    "--no-print-all",
    is_flag=True,
    help="Leave out print-all.pdf (the whole game in one file for one print job), for faster rebuilds.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes that build in parallel: games, or one game's files (default: one per core).",
)
@_no_check_option
@_debug_option
@_guarded
def build(
    games,
    content,
    out,
    paper,
    duplex,
    fold,
    ink,
    forms,
    back_offset,
    printer,
    no_print_all,
    strict,
    debug,
    jobs,
    no_check,
):
    """Build GAMES (all games in the content folder when none are named).

    Writes OUT/<game>/<component>.pdf (boards also <id>-full.pdf; decks also <id>-checklist.pdf when game.yaml's
    print: checklist is true), OUT/<game>/rulebook.pdf,
    OUT/<game>/print-all.pdf (a print-and-build page, then every component in print order, small sets sharing
    sheets; one per duplex form and ink; `watch` and `serve` leave it out) and OUT/<game>/manifest.json. The
    rules check (content/<game>/facts.yaml) runs first and a game it fails is not written. Only outputs whose
    inputs changed are drawn again. A game with an error keeps its last good output (every file of a game
    changes together or not at all); the other games still build.
    """
    from dataclasses import replace

    from pnpgen.commands.build import build as run

    paper, printing, asked = _printing(content, paper, duplex, fold, forms, back_offset, printer, ink)
    project = _project(content, out, paper, replace(printing, whole=not no_print_all), asked)  # cf. EDITING
    if not project.select(list(games) or None):
        click.echo(f"no games in {content} (a game is a folder with a game.yaml)", err=True)
        sys.exit(0)
    bar = _Bar()

    def progress(total: int):
        if no_check:
            click.echo(
                "rules check skipped (--no-check): these PDFs have not been held against the documents",
                err=True,
            )
        return bar if sys.stderr.isatty() and total else None

    obj = click.get_current_context().find_root().obj  # what `__main__` found before click was imported
    judged = obj.get("judged") if isinstance(obj, dict) else None
    try:
        outcome = run(project, list(games) or None, strict, not no_check, jobs, progress, judged)
    finally:
        bar.close()
    for name in outcome.up_to_date:
        click.echo(f"up to date {name}")
    failed = []
    for r in outcome.results:
        _report(r.diagnostics, strict)
        if r.ok:
            pages = sum(f["pages"] for f in r.files)
            faces = sum(f["faces"] for f in r.files if f["kind"] != "print-all")  # its faces are the others'
            kept = len(r.files) - r.written  # counted in files, as the total is (a board has two)
            detail = f"{r.written} rendered" + (f", {kept} up to date" if kept else "")
            paper = "" if r.paper == "a4" else f" on {r.paper} paper"  # A4 goes without saying
            click.echo(
                f"built {r.game}: {counted(len(r.files), 'file')} ({detail}), {counted(faces, 'face')}, "
                f"{counted(pages, 'page')}{paper} -> {r.out_dir}"
            )
            if r.removed:  # a form or a component no longer asked for: its old file would print stale
                click.echo(f"  removed (no longer built): {', '.join(r.removed)}")
        else:
            failed.append(r.game)
            shown = r.diagnostics.sorted()  # as `_report` printed them: each once
            n = sum(1 for d in shown if d.severity == "error" or strict)
            click.echo(f"failed {r.game}: {counted(n, 'error')}; its output was left as it was", err=True)
    sys.exit(1 if failed else 0)


@main.command(name="list")
@click.argument("games", nargs=-1)
@_content_option
@_format_option
@_debug_option
@_guarded
def list_(games, content, fmt, debug):
    """List the games, their components, kinds and counts."""
    from pnpgen.commands.info import list_games

    games_found, diags = list_games(_project(content), list(games) or None)
    _report(diags)
    if fmt == "json":
        click.echo(json.dumps({"games": games_found}, indent=2, ensure_ascii=False))
    else:
        for g in games_found:
            click.echo(printable(f"{g['game']}  {g['title']}  ({g['players']} players)"))
            for c in g["components"]:
                designed = f", {c['designed']} designed" if c["designed"] else ""
                designed += f", {c['left_out']} left out with count 0" if c["left_out"] else ""
                click.echo(
                    f"  {c['id']:<24} {c['kind']:<8} {counted(c['faces'], 'face'):>11} ({c['cards']} different{designed})"
                )
    sys.exit(1 if diags.errors else 0)


@main.command()
@click.argument("game", required=False)
@_content_option
@_debug_option
@_guarded
def icons(game, content, debug):
    """List the icon names available (built in, plus GAME's own)."""
    from pnpgen.commands.info import icon_names

    names, diags = icon_names(_project(content), game)
    _report(diags)
    for name in names:
        click.echo(name)
    sys.exit(1 if diags.errors else 0)


@main.command()
@click.argument("games", nargs=-1)
@_content_option
@click.option(
    "--players", type=click.IntRange(1, 100), default=None, help="Check the supply rules for N players only."
)
@_format_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@_debug_option
@_guarded
def check(games, content, players, fmt, strict, debug):
    """Hold each game's content against the counts its documents state (content/<game>/facts.yaml).

    One line per finding: severity component: message (expected X, found Y) [file:line:column], then a summary per
    game. Errata (known conflicts in the documents, resolved on purpose) are listed but never fail the check.
    """
    from pnpgen.commands.info import check as run

    reports = run(_project(content), list(games) or None, players)
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
                click.echo(
                    click.style(f.severity, fg=colour, bold=True) + printable(f.text()[len(f.severity) :])
                )
            state = "ok" if r.ok(strict) else "FAILED"
            click.echo(
                f"{r.game}: {counted(r.facts, 'fact')} checked, {counted(r.count('error'), 'error')}, "
                f"{counted(r.count('warning'), 'warning')}, {counted(r.count('erratum'), 'erratum')}: {state}"
            )
    sys.exit(0 if all(r.ok(strict) for r in reports) else 1)


@main.command()
@click.argument("game")
@functools.partial(_content_option, writes=True)
@_debug_option
@_guarded
def new(game, content, debug):
    """Write a starter game content/GAME/ that builds as it is: a deck from a spreadsheet, layouts with art and
    an icon, a rulebook and the facts the checker holds it to. Never writes over a folder that exists."""
    from pnpgen.commands.new import new_game

    files = new_game(content, game)
    click.echo(f"wrote {counted(len(files), 'file')} in {content / game}:")
    for path in files:
        click.echo(f"  {path.relative_to(content / game)}")
    again = "" if content == Path("content") else f" --content {shlex.quote(str(content))}"
    click.echo(f"next: pnpgen build {game}{again}, then open {Path('output', game, 'cards.pdf')}")


# More commands, each group in a module of its own (they register themselves on `main`).
from pnpgen.cli import edit as _edit  # noqa: E402, F401
from pnpgen.cli import export as _export  # noqa: E402, F401
from pnpgen.cli import iterate as _iterate  # noqa: E402, F401
from pnpgen.cli import printing as _printing_commands  # noqa: E402, F401
from pnpgen.cli import shop as _shop  # noqa: E402, F401
