"""Tabletop Simulator's JSON, made of pure data (no file is read here): a saved object and a whole save.

TTS spawns what a file's `ObjectStates` list holds; every object is an `ObjectState` of the Knowledge Base's
save-file format: a `GUID` (six hex digits), `Name` (the kind of object), `Transform`, `Nickname`,
`Description`, `ColorDiffuse`, the usual toggles and empty `LuaScript` / `LuaScriptState` / `XmlUI`.

- A card deck is a `DeckCustom` (its sheets as `CustomDeck` entries, one `Card` per printed copy, `CardID` =
  sheet key x 100 + slot), so it holds exactly the counts the rules check verified; a one-card deck is a lone
  `Card`, which is what TTS makes of a deck of one. Sheet keys are drawn from the game's and the deck's ids, so
  they stay the same from build to build and differ between games (two saves loaded together do not show one
  deck's cards for another's), and they are unique in the file.
- Rectangles and circles are `Custom_Tile`s (types 0 and 2), hexes, triangles and any other outline
  `Custom_Token`s, which TTS cuts from the image's transparency. A tile shows the piece's back as its
  secondary image; a token has one image (the Knowledge Base's Custom Token page, the scripting API's
  `setCustomObject`: TTS draws its front again underneath), so a token whose back differs carries it as its
  second state (`States`, switched in TTS like any stated object). A tile keeps its aspect (`Stretch`, which
  squares the tile, only for a square one).
- Each board side is a `Custom_Board`, whose size TTS takes from its image.
- A set that stands in for wooden pieces (`stand_in: {piece: cube|disc|pawn, colour: FIELD}`) is TTS's own
  `BlockSquare`, `Checker_white` or `PlayerPawn`, one per printed piece, tinted in the colour its field names.

`saved_object` puts everything in one bag named after the game (Saves/Saved Objects); `save` lays the game out
for a number of players (Saves): see `exports/table.py`. GUIDs come from what an object is (game, component,
copy), so the same content gives the same file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pnpgen.words import ENGLISH_WORDS, Words

INCH_MM = 25.4
CARD_W_IN = 2.5  # a TTS card at scale 1
TILE_IN = 2.0  # a TTS custom tile or token at scale 1, about
BOARD_IN = 20.0  # a TTS custom board at scale 1, about
TILE_TYPES = {"rect": 0, "square": 0, "circle": 2}  # Custom_Tile's Type: 0 box, 1 hex, 2 circle, 3 rounded
WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}
STAND_INS = {"cube": "BlockSquare", "disc": "Checker_white", "pawn": "PlayerPawn"}  # TTS's own, tinted


@dataclass
class DeckSheet:
    face: str  # image file names (the URL base is added later)
    back: str
    cols: int
    rows: int
    unique_backs: bool


@dataclass
class CardDeck:
    id: str
    name: str
    width_mm: float
    height_mm: float
    sheets: list  # DeckSheet
    cards: list  # (card name, description, sheet number from 1, slot on the sheet from 0), one per copy


@dataclass
class Piece:
    name: str
    count: int
    front: str
    back: str | None
    description: str = ""
    colour: dict | None = None  # a stand-in's colour: r, g, b from 0 to 1


@dataclass
class PieceSet:
    id: str
    name: str
    kind: str  # tiles | tokens
    shape: str
    width_mm: float
    height_mm: float
    pieces: list = field(default_factory=list)  # Piece
    stand_in: str | None = None  # TTS's own piece in its place: BlockSquare, Checker_white, PlayerPawn
    frame: float = 1.0  # the image's larger side over the piece's: a token's image has a clear frame


@dataclass
class BoardSide:
    id: str  # board id / side id
    name: str
    image: str
    width_mm: float
    height_mm: float


class Ids:
    """GUIDs and CustomDeck keys for one file: drawn from a seed (what the object is), unique in the file."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.guids: set[str] = set()
        self.keys: set[int] = set()

    def _digest(self, seed: str, n: int) -> str:
        return hashlib.sha256(f"{self.game_id}\x1f{seed}\x1f{n}".encode()).hexdigest()

    def guid(self, seed: str) -> str:
        n = 0
        while (g := self._digest(seed, n)[:6]) in self.guids:
            n += 1
        self.guids.add(g)
        return g

    def deck_key(self, seed: str) -> int:
        """A key from 1000 to 99999: CardID (key x 100 + slot) stays well inside TTS's 32-bit integer."""
        n = 0
        while (k := 1000 + int(self._digest("deck:" + seed, n)[:8], 16) % 99000) in self.keys:
            n += 1
        self.keys.add(k)
        return k


