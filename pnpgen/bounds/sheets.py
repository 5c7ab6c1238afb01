"""A workbook bounded from its own structure before python-calamine loads it.

calamine keeps a sheet as one dense range from its first to its last filled cell, so one cell at XFD1048576
beside A1 asks for 17 billion cells and the process aborts. Before it loads anything:

- a zip (XLSX, XLSM, ODS) is held to a number of entries, a declared unpacked size, and each entry is inflated
  here, in bounded pieces, to check that it unpacks to no more than it declares (a zip bomb lies about it);
- the sheet's cells are scanned as a stream (an XLSX sheet's `<c r=...>` refs and the rows and columns they
  count through, an ODS table's repeated rows and columns): the first filled cell past the last row or column a
  data sheet may use is refused, naming it. An XLSX sheet's `<dimension ref=...>` is only a claim (calamine
  ignores it, and it can lie), so the cells are what is counted.

An XLS file (BIFF in an OLE container) is not scanned here: `schema/datasheets.py` loads it in a child process.
"""

from __future__ import annotations

import io
import posixpath
import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from html import unescape

from pnpgen.bounds import Refused

MAX_ENTRIES = 10_000  # files in one workbook's zip (a real workbook holds a few dozen)
CHUNK = 1 << 20
MAX_TAG = 1 << 20  # bytes of one XML tag: longer is not a workbook

_CELL_REF = re.compile(rb"([A-Za-z]{1,7})?(\d{1,12})?$")


