"""Binary files for the hostile corpus and tests/test_parser_bounds.py, made when a case runs (nothing binary is
kept in the repository): workbooks, fonts, images and PDFs whose own structure is hostile or broken.

`make(kind, **args)` gives the bytes; a corpus case names it in a `binary:` setup step:

    - binary: {file: content/sample/data/h.xlsx, kind: xlsx, cells: {A1: name, XFD1048576: x}}
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path
from xml.sax.saxutils import escape

SHIPPED_FONT = Path(__file__).resolve().parent.parent / "pnpgen" / "fonts" / "NotoSans-Regular.ttf"
NS = "http://schemas.openxmlformats.org"


def make(kind: str, **args) -> bytes:
    return MAKERS[kind](**args)


# -- workbooks ---------------------------------------------------------------------------------------------------
def _column(ref: str) -> tuple[str, int]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    return letters, int(ref[len(letters) :])


def xlsx_sheet_xml(cells: dict, dimension: str | None = None) -> str:
    rows: dict[int, list[str]] = {}
    for ref, value in cells.items():
        _, row = _column(ref)
        if isinstance(value, (int, float)):
            rows.setdefault(row, []).append(f'<c r="{ref}"><v>{value}</v></c>')
        else:
            rows.setdefault(row, []).append(
                f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'
            )
    body = "".join(f'<row r="{r}">{"".join(cs)}</row>' for r, cs in sorted(rows.items()))
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return f'<worksheet xmlns="{NS}/spreadsheetml/2006/main">{dim}<sheetData>{body}</sheetData></worksheet>'


def xlsx(
    cells: dict | None = None, dimension: str | None = None, sheet: str = "Heroes", raw: str | None = None
) -> bytes:
    """A minimal XLSX workbook of one sheet: `cells` {ref: value}, or the sheet's XML as `raw`."""
    files = {
        "[Content_Types].xml": f'<Types xmlns="{NS}/package/2006/content-types"><Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
        'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
        'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        "</Types>",
        "_rels/.rels": f'<Relationships xmlns="{NS}/package/2006/relationships"><Relationship Id="rId1" '
        f'Type="{NS}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{NS}/spreadsheetml/2006/main" xmlns:r="{NS}/officeDocument/2006/'
        f'relationships"><sheets><sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{NS}/package/2006/relationships"><Relationship '
        f'Id="rId1" Type="{NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        "</Relationships>",
        "xl/worksheets/sheet1.xml": raw if raw is not None else xlsx_sheet_xml(cells or {}, dimension),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return out.getvalue()


def xlsx_bomb(megabytes: int = 300) -> bytes:
    """A workbook whose sheet declares 1 kB and inflates to `megabytes` MB (a zip that lies about its sizes)."""
    good = xlsx({"A1": "name", "A2": "Ash"})
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = b"<!-- " + b" " * (1 << 20) + b" -->"
    packed = b"".join(packer.compress(block) for _ in range(megabytes)) + packer.flush()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                dst.writestr(info.filename, src.read(info.filename))
    data = out.getvalue()
    # one more entry by hand: local header, packed data, central record, all saying 1024 bytes
    name = b"xl/worksheets/sheet1.xml"
    end = data.rindex(b"PK\x05\x06")
    count, central_size, central_at = struct.unpack_from("<HII", data, end + 10)
    local = struct.pack(
        "<4s5H3I2H", b"PK\x03\x04", 20, 0, 8, 0, 0, zlib.crc32(b""), len(packed), 1024, len(name), 0
    )
    entry_at = central_at
    central = (
        data[central_at : central_at + central_size]
        + struct.pack(
            "<4s6H3I5H2I",
            b"PK\x01\x02",
            20,
            20,
            0,
            8,
            0,
            0,
            zlib.crc32(b""),
            len(packed),
            1024,
            len(name),
            0,
            0,
            0,
            0,
            0,
            entry_at,
        )
        + name
    )
    new_central_at = entry_at + len(local) + len(name) + len(packed)
    tail = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, count + 1, count + 1, len(central), new_central_at, 0)
    return data[:central_at] + local + name + packed + central + tail


def zip_of_many(entries: int = 20_000) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        for i in range(entries):
            zf.writestr(f"x/{i}", b"")
    return out.getvalue()


def ods(rows_xml: str, sheet: str = "Heroes") -> bytes:
    """A minimal ODS spreadsheet whose table holds `rows_xml`."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
        f'<office:spreadsheet><table:table table:name="{sheet}">{rows_xml}</table:table></office:spreadsheet>'
        "</office:body></office:document-content>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("META-INF/manifest.xml", MANIFEST)
        zf.writestr("content.xml", content)
    return out.getvalue()


MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
    'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
    'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)


def ods_cell(text: str, repeat: int = 1) -> str:
    many = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return f'<table:table-cell office:value-type="string"{many}><text:p>{escape(text)}</text:p></table:table-cell>'


def ods_row(cells: str, repeat: int = 1) -> str:
    many = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{many}>{cells}</table:table-row>"


def xls_damaged() -> bytes:
    """An OLE container's signature and nothing a workbook needs: a file named .xls a reader cannot read."""
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504


# -- fonts -------------------------------------------------------------------------------------------------------
def _tables(data: bytes) -> dict[str, tuple[int, int, int]]:
    """Each table's (directory entry's position, offset, length)."""
    (count,) = struct.unpack_from(">H", data, 4)
    out = {}
    for i in range(count):
        tag, _sum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        out[tag.decode("latin-1")] = (12 + 16 * i, offset, length)
    return out


