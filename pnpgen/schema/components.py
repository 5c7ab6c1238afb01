"""Component files: decks of cards, tile sets, token sheets and boards; their tables and their loaders."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from pnpgen import units
from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path, not_one_of
from pnpgen.model import Board, BoardSide, Card, Deck, FaceRef
from pnpgen.schema.datasheets import UNREAD, as_sheets, check_columns, one_sheet, sheet_rows
from pnpgen.schema.fields import (
    Invalid,
    Key,
    Table,
    Values,
    as_bool,
    as_count,
    as_id,
    as_length,
    as_str,
    describe,
    freeze,
    listing,
    mapping,
)
from pnpgen.shapes import SHAPES, bbox
from pnpgen.source import LMap

MAX_CARDS = 20_000  # faces in one deck
KINDS = {"cards": "deck", "tiles": "tile set", "tokens": "token sheet", "board": "board"}


def as_face(value, loc: Location) -> FaceRef:
    """A layout name, or {layout: name, <extra fields>}."""
    if isinstance(value, str):
        return FaceRef(value, MappingProxyType({}), loc)
    if isinstance(value, LMap):
        if "layout" not in value:
            raise Invalid("needs 'layout' (a layout name), e.g. {layout: card-back}")
        fields = {k: v for k, v in value.items() if k != "layout"}
        return FaceRef(as_str(value["layout"]), freeze(fields), value.loc_of("layout"))
    raise Invalid(f"must be a layout name or {{layout: name, ...}} (got {describe(value)})")


def as_data_sheets(value) -> dict:
    """A board's `data_from`: {name: a data sheet as `cards_from` names one}."""
    if not isinstance(value, LMap) or not value:
        raise Invalid("must map names to data sheets, such as {hexes: data/hexes.csv}")
    return {str(name): one_sheet(ref, value.loc_of(name)) for name, ref in value.items()}


def as_columns(value) -> dict:
    """`columns`: each a type (int, number, bool, text) or {list: separator}."""
    from pnpgen.schema.cells import TYPES

    if not isinstance(value, LMap):
        raise Invalid("must map column names to int, number, bool, text or {list: ';'}")
    out = {}
    for name, spec in value.items():
        if spec in TYPES or (
            isinstance(spec, LMap) and set(spec) == {"list"} and isinstance(spec["list"], str)
        ):
            out[str(name)] = dict(spec) if isinstance(spec, LMap) else spec
        else:
            raise Invalid(
                f"column '{name}' must be one of {', '.join(TYPES)} or {{list: ';'}} (got {describe(spec)})"
            )
    return out


def as_shape(value) -> str:
    text = as_str(value)
    if text not in SHAPES:
        raise Invalid(not_one_of(text, SHAPES))
    return text


STAND_INS = ("cube", "disc", "pawn")


def as_stand_in(value) -> tuple[str, str]:
    """{piece: cube|disc|pawn, colour: FIELD} -> (piece, the item field naming each piece's colour)."""
    if not isinstance(value, dict) or set(value) - {"piece", "colour"} or "piece" not in value:
        raise Invalid(f"must be {{piece: {'|'.join(STAND_INS)}, colour: FIELD}} (got {describe(value)})")
    piece, field_name = as_str(value["piece"]), as_str(value.get("colour", "colour"))
    if piece not in STAND_INS:
        raise Invalid(f"piece must be one of {', '.join(STAND_INS)} (got {piece!r})")
    return piece, field_name


def as_piece_size(value, shape: str | None) -> tuple[float, float]:
    """A piece's size -> its bounding box in points: 'W x H' for rectangles, one length for the other shapes (the
    side, the diameter, a hex across the flats); either form is accepted for any shape."""
    w, h = units.parse_size(value, one_length=True, min_mm=units.MIN_PIECE_MM)
    return units.check_size(*bbox(shape or "square", (w, h)), min_mm=units.MIN_PIECE_MM)


# -- tables ----------------------------------------------------------------------------------------------------

