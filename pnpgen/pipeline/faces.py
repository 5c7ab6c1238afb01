"""Drawing: a component's cards and sides evaluated through their layouts into faces (plain draw operations).

A layout that reads only some of a card's fields is drawn once per distinct value of those fields. Problems are
collected per element and reported once with a card count; nothing here writes a file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pnpgen.budget import MAX_SECONDS, TooMuchWork, time_limit_each
from pnpgen.errors import ContentError, Diagnostics, short
from pnpgen.layout.blame import NOBODY
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.lowink import low_ink
from pnpgen.model import Board, Card, Deck, Game
from pnpgen.pipeline.halves import SPLIT_AT, halves
from pnpgen.schema.pictured import picture_index


@dataclass
class DeckFaces:
    deck: Deck
    faces: list  # (front Face, back Face | None), one per printed card (copies repeated)
    warnings: int = 0
    first_read: dict | None = (
        None  # what drawing the first card read (its layouts, its art), for `Painter.first`
    )

    @property
    def has_backs(self) -> bool:
        return any(b is not None for _, b in self.faces)

    def distinct(self) -> list:
        """Each card once, with its count: (front, back, count, name)."""
        out, i = [], 0
        for card in self.deck.cards:
            front, back = self.faces[i]
            out.append((front, back, card.count, card.name))
            i += card.count
        return out


@dataclass
class BoardFaces:
    board: Board
    faces: list  # one Face per side
    warnings: int = 0
    read: dict | None = None  # what drawing it read, for `Painter.board_again`


class Painter:
    """Draws the faces of one game's components; holds what every face of the game shares."""

    def __init__(
        self, game: Game, library, icons: dict, reader, fonts: dict | None = None, ink: str = "full"
    ):
        self.game, self.library, self.icons, self.reader = game, library, icons, reader
        # inside `deck`: marks where each face's time backstop starts
        self._next_face: Callable[[], None] | None = None
        self.fonts = fonts or {}  # the game's own font names -> registered names
        self.ink = ink  # "low": the game's palette_low over its palette, or pnpgen's transform after drawing
        self.palette = dict(game.palette)
        if ink == "low" and game.palette_low:
            self.palette.update(game.palette_low)
        self.transform = ink == "low" and not game.palette_low
        self.game_info = {"id": game.id, "title": game.title, "players": game.players}
        self.cores: Callable[[], int] = (
            _one  # cores free for drawing now (a big deck is drawn on two: `halves`)
        )
        self.costs: dict | None = None  # in a half's worker: memo key -> the template steps its face took
        # a core will be free while the files are written (`GameRun.draw`): the faces' digests are worked out
        # there, beside the writer (`jobs.beside_writers`), not in the halves before the first file can start
        self.spare_later = False
        self._drawn: dict = {}  # component id -> its DeckFaces or BoardFaces drawn by this painter, this build

    def context(self, deck: Deck, bleed_pt: float | None = None) -> FaceContext:
        return FaceContext(
            deck.width_pt,
            deck.height_pt,
            deck.bleed_pt if bleed_pt is None else bleed_pt,
            deck.safe_pt,
            dict(self.palette),
            self.icons,
            self.game.root / "art",
            shape=deck.shape,
            reader=self.reader,
            fonts=self.fonts,
            ink=self.ink,
        )

    def deck(
        self,
        deck: Deck,
        diags: Diagnostics,
        bleed_pt: float | None = None,
        origins: dict | None = None,
        only: list[int] | None = None,
    ) -> DeckFaces | None:
        """Every printed card of a deck (copies repeated); None when any card failed (reported in `diags`).
        With `origins`, each face's operations are traced to the elements that drew them (for preflight); with
        `only`, the cards at those places alone are drawn, in that order (serve's check of a write), kept nowhere."""
        before = len(diags.warnings)
        self.library.get(deck.front.layout, deck.front.loc)
        fc = self.context(deck, bleed_pt)
        fc.origins = origins
        pictured = picture_index(deck, Diagnostics())
        split = None
        span = range(len(deck.cards)) if only is None else only
        if origins is None and only is None and len(deck.cards) >= SPLIT_AT and self.cores() > 1:
            split = halves(self, deck, fc, diags, pictured)
            if (
                split is None
            ):  # thrown away: drawn in order with a context afresh (its caches charged the images)
                fc = self.context(deck, bleed_pt)
        if split is not None:
            faces, failed, first_read = split
        else:
            faces, failed, first_read = [], False, None
            try:
                with time_limit_each(
                    MAX_SECONDS
                ) as self._next_face:  # each face's backstop, armed once per deck
                    failed, first_read = self.cards(deck, span, fc, diags, {}, pictured, faces)
            except TooMuchWork as exc:  # struck between two faces, as the last one ended at its limit
                fc.fault(deck.loc, str(exc), f"deck '{deck.id}'")
                failed = True
            finally:
                self._next_face = None
        fc.flush_notes(diags)
        if failed:
            return None
        drawn = DeckFaces(deck, faces, len(diags.warnings) - before, first_read)
        if bleed_pt is None and origins is None and only is None:
            self._drawn[deck.id] = drawn
        return drawn

    def cards(
        self, deck: Deck, span: range | list[int], fc, diags: Diagnostics, memo: dict, pictured, faces: list
    ) -> tuple:
        """Draw the cards of `span` onto `faces` (copies repeated); (whether one failed, what drawing the pictured
        card read, when it is among them)."""
        failed, first_read = False, None
        for n in span:
            card = deck.cards[n]
            # the pictured card is recorded on its own: the rulebook's picture of the deck (`first`)
            if n == pictured:
                with self.reader.recording() as first_read:  # all it reads: no earlier card's memo
                    front, back, ok = self.card(deck, card, fc, diags, memo if n == 0 else None)
            else:
                front, back, ok = self.card(deck, card, fc, diags, memo)
            failed = failed or not ok
            faces.extend([(front, back)] * card.count)
        return failed, first_read

    def first(self, deck: Deck) -> tuple | None:
        """The pictured card's front and back (a rulebook's picture: `pictured.picture_index`, never a place in the
        list); None when it cannot be drawn. A deck this painter has drawn whole in this build gives that card
        again, with what drawing it read (recorded again, as drawing it again would)."""
        pictured = picture_index(deck, Diagnostics())
        if pictured is None:
            return None
        drawn = self._drawn.get(deck.id)
        if isinstance(drawn, DeckFaces) and drawn.deck is deck and drawn.first_read is not None:
            self.reader.replay(drawn.first_read)
            return drawn.faces[sum(c.count for c in deck.cards[:pictured])]
        front, back, ok = self.card(deck, deck.cards[pictured], self.context(deck), Diagnostics())
        return (front, back) if ok and front is not None else None

    def taken(self, drawn: DeckFaces | BoardFaces) -> None:
        """A component's faces taken from the last build (`facestore`), as if this painter had drawn them: `first`
        and `board_again` give them again (a rulebook redrawn for one deck's edit pictured every other deck by
        drawing its card anew). Only with what drawing the picture read, which `first` records again."""
        if (drawn.first_read if isinstance(drawn, DeckFaces) else drawn.read) is not None:
            self._drawn[drawn.deck.id if isinstance(drawn, DeckFaces) else drawn.board.id] = drawn

    def board(self, board: Board, diags: Diagnostics, origins: dict | None = None) -> BoardFaces | None:
        """Each side of a board at its true size; `origins` as for `deck`."""
        before = len(diags.warnings)
        fc = FaceContext(
            board.width_pt,
            board.height_pt,
            board.bleed_pt,
            0.0,
            dict(self.palette),
            self.icons,
            self.game.root / "art",
            board=board.data,
            reader=self.reader,
            fonts=self.fonts,
            ink=self.ink,
        )
        fc.origins = origins
        info = {"id": board.id, "name": board.name, "count": len(board.sides)}
        faces: list = []
        failed = False
        with self.reader.recording() as read:
            for side in board.sides:
                failed = self._side(board, side, fc, info, faces, diags) or failed
        fc.flush_notes(diags)
        if failed:
            return None
        drawn = BoardFaces(board, faces, len(diags.warnings) - before, read)
        self._drawn[board.id] = drawn
        return drawn

    def board_again(self, board: Board) -> BoardFaces | None:
        """A board this painter has drawn in this build, its reads recorded again; None when it has not."""
        drawn = self._drawn.get(board.id)
        if not isinstance(drawn, BoardFaces) or drawn.board is not board or drawn.read is None:
            return None
        self.reader.replay(drawn.read)
        return drawn

    def _side(self, board: Board, side, fc: FaceContext, info: dict, faces: list, diags: Diagnostics) -> bool:
        """Draw one side of a board onto `faces`; True when it failed."""
        layout = self.library.get(side.layout.layout, side.layout.loc)
        label = f"side '{side.id}' of board '{board.id}' ({side.loc.place()})"
        fc.cells = side.value_locs if side.loc.in_sheet else NOBODY
        fc.heads = side.field_locs if side.loc.in_sheet else NOBODY
        face = draw_face(
            layout, fc, template_names(fc, dict(side.fields), info, self.game_info), label, diags
        )
        if face is not None and self.transform:
            face = low_ink(face)
        faces.append(face)
        return face is None

    def card(self, deck: Deck, card: Card, fc: FaceContext, diags: Diagnostics, memo: dict | None = None):
        deck_info = {"id": deck.id, "name": deck.name, "count": deck.faces}
        label = f"card {card.index} '{short(card.name)}' of deck '{deck.id}' ({card.loc.place()})"
        fc.cells = card.value_locs if card.loc.in_sheet else NOBODY  # where a field's problem is told
        fc.heads = card.field_locs if card.loc.in_sheet else NOBODY  # and its column's header
        extra = {"index": card.index, "count": card.count, "designed": card.designed}
        front_ref = deck.front_for(card)
        fields = {**front_ref.fields, **card.fields, **extra}
        front_layout = self._layout(front_ref, diags)
        front = None
        if front_layout is not None:
            front = self._face(front_layout, fc, fields, deck_info, label, diags, memo)
        back, ok = None, front is not None
        ref = deck.back_for(card)
        if ref is not None:
            bfields = {**card.fields, **ref.fields, **extra}
            back_label = label.replace("card ", "back of card ", 1)
            back_layout = self._layout(ref, diags)
            if back_layout is not None:
                back = self._face(back_layout, fc, bfields, deck_info, back_label, diags, memo)
            ok = ok and back is not None
        return front, back, ok

    def _layout(self, ref, diags: Diagnostics):
        """The layout a card names; None when it cannot be had (reported: the other cards are still drawn, so
        that a sheet's every bad `front` cell is told in one build)."""
        try:
            return self.library.get(ref.layout, ref.loc)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            return None

    def _face(self, layout, fc, fields, deck_info, label, diags, memo):
        """Draw a face; a layout that reads only some card fields is drawn once per distinct value of those."""
        key = None
        if memo is not None and layout.card_deps is not None:
            try:
                key = (layout.name, tuple((f, repr(fields.get(f))) for f in sorted(layout.card_deps)))
            except TypeError:
                key = None
            if key is not None and key in memo:
                return memo[key]
        if self._next_face is not None:
            self._next_face()
        costs, budget = self.costs, self.library.compiler.budget
        before = budget.build_left
        # in a half's worker, what drawing a memo key tells is dropped if the first half drew that key too
        mark = len(fc.journal) if fc.journal is not None and key is not None else -1
        try:
            face = draw_face(layout, fc, template_names(fc, fields, deck_info, self.game_info), label, diags)
            if face is not None and self.transform:
                face = low_ink(face)
        except TooMuchWork as exc:  # the limit struck outside the face's own drawing (its low-ink form)
            fc.fault(layout.loc, str(exc), label)
            return None
        finally:
            if mark >= 0 and len(fc.journal) > mark:
                fc.claims.append((("memo", key), mark, len(fc.journal)))
        if key is not None and face is not None:
            memo[key] = face
            if costs is not None:  # a drawing in halves: what this face cost, were the other half to have it
                costs[key] = before - budget.build_left
        return face


def _one() -> int:
    return 1
