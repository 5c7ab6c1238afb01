"""The build pipeline: load, check, draw, plan, write — each game all or nothing.

    build_game:  GameRun.load -> check -> targets claimed -> stale targets drawn and planned -> staged write

Modules: `run` (one game's build state), `outputs` (one class per kind of output), `faces` (drawing),
`freshness` and `manifest` (what is up to date, light enough for the no-import fast path), `staging` (all or
nothing on disk), `jobs` (parallel processes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pnpgen.errors import ContentError, Diagnostics

if TYPE_CHECKING:  # imported where a build needs them: `from pnpgen.pipeline import freshness` stays light
    from pnpgen.pipeline.run import GameResult, Progress


def build_game(
    project,
    root: Path,
    strict: bool = False,
    check: bool = True,
    workers: int | Callable[[], int] | None = None,
    on_file: Callable | None = None,
    progress: Progress | None = None,
) -> GameResult:
    """Build one game. Nothing of it changes on disk unless every stale output was drawn and written.
    `on_file(run, entry, staged path)` sees each file once written, before the game's files move into place.
    `workers` may be a function, asked when the files are written (`jobs.FreeCores`)."""
    from pnpgen.pipeline.jobs import cores, inherits
    from pnpgen.pipeline.run import GameResult, GameRun, Stopped

    run = GameRun(project, root, strict)
    run.cores = workers if callable(workers) else (lambda: workers or cores())
    run.on_file = on_file
    if progress is not None:
        run.progress = progress
    diags = Diagnostics()

    def failed() -> bool:
        return bool(diags.errors or (strict and diags.warnings))

    # The rules check runs while the files are written (they stay staged until it has passed); its findings go
    # where they stood when it ran before the drawing, after the load's. With `on_file` it runs first: the files
    # are shown as they are written.
    loaded, at = False, 0
    done: list[bool] = []  # the check ran
    early: list[Diagnostics] = []  # what the check found while the components were drawn

    def checked() -> bool:
        """The rules check, once the game is loaded (at most once); whether the game may still be written."""
        if (
            loaded and not done and check and not run.partial
        ):  # a game missing a sheet's bad rows would miscount
            done.append(True)
            found = early[0] if early else Diagnostics()
            if not early:
                run.check(found)
            diags.items[at:at] = found.items
        return not failed()

    def drawn_beside_check(targets: list) -> list:
        """`run.draw(targets)` here while a forked worker runs the rules check on the core the drawing leaves
        free (found as `checked` would find it; its state comes back with it). A check that raised is raised
        once the drawing is done, as it would have been when the files were written."""
        from pnpgen.pipeline.jobs import run_parallel

        drawn: list = []

        def judge(_item: object) -> tuple:
            found = Diagnostics()
            run.check(found)
            return found, run.check_warnings, run.check_inputs

        try:
            (result,) = run_parallel(
                [None], judge, 2, lambda i: None, alongside=lambda: drawn.append(run.draw(targets, diags))
            )
        except Exception:
            if drawn:  # the check raised: it ran, as `checked` would have run it
                done.append(True)
            raise
        found, run.check_warnings, run.check_inputs = result
        run.checked = True
        early.append(found)
        return drawn[0]

    try:
        run.load(diags)
        loaded, at = True, len(diags.items)
        if on_file is not None:
            checked()
        targets = run.claim(diags)
        first = (
            targets if on_file is None else [t for t in targets if t.kind not in ("rulebook", "print-all")]
        )
        # worth a process when the check plans diagrams or reads a rulebook (a count-only check takes milliseconds)
        heavy = bool(run.sources) or (root / "diagrams").is_dir()
        beside = check and heavy and on_file is None and not run.partial and run.cores() > 1 and inherits()
        stale = drawn_beside_check(first) if beside else run.draw(first, diags)
        if failed():
            checked()  # its findings are reported too
            return GameResult(root.name, False, diags)

        def then() -> list:
            """With `on_file`: the components' files are written (and shown) before the rest is drawn."""
            more = run.draw([t for t in targets if t not in first], diags)
            if failed():
                raise Stopped
            return more

        result = run.write(
            targets,
            stale,
            workers or cores(),
            then if on_file is not None else None,
            checked if on_file is None else None,
        )
    except Stopped:
        checked()
        return GameResult(root.name, False, diags)
    except ContentError as exc:
        checked()
        diags.extend(exc.diagnostics)
        return GameResult(root.name, False, diags)
    result.diagnostics = diags
    return result


