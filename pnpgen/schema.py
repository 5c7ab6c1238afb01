"""Located YAML data -> the validated model. Every error is collected with its file:line:column."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnpgen import units
from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.model import Board, Card, Deck, FaceRef, Game
from pnpgen.source import LList, LMap, load_file

MAX_COUNT = 10_000  # copies of one card
MAX_CARDS = 20_000  # faces in one deck
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")

_MISSING = object()


class Invalid(ValueError):
    """A converter's complaint about one value."""


class MapReader:
    """Reads a mapping key by key; whatever is left unread is an unknown key."""

    def __init__(self, data: LMap, diags: Diagnostics, what: str):
        self.data, self.diags, self.what = data, diags, what
        self.known: set[str] = set()

    def get(self, key: str, convert: Callable[[Any], Any] | None = None, default=_MISSING, required=False):
        self.known.add(key)
        if key not in self.data:
            if required:
                self.diags.error(self.data.loc, f"{self.what} needs '{key}'")
            return None if default is _MISSING else default
        value = self.data[key]
        if convert is None:
            return value
        try:
            return convert(value)
        except (Invalid, units.UnitError) as exc:
            self.diags.error(self.data.loc_of(key), f"'{key}' {exc}")
            return None if default is _MISSING else default

    def finish(self, also: set[str] = frozenset()) -> None:
        accepted = self.known | set(also)
        for key in self.data:
            if key not in accepted:
                self.diags.error(
                    self.data.key_loc(key),
                    f"unknown key '{key}' in {self.what}",
                    did_you_mean(str(key), accepted),
                )


# -- converters ------------------------------------------------------------------------------------------


def as_str(value) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (LMap, LList)):
        raise Invalid(f"must be text (got {_describe(value)})")
    return str(value)


def as_id(value) -> str:
    text = as_str(value)
    if not _ID.match(text):
        raise Invalid(f"must be an id of lower-case letters, digits, '-' and '_' (got {text!r})")
    return text


def as_count(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"must be a whole number from 1 to {MAX_COUNT:,} (got {_describe(value)})")
    if not 1 <= value <= MAX_COUNT:
        raise Invalid(f"must be from 1 to {MAX_COUNT:,} (got {value})")
    return value


def as_bool(value) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"must be true or false (got {_describe(value)})")
    return value


def as_length(value) -> float:
    pt = units.to_pt(value)
    if pt < 0:
        raise Invalid(f"must not be negative (got {value!r})")
    return pt


def as_players(value) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    else:
        m = re.match(r"^\s*(\d+)\s*[-–]\s*(\d+)\s*$", str(value))
        if not m:
            raise Invalid(f"must be a number or a range such as '2-4' (got {value!r})")
        lo, hi = int(m.group(1)), int(m.group(2))
    if not 1 <= lo <= hi <= 100:
        raise Invalid(f"must be a range of players from 1 to 100 (got {value!r})")
    return lo, hi


def as_colour(value) -> str:
    text = as_str(value)
    if not _COLOUR.match(text):
        raise Invalid(f"must be a colour '#rrggbb' (got {text!r})")
    return text.lower()


def _describe(value) -> str:
    if isinstance(value, LMap):
        return "a mapping"
    if isinstance(value, LList):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


