"""An independent check of a Tabletop Simulator file, written from TTS's own documentation, not from our writer.

Sources (read, not copied): the Knowledge Base's "Save File Format" page (the `SaveState` and `ObjectState`
classes, `CustomDeckState`, `CustomImageState`, `TransformState`, `ColorState`, the object name list: the key of
`CustomDeck` is "the hundreds place" of a `CardID`), its Custom Deck page (a sheet is at most 10 x 7 cards, the
last slot the hidden card; unique backs or one back), Custom Tile (types box, hex, circle, rounded; thickness,
stackable, stretch), Custom Token (cut from the image's transparency; thickness, merge distance, stackable),
Custom Board (its size from its image), the scripting API's `setCustomObject` (a Custom_Token takes one image,
a Custom_Tile a top and a bottom one), and the object fields of TTS's scripting API (`GUID`, `GMNotes`,
`Hands`, `HideWhenFaceDown`, `SidewaysCard`...), which the Knowledge Base's page predates.

`problems(data)` returns every problem found (an empty list: the file conforms).
"""

from __future__ import annotations

import re

# Save File Format's object name list, the two custom objects its custom-content pages add, and the hand zone
# (Zone Tools page; a HandTrigger with its FogColor in every save TTS writes now, e.g. argonui/SCED's)
OBJECT_NAMES = {
    "Bag", "BlockRectangle", "BlockSquare", "BlockTriangle", "Card", "Checker_black", "Checker_red",
    "Checker_white", "Chip_10", "Chip_100", "Chip_1000", "Chip_50", "Chip_500", "Custom_Board", "Custom_Model",
    "Deck", "DeckCustom", "Die_10", "Die_12", "Die_20", "Die_4", "Die_6", "Die_6_Rounded", "Die_8",
    "Die_Piecepack", "go_game_piece_black", "go_game_piece_white", "PiecePack_Arms", "PiecePack_Crowns",
    "PiecePack_Moons", "PiecePack_Suns", "PlayerPawn", "Quarter", "reversi_chip",
    "Custom_Tile", "Custom_Token", "HandTrigger",
}  # fmt: skip
PLAYER_COLOURS = {"White", "Brown", "Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple", "Pink"}
TABLES = {"", "Table_Circular", "Table_Custom", "Table_Glass", "Table_Hexagon", "Table_Octagon", "Table_Poker",
          "Table_RPG", "Table_Square"}  # fmt: skip
SKIES = {"", "Sky_Field", "Sky_Forest", "Sky_Museum", "Sky_Tunnel"}
TRANSFORM = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
SAVE_STRINGS = ("SaveName", "GameMode", "Date", "Table", "Sky", "Note", "Rules", "LuaScript", "LuaScriptState",
                "XmlUI")  # fmt: skip
OBJECT_KEYS = {  # ObjectState's fields (Knowledge Base) and the scripting API's object data
    "GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str, "GMNotes": str,
    "ColorDiffuse": dict, "Locked": bool, "Grid": bool, "Snap": bool, "IgnoreFoW": bool, "Autoraise": bool,
    "Sticky": bool, "Tooltip": bool, "GridProjection": bool, "HideWhenFaceDown": bool, "Hands": bool,
    "SidewaysCard": bool, "CardID": int, "DeckIDs": list, "CustomDeck": dict, "CustomImage": dict,
    "ContainedObjects": list, "LuaScript": str, "LuaScriptState": str, "XmlUI": str, "MaterialIndex": int,
    "MeshIndex": int, "Number": int, "States": dict, "FogColor": str,
}  # fmt: skip
SCRIPT_KEYS = ("LuaScript", "LuaScriptState", "XmlUI")
DECK_KEYS = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
             "UniqueBack": bool, "Type": int}  # fmt: skip
IMAGE_KEYS = {
    "ImageURL": str,
    "ImageSecondaryURL": str,
    "ImageScalar": (int, float),
    "WidthScale": (int, float),
}
TILE_KEYS = {"Type": int, "Thickness": (int, float), "Stackable": bool, "Stretch": bool}
TOKEN_KEYS = {
    "Thickness": (int, float),
    "MergeDistancePixels": (int, float),
    "StandUp": bool,
    "Stackable": bool,
}
GUID = re.compile(r"[0-9a-f]{6}")


