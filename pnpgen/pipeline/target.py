"""The one output protocol: every kind of file pnpgen writes is a `Target`, as every Sphinx output is a builder.

A build's targets (`pipeline/outputs.py`, `pipeline/printall.py`), the exports (`exports/`) and the shop
exports (`shop/tgc.py`, `shop/pdfexport.py`) all answer the same questions, and the pipeline asks only these,
never which kind of target it holds:

- `names()`: the files it writes (a build's target knows them before it draws, so they can be claimed; an export
  (`Export`) makes several files in one pass and knows them once it has written them);
- `stands_on(run)`: what it read before it was drawn (its component's file, the game's, the icons...);
- `prepare(run, diags)`: draw what its files show, writing nothing; `prepared` runs it inside a recording of the
  game's reader, so `inputs` is everything it read, never a list written by hand;
- `fresh(run, entries)`: whether its files in the old manifest may be kept;
- `write(path, name, w)`: write one file (a build's target: each file in a worker process), or
  `write_all(folder, w)`: write every file into the staging folder it is given (an `Export`);
- `entry(name, pages, sha256)`: its manifest entry for a written file.

Two class attributes say how the pipeline schedules it: `order` (targets are judged and drawn by it: the print-all
file, 1, uses the components' faces; the rulebook, 2, pictures them) and `records_faces` (its manifest entries
record every face of its component: kept, those faces are the ones recorded).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import ClassVar

from pnpgen.errors import Diagnostics, Location
from pnpgen.pipeline.manifest import rows_ok

NOUNS = {"cards": "deck", "tiles": "tile set", "tokens": "token sheet", "board": "board"}


class Target(ABC):
    """One kind of output: the files it writes, what it read, whether it is fresh, writing, its manifest entry."""

    kind = ""  # what its manifest entries say it is ("cards", "board", "rulebook", "print-all", "png"...)
    order: ClassVar[int] = 0
    records_faces: ClassVar[bool] = False

    def __init__(self, component: str, loc: Location):
        self.component, self.loc = component, loc
        self.inputs: dict[str, str] = {}  # what it stands on and read while prepared (`prepared`)
        self.warnings = 0

    @abstractmethod
    def names(self) -> list[str]:
        """The files this target writes into its folder."""

    def describe(self) -> str:
        return f"{NOUNS.get(self.kind, self.kind)} '{self.component}' ({self.loc})"

    def stands_on(self, run) -> dict[str, str]:
        """What it read before it was prepared: the game's and its component's files (a target of the whole
        game, whose `component` is "" or names none: every component's), and the icons."""
        game, read = run.game, dict(run.game.inputs)
        component = game.component(self.component)
        for c in [component] if component is not None else game.components:
            read.update(c.inputs)
        return {**read, **run.icon_inputs}

    @abstractmethod
    def prepare(self, run, diags: Diagnostics) -> bool:
        """Draw what the files show (no file is written); False when it failed (reported in `diags`)."""

    def write(self, path: Path, name: str, w) -> int | tuple[int, dict]:
        """Write the file `name` to `path`; returns its page count, or that and more fields for its manifest
        entry. Runs in a worker process; `w` gives the game, its icons and the paper (a `jobs.Writing`)."""
        raise NotImplementedError(f"{type(self).__name__} writes its files together: write_all")

    def write_all(self, folder: Path, w) -> list[str]:
        """Write every file into `folder` (a staging folder); returns their names."""
        for name in self.names():
            self.write(folder / name, name, w)
        return self.names()

    def faces(self, pages: int) -> int:
        return pages

    def fresh(self, run, entries: list[dict]) -> bool:
        """Whether the old manifest's entries for this target may be kept as they are."""
        if sorted(e["path"] for e in entries) != sorted(self.names()):
            return False
        if run.strict and any(e.get("warnings") for e in entries):
            return False  # its warnings must be reported again, as errors
        if not all(rows_ok(e) for e in entries):  # records of another shape (hand-edited): written again
            return False
        return all(run.entry_fresh(e) for e in entries)

    def entry(self, name: str, pages: int, sha256: str) -> dict:
        return {
            "path": name,
            "component": self.component,
            "kind": self.kind,
            "faces": self.faces(pages),
            "pages": pages,
            "sha256": sha256,
            "warnings": self.warnings,
            "inputs": dict(sorted(self.inputs.items())),
        }


def prepared(run, target: Target, diags: Diagnostics) -> bool:
    """`target.prepare` inside a recording of the game's reader: its `inputs` are then what it stands on and
    everything it read."""
    before = len(diags.items)
    with run.reader.recording() as recorded:
        ok = target.prepare(run, diags)
    target.inputs = {**target.stands_on(run), **recorded}
    # every warning it gave counts, kept in its entry: a strict build never keeps a file that warned
    added = sum(1 for d in diags.items[before:] if d.severity == "warning")
    target.warnings = max(target.warnings, added)
    return ok


class Export(Target):
    """A target of an export command (`export png`, `tts`, `shop`): drawn and written whenever the command runs
    (it keeps no manifest, so it is never fresh), its files made together in one pass (`write_all`), so that it
    names them once it has written them."""

    def __init__(self, component: str, loc: Location):
        super().__init__(component, loc)
        self.files: list[str] = []  # what `write_all` wrote

    def names(self) -> list[str]:
        return self.files

    def fresh(self, run, entries: list[dict]) -> bool:
        return False

    @abstractmethod
    def write_all(self, folder: Path, w) -> list[str]:
        """Write every file into `folder`, keep their names in `files` and return them."""


def exported(run, target: Export, folder: Path, diags: Diagnostics) -> list[str]:
    """An export's target prepared (a failure raises its errors) and written into `folder`."""
    from pnpgen.errors import ContentError

    if not prepared(run, target, diags):
        raise ContentError(diags)
    target.files = target.write_all(folder, run.writing())
    return target.files
