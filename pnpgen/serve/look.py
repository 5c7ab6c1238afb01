"""What the editor shows of one card: each face drawn large, and the layout elements that drew it.

A card's front and back are drawn as the build draws them (`Painter.card`), with `FaceContext.origins` on: each
face's operations are traced to the elements that drew them (as shop preflight does). For each element the page
is given its box on the face in millimetres (its declared `x y w h`, `area`, `size` or end points, evaluated for
this card; or what it drew), the file and line that define it (the right file of an `extends` chain), its index
in that file's `elements:` list, its values as written, and whether it can be moved or resized by hand, and if
not, why and which line to edit instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpgen import units
from pnpgen.errors import ContentError, Diagnostics, Location, printable
from pnpgen.faces import Ellipse, Icon, Image, Line, Polygon, Rect, Text, Vector, turned
from pnpgen.sheetkinds import kind_of

ZOOM_DPI = 220  # the editor's faces: a poker card about 550 px wide, sharp at twice the page's size
MAX_PX = 2400  # ... and a board's longest side at most this many pixels
MOVE_KEYS = {"line": ("x1", "y1", "x2", "y2")}  # what a move shifts; any other type: x and y
SIZE_KEYS = {"line": ("x1", "y1", "x2", "y2"), "icon": ("size",)}  # what a resize sets (a line: either end's
# handle); any other type: w and h


def mm(pt: float) -> float:
    return round(units.mm(pt), 3)


def element_box(el, ctx: dict, fc, ops: list) -> tuple[float, float, float, float] | None:
    """The element's box in points, as its values give it for this card; else the extent of what it drew."""
    from pnpgen.layout.draw import element_box as values_box

    try:
        box = values_box(el, ctx, fc)
    except Exception:  # noqa: BLE001 - a value this card cannot give: the extent drawn is shown instead
        box = None
    if box is not None:
        return box
    return extent(ops)


def extent(ops: list) -> tuple[float, float, float, float] | None:
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        if isinstance(op, (Rect, Ellipse, Icon, Image, Vector)):
            xs += [op.x, op.x + op.w]
            ys += [op.y, op.y + op.h]
        elif isinstance(op, Line):
            xs += [op.x1, op.x2]
            ys += [op.y1, op.y2]
        elif isinstance(op, Polygon):
            xs += [x for x, _ in op.points]
            ys += [y for _, y in op.points]
        elif isinstance(op, Text):
            x0, y0, x1, y1 = turned(
                op, (op.x, op.y - op.size, op.x + 0.5 * op.size * len(op.text), op.y + 0.25 * op.size)
            )
            xs += [x0, x1]
            ys += [y0, y1]
    if not xs:
        return None
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _written(value) -> Any:
    """A value as the page shows it in the properties panel: the text written in the file."""
    raw = value.raw
    return raw if isinstance(raw, (str, int, float, bool)) or raw is None else printable(repr(raw))


def editable(el, keys: tuple[str, ...], what: str) -> str:
    """'' when every key of `keys` is a plain number in the file; else why the element cannot be `what`."""
    if el.for_each is not None:
        return f"made by 'for_each' ({el.for_each.loc}): edit that line"
    if "area" in el.props:
        return f"fills the area '{el.props['area'].raw}' ({el.props['area'].loc}): remove 'area' to place it"
    for key in keys:
        value = el.props.get(key)
        if value is None:
            continue
        if not value.is_constant:
            return f"its '{key}' is a template ({value.loc}): edit that line to {what} it"
        if isinstance(value.raw, bool) or not isinstance(value.raw, (int, float)):
            return f"its '{key}' is {value.raw!r} ({value.loc}), not a number of millimetres: edit that line"
    if keys and all(key not in el.props for key in keys) and keys != ("size",):
        return f"it gives no {'/'.join(keys)}"
    return ""


class Writable:
    """Which files the page may write: the game's own layouts and the files its cards are read from
    (`pnpgen.edit.writable_reason`, the engine's rule; a shared or built-in layout is copied into the game
    first)."""

    def __init__(self, game_root: Path, card_files: frozenset[Path] = frozenset()):
        self.root, self.card_files = game_root, card_files

    def why_not(self, path: Path) -> str:
        from pnpgen.edit import writable_reason

        return writable_reason(self.root, path, self.card_files)