CARD_KEYS = (
    Key("name", as_str, "the card's name; default 'card N'"),
    Key("id", as_id, "a stable name for diagrams where names repeat; unique in its component"),
    Key("count", as_count, "copies to print, 0 to 10,000 (0: left out)", default=1),
    Key("designed", as_bool, "true: our own design, not listed by the source document", default=False),
    Key("back", as_face, "this card's own back: a layout name or {layout: name, ...}", takes=("loc",)),
    Key("front", as_face, "this card's own front: a layout name or {layout: name, ...}", takes=("loc",)),
)
CARD = Table("card", CARD_KEYS, open=True)
DEFAULTS = Table(
    "defaults", CARD_KEYS, open=True, title="Keys of a card"
)  # every card's, unless it sets its own

_FACE = "layout name, or {layout: name, <extra fields>}"


def _piece_table(kind: str) -> Table:
    what = KINDS[kind]
    cards = kind == "cards"
    keys = [
        Key("id", as_id, "unique in the game; names the PDF", required=True),
        Key("kind", as_str, f"`{kind}`", required=True),
        Key("name", as_str, "shown in the rulebook and messages; default: from the id"),
    ]
    if cards:
        keys.append(Key("size", units.parse_size, "a size name, 'W x H' or {width:, height:}", required=True))
    else:
        keys.append(
            Key("shape", as_shape, "square, rect, hex, hex-flat, triangle or circle", default="square")
        )
        keys.append(
            Key("size", as_piece_size, "one length (the side) or 'W x H'", required=True, takes=("shape",))
        )
        keys.append(
            Key(
                "stand_in",
                as_stand_in,
                "a virtual table's own piece for it: {piece: cube|disc|pawn, colour: FIELD}",
            )
        )
    bleed = {"cards": 3.0, "tiles": 2.0, "tokens": 1.5}[kind]
    keys += [
        Key("bleed", as_length, "how far art runs past the cut", default=bleed * units.MM),
        Key("safe", as_length, "keep text this far inside the cut", default=(3 if cards else 1.5) * units.MM),
        Key("front", as_face, "the front's " + _FACE, required=True, takes=("loc",)),
        Key("back", as_face, "the back's " + _FACE, takes=("loc",)),
        Key(
            "defaults", mapping("must be a mapping of card fields"), "what every item gets unless it sets it"
        ),
        Key(kind, listing(), "the items (YAML); with `cards_from`, these come first"),
        Key(
            "picture",
            as_str,
            "the item the rulebook pictures (its id or name); default: the first by id, then by its fields",
        ),
        Key(
            "cards_from",
            as_sheets,
            "data sheets whose rows are more items: data/cards.csv, data/cards.xlsx:Name, "
            "{file: data/cards.xlsx, sheet: Name}, a published sheet's https:// address, or a list of them "
            "(one deck)",
            takes=("loc",),
        ),
        Key(
            "columns",
            as_columns,
            "how to read a sheet's columns: {name: int|number|bool|text, name: {list: ';'}}",
        ),
    ]
    return Table(what, tuple(keys), title="" if cards else "Keys of a tile set or token sheet")


PIECES = {kind: _piece_table(kind) for kind in ("cards", "tiles", "tokens")}

BOARD = Table(
    "board",
    (
        Key("id", as_id, "unique in the game; names the PDFs", required=True),
        Key("kind", as_str, "`board`", required=True),
        Key("name", as_str, "shown in the rulebook and messages; default: from the id"),
        Key("size", units.parse_size, "the true size: 'W x H' or {width:, height:}", required=True),
        Key("bleed", as_length, "how far art runs past the cut", default=3 * units.MM),
        Key("data", mapping(), "free data for the layouts (`board` in templates)"),
        Key(
            "data_from",
            as_data_sheets,
            "more of `data` from data sheets: {name: data/x.csv}, each a list of its rows",
        ),
        Key(
            "sides",
            listing("must be a list of one or two sides, each with a layout"),
            "the sides",
            required=True,
        ),
    ),
)
SIDE = Table(
    "board side",
    (
        Key("id", as_id, "unique on the board; default side-N"),
        Key("name", as_str, "default: the id"),
        Key("layout", as_str, "the layout that draws it", required=True),
        Key("fields", mapping(), "card-like fields for the layout (`card` in templates)"),
    ),
)