def _typed(where: str, mapping: dict, keys: dict, out: list[str], required: bool = True) -> None:
    for key, value in mapping.items():
        if key not in keys:
            out.append(f"{where}: unknown key {key!r}")
        elif isinstance(value, bool) and keys[key] is not bool:
            out.append(f"{where}.{key}: a bool where {keys[key]} is expected")
        elif not isinstance(value, keys[key]):
            out.append(f"{where}.{key}: {type(value).__name__}, expected {keys[key]}")
    if required:
        out += [f"{where}: no {key!r}" for key in keys if key not in mapping]


def problems(data: dict) -> list[str]:
    out: list[str] = []
    if not isinstance(data, dict):
        return ["the file is not a JSON object"]
    for key in SAVE_STRINGS:
        if not isinstance(data.get(key), str):
            out.append(f"save: {key!r} must be a string")
    if data.get("Table") not in TABLES:
        out.append(f"save: unknown table {data.get('Table')!r}")
    if data.get("Sky") not in SKIES:
        out.append(f"save: unknown sky {data.get('Sky')!r}")
    objects = data.get("ObjectStates")
    if not isinstance(objects, list) or not objects:
        return [*out, "save: ObjectStates must be a list of objects"]
    state = {"guids": set(), "decks": {}}
    for i, obj in enumerate(objects):
        _object(f"ObjectStates[{i}]", obj, state, out)
    return out


def _object(where: str, obj: dict, state: dict, out: list[str]) -> None:
    if not isinstance(obj, dict):
        out.append(f"{where}: not an object")
        return
    name = obj.get("Name")
    where = f"{where} {name} {obj.get('Nickname', '')!r}"
    _typed(where, obj, OBJECT_KEYS, out, required=False)
    for key in ("GUID", "Name", "Transform", "Nickname", *SCRIPT_KEYS):
        if key not in obj:
            out.append(f"{where}: no {key!r}")
    if name not in OBJECT_NAMES:
        out.append(f"{where}: unknown object name")
    guid = obj.get("GUID")
    if not isinstance(guid, str) or not GUID.fullmatch(guid):
        out.append(f"{where}: GUID {guid!r} is not six hex digits")
    elif guid in state["guids"]:
        out.append(f"{where}: GUID {guid} used twice")
    state["guids"].add(guid)
    _transform(where, obj.get("Transform"), out)
    colour = obj.get("ColorDiffuse", {"r": 1, "g": 1, "b": 1})
    if set(colour) - {"r", "g", "b", "a"} or not all(0 <= v <= 1 for v in colour.values()):
        out.append(f"{where}: ColorDiffuse {colour}")
    if name in ("Card", "DeckCustom", "Deck"):
        _cards(where, obj, state, out)
    elif "CardID" in obj or "DeckIDs" in obj or "CustomDeck" in obj:
        out.append(f"{where}: card keys on an object that is not a card or deck")
    if name == "HandTrigger" and obj.get("FogColor") not in PLAYER_COLOURS:
        out.append(f"{where}: a hand zone for {obj.get('FogColor')!r}, not a player colour")
    if name in ("Custom_Tile", "Custom_Token", "Custom_Board"):
        _image(where, name, obj.get("CustomImage"), out)
    elif "CustomImage" in obj:
        out.append(f"{where}: CustomImage on a {name}")
    contained = obj.get("ContainedObjects")
    if name in ("Bag", "Deck", "DeckCustom") and not contained:
        out.append(f"{where}: an empty container")
    if contained is not None and name not in ("Bag", "Deck", "DeckCustom"):
        out.append(f"{where}: a {name} holds no objects")
    for k, inner in enumerate(contained or []):
        _object(f"{where}/{k}", inner, state, out)
    for key, other in (obj.get("States") or {}).items():  # ObjectState.States: the others, numbered from 2
        if not key.isdigit() or int(key) < 2:
            out.append(f"{where}: state {key!r} (the object itself is state 1)")
        _object(f"{where} state {key}", other, state, out)


def _transform(where: str, t, out: list[str]) -> None:
    if not isinstance(t, dict) or set(t) != set(TRANSFORM):
        out.append(f"{where}: Transform must have exactly {TRANSFORM}")
        return
    if not all(isinstance(t[k], (int, float)) and not isinstance(t[k], bool) for k in TRANSFORM):
        out.append(f"{where}: Transform values must be numbers")
    elif min(t["scaleX"], t["scaleY"], t["scaleZ"]) <= 0:
        out.append(f"{where}: a scale of 0 or less")


