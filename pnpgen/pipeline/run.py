"""One game's build: its reader, model, layouts, icons and old manifest, and the stages that use them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen import __version__
from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.pipeline import freshness, manifest, outputs
from pnpgen.pipeline.assets import game_fonts, game_icons
from pnpgen.pipeline.jobs import Job, Writing, beside_writers, write_all
from pnpgen.pipeline.staging import Stage, refuse_link, sweep
from pnpgen.pipeline.target import prepared


class Stopped(Exception):
    """A build stopped between writing its first files and the rest (`GameRun.write`'s `then`)."""


class Progress:
    """How far a build is, counted in files (a bar that counts games jumps from 0/1 to 1/1 for one game): a game
    says how many files it will write once it knows (`planned`), and each as it is written (`written`). This one
    counts nothing; the CLI's draws a bar."""

    def planned(self, n: int) -> None:
        pass

    def written(self, n: int) -> None:
        pass


@dataclass
class GameResult:
    game: str
    ok: bool
    diagnostics: Diagnostics
    files: list = field(default_factory=list)  # manifest entries
    out_dir: Path | None = None
    rendered: list = field(default_factory=list)  # components drawn and written again
    reused: list = field(default_factory=list)  # components whose files were up to date
    written: int = 0  # files written (the rest of `files` were up to date)
    removed: list = field(default_factory=list)  # files of the last build this one no longer writes, removed
    paper: str = "a4"  # the paper it was built on
    model: object = field(default=None, repr=False, compare=False)  # the loaded Game, where it was built

    def __getstate__(self) -> dict:
        return {**self.__dict__, "model": None}  # a result from a worker process comes back without its model


class GameRun:
    """The state of one game's build; each stage is a method, called in order by `pipeline.build_game`."""

    def __init__(self, project, root: Path, strict: bool = False):
        self.project, self.root, self.strict = project, root, strict
        self.reader = project.reader(root)
        self.out_dir = project.out_dir(root.name)
        self.roots = [r.resolve() for r in project.roots_of(root)]
        self.previous, self.sealed = manifest.last(self.out_dir)  # the last build's: its files may have to go
        self.old = freshness.usable(self.sealed, None, None)  # `load` compares how it printed, not who asked
        self.printing = project.printing  # with the game's print: defaults once it is loaded
        self.check_inputs: dict[str, str] | None = None
        self.checked = False
        self.load_warnings = 0
        self.check_warnings = 0
        self.partial = False  # loaded but for a data sheet's rows with bad cells: drawn, never written
        self.seen: dict[str, str] = {}  # input key -> its digest now, as freshness checks found it
        # decks whose sheets this build keeps: every input they were drawn from holds, so their faces (the
        # rulebook's picture of the first card among them) are the faces the manifest recorded
        self.kept_decks: set[str] = set()
        self.kept: set[str] = set()  # every component none of whose targets this build draws again
        self.shown: dict = {}  # rulebook diagram or cover -> what it drew on (`rulebook._remember`)
        self.memo = project.memo  # what a resident process (watch, serve) keeps between builds
        self.cores: Callable[[], int] = lambda: 1  # cores free now (`build_game`: a big deck uses two)
        self._using: list[set] = []  # the components drawn inside each open `using()`
        self.on_file: Callable | None = None  # `on_file(run, entry, staged)`: each file once written (serve)
        self.progress: Progress = Progress()  # told of each file to write, and of each written

    # -- load ---------------------------------------------------------------------------------------------
    def load(self, diags: Diagnostics | None = None) -> None:
        """Read and validate the game and everything it names; raises ContentError with every problem. Warnings
        found while loading (icons, sheets) go to `diags`."""
        from pnpgen.layout.spec import LayoutLibrary
        from pnpgen.pipeline.faces import Painter
        from pnpgen.rulebook import find_sources
        from pnpgen.schema import load_game
        from pnpgen.schema.game import PartialGame
        from pnpgen.templating import Compiler

        refuse_link(self.out_dir, self.project.out)
        if self.root.is_symlink():  # a game folder must be a folder: a link could make anywhere "the game"
            raise ContentError.at(Location(display_path(self.root)), "the game folder is a link; refused")
        shared = self.project.shared_layouts  # a root of the reader: a link there makes anywhere readable
        if os.path.lexists(shared) and not shared.resolve().is_relative_to(self.project.root):
            raise ContentError.at(
                Location(display_path(shared)), f"folder '{shared.name}' leaves the project; refused"
            )
        with self.reader.recording() as self.model_inputs:  # what the whole game stands on
            try:
                self.game = load_game(self.root, self.reader, diags)
            except PartialGame as exc:  # bad cells of a data sheet: the rest is drawn, to report all at once
                if diags is None:
                    raise
                diags.extend(exc.diagnostics)
                self.game, self.partial = exc.game, True
            with self.reader.recording() as self.source_inputs:  # a rulebook added later counts too
                self.sources = find_sources(self.root, self.reader)
        self.fonts = game_fonts(self.game)
        found = Diagnostics()
        with self.reader.recording() as self.icon_inputs:
            self.icons = game_icons(self.game, found, self.reader)
        _word_glyphs(self.game.words, found)
        found.raise_if_errors()
        if diags is not None:
            diags.extend(found)
            self.load_warnings = len(diags.warnings)  # kept in the manifest: --strict must see them again
        self.library = LayoutLibrary(
            self.project.layout_folders(self.root),
            Compiler(),
            self.reader,
            palette=self.game.palette,
            icons=self.icons,  # constant colours and icon names are then checked once, when a layout loads
            fonts=self.fonts,
        )
        self.painter = Painter(self.game, self.library, self.icons, self.reader, self.fonts)
        self.painter.cores = self.cores
        self.printing = self.project.printing_for(self.game.printing)
        self.paper = self.project.paper_for(self.game.printing)  # the flag's, else the game's own, else A4
        printed = (self.printing.key(), self.paper)  # how every sheet is printed
        if self.old is not None and (self.old.get("printing"), self.old["paper"]) != printed:
            self.old = None  # the game's print: defaults (its paper too) changed: printed another way

    @property
    def low_painter(self):
        """The painter of the low-ink form: the game's palette_low over its palette (checked like it), or pnpgen's
        transform of each face."""
        if not hasattr(self, "_low_painter"):
            from pnpgen.layout.spec import LayoutLibrary
            from pnpgen.pipeline.faces import Painter
            from pnpgen.templating import Compiler

            palette = {**self.game.palette, **(self.game.palette_low or {})}
            library = LayoutLibrary(
                self.project.layout_folders(self.root),
                Compiler(self.library.compiler.budget),  # one budget for the build's drawing, every ink
                self.reader,
                palette=palette,
                icons=self.icons,
                fonts=self.fonts,
            )
            self._low_painter = Painter(self.game, library, self.icons, self.reader, self.fonts, ink="low")
            self._low_painter.cores = self.cores  # a big deck's low-ink form on two cores too
            self._low_painter.spare_later = self.painter.spare_later
        return self._low_painter

    # -- check --------------------------------------------------------------------------------------------
    def check(self, diags: Diagnostics) -> None:
        """The rules check: its errors (and with --strict its warnings) stop the game like content errors."""
        from pnpgen.checker import check_game

        with self.reader.recording() as recorded:
            report = check_game(self.root, None, False, self.game, self.reader, self.icons)
        found = report.diagnostics()  # its warnings stay warnings: a strict build fails on them as on others
        diags.extend(found)
        self.check_warnings = len(found.warnings)  # kept in the manifest: --strict must see them again
        self.check_inputs = {**self.model_inputs, **self.icon_inputs, **recorded}
        self.checked = True

    # -- draw and plan ------------------------------------------------------------------------------------
    def claim(self, diags: Diagnostics) -> list:
        targets = outputs.targets_of(self.game, self.sources, self.printing, self.paper)
        if not outputs.claim(targets, diags):
            diags.raise_if_errors()
        return targets

    def draw(self, targets: list, diags: Diagnostics) -> list:
        """Draw every target whose old files cannot be kept; returns those targets, in their order.

        The print-all file is judged (and drawn) before the rulebook: when it is stale it draws every component,
        and the rulebook's pictures are then those faces again (`Painter.first`, `board_again`), not drawn a
        second time to see whether the rulebook is fresh."""
        order = sorted(targets, key=lambda t: t.order)  # stable: in their order within each rank
        self.painter.spare_later = sum(len(t.names()) for t in order) < self.cores()
        stale, redrawn = set(), set()
        for target in order:
            if target.fresh(self, self.old_entries(target)):
                if target.component not in redrawn:  # kept only when none of its targets is drawn again
                    self.kept.add(target.component)
                    if target.records_faces:
                        self.kept_decks.add(target.component)
                continue
            redrawn.add(target.component)  # a deck's checklist may be fresh while its sheets are not
            self.kept.discard(target.component)
            self.kept_decks.discard(target.component)
            stale.add(id(target))
            prepared(self, target, diags)
        return [t for t in targets if id(t) in stale]

    def old_entries(self, target) -> list[dict]:
        if self.old is None:
            return []
        return [
            e for e in self.old["files"] if e["component"] == target.component and e["kind"] == target.kind
        ]

    def entry_fresh(self, entry: dict) -> bool:
        return freshness.entry_fresh(entry, self.out_dir, self.project.root, self.roots, self.seen)

    def mentioned(self) -> str:
        """The facts' and rulebook's text, where card fields may be named (read once per build). Only the
        unused-field warning reads it, so it is no input of the components that ask: recorded by whichever asked
        first, a build after an edit recorded other inputs than a build from scratch (a different manifest)."""
        if not hasattr(self, "_mentioned"):
            from pnpgen.pipeline.unused import mentioned

            with self.reader.unrecorded():
                self._mentioned = mentioned(self)
        return self._mentioned

    def first_faces(self, deck) -> tuple | None:
        """The first card of a deck, front and back, for a rulebook picture. A resident process keeps each
        picture it drew, with what drawing it read, and gives it again for a deck this build keeps (its inputs
        all hold) while the game's own inputs are the same: a rulebook redrawn for one deck's edit does not
        draw every other deck's first card again (30 ms of a pictured card's rebuild in Elements of the Gods)."""
        from pnpgen.memo import Picture

        known = self.memo.picture(self.game.id, deck.id, self.painter.ink)
        game_inputs = dict(self.game.inputs)
        if (
            known is not None
            and deck.id in self.kept_decks
            and known.game_inputs == game_inputs
            and known.deck_inputs == deck.inputs
        ):
            self.reader.replay(known.read)
            return known.faces
        with self.reader.recording() as read:
            faces = self.painter.first(deck)
        picture = Picture(game_inputs, dict(deck.inputs), dict(read), faces)
        self.memo.keep_picture(self.game.id, deck.id, self.painter.ink, picture)
        return faces

    def card_faces(self, deck, index: int, diags: Diagnostics) -> tuple | None:
        """One card of a deck (index from 0), front and back, for a rulebook diagram; None when it cannot be drawn,
        its errors then added to `diags` (the deck's own, told once however many pictures show the card)."""
        for used in self._using:
            used.add(deck.id)
        memo = self.__dict__.setdefault("_card_faces", {})
        key = (deck.id, index)
        if key not in memo:
            found = Diagnostics()
            with self.reader.recording() as read:
                card = deck.cards[index]
                front, back, ok = self.painter.card(deck, card, self.painter.context(deck), found)
            memo[key] = ((front, back) if ok and front is not None else None, read, found.errors)
        faces, read, errors = memo[key]
        self.reader.replay(read)  # recorded on every call, as drawing it again would
        diags.items.extend(errors if faces is None else ())
        return faces

    @contextmanager
    def using(self) -> Iterator[set]:
        """The ids of the components whose faces `card_faces` and `board_faces` give inside the block."""
        used: set = set()
        self._using.append(used)
        try:
            yield used
        finally:
            self._using.remove(used)

    def board_faces(self, board, diags: Diagnostics) -> list | None:
        """Every side of a board, drawn once per build, for a rulebook diagram; None when one cannot be drawn (its
        errors added to `diags`). What drawing it read is recorded on every call (as a freshness check's too)."""
        for used in self._using:
            used.add(board.id)
        failed = self.__dict__.setdefault("_boards_failed", {})
        if board.id not in failed:
            found = Diagnostics()
            drawn = self.painter.board_again(board) or self.painter.board(board, found)
            if drawn is not None:
                return drawn.faces
            failed[board.id] = found.errors
        diags.items.extend(failed[board.id])
        return None

    # -- write --------------------------------------------------------------------------------------------
    def write(self, targets: list, stale: list, workers, then=None, alongside=None) -> GameResult:
        """Write the stale targets into a staging folder, then move them and the manifest into place. `then()`,
        when given, is called once those files are written and gives more stale targets to write before anything
        moves (serve: the rulebook drawn after the edited deck's file is shown); it raises `Stopped` to leave the
        output as it was. `alongside()` runs while the workers write (the rules check): False raises `Stopped`."""
        sweep(self.project.out)
        sweep(self.out_dir)
        writing = self.writing()
        with Stage(self.out_dir, self.project.out) as stage:
            jobs: list[Job] = []
            results: dict[int, dict] = {}

            def write_batch(batch: list, beside=None) -> None:
                some = [Job(t, name, stage.path(name), writing) for t in batch for name in t.names()]

                n = min(workers() if callable(workers) else workers, len(some) + 1)  # FreeCores: free now
                self.progress.planned(len(some))
                entries, here = beside_writers(some, beside, n > len(some), freshness.engine_digest)
                written = write_all(some, n, done=self._shown(some), meanwhile=entries, alongside=here)
                results.update(zip((id(j) for j in some), written))
                jobs.extend(some)

            verdict: list[bool] = []  # what `alongside` said
            try:
                write_batch(stale, alongside and (lambda: verdict.append(bool(alongside()))))
            except ContentError:
                if verdict != [False]:
                    raise
            if alongside is not None and verdict != [True]:
                raise Stopped  # the game failed its check: its write errors, if any, are not news
            if then is not None:
                more = then()
                write_batch(more)
                stale = stale + more
            files: list[dict] = []
            for target in targets:
                if target in stale:
                    for job in (j for j in jobs if j.target is target):
                        files.append(_entry(job, results[id(job)]))
                else:
                    files.extend(self.old_entries(target))
            manifest.write(stage.path(manifest.NAME), self.manifest(files))
            kept = {e["path"] for e in files}
            # the last build's files not written now (printed another way?); unsealed, only one with its bytes
            last = [e for e in self.previous["files"] if e["path"] not in kept] if self.previous else []
            gone = [e["path"] for e in last if self.sealed or freshness.output_intact(self.out_dir, e)]
            stage.commit([j.name for j in jobs] + [manifest.NAME], remove=gone)
        rendered, reused = [t.component for t in stale], [t.component for t in targets if t not in stale]
        result = GameResult(self.game.id, True, Diagnostics(), files, self.out_dir, rendered, reused)
        result.written, result.removed, result.model, result.paper = len(jobs), gone, self.game, self.paper
        return result

    def writing(self) -> Writing:
        """What a target's `write` is given: the game, its icons, the paper and how it prints."""
        return Writing(self.game, self.icons, self.paper, self.printing)

    def _shown(self, jobs: list):
        """What `write_all` calls as each file is written: `on_file`, for `serve` to show it at once."""
        on_file = self.on_file

        def done(i: int, res: dict) -> None:  # a file is written, not yet in place
            self.progress.written(1)
            if on_file is not None:
                job = jobs[i]
                on_file(self, _entry(job, res), job.path)

        return done

    def manifest(self, files: list[dict]) -> dict:
        data = {
            "game": self.game.id,
            "title": self.game.title,
            "paper": self.paper,
            "printing": self.printing.key(),
            "print_all": self.printing.whole,
            "asked": self.project.asked_key(),
            "generator": f"pnpgen {__version__}",
            "engine": freshness.engine_digest(),
            "model": dict(sorted(self.model_inputs.items())),
            "warnings": self.load_warnings + self.check_warnings,  # the game's own: loading, the rules check
            "files": files,
        }
        if self.checked and self.check_inputs is not None:
            data["check"] = {"ok": True, "inputs": dict(sorted(self.check_inputs.items()))}
        return data


def _entry(job, res: dict) -> dict:
    """A written file's manifest entry: what its target makes of it, and what its writer added (`write_one`)."""
    return {**job.target.entry(job.name, res["pages"], res["sha256"]), **res["more"]}


def _word_glyphs(words, diags: Diagnostics) -> None:
    """A warning at each of the game's own words (`words:`) holding a character its font cannot draw."""
    if not words.given:
        return
    from pnpgen.text.fonts import missing_glyphs
    from pnpgen.words import FONTS

    for (key, text), at in zip(words.given, words.places):
        font = FONTS.get(key, "sans")
        lost = missing_glyphs(text, font)
        if lost:
            codes = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in lost)
            diags.warning(
                at, f"the font {font} has no {codes} in words: '{key}' {text!r}; it would not print"
            )