def transform(x: float, z: float, scale_x: float = 1.0, scale_z: float | None = None, **turn: float) -> dict:
    return {
        "posX": round(x, 3),
        "posY": round(turn.pop("y", 1.0), 3),
        "posZ": round(z, 3),
        "rotX": 0.0,
        "rotY": round(turn.pop("rot_y", 180.0), 3),
        "rotZ": round(turn.pop("rot_z", 0.0), 3),
        "scaleX": round(scale_x, 4),
        "scaleY": 1.0,
        "scaleZ": round(scale_x if scale_z is None else scale_z, 4),
    }


def obj(name: str, guid: str, nickname: str, where: dict, description: str = "", **more) -> dict:
    """One ObjectState with the fields every object of a real save carries."""
    base = {
        "GUID": guid,
        "Name": name,
        "Transform": where,
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "ColorDiffuse": dict(WHITE),
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "IgnoreFoW": False,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": False,
        "Hands": False,
    }
    base.update(more)
    base.update({"LuaScript": "", "LuaScriptState": "", "XmlUI": ""})
    return base


def save_state(title: str, objects: list, note: str = "", table: str = "", sky: str = "") -> dict:
    """The file around the objects: a saved object and a save share this shape."""
    return {
        "SaveName": title,
        "GameMode": title,
        "Date": "",
        "VersionNumber": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": table,
        "Sky": sky,
        "Note": note,
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
    }


def saved_object(
    game_id: str, title: str, decks: list, sets: list, boards: list, url, words: Words = ENGLISH_WORDS
) -> dict:
    """A saved object: one bag named after the game holding every component; `url(name)` gives an image's
    URL."""
    ids = Ids(game_id)
    contents, x = [], 0.0
    for deck in decks:
        contents.append(deck_object(ids, deck, url, transform(x, 0.0, card_scale(deck)), words=words))
        x += 3.0
    for pieces in sets:
        copies = piece_objects(ids, pieces, url, transform(x, 0.0, piece_scale(pieces)))
        contents.append(bag(ids, f"set:{pieces.id}", pieces.name, copies, transform(x, 0.0)))
        x += 3.0
    for side in boards:
        contents.append(board_object(ids, side, url, transform(x + 10, 0.0, board_scale(side))))
        x += 22.0
    whole = bag(ids, "bag", title, contents, transform(-4.0, 0.0), words("tts_bag", title=title))
    return save_state(title, [whole])


def bag(ids: Ids, seed: str, name: str, contents: list, where: dict, description: str = "") -> dict:
    return obj("Bag", ids.guid(seed), name, where, description, ContainedObjects=contents)


def card_scale(deck: CardDeck) -> float:
    return min(deck.width_mm, deck.height_mm) / INCH_MM / CARD_W_IN


def piece_scale(pieces: PieceSet) -> float:
    """TTS fits a tile's or token's image to its size: a framed image is scaled up by its frame."""
    return max(pieces.width_mm, pieces.height_mm) * pieces.frame / INCH_MM / TILE_IN


def board_scale(side: BoardSide) -> float:
    return max(side.width_mm, side.height_mm) / INCH_MM / BOARD_IN


def custom_decks(ids: Ids, deck: CardDeck, url) -> dict[int, tuple[int, dict]]:
    """Sheet number (from 1) -> (key, CustomDeck entry)."""
    out = {}
    for s, sheet in enumerate(deck.sheets, 1):
        key = ids.deck_key(f"{deck.id}/{s}")
        out[s] = (
            key,
            {
                "FaceURL": url(sheet.face),
                "BackURL": url(sheet.back),
                "NumWidth": sheet.cols,
                "NumHeight": sheet.rows,
                "BackIsHidden": True,  # in a hand, others see the card's back
                "UniqueBack": sheet.unique_backs,
                "Type": 0,
            },
        )
    return out