def look(game, reader, library, icons, fonts, component: str, index: int) -> dict:
    """Card `index` of deck `component` of `game` (or side `index` of a board): each face's size, and its
    elements (see the module)."""
    from pnpgen.model import Board, Deck
    from pnpgen.pipeline.faces import Painter

    comp = next((c for c in game.components if c.id == component), None)
    painter = Painter(game, library, icons, reader, fonts)
    game_info = {"id": game.id, "title": game.title, "players": game.players}
    if isinstance(comp, Board) and 0 <= index < len(comp.sides):
        return _board(game, comp, index, painter, library, reader, game_info)
    if not isinstance(comp, Deck) or not 0 <= index < len(comp.cards):
        raise KeyError(component)
    deck, card = comp, comp.cards[index]
    fc = painter.context(deck)
    fc.origins = {}
    front, back, ok = painter.card(deck, card, fc, Diagnostics())
    deck_info = {"id": deck.id, "name": deck.name, "count": deck.faces}
    extra = {"index": card.index, "count": card.count, "designed": card.designed}
    faces = []
    for side, face, ref in (("front", front, deck.front_for(card)), ("back", back, deck.back_for(card))):
        if face is None or ref is None:
            continue
        fields = {**ref.fields, **card.fields} if side == "front" else {**card.fields, **ref.fields}
        layout = library.get(ref.layout, ref.loc)
        faces.append(
            _face(side, face, layout, fc, {**fields, **extra}, deck_info, game_info, deck.safe_pt, reader)
        )
    return {
        "game": game.id,
        "component": deck.id,
        "card": index,
        "name": card.name,
        "source": card.loc.place(),  # a sheet card: its row's cell, as the page and the build name it
        "ok": ok,
        "faces": faces,
        "cards": [{"name": c.name, "line": c.loc.line, "fields": filterable(c)} for c in deck.cards],
        "card_edit": card_fields(deck, index),
    }


def filterable(card) -> dict[str, str]:
    """A card's scalar fields as text, for the card list's filter by a field's value."""
    return {
        str(k): "" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
        for k, v in card.fields.items()
        if isinstance(v, (str, int, float, bool)) or v is None
    }


def card_fields(deck, index: int) -> dict:
    """Card `index`'s own values as the page may edit them: where it is written (its file, its position among
    that file's cards) and its scalar fields; a workbook is shown read-only, with the place to change it."""
    card = deck.cards[index]
    here = (card.loc.path, card.loc.sheet)  # its place in its file counts the cards left out (`count: 0`) too
    before = [
        c for c in (*deck.cards, *deck.left_out) if c.index < card.index and (c.loc.path, c.loc.sheet) == here
    ]
    values = {"name": card.name}
    for key, value in card.fields.items():
        if isinstance(value, (str, int, float, bool)) or value is None:
            values[str(key)] = value
    remote = card.loc.path[:8].lower().startswith(("http://", "https://"))  # a sheet fetched from a URL
    kind = None if remote else kind_of(card.loc.path)  # None: a component's own YAML file
    readonly = (
        f"a sheet from a URL, shown read-only: change it where it is published, at {card.loc}"
        if remote
        else f"a {kind.name}, shown read-only: change it at {card.loc}"
        if kind and not kind.edited
        else ""
    )
    return {
        "file": card.loc.path,
        "at": str(card.loc),
        "pos": len(before),
        "fields": values,
        "readonly": readonly,
    }


def _board(game, board, index: int, painter, library, reader, game_info: dict) -> dict:
    """Side `index` of `board`, drawn as `Painter.board` draws it (the same face context, with origins)."""
    from pnpgen.layout.draw import FaceContext, draw_face

    fc = FaceContext(
        board.width_pt,
        board.height_pt,
        board.bleed_pt,
        0.0,
        dict(painter.palette),
        painter.icons,
        game.root / "art",
        board=board.data,
        reader=reader,
        fonts=painter.fonts,
    )
    fc.origins = {}
    side = board.sides[index]
    info = {"id": board.id, "name": board.name, "count": len(board.sides)}
    layout = library.get(side.layout.layout, side.layout.loc)
    names_ = _names(fc, dict(side.fields), info, game_info)
    face = draw_face(layout, fc, names_, f"side '{side.id}' of board '{board.id}'", Diagnostics())
    faces = (
        []
        if face is None
        else [_face("side", face, layout, fc, dict(side.fields), info, game_info, 0.0, reader)]
    )
    return {
        "game": game.id,
        "component": board.id,
        "card": index,
        "name": side.name,
        "source": side.loc.place(),
        "ok": face is not None,
        "faces": faces,
        "cards": [{"name": s.name, "line": s.loc.line} for s in board.sides],
    }


