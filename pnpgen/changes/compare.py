"""What two builds print differently, face by face, and the files a playtester needs after a revision.

Every manifest entry of a deck lists its cards once with the digest of each printed face and where its first
copy stands in the PDF (`pipeline.records.card_records`); a board's full-size entry does the same per side. Two
output folders are compared on those records alone, cards matched by deck, name and occurrence (so inserting a
card does not make every later card "changed"):

- `proof.pdf`: each changed face old | new | the difference (pixels that differ in red over a faded new face),
  cut from the two builds' own PDFs; added and removed cards shown on their own;
- `reprint.pdf`: only the cards whose faces changed (every copy) or that were added (and the extra copies of a
  card whose count grew), imposed like any sheet with their backs behind them, drawn from the content now;
- `changes.txt`: the summary the terminal shows.

Manifests are read as untrusted data: a record of the wrong shape is skipped, an output folder without records
(written by an older pnpgen) is a usage error that says so.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from pnpgen.errors import ContentError, Location, UsageProblem, display_path, printable, short
from pnpgen.imposition.duplex import Printing
from pnpgen.pipeline import manifest

_DIGEST = re.compile(r"^[0-9a-f]{16}$")
SIDES = ("front", "back")
PROOF_DPI = 110


@dataclass(frozen=True)
class Record:
    """One card (or board side) of one build, as its manifest tells it."""

    component: str
    file: str  # the PDF it is printed in, inside the game's output folder
    name: str
    nth: int  # 1 for the first card of this name in its component, 2 for the second...
    count: int
    line: int
    faces: dict  # side -> digest
    at: dict  # side -> (page, x, y, w, h)
    source: str = ""  # where the card was written: file and line, or a data sheet's cell (older builds: none)

    @property
    def key(self) -> tuple:
        return (self.component, self.name, self.nth)


@dataclass
class Change:
    status: str  # changed | added | removed | count
    old: Record | None
    new: Record | None
    sides: tuple = ()  # the sides whose faces differ (changed), or every side (added, removed)

    @property
    def record(self) -> Record:
        return self.new or self.old  # type: ignore[return-value]

    def describe(self) -> str:
        r = self.record
        what = f"{r.component}: '{short(r.name)}'" + (f" (#{r.nth})" if r.nth > 1 else "")
        where = (
            f" [{r.source}]" if r.source else ""
        )  # where the card is written: its line, or its sheet's cell
        if self.status == "changed":
            return f"changed {what}: {' and '.join(self.sides)}{where}"
        if self.status == "count":
            return f"count {what}: {self.old.count} -> {self.new.count}{where}"  # type: ignore[union-attr]
        return f"{self.status} {what}{where}"


@dataclass
class GameChanges:
    game: str
    old_dir: Path
    new_dir: Path
    changes: list = field(default_factory=list)
    other_files: list = field(default_factory=list)  # files compared whole (the rulebook): changed names

    def counts(self) -> Counter:
        return Counter(c.status for c in self.changes)


def records(out_dir: Path) -> dict[tuple, Record]:
    """The face records of a game's output folder, by key; a usage error when it has none at all."""
    data = manifest.read(out_dir, sealed_only=False)  # a build saved before the seal too
    if data is None:
        raise UsageProblem(f"'{out_dir}' holds no pnpgen build (no valid manifest.json)")
    out: dict[tuple, Record] = {}
    seen_any = False
    for entry in sorted(data["files"], key=lambda e: Printing.ink_of(e["path"]) == "low"):  # full colour 1st
        rows = entry.get("cards") if "cards" in entry else entry.get("sides")
        if not isinstance(rows, list):
            continue
        seen_any = True
        names: Counter = Counter()
        for row in rows:
            record = _record(entry, row, names)
            if record is not None:  # the first file's: another form or ink prints the same card again
                out.setdefault(record.key, record)
    if not seen_any and any(e.get("kind") != "rulebook" for e in data["files"]):
        raise UsageProblem(
            f"'{out_dir / manifest.NAME}' records no faces (built by a pnpgen older than 'changes'); build it again"
        )
    return out


def _record(entry: dict, row: object, names: Counter) -> Record | None:
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        return None
    faces, at = {}, {}
    for side in SIDES:
        digest, where = row.get(side), row.get(f"{side}_at")
        if digest is None:
            continue
        if not isinstance(digest, str) or not _DIGEST.match(digest) or not _place_ok(where):
            return None
        faces[side], at[side] = digest, tuple(where)
    count, line = row.get("count", 1), row.get("line", 0)
    if "front" not in faces or not _int(count, 1, 10_000) or not _int(line, 0, 10**9):
        return None
    names[row["name"]] += 1
    source = row.get("source")
    source = printable(short(source, 200)) if isinstance(source, str) else ""
    return Record(
        entry["component"], entry["path"], row["name"], names[row["name"]], count, line, faces, at, source
    )


def _int(value: object, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _place_ok(where: object) -> TypeGuard[list]:
    return (
        isinstance(where, list)
        and len(where) == 5
        and _int(where[0], 0, 100_000)
        and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100_000 for v in where[1:]
        )
    )