def _cards(where: str, obj: dict, state: dict, out: list[str]) -> None:
    decks = obj.get("CustomDeck")
    if not isinstance(decks, dict) or not decks:
        out.append(f"{where}: no CustomDeck")
        return
    for key, entry in decks.items():
        if not key.isdigit() or int(key) < 1:
            out.append(f"{where}: CustomDeck key {key!r} is not a positive integer")
            continue
        _typed(f"{where}.CustomDeck[{key}]", entry, DECK_KEYS, out)
        if not (1 <= entry.get("NumWidth", 0) <= 10 and 1 <= entry.get("NumHeight", 0) <= 7):
            out.append(
                f"{where}: CustomDeck[{key}] sheet of {entry.get('NumWidth')} x {entry.get('NumHeight')}"
            )
        seen = state["decks"].setdefault(int(key), entry)
        if seen != entry:  # one key, one sheet, in the whole file
            out.append(f"{where}: CustomDeck key {key} names two different sheets")
    ids = [obj["CardID"]] if obj.get("Name") == "Card" else obj.get("DeckIDs", [])
    if obj.get("Name") == "Card" and "DeckIDs" in obj:
        out.append(f"{where}: a lone card has DeckIDs")
    if obj.get("Name") != "Card":
        inner = [c.get("CardID") for c in obj.get("ContainedObjects", [])]
        if ids != inner:
            out.append(f"{where}: DeckIDs differ from the contained cards' CardIDs")
        if len(ids) < 2:
            out.append(f"{where}: a deck of {len(ids)} card(s): TTS holds one card as a lone Card")
        if any(c.get("Name") != "Card" for c in obj.get("ContainedObjects", [])):
            out.append(f"{where}: a deck holds something other than cards")
    for card_id in ids:
        entry = decks.get(str(card_id // 100)) if isinstance(card_id, int) else None
        if entry is None:
            out.append(
                f"{where}: CardID {card_id} has no CustomDeck {card_id // 100 if isinstance(card_id, int) else '?'}"
            )
        elif card_id % 100 >= entry["NumWidth"] * entry["NumHeight"]:
            out.append(
                f"{where}: CardID {card_id} is past its sheet's {entry['NumWidth']} x {entry['NumHeight']}"
            )


def _image(where: str, name: str, image, out: list[str]) -> None:
    if not isinstance(image, dict):
        out.append(f"{where}: no CustomImage")
        return
    extra = {"Custom_Tile": ("CustomTile", TILE_KEYS), "Custom_Token": ("CustomToken", TOKEN_KEYS)}.get(name)
    keys = dict(IMAGE_KEYS, **({extra[0]: dict} if extra else {}))
    _typed(f"{where}.CustomImage", image, keys, out)
    if not image.get("ImageURL"):
        out.append(f"{where}: no ImageURL")
    back = image.get("ImageSecondaryURL")
    if name == "Custom_Token" and back and back != image.get("ImageURL"):  # one image (Custom Token page)
        out.append(f"{where}: a custom token shows one image; its back is lost")
    if extra:
        _typed(f"{where}.{extra[0]}", image.get(extra[0], {}), extra[1], out)
        if image.get(extra[0], {}).get("Thickness", 0) <= 0:
            out.append(f"{where}: no thickness")
    if name == "Custom_Tile" and image.get("CustomTile", {}).get("Type") not in (0, 1, 2, 3):
        out.append(f"{where}: tile type must be 0 box, 1 hex, 2 circle or 3 rounded")


def underneath(piece: dict) -> str:
    """The image TTS shows on the other side of a custom tile or token: a tile's bottom image (its top one when
    it has none); a token has one image and shows it again underneath, so its back can only be another state."""
    image = piece["CustomImage"]
    if piece["Name"] == "Custom_Tile":
        return image.get("ImageSecondaryURL") or image["ImageURL"]
    assert piece["Name"] == "Custom_Token", piece["Name"]
    states = piece.get("States") or {}
    return states["2"]["CustomImage"]["ImageURL"] if "2" in states else image["ImageURL"]


def hands(data: dict) -> dict[str, dict]:
    """Each player colour's hand zone in a save (its Transform): where TTS seats that player and deals to."""
    return {o["FogColor"]: o["Transform"] for o in data["ObjectStates"] if o["Name"] == "HandTrigger"}


def in_hand(where: dict, hand: dict) -> bool:
    """Whether a point of the table (a Transform's x and z) lies under a hand zone, turned 0 or 180 degrees."""
    return abs(where["posX"] - hand["posX"]) <= hand["scaleX"] / 2 and abs(where["posZ"] - hand["posZ"]) <= (
        hand["scaleZ"] / 2
    )
