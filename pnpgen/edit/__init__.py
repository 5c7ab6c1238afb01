"""The one writer of layout and card files: `pnpgen edit`, and the editor in `pnpgen serve`, change files
through these functions only. A change is made in place, like a person would make it: only the edited values'
characters change; comments, key order, quoting, indentation, flow or block style, line endings and a byte order
mark stay (`textfile`, `source.outline`). Every value is checked by the field tables the build uses before
anything is written; a refused edit leaves the file untouched.

The API (stable: extended, never renamed):

- `locate(project, game_root, layout, element) -> Where`: the file of the layout's `extends` chain that
  defines an element (`element`: its `id:`, its position in the layout as built from 0, or the built `Element`
  a drawn span names in `FaceContext.origins`), its line, whether
  it can be moved by dragging and, if not, why and which line to edit.
- `set_values(path, element, {key: value}, expect_digest=None) -> Edit`: set (or, with None, remove) keys
  of one element of the layout file `path` (`element`: its `id:` or its position in that file's
  `elements:`, from 0).
- `add_element(path, kind, values, after=None, expect_digest=None) -> Edit`; `delete_element(path, element,
  expect_digest=None) -> Edit`; `duplicate_element(path, element, new_id=None, expect_digest=None) -> Edit`;
  `move_order(path, element, to, expect_digest=None) -> Edit` (its new position, from 0).
- `set_card_field(source_file, card, field, value, expect_digest=None, sheet=None) -> Edit`: a card field in
  a YAML file (a board side's `fields:` too) or a CSV cell (`card`: its position in the file from 0, or its
  name; a side's id); a workbook (XLSX, ODS, XLS) is refused with the sheet and cell to change, a JSON list
  at the card's field.
- `writable_reason(game_root, path, card_files=()) -> str`: why the editor may not write a file ('' when it
  may): the game's own `layouts/*.yaml`, and `card_files_of(game.decks, project.root)`.

Every call returns an `Edit`: the new digest (sha256 of the file's bytes) and the changed lines. When
`expect_digest` is given and the file's bytes no longer have it, the call raises `Conflict` (a ContentError; the
server answers 409) and writes nothing. Other refusals raise `ContentError` with file:line:column. Writes are
atomic (temporary file, one rename).
"""

from __future__ import annotations

from pnpgen.edit.cards import set_card_field
from pnpgen.edit.layout import Edit, Where, set_values
from pnpgen.edit.order import add_element, delete_element, duplicate_element, move_order
from pnpgen.edit.textfile import Conflict, digest
from pnpgen.edit.where import card_files_of, locate, writable_reason

__all__ = [
    "card_files_of",
    "Conflict",
    "Edit",
    "Where",
    "add_element",
    "delete_element",
    "digest",
    "duplicate_element",
    "locate",
    "move_order",
    "set_card_field",
    "set_values",
    "writable_reason",
]