def check_zip(data: bytes, max_unpacked: int) -> zipfile.ZipFile:
    """The workbook's zip, once its entries are counted and each is known to unpack to what it declares."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise Refused("is not a readable workbook (a damaged zip file)") from None
    if len(infos) > MAX_ENTRIES:
        raise Refused(f"holds {len(infos):,} files in its zip; a workbook may hold {MAX_ENTRIES:,}")
    declared = sum(i.file_size for i in infos)
    if declared > max_unpacked:
        raise Refused(f"unpacks to {declared:,} bytes; the limit is {max_unpacked:,}")
    for info in infos:
        _inflates_as_declared(data, info)
    return zf


def _inflates_as_declared(data: bytes, info: zipfile.ZipInfo) -> None:
    """Inflate one entry in pieces, never holding more than CHUNK, and refuse it when it gives more bytes than
    its header says (or is cut short)."""
    if info.compress_type == zipfile.ZIP_STORED:
        if info.compress_size != info.file_size:
            raise Refused(f"is a damaged zip file: '{info.filename}' is stored with two sizes")
        return
    if info.compress_type != zipfile.ZIP_DEFLATED:
        raise Refused(
            f"is compressed in a way a workbook never is ('{info.filename}', method {info.compress_type})"
        )
    head = info.header_offset
    if data[head : head + 4] != b"PK\x03\x04" or head + 30 > len(data):
        raise Refused(f"is a damaged zip file: '{info.filename}' has no local header")
    name_len, extra_len = struct.unpack_from("<HH", data, head + 26)
    start = head + 30 + name_len + extra_len
    packed = memoryview(data)[start : start + info.compress_size]
    inflater = zlib.decompressobj(-15)
    out = 0
    try:
        for at in range(0, len(packed), CHUNK // 16):
            piece = inflater.decompress(packed[at : at + CHUNK // 16], CHUNK)
            out += len(piece)
            while inflater.unconsumed_tail and out <= info.file_size:
                piece = inflater.decompress(inflater.unconsumed_tail, CHUNK)
                out += len(piece)
            if out > info.file_size:
                break
    except zlib.error:
        raise Refused(f"is a damaged zip file: '{info.filename}' cannot be unpacked") from None
    if out != info.file_size:
        raise Refused(
            f"is a damaged zip file: '{info.filename}' unpacks to {'more' if out > info.file_size else 'fewer'} "
            f"bytes than the {info.file_size:,} it declares"
        )


def _pieces(stream: io.BufferedIOBase) -> Iterator[bytes]:
    """The stream CHUNK bytes at a time, each piece cut where no tag is split in two."""
    carry = b""
    while True:
        chunk = stream.read(CHUNK)
        buf = carry + chunk
        cut = len(buf)
        if chunk:
            lt = buf.rfind(b"<")
            if lt != -1 and buf.find(b">", lt) == -1:
                cut = lt  # a tag cut in two: its start waits for the next piece
        yield buf[:cut]
        carry = buf[cut:]
        if len(carry) > MAX_TAG:
            raise Refused("holds an XML tag over 1 MB long (not a workbook a spreadsheet program wrote)")
        if not chunk:
            return


def _attr(attrs: bytes, name: bytes) -> bytes | None:
    m = re.search(rb"(?:^|\s)" + re.escape(name) + rb"\s*=\s*(\"[^\"]*\"|'[^']*')", attrs)
    return m.group(1)[1:-1] if m else None


def _letters(col: int) -> str:
    out = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def _out_of_range(row: int, col: int, max_rows: int, max_cols: int, sheet: str) -> Refused:
    return Refused(
        f"has a filled cell outside what a data sheet may use (rows 1 to {max_rows:,}, "
        f"columns A to {_letters(max_cols)}): remove it, or split the sheet",
        row,
        col,
        sheet,
    )


_C_TAG = re.compile(rb"<(?:\w+:)?c[\s/>]")
_C_REF = re.compile(rb'<(?:\w+:)?c\s[^>]*?\br="([A-Za-z]{1,7})(\d{1,12})"[^>]*?(/?)>')
_XLSX_TAG = re.compile(rb"<(?:\w+:)?(row|c)(?=[\s/>])([^>]*?)(/?)>")


def xlsx_sheet(zf: zipfile.ZipFile, sheet: str | None, max_rows: int, max_cols: int) -> None:
    """Refuse the sheet (by name; the first when None) when a filled cell lies past `max_rows` or `max_cols`.
    Cells that all carry their ref (`<c r="B7">`, as every spreadsheet program writes them) are checked by ref;
    a sheet with a cell that does not is counted through row by row, cell by cell, as calamine places them."""
    found = _xlsx_part(zf, sheet)
    if found is None:
        return  # no such sheet: calamine says so with the names it has
    part, title = found
    columns: dict[bytes, int] = {}
    with zf.open(part) as stream:
        for piece in _pieces(stream):  # type: ignore[arg-type]  # a ZipExtFile reads like a file
            cells = _C_REF.findall(piece)
            if len(cells) != len(_C_TAG.findall(piece)):
                break  # a cell without its ref: counted in order below
            for letters, digits, closed in cells:
                if closed:
                    continue  # `<c .../>` holds nothing: calamine does not load it
                col = columns.get(letters) or columns.setdefault(letters, _column_number(letters))
                if col > max_cols or len(digits) > 9 or int(digits) > max_rows:
                    raise _out_of_range(int(digits), col, max_rows, max_cols, title)
        else:
            return
    with zf.open(part) as stream:
        row = col = 0
        for piece in _pieces(stream):  # type: ignore[arg-type]
            for m in _XLSX_TAG.finditer(piece):
                name, attrs, closed = m.groups()
                ref = _attr(attrs, b"r")
                if name == b"row":
                    row, col = (int(ref) if ref and ref.isdigit() else row + 1), 0
                    continue
                cell = _CELL_REF.match(ref or b"")
                if ref and cell and cell.group(1):
                    col = _column_number(cell.group(1))
                    row = int(cell.group(2)) if cell.group(2) else row
                else:
                    col += 1
                if not closed and (row > max_rows or col > max_cols):
                    raise _out_of_range(row, col, max_rows, max_cols, title)


def _column_number(letters: bytes) -> int:
    col = 0
    for ch in letters.upper():
        col = col * 26 + ch - 64
    return col


def _xlsx_part(zf: zipfile.ZipFile, sheet: str | None) -> tuple[str, str] | None:
    """The zip entry of the named sheet (the first sheet when `sheet` is None), from the workbook's index."""
    names = set(zf.namelist())
    try:
        book = zf.read("xl/workbook.xml") if "xl/workbook.xml" in names else None
        rels = zf.read("xl/_rels/workbook.xml.rels") if "xl/_rels/workbook.xml.rels" in names else None
    except (zipfile.BadZipFile, OSError, zlib.error):
        raise Refused("is not a readable workbook (a damaged zip file)") from None
    if book is None or rels is None:
        return None
    targets: dict[bytes, str] = {}
    for m in re.finditer(rb"<(?:\w+:)?Relationship\b([^>]*)>", rels):
        rid, to = _attr(m.group(1), b"Id"), _attr(m.group(1), b"Target")
        if rid and to:
            targets[rid] = to.decode("utf-8", "replace")
    for m in re.finditer(rb"<(?:\w+:)?sheet\b([^>]*)>", book):
        name = unescape((_attr(m.group(1), b"name") or b"").decode("utf-8", "replace"))
        rid = next(
            (v for k, v in re.findall(rb"([\w:]+)\s*=\s*\"([^\"]*)\"", m.group(1)) if k.endswith(b":id")),
            None,
        )
        if sheet is None or name == sheet:
            target = targets.get(rid or b"")
            if target is None:
                return None
            part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
            return (part, name) if part in names else None
    return None


