"""Margin labels cut to their room: a sheet's, a board page's, a checklist's running head never run off a page."""

from __future__ import annotations

from pnpgen.text.fonts import unit_width


def shorten(text: str, font: str, size: float, width: float) -> str:
    """`text` cut with an ellipsis so that it is at most `width` wide at `size` (labels never run off a page). A
    text set at exactly the size that fills `width` fits it: 0.01 pt of rounding cuts nothing."""
    width += 0.01
    if unit_width(text, font) * size <= width:
        return text
    ellipsis = "…"
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if unit_width(text[:mid].rstrip() + ellipsis, font) * size <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ellipsis if lo else ""


def shorten_label(text: str, font: str, size: float, width: float, keep: int = 2) -> str:
    """A margin label `a · b · c · d` cut to `width`: the names at its front give way first, and the last `keep`
    parts (which sheet, which side) are kept whole as long as they fit at all. Of the names, the nearest the tail
    (the deck's, the most telling) is kept longest: the game's goes whole before the deck's is cut."""
    parts = text.split(" · ")
    fits = unit_width(text, font) * size <= width + 0.01  # as `shorten`: rounding cuts nothing
    if len(parts) <= keep or fits:
        return shorten(text, font, size, width)
    tail = " · " + " · ".join(parts[-keep:])
    room = width - unit_width(tail, font) * size
    names = parts[:-keep]
    while len(names) > 1 and unit_width(" · ".join(names), font) * size > room:
        names = names[1:]  # drop the game's name, not the deck's
    head = shorten(" · ".join(names), font, size, room) if room > 0 else ""
    if len(head.rstrip("…")) < 3:  # "R…" names nothing
        head = ""
    return head + tail if head else shorten(tail[3:], font, size, width)
