"""A Tabletop Simulator saved object: one JSON holding a whole game, made of pure data (no file is read here).

TTS spawns what a saved object's `ObjectStates` list holds. Ours holds one bag named after the game, and in it:
every card deck as a `DeckCustom` (its sheets as `CustomDeck` entries, one `Card` per printed copy, so the
deck holds exactly the counts the rules check verified), every tile set and token sheet as a bag of
`Custom_Tile` / `Custom_Token` objects (one per printed piece, front and back images), and every board side as
a `Custom_Board`. Images are named by URL: `file:///` URLs of the exported PNGs by default (TTS loads local files
on the machine that exported them), or under a base URL once the images are uploaded for others to load.

Sizes: TTS measures in its own units (a poker card at scale 1 is about 2.5 x 3.5 in); pieces and boards are
scaled from their printed size on the same footing, so the table shows them in proportion.
"""

from __future__ import annotations

from dataclasses import dataclass, field

INCH_MM = 25.4
CARD_W_IN = 2.5  # a TTS card at scale 1
TILE_IN = 2.0  # a TTS custom tile or token at scale 1, about
BOARD_IN = 20.0  # a TTS custom board at scale 1, about
TILE_TYPES = {"rect": 0, "square": 0, "hex": 1, "hex-flat": 1, "circle": 2, "triangle": 0}


@dataclass
class DeckSheet:
    face: str  # image file names (the URL base is added later)
    back: str
    cols: int
    rows: int
    unique_backs: bool


@dataclass
class CardDeck:
    name: str
    width_mm: float
    sheets: list  # DeckSheet
    cards: list  # (card name, sheet number from 1, slot on the sheet from 0), one per printed copy


@dataclass
class Piece:
    name: str
    count: int
    front: str
    back: str | None


@dataclass
class PieceSet:
    name: str
    kind: str  # tiles | tokens
    shape: str
    width_mm: float
    height_mm: float
    pieces: list = field(default_factory=list)  # Piece


@dataclass
class BoardSide:
    name: str
    image: str
    width_mm: float
    height_mm: float


def _transform(x: float, scale_x: float = 1.0, scale_z: float | None = None) -> dict:
    return {
        "posX": round(x, 2),
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 0.0,
        "scaleX": round(scale_x, 3),
        "scaleY": 1.0,
        "scaleZ": round(scale_x if scale_z is None else scale_z, 3),
    }


def saved_object(title: str, decks: list, sets: list, boards: list, url) -> dict:
    """The saved object's JSON data; `url(name)` gives the URL of an exported image."""
    contents, x = [], 0.0
    for n, deck in enumerate(decks, 1):
        contents.append(_deck(deck, n, url, x))
        x += 3.0
    for pieces in sets:
        contents.append(_pieces(pieces, url, x))
        x += 3.0
    for side in boards:
        scale = side.width_mm / INCH_MM / BOARD_IN
        contents.append(
            {
                "Name": "Custom_Board",
                "Nickname": side.name,
                "Transform": _transform(x + 10, scale),
                "CustomImage": {"ImageURL": url(side.image), "ImageSecondaryURL": "", "WidthScale": 0.0},
            }
        )
        x += 22.0
    bag = {"Name": "Bag", "Nickname": title, "Transform": _transform(-4.0), "ContainedObjects": contents}
    return {
        "SaveName": title,
        "GameMode": title,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [bag],
        "TabStates": {},
        "VersionNumber": "",
    }


def _deck(deck: CardDeck, number: int, url, x: float) -> dict:
    """Deck `number` of the save: TTS names each card `CardID` = deck key x 100 + slot, one key per sheet."""
    scale = deck.width_mm / INCH_MM / CARD_W_IN
    custom, key_of = {}, {}
    for s, sheet in enumerate(deck.sheets, 1):
        key = number * 10 + s  # unique in the save: decks and their sheets
        key_of[s] = key
        custom[str(key)] = {
            "FaceURL": url(sheet.face),
            "BackURL": url(sheet.back),
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": sheet.unique_backs,
            "Type": 0,
        }
    cards, ids = [], []
    for name, sheet_no, slot in deck.cards:
        card_id = key_of[sheet_no] * 100 + slot
        ids.append(card_id)
        key = key_of[sheet_no]
        cards.append(
            {
                "Name": "Card",
                "Nickname": name,
                "CardID": card_id,
                "Transform": _transform(x, scale),
                "CustomDeck": {str(key): custom[str(key)]},
            }
        )
    return {
        "Name": "DeckCustom",
        "Nickname": deck.name,
        "Transform": _transform(x, scale),
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": cards,
    }


def _pieces(pieces: PieceSet, url, x: float) -> dict:
    token = pieces.kind == "tokens"
    scale = max(pieces.width_mm, pieces.height_mm) / INCH_MM / TILE_IN
    objects = []
    for piece in pieces.pieces:
        image = {"ImageURL": url(piece.front), "ImageSecondaryURL": url(piece.back) if piece.back else ""}
        if token:
            image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "Stackable": True}
        else:
            image["WidthScale"] = round(pieces.width_mm / pieces.height_mm, 4)
            image["CustomTile"] = {
                "Type": TILE_TYPES.get(pieces.shape, 0),
                "Thickness": 0.2,
                "Stackable": True,
                "Stretch": True,
            }
        obj = {
            "Name": "Custom_Token" if token else "Custom_Tile",
            "Nickname": piece.name,
            "Transform": _transform(x, scale),
            "CustomImage": image,
        }
        objects += [obj] * piece.count
    return {"Name": "Bag", "Nickname": pieces.name, "Transform": _transform(x), "ContainedObjects": objects}
