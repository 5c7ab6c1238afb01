"""The Game Crafter: one PNG per distinct face and back at its template size, 300 dpi, tagged sRGB.

TGC's upload templates are the trim plus 1/8 in of bleed on every side at 300 dpi (a poker card 825 x 1125 px,
a medium circle chit 300 x 300, `pnpgen.shop.sizes`). Its card templates are portrait: a landscape card's
images are turned to them. Each card deck, tile set and token set goes to
`OUT/<game>/shop/tgc/<id>/`, numbered in deck order with cards.csv of the counts (the layout of `export png`);
each board to `OUT/<game>/shop/tgc/<board>/`, one PNG a side with sides.csv. A size TGC does not sell is
written at its own size plus the bleed (preflight warns and names the nearest product). Each folder is swapped
whole, so it holds this export, old or new.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from functools import partial
from pathlib import Path

from pnpgen.errors import Diagnostics, counted
from pnpgen.exports import SHOP_BLEED, Exported, Folders, _render_pages, _save
from pnpgen.exports.png import PngExport
from pnpgen.model import Board, Deck
from pnpgen.pipeline.target import Export, exported
from pnpgen.shop import sizes

DPI = sizes.TEMPLATE_DPI


def own_px(width_pt: float, height_pt: float) -> tuple[int, int]:
    """Trim plus 1/8 in bleed all round at 300 dpi: the image of a size TGC does not sell."""
    return (
        round((width_pt + 2 * SHOP_BLEED) / 72 * DPI),
        round((height_pt + 2 * SHOP_BLEED) / 72 * DPI),
    )


def template_px(comp) -> tuple[int, int]:
    """The image size TGC takes for this component: its template when it sells the size, else trim + bleed."""
    if isinstance(comp, Deck) and comp.kind == "cards":
        size = sizes.match(comp.width_pt, comp.height_pt, "tgc")
        if size is not None:  # TGC's card templates are portrait: a landscape card is turned (`templated`)
            return size.template_px()
        return own_px(comp.width_pt, comp.height_pt)
    shape = getattr(comp, "shape", "rect")
    product = sizes.match_product(comp.kind, shape, comp.width_pt, comp.height_pt)
    if product is not None:
        return sizes.product_px(product, comp.width_pt, comp.height_pt)
    return own_px(comp.width_pt, comp.height_pt)


def srgb_profile() -> bytes:
    """An sRGB ICC profile (Pillow's littleCMS builds it; nothing is downloaded). littleCMS stamps a profile
    with the time it was made (header bytes 24-35): set to 2000-01-01 here, so that the same content exports the
    same bytes."""
    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    data[24:36] = b"".join(n.to_bytes(2, "big") for n in (2000, 1, 1, 0, 0, 0))
    return bytes(data)


def fitted(image, px: tuple[int, int]):
    """The image at `px`. A few pixels off (a size in mm rounds): scaled. A hex or triangle on a square template
    (its bounding box narrower than the template): centred, unscaled, on the colour of its bleed corner."""
    from PIL import Image

    if image.size == px:
        return image
    w, h = image.size
    if abs(w - px[0]) <= 3 and abs(h - px[1]) <= 3:
        return image.resize(px, Image.Resampling.LANCZOS)
    scale = min(px[0] / w, px[1] / h)
    if abs(scale - 1) > 0.01:
        image = image.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", px, image.getpixel((0, 0)))
    canvas.paste(image, ((px[0] - image.size[0]) // 2, (px[1] - image.size[1]) // 2))
    return canvas


def templated(image, px: tuple[int, int]):
    """A rendered face (RGB) made exactly `px`. A landscape image for a portrait template (a landscape card: TGC
    sells cards portrait) is turned a quarter anticlockwise, its top to the left, as a landscape card is read
    when the portrait card is turned clockwise."""
    from PIL import Image

    if (image.width > image.height) != (px[0] > px[1]) and px[0] != px[1]:
        image = image.transpose(Image.Transpose.ROTATE_90)
    return fitted(image, px)


class TgcDeck(PngExport):
    """A card deck, tile set or token sheet as `export png` writes it, each image at TGC's template size."""

    kind = "tgc"

    def __init__(self, deck: Deck, icc: bytes):
        super().__init__(deck, DPI, True)
        self.icc = icc

    def writer(self, image):
        """Each face at its template size, 300 dpi (pHYs) and sRGB (iCCP), written once."""
        picture = templated(image, template_px(self.deck))
        return partial(picture.save, dpi=(DPI, DPI), icc_profile=self.icc, compress_level=1)


class TgcBoard(Export):
    """Each side of a board one PNG, drawn with TGC's 1/8 in bleed, and sides.csv naming them."""

    kind = "tgc"

    def __init__(self, board: Board, icc: bytes):
        super().__init__(board.id, board.loc)
        self.board, self.icc, self.drawn = board, icc, None

    def prepare(self, run, diags: Diagnostics) -> bool:
        self.drawn = run.painter.board(replace(self.board, bleed_pt=SHOP_BLEED), diags)
        return self.drawn is not None

    def write_all(self, folder: Path, w) -> list[str]:
        return _board_files(w, self.board, folder, self.icc, self.drawn)


def _board_files(w, board: Board, folder: Path, icc: bytes, drawn) -> list[str]:
    px = template_px(board)
    product = sizes.match_product("board", "rect", board.width_pt, board.height_pt)
    width = max(1, len(str(len(board.sides))))
    names = [f"{board.id}-{n:0{width}d}-{side.id}.png" for n, side in enumerate(board.sides, 1)]
    pages = _render_pages(drawn.faces, SHOP_BLEED, w.icons, DPI, board, folder)
    for name, image in zip(names, pages):
        picture = fitted(image, px)
        save = partial(picture.save, dpi=(DPI, DPI), icc_profile=icc, compress_level=1)
        _save(save, folder, name, board.loc)
    with open(folder / "sides.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["file", "side", "name", "product"])
        for name, side in zip(names, board.sides):
            out.writerow([name, side.id, side.name, product.identity if product else ""])
    return [*names, "sides.csv"]


def export_tgc(run, project, components: list, diags: Diagnostics) -> list[Exported]:
    icc = srgb_profile()
    results = []
    with Folders(project.out) as folders:
        for comp in components:
            folder = folders.stage(project.out_dir(run.game.id) / "shop" / "tgc" / comp.id)
            out = TgcBoard(comp, icc) if isinstance(comp, Board) else TgcDeck(comp, icc)
            files = exported(run, out, folder, diags)
            results.append(Exported(comp.id, files))
        _spec(run, project, components, results, folders)
    return results


def _spec(run, project, components: list, results: list, folders: Folders) -> None:
    """spec.csv and spec.pdf beside the components' folders; all of them move into place together, or none."""
    from pnpgen.pipeline.staging import Stage
    from pnpgen.shop.spec import write_spec
    from pnpgen.shop.targets import TARGETS

    files = {}
    for r in results:
        images = [n for n in r.files if n.endswith(".png")]
        listing = next((n for n in r.files if n.endswith(".csv")), "")
        files[r.component] = f"{r.component}/: {counted(len(images), 'PNG image')} and {listing}"
    final = project.out_dir(run.game.id) / "shop" / "tgc"
    with Stage(final, project.out) as stage:
        names = write_spec(stage.dir, run, TARGETS["tgc"], components, files)
        folders.commit(then=lambda: stage.commit(names))
