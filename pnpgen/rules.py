"""Rules as data: the `rules` of a game's facts.yaml held against every diagram of `diagrams/`.

A rule is an expression in the same sandboxed, bounded language as the facts' (`pnpgen.templating`), over a
diagram's scene (`pnpgen.schema.scene`): its pieces with their cards' fields and cells, its arrows, the board
under it. With `each`, the rule's `holds` is asked of every item `each` gives, as `it`; a broken rule is
reported at the line of the diagram file that placed the item (or at the diagram's first line). A diagram that
says `shows: illegal` must break at least one rule. The names an expression sees are `NAMES` below.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path, short
from pnpgen.schema.scene import Scene, read_scene
from pnpgen.templating import Compiler, TemplateProblem, made, read

NEAR = 0.01  # cells: two positions closer than this are one
MAX_CELLS = 3600  # a 60 x 60 grid
MAX_ITEMS = 10_000  # items a rule's `each` may give, per diagram
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NAMES = {
    "pieces(component, field=value ...)": "the diagram's pieces, of one component and with those fields",
    "arrows": "the diagram's arrows: `start`, `end` ([col, row]), `label`, `kind`, `dashed`",
    "labels": "the diagram's labels: `at`, `text`, `measure`",
    "marks": "the diagram's marked cells: `col`, `row`, `cross`, `fill`",
    "beside(piece, component, step)": "pieces `step` cells (default 1) away along a row or a column",
    "diagonal(piece, component, step)": "pieces `step` cells away diagonally",
    "below(piece, component, step)": "pieces `step` rows down, at most `step` columns to either side",
    "on(point, component)": "the topmost piece covering a point [col, row], or none",
    "at(cell, component)": "the pieces standing in a whole cell [col, row]",
    "cells(col1, row1, col2, row2)": "every whole cell [col, row] of that rectangle, row by row (at most 3,600)",
    "cell(point)": "the whole cell [col, row] a point lies in",
    "look_up(table, keys)": "the value of each key in a table (a mapping): a token's turn to the number it shows",
    "board": "the board side under the diagram: its fields, and `data` (the board's own data)",
    "measure(id, item)": "a measure of facts.yaml worked out for an arrow or label",
    "total(id, items)": "the sum of a measure over items (arrows, say)",
    "it": "with `each`: the item being checked; in a measure, the arrow or label it is for",
}


class Item(dict):
    """A piece, arrow or label as a rule sees it; `loc` is where the diagram file places it."""

    loc: Location = Location("")


def _piece_item(p, grid) -> Item:
    item = Item(p.fields())
    comp = p.component
    w, h = (comp.width_pt, comp.height_pt) if p.card is not None or comp.kind == "board" else (0.0, 0.0)
    k = 1.0 if p.size_pt is None or not max(w, h) else p.size_pt / max(w, h)
    ch = grid["cell_h"] if grid["cell_h"] is not None else grid["cell"]
    item["w"], item["h"] = w * k / grid["cell"], h * k / ch  # in cells
    item["cell"] = _Scope.cell(p.at)
    item.loc = p.loc
    return item


class _Scope:
    def __init__(self, scene: Scene, game, measures: dict | None = None, compiler: Compiler | None = None):
        self.measures, self.compiler = measures or {}, compiler or Compiler()
        self._depth = 0
        self.items = [_piece_item(p, scene.grid) for p in scene.pieces]
        self.arrows = []
        for a in scene.arrows:
            item = Item(start=list(a.start), end=list(a.end), label=a.label, kind=a.kind, dashed=a.dashed)
            item.loc = a.loc
            self.arrows.append(item)
        self.labels = []
        for lab in scene.labels:
            item = Item(at=list(lab.at), text=lab.text, measure=lab.measure)
            item.loc = lab.loc
            self.labels.append(item)
        self.marks = []
        for cell, fill, cross, loc in scene.marks:
            item = Item(col=cell[0], row=cell[1], cell=self.cell(cell), fill=fill, cross=cross)
            item.loc = loc
            self.marks.append(item)
        self.board = None
        top = scene.top
        if top["board"] is not None:
            board = next((c for c in game.components if c.id == top["board"]), None)
            if board is not None and board.kind == "board":
                side = next((s for s in board.sides if s.id == top["side"]), board.sides[0])
                self.board = {**dict(side.fields), "data": board.data}

    def _of(self, component):
        return [p for p in self.items if component is None or p["component"] == component]

    def pieces(self, component=None, **filters):
        return [p for p in self._of(component) if all(p.get(k) == v for k, v in filters.items())]

    def _near(self, p, component, test):
        return [
            q for q in self._of(component) if q is not p and test(q["col"] - p["col"], q["row"] - p["row"])
        ]

    def beside(self, p, component=None, step=1):
        return self._near(
            p, component, lambda dc, dr: _is(abs(dc) + abs(dr), step) and (_zero(dc) or _zero(dr))
        )

    def diagonal(self, p, component=None, step=1):
        return self._near(p, component, lambda dc, dr: _is(abs(dc), step) and _is(abs(dr), step))

    def below(self, p, component=None, step=1):
        return self._near(p, component, lambda dc, dr: _is(dr, step) and abs(dc) <= step + NEAR)

    def at(self, cell, component=None):
        return [q for q in self._of(component) if q["cell"] == list(cell)]

    @staticmethod
    def cells(c1, r1, c2, r2):
        cols, rows = range(int(c1), int(c2) + 1), range(int(r1), int(r2) + 1)
        if len(cols) * len(rows) > MAX_CELLS:
            raise ValueError(f"cells(): at most {MAX_CELLS} cells")
        return [[c, r] for r in rows for c in cols]

    def on(self, point, component=None):
        x, y = point
        for q in reversed(self._of(component)):
            if abs(x - q["col"]) <= q["w"] / 2 + NEAR and abs(y - q["row"]) <= q["h"] / 2 + NEAR:
                return q
        return None

    @staticmethod
    def look_up(table, keys):
        keys = list(keys)
        if len(keys) > MAX_CELLS:
            raise ValueError(f"look_up(): at most {MAX_CELLS} keys")
        missing = [k for k in keys if k not in table]
        if missing:
            raise ValueError(f"look_up(): the table has no {missing[0]!r}")
        return [table[k] for k in keys]

    @staticmethod
    def cell(point):
        return [math.floor(point[0] + 0.5), math.floor(point[1] + 0.5)]

    def measure(self, mid, item=None):
        m = self.measures.get(str(mid))
        if m is None:
            raise ValueError(f"no measure '{mid}' in facts.yaml")
        if self._depth > 8:
            raise ValueError(f"measure '{mid}' calls measures more than 8 deep")
        self._depth += 1
        try:
            return _eval(self.compiler, m, "value", self.names(item))
        finally:
            self._depth -= 1

    def total(self, mid, items):
        return sum(self.measure(mid, item) for item in items)

    def names(self, it=None) -> dict:
        return {
            "measure": self.measure,
            "total": self.total,
            "pieces": self.pieces,
            "arrows": self.arrows,
            "labels": self.labels,
            "marks": self.marks,
            "at": self.at,
            "cells": self.cells,
            "beside": self.beside,
            "diagonal": self.diagonal,
            "below": self.below,
            "on": self.on,
            "cell": self.cell,
            "look_up": self.look_up,
            "board": self.board,
            "it": it,
        }


def _is(d: float, step: float) -> bool:
    return abs(d - step) <= NEAR


def _zero(d: float) -> bool:
    return abs(d) <= NEAR


def check_diagrams(game, reader, rules: list, report, measures: dict | None = None) -> None:
    """Every diagram of the game's `diagrams/` held against `rules` (facts.yaml's); findings go to `report`."""
    folder = game.root / "diagrams"
    try:
        paths = reader.listing(folder, "*.yaml", "diagrams folder")
    except ContentError as exc:
        report.add_file_problems("diagrams", exc.diagnostics)
        return
    _named(rules, {p.stem for p in paths}, report)
    compiler = Compiler()
    for path in paths:
        display = display_path(path)
        diags = Diagnostics()
        try:
            scene = read_scene(game, path.stem, reader.load_yaml(path, "diagram"), display, diags)
        except ContentError:
            continue  # an unreadable file: the rulebook that draws it reports it
        if scene is None:
            continue  # its own problems: reported where the rulebook draws it
        broken = _broken(scene, game, rules, compiler, report, measures)
        if broken is None:
            continue
        if scene.illegal and not broken:
            report.add(
                "error",
                f"diagram {scene.id}",
                "says 'shows: illegal' but breaks none of the game's rules",
                scene.data.loc_of("shows"),
            )
        if not scene.illegal:
            for rule, loc in broken:
                report.add("error", f"diagram {scene.id}", f"breaks rule '{rule['id']}': {rule['says']}", loc)


def _named(rules: list, ids: set[str], report) -> None:
    """A rule's `diagrams` naming no diagram of the game (a typo, or none at all): the rule would never be
    checked, without a word."""
    for rule in rules:
        named = rule["diagrams"]
        if named is None:
            continue
        where = rule.loc_of("diagrams")
        if not named:
            hint = "leave 'diagrams' out to hold every diagram to it"
            report.add(
                "error",
                f"rule {rule['id']}",
                "'diagrams' names none: no diagram is held to it",
                where,
                hint=hint,
            )
        for d in dict.fromkeys(named):
            if d not in ids:
                message = (
                    f"'diagrams' names '{short(d)}', which diagrams/ does not hold: it is never checked there"
                )
                report.add("error", f"rule {rule['id']}", message, where, hint=did_you_mean(d, ids))


def measured(scene: Scene, game, measures: dict, diags: Diagnostics) -> tuple[dict, dict]:
    """The texts of the arrows' and labels' `measure`s (by index), worked out by facts.yaml's expressions."""
    scope = _Scope(scene, game, measures)
    arrows: dict[int, str] = {}
    labels: dict[int, str] = {}
    pairs: tuple[tuple[dict[int, str], list[Any], list[Item]], ...] = (
        (arrows, list(scene.arrows), scope.arrows),
        (labels, list(scene.labels), scope.labels),
    )
    for out, items, given in pairs:
        for i, (item, shown) in enumerate(zip(items, given, strict=True)):
            if item.measure is None:
                continue
            if item.measure not in measures:
                diags.error(
                    item.loc, f"no measure '{item.measure}' in facts.yaml's measures", _known(measures)
                )
                continue
            try:
                value = scope.measure(item.measure, shown)
            except TemplateProblem as exc:
                diags.error(exc.location, exc.message)
                continue
            except ContentError as exc:
                diags.extend(exc.diagnostics)
                continue
            except (TypeError, ValueError) as exc:
                diags.error(item.loc, f"measure '{item.measure}': {exc}")
                continue
            wrong = _not_printable(value)
            if wrong:  # `str` of it printed a memory address, a repr, `nan`, `None` into the example
                diags.error(
                    measures[item.measure].loc_of("value"),
                    f"measure '{item.measure}' gives {wrong}: a diagram prints only a number or a text",
                )
                continue
            out[i] = f"{value:g}" if isinstance(value, float) else str(value)
    return arrows, labels


