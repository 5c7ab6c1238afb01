"""Card data changed where it is kept: a field of a card in a YAML file (its line, in place, as `mapping` does
for layouts) or a cell of a CSV file (its delimiter and quoting kept). A workbook (XLSX, ODS, XLS) is never
written: the refusal names the sheet and the cell to change in a spreadsheet program. Nor is a JSON list of cards
(any kind `sheetkinds` does not mark `edited`): its refusal stands at the card's field.

`card` is the card's position in the file (from 0: the items of its `cards:`, `tiles:` or `tokens:` list, or the
sheet's rows after the header, empty rows not counted, as the build reads them) or its `name`. A board's side is
a card too: named by its `id`, its fields are those of its `fields:` mapping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpgen.edit import mapping, scalars
from pnpgen.edit.layout import Edit, changed_lines, reads_back
from pnpgen.edit.textfile import TextFile, digest, read, write
from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean
from pnpgen.sheetkinds import SheetKind, kind_of
from pnpgen.source import LList, LMap, Node, load_text, outline
from pnpgen.textfiles import plain_text

LISTS = ("cards", "tiles", "tokens")


def set_card_field(
    source_file: Path,
    card: int | str,
    field: str,
    value: Any,
    expect_digest: str | None = None,
    sheet: str | None = None,
) -> Edit:
    """Set one field of one card where the build reads it (None: a YAML card loses the field, a cell empties)."""
    kind = kind_of(source_file.name)  # None: a component's own YAML file
    if kind and kind.sheets:
        raise _workbook(source_file, card, field, sheet)
    tf = read(source_file, expect_digest)
    if kind and not kind.edited:
        raise _readonly(tf, kind, card, field)
    if kind and kind.cells:
        return _csv(tf, card, field, value)
    return _yaml(tf, card, field, value)


def _pick(names: list, card: int | str, loc: Location, what: str) -> int:
    if isinstance(card, int) and not isinstance(card, bool):
        if 0 <= card < len(names):
            return card
        raise ContentError.at(loc, f"no card {card} in this {what}: it has {len(names)} (counted from 0)")
    if names.count(card) > 1:
        raise ContentError.at(loc, f"{names.count(card)} cards are named '{card}'; give the card's position")
    if card in names:
        return names.index(card)
    raise ContentError.at(
        loc, f"no card named '{card}' in this {what}", did_you_mean(str(card), [str(n) for n in names if n])
    )


# -- YAML --------------------------------------------------------------------------------------------------------


def _yaml(tf: TextFile, card: int | str, field: str, value: Any) -> Edit:
    data = load_text(tf.plain, tf.display)
    root = outline(tf.plain, tf.display)
    key = next(
        (k for k in (*LISTS, "sides") if isinstance(data, LMap) and isinstance(data.get(k), LList)), None
    )
    listed = isinstance(data, LList)  # a YAML file of cards that `cards_from` names: a list at the top
    if root is None or root.kind != ("seq" if listed else "map") or not (listed or key):
        raise ContentError.at(
            Location(tf.display, 1, 1),
            "no list of cards here (cards:, tiles:, tokens:, a board's sides:, or a YAML list of cards)",
        )
    items: LList = data if listed else data[key]
    seq = root if listed else next(v for k, v in root.items if k.text == key)
    names = [c.get("id" if key == "sides" else "name") if isinstance(c, LMap) else None for c in items]
    i = _pick(names, card, items.loc, "file")
    node: Node = seq.items[i]
    raw = items[i]
    if node.kind != "map" or not isinstance(raw, LMap):
        raise ContentError.at(items.loc_at(i), "this card is not written as a mapping here")
    places = mapping.places(root)
    value = round(value, places) if type(value) is float else value  # as it is written
    if key == "sides":  # a board side's card-like fields are its `fields:` mapping
        changes = _side(tf, node, raw, field, value, places)
    else:
        _check_card(raw, field, value)
        changes = mapping.changes(tf, node, {field: value}, lambda _k: places, "a card")
    text = tf.spliced(changes)
    plain = plain_text(text)
    again = load_text(plain, tf.display)
    new = again[i] if listed else again[key][i]
    reads_back((new.get("fields") or {}) if key == "sides" else new, {field: value}, items.loc_at(i))
    written = write(tf, text)
    return Edit(tf.path, tf.digest, digest(written), changed_lines(tf.plain, plain))


def _check_card(raw: LMap, field: str, value: Any) -> None:
    """The card with its new value, checked by the build's table of card keys (count, name, designed...)."""
    from pnpgen.schema.components import CARD

    check = LMap(raw)
    check.loc, check.key_locs, check.val_locs = raw.loc, dict(raw.key_locs), dict(raw.val_locs)
    if value is None:
        check.pop(field, None)
    else:
        check[field] = value
    diags = Diagnostics()
    CARD.read(check, diags)
    diags.raise_if_errors()


