"""`python -m pnpgen` and the `pnpgen` command: a rebuild with nothing to do is answered before click is
imported (`commands.build.answer_unchanged`); everything else is the click CLI (`pnpgen.cli`). Both print on
any console (`errors.safe_console`) and end quietly when their reader stops (`errors.pipe_closed`); a Ctrl-C at any
moment, even before click has started, ends the command as click ends it (`Aborted!`, exit 1), never a traceback."""

import sys


def main() -> None:
    try:
        _main()
    except KeyboardInterrupt:  # outside click (the imports, the unchanged check): answered as click does
        print("Aborted!", file=sys.stderr, flush=True)
        sys.exit(1)


def _main() -> None:
    from pnpgen.commands.build import answer_unchanged
    from pnpgen.errors import pipe_closed, safe_console

    safe_console()  # a console that cannot print UTF-8 (cp1252) shows escapes, never fails a command
    judged: dict = {}  # each game found up to date or not, for the build not to judge it again
    try:
        if answer_unchanged(sys.argv[1:], judged):
            sys.stdout.flush()  # here, where a reader that stopped (`| head`) is answered quietly
            sys.exit(0)
        from pnpgen.cli import main as cli

        cli(obj={"judged": judged})
    except BrokenPipeError:
        pipe_closed()
    except SystemExit:
        if type(sys.stdout).__name__.endswith(
            "PacifyFlushWrapper"
        ):  # click's own answer to a closed pipe (--help)
            pipe_closed()
        raise


def run() -> None:
    """The program: `main`, then the end of the process (`quick_exit`). The `pnpgen` command and `python -m
    pnpgen` run this; `main` alone, called in another program (a test), leaves that program running."""
    try:
        main()
    except SystemExit as done:
        quick_exit(done.code)
        raise


def quick_exit(code: object) -> None:
    """End the finished command without Python's teardown of every module it imported (ReportLab and its fonts,
    Jinja, Pillow, click...: 0.04-0.05 s after a build, a tenth of a one-card edit), as mypy ends its runs. What
    must happen at exit happens first: the exit handlers (the converted fonts' temporary folder is removed) and
    the output streams' flush. Returns, for the usual exit, when a stream cannot be flushed."""
    import atexit
    import os

    atexit._run_exitfuncs()  # the handlers Python would run: before the streams, as Python does
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe, a closed stream: Python's own exit says what it says
        return
    if code is None or isinstance(code, int):
        os._exit(code or 0)
    print(code, file=sys.stderr, flush=True)  # what Python prints for `sys.exit("message")`
    os._exit(1)


if __name__ == "__main__":
    run()
