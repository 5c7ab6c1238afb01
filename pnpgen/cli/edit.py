"""`pnpgen edit`: change a layout element's values, or a card's field, in place (`pnpgen.edit`, the writer the
editor in `pnpgen serve` uses too)."""

from __future__ import annotations

from pathlib import Path

import click

from pnpgen.cli import _debug_option, _guarded, main
from pnpgen.cli.paths import PathParam
from pnpgen.errors import ContentError, Location, display_path, printable


def _value(text: str):
    """A command line VALUE: a number, true/false, a [list] or {mapping} read as YAML; empty removes the key;
    anything else is the text as typed (`fill=#ff0000` is a colour, not a comment)."""
    from pnpgen.source import load_text

    if text == "":
        return None
    try:
        value = load_text("v: " + text, "VALUE")["v"]
    except (ContentError, TypeError):
        return text
    if isinstance(value, (bool, int, float, list, dict)) and not isinstance(value, str):
        return value
    return text


def _pairs(pairs: tuple[str, ...]) -> dict:
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise click.UsageError(f"'{printable(pair)}' is not KEY=VALUE")
        out[key.strip()] = _value(value)
    return out


def _ref(text: str) -> int | str:
    return int(text) if text.isdigit() else text


@main.command()
@click.argument("file", type=PathParam("file to edit", kind="file", exists=True, writes=True))
@click.argument("args", nargs=-1)
@click.option(
    "--add", "add", metavar="TYPE", help="Add an element of TYPE (after ELEMENT when one is given)."
)
@click.option("--delete", is_flag=True, help="Delete ELEMENT.")
@click.option("--duplicate", is_flag=True, help="Copy ELEMENT just after it (a new id: --id).")
@click.option("--id", "new_id", help="The id of the copy made by --duplicate.")
@click.option(
    "--move-to",
    type=click.IntRange(0, 100_000),
    metavar="N",
    help="Move ELEMENT to position N (from 0; later draws on top).",
)
@click.option("--sheet", help="A workbook's sheet (card data).")
@click.option(
    "--expect", metavar="SHA256", help="Refuse the edit when the file's digest is no longer this one."
)
@_debug_option
@_guarded
def edit(file, args, add, delete, duplicate, new_id, move_to, sheet, expect, debug):
    """Change FILE in place: `pnpgen edit LAYOUT_FILE ELEMENT KEY=VALUE ...` sets an element's keys (ELEMENT: its
    id, or its position in the file's elements from 0; an empty VALUE removes the key); `pnpgen edit CARD_FILE
    CARD FIELD=VALUE ...` sets a card's fields in a deck's YAML file or a CSV sheet (CARD: its name or its
    position from 0). Only the edited values change: comments, order, quoting, line endings stay. Every value is
    checked as the build checks it first; a bad one leaves the file untouched (exit 1)."""
    from pnpgen import edit as engine
    from pnpgen.inputs import PACKAGE

    if file.resolve().is_relative_to(PACKAGE.resolve()):
        raise ContentError.at(
            Location(display_path(file)),
            "this is one of pnpgen's built-in layouts; copy it into your game's layouts/ folder and edit the copy",
        )
    if add:
        first = args[0] if args and "=" not in args[0] else None
        result = engine.add_element(
            file, add, _pairs(args[1:] if first else args), _ref(first) if first else None, expect
        )
        return _said(result)
    if not args:
        raise click.UsageError("name the ELEMENT (or CARD) to edit")
    target, pairs = _ref(args[0]), _pairs(args[1:])
    actions = [bool(pairs), delete, duplicate, move_to is not None]
    if sum(actions) != 1:
        raise click.UsageError("give KEY=VALUE pairs, or one of --delete, --duplicate, --move-to")
    if _is_cards(file):
        if not pairs:
            raise click.UsageError("a card's fields are changed with FIELD=VALUE")
        for field, value in pairs.items():
            result = engine.set_card_field(file, target, field, value, expect, sheet)
            expect = result.digest if expect else None
            _said(result)
        return None
    if delete:
        return _said(engine.delete_element(file, target, expect))
    if duplicate:
        return _said(engine.duplicate_element(file, target, new_id, expect))
    if move_to is not None:
        return _said(engine.move_order(file, target, move_to, expect))
    return _said(engine.set_values(file, target, pairs, expect))


def _is_cards(file: Path) -> bool:
    """A data sheet, a YAML list (of cards, that `cards_from` names), or a YAML file with none of a layout's
    keys (a deck's file)."""
    if file.suffix.lower() not in (".yaml", ".yml"):
        return True
    from pnpgen.edit.textfile import read
    from pnpgen.source import LList, LMap, load_text

    tf = read(file)
    data = load_text(tf.plain, tf.display)
    from pnpgen.layout.spec import LAYOUT_KEYS

    return isinstance(data, LList) or (isinstance(data, LMap) and not any(key in data for key in LAYOUT_KEYS))


def _said(result) -> None:
    where = display_path(result.path)
    if not result.lines and result.before == result.digest:
        click.echo(f"{where}: nothing to change")
    for line, text in result.lines:
        click.echo(printable(f"{where}:{line}: {text}"))
    click.echo(f"sha256 {result.digest}")
