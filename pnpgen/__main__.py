"""`python -m pnpgen` and the `pnpgen` command: a rebuild with nothing to do is answered before click is
imported (`commands.build.answer_unchanged`); everything else is the click CLI (`pnpgen.cli`). Both print on
any console (`errors.safe_console`) and end quietly when their reader stops (`errors.pipe_closed`)."""

import sys


def main() -> None:
    from pnpgen.commands.build import answer_unchanged
    from pnpgen.errors import pipe_closed, safe_console

    safe_console()  # a console that cannot print UTF-8 (cp1252) shows escapes, never fails a command
    try:
        if answer_unchanged(sys.argv[1:]):
            sys.stdout.flush()  # here, where a reader that stopped (`| head`) is answered quietly
            sys.exit(0)
        from pnpgen.cli import main as cli

        cli()
    except BrokenPipeError:
        pipe_closed()
    except SystemExit:
        if type(sys.stdout).__name__.endswith(
            "PacifyFlushWrapper"
        ):  # click's own answer to a closed pipe (--help)
            pipe_closed()
        raise


if __name__ == "__main__":
    main()
