"""Lengths: '63.5mm', '2.5in', '9pt', '1cm' or a bare number in a default unit -> points.

An unknown unit is an error, never passed through.
"""

from __future__ import annotations

import math
import re

PT_PER = {"pt": 1.0, "mm": 72 / 25.4, "cm": 720 / 25.4, "in": 72.0}
MM = PT_PER["mm"]

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-zA-Z]*)\s*$")

# Named card sizes, width x height in mm: the inch sizes print shops sell under these names (`pnpgen.shop.sizes`
# lists which shop sells which).
CARD_SIZES = {
    "poker": (63.5, 88.9),  # 2.5 x 3.5 in
    "bridge": (57.15, 88.9),  # 2.25 x 3.5 in
    "tarot": (69.85, 120.65),  # 2.75 x 4.75 in
    "mini": (44.45, 63.5),  # 1.75 x 2.5 in
    "square-2.5in": (63.5, 63.5),
    "square-3.5in": (88.9, 88.9),
}
# Names that once meant a size no shop sells: the message says which names to use instead.
RETIRED_SIZES = {"square": "'square' names two sizes shops sell: use square-2.5in or square-3.5in"}

PX_DPI = 300  # what a length given in pixels is told in (an error: pixels are no length)
_PX_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*px\s*[xX×]\s*(\d+(?:\.\d+)?)\s*px\s*$", re.IGNORECASE)
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, in mm


def paper_pt(paper: str) -> tuple[float, float]:
    """A paper's portrait width and height in points: the one place a paper name becomes a size."""
    w, h = PAPERS[paper]
    return w * MM, h * MM


class UnitError(ValueError):
    pass


def to_pt(value: object, default_unit: str = "mm") -> float:
    """Convert a length to points; numbers use `default_unit`."""
    if isinstance(value, bool):
        raise UnitError(f"expected a length, got {value!r}")
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # a whole number past 1e308
            raise UnitError(f"is too large a length (got {_short(value)}; at most about 35 m)") from None
        return _finite(number * PT_PER[default_unit], value)
    if isinstance(value, str):
        m = _LENGTH.match(value)
        if not m:
            raise UnitError(f"expected a length such as '3mm', '0.25in' or '9pt', got {value!r}")
        number, unit = float(m.group(1)), (m.group(2).lower() or default_unit)
        if unit == "px":
            mm = number * 25.4 / PX_DPI
            raise UnitError(
                f"is in pixels, which are as large as the dpi makes them: at {PX_DPI} dpi (Squib's cards, print "
                f"shops' templates) {value!r} is {mm:.4g} mm: write '{mm:.4g}mm'"
            )
        if unit not in PT_PER:
            raise UnitError(f"unknown unit '{m.group(2)}' in {value!r} (accepted: mm, cm, in, pt)")
        return _finite(number * PT_PER[unit], value)
    raise UnitError(f"expected a length, got {_short(value)}")


def _px_size(w_px: float, h_px: float) -> str:
    """What a size given in pixels is, at PX_DPI: in mm, and the named size it is with a 1/8 in bleed, if any
    (Squib's poker card is 825 x 1125 px: 2.5 x 3.5 in and its bleed)."""
    w, h = w_px * 25.4 / PX_DPI, h_px * 25.4 / PX_DPI
    said = (
        f"is in pixels, which are no length: at {PX_DPI} dpi, {w_px:g} x {h_px:g} px is {w:.4g} x {h:.4g} mm"
    )
    for name, (nw, nh) in CARD_SIZES.items():
        if abs(w - nw - 6.35) < 0.05 and abs(h - nh - 6.35) < 0.05:
            return f"{said}, a {name} card with a 1/8 in bleed: write 'size: {name}' and 'bleed: 0.125in'"
        if abs(w - nw) < 0.05 and abs(h - nh) < 0.05:
            return f"{said}: write 'size: {name}'"
    return f"{said}: write '{w:.4g}mm x {h:.4g}mm'"


def _short(value: object) -> str:
    """`value` as a message shows it: its repr, shortened (a number of 400 digits, a list of thousands)."""
    text = repr(list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value)
    return text if len(text) <= 40 else text[:37] + "..."


MAX_PT = 100_000.0  # about 35 m: no piece, board or sheet is larger


def _finite(pt: float, value: object) -> float:
    """Every length is a finite number of sane size ('1' followed by 400 zeros is not)."""
    if not math.isfinite(pt):
        raise UnitError(f"must be a finite number (got {value!r})")
    if abs(pt) > MAX_PT:
        raise UnitError(f"is too large a length (got {_short(value)}; at most about 35 m)")
    return pt


def mm(value_pt: float) -> float:
    return value_pt / MM


MIN_SIZE_MM, MAX_SIZE_MM = 10.0, 2000.0
MIN_PIECE_MM = 5.0  # a tile's or token's side may be smaller than a card's


def parse_size(value: object, one_length: bool = False, min_mm: float = MIN_SIZE_MM) -> tuple[float, float]:
    """A size -> (width_pt, height_pt): a card size name, 'W x H' or 'W × H' with units, {width:, height:}, or with
    `one_length` a single length for both sides (a square tile, a hex across the flats)."""
    w, h = _parse_size(value, one_length)
    return check_size(w, h, min_mm)


def check_size(w: float, h: float, min_mm: float = MIN_SIZE_MM) -> tuple[float, float]:
    for side in (w, h):
        if not min_mm * MM - 1e-9 <= side <= MAX_SIZE_MM * MM + 1e-9:
            raise UnitError(
                f"sides must be from {min_mm:g} mm to {MAX_SIZE_MM:g} mm (got {w / MM:.1f} x {h / MM:.1f} mm)"
            )
    return w, h


_BY = re.compile(r"\s*[xX×]\s*")


def _parse_size(value: object, one_length: bool) -> tuple[float, float]:
    if one_length and isinstance(value, (int, float)) and not isinstance(value, bool):
        side = to_pt(value)
        return side, side
    if isinstance(value, str):
        key = value.strip().lower()
        if key in CARD_SIZES:
            w, h = CARD_SIZES[key]
            return w * MM, h * MM
        if key in RETIRED_SIZES:
            raise UnitError(RETIRED_SIZES[key])
        if px := _PX_SIZE.match(value):  # before splitting on x: 'px' holds one
            raise UnitError(_px_size(float(px.group(1)), float(px.group(2))))
        parts = _BY.split(value.strip())
        if len(parts) == 2:
            return to_pt(parts[0]), to_pt(parts[1])
        if one_length and len(parts) == 1:
            side = to_pt(value)
            return side, side
        raise UnitError(
            f"unknown size {value!r}: expected one of {', '.join(CARD_SIZES)} or 'W x H' such as '63.5mm x 88.9mm'"
            + (", or one length such as '40mm'" if one_length else "")
        )
    if isinstance(value, dict):
        missing = {"width", "height"} - set(value)
        if missing:
            raise UnitError(f"a size needs width and height (missing: {', '.join(sorted(missing))})")
        return to_pt(value["width"]), to_pt(value["height"])
    raise UnitError(f"expected a size name or 'W x H', got {value!r}")