def _side(tf: TextFile, node: Node, raw: LMap, field: str, value: Any, places: int) -> list[mapping.Change]:
    """The splices that set a field of a board side: inside its `fields:` mapping (added when it has none)."""
    at = next((v for k, v in node.items if k.text == "fields"), None)
    if at is None:
        if value is None:
            return []
        return mapping.changes(tf, node, {"fields": {field: value}}, lambda _k: places, "a board side")
    if at.kind != "map":
        raise ContentError.at(
            Location(tf.display, at.line, at.col), "'fields' is not written as a mapping here"
        )
    if (
        value is None and field in raw["fields"] and len(raw["fields"]) == 1
    ):  # its last field: an empty mapping
        return mapping.changes(tf, node, {"fields": {}}, lambda _k: places, "a board side")
    return mapping.changes(tf, at, {field: value}, lambda _k: places, "a board side's fields")


# -- CSV ---------------------------------------------------------------------------------------------------------


def _cells(text: str, delimiter: str, quote: str) -> list[list[tuple[int, int, str, bool]]]:
    """Each row of a CSV text, each cell (start, end, value, quoted), indexes into `text` (LF line ends)."""
    rows: list[list[tuple[int, int, str, bool]]] = []
    row: list[tuple[int, int, str, bool]] = []
    i, n = 0, len(text)
    while i < n or row:
        start = i
        if i < n and text[i] == quote:
            j, parts = i + 1, []
            while j < n:
                if text[j] == quote:
                    if j + 1 < n and text[j + 1] == quote:
                        parts.append(quote)
                        j += 2
                        continue
                    break
                parts.append(text[j])
                j += 1
            end = min(j + 1, n)
            value, quoted = "".join(parts), True
            while end < n and text[end] not in (delimiter, "\n"):
                end += 1  # characters after a closing quote stay in the cell's span
        else:
            end = i
            while end < n and text[end] not in (delimiter, "\n"):
                end += 1
            value, quoted = text[i:end], False
        row.append((start, end, value, quoted))
        if end < n and text[end] == delimiter:
            i = end + 1
            continue
        rows.append(row)
        row = []
        i = end + 1
        if i > n:
            break
    return rows


