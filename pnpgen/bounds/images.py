"""A raster image checked from its own structure before anything decodes or embeds it.

A JPEG goes into the PDF as its own bytes, never decoded, so nothing else would notice that it is cut short: its
segments are walked from SOI through each frame header (SOF: the size it claims) and scan (SOS) to EOI, and the
entropy-coded data must end at a marker, the last one EOI. A PNG's chunks are walked (each inside the file, its
CRC right, IHDR first, IEND last) and its image data inflated here in bounded pieces: it must give exactly the
bytes its header's size asks for, no fewer (cut short) and no more (a bomb), before Pillow or ReportLab read it.
"""

from __future__ import annotations

import re
import struct
import zlib

from pnpgen.bounds import Refused

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_NO_LENGTH = {0x01, *range(0xD0, 0xD8)}  # TEM and the restart markers stand alone
_PNG = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel
PIECE = 1 << 20


def image_size(data: bytes, max_pixels: float) -> tuple[str, int, int] | None:
    """('JPEG' or 'PNG', width, height) of a whole, sound image, None for a file of neither kind; `Refused` says
    what is wrong. A size over `max_pixels` is returned, not refused (the caller says so in its own words), and
    nothing is inflated then."""
    if data[:3] == b"\xff\xd8\xff":
        return ("JPEG", *jpeg_size(data, max_pixels))
    if data[:8] == _PNG:
        return ("PNG", *png_size(data, max_pixels))
    return None


def jpeg_size(data: bytes, max_pixels: float) -> tuple[int, int]:
    size, at = len(data), 2
    dims: tuple[int, int] | None = None
    scans = 0
    while True:
        if at >= size:
            raise Refused(_cut(scans))
        if data[at] != 0xFF:
            raise Refused(f"is damaged: byte {at:,} should start a JPEG marker")
        while at < size and data[at] == 0xFF:  # fill bytes
            at += 1
        if at >= size:
            raise Refused(_cut(scans))
        marker = data[at]
        at += 1
        if marker == 0xD9:  # EOI
            if not scans or dims is None:
                raise Refused("is damaged: it ends before any image data")
            return dims
        if marker in _NO_LENGTH:
            continue
        if at + 2 > size:
            raise Refused(_cut(scans))
        (length,) = struct.unpack_from(">H", data, at)
        end = at + length
        if length < 2 or end > size:
            raise Refused(
                _cut(scans) if end > size else f"is damaged: a segment at byte {at:,} has no length"
            )
        if marker in _SOF:
            if length < 8:
                raise Refused("is damaged: its frame header is too short")
            height, width = struct.unpack_from(">HH", data, at + 3)
            if not width or not height:
                raise Refused(f"is damaged: its frame header gives a size of {width} x {height} pixels")
            dims = (width, height)
            if width * height > max_pixels:
                return dims  # too large: refused by the caller as such, whatever else is wrong
        at = end
        if marker == 0xDA:  # SOS: the entropy-coded data follows, up to the next marker that is not data
            if dims is None:
                raise Refused("is damaged: its image data comes before its frame header")
            scans += 1
            at = _entropy_end(data, at, scans)


# a marker inside entropy-coded data: 0xFF followed by neither a stuffed 0x00, a restart marker nor a fill 0xFF
_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


def _entropy_end(data: bytes, at: int, scans: int) -> int:
    """Where the entropy-coded data starting at `at` ends: the first 0xFF followed by a marker (not a stuffed
    0x00, not a restart marker, not another 0xFF), found in one scan (a byte-by-byte loop over every 0xFF took
    0.1 ms a card of 300-dpi art)."""
    found = _MARKER.search(data, at)
    if found is None:
        raise Refused(_cut(scans))
    return found.start()


def _cut(scans: int) -> str:
    if scans:
        return "is cut short: its image data ends without the JPEG end-of-image marker"
    return "is cut short: it ends inside its headers"


def png_size(data: bytes, max_pixels: float) -> tuple[int, int]:
    size, at = len(data), 8
    dims: tuple[int, int] | None = None
    header = b""
    idat: list[memoryview] = []
    view = memoryview(data)
    while True:
        if at + 8 > size:
            raise Refused("is cut short: it ends before its IEND chunk")
        length, kind = struct.unpack_from(">I4s", data, at)
        end = at + 12 + length
        if end > size:
            raise Refused(f"is cut short: chunk '{kind.decode('latin-1')}' ends past the end of the file")
        body = view[at + 8 : at + 8 + length]
        (crc,) = struct.unpack_from(">I", data, at + 8 + length)
        if zlib.crc32(view[at + 4 : at + 8 + length]) != crc:
            raise Refused(f"is damaged: chunk '{kind.decode('latin-1')}' fails its checksum")
        if dims is None and kind != b"IHDR":
            raise Refused("is damaged: its first chunk is not IHDR")
        if kind == b"IHDR":
            if length != 13 or dims is not None:
                raise Refused("is damaged: its IHDR chunk is wrong")
            header = bytes(body)
            dims = struct.unpack_from(">II", header)
            if not dims[0] or not dims[1]:
                raise Refused(f"is damaged: its header gives a size of {dims[0]} x {dims[1]} pixels")
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        at = end
    assert dims is not None
    if not idat:
        raise Refused("is damaged: it holds no image data")
    if dims[0] * dims[1] <= max_pixels:
        _inflates_to(idat, _raw_size(header))
    return dims


def _raw_size(header: bytes) -> int:
    """The bytes a PNG's image data inflates to, from its header: each row's filter byte and its samples (an
    interlaced image as its seven passes)."""
    width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", header)
    bits = depth * _CHANNELS.get(colour, 4)

    def rows(w: int, h: int) -> int:
        return 0 if not w or not h else h * (1 + (w * bits + 7) // 8)

    if interlace != 1:
        return rows(width, height)
    passes = (
        (0, 0, 8, 8),
        (4, 0, 8, 8),
        (0, 4, 4, 8),
        (2, 0, 4, 4),
        (0, 2, 2, 4),
        (1, 0, 2, 2),
        (0, 1, 1, 2),
    )
    return sum(rows((width - x + dx - 1) // dx, (height - y + dy - 1) // dy) for x, y, dx, dy in passes)


def _inflates_to(idat: list[memoryview], expected: int) -> None:
    inflater = zlib.decompressobj()
    out = 0
    try:
        for body in idat:
            piece = inflater.decompress(body, PIECE)
            out += len(piece)
            while inflater.unconsumed_tail and out <= expected:
                out += len(inflater.decompress(inflater.unconsumed_tail, PIECE))
            if out > expected:
                raise Refused(
                    f"is damaged: its image data unpacks to more than the {expected:,} bytes its size needs"
                )
        out += len(inflater.flush())
    except zlib.error:
        raise Refused("is damaged: its image data cannot be unpacked") from None
    if out > expected:
        raise Refused(
            f"is damaged: its image data unpacks to more than the {expected:,} bytes its size needs"
        )
    if out < expected or not inflater.eof:
        raise Refused(
            f"is cut short: its image data unpacks to {out:,} of the {expected:,} bytes its size needs"
        )
