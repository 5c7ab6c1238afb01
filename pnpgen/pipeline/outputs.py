"""Output targets: one small class per kind of file a build writes into a game's output folder.

Each target names the files it claims (claimed before anything is drawn: two targets claiming one file is a
content error naming both), draws what it needs inside a recording of the reader (so its inputs are whatever it
read, never a list written by hand), writes one file into the staging folder, and gives its manifest entry.
The protocol they share, with exports and shop exports, is `pipeline/target.py`'s `Target`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.faces import face_digest
from pnpgen.imposition.duplex import DEFAULT, INK_SUFFIX
from pnpgen.imposition.duplex import LONG as DEFAULT_DUPLEX
from pnpgen.imposition.sheets import PRINT_EDGE
from pnpgen.model import Board, Deck
from pnpgen.names import file_name_problem, same_file_key
from pnpgen.pipeline.checklist import checklists_of
from pnpgen.pipeline.manifest import ahead
from pnpgen.pipeline.records import card_records, sources_of
from pnpgen.pipeline.target import Target
from pnpgen.units import MM


class DeckSheets(Target):
    """Cards, tiles or tokens imposed on sheets, backs behind their fronts: `<id>.pdf`."""

    records_faces = True  # its entries hold every card's digests: kept, its faces are the ones recorded

    def __init__(self, deck: Deck, printing=DEFAULT, paper: str = "a4"):
        super().__init__(deck.id, deck.loc)
        self.deck, self.paper = deck, paper
        self.kind = deck.kind
        self.drawn: Any = None  # DeckFaces, once prepared
        self.drawn_low: Any = None  # the low-ink form's faces, when a -lowink file is asked for
        self.plan: Any = None  # SheetPlan or PiecePlan, once prepared
        self.fold_plan: Any = None  # FoldPlan, when the deck folds
        self.printing = printing
        self.sources: list[str] | None = None  # each card's place (`sources_of`), once prepared

    def names(self) -> list[str]:
        """One file per form asked for; no fold-over form for single-sided pieces (nothing to fold), shaped
        pieces (no fold-over layout yet) or a card too large to stand beside its back on the paper."""
        names = self.printing.names(self.deck.id)
        if "fold" in self.printing.flips and (self._single_sided() or self._no_fold() is not None):
            names = [n for n in names if self.printing.flip_of(n, self.deck.id) != "fold"]
        return names

    def _single_sided(self) -> bool:
        """Whether no piece of the deck has a back (read from the content, before anything is drawn)."""
        return all(self.deck.back_for(card) is None for card in self.deck.cards)

    def _no_fold(self) -> str | None:
        """Why this deck has no fold-over form, or None when it has one."""
        from pnpgen.imposition import ImpositionError
        from pnpgen.imposition.fold import plan_fold

        deck = self.deck
        if deck.shape not in ("rect", "square"):
            return f"{deck.shape} pieces have no fold-over layout"
        try:
            plan_fold(self.paper, deck.width_pt, deck.height_pt, deck.bleed_pt)
        except ImpositionError as exc:
            return str(exc).split(";")[0]
        return None

    def prepare(self, run, diags: Diagnostics) -> bool:
        from pnpgen.imposition import ImpositionError, plan_for

        deck = self.deck
        try:
            self.plan = plan_for(deck, run.paper)
            if "fold" in self.printing.flips and self._no_fold() is None:
                from pnpgen.imposition.fold import plan_fold

                self.fold_plan = plan_fold(run.paper, deck.width_pt, deck.height_pt, deck.bleed_pt)
        except ImpositionError as exc:
            diags.error(deck.loc, f"deck '{deck.id}': {exc}")
            return False
        kept = getattr(self.plan, "kept_bleed", deck.bleed_pt)
        if kept < deck.bleed_pt - 0.01:
            diags.warning(
                deck.loc,
                f"deck '{deck.id}': its sheets keep {kept / MM:.1f} mm of the {deck.bleed_pt / MM:.1f} mm bleed on "
                f"the grid's outer edges: the grid reaches within {PRINT_EDGE / MM + kept / MM:.1f} mm of the "
                f"{run.paper.upper()} paper's edge, and pnpgen prints nothing nearer than "
                f"{PRINT_EDGE / MM:.0f} mm",
                "a smaller bleed, or a card size that leaves a row's room, keeps all of it",
            )
        why = self._no_fold() if "fold" in self.printing.flips and not self._single_sided() else None
        if why is not None:
            diags.warning(deck.loc, f"{deck.id}-fold.pdf is not written: {why}; print {deck.id}.pdf duplex")
        inks = {self.printing.ink_of(n) for n in self.names()}
        if "full" in inks:
            self.drawn = run.painter.deck(self.deck, diags)
            if self.drawn is None:
                return False
        if "low" in inks:
            self.drawn_low = run.low_painter.deck(
                self.deck, Diagnostics()
            )  # its warnings are the full form's
            if self.drawn_low is None:
                self.drawn_low = run.low_painter.deck(self.deck, diags)  # what only the low form trips on
                return False
            if self.drawn is None:
                self.drawn = run.painter.deck(self.deck, diags)  # for the manifest's records and the checks
                if self.drawn is None:
                    return False
        from pnpgen.pipeline.unused import unused_fields

        self.sources = sources_of(run.reader, [card.loc for card in self.deck.cards])

        unread = unused_fields(run, self.deck, diags, run.mentioned())
        self.warnings = self.drawn.warnings + label_glyphs(run, self.deck, diags) + unread
        return True

    def faces(self, pages: int) -> int:
        return len(self.drawn.faces)

    def forms(self) -> dict:
        """Its drawn faces by ink, as the print-all file keeps them between builds (`pipeline/facestore.py`)."""
        return _forms(self)

    def take(self, run, forms: dict) -> bool:
        """Take kept faces (`forms()` of an earlier build) instead of drawing them, for the print-all file."""
        from pnpgen.imposition import ImpositionError, plan_for
        from pnpgen.pipeline.faces import DeckFaces

        try:
            self.plan = plan_for(self.deck, run.paper)
        except ImpositionError:
            return False
        self.drawn = DeckFaces(self.deck, forms["full"], first_read=forms.get("read"))
        if forms.get("low") is not None:
            self.drawn_low = DeckFaces(self.deck, forms["low"])
        run.painter.taken(self.drawn)  # the rulebook's picture of the deck, not drawn again
        return True

    def _plan_of(self, name: str):
        """The sheet plan and back placing of one of this target's files."""
        form = self.printing.flip_of(name, self.deck.id)
        if form == "fold":
            return self.fold_plan, None
        return self.plan, self.printing.duplex(form)

    def _drawn_of(self, name: str):
        return self.drawn_low if self.printing.ink_of(name) == "low" else self.drawn

    def entry(self, name: str, pages: int, sha256: str) -> dict:
        records = self.__dict__.setdefault("_records", {})  # made once a build (`jobs.beside_writers`)
        if name not in records:
            plan, duplex = self._plan_of(name)
            records[name] = ahead(card_records(self._drawn_of(name), plan, duplex, self.sources))
        return {**super().entry(name, pages, sha256), "cards": records[name]}

    def write(self, path: Path, name: str, w) -> int:
        from pnpgen.render.sheets import write_deck

        plan, duplex = self._plan_of(name)
        drawn = self._drawn_of(name)
        return write_deck(
            path, w.game.title, drawn, plan, w.icons, w.paper, duplex or DEFAULT_DUPLEX, words=w.game.words
        )


