"""`<deck>-checklist.pdf` (a game's `print: checklist: true`): every card of a deck by name, with its count and a
tick box, in the deck's order, on the build's paper, to check a printed deck is whole."""

from __future__ import annotations

from collections import Counter

from pnpgen.errors import Diagnostics
from pnpgen.model import Deck
from pnpgen.pipeline.target import Target


class ChecklistFile(Target):
    """A deck's checklist. It draws no face: it stands on the deck's file and the game's (the base class's
    `stands_on`), so a new name or count writes it again and an unchanged build keeps it."""

    kind = "checklist"

    def __init__(self, deck: Deck):
        super().__init__(deck.id, deck.loc)
        self.deck = deck
        self.cards: list[tuple[str, int]] = []

    def names(self) -> list[str]:
        return [f"{self.deck.id}-checklist.pdf"]

    def describe(self) -> str:
        return f"the checklist of deck '{self.deck.id}' ({self.loc})"

    def prepare(self, run, diags: Diagnostics) -> bool:
        names = Counter(card.name for card in self.deck.cards)
        self.cards = [(told(card, names[card.name] > 1), card.count) for card in self.deck.cards]
        heading = run.game.words("colon", before=run.game.title, after=self.deck.name)
        _glyphs(diags, heading, "display-bold", self.deck.loc, "its heading")
        for card in self.deck.cards:
            _glyphs(diags, card.name, "sans", card.loc, f"the name of the {self.deck.kind.removesuffix('s')}")
        return True

    def faces(self, pages: int) -> int:
        return 0  # a page of words: no printed piece

    def write(self, path, name: str, w) -> int:
        from pnpgen.render.checklist import write_checklist

        noun = self.deck.kind.removesuffix("s")  # card, tile, token
        return write_checklist(path, w.game.title, self.deck.name, self.cards, w.paper, noun, w.game.words)


def _glyphs(diags: Diagnostics, text: str, font: str, loc, what: str) -> None:
    """A warning for the characters of `text` the checklist's font cannot draw: its row would lose them."""
    from pnpgen.text.fonts import missing_glyphs

    lost = missing_glyphs(text, font)
    if lost:
        codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
        diags.warning(
            loc, f"the font {font} has no {codes} in {what} {text!r}; the checklist would not show it"
        )


def told(card, repeated: bool) -> str:
    """A card's name on its row; a name the deck gives more than one card (7 Gods' envoys: one "Memory" per god)
    says which: its id, else its place in the deck."""
    if not repeated:
        return card.name
    return f"{card.name} ({card.id})" if card.id else f"{card.name} (card {card.index})"


def checklists_of(game) -> list[Target]:
    """One checklist per deck of cards, tiles or tokens, when game.yaml's `print:` asks for them."""
    if not game.printing.get("checklist"):
        return []
    return [ChecklistFile(c) for c in game.components if isinstance(c, Deck)]
