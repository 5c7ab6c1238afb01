"""What a layout key takes, and what an element type is: the vocabulary of `pnpgen.layout.elements`.

Each key of an element type is declared with a `Kind` (a length, a number in a range, a colour, one of some
options, an icon name, a list...). The kind parses the value the element is drawn with, and the same parser
checks a constant value once, when its layout loads: the message is the same either way. What the parser needs
to know of the game (its palette, its icons) comes from `known`; at load time a part not known yet is None and
the check that needs it waits for the card.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pnpgen import units
from pnpgen.colours import ColourError, parse_colour
from pnpgen.errors import did_you_mean, not_one_of

MAX_TEXT = 5_000  # characters in one text element


class Bad(Exception):
    """A value the key does not take; the message follows the key's name ("'fill' is not a colour...")."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class Known:
    """What is known of the game while a layout loads: None for a part not known yet (checked per card)."""

    palette: Mapping[str, str] | None = None
    icons: Mapping[str, Any] | None = None
    fonts: Mapping[str, str] | None = None  # the game's own font names -> registered names


class Kind:
    """What a key takes. `parse` gives the value an element is drawn with, or raises Bad."""

    default: Any = None

    def parse(self, value: Any, known: Any) -> Any:
        return value


MAX_LENGTH_PT = 100_000.0  # about 35 m: no face, board or sheet is larger
MAX_NUMBER = 1e9


def finite(number: float, value: Any, limit: float) -> float:
    """A number a layout computed, refused when it is NaN, infinite or absurdly large."""
    if not math.isfinite(number):
        raise Bad(f"must be a finite number (got {value!r})")
    if abs(number) > limit:
        raise Bad(f"is too large (got {value!r})")
    return number


@dataclass(frozen=True)
class Length(Kind):
    """A length: a number in `unit` or a string with its own unit ('3mm', '9pt')."""

    unit: str = "mm"
    default: Any = None
    least: str = "any"  # or "zero" (a width: not negative) or "positive" (a text size: more than 0)

    def parse(self, value, known) -> float:
        if value is None:
            raise Bad("is required")
        if isinstance(value, str):
            value = value.strip()
        try:
            pt = units.to_pt(value, self.unit)
        except units.UnitError as exc:
            raise Bad(str(exc)) from None
        pt = finite(pt, value, MAX_LENGTH_PT)
        if self.least == "zero" and pt < 0:
            raise Bad(f"must not be negative (got {value!r})")
        if self.least == "positive" and pt <= 0:
            raise Bad(f"must be more than 0 {self.unit} (got {value!r})")
        return pt


@dataclass(frozen=True)
class Number(Kind):
    """A number from `lo` to `hi`; `whole`: a count (5 or 5.0, not 5.5)."""

    lo: float | None = None
    hi: float | None = None
    default: Any = None
    whole: bool = False

    def parse(self, value, known) -> float:
        if isinstance(value, bool):  # YAML's true, yes, on: float() made them 1 (a count of 1, full ink)
            raise Bad(f"must be a number (got {str(value).lower()})")
        try:
            f = float(value)
        except OverflowError:  # a whole number past 1e308
            raise Bad(f"is too large (got {str(value)[:20]}...)") from None
        except (TypeError, ValueError):
            raise Bad(f"must be a number (got {value!r})") from None
        finite(f, value, MAX_NUMBER)
        if (self.lo is not None and f < self.lo) or (self.hi is not None and f > self.hi):
            raise Bad(f"must be between {self.lo} and {self.hi} (got {value!r})")
        if self.whole and not f.is_integer():
            raise Bad(f"must be a whole number (got {value!r})")
        return f


@dataclass(frozen=True)
class QuarterTurn(Kind):
    """Degrees clockwise, a quarter turn (-270 to 360): 0, 90, 180 or 270 once made positive."""

    default: Any = 0

    def parse(self, value, known) -> int:
        f = Number(-360, 360).parse(value, known)
        if not f.is_integer() or int(f) % 90:
            raise Bad(
                f"must be a quarter turn, degrees clockwise: 0, 90, 180 or 270 (or -90, -180, -270) (got {value!r})"
            )
        return int(f) % 360


