"""A big deck drawn on two cores: its second half by a forked worker while this process draws the first.

Drawing is most of a big deck's build (1,000 cards: 0.19 s of 0.5 s; 10,000: 1.7 s), one card after another, while
the second core has nothing to do until the files are written. Where workers are forked (`jobs.inherits`), a deck
of `SPLIT_AT` cards or more, with a core free (`Painter.cores`), is drawn in two halves at once. The worker sends its
half back pickled (each operation once: `Half`), with everything drawing it changed that this process keeps: its
problems and notes, what it read, the template steps and image pixels it spent.

The result is the serial one, whatever the deck holds:
- faces that serial drawing shares (a layout reading only some fields is drawn once per distinct value of them:
  `Painter._face`'s memo) are shared again: a face the worker drew for a key this process drew first is this
  process's object, so every file makes the same forms from them;
- problems, notes and cards are merged in card order (this process's half comes first), as the serial drawing
  reported them; what the worker told only because it started afresh is dropped (`_told`): the findings of a
  memo face the first half drew too, and a finding told once per deck that the first half told already;
- anything out of the ordinary (a half raising an error, a template's budget or the build's image bound passed by
  the two halves together) throws both halves away and the deck is drawn again in order, from where it began:
  where the serial drawing stops, and what it says, is then exactly its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnpgen.budget import MAX_SECONDS, time_limit_each
from pnpgen.errors import Diagnostics
from pnpgen.pipeline.facestore import OPS, flat

if TYPE_CHECKING:
    from pnpgen.layout.draw import FaceContext
    from pnpgen.model import Deck

# Cards a deck holds before its second half is drawn in a worker: below it, forking and sending the faces back
# cost about what the second core saves (300 cards draw in about 60 ms).
SPLIT_AT = 300
FIRST = 52  # per cent of the cards this process draws (`halves`)


@dataclass
class Half:
    """What the worker's half of a deck came to, sent back pickled. Its faces go as plain values (`facestore.flat`,
    each operation and face once: 500 cards of the bench deck are sent and made again in 2.4 ms, against 6.5 ms a
    face at a time), with their digests when the halves work them out (not when a core is free while the files
    are written: `Painter.spare_later`): `ops`, `table`, then each card's (front, back) as places in the table
    (-1: none), and the memo's keys with their faces' places."""

    ops: list  # each operation once, as `facestore.flat` gives it
    table: list  # each face once: (size, cut, its operations' places in `ops`), its digest, the art it checks
    places: list
    keys: list
    problems: list  # its Diagnostic items, in card order
    journal: list  # FaceContext's notes, faults and small-text findings of its cards, in order (`fc.journal`)
    claims: list  # the stretches of it told drawing what the first half may have drawn: (what, start, end)
    read: dict  # what it read (the reader's recording)
    first_read: dict | None  # what the pictured card read, when it was in this half
    failed: bool
    steps: int  # template steps spent
    pixels: dict  # images it counted against the build's bound
    costs: dict  # memo key -> the steps its face took (not taken in order when the first half had the key)


def halves(painter, deck: Deck, fc: FaceContext, diags: Diagnostics, pictured: int | None) -> tuple | None:
    """(faces, failed, first_read) of the whole deck, drawn in two halves at once; None when it was not (no worker
    could be had, or something out of the ordinary: the caller then draws it in order), with everything drawing
    changed put back as it was."""
    from pnpgen.pipeline.jobs import inherits, run_parallel

    if not inherits():
        return None  # spawned workers would need the whole game pickled: not worth it for a deck
    reader, budget = painter.reader, painter.library.compiler.budget
    mark, pixels, steps = len(diags.items), reader.charged(), budget.build_left
    # this process takes a little more than half: the worker then packs and sends its faces (about a tenth of
    # what drawing them took) while this process draws its last cards, rather than this process waiting
    cut, parent = len(deck.cards) * FIRST // 100, os.getpid()

    def theirs(_item: object) -> Half:  # in the forked worker, which inherited the state as it was at `mark`
        if os.getpid() == parent:
            raise _Alone  # no worker could start: `run_parallel` worked here, after this process's half
        found = Diagnostics()
        faces: list = []
        memo: dict = {}
        spent, painter.costs = budget.build_left, {}
        fc.journal, fc.claims = [], []
        with reader.recording() as read, time_limit_each(MAX_SECONDS) as painter._next_face:
            span = range(cut, len(deck.cards))
            failed, first_read = painter.cards(deck, span, fc, found, memo, pictured, faces)
        # each face's digest travels with it (the manifest's entries need them all), unless a core will be free
        if not painter.spare_later:
            digested(faces)
        new = {real: n for real, n in reader.charged().items() if real not in pixels}
        return Half(
            *_packed(faces, memo), found.items, fc.journal, fc.claims, dict(read), first_read, failed,
            spent - budget.build_left, new, painter.costs,
        )  # fmt: skip

    ours: list = []
    memo: dict = {}
    mine: dict = {}

    def here() -> None:  # this process's half, while the worker draws the other
        with time_limit_each(MAX_SECONDS) as painter._next_face:
            mine["drawn"] = painter.cards(deck, range(cut), fc, diags, memo, pictured, ours)
        if not painter.spare_later:
            digested(ours)  # while the worker sends its half

    try:
        (half,) = run_parallel([None], theirs, 2, lambda i: None, alongside=here, pickled=False)
    except Exception:  # noqa: BLE001 - either half stopped (a budget, a located error...), or no worker started
        _undo(painter, diags, mark, pixels, steps)
        return None
    finally:
        painter._next_face = None
    # the steps drawing in order takes: not those of a face the first half had drawn already (shared, below); an
    # element drawn once for every face (`draw._fixed`) has constant values only, which spend no step
    again = sum(cost for key, cost in half.costs.items() if key in memo)
    budget.build_left -= half.steps - again
    if budget.build_left < 0 or not reader.recharge(half.pixels):
        _undo(painter, diags, mark, pixels, steps)  # drawn in order, it stops where it must and says so
        return None
    second = _unpacked(half, memo)
    diags.items.extend(half.problems)
    _told(half, fc, memo)
    reader.replay(half.read)
    failed, first_read = mine["drawn"]
    return ours + second, failed or half.failed, first_read or half.first_read


def _told(half: Half, fc: FaceContext, memo: dict) -> None:
    """The worker's findings told as drawing in order tells them, in order: not those it told drawing a memo key
    the first half drew (in order that face is not drawn again), nor those told once per deck that the first half
    told already (an SVG's left-out effects, as `fc.image_sizes` keeps the SVG)."""
    dropped: set[int] = set()
    for (kind, key), start, end in half.claims:
        if key in (memo if kind == "memo" else fc.image_sizes):
            dropped.update(range(start, end))
    for n, (sink, key, card, smallest) in enumerate(half.journal):
        if n in dropped:
            continue
        if sink == "small":
            fc.told_small(key, card, smallest)
        else:
            (fc.notes if sink == "notes" else fc.faults).setdefault(key, []).append(card)


def _packed(faces: list, memo: dict) -> tuple[list, list, list, list]:
    """The worker's faces as `Half` sends them: each operation once (`facestore.flat`'s values: the same text or
    shape on many cards is sent and made again once), each face once in a table as its operations' places, with
    its digest."""
    ops: dict = {}
    table: list = []
    seen: dict[int, int] = {}

    def place(face) -> int:
        if face is None:
            return -1
        n = seen.get(id(face))
        if n is None:
            n = seen[id(face)] = len(table)
            w, h, b, shape, flat_ops = flat(face)
            shown = tuple([ops.setdefault(op, len(ops)) for op in flat_ops])
            table.append(((w, h, b, shape, shown), face.__dict__.get("_digest"), face.__dict__.get("_art")))
        return n

    places = [(place(front), place(back)) for front, back in faces]
    return list(ops), table, places, [(key, place(face)) for key, face in memo.items()]


def _unpacked(half: Half, memo: dict) -> list:
    """The worker's faces again, shared as drawing in order shares them: one object per face it drew, and this
    process's own face for a memo key this process drew first (the key's first card was in the first half)."""
    from pnpgen.faces import Face

    made: dict[int, object] = {-1: None}
    for key, n in half.keys:
        if key in memo:
            made[n] = memo[key]
    ops = [OPS[op[0]](*op[1:]) for op in half.ops]

    def face(n: int):
        if n not in made:
            (w, h, b, shape, shown), digest, art = half.table[n]
            made[n] = drawn = Face(w, h, b, tuple([ops[i] for i in shown]), shape)
            if digest is not None:  # worked out in the worker (`digested`), kept as `face_digest` keeps it
                object.__setattr__(drawn, "_digest", digest)
            if art:
                object.__setattr__(drawn, "_art", art)
        return made[n]

    return [(face(front), face(back)) for front, back in half.places]


def digested(faces: list) -> None:
    """Work out (and keep, `face_digest`) the digest of every face drawn: in the two halves at once, rather than
    after the files are written (10,000 cards: 0.24 s)."""
    from pnpgen.faces import face_digest

    seen: set[int] = set()
    for pair in faces:
        for face in pair:
            if face is not None and id(face) not in seen:
                seen.add(id(face))
                face_digest(face)


class _Alone(Exception):
    """The worker's half was asked of this process: no worker could be started."""


def _undo(painter, diags: Diagnostics, mark: int, pixels: dict, steps: int) -> None:
    """Everything the halves changed, put back as it was before the deck was drawn (the caller draws it in order
    with a new `FaceContext`)."""
    del diags.items[mark:]
    painter.reader.recharge(pixels, anew=True)
    painter.library.compiler.budget.build_left = steps
