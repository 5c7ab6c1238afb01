"""`hexmap`: hex cells placed by offset or axial coordinates from data, each with its fill, label and icon; the
coastline of the cells that are land (the boundary of their union, as closed paths); piers on chosen coast
sides (a side's midpoint, drawn outward along its normal)."""

from __future__ import annotations

from collections.abc import Mapping

from pnpgen.faces import Line, Polygon
from pnpgen.layout.draw import DrawProblem
from pnpgen.layout.elements import _hexes as hexes
from pnpgen.layout.elements._place import AnyList, icon, label, pair, plain
from pnpgen.layout.kinds import COLOUR, ICON, Choice, Colour, ElementType, FontName, Length, Number, Text

_CELL_KEYS = ("at", "col", "row", "q", "r", "fill", "stroke", "label", "icon", "land")
_NO = (False, "false", "no", "n", "0", 0)
_PIER_KEYS = ("cell", "col", "row", "q", "r", "side", "icon", "label")
_COMPASS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
MAX_CELLS = 5_000  # cells (and piers) on one map: a 70 x 70 board, well inside a face's shapes


def draw(p, fc, ops, label_, diags) -> None:
    orient, system = p.get("orient"), p.get("coords")
    size = p.get("size")
    x0, y0 = p.get("x"), p.get("y")
    font, tsize, colour = p.get("font"), p.get("label_size"), p.get("color") or "#000000"
    side_icon = size * p.get("icon_scale")
    cells = _cells(p, system, label_)
    for (q, r), spec, _ in cells.values():
        dx, dy = hexes.centre(orient, size, q, r)
        cx, cy = x0 + dx, y0 + dy
        fill = p.parse(COLOUR, spec["fill"], "cells") if "fill" in spec else p.get("fill")
        stroke = p.parse(COLOUR, spec["stroke"], "cells") if "stroke" in spec else p.get("stroke")
        points = tuple(hexes.corners(orient, size, cx, cy))
        ops.append(Polygon(points, fill, stroke, p.get("stroke_width")))
        if spec.get("icon"):
            icon(ops, p.parse(ICON, spec["icon"], "cells"), cx, cy, side_icon, None)
        said = p.parse(Text(60), spec.get("label"), "cells")
        text = plain(p, fc, said, "cells", label_, "to draw it, give the cell `icon: {name}`")
        label(ops, text, cx, cy, font, tsize, colour)
    land = {qr for qr, spec, _ in cells.values() if _land(spec.get("land", True))}
    coast = p.get("coast")
    if coast is not None:
        for path in hexes.coastlines(orient, size, x0, y0, land):
            ops.append(Polygon(tuple(path), None, coast, p.get("coast_width")))
    _piers(p, fc, orient, system, size, x0, y0, cells, land, ops, label_)


def _cells(p, system, label_):
    """{axial (q, r): ((q, r), the cell's keys, its place in the list)} in the list's order. Every bad cell is
    reported, each where it is written: a data sheet's row or cell, a YAML line, else the layout's `cells`."""
    out: dict = {}
    what = "[col, row]" if system != "axial" else "[q, r]"
    a, b = ("q", "r") if system == "axial" else ("col", "row")
    other = ("col", "row") if system == "axial" else ("q", "r")
    cells = p.get("cells")
    if len(cells) > MAX_CELLS:
        p.fail("cells", f"has {len(cells):,} cells; a map holds at most {MAX_CELLS:,}")
    bad: list = []
    for n, raw in enumerate(cells, 1):
        spec = dict(raw.items()) if isinstance(raw, Mapping) else {"at": raw}
        spec = {k: v for k, v in spec.items() if v not in (None, "")}  # a sheet's empty cell: not given
        unknown = [k for k in spec if k not in _CELL_KEYS]
        if unknown:
            bad.append(
                _at(
                    p,
                    raw,
                    unknown[0],
                    f"cell {n} has the key '{unknown[0]}'; a cell takes {', '.join(_CELL_KEYS)}",
                )
            )
            continue
        if "at" not in spec and not (a in spec or b in spec) and (other[0] in spec or other[1] in spec):
            key = other[0] if other[0] in spec else other[1]
            bad.append(
                _at(
                    p,
                    raw,
                    key,
                    f"cell {n} gives {other[0]}, {other[1]} but this map's coords are {system}: give {a}, {b}",
                )
            )
            continue
        if "at" not in spec and (a in spec or b in spec):  # a data sheet's two columns
            spec["at"] = [spec.pop(a, None), spec.pop(b, None)]
            key = a if pair([spec["at"][0], 0]) is None else b
        else:
            key = "at"
        at = pair(spec.get("at"))
        if at is None:
            bad.append(
                _at(p, raw, key, f"cell {n}: 'at' must be two whole numbers {what} (got {spec.get('at')!r})")
            )
            continue
        qr = hexes.to_axial(system, *at)
        if qr in out:
            bad.append(_at(p, raw, None, f"cell {n} ({list(at)}) is the same cell as cell {out[qr][2]}"))
            continue
        out[qr] = (qr, spec, n)
    if bad:
        for loc, message in bad[:-1]:
            p.fc.fault(loc, message, label_)
        raise DrawProblem(*bad[-1])
    return out