def compare(game: str, old_dir: Path, new_dir: Path) -> GameChanges:
    """Every face that differs between two builds of one game."""
    old, new = records(old_dir), records(new_dir)
    result = GameChanges(game, old_dir, new_dir)
    for key, n in new.items():
        o = old.get(key)
        if o is None:
            result.changes.append(Change("added", None, n, tuple(n.faces)))
            continue
        sides = tuple(s for s in SIDES if n.faces.get(s) != o.faces.get(s))
        if sides:
            result.changes.append(Change("changed", o, n, sides))
        elif n.count != o.count:
            result.changes.append(Change("count", o, n))
    for key, o in old.items():
        if key not in new:
            result.changes.append(Change("removed", o, None, tuple(o.faces)))
    result.changes.sort(key=lambda c: (c.record.component, c.record.line, c.record.name, c.record.nth))
    old_files = {
        e["path"]: e["sha256"] for e in (manifest.read(old_dir, sealed_only=False) or {"files": []})["files"]
    }
    for e in (manifest.read(new_dir, sealed_only=False) or {"files": []})["files"]:
        if e.get("kind") == "rulebook" and old_files.get(e["path"]) != e["sha256"]:
            result.other_files.append(e["path"])
    return result


def summary(result: GameChanges) -> list[str]:
    n = result.counts()
    head = f"{result.game}: {n['changed']} changed, {n['added']} added, {n['removed']} removed" + (
        f", {n['count']} with a new count" if n["count"] else ""
    )
    lines = [head] + ["  " + c.describe() for c in result.changes]
    lines += [f"  changed {name} (compare it page by page)" for name in result.other_files]
    return lines


# -- the proof ------------------------------------------------------------------------------------------------
def write_proof(result: GameChanges, path: Path) -> int:
    """Old | new | difference for every changed face; added and removed faces on their own. Returns pages."""
    from PIL import Image, ImageChops

    from pnpgen.render.proof import write_proof as draw

    pages = _Pages()
    rows = []
    for ch in result.changes:
        if ch.status == "count":
            continue
        for side in ch.sides:
            r = ch.record
            old = pages.crop(result.old_dir, ch.old, side) if ch.old else None
            new = pages.crop(result.new_dir, ch.new, side) if ch.new else None
            pictures = [(old, "old"), (new, "new")]
            if old is not None and new is not None:
                if old.size != new.size:
                    old = old.resize(new.size)
                differs = ImageChops.difference(old, new).convert("L").point(lambda v: 255 if v > 24 else 0)
                faded = Image.blend(new, Image.new("RGB", new.size, "white"), 0.7)
                red = Image.new("RGB", new.size, (220, 0, 0))
                pictures.append((Image.composite(red, faded, differs), "difference"))
            rows.append(
                (
                    f"{ch.status} · {r.component} · '{short(r.name)}' · {side} · {r.source or f'line {r.line}'}",
                    pictures,
                )
            )
    title = f"Changes to {result.game}: old | new | difference (red)"
    return draw(path, title, rows, f"{result.game}: no face changed")


class _Pages:
    """Pages of the builds' PDFs rendered once each, cropped to one face at a time."""

    def __init__(self):
        self.cache: dict = {}

    def crop(self, out_dir: Path, record: Record, side: str):
        page_no, x, y, w, h = record.at[side]
        key = (out_dir, record.file, page_no)
        if key not in self.cache:
            self.cache[key] = _render(out_dir / record.file, page_no)
        image, page_h = self.cache[key]
        if image is None:
            return None
        s = PROOF_DPI / 72
        return image.crop(
            (round(x * s), round((page_h - y - h) * s), round((x + w) * s), round((page_h - y) * s))
        )


def _render(pdf: Path, page_no: int):
    import pypdfium2 as pdfium

    from pnpgen.bounds import Refused, pdfs

    if not manifest.ours(pdf.parent, pdf.name):
        return None, 0
    try:  # a folder of builds saved earlier may hold anything: bounded before pdfium allocates a page
        pdfs.check_file(pdf)
        doc = pdfium.PdfDocument(str(pdf))
    except Refused as exc:
        raise ContentError.at(Location(display_path(pdf)), f"the PDF {exc.message}") from None
    except (OSError, pdfium.PdfiumError):  # a build's file damaged or cut short since: say which
        raise ContentError.at(
            Location(display_path(pdf)),
            "cannot be read as a PDF: damaged or cut short since it was built; build it again or compare with "
            "another build",
        ) from None
    try:
        if page_no >= len(doc):
            return None, 0
        page = doc[page_no]
        try:
            pdfs.check_render(page, PROOF_DPI / 72, page_no, len(doc))
        except Refused as exc:
            raise ContentError.at(Location(display_path(pdf)), f"the PDF {exc.message}") from None
        image = page.render(scale=PROOF_DPI / 72).to_pil().convert("RGB")
        height = page.get_height()
        page.close()
        return image, height
    finally:
        doc.close()


# -- the reprint ----------------------------------------------------------------------------------------------
def reprint_cards(result: GameChanges) -> dict[str, dict[tuple, int]]:
    """Per deck, the cards to print again and how many copies: every copy of a card whose face changed or that
    was added, the extra copies of a card whose count grew."""
    out: dict[str, dict[tuple, int]] = {}
    for ch in result.changes:
        if ch.new is None:
            continue
        if ch.status in ("changed", "added"):
            copies = ch.new.count
        elif ch.status == "count" and ch.old is not None and ch.new.count > ch.old.count:
            copies = ch.new.count - ch.old.count
        else:
            continue
        if ch.new.file.endswith("-full.pdf"):
            continue  # a board side: its own file is the reprint
        out.setdefault(ch.new.component, {})[(ch.new.name, ch.new.nth)] = copies
    return out
