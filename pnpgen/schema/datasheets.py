"""Card data from spreadsheets: CSV (any delimiter the sniffer finds, UTF-8 with or without BOM), and XLSX, ODS
and XLS workbooks (python-calamine), read through the game's reader like every other file.

Each row becomes a located mapping exactly like a card written in YAML (an `LMap` whose values know their cell),
so everything that checks a card checks a row, and every error names its cell: `data/cards.csv:14:3` (row and
column) or `data/cards.xlsx:Monuments!C14`. The header row names the fields; empty cells are absent fields;
numbers stay numbers (`1,5` too, in a CSV separated by ';': `DecimalComma`); a column may be declared a list (`{list: ";"}`) or a type (`int`, `number`, `bool`,
`text`).

`cards_from` names one sheet or a list of them (`as_sheets`): CSV files, workbook sheets (`file.xlsx:Sheet`),
YAML and JSON files holding a list of cards (the kinds by suffix: `pnpgen.sheetkinds`), and http(s) addresses (`pnpgen.bounds.remote`: fetched, bounded, kept in
`.pnpgen/sheets/`); their rows, in order, make one deck, each row keeping its own place.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from pathlib import Path

from pnpgen.bounds.remote import is_url
from pnpgen.errors import ContentError, Diagnostics, Location, did_you_mean, display_path
from pnpgen.names import near_file
from pnpgen.schema.cardlists import fetched_rows, list_rows
from pnpgen.schema.cells import convert
from pnpgen.schema.fields import Invalid, describe
from pnpgen.sheetkinds import KINDS, expected, kind_of
from pnpgen.source import LList, LMap

MAX_ROWS = 20_000
MAX_COLUMNS = 200
MAX_UNPACKED = 200_000_000  # bytes a workbook (a zip) may unpack to
if [k.name for k in KINDS if k.cells] != ["CSV file", "workbook"]:  # the lists are `cardlists`'
    raise TypeError("pnpgen.sheetkinds.KINDS has a kind of sheet that pnpgen.schema.datasheets does not read")
UNREAD = ""  # among a deck's sheets' header names: a sheet could not be read (no header names a column "")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")  # an address, not a path


def as_sheets(value, loc: Location) -> tuple[tuple, ...]:
    """`cards_from`: one sheet or a list of them, each (file, sheet or None, where it was given). The rows of
    every sheet, in the order given, make one deck."""
    if isinstance(value, LList):
        if not value:
            raise Invalid("must name at least one data sheet")
        return tuple(one_sheet(item, value.loc_at(i)) for i, item in enumerate(value))
    return (one_sheet(value, loc),)


def one_sheet(value, loc: Location) -> tuple:
    """A sheet: `file`, `file:Sheet` (a workbook's sheet) or {file: ..., sheet: ...}."""
    if isinstance(value, str) and _SCHEME.match(value) and not is_url(value):
        raise Invalid(f"only http and https addresses are fetched (got {value!r})", loc)
    if isinstance(value, str) and value:
        file, colon, name = value.rpartition(":")
        # `file:Sheet` when what comes before the last colon is a data sheet (a colon is in no portable file name)
        if colon and name and kind_of(file):
            return file, name, loc
        return value, None, loc
    if isinstance(value, LMap) and isinstance(value.get("file"), str) and set(value) <= {"file", "sheet"}:
        sheet = value.get("sheet")
        if sheet is not None and not isinstance(sheet, str):
            raise Invalid(f"'sheet' must be a sheet's name (got {describe(sheet)})", value.loc_of("sheet"))
        return value["file"], sheet, value.loc_of("file")
    raise Invalid(
        "must be a file such as data/cards.csv, data/cards.xlsx:Monuments or {file: data/cards.xlsx, sheet: "
        f"Monuments}}, an https:// address, or a list of them (got {describe(value)})",
        loc,
    )


def sheet_rows(
    root: Path, ref: tuple, columns: dict, reader, diags: Diagnostics, names: set[str] | None = None
):
    """The rows of one `cards_from` sheet as located mappings (see `pnpgen.schema.datasheets`), read through the
    game's reader (so each is an input of the deck); a YAML file gives its list of cards as they are written."""
    file, sheet, loc = ref  # a path inside the game folder, like every path content gives
    named = f"data sheet '{file}'" + (f" (sheet '{sheet}')" if sheet else "")
    try:
        if is_url(file):
            return _remote_rows(reader, file, sheet, loc, columns, diags, names)
        sheet_path = reader.inside(root, file, loc, "data sheet")
        if not reader.probe(sheet_path, "data sheet", loc):
            raise ContentError.at(loc, f"data sheet '{file}' not found", near_file(sheet_path, file))
        if not getattr(kind_of(file), "cells", True):
            rows = list_rows(reader, sheet_path, sheet, loc)
            if names is not None:
                names.update(str(k) for item in rows if isinstance(item, LMap) for k in item)
        else:
            rows = load_rows(reader, sheet_path, sheet, loc, columns, diags, names=names)
    except ContentError as exc:
        diags.extend(exc.diagnostics)
        if names is not None:
            names.add(UNREAD)  # its header is unknown: `columns:` is not checked against the others alone
        return LList()
    if not rows:
        cards = not getattr(kind_of(file), "cells", True)  # a YAML or JSON list
        diags.error(loc, f"{named} has no cards" if cards else f"{named} has a header but no rows")
    return rows


def _remote_rows(
    reader,
    url: str,
    sheet: str | None,
    loc: Location,
    columns: dict,
    diags: Diagnostics,
    names: set[str] | None,
):
    """A sheet at a URL (`pnpgen.bounds.remote`): fetched, or its cached copy with a warning; recorded as the
    input `url:<URL>` with its digest, so the freshness check fetches it again."""
    import hashlib

    from pnpgen.bounds import Refused, remote

    try:
        data, warning = remote.get(url, reader.project)
    except Refused as exc:
        raise ContentError.at(loc, f"data sheet '{url}' {exc.message}") from None
    if warning:
        diags.warning(loc, f"data sheet '{url}' {warning}")
    reader.replay({remote.REMOTE + url: hashlib.sha256(data).hexdigest()})
    if remote.kind(data) == ".json":  # a list of cards, as a local .json file holds them
        rows = fetched_rows(data, url, sheet, loc)
        if names is not None:
            names.update(str(k) for item in rows if isinstance(item, LMap) for k in item)
        if not rows:
            diags.error(loc, f"data sheet '{url}' has no cards")
        return rows
    rows = load_rows(reader, Path(), sheet, loc, columns, diags, fetched=(url, data), names=names)
    if not rows:
        diags.error(loc, f"data sheet '{url}' has a header but no rows")
    return rows


def load_rows(
    reader,
    path: Path,
    sheet: str | None,
    loc: Location,
    columns: dict,
    diags: Diagnostics,
    fetched: tuple[str, bytes] | None = None,
    names: set[str] | None = None,
) -> LList:
    """The rows of a sheet as located mappings (problems of single cells go to `diags`). `fetched`: (its URL, its
    bytes) for a sheet from a URL, whose kind is sniffed from the bytes. `names`: one of several sheets of a deck,
    whose header's names go there (`columns:` is then checked against them all, `check_columns`)."""
    from pnpgen.bounds.remote import kind

    display = fetched[0] if fetched else display_path(path)
    suffix = kind(fetched[1]) if fetched else path.suffix.lower()
    comma = False  # a decimal comma reads as a number: a CSV separated by ';' (see `DecimalComma`)
    if suffix == ".csv":
        text = _decode(fetched[1], display) if fetched else reader.read_text(path, "data sheet")
        dialect = csv_dialect(text)
        table, comma = _csv_cells(text, display, dialect), dialect.delimiter == ";"
        sheet_name = ""
    elif getattr(kind_of(suffix), "sheets", False):
        data = fetched[1] if fetched else reader.read_bytes(path, "data sheet")
        table, sheet_name = _workbook_cells(data, display, sheet, loc)
    else:
        raise ContentError.at(loc, f"'{display}' is not a data sheet: expected {expected()}")
    if sheet and not sheet_name:
        raise ContentError.at(loc, f"a CSV file has no sheets (got sheet {sheet!r})")

    def at(row: int, col: int) -> Location:
        return Location(display, row, col, sheet_name)

    rows = LList()
    rows.loc, rows.item_locs = loc, []
    header: list[tuple[str, int]] | None = None
    named: set[int] = set()  # the header's columns
    heads: dict[str, Location] = {}  # each field's header cell: where its name is written
    for row_no, cells in table:
        if header is None:
            header = _header(cells, row_no, at)
            named, heads = {col for _, col in header}, {name: at(row_no, col) for name, col in header}
            if names is None:
                check_columns(columns, {name for name, _ in header}, loc, diags, heads=heads)
            else:
                names.update(name for name, _ in header)
            continue
        if len(rows) >= MAX_ROWS:
            raise ContentError.at(at(row_no, 1), f"the sheet has more than {MAX_ROWS:,} rows")
        item = LMap()
        item.loc, item.key_locs, item.val_locs = at(row_no, 1), {}, {}
        for name, col in header:
            raw = cells.get(col)
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                continue  # an empty cell is an absent field: `defaults:` fill it
            cell = at(row_no, col)
            try:
                item[name] = convert(raw, name, columns.get(name), cell, comma)
            except ValueError as exc:
                diags.error(cell, f"'{name}' {exc}")
                continue
            item.key_locs[name], item.val_locs[name] = heads[name], cell
        extra = sorted(col for col in cells if col not in named and str(cells[col]).strip())
        if extra:
            diags.error(at(row_no, extra[0]), "this cell has no column name in the header row")
        if item:
            rows.append(item)
            rows.item_locs.append(item.loc)
    if header is None:
        raise ContentError.at(loc, f"'{display}' has no header row (the first row names the fields)")
    return rows


def _header(cells: dict, row_no: int, at) -> list[tuple[str, int]]:
    """The field names of the header row, with their columns."""
    out: list[tuple[str, int]] = []
    seen: dict[str, int] = {}
    for col in sorted(cells):
        name = str(cells[col]).strip()
        if not name:
            continue
        if name in seen:
            raise ContentError.at(
                at(row_no, col), f"column '{name}' is named twice (also column {seen[name]})"
            )
        seen[name] = col
        out.append((name, col))
    if len(out) > MAX_COLUMNS:
        raise ContentError.at(at(row_no, 1), f"the sheet has {len(out)} columns; the limit is {MAX_COLUMNS}")
    return out


def check_columns(
    columns: dict, names: set[str], loc: Location, diags: Diagnostics, several=False, heads=None
):
    """Each column `columns:` declares is in the sheet's header (of several sheets: in one of them at least). A
    header name close to a declared one is pointed at, at its cell when known (`heads`): the header may be the
    misspelt one (`forse` in the sheet, `force` in `columns:`), so neither is offered as the fix."""
    said = "none of the sheets' headers has" if several else "the sheet's header does not have"
    for name in (n for n in columns if n not in names):
        close = difflib.get_close_matches(name, sorted(names), n=1, cutoff=0.6)
        where = f" at {heads[close[0]]}" if close and heads and close[0] in heads else ""
        header = "a sheet's header" if several else "the header"
        hint = (
            f"{header} names '{close[0]}'{where}: correct whichever of the two is misspelt" if close else ""
        )
        diags.error(loc, f"'columns' declares '{name}', which {said}", hint or did_you_mean(name, names))


def csv_dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    """How a CSV file is written (its delimiter): what the sniffer finds, else Excel's. A cell is quoted with `"`
    and a quote inside it doubled (`"a ""b"" c"`), as every spreadsheet writes it: the sniffer guesses otherwise
    for a file with no such cell in its first lines (or an apostrophe for the quote, from a cell such as 'Fire'),
    and a cell written later read wrongly."""
    try:
        # apostrophes masked: never taken for the quote (nor a delimiter guessed from one: `;it's, 'so'`)
        sniffed = csv.Sniffer().sniff(text[:20_000].replace("'", "a"), delimiters=",;\t|")
    except csv.Error:
        return csv.excel
    sniffed.doublequote = True
    sniffed.quotechar = '"'  # never an apostrophe: a cell 'Fire' is text, as a spreadsheet reads it
    return sniffed


def _csv_cells(text: str, display: str, dialect=None):
    """(row number, {column number: text}) for each row that is not empty; row numbers count physical lines."""
    rows = csv.reader(io.StringIO(text, newline=""), dialect or csv_dialect(text))
    line = 1
    try:
        for cells in rows:
            if any(c.strip() for c in cells):
                if len(cells) > MAX_COLUMNS:
                    raise ContentError.at(
                        Location(display, line, 1), f"the row has more than {MAX_COLUMNS} columns"
                    )
                yield line, {i + 1: c for i, c in enumerate(cells)}
            line = rows.line_num + 1
    except csv.Error as exc:
        raise ContentError.at(Location(display, rows.line_num, 1), f"invalid CSV: {exc}") from None


def _decode(data: bytes, display: str) -> str:
    """A fetched CSV sheet's text, read as a file's is (`textfiles.plain_text`); not UTF-8 is an error at its line."""
    from pnpgen.errors import not_utf8
    from pnpgen.textfiles import plain_text

    try:
        return plain_text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise not_utf8(data, exc.start, display, "is not UTF-8 text, nor a workbook") from None


def _workbook_cells(data: bytes, display: str, sheet: str | None, loc: Location):
    """(row number, {column: value}) of the sheet's filled rows, and the sheet's name. A zip workbook (XLSX,
    ODS) is bounded from its own structure first (`bounds.sheets`: a filled cell past the rows and columns a
    sheet may use is named, before calamine would allocate up to it); an XLS file, which no bound here reads,
    is loaded in a child process, so a library that aborts on it ends only that process."""
    from pnpgen.bounds import Refused, child, sheets

    try:
        if data[:2] == b"PK":  # xlsx and ods are zip files
            zf = sheets.check_zip(data, MAX_UNPACKED)
            ods = "content.xml" in zf.namelist() and "xl/workbook.xml" not in zf.namelist()
            (sheets.ods_sheet if ods else sheets.xlsx_sheet)(zf, sheet, MAX_ROWS + 1, MAX_COLUMNS)
            table, name, names = calamine_cells(data, sheet)
        else:
            table, name, names = child.isolated(calamine_cells, data, sheet)
    except Refused as exc:
        if exc.row:
            where = Location(display, exc.row, exc.col, exc.sheet)
            raise ContentError.at(where, f"sheet '{exc.sheet}' {exc.message}") from None
        raise ContentError.at(loc, f"'{display}' {exc.message}") from None
    except child.ChildDied as exc:
        raise ContentError.at(
            loc,
            f"'{display}' cannot be read as a workbook: the reader stopped ({exc.how}); the file is damaged "
            "or too large",
        ) from None
    if table is None:
        raise ContentError.at(loc, f"'{display}' has no sheet {name!r}", did_you_mean(str(name), names))
    return table, name


def calamine_cells(data: bytes, sheet: str | None) -> tuple[list | None, str | None, list[str]]:
    """(rows, sheet name, every sheet's name) as calamine reads them; rows None when there is no such sheet.
    Problems are `Refused`, plain data that crosses from a child process."""
    from python_calamine import CalamineError, CalamineWorkbook

    from pnpgen.bounds import Refused

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        name = sheet if sheet is not None else (names[0] if names else None)
        if name not in names:
            return None, name, names
        ws = book.get_sheet_by_name(name)
        start_row, start_col = ws.start or (0, 0)
        table = []
        for r, cells in enumerate(ws.iter_rows()):
            if r >= MAX_ROWS + 1:
                raise Refused(f"has more than {MAX_ROWS:,} rows in sheet '{name}'")
            if len(cells) > MAX_COLUMNS:
                raise Refused(f"has more than {MAX_COLUMNS} columns in sheet '{name}'")
            row = {start_col + c + 1: v for c, v in enumerate(cells) if v not in ("", None)}
            if row:
                table.append((start_row + r + 1, row))
    except (CalamineError, ValueError, OSError) as exc:  # calamine reports damaged files so too
        if isinstance(exc, Refused):
            raise
        raise Refused(f"cannot be read as a workbook: {exc}") from None
    return table, name, names
