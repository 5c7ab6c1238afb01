"""One plain function per command (mkdocs' `commands/`): each takes a `Project` and options and returns what
happened; `pnpgen.cli` turns that into output and exit codes. Nothing here prints or exits."""
