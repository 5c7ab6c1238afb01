"""Layout files: elements with templated values, `extends`, `vars`, `when` and `for_each`.

A layout is found by name: first in the game's own `layouts/` folder, then in the shared one. Templates are
compiled once here; evaluation per card happens in `layout.draw`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.source import LList, LMap, load_file
from pnpgen.templating import Compiler, Value

COMMON_KEYS = ("type", "id", "when", "for_each", "as")
ELEMENT_KEYS = {
    "rect": ("x", "y", "w", "h", "area", "radius", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "ellipse": ("x", "y", "w", "h", "area", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "line": ("x1", "y1", "x2", "y2", "stroke", "stroke_width", "dash"),
    "polygon": ("points", "fill", "stroke", "stroke_width", "dash", "opacity"),
    "text": ("x", "y", "w", "h", "text", "font", "size", "min_size", "color", "align", "valign", "leading"),
    "image": ("x", "y", "w", "h", "area", "src", "fit"),
    "icon": ("x", "y", "size", "w", "h", "name", "color"),
    "grid": (
        "x",
        "y",
        "w",
        "h",
        "cells",
        "cell_fill",
        "cell_stroke",
        "stroke_width",
        "gap",
        "radius",
        "icon_scale",
    ),
    "cells": (
        "x",
        "y",
        "w",
        "h",
        "shape",
        "cols",
        "rows",
        "cell_fill",
        "cell_stroke",
        "stroke_width",
        "fills",
        "icons",
        "labels",
        "skip",
        "font",
        "size",
        "color",
        "icon_scale",
    ),
    "track": (
        "x",
        "y",
        "w",
        "h",
        "count",
        "start",
        "fill",
        "stroke",
        "stroke_width",
        "every",
        "highlight",
        "font",
        "color",
    ),
}
REQUIRED = {
    "line": ("x1", "y1", "x2", "y2"),
    "polygon": ("points",),
    "text": ("x", "y", "w", "h", "text"),
    "image": ("src",),
    "icon": ("x", "y", "name"),
    "grid": ("x", "y", "w", "h", "cells"),
    "cells": ("x", "y", "w", "h", "cols", "rows"),
    "track": ("x", "y", "w", "h", "count"),
}
MAX_ELEMENTS = 2_000
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class Element:
    type: str
    id: str | None
    when: Value | None
    for_each: Value | None
    as_name: str
    props: dict  # key -> Value
    loc: Location


@dataclass(frozen=True)
class Layout:
    name: str
    path: Path
    vars: tuple  # ((name, Value), ...)
    elements: tuple  # Element, ...
    loc: Location
    files: tuple = ()  # this layout's file and those of every layout it extends
    card_deps: frozenset | None = None  # the card fields its templates read; None: the whole card


class LayoutLibrary:
    """Loads layouts by name from a search path, resolving `extends`; each file is read once."""

    def __init__(self, folders: list[Path], compiler: Compiler, reader=None):
        self.folders = [f for f in folders if f.is_dir()]
        self.compiler = compiler
        self._cache: dict[str, Layout] = {}
        self._files: dict[str, tuple] = {}

    def names(self) -> list[str]:
        return sorted({p.stem for f in self.folders for p in f.glob("*.yaml")})

    def find(self, name: str) -> Path | None:
        if not _NAME.match(name):  # a name, never a path: nothing can reach outside the layout folders
            return None
        for folder in self.folders:
            p = folder / f"{name}.yaml"
            if p.is_file():
                return p
        return None

    def files(self, name: str, loc: Location, _chain: tuple = ()) -> tuple:
        """The files of a layout and its `extends` chain, without compiling anything (for freshness checks)."""
        if name in self._cache:
            return self._cache[name].files
        if name in self._files:
            return self._files[name]
        self._files[name] = self._chain_files(name, loc, _chain)
        return self._files[name]

    def _chain_files(self, name: str, loc: Location, _chain: tuple) -> tuple:
        if not _NAME.match(name):
            raise ContentError.at(
                loc,
                f"layout name {name!r} must be lower-case letters, digits, '-' or '_' (a name, not a path)",
            )
        if name in _chain:
            raise ContentError.at(loc, f"layout '{name}' extends itself ({' -> '.join(_chain + (name,))})")
        path = self.find(name)
        if path is None:
            raise ContentError.at(loc, f"layout '{name}' not found", did_you_mean(name, self.names()))
        data = load_file(path, display_path(path))
        parent = data.get("extends") if isinstance(data, LMap) else None
        if parent is None:
            return (path,)
        return (path,) + self.files(str(parent), data.loc_of("extends"), _chain + (name,))

    def get(self, name: str, loc: Location, _chain: tuple = ()) -> Layout:
        if name in self._cache:
            return self._cache[name]
        if name in _chain:
            raise ContentError.at(loc, f"layout '{name}' extends itself ({' -> '.join(_chain + (name,))})")
        if not _NAME.match(name):
            raise ContentError.at(
                loc,
                f"layout name {name!r} must be lower-case letters, digits, '-' or '_' (a name, not a path)",
            )
        path = self.find(name)
        if path is None:
            raise ContentError.at(loc, f"layout '{name}' not found", did_you_mean(name, self.names()))
        layout = self._load(name, path, _chain + (name,))
        self._cache[name] = layout
        return layout

    def _load(self, name: str, path: Path, chain: tuple) -> Layout:
        display = display_path(path)
        data = load_file(path, display)
        if not isinstance(data, LMap):
            raise ContentError.at(Location(display, 1, 1), "a layout is a mapping with 'elements'")
        diags = Diagnostics()
        for key in data:
            if key not in ("extends", "vars", "elements", "description"):
                diags.error(
                    data.key_loc(key),
                    f"unknown key '{key}' in layout",
                    did_you_mean(str(key), ["extends", "vars", "elements", "description"]),
                )
        parent = None
        if "extends" in data:
            parent = self.get(str(data["extends"]), data.loc_of("extends"), chain)
        vars_ = list(parent.vars) if parent else []
        raw_vars = data.get("vars", LMap())
        if not isinstance(raw_vars, LMap):
            diags.error(data.loc_of("vars"), "'vars' must map names to values")
        else:
            for key, raw in raw_vars.items():
                try:
                    value = self.compiler.value(raw, raw_vars.loc_of(key))
                except ContentError as exc:
                    diags.extend(exc.diagnostics)
                    continue
                vars_ = [(k, v) for k, v in vars_ if k != key] + [(str(key), value)]
        elements = list(parent.elements) if parent else []
        raw_elements = data.get("elements", LList())
        if not isinstance(raw_elements, LList):
            diags.error(data.loc_of("elements"), "'elements' must be a list of elements")
            raw_elements = LList()
        for i, raw in enumerate(raw_elements):
            try:
                el = self._element(raw, raw_elements.loc_at(i), diags)
            except ContentError as exc:
                diags.extend(exc.diagnostics)
                continue
            if el is None:
                continue
            if el.id is not None and any(e.id == el.id for e in elements):
                elements = [el if e.id == el.id else e for e in elements]
            else:
                elements.append(el)
        if len(elements) > MAX_ELEMENTS:
            diags.error(data.loc, f"layout has {len(elements)} elements; the limit is {MAX_ELEMENTS}")
        diags.raise_if_errors()
        files = (path,) + (parent.files if parent else ())
        return Layout(name, path, tuple(vars_), tuple(elements), data.loc, files, self._deps(vars_, elements))

    def _deps(self, vars_, elements):
        used: set = set()
        values = [v for _, v in vars_]
        for el in elements:
            values += list(el.props.values()) + [v for v in (el.when, el.for_each) if v is not None]
        for v in values:
            d = self.compiler.deps(v)
            if d is None:
                return None
            used |= d
        return frozenset(used)

    def _element(self, raw, loc: Location, diags: Diagnostics) -> Element | None:
        if not isinstance(raw, LMap):
            diags.error(loc, "an element is a mapping with a 'type'")
            return None
        etype = raw.get("type")
        if etype not in ELEMENT_KEYS:
            where = raw.loc_of("type") if "type" in raw else raw.loc
            diags.error(
                where,
                f"unknown element type '{etype}'" if etype else "element needs 'type'",
                did_you_mean(str(etype or ""), ELEMENT_KEYS),
            )
            return None
        allowed = set(COMMON_KEYS) | set(ELEMENT_KEYS[etype])
        ok = True
        for key in raw:
            if key not in allowed:
                diags.error(
                    raw.key_loc(key),
                    f"unknown key '{key}' in {etype} element",
                    did_you_mean(str(key), allowed),
                )
                ok = False
        for key in REQUIRED.get(etype, ()):
            if key not in raw:
                diags.error(raw.loc, f"{etype} element needs '{key}'")
                ok = False
        if etype in ("rect", "ellipse", "image") and "area" not in raw:
            for key in ("x", "y", "w", "h"):
                if key not in raw:
                    diags.error(raw.loc, f"{etype} element needs '{key}' (or 'area: bleed|trim|safe')")
                    ok = False
        if not ok:
            return None
        props = {}
        for key in ELEMENT_KEYS[etype]:
            if key in raw:
                props[key] = self.compiler.value(raw[key], raw.loc_of(key))
        when = self.compiler.expression(raw["when"], raw.loc_of("when")) if "when" in raw else None
        for_each = (
            self.compiler.expression(raw["for_each"], raw.loc_of("for_each")) if "for_each" in raw else None
        )
        return Element(etype, raw.get("id"), when, for_each, str(raw.get("as", "item")), props, loc)
