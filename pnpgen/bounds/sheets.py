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


def _tags(stream: io.BufferedIOBase) -> Iterator[tuple[bytes, bytes, bool]]:
    """(name, attributes, self-closing) of every start tag, and (b'/' + name, b'', False) of every end tag, read
    CHUNK bytes at a time; text between tags is skipped."""
    tag = re.compile(rb"<(/?)([\w:.-]+)([^<>]*?)(/?)>")
    carry = b""
    while True:
        chunk = stream.read(CHUNK)
        buf = carry + chunk
        cut = len(buf)
        if chunk:
            lt = buf.rfind(b"<")
            if lt != -1 and buf.find(b">", lt) == -1:
                cut = lt  # a tag cut in two: its start waits for the next piece
        for m in tag.finditer(buf, 0, cut):
            if m.group(1):
                yield b"/" + m.group(2), b"", False
            else:
                yield m.group(2), m.group(3), bool(m.group(4))
        carry = buf[cut:]
        if len(carry) > MAX_TAG:
            raise Refused("holds an XML tag over 1 MB long (not a workbook a spreadsheet program wrote)")
        if not chunk:
            return


def _attr(attrs: bytes, name: bytes) -> bytes | None:
    m = re.search(rb"(?:^|\s)" + re.escape(name) + rb"\s*=\s*(\"[^\"]*\"|'[^']*')", attrs)
    return m.group(1)[1:-1] if m else None


def _local(name: bytes) -> bytes:
    return name.rpartition(b":")[2]


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


def xlsx_sheet(zf: zipfile.ZipFile, sheet: str | None, max_rows: int, max_cols: int) -> None:
    """Refuse the sheet (by name; the first when None) when a filled cell lies past `max_rows` or `max_cols`."""
    found = _xlsx_part(zf, sheet)
    if found is None:
        return  # no such sheet: calamine says so with the names it has
    part, title = found
    with zf.open(part) as stream:
        row = col = 0
        for name, attrs, closed in _tags(stream):  # type: ignore[arg-type]  # a ZipExtFile reads like a file
            local = _local(name)
            if local == b"row":
                ref = _attr(attrs, b"r")
                row = int(ref) if ref and ref.isdigit() else row + 1
                col = 0
            elif local == b"c":
                ref = _attr(attrs, b"r")
                m = _CELL_REF.match(ref or b"")
                if ref and m and m.group(1):
                    col = _column_number(m.group(1))
                    row = int(m.group(2)) if m.group(2) else row
                else:
                    col += 1
                if not closed and (row > max_rows or col > max_cols):  # `<c .../>` holds nothing: not loaded
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


def ods_sheet(zf: zipfile.ZipFile, sheet: str | None, max_rows: int, max_cols: int) -> None:
    """Refuse the ODS table (by name; the first when None) when a filled cell, counting repeated rows and
    columns, lies past `max_rows` or `max_cols`."""
    if "content.xml" not in zf.namelist():
        return
    inside, title = False, ""  # in the table asked for, and its name
    row = col = 0
    repeat_rows = 1
    filled_col = 0  # the last column of a filled cell in the row being read (0: none yet)
    cell: tuple[int, int] | None = (
        None  # (first, last) column of the open cell, until it is known to be filled
    )
    with zf.open("content.xml") as stream:
        for name, attrs, closed in _tags(stream):  # type: ignore[arg-type]  # a ZipExtFile reads like a file
            if not inside:
                if name == b"table:table":
                    table = unescape((_attr(attrs, b"table:name") or b"").decode("utf-8", "replace"))
                    if sheet is None or table == sheet:
                        inside, title = True, table
                continue
            if name == b"/table:table":
                return
            if name == b"table:table-row":
                repeat_rows = _repeat(attrs, b"table:number-rows-repeated")
                row, col, filled_col = row + 1, 0, 0
                if closed:  # an empty row (or many)
                    row += repeat_rows - 1
            elif name == b"/table:table-row":
                if filled_col and row + repeat_rows - 1 > max_rows:
                    last = min(row + repeat_rows - 1, max_rows + 1)
                    raise _out_of_range(last, filled_col, max_rows, max_cols, title)
                row += repeat_rows - 1
            elif name in (b"table:table-cell", b"table:covered-table-cell"):
                first, col = col + 1, col + _repeat(attrs, b"table:number-columns-repeated")
                filled = _attr(attrs, b"office:value-type") is not None
                cell = None if closed or filled else (first, col)
                if filled:
                    _filled(row, first, col, max_rows, max_cols, title)
                    filled_col = col
            elif name in (b"/table:table-cell", b"/table:covered-table-cell"):
                cell = None
            elif cell is not None and not name.startswith(b"/"):  # something inside the cell: text
                _filled(row, cell[0], cell[1], max_rows, max_cols, title)
                filled_col, cell = cell[1], None


def _filled(row: int, first: int, last: int, max_rows: int, max_cols: int, sheet: str) -> None:
    if row > max_rows or last > max_cols:
        raise _out_of_range(row, min(last, max(first, max_cols + 1)), max_rows, max_cols, sheet)


def _repeat(attrs: bytes, name: bytes) -> int:
    value = _attr(attrs, name)
    if value is None or not value.isdigit() or len(value) > 12:
        return 1
    return max(1, int(value))