# -- loaders ---------------------------------------------------------------------------------------------------


def load_component(
    path: Path, data, diags: Diagnostics, inputs: Mapping[str, str], reader=None, root: Path | None = None
):
    """A component file's mapping -> Deck or Board (None when it has errors, which go to `diags`)."""
    display = display_path(path)
    if not isinstance(data, LMap):
        raise ContentError.at(
            Location(display, 1, 1), "a component file must be a mapping with 'id' and 'kind'"
        )
    kind = data.get("kind")
    if not isinstance(kind, str) and kind is not None:  # a list or a mapping: never looked up as a name
        raise ContentError.at(
            data.loc_of("kind"), f"'kind' must be one of cards, tiles, tokens, board (got {describe(kind)})"
        )
    if kind in PIECES:
        return load_deck(path, data, diags, inputs, reader, root or path.parent)
    if kind == "board":
        return load_board(path, data, diags, inputs, reader, root or path.parent)
    loc = data.loc_of("kind") if "kind" in data else data.loc
    if kind is None:
        raise ContentError.at(loc, "component needs 'kind'", "expected: cards, tiles, tokens, board")
    raise ContentError.at(loc, f"unknown component kind '{kind}'", did_you_mean(str(kind), KINDS))


def _name(v: Values, fallback: str) -> str:
    return v["name"] or (v["id"] or fallback).replace("-", " ").capitalize()


def load_deck(
    path: Path,
    data: LMap,
    diags: Diagnostics,
    inputs: Mapping[str, str],
    reader=None,
    root: Path | None = None,
) -> Deck | None:
    kind = data["kind"]
    table = PIECES[kind]
    v = table.read(data, diags)
    defaults = DEFAULTS.read(v["defaults"], diags) if v["defaults"] is not None else None
    items = v[kind]
    cards: list[Card] = []
    unread = 0  # items refused (told where they are): what they would print is not known
    if items is None and v["cards_from"] is None and kind not in v.given:
        diags.error(
            data.loc, f"{table.what} needs '{kind}' (its items) or 'cards_from' (a data sheet of them)"
        )
    if items is not None:
        if not items and v["cards_from"] is None:
            diags.error(data.loc_of(kind), f"a {table.what} needs at least one item in '{kind}'")
        for i, item in enumerate(items):
            card = _card(item, i + 1, items.loc_at(i), defaults, diags)
            if card:
                cards.append(card)
            unread += card is None
    refs, names = v["cards_from"] or (), set[str]()
    for ref in refs:  # every sheet's rows, in the order given: one deck
        rows = sheet_rows(
            root or path.parent, ref, v["columns"] or {}, reader, diags, names if refs[1:] else None
        )
        for i, row in enumerate(rows):
            card = _card(row, len(cards) + 1, rows.loc_at(i), defaults, diags)
            if card:
                cards.append(card)
            unread += card is None
    if refs[1:] and UNREAD not in names:  # several sheets, all read: a declared column is in one of them
        check_columns(v["columns"] or {}, names, data.loc_of("columns"), diags, several=True)
    _unique_ids(cards, diags)
    left_out = tuple(c for c in cards if not c.count)  # `count: 0`: kept in the file for a later print
    cards = [c for c in cards if c.count]
    listed = data.loc_of(
        next((k for k in (kind, "cards_from") if k in data), kind)
    )  # where its items are given
    if left_out and not cards and not unread:
        diags.error(listed, f"every item of the {table.what} has count 0: nothing would be printed")
    total = sum(c.count for c in cards)
    if total > MAX_CARDS:
        diags.error(listed, f"the {table.what} has {total:,} pieces; the limit is {MAX_CARDS:,}")
    if v["id"] is None or v["size"] is None or v["front"] is None:
        return None
    return Deck(
        shape=v.get("shape") or "rect",
        stand_in=v.get("stand_in"),
        picture=(v["picture"], v.loc_of("picture")) if v["picture"] is not None else None,
        id=v["id"],
        name=_name(v, "deck"),
        kind=kind,
        width_pt=v["size"][0],
        height_pt=v["size"][1],
        bleed_pt=v["bleed"],
        safe_pt=v["safe"],
        front=v["front"],
        back=v["back"],
        cards=tuple(cards),
        left_out=left_out,
        path=path,
        loc=data.loc,
        inputs=MappingProxyType(dict(inputs)),
    )


