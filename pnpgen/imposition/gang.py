"""Gang sheets: the pieces of several small components of one game on shared sheets, when that saves paper.

Each component keeps its own packing (its shape, size, bleed and spacing, as on its own sheets) in a band
across the sheet; bands stand one below another, `BAND_GAP` apart plus both bleeds, each cut on its own.
Components are taken in print order and each goes into the first sheet with room for all its pieces
(first fit); one too large for any sheet's room starts a new sheet and runs on to more sheets. A gang sheet is a
`PiecePlan` whose slots carry their own bleed, so backs are placed exactly as on a component's own sheets.

Cards gang more simply: the last, partly filled sheets of decks of one size share that size's grid
(`gang_cards`). Pure geometry in points, PDF convention (y upwards).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pnpgen.imposition.pieces import LABEL_BAND, PiecePlan, PieceSlot, extent, piece_gap, piece_slots
from pnpgen.imposition.sheets import MARGIN, ImpositionError, Label
from pnpgen.shapes import Place, pack
from pnpgen.units import MM, PAPERS, paper_pt

BAND_GAP = 4 * MM  # between the cut lines of two components' bands


@dataclass(frozen=True)
class GangItem:
    """Pieces of one component to place: `count` pieces of one shape and size."""

    part: int  # which component (the caller's index)
    shape: str
    w: float
    h: float
    bleed: float
    count: int


@dataclass(frozen=True)
class GangSheet:
    plan: PiecePlan  # every piece of the sheet, in bands
    owners: tuple[tuple[int, int], ...]  # per slot: (part, n), the n-th piece placed of that part


def plan_gang(paper: str, items: list[GangItem]) -> list[GangSheet]:
    """The gang sheets holding every item's pieces, in order (see the module's docstring)."""
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (a4 or letter)")
    pw, ph = paper_pt(paper)
    floor = MARGIN + LABEL_BAND
    sheets: list[dict[str, Any]] = []  # each: "top" (the free room's top edge) and its bands
    for item in items:
        left, done = item.count, 0
        for sheet in sheets:  # first fit: the whole remainder in a sheet's free room
            places = _band(item, left, pw, floor, sheet["top"])
            if len(places) == left:
                _add(sheet, item, places, done)
                left = 0
                break
        while left:
            sheet = {"top": ph - MARGIN + BAND_GAP, "bands": []}
            places = _band(item, left, pw, floor, sheet["top"])
            if not places:
                raise ImpositionError(
                    f"a {item.w / MM:.1f} x {item.h / MM:.1f} mm {item.shape} does not fit on {paper.upper()} "
                    f"paper inside the {MARGIN / MM:.0f} mm printer margin"
                )
            sheets.append(sheet)
            _add(sheet, item, places, done)
            left -= len(places)
            done += len(places)
    label = Label(pw / 2, MARGIN + LABEL_BAND / 2, pw - 2 * MARGIN, LABEL_BAND, False)
    out = []
    for sheet in sheets:
        slots: list[PieceSlot] = []
        owners: list[tuple[int, int]] = []
        for item, places, first in sheet["bands"]:
            base = len(slots)
            for slot in piece_slots(item.shape, item.w, item.h, item.bleed, places, own_bleed=True):
                slots.append(replace(slot, sides=tuple(k + base if k >= 0 else -1 for k in slot.sides)))
            owners += [(item.part, first + n) for n in range(len(places))]
        plan = PiecePlan(paper, pw, ph, "mixed", tuple(slots), label, 0.0)
        out.append(GangSheet(plan, tuple(owners)))
    return out


def _band(item: GangItem, n: int, pw: float, floor: float, top: float) -> list[Place]:
    """Up to `n` pieces of `item` packed in rows from `top` down (the previous band's cut line plus the gap)."""
    b = item.bleed
    lone = piece_slots(item.shape, item.w, item.h, b, [Place(0.0, 0.0)])[0]
    reach = (
        extent(lone.clip)[3] - item.h
    )  # how far its art runs above its outline (past a sharp corner: more)
    area = (MARGIN + b, floor + b, pw - MARGIN - b, top - BAND_GAP - max(b, reach))
    if area[3] - area[1] < item.h - 1e-6:
        return []
    places = pack(item.shape, item.w, item.h, area, piece_gap(item.shape, b))[:n]
    if not places:
        return []
    lift = area[3] - max(p.y + item.h for p in places)  # `pack` centres its rows: raise them to the top
    return [Place(p.x, p.y + lift, p.up) for p in places]


def _add(sheet: dict[str, Any], item: GangItem, places: list[Place], first: int) -> None:
    """Put a band on the sheet; the room left ends where the band's art ends."""
    sheet["bands"].append((item, places, first))
    slots = piece_slots(item.shape, item.w, item.h, item.bleed, places)
    sheet["top"] = min(extent(s.clip)[1] for s in slots)


def gang_cards(per_sheet: int, leftovers: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Decks of one card size whose last sheet is partly filled: `leftovers` is (part, cards left over) each;
    returns the shared sheets, each a list of (part, n) in slot order (the n-th left-over card of that part).
    A deck's leftovers (fewer than a sheet holds) stay together on one sheet: the first with room for all."""
    sheets: list[list[tuple[int, int]]] = []
    for part, count in leftovers:
        target = next((s for s in sheets if per_sheet - len(s) >= count), None)
        if target is None:  # a leftover is less than a sheet: it always fits a new one
            target = []
            sheets.append(target)
        target += [(part, n) for n in range(count)]
    return sheets
