"""The last line of defence every command shares (`_guarded`) and how findings are printed (`_report`)."""

from __future__ import annotations

import functools
import sys
import traceback
from typing import NoReturn

import click

from pnpgen.errors import (
    ContentError,
    Diagnostic,
    Diagnostics,
    Location,
    UsageProblem,
    display_path,
    pipe_closed,
    printable,
)
from pnpgen.project import UnknownGame


def _report(diags: Diagnostics, strict: bool = False) -> None:
    for d in diags.sorted():
        if d.severity == "warning" and strict:
            d = type(d)("error", d.location, d.message + " [--strict]", d.hint)
        colour = "red" if d.severity == "error" else "yellow"
        text = d.format()
        head, _, rest = text.partition(f" {d.severity}: ")
        click.echo(head + " " + click.style(f"{d.severity}:", fg=colour, bold=True) + " " + rest, err=True)


def _guarded(command):
    """Content errors exit 1 with their messages, usage errors 2, a file the system refused (a full disk, a
    folder that may not be written) 1 naming the file, anything else one line (traceback: --debug); a reader that
    stops (`| head`) ends the command quietly (`errors.pipe_closed`)."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            try:
                return _answered(command, args, kwargs)
            finally:
                sys.stdout.flush()  # here, not at exit, so that a closed pipe is answered below
        except BrokenPipeError:
            pipe_closed()

    return wrapper


def _answered(command, args, kwargs):
    debug = kwargs.get("debug", False)
    try:
        return command(*args, **kwargs)
    except (UnknownGame, UsageProblem) as exc:
        raise click.UsageError(printable(str(exc))) from None
    except ContentError as exc:
        _report(exc.diagnostics, kwargs.get("strict", False))
        sys.exit(1)
    except (click.exceptions.Exit, click.ClickException, SystemExit, KeyboardInterrupt, BrokenPipeError):
        raise
    except OSError as exc:  # the system refused a file (no space, no permission): name it, no traceback
        if exc.filename is None or debug:
            _internal(exc, debug)
        where = Location(display_path(exc.filename))
        _report(Diagnostics([Diagnostic("error", where, f"could not use it: {exc.strerror or exc}")]))
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - the CLI owns what the user sees
        _internal(exc, debug)


def _internal(exc: BaseException, debug: bool) -> NoReturn:
    if debug:
        traceback.print_exception(exc)
    else:
        click.echo(
            printable(f"pnpgen: internal error: {type(exc).__name__}: {exc}")
            + "\n  run again with --debug for the traceback",
            err=True,
        )
    sys.exit(1)
