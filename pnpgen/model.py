"""The validated game model: plain frozen dataclasses. No yaml, jinja2, reportlab or click here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnpgen.errors import Location
from pnpgen.words import Words

KINDS = ("cards", "tiles", "tokens", "board", "rulebook")
# a card's (or side's) own keys, and what templates add: never a field a layout may have left unread or misspelt
CARD_KEYS = frozenset({"name", "count", "designed", "back", "front", "index", "id"})


def _no_inputs() -> Mapping[str, str]:
    return MappingProxyType({})


def _no_locs() -> Mapping[str, Location]:
    return MappingProxyType({})


class Row(Mapping[str, Any]):
    """A read-only mapping of content that remembers where it was written: a YAML mapping's line, a data
    sheet's row, and each value's place (a sheet's cell), so a layout can report a bad row where it is."""

    __slots__ = ("_data", "loc", "val_locs")

    def __init__(self, data: Mapping[str, Any], loc: Location, val_locs: Mapping[str, Location]):
        self._data, self.loc, self.val_locs = dict(data), loc, dict(val_locs)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Any:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return repr(self._data)

    def __reduce__(self) -> tuple[Any, ...]:
        return Row, (self._data, self.loc, self.val_locs)


@dataclass(frozen=True)
class FaceRef:
    """Which layout draws a face, with extra fields merged over the card's own."""

    layout: str
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    loc: Location = Location("")


@dataclass(frozen=True)
class Card:
    index: int  # 1-based position in the deck's list
    name: str
    count: int
    designed: bool
    fields: Mapping[str, Any]  # the card's own fields merged over the deck's defaults
    back: FaceRef | None  # the card's own back, overriding the deck's
    loc: Location
    front: FaceRef | None = None  # the card's own front, overriding the deck's
    id: str | None = None  # its stable name in diagrams, unique in its deck (`name` may repeat)
    # where each of its own fields is named: its key's line, or a data sheet's header cell
    field_locs: Mapping[str, Location] = field(default_factory=_no_locs, compare=False, repr=False)
    # where each of its own fields' values stands: its value's line, or a data sheet's cell
    value_locs: Mapping[str, Location] = field(default_factory=_no_locs, compare=False, repr=False)


@dataclass(frozen=True)
class Deck:
    """A set of printed pieces with fronts and backs: a deck of cards, a tile set or a token sheet."""

    id: str
    name: str
    kind: str  # "cards" | "tiles" | "tokens"
    width_pt: float
    height_pt: float
    bleed_pt: float
    safe_pt: float
    front: FaceRef
    back: FaceRef | None
    cards: tuple[Card, ...]
    path: Path  # the component's file
    loc: Location
    shape: str = "rect"  # rect | square | hex | hex-flat | triangle | circle
    stand_in: tuple[str, str] | None = None  # tiles and tokens: (cube | disc | pawn, the field of its colour)
    picture: tuple[str, Location] | None = (
        None  # the card the rulebook pictures (id or name) and where it says so
    )
    # what reading its file read (key -> digest, see pnpgen.inputs)
    inputs: Mapping[str, str] = field(default_factory=_no_inputs, compare=False, repr=False)
    left_out: tuple[Card, ...] = ()  # its cards given `count: 0`: in its file, printed nowhere

    @cached_property
    def faces(self) -> int:
        """Printed items, counting copies."""
        return sum(c.count for c in self.cards)

    def back_for(self, card: Card) -> FaceRef | None:
        return card.back or self.back

    def front_for(self, card: Card) -> FaceRef:
        return card.front or self.front


@dataclass(frozen=True)
class BoardSide:
    id: str
    name: str
    layout: FaceRef
    fields: Mapping[str, Any]
    loc: Location
    field_locs: Mapping[str, Location] = field(default_factory=_no_locs, compare=False, repr=False)
    # where each of its own fields' values stands: its value's line, or a data sheet's cell
    value_locs: Mapping[str, Location] = field(default_factory=_no_locs, compare=False, repr=False)


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    width_pt: float
    height_pt: float
    bleed_pt: float
    sides: tuple[BoardSide, ...]
    data: Mapping[str, Any]
    path: Path
    loc: Location
    kind: str = "board"
    # what reading its file read (key -> digest, see pnpgen.inputs)
    inputs: Mapping[str, str] = field(default_factory=_no_inputs, compare=False, repr=False)

    @property
    def faces(self) -> int:
        return len(self.sides)


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    players_min: int
    players_max: int
    credits: str
    root: Path  # content/<game>
    palette: Mapping[str, str]
    icons_file: (
        Any  # a Path, or pnpgen.schema.icons.IconSources (an icons file and a folder of SVG icons), or None
    )
    components: tuple[Deck | Board, ...]
    loc: Location
    # game.yaml and what it looked up; not the component files: each component records its own
    inputs: Mapping[str, str] = field(default_factory=_no_inputs, compare=False, repr=False)
    # the game's own fonts: family -> style -> (real path, where game.yaml names it)
    fonts: Mapping[str, Any] = field(default_factory=_no_inputs, compare=False, repr=False)
    palette_low: Mapping[str, str] | None = None  # the low-ink form's colours; None: pnpgen's transform
    printing: Mapping[str, Any] = field(default_factory=_no_inputs)  # game.yaml's print: (keys it sets)
    # where game.yaml gives each of its values (`at`)
    key_locs: Mapping[str, Location] = field(default_factory=_no_locs, compare=False, repr=False)
    words: Words = field(default_factory=Words)  # the words pnpgen prints itself, in the game's language

    def at(self, key: str) -> Location:
        """Where game.yaml gives `key` (its value), else the file's start."""
        return self.key_locs.get(key, self.loc)

    @property
    def players(self) -> str:
        if self.players_min == self.players_max:
            return str(self.players_min)
        return f"{self.players_min}–{self.players_max}"

    def component(self, component_id: str) -> Deck | Board | None:
        for c in self.components:
            if c.id == component_id:
                return c
        return None
