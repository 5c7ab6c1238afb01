"""`export checklist`: every card of a game's decks, with its count, as one spreadsheet a game:
`OUT/<game>/checklist/checklist.csv` (deck, card, count), every game's folder replaced together or none."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from pnpgen.errors import Diagnostics
from pnpgen.exports import Exported, Folders, _save, loaded, spreadsheet_safe
from pnpgen.model import Deck
from pnpgen.pipeline.checklist import told
from pnpgen.pipeline.target import Export, exported

NAME = "checklist.csv"


class ChecklistExport(Export):
    """One row per card of every deck of the game (cards, tiles, tokens), in the game's and each deck's order."""

    kind = "checklist"

    def __init__(self, game):
        super().__init__("", game.loc)  # no one component: the whole game's (`Target.stands_on`)
        self.rows: list[tuple[str, str, int]] = []

    def prepare(self, run, diags: Diagnostics) -> bool:
        self.rows = []
        for deck in (c for c in run.game.components if isinstance(c, Deck)):
            names = Counter(card.name for card in deck.cards)  # a name cards share says which, as on the PDF
            self.rows += [(deck.id, told(card, names[card.name] > 1), card.count) for card in deck.cards]
        return True

    def write_all(self, folder: Path, w) -> list[str]:
        def table(path: Path) -> None:
            with open(path, "w", newline="", encoding="utf-8") as fh:
                out = csv.writer(fh)  # CRLF line ends, as every CSV pnpgen writes (RFC 4180)
                out.writerow(["deck", "card", "count"])
                for deck, card, count in self.rows:
                    out.writerow([deck, spreadsheet_safe(card), count])

        self.files = [_save(table, folder, NAME, self.loc)]
        return self.files


def export_checklist(project, games: list[str] | None, check: bool = True):
    """Each game's checklist.csv; every game is loaded (and checked) and written before any folder is replaced."""
    results, diags = [], Diagnostics()
    with Folders(project.out) as folders:
        for root in project.select(games):
            run, found = loaded(project, root.name, check)
            folder = folders.stage(project.out_dir(root.name) / "checklist")
            results.append(Exported(root.name, exported(run, ChecklistExport(run.game), folder, found)))
            diags.extend(found)
        folders.commit()
    return results, diags