@dataclass(frozen=True)
class Colour(Kind):
    """'#rrggbb', a palette name, a plain name or none (see `pnpgen.colours`)."""

    default: Any = None

    def parse(self, value, known) -> str | None:
        palette = known.palette
        try:
            return parse_colour(value, palette if palette is not None else {})
        except ColourError as exc:
            if (
                palette is None
                and isinstance(value, str)
                and not value.strip().lower().startswith(("#", "cmyk"))
            ):
                return None  # may name a colour of the palette: checked when it is known
            raise Bad(str(exc)) from None


@dataclass(frozen=True)
class Choice(Kind):
    options: tuple = ()
    default: Any = None

    def parse(self, value, known):
        if value not in self.options:
            raise Bad(not_one_of(value, self.options))
        return value


@dataclass(frozen=True)
class FontName(Kind):
    """A shipped font (sans, serif-bold...) or one of the game's own (`fonts:` in game.yaml)."""

    default: Any = "sans"

    def parse(self, value, known) -> str:
        from pnpgen.text.fonts import FONT_NAMES

        text = str(value)
        if text in FONT_NAMES:
            return text
        fonts = getattr(known, "fonts", None)
        if fonts is None:
            return text  # the game's fonts are not known yet: checked per card
        if text in fonts:
            return fonts[text]
        family, _, style = text.partition("-")
        if family in fonts and style:
            given = sorted(n for n in fonts if n == family or n.startswith(family + "-"))
            if style in ("bold", "italic", "bolditalic"):
                raise Bad(
                    f"names the {style} of the game's font '{family}', which has no such file "
                    f"(fonts: {family}: {style}: ...); it has {', '.join(given)}"
                )
            raise Bad(
                f"names the style '{style}' of the game's font '{family}': a style is bold, italic or bolditalic "
                f"(got {text!r}); " + did_you_mean(text, given)
            )
        names = sorted([*FONT_NAMES, *fonts])
        said = "must be a font: " + not_one_of(text, names).removeprefix("must be ")
        if "did you mean" in said:  # a typo of a font there is
            raise Bad(said)
        own = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "mine"  # a system font's name (Arial)
        raise Bad(
            f"{said}; a font of your own is named with its file in game.yaml "
            f"(fonts: {{{own}: {{regular: fonts/{text}.ttf}}}}), then 'font: {own}'"
        )


@dataclass(frozen=True)
class Area(Kind):
    """Which of the face's boxes an element fills: None when the element gives x, y, w and h instead."""

    def parse(self, value, known) -> str | None:
        if value is not None and value not in ("bleed", "trim", "safe"):
            raise Bad(f"must be bleed, trim or safe (got {value!r})")
        return value


@dataclass(frozen=True)
class IconName(Kind):
    def parse(self, value, known) -> str:
        name = str(value)
        if known.icons is not None and name not in known.icons:
            raise Bad(f"names no icon '{name}'; " + did_you_mean(name, known.icons))
        return name


@dataclass(frozen=True)
class Text(Kind):
    """Text (a number is written out); nothing becomes ''. A mapping or a list is a mistake, not text."""

    limit: int = MAX_TEXT

    def parse(self, value, known) -> str:
        if isinstance(value, Mapping):
            raise Bad("must be a text (got a mapping)")
        if isinstance(value, (list, tuple)):
            raise Bad("must be a text (got a list)")
        text = "" if value is None else str(value)
        if len(text) > self.limit:
            raise Bad(f"is {len(text):,} characters long; the limit is {self.limit:,}")
        return text


