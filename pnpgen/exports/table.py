"""A whole Tabletop Simulator save: the game set out for a number of players (pure data; no file is read).

What goes where, from the content and the facts the rules checker holds it against (`checker.setup_needs`):

- each board's first side face up and locked in the middle of the table, side by side (a board's other sides
  wait in the box bag);
- every card deck whole, shuffled (the same order for the same game and player count) and face down, in a
  column at the table's right end: dealing is the players' first move, with TTS's own deal;
- a tile set or token sheet that a fact asks for as `p x players + c`: `p` pieces in front of each seat (one
  kind each, when the set has a kind for every seat: a colour per player) and `c` in a supply bag at the left
  end; a set the facts ask some other number of: that many in its supply bag; a set no fact mentions: all of
  it in the supply. Pieces the count does not use go into a bag "Not used with N players", so every printed
  piece is in the save;
- seat 1 (TTS's White) and every odd seat along the front edge, the others along the back, each with a strip
  of the edge for its pieces, laid in rows from the boards outwards, a set to a row, named after TTS's player
  colours;
- a hand zone (`HandTrigger`) for each seat, beyond its strip: in TTS a hand zone is the seat, it is where a
  player of its colour sits and what TTS's deal deals to (Knowledge Base: Zone Tools, Player Hands), so a save
  without them seats nobody where its pieces are set out. Their size and height are those of TTS's own hands
  on this table (a save TTS wrote: 11.8 wide, 4.9 deep, 4.8 up, 20 from the middle), turned as TTS turns
  them (0 at the front edge, 180 at the back).

Positions are in TTS's units (about an inch); the table is `Table_RPG`, the largest of TTS's own tables.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from pnpgen.exports.savedobject import (
    BOARD_IN,
    INCH_MM,
    BoardSide,
    Ids,
    bag,
    board_object,
    board_scale,
    card_scale,
    deck_object,
    obj,
    piece_objects,
    piece_scale,
    placed,
    save_state,
    transform,
)
from pnpgen.words import ENGLISH_WORDS, Words

SEATS = ("White", "Red", "Yellow", "Green", "Blue", "Purple", "Pink", "Orange", "Teal", "Brown")
COLOURS = {  # the scripting API's player colours (Player Colors page), r g b
    "White": (1.0, 1.0, 1.0), "Red": (0.856, 0.1, 0.094), "Yellow": (0.905, 0.898, 0.172),
    "Green": (0.192, 0.701, 0.168), "Blue": (0.118, 0.53, 1.0), "Purple": (0.627, 0.125, 0.941),
    "Pink": (0.96, 0.439, 0.807), "Orange": (0.956, 0.392, 0.113), "Teal": (0.129, 0.694, 0.607),
    "Brown": (0.443, 0.231, 0.09),
}  # fmt: skip
# a TTS hand zone on Table_RPG: width, height, depth, its y, its distance out from the middle
HAND = (11.8, 9.2, 4.9, 4.8, 20.1)
SPAN = 36.0  # the length of each long edge the seats share
GAP = 0.4  # between pieces laid out
LOOSE = 24  # more pieces than this for one seat go in a bag in front of it


def per_seat(needs: dict[int, int], players: int) -> tuple[int, int] | None:
    """(p, c) when every known count is p x players + c with p >= 1 and c >= 0; else None."""
    if players not in needs or len(needs) < 2:
        return None
    other = next(n for n in sorted(needs) if n != players)
    p, rest = divmod(needs[players] - needs[other], players - other)
    c = needs[players] - p * players
    if rest or p < 1 or c < 0 or any(v != p * n + c for n, v in needs.items()):
        return None
    return p, c


@dataclass
class Seat:
    """Where a seat's pieces go: a strip `width` wide centred on x, rows laid from `z` outwards (`out` = -1
    towards the front edge, +1 towards the back), turned `rot` degrees to face the player."""

    x: float
    z: float
    out: float
    width: float
    rot: float

    def lay(self, n: int, size: float) -> list[tuple[float, float]]:
        """n places for pieces `size` across, in rows from the strip's inner edge outwards; the strip moves on."""
        step = size + GAP
        cols = max(1, min(n, int(self.width // step)))
        places = [
            (self.x + (k % cols - (cols - 1) / 2) * step, self.z + self.out * (k // cols + 0.5) * step)
            for k in range(n)
        ]
        self.z += self.out * math.ceil(n / cols) * step
        return places


def seats(players: int, inner_z: float) -> list[Seat]:
    """Seat 1 (TTS's White) and the odd seats along the front edge, the others along the back, each facing the
    middle, their strips starting `inner_z` from the middle (clear of the boards)."""
    front = math.ceil(players / 2)
    out = []
    for i in range(players):
        row, k = (0, i // 2) if i % 2 == 0 else (1, i // 2)
        count = front if row == 0 else players - front
        width = SPAN / count
        x = -SPAN / 2 + (k + 0.5) * width
        out.append(
            Seat(x, -inner_z, -1.0, width - 1.0, 180.0)
            if row == 0
            else Seat(-x, inner_z, 1.0, width - 1.0, 0.0)
        )
    return out


def save(
    game_id: str,
    title: str,
    players: int,
    decks: list,
    sets: list,
    boards: list,
    needs: dict[str, dict[int, int]],
    url,
    words: Words = ENGLISH_WORDS,
) -> dict:
    """The save's JSON: `decks`, `sets` and `boards` as the saved object has them, `needs` from the facts."""
    ids = Ids(game_id)
    objects: list[dict] = []
    unused: list[dict] = []
    first_sides: dict[str, BoardSide] = {}
    for side in boards:
        first_sides.setdefault(side.id.split("/")[0], side)
    x = -sum(board_scale(s) * BOARD_IN + 2 for s in first_sides.values()) / 2
    for side in boards:
        span = board_scale(side) * BOARD_IN  # a board's size at scale 1
        if first_sides[side.id.split("/")[0]] is side:
            objects.append(
                board_object(ids, side, url, transform(x + span / 2, 0.0, board_scale(side)), True)
            )
            x += span + 2
        else:
            unused.append(board_object(ids, side, url, transform(0.0, 0.0, board_scale(side))))
    depth = max(
        (
            board_scale(s) * BOARD_IN * s.height_mm / max(s.width_mm, s.height_mm)
            for s in first_sides.values()
        ),
        default=0.0,
    )
    ends = max(SPAN / 2, x) + 5.0  # the supply at the left end, the decks at the right
    for n, deck in enumerate(decks):
        order = list(range(len(deck.cards)))
        random.Random(f"{game_id}/{deck.id}/{players}").shuffle(order)
        face_down = transform(ends, (n - (len(decks) - 1) / 2) * 5.0, card_scale(deck), rot_z=180.0)
        objects.append(deck_object(ids, deck, url, face_down, order, words))
    places = seats(players, depth / 2 + 1.5)
    supply: list[dict] = []
    for pieces in sets:
        copies = piece_objects(ids, pieces, url, transform(0.0, 0.0, piece_scale(pieces)))
        table, mine, rest = _share(pieces, copies, needs.get(pieces.id, {}), players)
        unused += rest
        if table:
            supply.append(
                bag(
                    ids,
                    f"supply:{pieces.id}",
                    words("tts_supply", name=pieces.name),
                    table,
                    transform(0.0, 0.0),
                )
            )
        for i, seat_pieces in enumerate(mine):
            objects += _in_front(ids, pieces, seat_pieces, i, places[i])
    objects += [_hand(ids, i, seat) for i, seat in enumerate(places)]
    for n, held in enumerate(supply):
        held["Transform"] = transform(-ends, (n - (len(supply) - 1) / 2) * 3.0)
        objects.append(held)
    if unused:
        where = transform(-ends - 5.0, 0.0)
        objects.append(bag(ids, "unused", words("tts_unused", players=players), unused, where))
    note = words("tts_note", title=title, players=players)
    named = words("tts_save", title=title, players=players)
    return save_state(named, objects, note, table="Table_RPG", sky="Sky_Museum")


def _share(pieces, copies: list[dict], needs: dict[int, int], players: int):
    """(supply, one list per seat, not used) of a piece set's copies."""
    if players not in needs:
        return copies, [[] for _ in range(players)], []
    wanted = min(needs[players], len(copies))
    split = per_seat(needs, players)
    seats: list[list[dict]] = [[] for _ in range(players)]
    if split is None or split[0] * players > wanted:
        return copies[:wanted], seats, copies[wanted:]
    p, _ = split
    by_kind, k = [], 0
    for piece in pieces.pieces:
        by_kind.append(list(range(k, k + piece.count)))
        k += piece.count
    taken: set[int] = set()
    if len(by_kind) >= players and all(len(kind) >= p for kind in by_kind[:players]):
        for i in range(players):  # a kind for each seat: a player's colour
            seats[i] = [copies[j] for j in by_kind[i][:p]]
            taken.update(by_kind[i][:p])
    else:
        for i in range(players):
            seats[i] = copies[i * p : (i + 1) * p]
            taken.update(range(i * p, (i + 1) * p))
    left = [c for j, c in enumerate(copies) if j not in taken]
    supply = wanted - p * players
    return left[:supply], seats, left[supply:]


def _in_front(ids: Ids, pieces, mine: list[dict], index: int, seat: Seat) -> list[dict]:
    """A seat's pieces of one set in the next rows of its strip, or in a bag there when there are many."""
    if not mine:
        return []
    name = SEATS[index % len(SEATS)]
    size = 1.0 if pieces.stand_in else max(pieces.width_mm, pieces.height_mm) / INCH_MM
    if len(mine) > LOOSE:
        ((x, z),) = seat.lay(1, 2.0)
        return [
            bag(
                ids,
                f"seat:{index}:{pieces.id}",
                f"{name}: {pieces.name}",
                mine,
                transform(x, z, rot_y=seat.rot),
            )
        ]
    scale = 1.0 if pieces.stand_in else piece_scale(pieces)
    out = []
    for piece, (x, z) in zip(mine, seat.lay(len(mine), size)):
        here = placed(piece, transform(x, z, scale, rot_y=seat.rot))
        here["Nickname"] = f"{name}: {piece['Nickname']}"
        out.append(here)
    return out


def _hand(ids: Ids, index: int, seat: Seat) -> dict:
    """The seat's hand zone, just beyond what is laid in front of it (and no nearer the middle than TTS's own)."""
    name = SEATS[index % len(SEATS)]
    width, height, depth, y, out = HAND
    z = seat.out * max(abs(seat.z) + GAP + depth / 2, out)
    where = transform(seat.x, z, min(width, seat.width), depth, y=y, rot_y=(seat.rot + 180.0) % 360.0)
    r, g, b = COLOURS[name]
    colour = {"r": r, "g": g, "b": b, "a": 0.0}
    hand = obj("HandTrigger", ids.guid(f"hand:{index}"), "", dict(where, scaleY=height), ColorDiffuse=colour)
    return dict(hand, Locked=True, Grid=False, FogColor=name)
