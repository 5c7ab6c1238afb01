"""Diagram files (`content/<game>/diagrams/<id>.yaml`): a board side or a plain area, a grid of cells on it, and
pieces, arrows, labels and marked cells placed on those cells. Their tables, and the conversion of a cell.

A cell is written 'C4' (column letter, row number) or [col, row] (numbers from 1; halves place a piece between
cells: [2.5, 1] sits on the line between B1 and C1). `pnpgen.rulebook.diagrams` checks the cells against the grid
and the pieces against the game's components, and draws the faces.
"""

from __future__ import annotations

import re

from pnpgen.schema.fields import (
    Invalid,
    Key,
    Table,
    as_bool,
    as_colour,
    as_id,
    as_length,
    as_number,
    as_str,
    describe,
    mapping,
)
from pnpgen.source import LList
from pnpgen.units import MM

MAX_GRID = 60  # columns or rows
MAX_PIECES = 400  # in one diagram
MAX_ARROWS = 200
MAX_LABELS = 200
MAX_MARKS = 400
MAX_DIAGRAMS = 60  # different diagrams in one rulebook
MAX_PLACED = 200  # diagrams placed in one rulebook, a diagram placed twice counted twice
MAX_SIZE_PT = 600 * MM  # a diagram's area, a piece's size
_CELL = re.compile(r"^([A-Za-z]{1,2})(\d{1,3})$")


def as_cell(value) -> tuple[float, float]:
    """'C4' -> (3, 4); [3, 4] -> (3.0, 4.0). Whether it lies on the grid is checked with the grid."""
    if isinstance(value, str):
        m = _CELL.match(value.strip())
        if not m:
            raise Invalid(f"must be a cell such as 'C4' or [3, 4] (got {value!r})")
        letters = m.group(1).upper()
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - 64)
        return float(col), float(m.group(2))
    if isinstance(value, LList) and len(value) == 2:
        x, y = (as_number(v) for v in value)
        return x, y
    raise Invalid(f"must be a cell such as 'C4' or [3, 4] (got {describe(value)})")


def _between(lo: float, hi: float, convert=as_number, unit: str = ""):
    def check(value):
        number = convert(value)
        shown = number / MM if unit == "mm" else number
        if not lo <= shown <= hi:
            raise Invalid(f"must be from {lo:g}{unit} to {hi:g}{unit} (got {shown:g}{unit})")
        return number

    return check


