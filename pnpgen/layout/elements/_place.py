"""What the geometry elements (`hexmap`, `die-net`) share: a cell's or face's whole-number coordinates, its
label centred on a point, and an icon centred on a point."""

from __future__ import annotations

from collections.abc import Mapping

from pnpgen.faces import Icon, Text
from pnpgen.layout.kinds import Kind
from pnpgen.text.fit import icon_names
from pnpgen.text.fonts import unit_width, vertical_metrics


class AnyList(Kind):
    """A list whose items the element checks itself (nothing is an empty list)."""

    default = ()

    def parse(self, value, known) -> list:
        from pnpgen.layout.kinds import Bad

        if value in (None, ""):
            return []
        if isinstance(value, (str, Mapping)) or not hasattr(value, "__iter__"):
            raise Bad(f"must be a list (got {str(value)[:60]!r})")
        return list(value)


def whole(value) -> int | None:
    """`value` as a whole number, or None when it is not one (true and 1.5 are not)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e6:
        return int(value)
    return None


def pair(value) -> tuple[int, int] | None:
    """[a, b] of two whole numbers as a tuple, else None."""
    if isinstance(value, (str, Mapping)) or not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    a, b = whole(value[0]), whole(value[1])
    return None if a is None or b is None else (a, b)


def label(ops, text: str, x: float, y: float, font: str, size: float, colour: str) -> None:
    """`text` centred on (x, y), in points."""
    if not text:
        return
    ascent, _ = vertical_metrics(font)
    ops.append(
        Text(x - unit_width(text, font) * size / 2, y + ascent * size * 0.35, font, size, colour, text)
    )


def plain(p, fc, text: str, key: str, card: str, instead: str) -> str:
    """A label's text: plain, unlike a `text` element's. A `:name:` in it naming an icon would print as typed,
    which no designer means: a warning at `key` for the card, saying what draws the icon (`instead`)."""
    for name in icon_names(text):
        if name in fc.icons:
            fc.note(
                p.loc(key),
                f"a label is plain text: ':{name}:' prints as typed, not as the icon; {instead.format(name=name)}",
                card,
            )
    return text


def icon(ops, name: str, x: float, y: float, side: float, tint) -> None:
    ops.append(Icon(name, x - side / 2, y - side / 2, side, side, tint))
