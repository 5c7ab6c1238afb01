"""`python -m pnpgen` and the `pnpgen` command: a rebuild with nothing to do is answered before click is
imported (`commands.build.answer_unchanged`); everything else is the click CLI (`pnpgen.cli`). Both print on
any console (`errors.safe_console`)."""

import sys


def main() -> None:
    from pnpgen.commands.build import answer_unchanged
    from pnpgen.errors import safe_console

    safe_console()  # a console that cannot print UTF-8 (cp1252) shows escapes, never fails a command
    if answer_unchanged(sys.argv[1:]):
        sys.exit(0)
    from pnpgen.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
