"""A whole Tabletop Simulator save: the game set out for a number of players (pure data; no file is read).

What goes where, from the content and the facts the rules checker holds it against (`checker.setup_needs`):

- each board's first side face up in the middle of the table (a board's other sides wait in the box bag);
- every card deck whole, shuffled (the same order for the same game and player count) and face down, in a row
  behind the boards: dealing is the players' first move, with TTS's own deal;
- a tile set or token sheet that a fact asks for as `p x players + c`: `p` pieces in front of each seat (one
  kind each, when the set has a kind for every seat: a colour per player) and `c` in the supply; a set the facts
  ask some other number of: that many in the supply; a set no fact mentions: all of it in the supply. Pieces the
  count does not use go into a bag "Not used with N players", so every printed piece is in the save;
- seats round an ellipse, seat 1 nearest the table's front (TTS's White seat), named after TTS's player colours.

Positions are in TTS's units (about an inch); the table is `Table_RPG`, the largest of TTS's own tables.
"""

from __future__ import annotations

import math
import random

from pnpgen.exports.savedobject import (
    BoardSide,
    Ids,
    bag,
    board_object,
    board_scale,
    card_scale,
    deck_object,
    piece_objects,
    piece_scale,
    save_state,
    transform,
)

SEATS = ("White", "Red", "Yellow", "Green", "Blue", "Purple", "Pink", "Orange", "Teal", "Brown")
SEAT_X, SEAT_Z = 27.0, 17.0  # the ellipse the seats' pieces are laid on
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


def seat_at(i: int, players: int) -> tuple[float, float, float]:
    """(x, z, rotY) of seat i: seat 0 at the front (z < 0), the others round the table, facing the middle."""
    angle = -math.pi / 2 + 2 * math.pi * i / players
    x, z = SEAT_X * math.cos(angle), SEAT_Z * math.sin(angle)
    return x, z, (math.degrees(math.atan2(x, z)) + 180.0) % 360.0


def grid(n: int, x: float, z: float, step: float, cols: int = 8) -> list[tuple[float, float]]:
    """n places in rows of `cols`, centred on (x, z)."""
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    return [
        (x + (k % cols - (cols - 1) / 2) * step, z + (k // cols - (rows - 1) / 2) * step) for k in range(n)
    ]


def save(
    game_id: str,
    title: str,
    players: int,
    decks: list,
    sets: list,
    boards: list,
    needs: dict[str, dict[int, int]],
    url,
) -> dict:
    """The save's JSON: `decks`, `sets` and `boards` as the saved object has them, `needs` from the facts."""
    ids = Ids(game_id)
    objects: list[dict] = []
    unused: list[dict] = []
    first_sides: dict[str, BoardSide] = {}
    for side in boards:
        first_sides.setdefault(side.id.split("/")[0], side)
    x = -sum(board_scale(s) * 20 + 2 for s in first_sides.values()) / 2
    for side in boards:
        span = board_scale(side) * 20  # BOARD_IN units at scale 1
        if first_sides[side.id.split("/")[0]] is side:
            objects.append(
                board_object(ids, side, url, transform(x + span / 2, 0.0, board_scale(side)), True)
            )
            x += span + 2
        else:
            unused.append(board_object(ids, side, url, transform(0.0, 0.0, board_scale(side))))
    x = -len(decks) * 2.0 + 2.0
    for deck in decks:
        order = list(range(len(deck.cards)))
        random.Random(f"{game_id}/{deck.id}/{players}").shuffle(order)
        face_down = transform(x, 12.0, card_scale(deck), rot_z=180.0)
        objects.append(deck_object(ids, deck, url, face_down, order))
        x += 4.0
    supply_x = -len(sets) * 1.5 + 1.5
    for k, pieces in enumerate(sets):
        copies = piece_objects(ids, pieces, url, transform(0.0, 0.0, piece_scale(pieces)))
        table, seats, rest = _share(pieces, copies, needs.get(pieces.id, {}), players)
        unused += rest
        if table:
            where = transform(supply_x, 17.0)
            objects.append(bag(ids, f"supply:{pieces.id}", f"Supply: {pieces.name}", table, where))
            supply_x += 3.0
        for i, mine in enumerate(seats):
            objects += _in_front(ids, pieces, mine, i, k - (len(sets) - 1) / 2, players)
    if unused:
        where = transform(-32.0, 17.0)
        objects.append(bag(ids, "unused", f"Not used with {players} players", unused, where))
    note = f"{title}, set up for {players} players. Deal the decks with TTS's deal; every piece is counted."
    return save_state(f"{title} ({players} players)", objects, note, table="Table_RPG", sky="Sky_Museum")


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


def _in_front(ids: Ids, pieces, mine: list[dict], seat: int, offset: float, players: int) -> list[dict]:
    """A seat's pieces in front of it (each set `offset` places along the table's edge), or in a bag there when
    there are many."""
    if not mine:
        return []
    x, z, rot = seat_at(seat, players)
    scale = 1.0 if pieces.stand_in else piece_scale(pieces)
    step = max(1.2, 2.2 * scale)
    turn = math.radians(rot)  # along the edge: across the seat's view
    x, z = x + offset * 6.0 * math.cos(turn), z - offset * 6.0 * math.sin(turn)
    name = SEATS[seat % len(SEATS)]
    if len(mine) > LOOSE:
        where = transform(x, z, rot_y=rot)
        return [bag(ids, f"seat:{seat}:{pieces.id}", f"{name}: {pieces.name}", mine, where)]
    out = []
    for piece, (px, pz) in zip(mine, grid(len(mine), x, z, step)):
        placed = dict(piece)
        placed["Transform"] = transform(px, pz, scale, rot_y=rot)
        placed["Nickname"] = f"{name}: {piece['Nickname']}"
        out.append(placed)
    return out
