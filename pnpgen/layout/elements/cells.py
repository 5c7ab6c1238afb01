"""`cells`: a board's grid of square, hex (pointy or flat) or triangle cells, with fills, icons and labels
given per cell as `[col, row, ...]` entries."""

from __future__ import annotations

import math

from pnpgen.faces import Icon, Polygon, Text
from pnpgen.layout.elements._place import plain
from pnpgen.layout.kinds import (
    BOX,
    COLOUR,
    ICON,
    Choice,
    Colour,
    ElementType,
    Entries,
    FontName,
    Length,
    Number,
)
from pnpgen.text.fonts import unit_width, vertical_metrics

SHAPES = ("square", "hex", "hex-flat", "triangle")


def cell_polygons(shape: str, cols: int, rows: int, x: float, y: float, w: float, h: float):
    """{(col, row): polygon points (y down)} of a grid as large as fits the box, centred in it."""
    r3 = math.sqrt(3)
    out = {}
    if shape == "square":
        s = min(w / cols, h / rows)
        ox, oy = x + (w - cols * s) / 2, y + (h - rows * s) / 2
        for r in range(rows):
            for c in range(cols):
                x0, y0 = ox + c * s, oy + r * s
                out[(c, r)] = [(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]
    elif shape == "hex":  # pointy, odd rows shifted right
        cw = min(w / (cols + (0.5 if rows > 1 else 0)), h / ((2 / r3) * (1 + 0.75 * (rows - 1))))
        ch = 2 * cw / r3
        tw, th = cols * cw + (cw / 2 if rows > 1 else 0), ch + 0.75 * ch * (rows - 1)
        ox, oy = x + (w - tw) / 2, y + (h - th) / 2
        for r in range(rows):
            for c in range(cols):
                x0, y0 = ox + c * cw + (cw / 2 if r % 2 else 0), oy + r * 0.75 * ch
                out[(c, r)] = [
                    (x0 + cw / 2, y0),
                    (x0 + cw, y0 + ch / 4),
                    (x0 + cw, y0 + 3 * ch / 4),
                    (x0 + cw / 2, y0 + ch),
                    (x0, y0 + 3 * ch / 4),
                    (x0, y0 + ch / 4),
                ]
    elif shape == "hex-flat":  # flat top, odd columns shifted down
        ch = min(h / (rows + (0.5 if cols > 1 else 0)), w / ((2 / r3) * (1 + 0.75 * (cols - 1))))
        cw = 2 * ch / r3
        tw, th = cw + 0.75 * cw * (cols - 1), rows * ch + (ch / 2 if cols > 1 else 0)
        ox, oy = x + (w - tw) / 2, y + (h - th) / 2
        for c in range(cols):
            for r in range(rows):
                x0, y0 = ox + c * 0.75 * cw, oy + r * ch + (ch / 2 if c % 2 else 0)
                out[(c, r)] = [
                    (x0 + cw / 4, y0),
                    (x0 + 3 * cw / 4, y0),
                    (x0 + cw, y0 + ch / 2),
                    (x0 + 3 * cw / 4, y0 + ch),
                    (x0 + cw / 4, y0 + ch),
                    (x0, y0 + ch / 2),
                ]
    elif shape == "triangle":  # alternating along each row: (col + row) even points up
        s = min(w / ((cols + 1) / 2), h / (rows * r3 / 2))
        t = s * r3 / 2
        tw, th = (cols + 1) * s / 2, rows * t
        ox, oy = x + (w - tw) / 2, y + (h - th) / 2
        for r in range(rows):
            for c in range(cols):
                x0, y0 = ox + c * s / 2, oy + r * t
                if (c + r) % 2 == 0:
                    out[(c, r)] = [(x0 + s / 2, y0), (x0 + s, y0 + t), (x0, y0 + t)]
                else:
                    out[(c, r)] = [(x0, y0), (x0 + s, y0), (x0 + s / 2, y0 + t)]
    return out


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    shape = p.get("shape")
    cols, rows = int(p.get("cols")), int(p.get("rows"))
    polys = cell_polygons(shape, cols, rows, x, y, w, h)
    fill, stroke = p.get("cell_fill"), p.get("cell_stroke")
    sw = p.get("stroke_width")
    fills = {(int(e[0]), int(e[1])): p.parse(COLOUR, e[2], "fills") for e in p.get("fills")}
    skip = {(int(e[0]), int(e[1])) for e in p.get("skip")}
    for (c, r), pts in sorted(polys.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if (c, r) in skip:
            continue
        ops.append(Polygon(tuple(pts), fills.get((c, r), fill), stroke, sw))
    scale = p.get("icon_scale")
    for e in p.get("icons"):
        key = (int(e[0]), int(e[1]))
        if key not in polys:
            p.fail("icons", f"names cell {list(key)} outside the {cols} x {rows} grid")
        name = p.parse(ICON, str(e[2]), "icons")
        cx, cy, side = _cell_centre(polys[key], shape, scale)
        tint = p.parse(COLOUR, e[3], "icons") if len(e) > 3 else None
        ops.append(Icon(name, cx - side / 2, cy - side / 2, side, side, tint))
    font = p.get("font")
    size = p.get("size")
    colour = p.get("color") or "#000000"
    for e in p.get("labels"):
        key = (int(e[0]), int(e[1]))
        if key not in polys:
            p.fail("labels", f"names cell {list(key)} outside the {cols} x {rows} grid")
        cx, cy, _ = _cell_centre(polys[key], shape, 1)
        text = plain(p, fc, str(e[2]), "labels", label, "to draw it, add [col, row, {name}] to `icons`")
        ascent, _ = vertical_metrics(font)
        ops.append(
            Text(cx - unit_width(text, font) * size / 2, cy + ascent * size * 0.35, font, size, colour, text)
        )


def _cell_centre(pts, shape, scale):
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    if shape == "triangle":  # centroid, and the inscribed circle for the icon's size
        cx, cy = sum(xs) / 3, sum(ys) / 3
        side = (max(xs) - min(xs)) / 3**0.5 * scale
    else:
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        side = min(max(xs) - min(xs), max(ys) - min(ys)) * scale
    return cx, cy, side


TYPE = ElementType(
    "cells",
    keys={
        **BOX,
        "shape": Choice(SHAPES, "square"),
        "cols": Number(1, 200, 1, whole=True),
        "rows": Number(1, 200, 1, whole=True),
        "cell_fill": Colour("#f3ecdc"),
        "cell_stroke": Colour("#4a4036"),
        "stroke_width": Length("pt", 0.6, "zero"),
        "fills": Entries(3),
        "icons": Entries(3),
        "labels": Entries(3),
        "skip": Entries(2),
        "font": FontName("sans-bold"),
        "size": Length("pt", 7, "positive"),
        "color": Colour("black"),
        "icon_scale": Number(0.05, 1.5, 0.6),
    },
    draw=draw,
    required=("x", "y", "w", "h", "cols", "rows"),
    example="{type: cells, x: 5, y: 5, w: 40, h: 40, cols: 2, rows: 1, icons: [[1, 0, fire]], labels: [[0, 0, A]]}",  # for tests/test_elements.py: every type draws its example
    draws=("Polygon", "Polygon", "Icon", "Text"),
    text_size="size",
)
