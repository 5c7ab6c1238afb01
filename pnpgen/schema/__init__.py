"""Located YAML data -> the validated model. Every error is collected with its file:line:column.

Each content mapping has a table of its keys (`pnpgen.schema.fields.Table`): game.yaml (`game`), a deck, tile
set or token sheet and its cards (`components`), a board and its sides, facts.yaml (`facts`), and an icon
(`pnpgen.schema.icons`). `tables()` lists them all, for the docs and their test.
"""

from __future__ import annotations

from pnpgen.schema.components import load_component
from pnpgen.schema.fields import Invalid, Key, Table, Values, as_id, as_str, freeze
from pnpgen.schema.game import default_reader, load_game

__all__ = [
    "Invalid",
    "Key",
    "Table",
    "Values",
    "as_id",
    "as_str",
    "default_reader",
    "freeze",
    "load_component",
    "load_game",
    "tables",
]


def tables() -> tuple[Table, ...]:
    """Every table of content keys (layout elements excepted: `pnpgen.layout.elements` declares their keys)."""
    from pnpgen.schema.components import BOARD, CARD, DEFAULTS, PIECES, SIDE
    from pnpgen.schema.diagrams import TABLES as DIAGRAMS
    from pnpgen.schema.facts import TABLES as FACTS
    from pnpgen.schema.game import GAME, PRINT
    from pnpgen.schema.icons import ICON, SHAPE

    return (GAME, PRINT, *PIECES.values(), CARD, DEFAULTS, BOARD, SIDE, ICON, SHAPE, *FACTS, *DIAGRAMS)