def _forms(target) -> dict:
    """A deck's or board's drawn faces by ink ("full", and "low" when drawn), and what drawing the rulebook's
    picture of it read ("read": a deck's pictured card, a board's sides), when recorded."""
    out = {"full": target.drawn.faces}
    if target.drawn_low is not None:
        out["low"] = target.drawn_low.faces
    read = getattr(target.drawn, "first_read", None) or getattr(target.drawn, "read", None)
    if read is not None:
        out["read"] = read
    return out


class BoardFiles(Target):
    """A board tiled at true size across pages (`<id>.pdf`) and at full size for a print shop (`<id>-full.pdf`)."""

    kind = "board"

    def __init__(self, board: Board, printing=DEFAULT):
        super().__init__(board.id, board.loc)
        self.board = board
        self.drawn: Any = None  # BoardFaces, once prepared
        self.drawn_low: Any = None
        self.printing = printing

    def names(self) -> list[str]:
        """`<id>.pdf` and `<id>-full.pdf`, and their `-lowink` forms when low ink is asked for."""
        return [f"{self.board.id}{k}{INK_SUFFIX[i]}.pdf" for i in self.printing.inks for k in ("", "-full")]

    def prepare(self, run, diags: Diagnostics) -> bool:
        self.drawn = run.painter.board(self.board, diags)
        if self.drawn is None:
            return False
        if "low" in self.printing.inks:
            self.drawn_low = run.low_painter.board(self.board, Diagnostics())
            if self.drawn_low is None:
                return False
        from pnpgen.pipeline.unused import unused_side_fields

        unread = unused_side_fields(run, self.board, diags, run.mentioned())
        self.warnings = self.drawn.warnings + label_glyphs(run, self.board, diags) + unread
        return True

    def faces(self, pages: int) -> int:
        return len(self.drawn.faces)

    def forms(self) -> dict:
        return _forms(self)

    def take(self, run, forms: dict) -> bool:
        from pnpgen.pipeline.faces import BoardFaces

        self.drawn = BoardFaces(self.board, forms["full"], read=forms.get("read"))
        if forms.get("low") is not None:
            self.drawn_low = BoardFaces(self.board, forms["low"])
        run.painter.taken(self.drawn)  # a rulebook diagram's board, not drawn again
        return True

    def entry(self, name: str, pages: int, sha256: str) -> dict:
        out = super().entry(name, pages, sha256)
        drawn = self.drawn_low if self.printing.ink_of(name) == "low" else self.drawn
        if name.endswith(("-full.pdf", "-full-lowink.pdf")):  # one side a page, at full size
            w, h = self.board.width_pt, self.board.height_pt
            b = self.board.bleed_pt
            out["sides"] = [
                {"name": side.id, "front": face_digest(face), "front_at": [i, b, b, round(w, 2), round(h, 2)]}
                for i, (side, face) in enumerate(zip(self.board.sides, drawn.faces))
            ]
        return out

    def write(self, path: Path, name: str, w) -> int:
        from pnpgen.render.board import write_board_full, write_board_tiled

        title = f"{w.game.title} — {self.board.name}"
        faces = (self.drawn_low if self.printing.ink_of(name) == "low" else self.drawn).faces
        if name.endswith(("-full.pdf", "-full-lowink.pdf")):
            return write_board_full(path, self.board, faces, w.icons, f"{title} (full size)")
        return write_board_tiled(path, self.board, faces, w.icons, w.paper, title, words=w.game.words)


