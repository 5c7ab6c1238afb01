"""A game's own font checked from its table directory before ReportLab reads it.

ReportLab trusts a TrueType file's numbers: a table said to lie past the end of the file, a glyph count no table
backs, a `loca` pointing outside `glyf`. Each is checked here, against the file's own size, before the file is
handed over: the directory (how many tables, each inside the file), the tables ReportLab needs, the glyph count
against `hmtx` and `loca`, and every `loca` offset inside `glyf`. A TrueType collection is checked at its first
font, the one ReportLab reads. An OpenType font with CFF outlines (`OTTO`) is checked the same way, up to its
outlines (a `CFF ` or `CFF2` table instead of `loca` and `glyf`), and is then converted to TrueType
(`text.otf`).
"""

from __future__ import annotations

import struct
from pathlib import Path

from pnpgen.bounds import Refused

MAX_FONT_BYTES = 40_000_000  # a large pan-Unicode TrueType font is about 25 MB
MAX_TABLES = 100  # a real font has 10 to 40
REQUIRED = ("head", "hhea", "maxp", "hmtx", "cmap", "loca", "glyf")  # what ReportLab reads to embed a subset
REQUIRED_CFF = ("head", "hhea", "maxp", "hmtx", "cmap")  # and one of CFF /CFF2: what the conversion reads


def check_font(path: Path) -> None:
    """Refuse a font file whose structure would send ReportLab outside it."""
    size = path.stat().st_size
    if size > MAX_FONT_BYTES:
        raise Refused(f"is {size / 1e6:.0f} MB; a font may be {MAX_FONT_BYTES / 1e6:.0f} MB")
    check_font_bytes(path.read_bytes())


def check_font_bytes(data: bytes) -> None:
    size = len(data)
    if size < 12:
        raise Refused("is not a font: it is too short to hold a table directory")
    tag = data[:4]
    base = 0
    if tag == b"ttcf":  # a collection: ReportLab reads its first font
        if size < 16:
            raise Refused("is a font collection cut short before its first font")
        (base,) = struct.unpack_from(">I", data, 12)
        if base + 12 > size:
            raise Refused("is a font collection whose first font lies past the end of the file")
        tag = data[base : base + 4]
    if tag not in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        raise Refused("is not a TrueType or OpenType font (its first bytes are not a font's)")
    (count,) = struct.unpack_from(">H", data, base + 4)
    if not 0 < count <= MAX_TABLES:
        raise Refused(f"says it holds {count} tables; a font holds 1 to {MAX_TABLES}")
    if base + 12 + 16 * count > size:
        raise Refused(f"is cut short: its directory of {count} tables ends past the end of the file")
    tables: dict[str, tuple[int, int]] = {}
    for i in range(count):
        raw, _checksum, offset, length = struct.unpack_from(">4sIII", data, base + 12 + 16 * i)
        name = raw.decode("latin-1")
        if offset + length > size:
            raise Refused(
                f"is cut short or damaged: table '{name.strip()}' ({length:,} bytes at {offset:,}) ends past the "
                f"end of the file ({size:,} bytes)"
            )
        tables[name] = (offset, length)
    cff = tag == b"OTTO"
    missing = [t for t in (REQUIRED_CFF if cff else REQUIRED) if t not in tables]
    if cff and "CFF " not in tables and "CFF2" not in tables:
        missing.append("CFF")
    if missing:
        kind = "an OpenType (CFF) font" if cff else "a TrueType font"
        raise Refused(f"lacks the table{'s' if len(missing) > 1 else ''} {', '.join(missing)} {kind} needs")
    glyphs, long_loca = _metrics(data, tables, cff)
    if not cff:
        _offsets(data, tables, glyphs, long_loca)


def _table(data: bytes, tables: dict[str, tuple[int, int]], name: str, least: int) -> int:
    offset, length = tables[name]
    if length < least:
        raise Refused(f"is damaged: table '{name}' is {length} bytes, shorter than its {least}-byte header")
    return offset


def _metrics(data: bytes, tables: dict[str, tuple[int, int]], cff: bool) -> tuple[int, int]:
    """The glyph count (maxp) against what backs it: horizontal metrics (hhea, hmtx). (glyphs, long_loca)."""
    head = _table(data, tables, "head", 54)
    if struct.unpack_from(">I", data, head + 12)[0] != 0x5F0F3CF5:
        raise Refused(
            f"is damaged: its 'head' table lacks the {'OpenType' if cff else 'TrueType'} magic number"
        )
    (units,) = struct.unpack_from(">H", data, head + 18)
    if not 16 <= units <= 16384:
        raise Refused(f"is damaged: {units} units per em (a font has 16 to 16,384)")
    (long_loca,) = struct.unpack_from(">h", data, head + 50)
    if long_loca not in (0, 1) and not cff:
        raise Refused(f"is damaged: 'head' gives glyph offsets of format {long_loca} (0 or 1)")
    glyphs = struct.unpack_from(">H", data, _table(data, tables, "maxp", 6) + 4)[0]
    if glyphs == 0:
        raise Refused("holds no glyphs")
    metrics = struct.unpack_from(">H", data, _table(data, tables, "hhea", 36) + 34)[0]
    if not 0 < metrics <= glyphs:
        raise Refused(f"is damaged: {metrics} horizontal metrics for {glyphs} glyphs")
    need = 4 * metrics + 2 * (glyphs - metrics)
    if tables["hmtx"][1] < need:
        raise Refused(
            f"is damaged: it claims {glyphs:,} glyphs, but its 'hmtx' table holds metrics for fewer "
            f"({tables['hmtx'][1]:,} bytes, {need:,} needed)"
        )
    return glyphs, long_loca


def _offsets(data: bytes, tables: dict[str, tuple[int, int]], glyphs: int, long_loca: int) -> None:
    """Every glyph offset (loca) inside the glyph data (glyf)."""
    step = 4 if long_loca else 2
    loca_at, loca_len = tables["loca"]
    if loca_len < step * (glyphs + 1):
        raise Refused(
            f"is damaged: it claims {glyphs:,} glyphs, but its 'loca' table holds offsets for "
            f"{max(0, loca_len // step - 1):,}"
        )
    offsets = struct.unpack_from(f">{glyphs + 1}{'I' if long_loca else 'H'}", data, loca_at)
    scale = 1 if long_loca else 2
    glyf_len = tables["glyf"][1]
    previous = 0
    for i, value in enumerate(offsets):
        at = value * scale
        if at < previous or at > glyf_len:
            raise Refused(
                f"is damaged: glyph {i}'s offset ({at:,}) lies outside its 'glyf' table ({glyf_len:,} bytes)"
                if at > glyf_len
                else f"is damaged: glyph {i}'s offset goes backwards in its 'loca' table"
            )
        previous = at
