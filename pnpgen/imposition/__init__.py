"""Imposition: where faces go on sheets. Pure geometry in points, no ReportLab, testable on numbers.

- `sheets`: cards (and square or rectangular pieces) on a grid with shared cut lines or gutters, cut marks,
  the margin label, backs placed for the flip `duplex` names;
- `pieces`: shaped pieces packed densely, each cut to its outline;
- `boards`: a board tiled at true size across pages, with overlap strips and alignment crosses;
- `duplex`: where backs go for a long-edge, short-edge or no flip, and a printer's back offset;
- `fold`: fold-over sheets, each front beside its back about a fold line.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnpgen.imposition.pieces import PiecePlan, PieceSlot, plan_pieces
    from pnpgen.imposition.sheets import (
        MARGIN,
        ImpositionError,
        Label,
        Mark,
        SheetPlan,
        Slot,
        paginate,
        plan_sheet,
    )
    from pnpgen.model import Deck

# Loaded when first asked for, so `pnpgen.imposition.duplex` (which the unchanged-game check needs, through
# `pnpgen.project`) comes without the sheet and piece planners.
_LAZY = {
    **dict.fromkeys(("PiecePlan", "PieceSlot", "plan_pieces"), "pieces"),
    **dict.fromkeys(
        ("MARGIN", "ImpositionError", "Label", "Mark", "SheetPlan", "Slot", "paginate", "plan_sheet"),
        "sheets",
    ),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(import_module(f"pnpgen.imposition.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'pnpgen.imposition' has no attribute {name!r}")


__all__ = [
    "MARGIN",
    "ImpositionError",
    "Label",
    "Mark",
    "PiecePlan",
    "PieceSlot",
    "SheetPlan",
    "Slot",
    "paginate",
    "plan_for",
    "plan_pieces",
    "plan_sheet",
]


def plan_for(deck: Deck, paper: str) -> SheetPlan | PiecePlan:
    """The sheet plan of a deck: a grid for cards and square or rectangular pieces, dense packing otherwise."""
    if deck.shape in ("rect", "square"):
        from pnpgen.imposition.sheets import plan_sheet

        return plan_sheet(paper, deck.width_pt, deck.height_pt, deck.bleed_pt)
    from pnpgen.imposition.pieces import plan_pieces

    return plan_pieces(paper, deck.shape, deck.width_pt, deck.height_pt, deck.bleed_pt)
