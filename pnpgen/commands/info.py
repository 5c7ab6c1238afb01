"""`pnpgen list`, `pnpgen icons` and `pnpgen check`: what the content holds, read without drawing anything."""

from __future__ import annotations

from pnpgen.errors import ContentError, Diagnostics


def list_games(project, names: list[str] | None) -> tuple[list[dict], Diagnostics]:
    from pnpgen.model import Deck
    from pnpgen.schema import load_game

    out, diags = [], Diagnostics()
    for root in project.select(names):
        try:
            game = load_game(root, project.reader(root))
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        components = []
        for c in game.components:
            if isinstance(c, Deck):
                count, designed = len(c.cards), sum(x.count for x in c.cards if x.designed)
            else:  # a board: its sides
                count, designed = len(c.sides), 0
            components.append(
                {
                    "id": c.id,
                    "name": c.name,
                    "kind": c.kind,
                    "cards": count,
                    "faces": c.faces,
                    "designed": designed,
                    "left_out": len(c.left_out) if isinstance(c, Deck) else 0,  # given count 0
                }
            )
        out.append({"game": game.id, "title": game.title, "players": game.players, "components": components})
    return out, diags


def icon_names(project, game_name: str | None) -> tuple[list[str], Diagnostics]:
    """The icons layouts may use: the built-in set, plus a game's own."""
    from pnpgen.pipeline.assets import game_icons
    from pnpgen.schema import load_game
    from pnpgen.schema.icons import BUILTIN, load_icons

    diags = Diagnostics()
    if game_name:
        root = project.select([game_name])[0]
        reader = project.reader(root)
        found = game_icons(load_game(root, reader), diags, reader)
    else:
        found = load_icons(BUILTIN, {}, diags)
    return sorted(found), diags


def check(project, names: list[str] | None, players: int | None) -> list:
    """The rules check of each game (a `pnpgen.checker.Report` each)."""
    from pnpgen.checker import check_game

    return [check_game(root, players, True, reader=project.reader(root)) for root in project.select(names)]
