"""Lengths: '63.5mm', '2.5in', '9pt', '1cm' or a bare number in a default unit -> points.

An unknown unit is an error, never passed through.
"""

from __future__ import annotations

import re

PT_PER = {"pt": 1.0, "mm": 72 / 25.4, "cm": 720 / 25.4, "in": 72.0}
MM = PT_PER["mm"]

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-zA-Z]*)\s*$")

# Named card sizes, width x height in mm.
CARD_SIZES = {
    "poker": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (44.5, 63.5),
    "square": (70.0, 70.0),
}

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


class UnitError(ValueError):
    pass


def to_pt(value, default_unit: str = "mm") -> float:
    """Convert a length to points; numbers use `default_unit`."""
    if isinstance(value, bool):
        raise UnitError(f"expected a length, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value) * PT_PER[default_unit]
    if isinstance(value, str):
        m = _LENGTH.match(value)
        if not m:
            raise UnitError(f"expected a length such as '3mm', '0.25in' or '9pt', got {value!r}")
        number, unit = float(m.group(1)), (m.group(2).lower() or default_unit)
        if unit not in PT_PER:
            raise UnitError(f"unknown unit '{m.group(2)}' in {value!r} (accepted: mm, cm, in, pt)")
        return number * PT_PER[unit]
    raise UnitError(f"expected a length, got {type(value).__name__} {value!r}")


def mm(value_pt: float) -> float:
    return value_pt / MM


MIN_SIZE_MM, MAX_SIZE_MM = 10.0, 2000.0


def parse_size(value) -> tuple[float, float]:
    """A card size: a name, 'W x H' with units, or {width:, height:} -> (width_pt, height_pt)."""
    w, h = _parse_size(value)
    return check_size(w, h)


def check_size(w: float, h: float) -> tuple[float, float]:
    for side in (w, h):
        if not MIN_SIZE_MM * MM - 1e-9 <= side <= MAX_SIZE_MM * MM + 1e-9:
            raise UnitError(
                f"sides must be from {MIN_SIZE_MM:g} mm to {MAX_SIZE_MM:g} mm "
                f"(got {w / MM:.1f} x {h / MM:.1f} mm)"
            )
    return w, h


def _parse_size(value) -> tuple[float, float]:
    if isinstance(value, str):
        key = value.strip().lower()
        if key in CARD_SIZES:
            w, h = CARD_SIZES[key]
            return w * MM, h * MM
        parts = re.split(r"\s*[x×]\s*", value.strip())
        if len(parts) == 2:
            w, h = to_pt(parts[0]), to_pt(parts[1])
            if w <= 0 or h <= 0:
                raise UnitError(f"a size must be positive, got {value!r}")
            return w, h
        raise UnitError(
            f"unknown size {value!r}: expected one of {', '.join(CARD_SIZES)} or 'W x H' such as '63.5mm x 88.9mm'"
        )
    if isinstance(value, dict):
        missing = {"width", "height"} - set(value)
        if missing:
            raise UnitError(f"a size needs width and height (missing: {', '.join(sorted(missing))})")
        w, h = to_pt(value["width"]), to_pt(value["height"])
        if w <= 0 or h <= 0:
            raise UnitError("a size must be positive")
        return w, h
    raise UnitError(f"expected a size name or 'W x H', got {value!r}")
