"""The print-all file: every component of a game in one PDF, in print order, after a print-and-build page.

`PrintAll` is an output target like the others (`pipeline/outputs.py`). It uses the faces its component targets
drew (drawing those whose own files were fresh), so it is stale whenever any of them is. What it plans here is
plain data (`Sheet`, `Section`, `PrintDoc`): which sheets print in which order, on which pages, and what a player
does with them; `render/printall.py` draws it.

Paper is saved where it can be: the last, partly filled sheets of card decks of one size share that size's grid,
and the leftover pieces of tile and token sets share gang sheets (`imposition/gang.py`), each only when that
takes fewer sheets than printing them apart. Print order: cards, then tiles and tokens, then boards. In a duplex
form every sheet is two pages, its backs or a blank page, so the whole file prints in one double-sided job;
single-sided (`none`) prints backs as pages of their own and nothing blank.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.errors import Diagnostics
from pnpgen.imposition.duplex import FLIPS, INK_SUFFIX, SUFFIX
from pnpgen.pipeline.checklist import checklists_of
from pnpgen.pipeline.target import Target
from pnpgen.words import ENGLISH_WORDS, Words

STEM = "print-all"
BOARD = "board"  # the kind of a board's part (`outputs.BoardFiles`); every other part is a deck's sheets
RULEBOOK = "=print-all:rulebook"  # the recorded value: whether the game has a rulebook


@dataclass
class Sheet:
    """One sheet of paper: its fronts page and (unless `backs` is None) its backs page; a face per slot or None."""

    plan: object  # SheetPlan or PiecePlan
    fronts: list
    backs: list | None
    label: str


@dataclass
class Section:
    """A run of sheets a player treats alike, as the print-and-build page lists it."""

    kind: str  # "cards", "pieces" (tiles and tokens) or "board"
    title: str
    how: str  # what to do with these sheets once printed
    sheets: list = field(default_factory=list)
    board: tuple[Any, list] | None = None  # (Board, faces): tiled pages instead of sheets
    first: int = 0  # its first and last page in the file, from 1
    last: int = 0


@dataclass
class PrintDoc:
    """What one form (a flip and an ink) of the print-all file holds."""

    title: str
    paper: str
    flip: str
    offset: tuple  # (dx, dy in pt, angle in degrees) of every back page
    low: bool
    supply: tuple
    sections: list
    sheets_apart: int  # sheets of paper the components take when each is printed from its own file
    rulebook: bool
    pages: int = 0
    folded: tuple = ()  # the fold-over files of this ink written beside it (`--fold`, `print: fold`)
    checklists: tuple = ()  # each deck's checklist written beside it (`print: checklist`)
    words: Words = (
        ENGLISH_WORDS  # the game's, for the sheets' labels and blank backs (the guide page is English)
    )

    @property
    def duplex(self) -> bool:
        return self.flip != "none"

    @property
    def sheets(self) -> int:
        """Sheets of paper the components take in this file (the print-and-build page not counted); printed
        single-sided, a sheet's backs take a sheet of their own."""
        n = 0
        for s in self.sections:
            if s.board is not None:
                n += board_pages(s.board[0], s.board[1], self.paper)
            else:
                n += sum(1 if self.duplex or sheet.backs is None else 2 for sheet in s.sheets)
        return n


class PrintAll(Target):
    """`print-all.pdf` (and one per duplex form and ink asked): the whole game, ready for one print job."""

    kind = STEM
    order = 1  # judged and drawn after its parts, whose faces it uses

    def __init__(self, game, parts: list, has_rulebook: bool, printing):
        super().__init__(STEM, game.loc)
        self.game, self.parts, self.has_rulebook, self.printing = game, parts, has_rulebook, printing
        self.docs: dict[str, PrintDoc] = {}

    def names(self) -> list[str]:
        """One file per duplex form and ink; fold-over sheets have no print-all form."""
        return [
            f"{STEM}{SUFFIX[flip]}{INK_SUFFIX[ink]}.pdf"
            for flip in self.printing.flips
            if flip in FLIPS
            for ink in self.printing.inks
        ]

    def describe(self) -> str:
        return f"the print-all file ({self.loc})"

    def fresh(self, run, entries: list[dict]) -> bool:
        """Fresh when its parts' inputs hold and the game still has (or has no) rulebook, which it names."""
        from pnpgen.recorded import value_digest

        if not super().fresh(run, entries):
            return False
        return entries[0]["inputs"].get(RULEBOOK) == value_digest(self.has_rulebook)

    def prepare(self, run, diags: Diagnostics) -> bool:
        from pnpgen.pipeline import facestore

        run.reader.note_value(RULEBOOK[1:], self.has_rulebook)  # its page says where the rules are
        inks = {self.printing.ink_of(name) for name in self.names()}
        for part in self.parts:
            if part.drawn is not None:
                if len(self.parts) > 1:  # kept for the next build that draws this file but not this part
                    facestore.keep(run, part, part.forms())
                continue
            forms = facestore.load(run, part, inks)  # a kept part's faces, as the last build drew them
            if forms is not None and part.take(run, forms):
                continue
            found = (
                Diagnostics()
            )  # a part whose own files are fresh reported its warnings when they were made
            if not part.prepare(run, found):
                diags.items.extend(found.errors)
                return False
            facestore.keep(run, part, part.forms())
        rulebook = self.has_rulebook
        nets = _die_boards(run, self.parts)
        for name in self.names():
            flip = next(f for f in FLIPS for i in INK_SUFFIX.values() if name == f"{STEM}{SUFFIX[f]}{i}.pdf")
            low = self.printing.ink_of(name) == "low"
            self.docs[name] = plan_doc(
                self.game, self.parts, run.paper, self.printing.duplex(flip), low, rulebook, nets
            )
        return True

    def stands_on(self, run) -> dict[str, str]:
        """What the parts stand on: their components' files, and what they read when drawn in this build."""
        out: dict[str, str] = {}
        for part in self.parts:
            out.update(part.stands_on(run))
            out.update(part.inputs)
        return out

    def faces(self, pages: int) -> int:
        return sum(len(p.drawn.faces) for p in self.parts)

    def entry(self, name: str, pages: int, sha256: str) -> dict:
        doc = self.docs[name]
        return {**super().entry(name, pages, sha256), "sheets": doc.sheets, "sheets_apart": doc.sheets_apart}

    def write(self, path: Path, name: str, w) -> int:
        from pnpgen.render.printall import write_print_all

        return write_print_all(path, self.docs[name], w.icons)


