"""`pnpgen watch`: rebuild on every save, say what was rebuilt and how long it took, survive broken content."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

from pnpgen.errors import printable


def affected_games(changes, content: Path, layouts: Path, names: list[str] | None) -> list[str]:
    """Which games a batch of changed paths touches: a game's own folder, or every game for shared layouts."""
    content, layouts = content.resolve(), layouts.resolve()
    games = set()
    every = False
    for _, raw in changes:
        path = Path(raw).resolve()
        if path.is_relative_to(content) and path != content:
            games.add(path.relative_to(content).parts[0])
        elif path.is_relative_to(layouts):
            every = True
    if every:
        games |= {p.parent.name for p in content.glob("*/game.yaml")}
    games = {g for g in games if (content / g / "game.yaml").is_file()}
    if names:
        games &= set(names)
    return sorted(games)


def _built(game: str, rendered, first: bool, took: float) -> str:
    """What a build of `watch` did, in plain words: what it drew again, or that it had nothing to draw."""
    if rendered:
        return f"rebuilt {game}: {', '.join(rendered)} in {took:.2f} s"
    if first:
        return f"{game} is up to date: nothing to rebuild (checked in {took:.2f} s)"
    return f"{game} is up to date: the save changed nothing it prints (checked in {took:.2f} s)"


def run(
    project,
    names: list[str] | None,
    echo: Callable[[str, bool], None],
    report: Callable,
    stop_event=None,
    poll: bool = False,
    check: bool = True,
    after: Callable[[list, float], None] = lambda results, started: None,
    early: Callable | None = None,
    before: Callable[[list[str], list[str], float], None] | None = None,
) -> None:
    """Build, then rebuild the games a save touches, running the rules check as `build` does; `after` sees each
    batch of results and when its build started (`pnpgen serve` updates its page from them); `early(run, entry,
    staged path, started)` sees each file of a one-game rebuild as soon as it is written; `before(games, changed
    paths, started)` is called between a save and its rebuild (`pnpgen serve` draws the cards it changed)."""
    from watchfiles import watch as watch_changes

    from pnpgen import pipeline
    from pnpgen.project import UnknownGame

    content, layouts = project.content, project.shared_layouts

    def rebuild(games: list[str], paths: list[str] | None = None) -> None:
        start = time.perf_counter()
        if before is not None and paths:
            try:
                before(games, paths, start)
            except Exception as exc:  # noqa: BLE001 - a look ahead of the build never stops it
                echo(printable(f"pnpgen: internal error: {type(exc).__name__}: {exc}"), True)
        try:
            shown = None if early is None else (lambda run, entry, path: early(run, entry, path, start))
            results = pipeline.build(project, games or None, check=check, on_file=shown)
        except UnknownGame as exc:
            echo(f"pnpgen: {exc}", True)
            return
        except Exception as exc:  # noqa: BLE001 - keep watching whatever happens
            echo(printable(f"pnpgen: internal error: {type(exc).__name__}: {exc}"), True)
            return
        took = time.perf_counter() - start
        after(results, start)
        for r in results:
            report(r.diagnostics)
            if r.ok:
                echo(_built(r.game, r.rendered, paths is None, took), False)
                if r.removed:  # print-all.pdf the first time: watch leaves it out; an old one would go stale
                    printall = any(n.startswith("print-all") for n in r.removed)
                    why = "; watch and serve leave print-all out: pnpgen build writes it" if printall else ""
                    echo(f"  removed (no longer built): {', '.join(r.removed)}{why}", False)
            else:
                echo(f"failed {r.game}: its output was left as it was; waiting for the next save", True)

    roots = [p for p in (content, layouts) if p.is_dir()]

    def listen():
        folders = folders_to_watch(roots)
        return folders, watch_changes(
            *folders,
            stop_event=stop_event,
            debounce=150,
            step=50,
            force_polling=poll,
            raise_interrupt=False,
            yield_on_timeout=True,
            rust_timeout=300,
            recursive=False,  # folders listed by us: links are never followed into other trees
            ignore_permission_denied=True,
        )

    folders, changes_seen = listen()
    next(changes_seen, None)  # the watcher is now listening: saves made during the first build are not lost
    rebuild(names or [])
    echo(f"watching {', '.join(str(p) for p in roots)} (Ctrl-C to stop)", False)
    while True:
        relisten = False
        for changes in changes_seen:
            if not changes:
                continue
            try:
                games = affected_games(changes, content, layouts, names)
            except OSError as exc:  # the folder moved or vanished under us: say so and keep watching
                echo(printable(f"pnpgen: {exc}"), True)
                continue
            if games:
                rebuild(games, [path for _, path in changes])
            if any(_new_folder(path) for _, path in changes):
                relisten = True  # a folder was added: watch it too
                break
        if not relisten:
            return
        folders, changes_seen = listen()


MAX_FOLDERS = 5_000


def folders_to_watch(roots: list[Path]) -> list[str]:
    """Every folder under the roots, never through a link and skipping what cannot be read, at most
    MAX_FOLDERS of them (a content folder is small; a link to a huge tree is not followed at all)."""
    out: list[str] = []
    for root in roots:
        for folder, subfolders, _ in os.walk(root, followlinks=False, onerror=lambda exc: None):
            out.append(folder)
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            if len(out) >= MAX_FOLDERS:
                return out
    return out


def _new_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False
