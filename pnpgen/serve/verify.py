"""A write of the editor held to the build: what the build would refuse, the page refuses first.

A value can pass its key's table and still fail the build: a text set under the 6 pt floor once it is fitted, an
image file that is not there, a template naming a field no card has, a card's count the rules check no longer
finds, a cell the sheet reader reads otherwise. After each write (`serve/editor.py`, under its lock, so no build
starts in between) the game is loaded again, the rules check run (after a card file's write: it reads no layout),
and every face of every component that reads the written file drawn, as `build` draws them (`Painter.deck`,
`Painter.board`). Errors the game did not have before the write (its old bytes put back and judged the same way)
refuse it: the old bytes stay, the page says the first new error, file:line:column. A game already failing for
another reason can still be edited.

The check is bounded: a deck of more than `MAX_CARDS` cards has its first `MAX_CARDS` drawn, and the card the
page shows; what a later card would say (a text that no longer fits one long card) is told by the build that the
write starts, over the editor, and the page's undo puts the file back.
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, printable

MAX_CARDS = 300  # a deck's cards a write's check draws (0.7 ms a face: a 10,000-card deck took 7 s a write)


def problems(loaded, game: str, path: Path, shown: tuple | None = None) -> list[str]:
    """The build's errors for `game` as its files are now, limited to what reads `path` (located messages); in
    a big deck, its first `MAX_CARDS` cards and the card `shown` ((component id, card index), the page's)."""
    from pnpgen.checker import check_game
    from pnpgen.model import Board, Deck
    from pnpgen.pipeline.faces import Painter

    try:
        model, reader, library, icons, fonts = loaded(game)
    except ContentError as exc:
        return _said(exc.diagnostics)
    diags = Diagnostics()
    try:
        # the rules check reads no layout: only a card file's write may change what it finds
        if not _layout(path, model.root):
            diags.extend(check_game(model.root, None, False, model, reader, icons).diagnostics())
        painter = Painter(model, library, icons, reader, fonts)
        key = reader.key(path)
        for comp in model.components:
            if not _reads(comp, key, reader, library, diags):
                continue
            if isinstance(comp, Deck):
                _deck(painter, comp, diags, shown)
            elif isinstance(comp, Board):
                painter.board(comp, diags)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
    return _said(diags)


def _deck(painter, deck, diags: Diagnostics, shown: tuple | None) -> None:
    """Draw a deck as `build` does, or, past `MAX_CARDS` cards, its first ones and the card the page shows."""
    only = None
    if len(deck.cards) > MAX_CARDS:
        only = list(range(MAX_CARDS))
        if shown is not None and shown[0] == deck.id and MAX_CARDS <= shown[1] < len(deck.cards):
            only.append(shown[1])
    painter.deck(deck, diags, only=only)


def _reads(comp, key: str, reader, library, diags: Diagnostics) -> bool:
    """Whether drawing `comp` reads the file `key`: its own file, its cards' sheets, a layout of its faces (or
    one they extend)."""
    from pnpgen.model import Board, Deck

    if key in comp.inputs:
        return True
    refs = []
    if isinstance(comp, Deck):
        refs = [comp.front, comp.back] + [r for c in comp.cards for r in (c.front, c.back)]
    elif isinstance(comp, Board):
        refs = [s.layout for s in comp.sides]
    with reader.recording() as read:
        for name, loc in {(r.layout, r.loc) for r in refs if r is not None}:
            try:
                library.get(name, loc)
            except ContentError as exc:
                diags.extend(exc.diagnostics)
    return key in read


def _layout(path: Path, game_root: Path) -> bool:
    return path.suffix == ".yaml" and path.resolve().parent == (game_root / "layouts").resolve()


def _said(diags: Diagnostics) -> list[str]:
    return [printable(f"{d.location}: {d.message}") for d in diags.sorted() if d.severity == "error"]


def new_problem(after: list[str], before: list[str]) -> str:
    """The first error of `after` that `before` does not have, compared without their places (an added key moves
    the lines below it); '' when none."""

    def bare(message: str) -> str:
        return message.split(": ", 1)[-1]

    had = {bare(m) for m in before}
    return next((m for m in after if bare(m) not in had), "")
