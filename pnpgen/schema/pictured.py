"""Which card of a deck a rulebook pictures, or a diagram's piece names: by its id, or its name when no other card
has it, never by its place in the list (reordering a component's file pictures the same card). Light: a deck's
drawing asks `picture_index` (to record what drawing that card read), the diagrams' scenes ask `card_index`."""

from __future__ import annotations

from pnpgen.errors import Diagnostics, Location, did_you_mean, short


def card_index(deck, ref, back: bool, loc: Location, diags: Diagnostics) -> int | None:
    """The card `ref` names: its `id`, or its `name` when no other card has it. Without `ref`: the deck's only
    card, or (for a back) any card when no card has a back of its own. Never a place in the list."""
    cards = deck.cards
    if ref is None:
        if len(cards) == 1 or (back and not any(c.back is not None for c in cards)):
            return 0
        diags.error(
            loc,
            f"component '{deck.id}' has {len(cards)} cards: say which with 'card' (its id or name)",
            "e.g. card: " + short(cards[0].id or cards[0].name),
        )
        return None
    by_id = [i for i, c in enumerate(cards) if c.id == ref]
    if by_id:
        return by_id[0]
    named = [i for i, c in enumerate(cards) if c.name == ref]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        lines = ", ".join(str(cards[i].loc.line) for i in named[:6])
        diags.error(
            loc,
            f"{len(named)} cards of '{deck.id}' are named {short(ref)!r} (lines {lines} of its file): "
            "give them ids and name one by its id",
        )
        return None
    out = [c for c in getattr(deck, "left_out", ()) if ref in (c.id, c.name)]
    if out:
        diags.error(
            loc,
            f"card {short(ref)!r} of '{deck.id}' has count 0 ({out[0].loc}): it is left out of the build",
            "give it a count of 1 or more, or name another card",
        )
        return None
    names = list(dict.fromkeys([c.id for c in cards if c.id] + [c.name for c in cards]))  # each name once
    diags.error(loc, f"component '{deck.id}' has no card {short(ref)!r}", did_you_mean(str(ref), names))
    return None


def picture_index(deck, diags: Diagnostics) -> int | None:
    """The card a rulebook pictures for a deck (its component table, `picture(id)`, a default cover): the one its
    `picture` key names, else the first by id, then by its fields, then by name. Never its place in the list:
    reordering the component's file pictures the same card."""
    if not deck.cards:
        return None
    if deck.picture is not None:
        ref, loc = deck.picture
        return card_index(deck, ref, False, loc, diags)

    def key(i: int) -> tuple:
        c = deck.cards[i]
        fields = sorted((str(k), repr(v)) for k, v in c.fields.items())
        return (c.id is None, c.id or "", fields, c.name)

    return min(range(len(deck.cards)), key=key)
