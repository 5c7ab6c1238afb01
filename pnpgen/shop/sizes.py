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
    sold_by: tuple[str, ...]  # the targets that sell it

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


# The Game Crafter's punchout tiles, chits and shards, and its game boards: (product, TGC's identity, template
# pixels at 300 dpi, the pnpgen shapes it takes, printed sides). The pixels are TGC's templates as its product
# pages list them (`https://www.thegamecrafter.com/make/products/<identity>`, cited in the README); the trim is
# the template less 1/8 in of bleed all round, as for the cards (a 300 px chit: 0.75 in).
@dataclass(frozen=True)
class Product:
    name: str
    identity: str
    template: tuple[int, int]
    shapes: tuple[str, ...]
    sides: int = 2

    @property
    def trim_in(self) -> tuple[float, float]:
        extra = 2 * TEMPLATE_BLEED_IN
        return self.template[0] / TEMPLATE_DPI - extra, self.template[1] / TEMPLATE_DPI - extra

    def describe(self) -> str:
        w, h = self.trim_in
        return f"{self.name} ({w:g} x {h:g} in, template {self.template[0]} x {self.template[1]} px)"


SQUARE, ROUND, HEX, TRIANGLE = ("square", "rect"), ("circle",), ("hex", "hex-flat"), ("triangle",)
PIECES = (
    Product("Small Square Chit", "SmallSquareChit", (225, 225), SQUARE),
    Product("Medium Square Chit", "MediumSquareChit", (300, 300), SQUARE),
    Product("Large Square Chit", "LargeSquareChit", (375, 375), SQUARE),
    Product("Square Shard", "SquareShard", (300, 300), SQUARE),
    Product("Mini Square Tile", "MiniSquareTile", (450, 450), SQUARE),
    Product("Small Square Tile", "SmallSquareTile", (675, 675), SQUARE),
    Product("Medium Square Tile", "MediumSquareTile", (825, 825), SQUARE),
    Product("Large Square Tile", "LargeSquareTile", (1125, 1125), SQUARE),
    Product("Domino Chit", "DominoChit", (375, 675), ("rect",)),
    Product("Strip Chit", "StripChit", (375, 975), ("rect",)),
    Product("Domino Tile", "DominoTile", (675, 1275), ("rect",)),
    Product("Small Circle Chit", "SmallCircleChit", (225, 225), ROUND),
    Product("Medium Circle Chit", "MediumCircleChit", (300, 300), ROUND),
    Product("Large Circle Chit", "LargeCircleChit", (375, 375), ROUND),
    Product("Circle Shard", "CircleShard", (300, 300), ROUND),
    Product("Mini Circle Tile", "MiniCircleTile", (450, 450), ROUND),
    Product("Hex Shard", "HexShard", (300, 300), HEX),
    Product("Mini Hex Tile", "MiniHexTile", (450, 450), HEX),
    Product("Small Hex Tile", "SmallHexTile", (675, 600), HEX),
    Product("Medium Hex Tile", "MediumHexTile", (825, 750), HEX),
    Product("Large Hex Tile", "LargeHexTile", (1200, 1050), HEX),
    Product("Medium Triangle Chit", "MediumTriangleChit", (300, 300), TRIANGLE),
    Product("Triangle Tile", "TriangleTile", (675, 600), TRIANGLE),
)
BOARDS = (
    Product("Small Square Board", "SmallSquareBoard", (1275, 1275), SQUARE),
    Product("Quarter Board", "QuarterBoard", (1575, 1575), SQUARE),
    Product("Square Board", "SquareBoard", (2475, 2475), SQUARE),
    Product("Large Square Board", "LargeSquareBoard", (3075, 3075), SQUARE),
    Product("Sliver Board", "SliverBoard", (675, 2475), SQUARE),
    Product("Strip Board", "StripBoard", (675, 3075), SQUARE),
    Product("Domino Board", "DominoBoard", (1275, 2475), SQUARE),
    Product("Skinny Board", "SkinnyBoard", (1275, 3075), SQUARE),
    Product("Half Board", "HalfBoard", (1575, 3075), SQUARE),
    Product("Accordion Board", "AccordionBoard", (2475, 4875), SQUARE),
    Product("Bi-Fold Board", "BiFoldBoard", (2775, 5475), SQUARE, sides=1),
    Product("Medium Six-Fold Board", "MediumSixFoldBoard", (4875, 4875), SQUARE, sides=1),
    Product("Quad-Fold Board", "QuadFoldBoard", (5475, 5475), SQUARE, sides=1),
    Product("Large Quad-Fold Board", "LargeQuadFoldBoard", (6075, 6075), SQUARE, sides=1),
    Product("Six-Fold Board", "SixFoldBoard", (8175, 5475), SQUARE, sides=1),
)


def _product_fits(product: Product, shape: str, width_pt: float, height_pt: float) -> float:
    """How far (mm, the larger side's difference) a piece's bounding box is from a product's trim. A hex, circle
    or triangle fits by its larger side, corner to corner: TGC rounds the other side of its hex and triangle
    templates to a multiple of 1/4 in (a 2 in hex tile is 1.75 in across the flats, not 1.73)."""
    w, h = (v * 72 for v in product.trim_in)
    if shape not in ("square", "rect"):
        return abs(max(w, h) - max(width_pt, height_pt)) / MM
    return (
        min(
            max(abs(w - width_pt), abs(h - height_pt)),
            max(abs(h - width_pt), abs(w - height_pt)),
        )
        / MM
    )


def products_for(kind: str, shape: str) -> list[Product]:
    """What The Game Crafter sells that a component of this kind and shape could be printed as."""
    if kind == "board":
        return list(BOARDS)
    pieces = [p for p in PIECES if shape in p.shapes]
    if shape == "rect":  # a rectangular tile may be a player board: TGC's two-sided boards take it too
        pieces += [b for b in BOARDS if b.sides == 2]
    return pieces


def match_product(kind: str, shape: str, width_pt: float, height_pt: float) -> Product | None:
    """The Game Crafter product this component is (to 0.3 mm), or None."""
    for product in products_for(kind, shape):
        if _product_fits(product, shape, width_pt, height_pt) <= TOLERANCE_MM + 1e-9:
            return product
    return None


def nearest_product(kind: str, shape: str, width_pt: float, height_pt: float) -> Product:
    return min(products_for(kind, shape), key=lambda p: _product_fits(p, shape, width_pt, height_pt))


def product_px(product: Product, width_pt: float, height_pt: float) -> tuple[int, int]:
    """The product's template in the piece's orientation (a portrait piece gets a portrait template)."""
    w, h = product.template
    return (w, h) if (width_pt <= height_pt) == (w <= h) or w == h else (h, w)


def unsold_product_message(kind: str, shape: str, width_pt: float, height_pt: float) -> str | None:
    """None when The Game Crafter sells this component's size; else a message naming the nearest product."""
    if match_product(kind, shape, width_pt, height_pt) is not None:
        return None
    near = nearest_product(kind, shape, width_pt, height_pt)
    what = "board" if kind == "board" else f"{shape} piece"
    return (
        f"The Game Crafter sells no {what} of {width_pt / MM:.1f} x {height_pt / MM:.1f} mm; the nearest it "
        f"sells is the {near.describe()}; the PNGs are written at the component's own size plus 1/8 in bleed"
    )
