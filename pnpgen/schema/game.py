"""game.yaml: its table, and the loader of a whole game (game.yaml and every component file it names)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from pnpgen.errors import ContentError, Diagnostics, Location, display_path
from pnpgen.inputs import Reader
from pnpgen.model import Game
from pnpgen.schema.components import load_component
from pnpgen.schema.fields import Key, Table, as_colour, as_id, as_players, as_str, each_value, listing
from pnpgen.source import LMap

GAME = Table(
    "game.yaml",
    (
        Key("id", as_id, "the game's id; must equal its folder's name", required=True),
        Key("title", as_str, "the game's title", required=True),
        Key("players", as_players, "a number, or a range such as '2-4'", required=True),
        Key("credits", as_str, "free text for the rulebook's cover", default=""),
        Key(
            "palette",
            each_value(as_colour, "palette colour '{key}'", "must map names to '#rrggbb' colours"),
            "named colours, usable wherever a colour is expected",
            default=MappingProxyType({}),
        ),
        Key("icons", as_str, "the game's own icons file, inside the game folder"),
        Key(
            "components",
            listing("must be a list of component files"),
            "component files inside the game folder, one component each",
            required=True,
        ),
    ),
    title="Keys of game.yaml",
)


def default_reader(root: Path) -> Reader:
    """A reader for a game of a project laid out as usual: content/<game>/ beside the shared layouts/."""
    project = root.parent.parent
    return Reader([root, project / "layouts"], project)


def load_game(root: Path, reader: Reader | None = None) -> Game:
    """Read and validate content/<game>/: game.yaml and every component file it names, through `reader` (which
    confines and records every read; the game's own reads are kept as `Game.inputs`, each component's as its
    `inputs`)."""
    reader = reader or default_reader(root)
    diags = Diagnostics()
    with reader.recording() as recorded:
        data = reader.load_yaml(root / "game.yaml", "game file")
        if not isinstance(data, LMap):
            raise ContentError.at(
                Location(display_path(root / "game.yaml"), 1, 1),
                "game.yaml must be a mapping (id, title, players, components)",
            )
        v = GAME.read(data, diags)
        if v["id"] and v["id"] != root.name:
            diags.error(data.loc_of("id"), f"id '{v['id']}' must equal the folder name '{root.name}'")
        icons_file = _icons_file(root, v["icons"], data.loc_of("icons"), reader, diags)
    game_inputs = MappingProxyType(dict(recorded))
    components = []
    seen: dict[str, Location] = {}
    for i, item in enumerate(v["components"] or ()):
        try:
            comp = _component(root, item, v["components"].loc_at(i), reader, diags)
        except ContentError as exc:
            diags.extend(exc.diagnostics)
            continue
        if comp is None:
            continue
        if comp.id in seen:
            diags.error(comp.loc, f"component id '{comp.id}' is used twice (also at {seen[comp.id]})")
            continue
        seen[comp.id] = comp.loc
        components.append(comp)
    diags.raise_if_errors()
    lo, hi = v["players"]
    return Game(
        id=v["id"],
        title=v["title"],
        players_min=lo,
        players_max=hi,
        credits=v["credits"],
        root=root,
        palette=v["palette"],
        icons_file=icons_file,
        components=tuple(components),
        loc=data.loc,
        inputs=game_inputs,
    )


def _icons_file(
    root: Path, name: str | None, loc: Location, reader: Reader, diags: Diagnostics
) -> Path | None:
    if not name:
        return None
    try:
        path = reader.inside(root, name, loc, "icons")
        if not reader.probe(path, "icons file", loc):
            diags.error(loc, f"icons file '{name}' not found")
            return None
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        return None
    return path


def _component(root: Path, item, loc: Location, reader: Reader, diags: Diagnostics):
    """One entry of `components`: its file found, read (and recorded as the component's own inputs) and loaded."""
    if not isinstance(item, str):
        raise ContentError.at(loc, "a component entry must be a file path such as decks/monument.yaml")
    path = reader.inside(root, item, loc, "component file")
    with reader.recording() as recorded:
        if not reader.probe(path, "component file", loc):
            raise ContentError.at(loc, f"component file '{item}' not found")
        data = reader.load_yaml(path, "component file")
        return load_component(path, data, diags, recorded, reader, root)
