"""`pnpgen build`: answer unchanged games from their manifests, build the others."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnpgen.pipeline import freshness
from pnpgen.pipeline.staging import sweep

if TYPE_CHECKING:
    from pnpgen.pipeline.run import Progress


@dataclass
class BuildOutcome:
    up_to_date: list[str] = field(default_factory=list)
    results: list = field(default_factory=list)  # pnpgen.pipeline.run.GameResult, one per game built


def up_to_date(project, roots, strict: bool, check: bool, judged: dict | None = None) -> list[str]:
    """The games answered from their manifests alone: nothing heavy is imported for them. `judged`: what
    `answer_unchanged` found of each game in this process, for a build with the default options."""
    fresh = []
    for root in roots:
        known = (
            judged.get(_judged_key(project, root)) if judged is not None and not strict and check else None
        )
        if known if known is not None else freshness.game_up_to_date(project, root, strict, checked=check):
            sweep(project.out_dir(root.name))  # what a killed build may have left beside good files
            fresh.append(root.name)
    return fresh


def _judged_key(project, root) -> tuple[str, str]:
    """A game as `answer_unchanged` judged it: its folder and its output folder, as given."""
    return str(root), str(project.out_dir(root.name))


QUICK_OPTIONS = ("--content", "--out")  # what `answer_unchanged` understands; any other flag goes to click


def answer_unchanged(argv: list[str], judged: dict | None = None) -> bool:
    """`pnpgen build [GAMES] [--content DIR] [--out DIR]` when every game it names is up to date: says so, as the
    click command would, and returns True, having imported neither click nor anything that draws (the rebuild
    with nothing to do is the one a designer runs most). False, having written nothing, for anything else: any
    other command or flag, a stale game, a usage error; the click command then does the work (and the check).
    `judged` gets whether each game it judged is up to date: the click command's build, with these options,
    need not judge them again (8 ms of a one-card edit of the five games)."""
    if not argv or argv[0] != "build":
        return False
    values = {"--content": "content", "--out": "output"}
    names: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        flag, eq, value = arg.partition("=")
        if flag in QUICK_OPTIONS:
            value = value if eq else next(args, "")
            if not value or value.startswith("-"):
                return False
            values[flag] = value
        elif arg.startswith("-") or not arg.isprintable() or not arg.isascii():
            return False  # another flag, `--`, or a name click would report
        else:
            names.append(arg)
    from pathlib import Path

    from pnpgen.project import Project, UnknownGame

    content = Path(values["--content"])
    if not content.is_dir():
        return False
    project = Project(content, Path(values["--out"]))
    try:
        roots = project.select(names or None)
    except UnknownGame:
        return False
    if not all(root.name.isascii() and root.name.isprintable() for root in roots):
        return False
    verdicts = {_judged_key(project, r): freshness.game_up_to_date(project, r, checked=True) for r in roots}
    if judged is not None:
        judged.update(verdicts)
    if not all(verdicts.values()):
        return False
    for root in roots:
        sweep(project.out_dir(root.name))  # what a killed build may have left beside good files
        print(f"up to date {root.name}", flush=True)
    return True


def build(
    project,
    names: list[str] | None,
    strict: bool = False,
    check: bool = True,
    jobs: int | None = None,
    progress: Callable[[int], Progress | None] | None = None,
    judged: dict | None = None,
) -> BuildOutcome:
    roots = project.select(names)
    outcome = BuildOutcome(up_to_date(project, roots, strict, check, judged))
    stale = [r.name for r in roots if r.name not in outcome.up_to_date]
    if stale:
        from pnpgen import pipeline

        told = progress(len(stale)) if progress else None
        outcome.results = pipeline.build(project, stale, strict, check, jobs, told)
    return outcome