def freeze(value):
    """Located YAML data -> read-only plain data for templates (locations kept on the originals)."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


# -- game and components -----------------------------------------------------------------------------------


def safe_path(root: Path, relative: str, loc: Location, what: str, where: str = "the game folder") -> Path:
    """`relative` resolved inside `root`; anything that leaves it (.., absolute, symlink) is refused."""
    if not relative or Path(relative).is_absolute():
        raise ContentError.at(loc, f"{what} must be a path inside {where} (got {relative!r})")
    resolved = (root / relative).resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise ContentError.at(loc, f"{what} {relative!r} leaves {where}; refused")
    return resolved


def load_game(root: Path, reader=None) -> Game:  # reader: wired in by the schema rework
    """Read and validate content/<game>/: game.yaml and every component file it names."""
    diags = Diagnostics()
    game_file = root / "game.yaml"
    display = display_path(game_file)
    data = load_file(game_file, display)
    if not isinstance(data, LMap):
        raise ContentError.at(
            Location(display, 1, 1), "game.yaml must be a mapping (id, title, players, components)"
        )
    r = MapReader(data, diags, "game.yaml")
    game_id = r.get("id", as_id, required=True)
    if game_id and game_id != root.name:
        diags.error(data.loc_of("id"), f"id '{game_id}' must equal the folder name '{root.name}'")
    title = r.get("title", as_str, required=True) or root.name
    players = r.get("players", as_players, required=True) or (1, 1)
    credits = r.get("credits", as_str, default="")
    palette = _palette(r.get("palette", default=LMap()), diags)
    icons_file = None
    icons = r.get("icons", as_str)
    if icons:
        try:
            icons_file = safe_path(root, icons, data.loc_of("icons"), "icons")
            if not icons_file.is_file():
                diags.error(data.loc_of("icons"), f"icons file '{icons}' not found")
                icons_file = None
        except ContentError as exc:
            diags.extend(exc.diagnostics)
    components = []
    comp_list = r.get("components", required=True)
    if comp_list is not None and not isinstance(comp_list, LList):
        diags.error(data.loc_of("components"), "'components' must be a list of component files")
    elif comp_list:
        seen: dict[str, Location] = {}
        for i, item in enumerate(comp_list):
            loc = comp_list.loc_at(i)
            try:
                if not isinstance(item, str):
                    raise ContentError.at(
                        loc, "a component entry must be a file path such as decks/monument.yaml"
                    )
                path = safe_path(root, item, loc, "component file")
                if not path.is_file():
                    raise ContentError.at(loc, f"component file '{item}' not found")
                comp = load_component(path, palette, diags)
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
    r.finish()
    diags.raise_if_errors()
    return Game(
        id=game_id,
        title=title,
        players_min=players[0],
        players_max=players[1],
        credits=credits,
        root=root,
        palette=MappingProxyType(palette),
        icons_file=icons_file,
        components=tuple(components),
        loc=data.loc,
    )


def _palette(data, diags: Diagnostics) -> dict[str, str]:
    if not isinstance(data, LMap):
        diags.error(
            getattr(data, "loc", Location("game.yaml")), "'palette' must map names to '#rrggbb' colours"
        )
        return {}
    out = {}
    for name, value in data.items():
        try:
            out[str(name)] = as_colour(value)
        except Invalid as exc:
            diags.error(data.loc_of(name), f"palette colour '{name}' {exc}")
    return out


def load_component(path: Path, palette: dict, diags: Diagnostics):
    display = display_path(path)
    data = load_file(path, display)
    if not isinstance(data, LMap):
        raise ContentError.at(
            Location(display, 1, 1), "a component file must be a mapping with 'id' and 'kind'"
        )
    kind = data.get("kind")
    if kind in ("cards", "tiles", "tokens"):
        return load_deck(path, data, diags)
    if kind == "board":
        return load_board(path, data, diags)
    loc = data.loc_of("kind") if "kind" in data else data.loc
    if kind is None:
        raise ContentError.at(loc, "component needs 'kind'", "expected: cards, tiles, tokens, board")
    raise ContentError.at(
        loc,
        f"unknown component kind '{kind}'",
        did_you_mean(str(kind), ["cards", "tiles", "tokens", "board"]),
    )


def _face_ref(value, loc: Location) -> FaceRef:
    if isinstance(value, str):
        return FaceRef(value, MappingProxyType({}), loc)
    if isinstance(value, LMap):
        if "layout" not in value:
            raise Invalid("needs 'layout' (a layout name), e.g. {layout: card-back}")
        fields = {k: v for k, v in value.items() if k != "layout"}
        return FaceRef(as_str(value["layout"]), freeze(fields), value.loc_of("layout"))
    raise Invalid(f"must be a layout name or {{layout: name, ...}} (got {_describe(value)})")


def as_shape(value) -> str:
    from pnpgen.shapes import SHAPES

    text = as_str(value)
    if text not in SHAPES:
        raise Invalid(f"must be one of {', '.join(SHAPES)} (got {text!r}); " + did_you_mean(text, SHAPES))
    return text


def _piece_size(value, shape: str):
    """A piece's size: one length for regular shapes, 'W x H' for rectangles; -> bounding box in points."""
    from pnpgen.shapes import bbox

    if shape == "rect":
        return units.parse_size(value)
    if isinstance(value, (int, float, str)) and not isinstance(value, bool) and "x" not in str(value):
        side = units.to_pt(value)
        w, h = bbox(shape, (side, side))
    else:
        w, h = units.parse_size(value)
        if shape != "rect":
            w, h = bbox(shape, (w, h))
    for s_ in (w, h):
        if not units.MIN_SIZE_MM * units.MM * 0.5 - 1e-9 <= s_ <= units.MAX_SIZE_MM * units.MM:
            raise units.UnitError(f"sides must be from 5 mm to {units.MAX_SIZE_MM:g} mm")
    return w, h


