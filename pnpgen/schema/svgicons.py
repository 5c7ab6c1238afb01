"""A game's icons from a folder of SVG files (as game-icons.net delivers them): `crossed-swords.svg` is the icon
`crossed-swords`, usable as an `icon` element and inline in text (`:crossed-swords:`), exactly like the icons of
an icons file. The folder is listed through the build's reader, so adding a file is noticed; each file is read
through it (confined, bounded, recorded) and converted once per process (`pnpgen.svg`).

An icon in one colour (every fill and stroke, or black when it sets none) takes a tint like the built-in icons;
in one of several colours, `color` replaces every colour but white (`render.vector.recoloured`); one with
gradients is drawn as it is. A full-bleed background (game-icons.net's white-on-black) is dropped (`svgbackdrop`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.names import MAX_NAME, is_name, rule_of, suggested


@dataclass(frozen=True)
class SvgIcon:
    name: str
    path: str  # the file's real path
    digest: str  # its sha256 as the build read it: the renderer draws exactly these bytes
    tint: str  # its own colour ('#000000' when it has several)
    tintable: bool  # no gradients: an element's `color` recolours it
    bounds: tuple  # (x0, y0, x1, y1) of its ink in the 100 x 100 box, y downwards
    shapes: tuple = ()  # it has no shapes of an icons file: the renderer draws the SVG
    description: str = ""


def load_svg_icons(
    folder: Path, diags: Diagnostics, into: dict, reader, own: frozenset = frozenset()
) -> None:
    """Every `*.svg` of `folder` into `into` as an icon named by its file; `own`: the names the game's icons file
    gave, which an SVG of the same name replaces (with a warning)."""
    from pnpgen import svg
    from pnpgen.inputs import Reader

    reader = reader or Reader([folder], folder)
    try:
        files = reader.listing(folder, "*.svg", "icons folder")
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return
    taken = {p.name[: -len(".svg")].casefold() for p in files}
    for path in files:
        display = display_path(path)
        loc, name = Location(display), path.name[: -len(".svg")]
        if not is_name(name):
            better = suggested(name, "-icon")  # accents dropped, never a device name
            if better in taken:  # `drop.svg` may be there already
                better = f"{better[: MAX_NAME - 5]}-icon"
            diags.warning(
                loc,
                f"'{path.name}' is not an icon: an icon's name is {rule_of(name)}; rename it (as '{better}.svg')",
            )
            continue
        try:
            with reader.recording() as seen:
                real = reader.use(path, "icon", loc, limit=svg.MAX_SVG_BYTES)
            art = svg.load(real, next(iter(seen.values())), icon=True)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        except svg.SvgError as exc:
            diags.error(Location(display, exc.line, exc.column), f"icon '{name}' {exc.message}")
            continue
        if art.left_out:
            diags.warning(loc, f"icon '{name}' is drawn without {'; '.join(art.left_out)}")
        if name in own:
            diags.warning(loc, f"icon '{name}' is also in the game's icons file; this SVG replaces it")
        tint = art.colour if art.single_colour else "#000000"
        tintable = not art.gradients
        into[name] = SvgIcon(name, str(real), next(iter(seen.values())), tint, tintable, art.icon_bounds())
