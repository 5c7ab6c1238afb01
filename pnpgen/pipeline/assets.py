"""What a game brings besides its content, made ready for drawing: its icons (pnpgen's built-in set, then its
own) and its fonts, registered with ReportLab. A build loads both (`GameRun.load`); `serve` and `pnpgen list`
ask for them without a build."""

from __future__ import annotations

from pnpgen.errors import ContentError, Diagnostics, display_path


def game_icons(game, diags: Diagnostics, reader=None) -> dict:
    """The built-in icons, then the game's own (which may override them)."""
    from pnpgen.schema.icons import BUILTIN, load_icons

    icons = load_icons(BUILTIN, dict(game.palette), diags)
    if game.icons_file:
        load_icons(game.icons_file, dict(game.palette), diags, icons, reader=reader)
    return icons


def game_fonts(game) -> dict[str, str]:
    """Register the game's own fonts; the names layouts use (`mine`, `mine-bold`) -> registered names. A file
    ReportLab cannot embed (a file that is no font, an instance a variable font lacks) is an error at its line in
    game.yaml; a CFF-based OTF is converted to TrueType first (`text.otf`)."""
    from pnpgen.text.fonts import FontRefused, register_family

    names: dict[str, str] = {}
    for family, styles in game.fonts.items():
        try:
            names.update(
                register_family(
                    game.id,
                    family,
                    {style: path for style, (path, _, _) in styles.items()},
                    {style: choice for style, (_, _, choice) in styles.items() if choice is not None},
                )
            )
        except FontRefused as exc:
            loc = styles[exc.style][1] if exc.style in styles else game.loc
            raise ContentError.at(
                loc, f"font '{family}' {exc.style}: '{display_path(exc.path)}' {exc.message}"
            ) from None
        except ValueError as exc:
            style = str(exc).split(":", 1)[0]
            loc = styles[style][1] if style in styles else game.loc
            raise ContentError.at(
                loc,
                f"font '{family}' {style}: ReportLab cannot embed this file ({str(exc).split(':', 1)[-1].strip()})",
                "use a TrueType (.ttf) or OpenType (.otf) font",
            ) from None
    return names
