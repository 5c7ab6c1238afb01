"""Evaluate a layout for one card -> a Face (draw operations in points) plus warnings.

This is the machinery every element shares: what a face is drawn in (`FaceContext`), the names its templates
see, `when` and `for_each`, typed access to an element's values (`_Props`) and the safe-zone check. What each
type of element draws, and which keys it takes, is declared in its own module of `pnpgen.layout.elements`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from pnpgen import units
from pnpgen.budget import MAX_SECONDS, TooMuchWork, time_limit
from pnpgen.errors import Diagnostics, Location
from pnpgen.faces import Face, Text
from pnpgen.inputs import Reader
from pnpgen.layout.blame import blamed, reads_of
from pnpgen.layout.kinds import Area, Bad, Kind
from pnpgen.templating import Palette, TemplateProblem, content, made, read
from pnpgen.templating.printable import unprintable
from pnpgen.text import TEXT_ERROR_PT, TEXT_WARN_PT

if TYPE_CHECKING:
    from pnpgen.layout.spec import Element, Layout

MAX_REPEAT = 1_000
MAX_OPS = 20_000  # shapes one face may draw: repeats are bounded in product, not only one by one
_AREA = Area()
_UNSET: Any = object()
_PLAIN = frozenset({str, int, float, bool, type(None)})  # values whose text is theirs in every process


class DrawProblem(Exception):
    def __init__(self, location: Location, message: str):
        self.location, self.message = location, message
        super().__init__(message)


@dataclass
class FaceContext:
    """Everything a face needs besides the layout: size, palette, icons, where images live."""

    width_pt: float
    height_pt: float
    bleed_pt: float
    safe_pt: float
    palette: dict
    icons: dict
    art_root: Path
    shape: str = "rect"
    board: object = None  # a board's data, for its sides' layouts
    reader: Reader | None = None  # reads (and records) the art; None: one confined to the game folder
    fonts: dict | None = None  # the game's own font names -> registered names (`fonts:` in game.yaml)
    ink: str = "full"  # the form drawn: full colour or low ink (layouts see it as `ink`)
    image_sizes: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)  # (location, message) -> cards it applies to
    faults: dict = field(default_factory=dict)
    small: dict = field(default_factory=dict)  # (location, floor, blamed field) -> [smallest size, cards]
    # when a dict (preflight asks): Face -> (((first op, end op, Element), ...), card label, layout loc)
    origins: dict | None = None
    constants: dict = field(default_factory=dict)  # element id -> (element, {key: its constant value parsed})
    # `template_names`: [deck, game, the names besides the card's]
    shared_names: list = field(default_factory=list, repr=False)
    # element id -> (element, the ops it draws on every face, or None when that must be worked out per face)
    drawn: dict = field(default_factory=dict, repr=False)
    # the card being drawn: its fields' cells when it came from a data sheet (`layout.blame`), else empty
    cells: Mapping[str, Location] = field(default_factory=dict, repr=False)
    heads: Mapping[str, Location] = field(default_factory=dict, repr=False)  # and the header cell of each
    reads: dict = field(default_factory=dict, repr=False)  # id(layout) -> (layout, its values' card fields)
    # a deck drawn in halves (`pipeline/halves.py`), in the worker: every finding told, in order (sink, key, card,
    # smallest size), with the stretches of it told drawing what the first half may have drawn: (what, start, end)
    journal: list | None = field(default=None, repr=False)
    claims: list | None = field(default=None, repr=False)
    _layout: Layout | None = field(default=None, init=False, repr=False)
    _own_reader: Reader | None = field(default=None, init=False, repr=False)

    def art_reader(self) -> Reader:
        """The reader art is read with: the build's, or one confined to the game folder."""
        if self.reader is not None:
            return self.reader
        if self._own_reader is None:
            game = self.art_root.parent
            self._own_reader = Reader([game], game)
        return self._own_reader

    def fault(self, loc: Location, message: str, card: str) -> None:
        """An error drawing one card; the same error on many cards is reported once with a count."""
        loc, message = self.blame(loc, message)
        self.faults.setdefault((loc, message), []).append(card)
        if self.journal is not None:
            self.journal.append(("faults", (loc, message), card, 0.0))

    def note(self, loc: Location, message: str, card: str) -> None:
        """A warning about one card; the same warning on many cards is reported once with a count."""
        loc, message = self.blame(loc, message)
        self.notes.setdefault((loc, message), []).append(card)
        if self.journal is not None:
            self.journal.append(("notes", (loc, message), card, 0.0))

    def blame(self, loc: Location, message: str) -> tuple[Location, str]:
        """Where a problem of the face being drawn is told: the card's cell when one field of a data sheet's
        card is to blame (`pnpgen.layout.blame`), else `loc`."""
        if not self.cells or self._layout is None:
            return loc, message
        kept = self.reads.get(id(self._layout))
        if kept is None or kept[0] is not self._layout:
            kept = self.reads[id(self._layout)] = (self._layout, reads_of(self._layout))
        return blamed(loc, message, self.cells, kept[1], self.heads)

    def check_size(self, el: Element, ops, card: str) -> None:
        """Text set on a face under TEXT_WARN_PT is a warning, under TEXT_ERROR_PT an error, at the element's
        text size key (`ElementType.text_size`), reported once with the smallest size drawn (after any shrinking
        to fit) and the cards it is on; an element with `small_text: allowed` is meant so."""
        if el.small_text == "allowed":
            return
        smallest = min((op.size for op in ops if type(op) is Text and op.text.strip()), default=TEXT_WARN_PT)
        if smallest >= TEXT_WARN_PT - 0.005:
            return
        key = el.definition.text_size
        loc = el.props[key].loc if key in el.props else el.loc
        fix = (
            f"a larger '{key}'" if key in el.props else f"a '{key}' (else worked out from the element's size)"
        )
        if "min_size" in el.definition.keys:
            fix = f"a larger '{key}' or 'min_size', or a bigger box"
        loc, said = self.blame(loc, "")  # a size a sheet's field gives is told at its cell
        self.told_small((loc, smallest < TEXT_ERROR_PT - 0.005, fix, said), card, smallest)
        if self.journal is not None:
            self.journal.append(("small", (loc, smallest < TEXT_ERROR_PT - 0.005, fix, said), card, smallest))

    def told_small(self, key: tuple, card: str, smallest: float) -> None:
        seen = self.small.setdefault(key, [smallest, []])
        seen[0] = min(seen[0], smallest)
        seen[1].append(card)

    @contextmanager
    def claimed(self, what: tuple) -> Iterator[None]:
        """In a half's worker: the findings told within, marked as belonging to `what` (a memo key, an image
        sized once per deck): dropped when the first half drew it too."""
        start = len(self.journal) if self.journal is not None else 0
        try:
            yield
        finally:
            if self.claims is not None and self.journal is not None and len(self.journal) > start:
                self.claims.append((what, start, len(self.journal)))

    def flush_notes(self, diags: Diagnostics) -> None:
        for (loc, error, fix, said), (smallest, cards) in self.small.items():
            more = f" and {len(cards) - 1} more" if len(cards) > 1 else ""
            where = f" {said}" if said else ""
            drawn = f"text is drawn as small as {smallest:.1f} pt, under the "
            hint = f"the size drawn counts, after shrinking to fit: give it {fix}; or small_text: allowed if meant so"
            if error:
                diags.error(loc, drawn + f"{TEXT_ERROR_PT:g} pt floor, on {cards[0]}{more}{where}", hint)
            else:
                diags.warning(
                    loc,
                    drawn + f"{TEXT_WARN_PT:g} pt a print shop recommends, on {cards[0]}{more}{where}",
                    hint,
                )
        self.small.clear()
        for (loc, message), cards in self.faults.items():
            more = f" and {len(cards) - 1} more" if len(cards) > 1 else ""
            diags.error(loc, f"{message} (while drawing {cards[0]}{more})")
        for (loc, message), cards in self.notes.items():
            more = f" and {len(cards) - 1} more" if len(cards) > 1 else ""
            diags.warning(loc, f"{message} on {cards[0]}{more}")
        self.notes.clear()
        self.faults.clear()


