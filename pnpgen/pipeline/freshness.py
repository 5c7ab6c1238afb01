"""Is a game's output up to date? Decided from the records in its manifest alone.

Every output's manifest entry holds what the reader recorded while it was made (`inputs`: key -> digest, see
`pnpgen.inputs`): files with their sha256, lookups that found nothing (`missing`), folder listings, and values
(keys starting with '=') that the output itself judges once the game is loaded. The manifest also records the
model's own inputs (game file, component files), the rules check's inputs, pnpgen's digest (`engine`) and the
paper. An output is fresh when all of them hold and its file still has its recorded sha256.

Light on purpose: hashlib, json, os and pathlib, so a rebuild with nothing to do answers without importing YAML,
Jinja or ReportLab.
"""

from __future__ import annotations

import hashlib
import os
import stat
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.bounds.remote import REMOTE
from pnpgen.imposition.duplex import DEFAULT
from pnpgen.inputs import LISTING, MISSING, NOT_A_FILE, OWN, digest_of, path_of
from pnpgen.names import case_mismatch
from pnpgen.pipeline import manifest
from pnpgen.pipeline.staging import sha256_of

if TYPE_CHECKING:
    from pnpgen.project import Project

PACKAGE = Path(__file__).resolve().parent.parent
VALUE = "="  # keys of recorded values start so


@cache
def engine_digest() -> str:
    """pnpgen's own version: a digest of its source and data files."""
    found = []  # each file's parts below the package, sorted as Paths sort (part by part)
    for folder, subfolders, files in os.walk(PACKAGE):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        rel = Path(folder).relative_to(PACKAGE).parts
        found += [(*rel, name) for name in files if os.path.splitext(name)[1] in (".py", ".yaml", ".ttf")]
    h = hashlib.sha256()
    for parts in sorted(found):
        path = os.path.join(PACKAGE, *parts)
        h.update("/".join(parts).encode())
        if parts[-1].endswith(".ttf"):
            h.update(str(os.stat(path).st_size).encode())
        else:
            with open(path, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()[:16]


def inputs_hold(
    inputs: dict[str, str], root: Path, roots: list[Path], seen: dict[str, str] | None = None
) -> bool:
    """Every recorded file, lookup and listing is as it was (values are left to the output that recorded them).

    `seen` (key -> digest now) carries what one check has already hashed: a game's outputs share most of their
    inputs (game.yaml, layouts, icons), and each is then read once per check, not once per output."""
    seen = {} if seen is None else seen
    listings: dict[str, dict[str, list[str]]] = {}  # each folder's names, listed once a check
    for key, digest in inputs.items():
        if key.startswith(VALUE):
            continue
        now = seen.get(key)
        if now is None and key.startswith(REMOTE):  # a sheet from a URL: fetched again (or its cached copy)
            from pnpgen.bounds.remote import digest_now

            now = seen[key] = digest_now(key[len(REMOTE) :], root)
        if now is None:
            now = seen[key] = digest_of(path_of(key, root), roots)
        if now != digest:
            return False
        if _clashes(key, digest, root, listings):
            return False
    return True


def _clashes(key: str, digest: str, root: Path, listings: dict[str, dict[str, list[str]]]) -> bool:
    """Whether a file read as it was now stands beside one named alike but for case or accents, or is found
    under another case (Windows and macOS open `Tour.svg` for `tour.svg`): what a build refuses on every system
    (`Reader.inside`), so not up to date, though its bytes are the same."""
    if digest in (MISSING, NOT_A_FILE) or digest.startswith(LISTING) or key.startswith((OWN, REMOTE)):
        return False
    path = path_of(key, root)
    return case_mismatch(path.parent, path.name, listings) is not None


def output_intact(out_dir: Path, entry: dict[str, Any]) -> bool:
    """The output file is there, a regular file, with the digest the manifest recorded."""
    path = out_dir / entry["path"]
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        recorded: str = entry["sha256"]
        return sha256_of(path) == recorded
    except OSError:
        return False


def entry_fresh(
    entry: dict[str, Any], out_dir: Path, root: Path, roots: list[Path], seen: dict[str, str] | None = None
) -> bool:
    inputs = entry.get("inputs") or {}
    return bool(inputs) and inputs_hold(inputs, root, roots, seen) and output_intact(out_dir, entry)


def usable(
    old: dict[str, Any] | None, paper: str | None, asked: str | None = DEFAULT.key()
) -> dict[str, Any] | None:
    """The old manifest when its outputs may be reused at all: same pnpgen, the same paper when one was asked
    (None: the game's own), the same printing flags (what they and the game's `print:` defaults, its paper among
    them, make is compared once the game is loaded, by `GameRun.load`; game.yaml is among the model's inputs,
    so an unchanged game.yaml keeps its defaults, and `asked` says whether the paper came from a flag). A build
    passes None for both: it compares the paper and printing once resolved, whoever asked for them."""
    if old is None or old.get("engine") != engine_digest():
        return None
    if paper is not None and old.get("paper") != paper:
        return None
    if asked is not None and old.get("asked") != asked:
        return None
    return old


def game_up_to_date(project: Project, game_root: Path, strict: bool = False, checked: bool = False) -> bool:
    """True when every output of the game is fresh: nothing needs to be loaded or drawn."""
    out_dir = project.out_dir(game_root.name)
    old = usable(manifest.read(out_dir), project.paper, project.asked_key())
    if old is None or not old["files"]:
        return False
    if bool(old.get("print_all")) != project.printing.whole:  # the print-all file asked for, or no longer
        return False
    root, roots = project.root, [r.resolve() for r in project.roots_of(game_root)]
    seen: dict[str, str] = {}
    if not inputs_hold(old.get("model") or {}, root, roots, seen):
        return False
    if checked and not (old.get("check") and inputs_hold(old["check"]["inputs"], root, roots, seen)):
        return False  # built with --no-check, or the check's inputs changed
    if strict and (old.get("warnings") or any(f.get("warnings") for f in old["files"])):
        return False  # its warnings must be reported again, as errors
    return all(entry_fresh(f, out_dir, root, roots, seen) for f in old["files"])