def _csv(tf: TextFile, card: int | str, field: str, value: Any) -> Edit:
    from pnpgen.schema.datasheets import _csv_cells, csv_dialect

    dialect = csv_dialect(tf.plain)
    delimiter, quote = dialect.delimiter, dialect.quotechar or '"'
    rows = [r for r in _cells(tf.plain, delimiter, quote) if any(c[2].strip() for c in r)]
    if not rows:
        raise ContentError.at(
            Location(tf.display, 1, 1), "the file has no header row (the first row names the fields)"
        )
    header = [c[2].strip() for c in rows[0]]
    if field not in header:
        raise ContentError.at(
            Location(tf.display, tf.line_of(rows[0][0][0]), 1),
            f"no column '{field}' in the header row; add the column first",
            did_you_mean(field, [h for h in header if h]),
        )
    col = header.index(field)
    names = [
        r[header.index("name")][2] if "name" in header and header.index("name") < len(r) else None
        for r in rows[1:]
    ]
    i = _pick(names, card, Location(tf.display), "sheet") + 1
    row = rows[i]
    line = tf.line_of(row[0][0])
    if isinstance(value, (list, tuple, dict)):
        raise ContentError.at(Location(tf.display, line, col + 1), f"'{field}' takes one value in a cell")
    text = (
        "" if value is None else scalars.number(value, 6) if isinstance(value, (int, float)) else str(value)
    )
    if col < len(row):
        start, end, _old, quoted = row[col]
        new = _cell(text, quoted, delimiter, quote)
        change = (start, end, new)
    else:  # a short row: the cells it lacks are added empty
        at = row[-1][1]
        change = (at, at, delimiter * (col - len(row) + 1) + _cell(text, False, delimiter, quote))
    new_text = tf.spliced([change])
    plain = plain_text(new_text)
    check = [r for r in _cells(plain, delimiter, quote) if any(c[2].strip() for c in r)]
    got = check[i][col][2] if col < len(check[i]) else ""
    built = list(_csv_cells(plain, tf.display))  # and as the build reads the sheet (`schema/datasheets`)
    read = built[i][1].get(col + 1, "") if len(built) == len(rows) else None
    if len(check) != len(rows) or got != text or read != text:
        raise ContentError.at(
            Location(tf.display, line, col + 1), f"'{field}' cannot be written in this cell as given"
        )
    written = write(tf, new_text)
    return Edit(tf.path, tf.digest, digest(written), changed_lines(tf.plain, plain))


def _cell(text: str, quoted: bool, delimiter: str, quote: str) -> str:
    if quoted or any(ch in text for ch in (delimiter, quote, "\n", "\r")) or text != text.strip():
        return quote + text.replace(quote, quote * 2) + quote
    return text


def _readonly(tf: TextFile, kind: SheetKind, card: int | str, field: str) -> ContentError:
    """The refusal for a card of a file pnpgen does not write (`sheetkinds`: JSON, a list of cards or a
    component's own file written as JSON, which loads as YAML does): at the card's field."""
    from pnpgen.schema.cardlists import load_json

    data = load_json(tf.plain, tf.display)
    key = next(
        (k for k in (*LISTS, "sides") if isinstance(data, LMap) and isinstance(data.get(k), LList)), None
    )
    items = data if isinstance(data, LList) else data[key] if key else None
    if items is None:
        raise ContentError.at(Location(tf.display, 1, 1), "no list of cards here")
    names = [c.get("id" if key == "sides" else "name") if isinstance(c, LMap) else None for c in items]
    i = _pick(names, card, items.loc, "file")
    row = items[i]
    where = row.loc_of(field) if isinstance(row, LMap) and field in row else items.loc_at(i)
    what = kind.name.split()[0]
    return ContentError.at(
        where, f"a {what} file is read-only here: change '{field}' of this card in the file itself"
    )


# -- workbooks ---------------------------------------------------------------------------------------------------


def _workbook(path: Path, card: int | str, field: str, sheet: str | None) -> ContentError:
    """The refusal for a workbook's cell: it names the sheet and the cell to change."""
    from pnpgen.errors import display_path
    from pnpgen.inputs import Reader
    from pnpgen.schema.datasheets import load_rows

    display = display_path(path)
    diags = Diagnostics()
    rows = load_rows(Reader([path.parent], path.parent), path, sheet, Location(display), {}, diags)
    i = _pick([r.get("name") for r in rows], card, Location(display), "sheet")
    row = rows[i]
    if field in row:
        loc = row.loc_of(field)
    else:
        columns = {k: v.col for r in rows for k, v in r.key_locs.items()}
        if field not in columns:
            return ContentError.at(row.loc, f"no column '{field}' in the sheet", did_you_mean(field, columns))
        loc = Location(display, row.loc.line, columns[field], row.loc.sheet)
    return ContentError.at(
        loc,
        f"a workbook is read-only here: change '{field}' of this card in your spreadsheet program "
        f"(sheet '{loc.sheet}', cell {str(loc).rsplit('!', 1)[-1]})",
    )