def _die_boards(run, parts: list) -> frozenset[str]:
    """The boards a side of which draws a die to fold (`die-net`): their page says to cut, fold and glue it."""
    out = set()
    for part in parts:
        if part.kind == BOARD:
            layouts = [run.library.get(side.layout.layout, side.layout.loc) for side in part.board.sides]
            if any(el.type == "die-net" for layout in layouts for el in layout.elements):
                out.add(part.board.id)
    return frozenset(out)


def print_all_of(game, parts: list, rulebook: bool, printing) -> PrintAll | None:
    """The print-all target over a game's component targets, `parts` (None for a game with nothing to print);
    `rulebook`: whether the game has one, which its first page names."""
    if not parts:
        return None
    target = PrintAll(game, parts, rulebook, printing)
    return target if target.names() else None


# -- planning -------------------------------------------------------------------------------------------------
def plan_doc(
    game, parts: list, paper: str, duplex, low: bool, rulebook: bool, nets: frozenset[str] = frozenset()
) -> PrintDoc:
    """One form of the print-all file: its sections in print order, with their page numbers. `nets`: the boards
    that draw dice to fold (`die-net`)."""
    decks = [p for p in parts if p.kind != BOARD]
    sections: list[Section] = []
    apart = 0
    for kinds in (("cards",), ("tiles", "tokens")):
        group = [p for p in decks if p.deck.kind in kinds]
        found, sheets = _deck_sections(game, group, paper, low, kinds != ("cards",), duplex.flip != "none")
        sections += found
        apart += sheets
    for part in (p for p in parts if p.kind == BOARD):
        faces = (part.drawn_low if low else part.drawn).faces
        n = board_pages(part.board, faces, paper)
        apart += n
        words = game.words
        sides = words("sides" if len(faces) > 1 else "one_side", n=len(faces))
        how = (
            "how_board_tiled"
            if n > len(faces)
            else "how_board_dice"
            if part.board.id in nets
            else "how_board"
        )
        sections.append(
            Section(
                "board",
                words("row_board", name=part.board.name, sides=sides),
                words(how),
                board=(part.board, faces),
            )
        )
    page = 3 if duplex.flip != "none" else 2  # the print-and-build page (and its blank back) come first
    for s in sections:
        if s.board is not None:
            n = board_pages(s.board[0], s.board[1], paper) * (2 if duplex.flip != "none" else 1)
        else:
            n = sum(2 if (sheet.backs is not None or duplex.flip != "none") else 1 for sheet in s.sheets)
        s.first, s.last = page, page + n - 1
        page += n
    supply = tuple(game.printing.get("supply", ())) if game.printing else ()
    offset = (duplex.dx, duplex.dy, duplex.angle)
    folded = tuple(
        n
        for p in decks
        for n in p.names()
        if p.printing.flip_of(n, p.deck.id) == "fold" and (p.printing.ink_of(n) == "low") == low
    )
    checklists = tuple(n for c in checklists_of(game) for n in c.names())
    return PrintDoc(
        game.title,
        paper,
        duplex.flip,
        offset,
        low,
        supply,
        sections,
        apart,
        rulebook,
        page - 1,
        folded,
        checklists,
        game.words,
    )