def _not_printable(value) -> str:
    """What a measure's value is, when it is not a finite number or a text; '' when it is one."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return ""
    if isinstance(value, float):
        return "" if math.isfinite(value) else f"a number that is not finite ({value})"
    if value is None or isinstance(value, bool):
        return str(value).lower()
    if callable(value):
        return "a function rather than its result"
    if isinstance(value, dict | list | tuple | set):
        return f"a {'mapping' if isinstance(value, dict) else 'list'}"
    return "a sequence still to be read"


def _known(measures: dict) -> str:
    return "measures: " + ", ".join(sorted(measures)) if measures else "facts.yaml has no measures"


def _broken(scene: Scene, game, rules: list, compiler: Compiler, report, measures=None):
    """The (rule, location) pairs the scene breaks; None when a rule could not be evaluated (reported)."""
    scope = _Scope(scene, game, measures, compiler)
    out = []
    for rule in rules:
        if rule["diagrams"] is not None and scene.id not in rule["diagrams"]:
            continue
        try:
            items = [None]
            if rule["each"] is not None:
                items = _items(_eval(compiler, rule, "each", scope.names()), rule, compiler)
            for item in items:
                held = _eval(compiler, rule, "holds", scope.names(item))
                if not isinstance(held, bool):
                    got = _not_printable(held) or short(repr(held))  # never an address, nor 100 kB
                    raise TemplateProblem(
                        rule.loc_of("holds"), f"'holds' must give true or false (got {got})"
                    )
                if not held:
                    loc = _where(item, scope) or scene.data.loc
                    out.append((rule, loc))
        except TemplateProblem as exc:
            report.add("error", f"rule {rule['id']}", f"in diagram '{scene.id}': {exc.message}", exc.location)
            return None
        except ContentError as exc:
            d = exc.diagnostics.items[0]
            report.add("error", f"rule {rule['id']}", d.message, d.location, hint=d.hint)
            return None
        except (TypeError, ValueError) as exc:
            report.add("error", f"rule {rule['id']}", f"in diagram '{scene.id}': {exc}", rule.loc)
            return None
    return out


def _items(given, rule, compiler: Compiler) -> list:
    """`each`'s items: a list (or other finite sequence) of at most MAX_ITEMS; one made as it is read (a `map`)
    fails at `each`'s line."""
    if isinstance(given, (str, bytes, dict)) or not hasattr(given, "__iter__"):
        raise TemplateProblem(rule.loc_of("each"), f"'each' must give a list (got {type(given).__name__})")
    items = read(compiler.expression(rule["each"], rule.loc_of("each")), given, MAX_ITEMS)
    if len(items) > MAX_ITEMS:
        raise TemplateProblem(rule.loc_of("each"), f"'each' gives more than {MAX_ITEMS:,} items")
    return items


def _where(item, scope: _Scope) -> Location | None:
    """Where a broken item is placed: a piece's, arrow's or label's line; for a cell, its first piece's."""
    loc = getattr(item, "loc", None)
    if loc is None and isinstance(item, list) and len(item) == 2:
        found = scope.at(item)
        loc = found[0].loc if found else None
    return loc


def _uses(expr: str, words: set[str]) -> bool:
    return any(w in words for w in _WORD.findall(expr))


def _eval(compiler: Compiler, rule, key: str, names: dict):
    """`rule[key]` worked out with `names`, after the rule's `let` (each name worked out in turn)."""
    if rule["let"]:
        names = dict(names)
        later: set[str] = set()  # names worked out per item (they use `it`), for `holds` only
        for name, expr in rule["let"].items():
            if key == "each" and _uses(str(expr), later | {"it"}):
                later.add(str(name))
                continue
            value = compiler.expression(expr, rule["let"].loc_of(name))
            names[str(name)] = made(value, value(names))  # a lazy sequence read once, for every use
    return compiler.expression(rule[key], rule.loc_of(key))(names)
