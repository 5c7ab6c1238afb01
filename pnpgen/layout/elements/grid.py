"""`grid`: a pattern of square cells, each empty (null), plain, or holding up to six icons.

A cell is a list of icon names (or one string of them), null for a hole, or `{icons: [...], fill: colour,
stroke: colour}`."""

from __future__ import annotations

from pnpgen.faces import Icon, Rect
from pnpgen.layout.kinds import BOX, COLOUR, ICON, Colour, ElementType, Length, Number, Rows


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    rows = p.get("cells")
    ncols = max(len(r) for r in rows)
    nrows = len(rows)
    gap = p.get("gap")
    cell = min((w - (ncols - 1) * gap) / ncols, (h - (nrows - 1) * gap) / nrows)
    if cell <= 0:
        p.fail("cells", "do not fit the grid's box")
    gx = x + (w - (ncols * cell + (ncols - 1) * gap)) / 2
    gy = y + (h - (nrows * cell + (nrows - 1) * gap)) / 2
    fill, stroke = p.get("cell_fill"), p.get("cell_stroke")
    sw, radius = p.get("stroke_width"), p.get("radius")
    scale = p.get("icon_scale")
    for r, row in enumerate(rows):
        for c, spec in enumerate(row):
            if spec is None:
                continue
            cx, cy = gx + c * (cell + gap), gy + r * (cell + gap)
            icons, cfill, cstroke = _cell(spec, p, fill, stroke)
            ops.append(Rect(cx, cy, cell, cell, radius, cfill, cstroke, sw))
            _cell_icons(icons, cx, cy, cell, scale, p, ops)


def _cell(spec, p, fill, stroke):
    if isinstance(spec, str):
        return spec.split(), fill, stroke
    if isinstance(spec, (list, tuple)):
        return [str(s) for s in spec], fill, stroke
    if isinstance(spec, dict) or hasattr(spec, "keys"):
        icons = spec.get("icons", [])
        icons = icons.split() if isinstance(icons, str) else [str(s) for s in icons]
        f = p.parse(COLOUR, spec.get("fill"), "cells") if "fill" in spec else fill
        s = p.parse(COLOUR, spec.get("stroke"), "cells") if "stroke" in spec else stroke
        return icons, f, s
    p.fail(
        "cells",
        f"must hold cells that are lists of icon names, null or {{icons: [...], fill: colour}} (got {spec!r})",
    )


_ARRANGE = {1: (1, 1), 2: (2, 1), 3: (2, 2), 4: (2, 2), 5: (3, 2), 6: (3, 2)}


def _cell_icons(icons, cx, cy, cell, scale, p, ops):
    if not icons:
        return
    if len(icons) > 6:
        p.fail("cells", f"holds a cell of {len(icons)} icons; a cell holds at most 6")
    for name in icons:
        p.parse(ICON, name, "cells")
    cols, rows = _ARRANGE[len(icons)]
    sub = cell / max(cols, rows)
    side = sub * (scale if len(icons) == 1 else min(0.95, scale + 0.1))
    oy = cy + (cell - rows * sub) / 2
    for i, name in enumerate(icons):
        r, c = divmod(i, cols)
        in_row = min(cols, len(icons) - r * cols)
        ox = cx + (cell - in_row * sub) / 2
        ix = ox + c * sub + (sub - side) / 2
        iy = oy + r * sub + (sub - side) / 2
        ops.append(Icon(name, ix, iy, side, side, None))


TYPE = ElementType(
    "grid",
    keys={
        **BOX,
        "cells": Rows(),
        "cell_fill": Colour("#f3ecdc"),
        "cell_stroke": Colour("#4a4036"),
        "stroke_width": Length("pt", 0.6, "zero"),
        "gap": Length(default=0.8, least="zero"),
        "radius": Length(default=0.8, least="zero"),
        "icon_scale": Number(0.1, 1.5, 0.82),
    },
    draw=draw,
    required=("x", "y", "w", "h", "cells"),
    example="{type: grid, x: 5, y: 5, w: 20, h: 10, cells: [[[star], null]]}",  # for tests/test_elements.py: every type draws its example
    draws=("Rect", "Icon"),
)
