"""Which file defines an element of a layout as the build finds it (the `extends` chain), whether a drag may
move it, and which files of a game the editor may write at all."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pnpgen.edit.layout import Ref, Where, open_layout
from pnpgen.errors import ContentError, Location, display_path
from pnpgen.sheetkinds import kind_of
from pnpgen.source import LMap

BOX_KEYS = ("x", "y")


def _is_template(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def locate(project: Any, game_root: Path, layout: str, element: Ref | Any) -> Where:
    """Where the element of the layout `layout` (found as the game's build finds it) is defined: `element` is
    its `id:`, its position in the layout as built (the parents' elements first) from 0, or the built
    `layout.spec.Element` itself (what `FaceContext.origins` names for each drawn span)."""
    from pnpgen.layout.spec import LayoutLibrary
    from pnpgen.templating import Compiler

    lib = LayoutLibrary(project.layout_folders(game_root), Compiler(), project.reader(game_root))
    built = lib.get(layout, Location(display_path(game_root)))
    if hasattr(element, "loc") and hasattr(element, "definition"):  # the element as built
        el = element
    elif isinstance(element, int) and not isinstance(element, bool):
        if not 0 <= element < len(built.elements):
            raise ContentError.at(built.loc, f"layout '{layout}' has {len(built.elements)} elements (from 0)")
        el = built.elements[element]
    else:
        el = next((e for e in built.elements if e.id == element), None)
        if el is None:
            raise ContentError.at(built.loc, f"layout '{layout}' has no element with id '{element}'")
    name: str | None = layout
    while name is not None:
        path = lib.find(name)
        if path is None:
            break
        o = open_layout(path, None)
        for i, raw in enumerate(o.raw):
            loc = o.raw.loc_at(i)
            if (loc.path, loc.line, loc.col) == (el.loc.path, el.loc.line, el.loc.col):
                return _where(path, i, raw, loc, game_root)
        parent = o.data.get("extends")
        name = str(parent) if parent is not None else None
    raise ContentError.at(el.loc, "cannot find the file that defines this element")


def _where(path: Path, i: int, raw: Any, loc: Location, game_root: Path) -> Where:
    ident = raw.get("id") if isinstance(raw, LMap) else None
    line = loc.line

    def no(why: str, key: str | None = None) -> Where:
        at = raw.loc_of(key).line if key and isinstance(raw, LMap) else line
        return Where(path, line, i, ident, False, why, at)

    if not isinstance(raw, LMap):
        return no("it is not written as a mapping here")
    why = writable_reason(game_root, path)
    if why:
        return no(why)
    if "for_each" in raw:
        return no("it is made by 'for_each' (one copy per item): edit its values in the file", "for_each")
    if "area" in raw and not all(k in raw for k in BOX_KEYS):
        return no(f"its box is the area '{raw['area']}': give it x, y, w and h to move it", "area")
    for key in ("x", "y", "w", "h"):
        if _is_template(raw.get(key)):
            return no(f"its '{key}' is a template ({raw[key]}): edit that line", key)
    return Where(path, line, i, ident, True)


def writable_reason(game_root: Path, path: Path, card_files: Iterable[Path] = ()) -> str:
    """Why the editor may not write `path` ('' when it may): only a layout file in the game's own `layouts/`
    (a shared or built-in layout is copied into the game first) or one of `card_files` inside the game folder,
    the files its decks read their cards from (`card_files_of`)."""
    try:
        real, root = path.resolve(), game_root.resolve()
    except OSError:
        return "it cannot be found"
    if path.is_symlink() or not real.is_file():
        return "it is not a plain file"
    try:
        rel = real.relative_to(root)
    except ValueError:
        return (
            "it is outside the game's folder (a shared or built-in layout: copy it into the game's layouts/)"
        )
    if rel.parts[0] == "layouts" and len(rel.parts) == 2 and rel.suffix == ".yaml":
        return ""
    if any(_real(p) == real for p in card_files):
        return ""
    return "it is neither one of the game's layout files nor a file its cards are read from"


def _real(path: Path) -> Path | None:
    try:
        return path.resolve()
    except OSError:
        return None


def card_files_of(decks: Iterable[Any], project_root: Path) -> set[Path]:
    """The files a game's decks read their cards from: each component's file and its data sheet."""
    from pnpgen.bounds.remote import REMOTE
    from pnpgen.inputs import path_of

    out: set[Path] = set()
    for deck in decks:
        out.add(Path(deck.path))
        for key in getattr(deck, "inputs", {}):
            if getattr(kind_of(key), "edited", False) and not key.startswith(REMOTE):
                out.add(path_of(key, project_root))
    return out