class RulebookFile(Target):
    """The rulebook (`rulebook.pdf`): Markdown and Jinja over the content, with pictures of the components.

    Besides the files it reads, it records the values of the content it shows (see `pnpgen.rulebook.View`), so an
    edit the rulebook does not show leaves it as it is."""

    kind = "rulebook"
    order = 2  # judged and drawn last: its pictures are the faces the other targets drew, when they drew them

    def __init__(self, sources: list[Path], printing=DEFAULT):
        super().__init__("rulebook", Location(display_path(sources[0])))
        self.printing = printing
        self.sources = sources
        self.book = None
        self.pictures: dict = {}
        self.info: dict = {}
        self.seeds: dict = {}  # file name -> the contents list its last build ended with
        self.shown: dict = {}  # diagram or cover -> what it drew on and came to (the manifest's `shown`)

    def names(self) -> list[str]:
        """`rulebook.pdf` always (the file other outputs name), and `rulebook-lowink.pdf` when low ink is asked."""
        return ["rulebook.pdf"] + (["rulebook-lowink.pdf"] if "low" in self.printing.inks else [])

    def describe(self) -> str:
        return f"the rulebook ({self.loc})"

    def stands_on(self, run) -> dict[str, str]:
        return rulebook_inputs(run)

    def prepare(self, run, diags: Diagnostics) -> bool:
        from pnpgen.rulebook import load_rulebook

        try:
            self.book, self.info, self.pictures = load_rulebook(run, diags)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            return False
        self.seeds = {e["path"]: e.get("contents") for e in run.old_entries(self)}
        self.shown = dict(
            sorted(run.shown.items())
        )  # what each diagram and the cover drew on: `rulebook._still`
        return self.book is not None

    def entry(self, name: str, pages: int, sha256: str) -> dict:
        return {**super().entry(name, pages, sha256), "shown": self.shown}

    def fresh(self, run, entries: list[dict]) -> bool:
        from pnpgen.rulebook import values_hold

        return super().fresh(run, entries) and values_hold(run, entries[0]["inputs"], entries[0].get("shown"))

    def write(self, path: Path, name: str, w) -> tuple[int, dict]:
        """The book, and its contents list for the manifest: the next build of it starts from that list."""
        from pnpgen.render.book import build_rulebook_pdf
        from pnpgen.render.passes import contents_seed

        low = self.printing.ink_of(name) == "low"
        found: list = []
        seed = contents_seed(self.seeds.get(name))
        pages = build_rulebook_pdf(
            path, self.book, w.game, w.icons, self.pictures, self.info, w.paper, low, seed, found
        )
        return pages, {"contents": found}


