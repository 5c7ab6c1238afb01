"""`track`: numbered square spaces around the edge of its box (a score track), every Nth highlighted."""

from __future__ import annotations

from pnpgen import units
from pnpgen.faces import Rect, Text
from pnpgen.layout.kinds import BOX, Colour, ElementType, FontName, Length, Number
from pnpgen.text.fonts import unit_width, vertical_metrics

MIN_TRACK_SPACE = 4 * units.MM  # a track space smaller than this cannot hold a marker


def track_positions(count: int, x: float, y: float, w: float, h: float):
    """Square spaces around the box's edge, clockwise from the top-left corner: (size, [(x, y), ...])."""
    best = None
    s = min(w, h) / 2
    while s >= MIN_TRACK_SPACE:
        along, down = int(w // s), int(h // s)
        if along >= 2 and down >= 2 and 2 * along + 2 * (down - 2) >= count:
            best = (s, along, down)
            break
        s *= 0.98
    if best is None:
        return None
    s, along, down = best
    gx = (w - along * s) / (along - 1) if along > 1 else 0  # spread to fill the edge exactly
    gy = (h - down * s) / (down - 1) if down > 1 else 0
    pos = [(x + i * (s + gx), y) for i in range(along)]
    pos += [(x + w - s, y + j * (s + gy)) for j in range(1, down - 1)]
    pos += [(x + (along - 1 - i) * (s + gx), y + h - s) for i in range(along)]
    pos += [(x, y + (down - 1 - j) * (s + gy)) for j in range(1, down - 1)]
    return s, pos[:count]


def draw(p, fc, ops, label, diags) -> None:
    x, y, w, h = p.box()
    count = int(p.get("count"))
    start = int(p.get("start"))
    placed = track_positions(count, x, y, w, h)
    if placed is None:
        p.fail("count", f"{count} spaces do not fit around a {units.mm(w):.0f} x {units.mm(h):.0f} mm box")
    s, pos = placed
    fill, stroke = p.get("fill"), p.get("stroke")
    hl = p.get("highlight")
    every = int(p.get("every"))
    sw = p.get("stroke_width")
    font = p.get("font")
    colour = p.get("color") or "#000000"
    size = p.get("label_size") if p.given("label_size") else min(s / 2.2, 18.0)
    ascent, _ = vertical_metrics(font)
    for i, (px, py) in enumerate(pos):
        n = start + i
        ops.append(Rect(px, py, s, s, 0.0, hl if n % every == 0 else fill, stroke, sw))
        text = str(n)
        ops.append(
            Text(
                px + s / 2 - unit_width(text, font) * size / 2,
                py + s / 2 + ascent * size * 0.35,
                font,
                size,
                colour,
                text,
            )
        )


TYPE = ElementType(
    "track",
    keys={
        **BOX,
        "count": Number(1, 500, 0, whole=True),
        "start": Number(-1000, 1000, 0, whole=True),
        "fill": Colour("#fbf6ea"),
        "stroke": Colour("#4a4036"),
        "stroke_width": Length("pt", 0.6, "zero"),
        "every": Number(1, 1000, 5, whole=True),
        "highlight": Colour("#e7d3a1"),
        "font": FontName("sans-bold"),
        "label_size": Length("pt", None, "positive"),
        "color": Colour("black"),
    },
    draw=draw,
    required=("x", "y", "w", "h", "count"),
    example="{type: track, x: 5, y: 5, w: 50, h: 70, count: 3, start: 1}",  # for tests/test_elements.py: every type draws its example
    draws=("Rect", "Text", "Rect", "Text", "Rect", "Text"),
    text_size="label_size",
)
