"""`pnpgen export shop TARGET GAME [COMPONENT ...]`: a game's files as a print shop or factory takes them.

The game is loaded and checked, then preflighted for the target (`pnpgen.shop.preflight`): an error there
refuses the export before anything is written. Each target writes into `OUT/<game>/shop/<target>/`, staged and
moved into place whole.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnpgen.errors import ContentError, Location, UsageProblem, display_path
from pnpgen.exports import components_of, loaded
from pnpgen.shop.targets import TARGETS

MAX_PROFILE_BYTES = 20_000_000  # CMYK press profiles are 0.5-2 MB


def cmyk_profile(path: Path, target) -> str:
    """The printer's CMYK ICC profile `path` checked (a readable ICC profile of CMYK colour space), as a path
    for `ShopTarget.cmyk_profile`; a located error otherwise."""
    from pnpgen.artcolour import ProfileError, profile_of

    where = Location(display_path(path))
    if not target.cmyk:
        raise UsageProblem(
            f"--cmyk-profile: {target.title} takes RGB files; a CMYK profile is for dtc, pdfx, factory"
        )
    try:
        if not path.is_file():  # a folder, pipe or device: never read (or waited on)
            raise ContentError.at(where, "--cmyk-profile: not a file; give the printer's CMYK profile (.icc)")
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise ContentError.at(
                where,
                f"--cmyk-profile: over {MAX_PROFILE_BYTES // 1_000_000} MB, too large for a colour profile",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise ContentError.at(
            where, f"--cmyk-profile: cannot read the file ({exc.strerror or exc})"
        ) from None
    try:
        found = profile_of(data)
    except ProfileError:
        raise ContentError.at(
            where, "--cmyk-profile: not a readable ICC colour profile; give the printer's CMYK profile (.icc)"
        ) from None
    if found is None or found[1] != "CMYK":
        space = found[1] if found else "none"
        raise ContentError.at(
            where, f"--cmyk-profile: an ICC profile for {space} colours; give the printer's CMYK profile"
        )
    return str(path.resolve())


def export_shop(
    project, target: str, game_id: str, components: list[str], check: bool = True, profile: Path | None = None
):
    """Preflight, then write the target's files (`profile`: a CMYK ICC profile to separate through).
    Returns (results, diagnostics, skipped: [(component, why)])."""
    if target not in TARGETS:
        raise UsageProblem(f"unknown target '{target}' (targets: {', '.join(TARGETS)})")
    spec = TARGETS[target]
    if profile is not None:
        spec = replace(spec, cmyk_profile=cmyk_profile(profile, spec))
    run, diags = loaded(project, game_id, check)
    wanted = components_of(run, components)
    from pnpgen.shop.preflight import preflight

    findings = preflight(run, spec, wanted)
    findings.report_into(diags)
    if findings.errors:
        raise ContentError(diags)
    skipped = []
    if target == "tgc":
        from pnpgen.shop.tgc import export_tgc

        results = export_tgc(run, project, wanted, diags)
    elif target in ("dtc", "pdfx", "factory"):
        from pnpgen.shop.pdfexport import export_pdf

        results, skipped = export_pdf(run, project, spec, wanted, diags, rulebook=not components)
    else:
        raise UsageProblem(f"the {target} export is not written yet; `pnpgen preflight` checks for it")
    return results, diags, skipped


def preflight_game(project, target: str, game_id: str, components: list[str], check: bool = True):
    """`pnpgen preflight`: the game loaded and checked, then its findings for `target` (nothing is written)."""
    if target not in TARGETS:
        raise UsageProblem(f"unknown target '{target}' (targets: {', '.join(TARGETS)})")
    from pnpgen.shop.preflight import preflight

    run, diags = loaded(project, game_id, check)
    return preflight(run, TARGETS[target], components_of(run, components)), diags