def deck_object(
    ids: Ids, deck: CardDeck, url, where: dict, order: list[int] | None = None, words: Words = ENGLISH_WORDS
) -> dict:
    """The deck as TTS holds it (cards in `order`, indexes into `deck.cards`), or a lone `Card`; its description
    in the game's `words`."""
    sheets = custom_decks(ids, deck, url)
    sideways = deck.width_mm > deck.height_mm
    cards = []
    for i in order if order is not None else range(len(deck.cards)):
        name, text, sheet_no, slot = deck.cards[i]
        key, entry = sheets[sheet_no]
        cards.append(
            obj(
                "Card",
                ids.guid(f"card:{deck.id}/{i}"),
                name,
                dict(where),
                text,
                CardID=key * 100 + slot,
                SidewaysCard=sideways,
                Hands=True,
                HideWhenFaceDown=True,
                CustomDeck={str(key): entry},
            )
        )
    if len(cards) == 1:
        return cards[0]
    used = sorted({c["CardID"] // 100 for c in cards})
    return obj(
        "DeckCustom",
        ids.guid(f"deck:{deck.id}"),
        deck.name,
        where,
        words("n_cards", n=len(cards)),
        SidewaysCard=sideways,
        Hands=False,
        HideWhenFaceDown=True,
        DeckIDs=[c["CardID"] for c in cards],
        CustomDeck={str(k): e for k, e in (sheets[s] for s in sheets) if k in used},
        ContainedObjects=cards,
    )


def piece_objects(ids: Ids, pieces: PieceSet, url, where: dict) -> list[dict]:
    """One object per printed piece: a tile for a rectangle or a circle, else a token cut from transparency.
    A tile shows the piece's back (or its front again) underneath; a token, which has one image, carries a back
    that differs as its second state."""
    if pieces.stand_in is not None:
        return stand_ins(ids, pieces, pieces.stand_in, where)
    tile_type = TILE_TYPES.get(pieces.shape)
    square = abs(pieces.width_mm - pieces.height_mm) < 0.01
    name = "Custom_Token" if tile_type is None else "Custom_Tile"
    out = []
    for p, piece in enumerate(pieces.pieces):
        image: dict = {
            "ImageURL": url(piece.front),
            "ImageSecondaryURL": "",
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
        }
        back = piece.back if piece.back != piece.front else None
        if tile_type is not None:
            image["ImageSecondaryURL"] = url(back or piece.front)
            image["CustomTile"] = {"Type": tile_type, "Thickness": 0.2, "Stackable": True, "Stretch": square}
        else:
            image["CustomToken"] = {
                "Thickness": 0.2,
                "MergeDistancePixels": 15.0,
                "StandUp": False,
                "Stackable": True,
            }
        for c in range(piece.count):
            seed = f"piece:{pieces.id}/{p}/{c}"
            one = obj(name, ids.guid(seed), piece.name, dict(where), piece.description, CustomImage=image)
            if tile_type is None and back is not None:  # the token's back: its state 2
                turned = dict(image, ImageURL=url(back))
                other = obj(
                    name,
                    ids.guid(seed + "/back"),
                    piece.name,
                    dict(where),
                    piece.description,
                    CustomImage=turned,
                )
                one = placed(dict(one, States={"2": other}), where)
            out.append(one)
    return out


def placed(thing: dict, where: dict) -> dict:
    """A copy of an object at `where`, its other states with it."""
    out = dict(thing, Transform=dict(where))
    if "States" in thing:
        out["States"] = {k: dict(s, Transform=dict(where)) for k, s in thing["States"].items()}
    return out


def board_object(ids: Ids, side: BoardSide, url, where: dict, locked: bool = False) -> dict:
    image = {"ImageURL": url(side.image), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
    return obj(
        "Custom_Board", ids.guid(f"board:{side.id}"), side.name, where, Locked=locked, CustomImage=image
    )


def stand_ins(ids: Ids, pieces: PieceSet, name: str, where: dict) -> list[dict]:
    """TTS's own pieces (a block, a checker disc, a pawn) tinted in each piece's colour, one per printed piece,
    for a set that stands in for wooden pieces; at TTS's own size (scale 1), not the printed token's."""
    out = []
    for p, piece in enumerate(pieces.pieces):
        for c in range(piece.count):
            seed = f"piece:{pieces.id}/{p}/{c}"
            tint = dict(piece.colour or WHITE)
            placed = dict(where, scaleX=1.0, scaleY=1.0, scaleZ=1.0)
            out.append(obj(name, ids.guid(seed), piece.name, placed, piece.description, ColorDiffuse=tint))
    return out
