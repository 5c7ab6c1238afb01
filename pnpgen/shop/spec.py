"""The manufacturing spec sheet of a game for one target: what a printer or factory asks with a quote.

One row per component: its kind, shape, trim size, sides, piece count (copies counted, the count the rules
check held against facts.yaml), the files the target writes for it and how many pages or sheets each has, a
stock suggestion, and the rules check's result for it. Written as `spec.csv` and `spec.pdf` beside the
target's files.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import counted
from pnpgen.model import Board, Deck
from pnpgen.units import MM


def rulebook_row(files: str) -> SpecRow:
    return SpecRow("rulebook", "Rules", "rulebook", "n/a", "n/a", 2, 1, files, STOCK["rulebook"], "n/a")


COLUMNS = ("component", "name", "kind", "shape", "size", "sides", "pieces", "files", "stock", "rules check")
STOCK = {
    "cards": "300-330 gsm card (black or blue core), linen or smooth finish",
    "tiles": "2 mm greyboard punchboard, printed paper laminated both sides",
    "tokens": "2 mm greyboard punchboard, printed paper laminated both sides",
    "board": "2 mm greyboard, wrapped with printed paper, folded",
    "rulebook": "130-150 gsm silk paper, saddle-stitched",
}


@dataclass(frozen=True)
class SpecRow:
    component: str
    name: str
    kind: str
    shape: str
    size: str
    sides: int
    pieces: int
    files: str
    stock: str
    check: str

    def cells(self) -> list[str]:
        return [
            self.component,
            self.name,
            self.kind,
            self.shape,
            self.size,
            str(self.sides),
            str(self.pieces),
            self.files,
            self.stock,
            self.check,
        ]


def _size(w: float, h: float) -> str:
    return f"{w / MM:.1f} x {h / MM:.1f} mm ({w / 72:.2f} x {h / 72:.2f} in)"


def rows(components: list, report, files: dict) -> list[SpecRow]:
    """`files`: component id -> what the target wrote for it (names and pages, as measured)."""
    found: dict[str, list[str]] = {}
    for f in report.findings:
        if f.severity in ("error", "warning"):
            found.setdefault(f.component, []).append(f.severity)
    out = []
    for comp in components:
        problems = found.get(comp.id, [])
        check = (
            "held: no finding"
            if not problems
            else f"{counted(problems.count('error'), 'error')}, {counted(problems.count('warning'), 'warning')}"
        )
        if isinstance(comp, Board):
            out.append(
                SpecRow(
                    comp.id,
                    comp.name,
                    "board",
                    "rect",
                    _size(comp.width_pt, comp.height_pt),
                    len(comp.sides),
                    1,
                    files.get(comp.id, "not written for this target"),
                    STOCK["board"],
                    check,
                )
            )
            continue
        assert isinstance(comp, Deck)
        has_back = any((c.back or comp.back) is not None for c in comp.cards)
        out.append(
            SpecRow(
                comp.id,
                comp.name,
                comp.kind,
                comp.shape,
                _size(comp.width_pt, comp.height_pt),
                2 if has_back else 1,
                comp.faces,
                files.get(comp.id, "not written for this target"),
                STOCK.get(comp.kind, STOCK["cards"]),
                check,
            )
        )
    return out


def write_csv(path: Path, spec_rows: list[SpecRow]) -> None:
    from pnpgen.exports import spreadsheet_safe

    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        for row in spec_rows:
            w.writerow([spreadsheet_safe(c) for c in row.cells()])


def write_spec(folder: Path, run, target, components: list, files: dict) -> list[str]:
    """Write spec.csv and spec.pdf into `folder` for `components` under `target`; returns their names."""
    from pnpgen.checker import check_game
    from pnpgen.render.spec import write_spec_pdf

    report = check_game(
        run.root, None, require_facts=False, game=run.game, reader=run.reader, icons=run.icons
    )
    spec_rows = rows(components, report, files)
    if "rulebook" in files:
        spec_rows.append(rulebook_row(files["rulebook"]))
    write_csv(folder / "spec.csv", spec_rows)
    game = run.game
    summary = [
        f"Target: {target.title} ({target.name}). Players: {game.players_min}-{game.players_max}.",
        f"Rules check against facts.yaml: {counted(report.facts, 'fact')}, {counted(report.count('error'), 'error')}, "
        f"{counted(report.count('warning'), 'warning')}, {counted(report.count('erratum'), 'erratum')} (listed in the "
        "game's report).",
        f"Bleed {target.bleed_pt / MM:.1f} mm on every piece; "
        + (
            f"CMYK, PDF/X-1a:2003, {target.condition_name}, ink at most {target.ink_limit * 100:.0f} %."
            if target.cmyk
            else "RGB PNG at 300 dpi, sRGB."
        ),
    ]
    write_spec_pdf(folder / "spec.pdf", f"{game.title}: manufacturing specification", summary, spec_rows)
    return ["spec.csv", "spec.pdf"]