def _unique_ids(cards: list[Card], diags: Diagnostics) -> None:
    """A card's `id` names it in diagrams: two cards of one component never share one."""
    seen: dict[str, Card] = {}
    for card in cards:
        if card.id is None:
            continue
        if card.id in seen:
            first = seen[card.id].loc
            same = first.path == card.loc.path and not first.sheet  # another file or a sheet: its full place
            first_at = f"line {first.line}" if same else str(first)
            diags.error(card.loc, f"card id '{card.id}' is used twice (first at {first_at})")
        seen.setdefault(card.id, card)


def _card(item, index: int, loc: Location, defaults: Values | None, diags: Diagnostics) -> Card | None:
    if not isinstance(item, LMap):
        diags.error(loc, f"a card must be a mapping of fields (got {describe(item)})")
        return None
    v = CARD.read(item, diags)
    if not v.ok:
        return None
    if defaults is not None:  # what the card does not set, the deck's defaults do
        for key in defaults.given:
            if key not in v.given:
                v[key] = defaults[key]
    name = v["name"] or f"card {index}"
    fields = {**(defaults.fields() if defaults is not None else {}), **v.fields(), "name": name}
    if v["id"] is not None:
        fields["id"] = v["id"]
    return Card(
        index=index,
        id=v["id"],
        name=name,
        count=v["count"],
        designed=v["designed"],
        fields=freeze(fields),
        back=v["back"],
        loc=loc,
        front=v["front"],
        field_locs=MappingProxyType(item.key_locs),
        value_locs=MappingProxyType(item.val_locs),
    )


def load_board(
    path: Path,
    data: LMap,
    diags: Diagnostics,
    inputs: Mapping[str, str],
    reader=None,
    root: Path | None = None,
) -> Board | None:
    v = BOARD.read(data, diags)
    free = dict(v["data"] or {})
    for name, ref in (v["data_from"] or {}).items():
        if name in free:
            diags.error(ref[2], f"'{name}' is given in both 'data' and 'data_from'")
            continue
        free[name] = sheet_rows(root or path.parent, ref, {}, reader, diags)
    sides = []
    seen: set[str] = set()
    for i, item in enumerate(v["sides"] or ()):
        loc = v["sides"].loc_at(i)
        if not isinstance(item, LMap):
            diags.error(loc, "a side is a mapping with 'id' and 'layout'")
            continue
        s = SIDE.read(item, diags)
        sid = s["id"] or f"side-{i + 1}"
        name = s["name"] or sid
        if sid in seen:
            diags.error(loc, f"side id '{sid}' is used twice")
        seen.add(sid)
        if s["layout"]:
            face = FaceRef(s["layout"], MappingProxyType({}), item.loc_of("layout"))
            fields = freeze({**(s["fields"] or {}), "name": name, "id": sid})
            given = s["fields"]
            where = MappingProxyType(getattr(given, "key_locs", None) or {})
            values = MappingProxyType(getattr(given, "val_locs", None) or {})
            sides.append(BoardSide(sid, name, face, fields, loc, where, values))
    if v["sides"] is not None and not v["sides"]:
        diags.error(data.loc_of("sides"), "'sides' must be a list of one or two sides, each with a layout")
    if v["id"] is None or v["size"] is None:
        return None
    return Board(
        v["id"],
        _name(v, "board"),
        v["size"][0],
        v["size"][1],
        v["bleed"],
        tuple(sides),
        freeze(free, located=True),
        path,
        data.loc,
        inputs=MappingProxyType(dict(inputs)),
    )
