"""An ICC colour profile (embedded in art, or a printer's CMYK profile) checked from its own header and tag table
before littleCMS reads it: the size it declares within the bytes there are, its signature, a bounded number of
tags, and every tag inside the profile."""

from __future__ import annotations

import struct

from pnpgen.bounds import Refused

MAX_ICC_BYTES = 20_000_000  # a large printer profile with fine tables is a few MB
MAX_TAGS = 500  # a real profile has 10 to 60


def check_icc(data: bytes) -> None:
    if len(data) > MAX_ICC_BYTES:
        raise Refused(f"is {len(data) / 1e6:.0f} MB; a colour profile may be {MAX_ICC_BYTES / 1e6:.0f} MB")
    if len(data) < 132 or data[36:40] != b"acsp":
        raise Refused("is not an ICC profile (no 'acsp' signature in its header)")
    declared, _ = struct.unpack_from(">II", data, 0)
    if not 132 <= declared <= len(data):
        raise Refused(f"declares {declared:,} bytes and holds {len(data):,}")
    (count,) = struct.unpack_from(">I", data, 128)
    if count > MAX_TAGS or 132 + 12 * count > declared:
        raise Refused(f"says it holds {count:,} tags; its tag table does not fit in it")
    for i in range(count):
        tag, offset, size = struct.unpack_from(">4sII", data, 132 + 12 * i)
        if offset < 128 or offset + size > declared:
            name = tag.decode("latin-1").strip()
            raise Refused(f"is damaged: its tag '{name}' ({size:,} bytes at {offset:,}) lies outside it")