def build(
    project,
    names: list[str] | None,
    strict: bool = False,
    check: bool = True,
    workers: int | None = None,
    progress: Progress | None = None,
    on_file: Callable | None = None,
) -> list[GameResult]:
    """Build the named games (all when none); a game that fails does not stop the others. Several games build
    in parallel processes, one game each; a single game writes its files in parallel instead (and only then is
    `on_file` called: see `build_game`). `progress` is told of the files as they are known and written (a game
    built in a process of its own: all at once when it ends)."""
    from pnpgen.pipeline.jobs import few_collections

    if project.resident:
        warm()  # once per process (later calls find it done): each build's writers inherit it
    with few_collections():
        return _build(project, names, strict, check, workers, progress, on_file)


def _build(project, names, strict, check, workers, progress, on_file=None) -> list[GameResult]:
    from pnpgen.pipeline.jobs import FreeCores, cores, inherits, run_parallel

    roots = project.select(names)
    n = workers or cores()
    if len(roots) > 1 and n > 1:
        if inherits():
            warm()  # forked games inherit it; spawned ones each import what their own build needs
        free = FreeCores(n)  # a game that ends its build alone writes its files on the cores the others left
        work = partial(_game_job, project, strict, check, free)
        longest = sorted(range(len(roots)), key=lambda i: -_weight(roots[i]))
        told = progress

        def done(i: int, result: GameResult) -> None:
            if told is not None:
                told.planned(result.written)
                told.written(result.written)

        return run_parallel(roots, work, n, lambda i: None, done, first=longest, free=free)
    return [build_game(project, root, strict, check, workers, on_file, progress) for root in roots]


def _weight(root: Path) -> int:
    """How long a game's build is likely to take, for the order games start in: the bytes in its folder (of five
    games built on two cores, starting the two biggest first ended the build 0.5 s sooner than starting them by
    name, when the last to start was the biggest)."""
    total = 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass  # gone or unreadable: the build says so
    return total


def warm() -> None:
    """Import what every game's build imports, and register the shipped fonts, once, before the games' processes
    are forked: each inherits them instead of spending about half a second of CPU doing it again. A resident
    process (watch, serve) does it before its first build, so that no build's forked writers do it again."""
    import pnpgen.checker  # noqa: F401
    import pnpgen.layout.spec  # noqa: F401
    import pnpgen.pipeline.faces  # noqa: F401
    import pnpgen.pipeline.run  # noqa: F401
    import pnpgen.render.board  # noqa: F401
    import pnpgen.render.book  # noqa: F401
    import pnpgen.render.printall  # noqa: F401
    import pnpgen.render.sheets  # noqa: F401
    import pnpgen.rulebook  # noqa: F401
    import pnpgen.schema  # noqa: F401
    import pnpgen.templating  # noqa: F401
    from pnpgen.pipeline.freshness import engine_digest
    from pnpgen.schema.icons import builtin_yaml
    from pnpgen.templating.jinja import shared_environment
    from pnpgen.text.fonts import register_all

    register_all()
    builtin_yaml(), engine_digest(), shared_environment()  # what every game's build reads or makes the same


def _game_job(project, strict: bool, check: bool, free: Callable[[], int], root: Path) -> GameResult:
    return build_game(project, root, strict, check, workers=free)