def template_names(fc: FaceContext, card_fields: dict, deck: dict, game: dict) -> dict:
    """What a layout's templates see. Content mappings show their items only (see `templating.content`). All but
    the card's fields are the same for every card of a deck: made once while `deck` and `game` stay the same (no
    template can change them: the sandbox is immutable)."""
    kept = fc.shared_names
    if not kept or kept[0] != deck or kept[1] != game:
        kept[:] = [dict(deck), dict(game), _shared_names(fc, deck, game)]
    return {"card": content(card_fields), **kept[2]}


def _shared_names(fc: FaceContext, deck: dict, game: dict) -> dict:
    return {
        "deck": content(deck),
        "game": content(game),
        "palette": Palette(content(fc.palette)),
        "w": round(units.mm(fc.width_pt), 3),
        "h": round(units.mm(fc.height_pt), 3),
        "bleed": round(units.mm(fc.bleed_pt), 3),
        "safe": round(units.mm(fc.safe_pt), 3),
        "shape": fc.shape,
        "ink": fc.ink,
        "board": content(fc.board if fc.board is not None else {}),
    }


def draw_face(
    layout: Layout, fc: FaceContext, names: dict, card_label: str, diags: Diagnostics
) -> Face | None:
    """Evaluate every element of `layout`; problems go to `diags` naming the card."""
    ctx = dict(names)
    ops: list = []
    fc._layout = layout  # what a problem's place is looked up in (`FaceContext.blame`)
    try:
        with time_limit(MAX_SECONDS):  # one time backstop for the whole face
            for name, value in layout.vars:
                ctx[name] = made(value, value(ctx))  # a lazy sequence read once, for every element
            spans = []
            drawn = fc.drawn
            for el in layout.elements:
                start = len(ops)
                kept = drawn.get(id(el))
                if kept is not None and kept[1] is not None:  # the same on every face: as last time
                    ops.extend(kept[1])
                elif kept is None and _fixed(el):
                    said = _said(fc, diags)  # its values are constants: it spends no template step
                    _element(el, ctx, fc, ops, card_label, diags)
                    # kept unless it reported something: a warning is counted once per card it is on
                    drawn[id(el)] = (el, tuple(ops[start:]) if _said(fc, diags) == said else None)
                else:
                    _element(el, ctx, fc, ops, card_label, diags)
                    fc.check_size(el, ops[start:], card_label)  # every element that sets text: its size
                if len(ops) > start:
                    spans.append((start, len(ops), el))
                if len(ops) > MAX_OPS:
                    raise DrawProblem(el.loc, f"this face draws more than {MAX_OPS:,} shapes")
        if len(spans) > 1:
            from pnpgen.layout.warnings import note_overlaps

            note_overlaps(ops, spans, fc, card_label)
    except (TemplateProblem, DrawProblem) as exc:
        fc.fault(exc.location, exc.message, card_label)
        return None
    except TooMuchWork as exc:  # the time limit struck outside a template's own evaluation
        fc.fault(layout.loc, str(exc), card_label)
        return None
    face = Face(fc.width_pt, fc.height_pt, fc.bleed_pt, tuple(ops), fc.shape)
    if fc.origins is not None:
        fc.origins.setdefault(face, (tuple(spans), card_label, layout.loc))
    return face