def _grid_count(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GRID:
        raise Invalid(f"must be a whole number from 1 to {MAX_GRID} (got {describe(value)})")
    return value


def _items(limit: int, what: str):
    def check(value) -> LList:
        if not isinstance(value, LList):
            raise Invalid(f"must be a list of {what}")
        if len(value) > limit:
            raise Invalid(f"holds {len(value):,} {what}; a diagram takes at most {limit}")
        return value

    return check


def as_card(value):
    """A card of a component: its `id`, or its `name` where no other card has it; never its place in the list
    (moving a card in its file must change no picture)."""
    if isinstance(value, bool) or not isinstance(value, str):
        if isinstance(value, int):
            raise Invalid(
                f"must name a card by its id or name, not by its place in the list (got {value}): "
                f"moving a card in its file would change the picture (a card named {value}? write it in quotes)"
            )
        raise Invalid(f"must be a card's id or name (got {describe(value)})")
    return value


def as_shows(value) -> str:
    if value not in ("legal", "illegal"):
        raise Invalid(f"must be 'legal' or 'illegal' (got {describe(value)})")
    return value


_LENGTH = _between(0, 600, as_length, "mm")
_EXTENT = _between(1, 600, as_length, "mm")  # a width or height something is scaled by: never zero

DIAGRAM = Table(
    "diagram",
    (
        Key("caption", as_str, "printed under the diagram", required=True),
        Key(
            "width", _between(20, 400, as_length, "mm"), "printed width in the rulebook; default: the column"
        ),
        Key("board", as_id, "a board whose side is drawn underneath; default: a plain area"),
        Key("side", as_id, "the board's side; default: its first"),
        Key("area", mapping(), "without a board: the plain area's `w`, `h` and `fill`"),
        Key("view", mapping(), "the part shown (`x`, `y`, `w`, `h` from the top-left); default: all"),
        Key("grid", mapping(), "where the cells are: `x`, `y`, `cols`, `rows`, `cell` ...", required=True),
        Key("pieces", _items(MAX_PIECES, "pieces"), "components' faces placed on cells"),
        Key("arrows", _items(MAX_ARROWS, "arrows"), "arrows from cell to cell"),
        Key("labels", _items(MAX_LABELS, "labels"), "text placed on cells"),
        Key("marks", _items(MAX_MARKS, "marks"), "cells shaded to show where something may go"),
        Key(
            "shows",
            as_shows,
            "`illegal`: a wrong move on purpose, which must break one of the game's rules",
            default="legal",
        ),
        Key(
            "part", as_str, "which part of a piece the view shows, when it cuts one (printed in the caption)"
        ),
    ),
)
AREA = Table(
    "diagram area",
    (
        Key("w", _EXTENT, "width", required=True),
        Key("h", _EXTENT, "height", required=True),
        Key("fill", as_colour, "its colour; default a light parchment", default="#f4ecd8"),
    ),
)
VIEW = Table(
    "diagram view",
    (
        Key("x", _LENGTH, "left edge of the part shown", default=0.0),
        Key("y", _LENGTH, "top edge of the part shown", default=0.0),
        Key("w", _EXTENT, "its width", required=True),
        Key("h", _EXTENT, "its height", required=True),
    ),
)
GRID = Table(
    "diagram grid",
    (
        Key("x", _LENGTH, "left edge of column 1, from the board's (or area's) left", default=0.0),
        Key("y", _LENGTH, "top edge of row 1", default=0.0),
        Key("cols", _grid_count, "columns (A, B, C ...)", required=True),
        Key("rows", _grid_count, "rows (1, 2, 3 ...)", required=True),
        Key("cell", _between(1, 300, as_length, "mm"), "a cell's width and height", required=True),
        Key("cell_h", _between(1, 300, as_length, "mm"), "a cell's height when it differs from its width"),
        Key("lines", as_bool, "draw the cells' outlines; default: only on a plain area"),
        Key("coords", as_bool, "print column letters and row numbers along the edges", default=False),
    ),
)
PIECE = Table(
    "diagram piece",
    (
        Key("piece", as_id, "a component's id (a board too: `card` then names its side)", required=True),
        Key("card", as_card, "which card: its id, or its name where no other has it (a board: its side)"),
        Key("at", as_cell, "the cell it stands on", required=True),
        Key("back", as_bool, "show its back instead of its front", default=False),
        Key("size", _between(2, 600, as_length, "mm"), "its longer side as drawn; default: its true size"),
        Key("rotate", _between(-360, 360), "degrees, anticlockwise", default=0.0),
    ),
)
ARROW = Table(
    "diagram arrow",
    (
        Key("from", as_cell, "the cell it starts on", required=True),
        Key("to", as_cell, "the cell it points at", required=True),
        Key("label", as_str, "text at its middle"),
        Key("colour", as_colour, "default: dark ink", default="#1f1d1a"),
        Key("dashed", as_bool, "a dashed line: a move that may not be made", default=False),
        Key("kind", as_id, "what the arrow means, for the game's rules (`feeds`, `sails` ...)"),
        Key("measure", as_id, "its label is this measure of facts.yaml, worked out for the arrow"),
    ),
)
LABEL = Table(
    "diagram label",
    (
        Key("at", as_cell, "the cell it is centred on", required=True),
        Key("text", as_str, "what it says (a few words); with `measure`, given to it as `it.text`"),
        Key("measure", as_id, "the label shows this measure of facts.yaml, worked out for it"),
        Key("size", _between(6, 24), "type size in points", default=8.0),
        Key("colour", as_colour, "default: dark ink", default="#1f1d1a"),
    ),
)
MARK = Table(
    "diagram mark",
    (
        Key("at", as_cell, "the cell shaded", required=True),
        Key("fill", as_colour, "default: green", default="#3c8c4a"),
        Key("cross", as_bool, "a cross instead of shading: not allowed here", default=False),
    ),
)
COVER = Table(
    "rulebook cover",
    (
        Key("background", as_str, "a palette name or a colour: the cover's ground", required=True),
        Key("ink", as_str, "a palette name or a colour: the title and text", required=True),
        Key("accent", as_str, "a palette name or a colour: the frame and subtitle", required=True),
        Key("art", as_id, "a diagram of `diagrams/` drawn as the cover's picture (no caption)"),
    ),
)
TABLES = (DIAGRAM, AREA, VIEW, GRID, PIECE, ARROW, LABEL, MARK, COVER)
