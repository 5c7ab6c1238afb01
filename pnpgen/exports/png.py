"""`export png`: one image per distinct card face (and back), with the shops' 1/8 in bleed by default, numbered
so an uploader keeps their order, and cards.csv with each card's count: `OUT/<game>/png/<deck>/`."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

from pnpgen.exports import (
    SHOP_BLEED,
    DeckExport,
    Exported,
    Folders,
    _png,
    _render_pages,
    _save,
    decks_of,
    loaded,
    spreadsheet_safe,
)
from pnpgen.model import Deck
from pnpgen.pipeline.target import exported


class PngExport(DeckExport):
    """One PNG per distinct face and back of a deck, numbered in deck order, with cards.csv of the counts."""

    kind = "png"

    def __init__(self, deck: Deck, dpi: int, bleed: bool):
        super().__init__(deck)
        self.dpi, self.bleed_pt = dpi, SHOP_BLEED if bleed else 0.0

    def writer(self, image) -> Callable[[Path], object]:
        """What writes one rendered face (`shop.tgc` fits it to a template and tags it first)."""
        return _png(image, self.dpi)

    def write_all(self, folder: Path, w) -> list[str]:
        deck, cards, b = self.deck, self.cards, self.bleed_pt
        width = max(3, len(str(len(cards))))
        backs = [c[1] for c in cards if c[1] is not None]
        shared_back = len(set(backs)) == 1 and len(backs) == len(cards)

        def back_name(n: int) -> str:
            return f"{deck.id}-back.png" if shared_back else f"{deck.id}-{n:0{width}d}-back.png"

        files = []
        fronts = [c[0] for c in cards]
        for n, image in enumerate(_render_pages(fronts, b, w.icons, self.dpi, deck, folder), 1):
            files.append(_save(self.writer(image), folder, f"{deck.id}-{n:0{width}d}-front.png", deck.loc))
        if backs:
            back_faces = [backs[0]] if shared_back else [c[1] for c in cards]
            for n, image in enumerate(_render_pages(back_faces, b, w.icons, self.dpi, deck, folder), 1):
                files.append(_save(self.writer(image), folder, back_name(n), deck.loc))

        def counts(path: Path) -> None:
            with open(path, "w", newline="", encoding="utf-8") as fh:
                out = csv.writer(fh)
                out.writerow(["front", "back", "count", "name"])
                for n, (_front, back, count, name) in enumerate(cards, 1):
                    front_name = f"{deck.id}-{n:0{width}d}-front.png"
                    out.writerow(
                        [front_name, back_name(n) if back is not None else "", count, spreadsheet_safe(name)]
                    )

        return [*files, _save(counts, folder, "cards.csv", deck.loc)]


def export_png(project, game_id: str, components: list[str], dpi: int, bleed: bool, check: bool = True):
    run, diags = loaded(project, game_id, check)
    results = []
    with Folders(project.out) as folders:
        for deck in decks_of(run, components):
            folder = folders.stage(project.out_dir(game_id) / "png" / deck.id)
            files = exported(run, PngExport(deck, dpi, bleed), folder, diags)
            results.append(Exported(deck.id, files))
        folders.commit()  # each deck's folder holds this export, old or new; all or none
    return results, diags