def _at(p, raw, key, message, what="cells"):
    """Where a bad row is reported, with its message: the value's own place (a sheet's cell) when the row knows
    it, else the row's (a sheet's row, a YAML line), else the layout's key."""
    locs = getattr(raw, "val_locs", None) or {}
    if key in locs:
        return locs[key], f"'{what}' {message}"
    loc = getattr(raw, "loc", None)
    return (loc if loc is not None else p.loc(what)), f"'{what}' {message}"


def _land(value) -> bool:
    return not (value in _NO or (isinstance(value, str) and value.strip().lower() in _NO))


def _piers(p, fc, orient, system, size, x0, y0, cells, land, ops, label_) -> None:
    length, width, colour = p.get("pier_length"), p.get("pier_width"), p.get("pier_color")
    piers = p.get("piers")
    if len(piers) > MAX_CELLS:
        p.fail("piers", f"has {len(piers):,} piers; a map holds at most {MAX_CELLS:,}")
    placed: list = []
    bad: list = []
    for n, row in enumerate(piers, 1):
        one = _pier(p, orient, system, land, n, row)
        (placed if len(one) == 3 else bad).append(one)
    if bad:
        for loc, message in bad[:-1]:
            p.fc.fault(loc, message, label_)
        raise DrawProblem(*bad[-1])
    for qr, i, raw in placed:
        dx, dy = hexes.centre(orient, size, *qr)
        (mx, my), (nx, ny) = hexes.side(orient, size, x0 + dx, y0 + dy, i)
        ex, ey = mx + nx * length, my + ny * length
        ops.append(Line(mx, my, ex, ey, colour, width))
        if raw.get("icon"):
            icon(
                ops,
                p.parse(ICON, raw["icon"], "piers"),
                ex + nx * size * 0.3,
                ey + ny * size * 0.3,
                size * 0.5,
                None,
            )
        said = p.parse(Text(60), raw.get("label"), "piers")
        text = plain(p, fc, said, "piers", label_, "to draw it, give the pier `icon: {name}`")
        if text:
            label(
                ops,
                text,
                ex + nx * size * 0.3,
                ey + ny * size * 0.3,
                p.get("font"),
                p.get("label_size"),
                p.get("color") or "#000000",
            )


def _pier(p, orient, system, land, n, row):
    """(axial cell, side index, keys) of pier `n`, or (where, message) when it is bad."""
    if not isinstance(row, Mapping):
        return _at(p, row, None, f"pier {n} must be {{cell: [col, row], side: ...}} (got {row!r})", "piers")
    raw = {k: v for k, v in row.items() if v not in (None, "")}
    a, b = ("q", "r") if system == "axial" else ("col", "row")
    key = "cell"
    if "cell" not in raw and (a in raw or b in raw):  # a data sheet's two columns
        raw["cell"] = [raw.pop(a, None), raw.pop(b, None)]
        key = a if pair([raw["cell"][0], 0]) is None else b
    unknown = [k for k in raw if k not in _PIER_KEYS]
    if unknown:
        return _at(
            p,
            row,
            unknown[0],
            f"pier {n} has the key '{unknown[0]}'; a pier takes {', '.join(_PIER_KEYS)}",
            "piers",
        )
    at = pair(raw.get("cell"))
    if at is None:
        return _at(
            p, row, key, f"pier {n}: 'cell' must be two whole numbers (got {raw.get('cell')!r})", "piers"
        )
    qr = hexes.to_axial(system, *at)
    if qr not in land:
        return _at(p, row, key, f"pier {n}: cell {list(at)} is not a land cell of this map", "piers")
    names = hexes.side_names(orient)
    side = str(raw.get("side", ""))
    if side not in names:
        sides = ", ".join(sorted(names, key=_COMPASS.index))
        return _at(
            p, row, "side", f"pier {n}: a {orient} hex's side is one of {sides} (got {side!r})", "piers"
        )
    i = names.index(side)
    if (qr, i) not in set(hexes.coast_sides(orient, {qr})) or _across(orient, qr, i) in land:
        return _at(
            p,
            row,
            "side",
            f"pier {n}: side {side} of cell {list(at)} is not on the coast (land lies across it)",
            "piers",
        )
    return qr, i, raw


def _across(orient, qr, i):
    dq, dr = hexes.SIDES[orient][i][1]
    return qr[0] + dq, qr[1] + dr


TYPE = ElementType(
    "hexmap",
    keys={
        "x": Length(),
        "y": Length(),
        "size": Length(default=10, least="positive"),
        "orient": Choice(("pointy", "flat"), "pointy"),
        "coords": Choice(hexes.SYSTEMS, "odd-r"),
        "cells": AnyList(),
        "fill": Colour("#f3ecdc"),
        "stroke": Colour("#4a4036"),
        "stroke_width": Length("pt", 0.6, "zero"),
        "icon_scale": Number(0.1, 1.5, 0.9),
        "font": FontName("sans-bold"),
        "label_size": Length("pt", 8, "positive"),
        "color": Colour("black"),
        "coast": Colour(),
        "coast_width": Length("pt", 1.8, "zero"),
        "piers": AnyList(),
        "pier_length": Length(default=4, least="zero"),
        "pier_width": Length("pt", 3, "zero"),
        "pier_color": Colour("#6b4a2b"),
    },
    draw=draw,
    required=("x", "y", "cells"),
    example="{type: hexmap, x: 10, y: 10, size: 5, cells: [[0, 0]], coast: '#1f4e79', piers: [{cell: [0, 0], side: e}]}",  # for tests/test_elements.py: every type draws its example
    draws=("Polygon", "Polygon", "Line"),
    text_size="label_size",
)
