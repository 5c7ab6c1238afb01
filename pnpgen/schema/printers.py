"""Printer profiles: measure a printer once (`pnpgen calibrate`), name it, and build for it with `--printer NAME`.

Profiles live in `printers.yaml` beside the content folder (kept with the project) or in
`~/.config/pnpgen/printers.yaml` (kept by the user, for every project); the project's file is looked at first:

    office-laser:
      duplex: short          # long (default), short or none
      back_offset: 1.5,-0.5  # X,Y in mm as the calibration sheet reads them (and ,ANGLE in degrees)
      paper: letter          # a4 (default) or letter

Flags given on the command line win over the profile.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError, Location, UsageProblem, did_you_mean, display_path
from pnpgen.imposition.duplex import FLIPS, parse_offset
from pnpgen.schema.fields import describe
from pnpgen.source import LMap, load_file
from pnpgen.units import PAPERS

FILE = "printers.yaml"
KEYS = ("duplex", "back_offset", "paper", "description")


@dataclass(frozen=True)
class Profile:
    name: str
    duplex: str | None = None
    back_offset: str | None = None
    paper: str | None = None


def places(project_root: Path) -> list[Path]:
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return [project_root / FILE, home / "pnpgen" / FILE]


def find(name: str, project_root: Path) -> Profile:
    """The profile `name` from the first printers.yaml that has it; a usage error naming the files otherwise."""
    looked, known = [], []
    for path in places(project_root):
        if not path.is_file():
            looked.append(str(path))
            continue
        data = load_file(path, display_path(path))
        if not isinstance(data, LMap):
            raise ContentError.at(
                Location(display_path(path), 1, 1), "printers.yaml maps printer names to settings"
            )
        if name in data:
            return _profile(name, data[name], data.loc_of(name), path)
        known += [str(k) for k in data]
        looked.append(str(path))
    raise UsageProblem(
        f"no printer '{name}' in {' or '.join(looked)}; "
        + (did_you_mean(name, known) if known else "add it there")
    )


def _profile(name: str, spec, loc: Location, path: Path) -> Profile:
    if not isinstance(spec, LMap):
        raise ContentError.at(
            loc, f"printer '{name}' needs settings such as {{duplex: short, back_offset: 1,0}}"
        )
    for key in spec:
        if key not in KEYS:
            raise ContentError.at(
                spec.key_loc(key), f"unknown key '{key}' in printer '{name}'", did_you_mean(str(key), KEYS)
            )
    duplex = spec.get("duplex")
    if duplex is not None and duplex not in FLIPS:
        raise ContentError.at(
            spec.loc_of("duplex"), f"'duplex' must be one of {', '.join(FLIPS)} (got {duplex!r})"
        )
    offset = spec.get("back_offset")
    if isinstance(offset, list):
        offset = ",".join(str(v) for v in offset)
    if offset is not None:
        try:
            parse_offset(str(offset))
        except ValueError as exc:
            raise ContentError.at(spec.loc_of("back_offset"), f"'back_offset' {exc}") from None
    paper = spec.get("paper")
    if paper is not None and str(paper).lower() not in PAPERS:
        hint = did_you_mean(str(paper).lower(), PAPERS)
        raise ContentError.at(
            spec.loc_of("paper"), f"'paper' is not a paper size ({describe(paper)}); {hint}"
        )
    return Profile(
        name, duplex, None if offset is None else str(offset), None if paper is None else str(paper).lower()
    )