def rulebook_inputs(run) -> dict[str, str]:
    """What a rulebook stands on before it is drawn: the icons, its sources, and the game's fonts (its pictures
    are drawn in them)."""
    font_files = {
        run.reader.key(Path(path)) for styles in run.game.fonts.values() for path, *_ in styles.values()
    }
    fonts = {k: v for k, v in run.model_inputs.items() if k in font_files}
    return {**run.icon_inputs, **run.source_inputs, **fonts}


def label_glyphs(run, component, diags: Diagnostics) -> int:
    """Warnings for characters of the game's title or a component's name that the label font cannot draw."""
    from pnpgen.text.fonts import missing_glyphs

    found = 0
    for text, loc, what in (
        (run.game.title, run.game.at("title"), "the game's title"),
        (component.name, component.loc, "the name"),
    ):
        lost = missing_glyphs(text, "sans")
        if lost:
            codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
            diags.warning(
                loc, f"the font sans has no {codes} in {what} {text!r}; the sheet labels would not show it"
            )
            found += 1
    return found


def targets_of(game, sources: list[Path], printing=DEFAULT, paper: str = "a4") -> list[Target]:
    """Every target of a game, in the order its files are listed in the manifest."""
    parts: list[Target] = [
        BoardFiles(c, printing) if isinstance(c, Board) else DeckSheets(c, printing, paper)
        for c in game.components
    ]
    out = parts + checklists_of(game) + ([RulebookFile(sources, printing)] if sources else [])
    if not printing.whole:
        return out
    from pnpgen.pipeline.printall import print_all_of

    whole = print_all_of(game, parts, bool(sources), printing)  # last: it uses the others' faces
    return out + [whole] if whole is not None else out


def claim(targets: list[Target], diags: Diagnostics) -> bool:
    """Every file name is claimed by one target only, names that differ only by case included (one file on
    Windows and macOS); a second claim is an error naming both. Every name must be a file name on every system
    (`names.file_name_problem`)."""
    owners: dict[str, tuple[str, Target]] = {}
    ok = True
    for target in targets:
        for name in target.names():
            other, why = owners.get(same_file_key(name)), file_name_problem(name)
            if why is not None:
                diags.error(
                    target.loc, f"{target.describe()} would write '{name}': {why}", "give it another id"
                )
                ok = False
            elif other is not None:
                was, by = other
                also = (
                    "too" if was == name else f"as '{was}' (one file where case is ignored: Windows, macOS)"
                )
                diags.error(
                    target.loc,
                    f"{target.describe()} would write '{name}', which {by.describe()} writes {also}",
                    "give one of them another id",
                )
                ok = False
            elif same_file_key(name) == "manifest.json":
                diags.error(target.loc, f"{target.describe()}: '{name}' is pnpgen's own file")
                ok = False
            else:
                owners[same_file_key(name)] = (name, target)
    return ok
