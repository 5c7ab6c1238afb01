"""The layout element types, one module each; `TYPES` maps each type's name to its `ElementType`.

A module of this package that defines `TYPE = ElementType(...)` is an element type: its name (the module's
name, '-' for '_'), its keys with the kind of value each takes, which of them are required, and its draw
function, and an example of one element with the operations it draws. Nothing else lists element types:
`layout.spec` validates layouts from `TYPES`, `layout.draw` draws through it, and tests/test_elements.py draws
every type's example. Adding an element type is one new module here and one row of docs/content-format.md.
"""

from __future__ import annotations

import importlib
import pkgutil

from pnpgen.layout.kinds import ElementType, Kind

COMMON_KEYS = ("type", "id", "when", "for_each", "as", "overlap", "small_text")


def _check(module: str, t: ElementType) -> None:
    """An element type that contradicts itself is a programming error, caught on import."""
    problems = []
    if t.name.replace("-", "_") != module:
        problems.append(f"is named '{t.name}' in module '{module}'")
    problems += [f"declares the common key '{k}'" for k in t.keys if k in COMMON_KEYS]
    problems += [f"requires '{k}', which it does not declare" for k in t.required if k not in t.keys]
    problems += [f"key '{k}' is not a Kind" for k, kind in t.keys.items() if not isinstance(kind, Kind)]
    if not t.example or not t.draws:
        problems.append("gives no example (and the operations it draws) for the tests to draw")
    if t.text_size is not None and t.text_size not in t.keys:
        problems.append(f"names '{t.text_size}' as its text size, which it does not declare")
    if t.area and not {"area", "x", "y", "w", "h"} <= set(t.keys):
        problems.append("takes an area but not all of area, x, y, w, h")
    if problems:
        raise TypeError(f"element type in pnpgen.layout.elements.{module}: " + "; ".join(problems))


def _discover() -> dict[str, ElementType]:
    types: dict[str, ElementType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        t = getattr(module, "TYPE", None)
        if not isinstance(t, ElementType):
            raise TypeError(f"pnpgen.layout.elements.{info.name} defines no TYPE = ElementType(...)")
        _check(info.name, t)
        types[t.name] = t
    return types


TYPES: dict[str, ElementType] = _discover()
