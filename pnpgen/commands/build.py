"""`pnpgen build`: answer unchanged games from their manifests, build the others."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pnpgen.pipeline import freshness
from pnpgen.pipeline.staging import sweep


@dataclass
class BuildOutcome:
    up_to_date: list[str] = field(default_factory=list)
    results: list = field(default_factory=list)  # pnpgen.pipeline.run.GameResult, one per game built


def up_to_date(project, roots, strict: bool, check: bool) -> list[str]:
    """The games answered from their manifests alone: nothing heavy is imported for them."""
    fresh = []
    for root in roots:
        if freshness.game_up_to_date(project, root, strict, checked=check):
            sweep(project.out_dir(root.name))  # what a killed build may have left beside good files
            fresh.append(root.name)
    return fresh


def build(
    project,
    names: list[str] | None,
    strict: bool = False,
    check: bool = True,
    jobs: int | None = None,
    progress: Callable[[int], Callable[[str], None]] | None = None,
) -> BuildOutcome:
    roots = project.select(names)
    outcome = BuildOutcome(up_to_date(project, roots, strict, check))
    stale = [r.name for r in roots if r.name not in outcome.up_to_date]
    if stale:
        from pnpgen import pipeline

        step = progress(len(stale)) if progress else (lambda name: None)
        outcome.results = pipeline.build(project, stale, strict, check, jobs, step)
    return outcome
