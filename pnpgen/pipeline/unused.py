"""A card field nothing reads is most likely a misspelling (`resouce` for `resource`): a warning, with the
fields the deck's layouts do read as did-you-mean.

A field counts as read when a layout of its deck reads it (`card.<field>`, as the layout compiler works out), or
when the game's facts or rulebook name it (facts break pieces down by fields; a rulebook may print them). A deck
whose layouts read the card whole (passing `card` to a filter or a loop) is left alone: nothing can be said.
"""

from __future__ import annotations

import re
import unicodedata

from pnpgen.errors import Diagnostics, did_you_mean, short
from pnpgen.model import CARD_KEYS

NOUNS = {"cards": "deck", "tiles": "tile set", "tokens": "token sheet"}
PIECES = {"cards": "card", "tiles": "tile", "tokens": "token"}
# what other tools and spreadsheets name the column of copies (nanDECK's LINKMULTI column has any name), in English
# and in the languages pnpgen prints (German, French) and their neighbours: pnpgen reads `count` only, so a piece
# with one of these prints once
COPIES = frozenset(
    {"qty", "quantity", "copies", "count", "amount", "number", "num", "multi", "multiplier"}
    | {"anzahl", "menge", "stück", "stückzahl", "exemplare", "kopien", "anz"}
    | {"nombre", "nb", "quantité", "quantite", "exemplaires", "qté"}
    | {"cantidad", "copias", "quantità", "copie", "aantal", "kopieën"}
)


def mentioned(run) -> str:
    """The text of the game's facts and rulebook sources, where fields may be named."""
    texts = []
    facts = run.root / "facts.yaml"
    if facts.is_file():
        texts.append(run.reader.read_text(facts, "facts file"))
    for src in run.sources:
        texts.append(run.reader.read_text(src, "rulebook source"))
    return "\n".join(texts)


def unused_fields(run, deck, diags: Diagnostics, texts: str) -> int:
    """Warn once per field of `deck` that nothing reads; returns the number of warnings."""
    refs = (
        [deck.front, deck.back]
        + [c.back for c in deck.cards]
        + [getattr(c, "front", None) for c in deck.cards]
    )
    piece = PIECES.get(deck.kind, "card")
    pieces = [
        (card.fields, card.field_locs, card.loc, f"{piece} '{short(card.name)}'") for card in deck.cards
    ]
    return _unread(
        run, refs, pieces, f"{NOUNS.get(deck.kind, 'deck')} '{deck.id}'", diags, texts, copies=True
    )


def unused_side_fields(run, board, diags: Diagnostics, texts: str) -> int:
    """The same for a board: a side's `fields` that no side's layout reads (they are `card` to its layout)."""
    refs = [side.layout for side in board.sides]
    pieces = [(side.fields, side.field_locs, side.loc, f"side '{side.id}'") for side in board.sides]
    return _unread(run, refs, pieces, f"board '{board.id}'", diags, texts)


def _unread(
    run, refs: list, pieces: list, noun: str, diags: Diagnostics, texts: str, copies: bool = False
) -> int:
    read: set[str] = set()
    for ref in {(r.layout, r.loc) for r in refs if r is not None}:
        layout = run.library.get(*ref)
        if layout.card_deps is None:
            return 0  # the card is read whole somewhere: no field can be said to be unread
        read |= layout.card_deps
    first: dict[str, tuple] = {}
    for fields, locs, loc, what in pieces:
        for name in fields:
            if name not in read and name not in CARD_KEYS and name not in first:
                first[name] = (locs.get(name, loc), what)  # where the field is named: its key, its column
    found = 0
    for name, (loc, what) in first.items():
        if re.search(rf"(?<![\w-]){re.escape(str(name))}(?![\w-])", texts):
            continue  # the facts or the rulebook use it
        hint = did_you_mean(str(name), sorted(read)) if read else "its layouts read no card field"
        if (
            copies and unicodedata.normalize("NFC", str(name).strip().lower()) in COPIES
        ):  # `Qty`: each piece printed once, not as many times
            hint = f"copies are read from a field named 'count' only (each piece now prints once): rename '{name}' to 'count'"
        diags.warning(loc, f"no layout of {noun} reads the field '{name}' (first given on {what})", hint)
        found += 1
    return found
