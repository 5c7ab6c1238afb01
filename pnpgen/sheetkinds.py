"""The kinds of file a deck's cards may come from (`cards_from`), by suffix: the one list of them.

A kind says how its places read (a cell, row and column, or a text's line and column), whether it holds named
sheets (`file.xlsx:Sheet`), and whether `pnpgen edit` and serve's editor write it (a CSV file's cells and a YAML
file's values are spliced; any other kind is shown read-only, with the place to change it). How each is parsed
is `schema/datasheets.py`'s, which refuses to load without a parser for every kind here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class SheetKind:
    name: str  # how a message names it: "CSV file", "workbook", "YAML list", "JSON list"
    suffixes: tuple[str, ...]
    cells: bool  # its places are a sheet's cells, told as row and column (`data/cards.csv:3:2`, `...!B3`)
    sheets: bool = False  # it holds named sheets: `file.xlsx:Sheet`
    edited: bool = False  # `pnpgen edit` and serve's editor write its cards


KINDS = (
    SheetKind("CSV file", (".csv",), cells=True, edited=True),
    SheetKind("workbook", (".xlsx", ".xlsm", ".ods", ".xls"), cells=True, sheets=True),
    SheetKind("YAML list", (".yaml", ".yml"), cells=False, edited=True),
    SheetKind("JSON list", (".json",), cells=False),
)


@lru_cache(maxsize=1024)  # asked of every located value's file (`Location.in_sheet`): a few names, many times
def kind_of(path: str) -> SheetKind | None:
    """The kind of a data sheet by its name's suffix (any case); None for a name no kind has."""
    dot = path.rfind(".")
    suffix = path[dot:].lower() if dot >= 0 and "/" not in path[dot:] and "\\" not in path[dot:] else ""
    return next((k for k in KINDS if suffix in k.suffixes), None)


def expected() -> str:
    """The kinds, for a message: '.csv, .xlsx, .xlsm, .ods, .xls, a .yaml or .yml list or a .json list'."""
    plain = [s for k in KINDS if k.cells for s in k.suffixes]
    lists = [" or ".join(k.suffixes) + " list" for k in KINDS if not k.cells]
    return ", ".join(plain) + ", a " + " or a ".join(lists)
