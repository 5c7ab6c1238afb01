"""Layout files: elements with templated values, `extends`, `vars`, `when` and `for_each`.

A layout is found by name in the folders it is given, in order: for a build (`Project.layout_folders`) the game's
own `layouts/`, the shared `layouts/` beside the content folder, then pnpgen's built-in layouts. Templates are
compiled once here; evaluation per card happens in `layout.draw`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.inputs import Reader
from pnpgen.layout.elements import COMMON_KEYS, TYPES
from pnpgen.layout.kinds import Bad, ElementType, Known
from pnpgen.names import DEVICE_RULE, RULE, is_name, rule_of
from pnpgen.source import LList, LMap
from pnpgen.templating import Compiler, Value

MAX_ELEMENTS = 2_000
LAYOUT_KEYS = ("extends", "vars", "elements", "description")
MAX_EXTENDS = 32  # a layout extends one that extends one... at most this deep
PER_CARD = (
    "a layout name is not a template; to choose a layout per card, give each card its own `front:` or `back:` "
    "(in a data sheet, a `front` or `back` column naming the layout), or keep one layout and draw its elements "
    "`when:` a field says so"
)


@dataclass(frozen=True)
class Element:
    type: str
    id: str | None
    when: Value | None
    for_each: Value | None
    as_name: str
    props: dict  # key -> Value
    loc: Location
    definition: ElementType  # what the type takes and how it draws (`pnpgen.layout.elements`)
    overlap: str | None = None  # "allowed": meant to overlap (no layout warning names it)
    small_text: str | None = None  # "allowed": text meant to be set under the size floors (draw.check_size)


@dataclass(frozen=True)
class Layout:
    name: str
    path: Path
    vars: tuple  # ((name, Value), ...)
    elements: tuple  # Element, ...
    loc: Location
    card_deps: frozenset | None = None  # the card fields its templates read; None: the whole card


class LayoutLibrary:
    """Loads layouts by name from a search path, resolving `extends`; each file is read once, through `reader`.

    What loading a layout read (its file, those it extends, the lookups that found nothing) is recorded once and
    replayed into the reader's open recordings on every `get`, so whoever uses a layout records its inputs.
    Constant values are checked against their keys' kinds as the layout loads; `palette` and `icons`, when
    given, let colours and icon names be checked then too (else they are checked per card)."""

    def __init__(
        self,
        folders: list[Path],
        compiler: Compiler,
        reader: Reader | None = None,
        palette: Mapping[str, str] | None = None,
        icons: Mapping[str, Any] | None = None,
        fonts: Mapping[str, str] | None = None,
    ):
        self.folders = list(folders)
        self.compiler = compiler
        if reader is None:
            existing = [f for f in self.folders if f.is_dir()]
            parent = Path(os.path.commonpath([f.resolve() for f in existing])) if existing else Path.cwd()
            reader = Reader(existing, parent)
        self.reader = reader
        self.known = Known(palette, icons, fonts)
        self._cache: dict[str, tuple[Layout, dict[str, str]]] = {}

    def names(self) -> list[str]:
        return sorted({p.stem for f in self.folders for p in self.reader.listing(f, "*.yaml")})

    def looked_in(self) -> str:
        """Where `find` looks, in order, as a message shows it (a folder that is not there is still named)."""
        return "(looked in " + ", then ".join(display_path(f) + os.sep for f in self.folders) + ")"

    def find(self, name: str, loc: Location | None = None) -> Path | None:
        """The first folder's `<name>.yaml`; every folder looked in is recorded, a file not there too.

        Something there that the reader refuses (a link leaving the roots, a folder, a pipe) is an error at
        `loc`, never skipped for a shared layout of the same name."""
        if not is_name(name):  # a name, never a path: nothing can reach outside the layout folders
            return None
        for folder in self.folders:
            p = folder / f"{name}.yaml"
            if self.reader.probe(p, "layout", loc):
                return p
        return None

    def get(self, name: str, loc: Location, _chain: tuple = (), _origin: Location | None = None) -> Layout:
        """The layout `name`; `loc` is where it is named. (`_chain` and `_origin`: the layouts extending it, and
        where the first of them says `extends`, which is where a chain too long is reported.)"""
        if name in self._cache:
            layout, recorded = self._cache[name]
            self.reader.replay(recorded)
            return layout
        if name in _chain:
            raise ContentError.at(loc, f"layout '{name}' extends itself ({' -> '.join(_chain + (name,))})")
        if len(_chain) > MAX_EXTENDS:
            shown = " -> ".join(_chain[:4]) + f" -> ... -> {name}"
            raise ContentError.at(
                _origin or loc,
                f"layouts extend one another too deeply ({shown}: more than {MAX_EXTENDS} deep)",
            )
        if not is_name(name):
            raise ContentError.at(
                loc,
                f"layout name {name!r} must be lower-case letters, digits, '-' or '_' (a name, not a path)"
                if rule_of(name) == RULE
                else f"layout name {name!r} must be {DEVICE_RULE}",
                PER_CARD if "{{" in name or "{%" in name else "",
            )
        with self.reader.recording() as recorded:
            path = self.find(name, loc)
            if path is None:
                raise ContentError.at(
                    loc, f"layout '{name}' not found {self.looked_in()}", did_you_mean(name, self.names())
                )
            layout = self._load(name, path, _chain + (name,), _origin)
        self._cache[name] = (layout, dict(recorded))
        return layout

    def _load(self, name: str, path: Path, chain: tuple, origin: Location | None) -> Layout:
        display = display_path(path)
        data = self.reader.load_yaml(path, "layout")
        if not isinstance(data, LMap):
            raise ContentError.at(Location(display, 1, 1), "a layout is a mapping with 'elements'")
        diags = Diagnostics()
        for key in data:
            if key not in LAYOUT_KEYS:
                diags.error(
                    data.key_loc(key), f"unknown key '{key}' in layout", did_you_mean(str(key), LAYOUT_KEYS)
                )
        parent = None
        if "extends" in data:
            at = data.loc_of("extends")
            parent = self.get(str(data["extends"]), at, chain, origin or at)
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
        duplicate_ids(raw_elements, diags)
        if len(elements) > MAX_ELEMENTS:
            diags.error(data.loc, f"layout has {len(elements)} elements; the limit is {MAX_ELEMENTS}")
        diags.raise_if_errors()
        return Layout(name, path, tuple(vars_), tuple(elements), data.loc, self._deps(vars_, elements))

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

    def element(self, raw, loc: Location, diags: Diagnostics) -> Element | None:
        """One element of a layout file checked by its type's field tables (None, and `diags` told, when bad)."""
        return self._element(raw, loc, diags)

    def _element(self, raw, loc: Location, diags: Diagnostics) -> Element | None:
        if not isinstance(raw, LMap):
            diags.error(loc, "an element is a mapping with a 'type'")
            return None
        etype = raw.get("type")
        definition = TYPES.get(etype) if isinstance(etype, str) else None
        if definition is None:
            where = raw.loc_of("type") if "type" in raw else raw.loc
            diags.error(
                where,
                f"unknown element type '{etype}'" if etype else "element needs 'type'",
                did_you_mean(str(etype or ""), TYPES),
            )
            return None
        allowed = set(COMMON_KEYS) | set(definition.keys)
        if definition.text_size is None:  # `small_text: allowed` is for what sets text
            allowed.discard("small_text")
        ok = True
        for key in raw:
            if key == "small_text" and key not in allowed:
                sets = ", ".join(sorted(n for n, t in TYPES.items() if t.text_size))
                diags.error(raw.key_loc(key), f"a {etype} element sets no text: 'small_text' is for {sets}")
                ok = False
            elif key not in allowed:
                diags.error(
                    raw.key_loc(key),
                    f"unknown key '{key}' in {etype} element",
                    did_you_mean(str(key), allowed),
                )
                ok = False
        for key in definition.required:
            if key not in raw:
                diags.error(raw.loc, f"{etype} element needs '{key}'")
                ok = False
        if definition.area and "area" not in raw:
            for key in ("x", "y", "w", "h"):
                if key not in raw:
                    diags.error(raw.loc, f"{etype} element needs '{key}' (or 'area: bleed|trim|safe')")
                    ok = False
        if not ok:
            return None
        props = {}
        for key, kind in definition.keys.items():
            if key in raw:
                value = props[key] = self.compiler.value(raw[key], raw.loc_of(key))
                if value.is_constant:  # checked once here; a template is checked per card
                    try:
                        kind.parse(value.raw, self.known)
                    except Bad as exc:
                        diags.error(value.loc, f"'{key}' {exc.message}")
                        ok = False
        if not ok:
            return None
        for key in ("overlap", "small_text"):
            if key in raw and raw[key] != "allowed":
                diags.error(raw.loc_of(key), f"'{key}' takes only 'allowed' (got {raw[key]!r})")
                return None
        if "id" in raw and (
            not isinstance(raw["id"], str) or not raw["id"].strip() or not raw["id"].isprintable()
        ):
            diags.error(raw.loc_of("id"), f"'id' must be a name of printable characters (got {raw['id']!r})")
            return None
        when = self.compiler.expression(raw["when"], raw.loc_of("when")) if "when" in raw else None
        for_each = (
            self.compiler.expression(raw["for_each"], raw.loc_of("for_each")) if "for_each" in raw else None
        )
        return Element(
            definition.name,
            raw.get("id"),
            when,
            for_each,
            str(raw.get("as", "item")),
            props,
            loc,
            definition,
            raw.get("overlap"),
            raw.get("small_text"),
        )


def duplicate_ids(raw_elements: LList, diags: Diagnostics) -> None:
    """An `id:` names one element of a layout file (a layout that extends another replaces the parent's element
    of the same id); a second element of one file with the same id is an error at its `id:`."""
    seen: dict = {}
    for raw in raw_elements:
        if isinstance(raw, LMap) and "id" in raw:
            ident = raw["id"]
            if ident in seen:
                diags.error(raw.loc_of("id"), f"duplicate id '{ident}' (first at line {seen[ident].line})")
            else:
                seen[ident] = raw.loc_of("id")