FIXED_TYPES = frozenset({"rect", "ellipse", "line", "polygon", "icon"})  # shapes: no art read, no text set


def _fixed(el: Element) -> bool:
    """Whether an element draws the same on every face of a deck: a shape whose every value is a constant, with
    no `when` or `for_each` (its values then depend on nothing but the deck's face context)."""
    return (
        el.type in FIXED_TYPES
        and el.when is None
        and el.for_each is None
        and all(v.is_constant for v in el.props.values())
    )


def _said(fc: FaceContext, diags: Diagnostics) -> tuple:
    """How much has been reported so far: notes, faults and small text per card, and diagnostics."""
    return (
        sum(len(v) for v in fc.notes.values()),
        sum(len(v) for v in fc.faults.values()),
        sum(len(v[1]) for v in fc.small.values()),
        len(diags.items),
    )


def _element(el: Element, ctx: dict, fc: FaceContext, ops: list, label: str, diags: Diagnostics) -> None:
    if el.for_each is not None:
        items = el.for_each(ctx)
        if isinstance(items, (int, float)) and not isinstance(
            items, bool
        ):  # a number repeats that many times
            if isinstance(items, float) and not math.isfinite(items):
                raise DrawProblem(el.for_each.loc, f"'for_each' must be a finite number (got {items!r})")
            if items > MAX_REPEAT:
                raise DrawProblem(
                    el.for_each.loc, f"'for_each' repeats {int(items)} times; the limit is {MAX_REPEAT}"
                )
            items = range(int(items))
        if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
            raise DrawProblem(el.for_each.loc, f"'for_each' must give a list (got {items!r})")
        sized = hasattr(items, "__len__")  # a list or a range: its length is known without reading it
        if sized and len(items) > MAX_REPEAT:
            raise DrawProblem(
                el.for_each.loc, f"'for_each' repeats {len(items)} times; the limit is {MAX_REPEAT}"
            )
        # a lazy one (`range(n)`, a `map`) is read here, one past the limit at most; what fails is told at its line
        items = read(el.for_each, items, MAX_REPEAT)
        if len(items) > MAX_REPEAT:
            raise DrawProblem(
                el.for_each.loc, f"'for_each' repeats more than {MAX_REPEAT} times; the limit is {MAX_REPEAT}"
            )
        for i, item in enumerate(items):
            loop = {
                "index0": i,
                "index": i + 1,
                "first": i == 0,
                "last": i == len(items) - 1,
                "length": len(items),
            }
            _one(el, {**ctx, el.as_name: item, "loop": loop}, fc, ops, label, diags)
    else:
        _one(el, ctx, fc, ops, label, diags)