_ODS_TAG = re.compile(rb"<(/?)table:(table|table-row|table-cell|covered-table-cell)(?=[\s/>])([^>]*?)(/?)>")


def ods_sheet(zf: zipfile.ZipFile, sheet: str | None, max_rows: int, max_cols: int) -> None:
    """Refuse the ODS table (by name; the first when None) when a filled cell, counting repeated rows and
    columns, lies past `max_rows` or `max_cols`. A cell is filled when it has a value type or anything inside
    it (a self-closing cell is empty, however often it repeats: LibreOffice ends every sheet so)."""
    if "content.xml" not in zf.namelist():
        return
    inside, title = False, ""  # in the table asked for, and its name
    row = col = 0
    repeat_rows = 1
    filled_col = 0  # the last column of a filled cell in the row being read (0: none yet)
    with zf.open("content.xml") as stream:
        for piece in _pieces(stream):  # type: ignore[arg-type]  # a ZipExtFile reads like a file
            for m in _ODS_TAG.finditer(piece):
                end, name, attrs, closed = m.groups()
                if not inside:
                    if name == b"table" and not end:
                        table = unescape((_attr(attrs, b"table:name") or b"").decode("utf-8", "replace"))
                        if sheet is None or table == sheet:
                            inside, title = True, table
                    continue
                if name == b"table":
                    if end:
                        return
                elif name == b"table-row":
                    if end:
                        if filled_col and row + repeat_rows - 1 > max_rows:
                            last = min(row + repeat_rows - 1, max_rows + 1)
                            raise _out_of_range(last, filled_col, max_rows, max_cols, title)
                        row += repeat_rows - 1
                    else:
                        repeat_rows = _repeat(attrs, b"table:number-rows-repeated")
                        row, col, filled_col = row + 1, 0, 0
                        if closed:  # an empty row (or many)
                            row += repeat_rows - 1
                elif not end:  # a cell
                    first = col + 1
                    col += _repeat(attrs, b"table:number-columns-repeated") if b"repeated" in attrs else 1
                    if not closed or b"office:value-type" in attrs:
                        if row > max_rows or col > max_cols:
                            raise _out_of_range(
                                row, min(col, max(first, max_cols + 1)), max_rows, max_cols, title
                            )
                        filled_col = col


def _repeat(attrs: bytes, name: bytes) -> int:
    value = _attr(attrs, name)
    if value is None or not value.isdigit() or len(value) > 12:
        return 1
    return max(1, int(value))