def load_deck(path: Path, data: LMap, diags: Diagnostics) -> Deck | None:
    kind = data.get("kind", "cards")
    what = {"cards": "deck", "tiles": "tile set", "tokens": "token sheet"}[kind]
    list_key = {"cards": "cards", "tiles": "tiles", "tokens": "tokens"}[kind]
    r = MapReader(data, diags, what)
    deck_id = r.get("id", as_id, required=True)
    r.get("kind")
    name = r.get("name", as_str, default=None) or (deck_id or "deck").replace("-", " ").capitalize()
    if kind == "cards":
        shape = "rect"
        size = r.get("size", units.parse_size, required=True)
    else:
        shape = r.get("shape", as_shape, default="square") or "square"
        size = r.get("size", lambda v: _piece_size(v, shape), required=True)
    default_bleed = {"cards": 3.0, "tiles": 2.0, "tokens": 1.5}[kind] * units.MM
    bleed = r.get("bleed", as_length, default=default_bleed)
    safe = r.get("safe", as_length, default=(3 if kind == "cards" else 1.5) * units.MM)
    front = r.get("front", lambda v: _face_ref(v, data.loc_of("front")), required=True)
    back = r.get("back", lambda v: _face_ref(v, data.loc_of("back")))
    defaults = r.get("defaults", default=LMap())
    if not isinstance(defaults, LMap):
        diags.error(data.loc_of("defaults"), "'defaults' must be a mapping of card fields")
        defaults = LMap()
    cards_data = r.get(list_key, required=True)
    r.finish()
    cards: list[Card] = []
    if cards_data is not None and not isinstance(cards_data, LList):
        diags.error(data.loc_of(list_key), f"'{list_key}' must be a list")
    elif cards_data is not None:
        if not cards_data:
            diags.error(data.loc_of(list_key), f"a {what} needs at least one item in '{list_key}'")
        for i, item in enumerate(cards_data):
            card = _card(item, i + 1, cards_data.loc_at(i), defaults, diags)
            if card:
                cards.append(card)
    total = sum(c.count for c in cards)
    if total > MAX_CARDS:
        diags.error(data.loc_of(list_key), f"the {what} has {total:,} pieces; the limit is {MAX_CARDS:,}")
    if deck_id is None or size is None or front is None:
        return None
    return Deck(
        shape=shape,
        id=deck_id,
        name=name,
        kind=kind,
        width_pt=size[0],
        height_pt=size[1],
        bleed_pt=bleed,
        safe_pt=safe,
        front=front,
        back=back,
        cards=tuple(cards),
        path=path,
        loc=data.loc,
    )


def load_board(path: Path, data: LMap, diags: Diagnostics) -> Board | None:
    from pnpgen.model import Board, BoardSide

    r = MapReader(data, diags, "board")
    board_id = r.get("id", as_id, required=True)
    r.get("kind")
    name = r.get("name", as_str, default=None) or (board_id or "board").replace("-", " ").capitalize()
    size = r.get("size", units.parse_size, required=True)
    bleed = r.get("bleed", as_length, default=3 * units.MM)
    board_data = r.get("data", default=LMap())
    if not isinstance(board_data, LMap):
        diags.error(data.loc_of("data"), "'data' must be a mapping")
        board_data = LMap()
    sides_data = r.get("sides", required=True)
    r.finish()
    sides = []
    if sides_data is not None and (not isinstance(sides_data, LList) or not sides_data):
        diags.error(data.loc_of("sides"), "'sides' must be a list of one or two sides, each with a layout")
    elif sides_data is not None:
        seen = set()
        for i, item in enumerate(sides_data):
            loc = sides_data.loc_at(i)
            if not isinstance(item, LMap):
                diags.error(loc, "a side is a mapping with 'id' and 'layout'")
                continue
            sr = MapReader(item, diags, "board side")
            sid = sr.get("id", as_id, default=f"side-{i + 1}")
            sname = sr.get("name", as_str, default=None) or sid
            layout = sr.get("layout", as_str, required=True)
            fields = sr.get("fields", default=LMap())
            sr.finish()
            if not isinstance(fields, LMap):
                diags.error(item.loc_of("fields"), "'fields' must be a mapping")
                fields = LMap()
            if sid in seen:
                diags.error(loc, f"side id '{sid}' is used twice")
            seen.add(sid)
            if layout:
                sides.append(
                    BoardSide(
                        sid,
                        sname,
                        FaceRef(layout, MappingProxyType({}), item.loc_of("layout")),
                        freeze({**fields, "name": sname, "id": sid}),
                        loc,
                    )
                )
    if board_id is None or size is None:
        return None
    return Board(board_id, name, size[0], size[1], bleed, tuple(sides), freeze(board_data), path, data.loc)


def _card(item, index: int, loc: Location, defaults: LMap, diags: Diagnostics) -> Card | None:
    if not isinstance(item, LMap):
        diags.error(loc, f"a card must be a mapping of fields (got {_describe(item)})")
        return None
    count, back = 1, None
    designed = bool(defaults.get("designed", False)) if isinstance(defaults.get("designed"), bool) else False
    try:
        if "count" in item:
            count = as_count(item["count"])
    except Invalid as exc:
        diags.error(item.loc_of("count"), f"'count' {exc}")
        return None
    try:
        if "designed" in item:
            designed = as_bool(item["designed"])
        if "back" in item:
            back = _face_ref(item["back"], item.loc_of("back"))
        name = as_str(item["name"]) if "name" in item else f"card {index}"
    except Invalid as exc:
        diags.error(loc, str(exc))
        return None
    fields = {k: v for k, v in defaults.items() if k not in ("count", "designed", "back")}
    fields.update({k: v for k, v in item.items() if k not in ("count", "designed", "back")})
    fields["name"] = name
    return Card(
        index=index,
        name=name,
        count=count,
        designed=designed,
        fields=freeze(fields),
        back=back,
        loc=loc,
    )