def _names(fc, fields: dict, info: dict, game_info: dict) -> dict:
    from pnpgen.layout.draw import template_names

    return template_names(fc, fields, info, game_info)


def _face(
    side: str, face, layout, fc, fields: dict, info: dict, game_info: dict, safe_pt: float, reader
) -> dict:
    """One face for the page: its size and lines in mm, and each element that drew on it."""
    ctx = dict(_names(fc, fields, info, game_info))
    try:
        for name, value in layout.vars:
            ctx[name] = value(ctx)
    except Exception:  # noqa: BLE001 - the face drew, so its vars evaluate; a guard all the same
        pass
    spans, _label, _loc = fc.origins.get(face, ((), "", layout.loc))
    writable = Writable(Path(fc.art_root).parent)
    return {
        "side": side,
        "face": face,
        "layout": layout.name,
        "w": mm(face.width_pt),
        "h": mm(face.height_pt),
        "bleed": mm(face.bleed_pt),
        "safe": mm(safe_pt),
        "shape": face.shape,
        "elements": [
            _element(n, el, ctx, fc, list(face.ops[a:b]), writable, reader)
            for n, (a, b, el) in enumerate(spans)
        ],
        "warnings": _warnings(face, spans, fc),
    }


def _warnings(face, spans, fc) -> list[dict]:
    """The layout warnings `build` gives, on this face (`layout.warnings.face_warnings`), boxes in mm."""
    from pnpgen.layout.warnings import face_warnings

    try:
        found = face_warnings(face, spans, fc)
    except Exception:  # noqa: BLE001 - a warning that cannot be worked out does not keep the face from the page
        return []
    return [
        {
            "kind": w.kind,
            "message": printable(w.message),
            "at": str(w.loc),
            "box": [mm(v) for v in w.box],
            "other": None if w.other is None else str(w.other),
        }
        for w in found
    ]


def _element(n: int, el, ctx: dict, fc, ops: list, writable: Writable, reader) -> dict:
    box = element_box(el, ctx, fc, ops)
    path = Path(el.loc.path)
    refused = writable.why_not(path)
    moves = MOVE_KEYS.get(el.type, ("x", "y"))
    sizes = SIZE_KEYS.get(el.type, ("w", "h"))
    why_move = refused or editable(el, moves, "move")
    # a box's width and height each by itself (a text whose `w` is a template can still be made taller)
    each = [(k,) for k in sizes] if el.type not in SIZE_KEYS else [sizes]
    whys = [refused or editable(el, keys, "resize") for keys in each]
    resizable = [k for keys, why in zip(each, whys) if not why for k in keys]
    why_size = next((why for why in whys if why), "")
    return {
        "n": n,
        "id": el.id,
        "type": el.type,
        "at": str(el.loc),
        "file": el.loc.path,
        "line": el.loc.line,
        "index": _index_in_file(path, el.loc, reader),
        "box": None if box is None else [mm(v) for v in box],
        "values": {k: _written(v) for k, v in el.props.items()},
        "keys": [k for k in el.definition.keys if k not in el.props],  # what the panel may add
        "lines": {k: v.loc.line for k, v in el.props.items()},
        "move": [] if why_move else list(moves),
        "resize": resizable,
        "why_move": why_move,
        "why_resize": why_size,  # why not, or why only in one direction
        "readonly": refused,
    }


def _index_in_file(path: Path, loc: Location, reader) -> int | None:
    """The element's position in its file's `elements:` list (found by where it starts)."""
    try:
        data = reader.load_yaml(path, "layout")
    except (ContentError, OSError):
        return None
    elements = data.get("elements") if hasattr(data, "get") else None
    if elements is None or not hasattr(elements, "loc_at"):
        return None
    for i in range(len(elements)):
        at = elements.loc_at(i)
        if (at.line, at.col) == (loc.line, loc.col):
            return i
    return None
