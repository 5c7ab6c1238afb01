"""Where things are: the content folder, the shared layouts beside it, pnpgen's built-in layouts, the output
folder, the paper.

One value computed once from the command line and passed down, so no module works out a path of its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.errors import UsageProblem
from pnpgen.imposition.duplex import DEFAULT, Printing
from pnpgen.inputs import PACKAGE, Reader
from pnpgen.memo import FORGETS, Memo

BUILTIN_LAYOUTS = PACKAGE / "layouts"  # installed with pnpgen (package data): basic-card, basic-back


class UnknownGame(UsageProblem):
    """A game named on the command line is not in the content folder (a usage error, not a content error)."""


@dataclass(frozen=True)
class Project:
    content: Path  # one folder per game
    out: Path = Path("output")  # one folder per game is written here
    paper: str | None = None  # the paper the command line (or a printer profile) asked; None: each game's own
    printing: Printing = DEFAULT  # duplex forms and the printer's back offset
    asked: tuple = ()  # the printing choices the command line made ("duplex", "fold", "ink", "forms")
    # a process that builds again and again (watch, serve): what every build imports, and the shipped fonts, are
    # loaded once, before the first build, so that the processes forked to write each build's files inherit them
    resident: bool = False
    # what a resident process keeps between its builds (`pnpgen.memo`): owned here, handed to each build by `memo`
    kept: Memo = field(default_factory=Memo, compare=False, repr=False)

    @property
    def memo(self) -> Memo:
        """What this project's builds keep between them: its own memo when it is resident, else one that keeps
        nothing (the one place that asks)."""
        return self.kept if self.resident else FORGETS

    def asked_key(self) -> str:
        """What the flags asked for: a game's `print:` defaults fill in the rest (`printing_for`)."""
        asked = sorted(self.asked) + (["paper"] if self.paper is not None else [])
        return f"{self.printing.key()} asked {','.join(asked)}"

    def paper_for(self, defaults) -> str:
        """One game's paper: the command line's (or printer profile's), then the game's `print: paper`, then A4."""
        return self.paper or defaults.get("paper", "a4")

    def printing_for(self, defaults) -> Printing:
        """How one game prints: the command line's choices, then the game's `print:` defaults, then pnpgen's."""
        from dataclasses import replace

        if "forms" in self.asked:
            return self.printing
        flip = self.printing.flips[0] if "duplex" in self.asked else defaults.get("duplex", "long")
        fold = "fold" in self.printing.flips if "fold" in self.asked else defaults.get("fold", False)
        if "ink" in self.asked:
            inks = self.printing.inks
        else:
            inks = {"full": ("full",), "low": ("low",), "both": ("full", "low")}[defaults.get("ink", "full")]
        return replace(self.printing, flips=(flip, "fold") if fold else (flip,), inks=inks)

    @property
    def root(self) -> Path:
        """The folder holding content/ and layouts/: input keys in manifests are relative to it."""
        return self.content.resolve().parent

    @property
    def shared_layouts(self) -> Path:
        """The layouts beside the content folder, shared by its games."""
        return self.root / "layouts"

    def layout_folders(self, game_root: Path) -> list[Path]:
        """Where a game's layouts are looked up, in order: its own, the shared ones beside the content folder,
        then pnpgen's built-in ones (wherever pnpgen is installed)."""
        return [game_root / "layouts", self.shared_layouts, BUILTIN_LAYOUTS]

    def roots_of(self, game_root: Path) -> list[Path]:
        """The folders a game's build may read: its own folder, the shared layouts and the built-in layouts."""
        return [game_root, self.shared_layouts, BUILTIN_LAYOUTS]

    def reader(self, game_root: Path) -> Reader:
        return Reader(self.roots_of(game_root), self.root, self.memo.parses)

    def out_dir(self, game_id: str) -> Path:
        return self.out / game_id

    def games(self) -> list[Path]:
        """Every folder of the content folder holding a game.yaml, sorted by name."""
        if not self.content.is_dir():
            return []
        # a game.yaml of any kind makes a game (a pipe or a link there is then refused by name, never skipped)
        return sorted(p for p in self.content.iterdir() if p.is_dir() and os.path.lexists(p / "game.yaml"))

    def select(self, names: list[str] | None) -> list[Path]:
        """The named games' folders (every game when none is named); an unknown name is UnknownGame."""
        roots = self.games()
        if not names:
            return roots
        by_name = {r.name: r for r in roots}
        for name in names:
            if name not in by_name:
                from pnpgen.errors import did_you_mean

                raise UnknownGame(f"no game '{name}' in {self.content}; " + did_you_mean(name, by_name))
        return [by_name[n] for n in dict.fromkeys(names)]  # a game named twice is still one game