def _deck_sections(
    game, decks: list, paper: str, low: bool, pieces: bool, duplex: bool
) -> tuple[list[Section], int]:
    """Each deck's own sheets, then the sheets its leftovers share with other decks' (when that saves paper);
    also the sheets of paper they take printed apart."""
    from pnpgen.imposition import PiecePlan

    drawn = {id(p): (p.drawn_low if low else p.drawn) for p in decks}
    # whether each deck has backs, asked once per deck: `has_backs` looks at every card until it finds a back, so
    # a deck without backs asked once per sheet would cost the square of its size
    has_backs = {id(p): drawn[id(p)].has_backs for p in decks}
    leftovers: dict[int, int] = {}  # deck index -> faces on its last, partly filled sheet
    apart = 0
    for k, part in enumerate(decks):
        n, per = len(drawn[id(part)].faces), part.plan.per_sheet
        apart += math.ceil(n / per) * (1 if duplex or not has_backs[id(part)] else 2)
        if n % per:
            leftovers[k] = n % per
    shared = _shared(game, decks, drawn, leftovers, paper, pieces)
    ganged = {k for sheet in shared for k, _ in sheet[1]}
    sections = []
    for k, part in enumerate(decks):
        faces = drawn[id(part)].faces
        per = part.plan.per_sheet
        own = len(faces) - (leftovers[k] if k in ganged else 0)
        count = math.ceil(own / per)
        if not count:
            continue
        sheets = []
        for n in range(count):
            chunk = faces[n * per : min((n + 1) * per, own)]
            backs = [b for _, b in chunk] if has_backs[id(part)] else None
            label = f"{game.title} · {part.deck.name} · {game.words('sheet_of', n=n + 1, count=count)}"
            sheets.append(Sheet(part.plan, [f for f, _ in chunk], backs, label))
        how = game.words(_how(part.deck, isinstance(part.plan, PiecePlan)))
        noun = part.deck.kind if len(faces) != 1 else part.deck.kind.removesuffix("s")  # cards, card
        told = game.words(f"n_{noun}", n=len(faces))
        if k in ganged:
            title = game.words("row_deck_shared", name=part.deck.name, pieces=told, shared=leftovers[k])
        else:
            title = game.words("row_deck", name=part.deck.name, pieces=told)
        sections.append(Section("pieces" if pieces else "cards", title, how, sheets))
    if shared:
        names = sorted({decks[k].deck.name for sheet in shared for k, _ in sheet[1]}, key=str.casefold)
        sections.append(
            Section(
                "pieces" if pieces else "cards",
                game.words("row_shared_pieces" if pieces else "row_shared_cards", names=", ".join(names)),
                game.words("how_shared_pieces" if pieces else "how_shared_cards"),
                [sheet for sheet, _ in shared],
            )
        )
    return sections, apart


def _shared(game, decks, drawn, leftovers: dict, paper: str, pieces: bool) -> list[tuple[Sheet, list]]:
    """The shared sheets of the decks' leftovers (with the (deck, n) of each slot), where they save paper."""
    from pnpgen.imposition.gang import GangItem, gang_cards, plan_gang

    out: list[tuple[Sheet, list]] = []
    if pieces:
        items = [
            GangItem(
                k,
                decks[k].deck.shape,
                decks[k].deck.width_pt,
                decks[k].deck.height_pt,
                decks[k].deck.bleed_pt,
                n,
            )
            for k, n in leftovers.items()
        ]
        if len(items) < 2:
            return []
        gang = plan_gang(paper, items)
        if len(gang) >= len(items):
            return []
        groups = [(g.plan, list(g.owners)) for g in gang]
    else:
        by_size: dict[tuple, list[int]] = {}
        for k in leftovers:
            d = decks[k].deck
            by_size.setdefault(
                (round(d.width_pt, 3), round(d.height_pt, 3), round(d.bleed_pt, 3)), []
            ).append(k)
        groups = []
        for ks in by_size.values():
            plan = decks[ks[0]].plan
            sheets = gang_cards(plan.per_sheet, [(k, leftovers[k]) for k in ks])
            if len(ks) > 1 and len(sheets) < len(ks):
                groups += [(plan, owners) for owners in sheets]
    for n, (plan, owners) in enumerate(groups, 1):
        picked = []
        for k, i in owners:
            faces = drawn[id(decks[k])].faces
            picked.append(faces[len(faces) - leftovers[k] + i])
        backs = [b for _, b in picked]
        names = []
        for k, _ in owners:
            if decks[k].deck.name not in names:
                names.append(decks[k].deck.name)
        shared = game.words(
            "colon", before=game.words("shared_sheet_of", n=n, count=len(groups)), after=", ".join(names)
        )
        label = f"{game.title} · {shared}"
        sheet = Sheet(
            plan, [f for f, _ in picked], backs if any(b is not None for b in backs) else None, label
        )
        out.append((sheet, owners))
    return out


def _how(deck, shaped: bool) -> str:
    """The key of what to do with a deck's sheets: a shaped piece is cut on its guide (the black hairline
    `render/sheets.GUIDE_LINE` draws round it)."""
    if shaped:
        return "how_round"
    return "how_cards" if deck.kind == "cards" else "how_pieces"


def board_pages(board, faces: list, paper: str) -> int:
    """Pages a board's tiled file takes: each side's windows, and a map page for a side on more than one."""
    from pnpgen.imposition.boards import page_size, tile_windows

    b = board.bleed_pt
    total = (board.width_pt + 2 * b, board.height_pt + 2 * b)
    windows = len(tile_windows(*total, page_size(*total, paper))[0])
    return len(faces) * (windows + (1 if windows > 1 else 0))
