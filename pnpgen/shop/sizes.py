"""The card sizes print shops sell, by the names they sell them under, and which shop sells which.

A size is the trim in inches, as the shops publish it. The Game Crafter's upload templates are the trim plus 1/8 in
of bleed on every side at 300 dpi (a poker card: 2.75 x 3.75 in, 825 x 1125 px); DriveThruCards asks the same
bleed in a PDF. Matching ignores orientation (a landscape poker card is a poker card) and allows 0.3 mm, what a
size written in millimetres loses to rounding (57.2 mm for 2.25 in).
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.units import MM

TOLERANCE_MM = 0.3
TEMPLATE_DPI = 300
TEMPLATE_BLEED_IN = 0.125


@dataclass(frozen=True)
class ShopSize:
    name: str  # the name pnpgen's content uses (`size: tarot`)
    width_in: float
    height_in: float
    sold_by: tuple  # the targets that sell it

    @property
    def size_pt(self) -> tuple[float, float]:
        return self.width_in * 72, self.height_in * 72

    def describe(self) -> str:
        return f"{self.name} ({self.width_in:g} x {self.height_in:g} in)"

    def template_px(self) -> tuple[int, int]:
        """The Game Crafter's template for this size: trim plus 1/8 in bleed all round, at 300 dpi."""
        extra = 2 * TEMPLATE_BLEED_IN
        return (
            round((self.width_in + extra) * TEMPLATE_DPI),
            round((self.height_in + extra) * TEMPLATE_DPI),
        )


CARD_SIZES = (
    ShopSize("poker", 2.5, 3.5, ("tgc", "dtc")),
    ShopSize("bridge", 2.25, 3.5, ("tgc", "dtc")),
    ShopSize("tarot", 2.75, 4.75, ("tgc", "dtc")),
    ShopSize("mini", 1.75, 2.5, ("tgc", "dtc")),
    ShopSize("square-2.5in", 2.5, 2.5, ("tgc", "dtc")),
    ShopSize("square-3.5in", 3.5, 3.5, ("tgc", "dtc")),
)


def _fits(size: ShopSize, width_pt: float, height_pt: float) -> float:
    """How far (in mm, the larger side's difference) a size is from this one, in the better orientation."""
    w, h = size.size_pt
    return (
        min(
            max(abs(w - width_pt), abs(h - height_pt)),
            max(abs(h - width_pt), abs(w - height_pt)),
        )
        / MM
    )


def sold(target: str) -> list[ShopSize]:
    return [s for s in CARD_SIZES if target in s.sold_by]


def match(width_pt: float, height_pt: float, target: str) -> ShopSize | None:
    """The size `target` sells that this is, or None."""
    for size in sold(target):
        if _fits(size, width_pt, height_pt) <= TOLERANCE_MM:
            return size
    return None


def nearest(width_pt: float, height_pt: float, target: str) -> ShopSize:
    """The size `target` sells closest to this one."""
    return min(sold(target), key=lambda s: _fits(s, width_pt, height_pt))


def unsold_message(width_pt: float, height_pt: float, target: str, shop: str = "") -> str | None:
    """None when the shop sells the size; else a message naming the nearest size it does sell."""
    if match(width_pt, height_pt, target) is not None:
        return None
    near = nearest(width_pt, height_pt, target)
    return (
        f"{shop or target} sells no card of {width_pt / MM:.1f} x {height_pt / MM:.1f} mm; "
        f"the nearest it sells is {near.describe()}"
    )