@dataclass(frozen=True)
class Dash(Kind):
    """A dash pattern in pt: lengths on and off, none negative, the pattern at least 0.1 pt long (a pattern of
    1e-300 would ask a printer for more dashes than it has memory), none longer than a face."""

    def parse(self, value, known) -> tuple:
        if value in (None, "", ()):
            return ()
        if (
            not isinstance(value, (list, tuple))
            or len(value) > 32
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)
            or not all(math.isfinite(x) and 0 <= x <= MAX_DASH_PT for x in value)
            or sum(value) < MIN_DASH_PT
        ):
            shown = repr(list(value)) if isinstance(value, (list, tuple)) else repr(value)
            raise Bad(f"must be a list of lengths in pt such as [2, 1] (got {shown[:60]})")
        return tuple(float(x) for x in value)


MIN_DASH_PT, MAX_DASH_PT = 0.1, 1000.0


@dataclass(frozen=True)
class Points(Kind):
    def parse(self, value, known) -> tuple:
        if not isinstance(value, (list, tuple)) or len(value) < 3:
            raise Bad("must be a list of at least 3 [x, y] points")
        out = []
        for pt in value:
            if not isinstance(pt, (list, tuple)) or len(pt) != 2:
                raise Bad(f"each point must be [x, y] (got {pt!r})")
            try:
                out.append((units.to_pt(pt[0]), units.to_pt(pt[1])))
            except units.UnitError as exc:
                raise Bad(str(exc)) from None
        return tuple(out)


@dataclass(frozen=True)
class Entries(Kind):
    """A list of [col, row, ...] entries with at least `n` items each; nothing is an empty list."""

    n: int = 2
    default: Any = ()

    def parse(self, value, known) -> list:
        if value in (None, ""):
            return []
        if not isinstance(value, (list, tuple)) or not all(
            isinstance(e, (list, tuple)) and len(e) >= self.n for e in value
        ):
            raise Bad(
                f"must be a list of [col, row{', value' if self.n > 2 else ''}] entries (got {value!r})"
            )
        return list(value)


@dataclass(frozen=True)
class Rows(Kind):
    """A list of rows, each a list of cells (what a cell is, the element says)."""

    def parse(self, value, known) -> list:
        if (
            not isinstance(value, (list, tuple))
            or not value
            or not all(isinstance(r, (list, tuple)) for r in value)
        ):
            raise Bad("must be a list of rows, each a list of cells")
        if max(len(r) for r in value) == 0:
            raise Bad("has no cells")
        return list(value)


COLOUR = Colour()
ICON = IconName()


@dataclass(frozen=True)
class ElementType:
    """One type of layout element, declared in one place (a module of `pnpgen.layout.elements`).

    `keys` maps each key the type takes (besides the common ones: `elements.COMMON_KEYS`) to its kind;
    `required` lists those it cannot do without; `area` says that `x y w h` may be replaced by `area`;
    `draw(p, fc, ops, label, diags)` appends the element's draw operations to `ops`; `example` and `draws` are one
    element of the type and what it draws, which `tests/test_elements.py` draws for every type; `text_size` names
    the key a text size warning is located at (`draw.FaceContext.check_size`)."""

    name: str
    keys: Mapping[str, Kind]
    draw: Callable[..., None]
    required: tuple = ()
    area: bool = False
    example: str = ""  # one element of this type, as YAML (a flow mapping): tests draw it
    draws: tuple[str, ...] = ()  # the kinds of draw operation the example gives, in order (`faces.py` names)
    text_size: str | None = None  # the key giving the size of the text it sets; None: it sets no text


# Keys many element types share.
BOX = {"x": Length(), "y": Length(), "w": Length(), "h": Length()}
STROKE_WIDTH = Length("pt", 0.5, "zero")
OPACITY = Number(0, 1, 1)
# How a shape is painted: rect, ellipse and polygon take these the same way.
PAINT = {"fill": COLOUR, "stroke": COLOUR, "stroke_width": STROKE_WIDTH, "dash": Dash(), "opacity": OPACITY}


def paint(p) -> dict[str, Any]:
    """A shape's fill, stroke, stroke width, dash and opacity, evaluated for one card, by name: `Rect`, `Ellipse`
    and `Polygon` take them as keywords (`Polygon(points, **paint(p))`), in whatever order each declares them."""
    return {key: p.get(key) for key in PAINT}
