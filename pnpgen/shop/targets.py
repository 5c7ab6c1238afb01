"""What each shop target asks of the files, from the shops' published requirements (cited in the README's
"Sending files to a printer").

- tgc: The Game Crafter takes PNG images at its template sizes (trim + 1/8 in bleed at 300 dpi), RGB.
- dtc: DriveThruCards (OneBookShelf) takes one PDF per deck, one card per page with 1/8 in bleed, PDF/X-1a:2003,
  CMYK, text 1/8 in inside the trim; total ink at most 240 %. Its InDesign instructions name US Web Coated
  (SWOP), whose registered characterisation is CGATS TR 001.
- pdfx: a general PDF/X-1a:2003 file of every component, one piece per page with 3 mm bleed, for any offset
  printer; FOGRA39 (ISO coated v2), 300 % ink.
- factory: pieces on punchboard sheets, at least 6 mm between die lines, 3 mm bleed, CMYK art with the die
  lines as an overprinting spot colour `die-cut`, and a separate die file; 300 % ink.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.units import MM

INCH_8 = 72 / 8  # 1/8 in in points


@dataclass(frozen=True)
class ShopTarget:
    """What one shop or factory asks of the files (the outputs that write them are `pipeline.target.Target`s)."""

    name: str
    title: str
    cmyk: bool  # colours converted to CMYK, PDF/X-1a
    bleed_pt: float
    safe_pt: float  # text and icons this far inside the trim
    ink_limit: float  # total area coverage, 2.4 = 240 %
    min_text_pt: float
    min_dpi: float = 300.0
    sells_sizes: bool = False  # card sizes are checked against what the shop sells
    die_gap_pt: float = 0.0  # the least space between die lines (factory)
    condition: str = ""  # the registered printing condition of the output intent
    condition_name: str = ""
    cmyk_profile: str = (
        ""  # the printer's CMYK ICC profile to separate through (`--cmyk-profile`); "": the formula
    )


TARGETS = {
    "tgc": ShopTarget("tgc", "The Game Crafter", False, INCH_8, INCH_8, 4.0, 6.0, sells_sizes=True),
    "dtc": ShopTarget(
        "dtc",
        "DriveThruCards",
        True,
        INCH_8,
        INCH_8,
        2.4,
        6.0,
        sells_sizes=True,
        condition="CGATS TR 001",
        condition_name="U.S. Web Coated (SWOP) v2, CGATS TR 001",
    ),
    "pdfx": ShopTarget(
        "pdfx",
        "PDF/X-1a for any offset printer",
        True,
        3 * MM,
        3 * MM,
        3.0,
        6.0,
        condition="FOGRA39",
        condition_name="Coated FOGRA39 (ISO 12647-2:2004)",
    ),
    "factory": ShopTarget(
        "factory",
        "A board-game factory (punchboard, die lines)",
        True,
        3 * MM,
        3 * MM,
        3.0,
        6.0,
        die_gap_pt=6 * MM,
        condition="FOGRA39",
        condition_name="Coated FOGRA39 (ISO 12647-2:2004)",
    ),
}