def font(fault: str) -> bytes:
    """The shipped NotoSans with one fault: `truncated` (cut in half), `table-past-end` (glyf said to be longer than
    the file), `glyphs` (maxp claims 65,535 glyphs), `loca` (a glyph offset past glyf), `tables` (a directory of
    4,000 tables), `cff` (an OpenType CFF signature on TrueType tables: no CFF table)."""
    data = bytearray(SHIPPED_FONT.read_bytes())
    tables = _tables(bytes(data))
    if fault == "truncated":
        return bytes(data[: len(data) // 2])
    if fault == "table-past-end":
        at, _offset, _length = tables["glyf"]
        struct.pack_into(">I", data, at + 12, 0x7FFFFFF0)
    elif fault == "glyphs":
        struct.pack_into(">H", data, tables["maxp"][1] + 4, 65535)
    elif fault == "loca":
        _at, loca, _length = tables["loca"]
        long = struct.unpack_from(">h", data, tables["head"][1] + 50)[0]
        if long:
            struct.pack_into(">I", data, loca + 4 * 5, 0x7FFFFFF0)
        else:
            struct.pack_into(">H", data, loca + 2 * 5, 0xFFF0)
    elif fault == "tables":
        struct.pack_into(">H", data, 4, 4000)
    elif fault == "cff":
        data[:4] = b"OTTO"
    else:
        raise ValueError(fault)
    return bytes(data)


# -- images ------------------------------------------------------------------------------------------------------
def jpeg(width: int = 64, height: int = 48, fault: str = "") -> bytes:
    """A JPEG from Pillow, then `truncated` (its last third cut), `no-eoi` (its last two bytes, the EOI marker,
    cut), `huge` (its frame header claiming 65,000 x 65,000) or `headers-only` (cut inside its headers)."""
    from PIL import Image

    out = io.BytesIO()
    Image.effect_noise((width, height), 60).convert("RGB").save(out, "JPEG", quality=90)  # noise: data to cut
    data = bytearray(out.getvalue())
    if fault == "truncated":
        return bytes(data[: len(data) * 2 // 3])
    if fault == "no-eoi":
        return bytes(data[:-2])
    if fault == "headers-only":
        return bytes(data[:100])
    if fault == "huge":
        sof = data.index(b"\xff\xc0")
        struct.pack_into(">HH", data, sof + 5, 65000, 65000)
    return bytes(data)


def png(width: int = 64, height: int = 48, fault: str = "") -> bytes:
    """A PNG from Pillow, then `truncated` (cut inside its image data), `short-data` (its image data cut short but
    every chunk whole, CRCs right), `bomb` (IHDR says 30,000 x 30,000: a few kB inflating to 2.7 GB) or `crc`
    (a byte of its image data changed)."""
    from PIL import Image

    if fault == "bomb":
        raw_row = b"\x00" + b"\x00" * 30_000 * 3
        packer = zlib.compressobj(9)
        idat = (
            b"".join(packer.compress(raw_row) for _ in range(200)) + packer.flush()
        )  # 200 rows; says 30,000
        return _png_file(struct.pack(">IIBBBBB", 30_000, 30_000, 8, 2, 0, 0, 0), idat)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (20, 120, 200)).save(out, "PNG")
    data = out.getvalue()
    if fault == "truncated":
        return data[: len(data) - 30]
    if fault == "short-data":
        ihdr = data[16:29]
        raw = zlib.decompress(data[data.index(b"IDAT") + 4 : data.index(b"IEND") - 8])
        return _png_file(ihdr, zlib.compress(raw[: len(raw) // 2]))
    if fault == "crc":
        at = data.index(b"IDAT") + 6
        return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]
    return data


def _png_file(ihdr: bytes, idat: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# -- PDFs --------------------------------------------------------------------------------------------------------
def pdf(pages: int = 1, width_pt: float = 14_173, height_pt: float = 14_173) -> bytes:
    """A PDF of `pages` empty pages of the given size (default 5 m x 5 m), written by hand."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{3 + i} 0 R" for i in range(pages))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>")
    for _ in range(pages):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width_pt} {height_pt}] >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def icc(fault: str = "tag-outside") -> bytes:
    """Pillow's sRGB profile with its first tag said to lie 2 GB in (`tag-outside`) or 100,000 tags (`tags`)."""
    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    if fault == "tag-outside":
        struct.pack_into(">I", data, 132 + 4, 0x7FFF0000)
    elif fault == "tags":
        struct.pack_into(">I", data, 128, 100_000)
    return bytes(data)


def png_with_profile(fault: str = "tags") -> bytes:
    """A sound 64 x 48 PNG carrying the damaged colour profile `icc(fault)`."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (20, 120, 200)).save(out, "PNG", icc_profile=icc(fault))
    return out.getvalue()


MAKERS = {
    "xlsx": xlsx,
    "xlsx-bomb": xlsx_bomb,
    "zip-of-many": zip_of_many,
    "ods": ods,
    "xls-damaged": xls_damaged,
    "font": font,
    "jpeg": jpeg,
    "png": png,
    "pdf": pdf,
    "icc": icc,
    "png-with-profile": png_with_profile,
}
