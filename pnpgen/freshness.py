"""Is a game's output up to date? Light on purpose: hashlib and json only, so a rebuild with nothing to do
answers without importing YAML, Jinja or ReportLab.

Each manifest entry records the files its output was made from (`inputs`: path -> sha256): the game file, the
component file, icons, every layout in its `extends` chain, the art it drew. The manifest also records pnpgen's
own digest (`engine`, over its source and data), the paper, and the names of the layouts on the search path
(a new file can shadow a shared layout). An output is fresh when all of these are unchanged and the file on disk
still has its recorded sha256.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """pnpgen's own version: a digest of its source and data files (fonts are fixed by name)."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
            h.update(path.relative_to(PACKAGE).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def file_sha(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def key_of(path: Path, project: Path) -> str:
    """How an input file is named in the manifest: relative to the project when inside it."""
    path = path.resolve()
    try:
        return path.relative_to(project.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def record(paths, project: Path) -> dict:
    return {key_of(p, project): file_sha(p) for p in sorted(set(paths), key=lambda p: key_of(p, project))}


def layout_listing(folders: list[Path]) -> str:
    names = []
    for folder in folders:
        if folder.is_dir():
            names += [f"{folder.name}/{p.name}" for p in sorted(folder.glob("*.yaml"))]
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


def inputs_unchanged(inputs: dict, project: Path) -> bool:
    for name, digest in inputs.items():
        path = Path(name) if Path(name).is_absolute() else project / name
        if file_sha(path) != digest:
            return False
    return True


def entry_fresh(entry: dict, out_dir: Path, project: Path) -> bool:
    inputs = entry.get("inputs")
    if not isinstance(inputs, dict) or not inputs:
        return False
    target = out_dir / str(entry.get("path", ""))
    if not target.is_file() or file_sha(target) != entry.get("sha256"):
        return False
    return inputs_unchanged(inputs, project)


def read_manifest(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def game_up_to_date(
    game_root: Path,
    out: Path,
    paper: str,
    project: Path,
    layout_folders: list[Path],
    strict: bool = False,
    checked: bool = False,
) -> bool:
    """True when every output of the game is fresh: nothing needs to be loaded or drawn."""
    manifest = read_manifest(out / game_root.name / "manifest.json")
    if not manifest or manifest.get("engine") != engine_digest() or manifest.get("paper") != paper:
        return False
    if manifest.get("layouts") != layout_listing(layout_folders):
        return False
    if checked and not manifest.get("checked"):
        return False  # built with --no-check: the check has not run on this content yet
    facts = game_root / "facts.yaml"
    if manifest.get("facts") != file_sha(facts):
        return False
    files = manifest.get("files")
    if not isinstance(files, list) or not files:
        return False
    out_dir = out / game_root.name
    if strict and any(isinstance(f, dict) and f.get("warnings") for f in files):
        return False  # its warnings must be reported again, as errors
    return all(isinstance(f, dict) and entry_fresh(f, out_dir, project) for f in files)


def discover(content: Path) -> list[Path]:
    """Every folder of `content` holding a game.yaml, sorted by name."""
    if not content.is_dir():
        return []
    return sorted(p for p in content.iterdir() if (p / "game.yaml").is_file())


def select(content: Path, names: list[str] | None) -> list[Path]:
    """The named games' folders (every game when none is named); an unknown name is a LookupError."""
    roots = discover(content)
    if not names:
        return roots
    by_name = {r.name: r for r in roots}
    for name in names:
        if name not in by_name:
            from pnpgen.errors import did_you_mean

            raise LookupError(f"no game '{name}' in {content}; " + did_you_mean(name, by_name))
    return [by_name[n] for n in names]
