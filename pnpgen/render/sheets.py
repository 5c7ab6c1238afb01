"""A deck's sheets: its faces imposed page by page, each sheet of fronts followed by its backs."""

from __future__ import annotations

from pathlib import Path

from pnpgen.imposition import PiecePlan, paginate
from pnpgen.imposition.duplex import LONG, Duplex
from pnpgen.render.pdf import PdfWriter


def write_deck(
    path: Path, game_title: str, drawn, plan, icons: dict, paper: str, duplex: Duplex = LONG
) -> int:
    """Write every sheet of a drawn deck (a `pipeline.faces.DeckFaces`), backs placed for `duplex`; returns the
    page count."""
    deck, faces = drawn.deck, drawn.faces
    writer = PdfWriter(
        path,
        (plan.paper_w, plan.paper_h),
        f"{game_title} — {deck.name}",
        f"{deck.name}: {len(faces)} cards, {paper.upper()}",
        icons,
    )
    impose(writer, game_title, drawn, plan, duplex=duplex)
    writer.save()
    return writer.pages


def impose(writer: PdfWriter, game_title: str, drawn, plan, what: str = "", duplex: Duplex = LONG) -> None:
    """Add the sheets of one drawn deck to `writer` (several decks may share one file: a reprint)."""
    deck, faces = drawn.deck, drawn.faces
    sheets = paginate(len(faces), plan.per_sheet)
    page = writer.piece_page if isinstance(plan, PiecePlan) else writer.sheet_page
    for n, rng in enumerate(sheets, 1):
        label = f"{game_title} · {deck.name}{what} · sheet {n} of {len(sheets)}"
        page(plan, [faces[i][0] for i in rng], False, f"{label} · fronts")
        if drawn.has_backs:
            page(plan, [faces[i][1] for i in rng], True, f"{label} · backs", duplex)