def _one(el: Element, ctx: dict, fc: FaceContext, ops: list, label: str, diags: Diagnostics) -> None:
    if el.when is not None and not el.when(ctx):
        return
    el.definition.draw(_Props(el, ctx, fc), fc, ops, label, diags)


class _Props:
    """Typed access to an element's evaluated values, with located errors.

    `p.get(key)` evaluates the key's value (or takes the default its element type declares) and parses it by
    the kind declared for the key: the same parser that checked it at load time when it is a constant."""

    def __init__(self, el: Element, ctx: dict, fc: FaceContext):
        self.el, self.ctx, self.fc = el, ctx, fc
        self._cache: dict = {}
        kept = fc.constants.get(id(el))
        if kept is None:  # the element kept with its values: its id names it meanwhile
            kept = fc.constants[id(el)] = (el, {})
        self._constants: dict = kept[1]

    def raw(self, key, default=None):
        if key not in self.el.props:
            return default
        if key not in self._cache:
            self._cache[key] = self.el.props[key](self.ctx)
        return self._cache[key]

    def loc(self, key) -> Location:
        v = self.el.props.get(key)
        return v.loc if v is not None else self.el.loc

    def fail(self, key, message) -> NoReturn:
        raise DrawProblem(self.loc(key), f"'{key}' {message}")

    def given(self, key) -> bool:
        return key in self.el.props

    def get(self, key, default=_UNSET):
        """The value of `key` parsed by its declared kind; `default` replaces the declared default."""
        if default is _UNSET:
            hit = self._constants.get(key, _UNSET)  # only constants are kept, so a hit is this key's value
            if hit is not _UNSET:
                return hit
        kind = self.el.definition.keys[key]
        if default is _UNSET:
            value = self.el.props.get(key)
            if value is None or value.is_constant:  # the same on every card: parsed once per deck
                parsed = self.parse(kind, self.raw(key, kind.default), key)
                if isinstance(parsed, (str, int, float, tuple, type(None))):
                    self._constants[key] = parsed
                return parsed
        return self.parse(kind, self.raw(key, kind.default if default is _UNSET else default), key)

    def parse(self, kind: Kind, value, key):
        """`value` (the whole of `key`'s value or a part of it) parsed by `kind`; errors are located at `key`."""
        if type(value) not in _PLAIN and (found := unprintable(value)):  # a function, a generator...
            self.fail(key, f"is given {found}")
        try:
            return kind.parse(value, self.fc)
        except Bad as exc:
            self.fail(key, exc.message)

    def box(self):
        """x, y, w, h in points: from `area` when the element gives one, else from its x, y, w and h."""
        fc = self.fc
        area = self.parse(_AREA, self.raw("area"), "area")
        if area == "bleed":
            b = fc.bleed_pt
            return -b, -b, fc.width_pt + 2 * b, fc.height_pt + 2 * b
        if area == "trim":
            return 0.0, 0.0, fc.width_pt, fc.height_pt
        if area == "safe":
            s = fc.safe_pt
            return s, s, fc.width_pt - 2 * s, fc.height_pt - 2 * s
        return self.get("x"), self.get("y"), self.get("w"), self.get("h")


def element_box(el: Element, ctx: dict, fc: FaceContext) -> tuple[float, float, float, float] | None:
    """The box (x, y, w, h in points) an element's own values give it for this card, evaluated as the build
    evaluates them; None for an element whose keys give no box (its drawn extent is its box then).

    A line's box spans its two ends; an icon sized by `size` alone is size by size. Raises DrawProblem, located,
    when a value is not what its key takes (TemplateProblem when it cannot be evaluated)."""
    p = _Props(el, ctx, fc)
    if el.type == "line":
        x1, y1, x2, y2 = (p.get(k) for k in ("x1", "y1", "x2", "y2"))
        return min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)
    if el.type == "icon" and not p.given("w"):
        size = p.get("size")
        return p.get("x"), p.get("y"), size, size
    if "x" in el.definition.keys and "w" in el.definition.keys:
        return p.box()
    return None


def __getattr__(name: str):
    """`cell_polygons` and `track_positions` live with their elements; still importable from here."""
    if name == "cell_polygons":
        from pnpgen.layout.elements.cells import cell_polygons

        return cell_polygons
    if name == "track_positions":
        from pnpgen.layout.elements.track import track_positions

        return track_positions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
