"""The Game Crafter: one PNG per distinct face and back at its template size, 300 dpi, tagged sRGB.

TGC's upload templates are the trim plus 1/8 in of bleed on every side at 300 dpi (a poker card 825 x 1125 px,
`pnpgen.shop.sizes`). Each deck goes to `OUT/<game>/shop/tgc/<deck>/`, numbered in deck order with cards.csv of the
counts (the layout of `export png`); the folder is swapped whole, so it holds this export, old or new.
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.errors import ContentError, Diagnostics
from pnpgen.exports import SHOP_BLEED, Exported, PngExport, _discard
from pnpgen.model import Deck
from pnpgen.pipeline.jobs import plain_error
from pnpgen.pipeline.staging import refuse_link, staging_folder, swap_folder
from pnpgen.shop import sizes

DPI = sizes.TEMPLATE_DPI


def template_px(deck: Deck) -> tuple[int, int]:
    """The image size TGC takes for this deck: its template when it sells the size, else trim + bleed at 300 dpi."""
    size = sizes.match(deck.width_pt, deck.height_pt, "tgc")
    if size is not None:
        w, h = size.template_px()
        return (w, h) if (deck.width_pt <= deck.height_pt) == (w <= h) else (h, w)
    return (
        round((deck.width_pt + 2 * SHOP_BLEED) / 72 * DPI),
        round((deck.height_pt + 2 * SHOP_BLEED) / 72 * DPI),
    )


def srgb_profile() -> bytes:
    """An sRGB ICC profile (Pillow's littleCMS builds it; nothing is downloaded)."""
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def retag(path: Path, px: tuple[int, int], icc: bytes) -> None:
    """Make a written PNG exactly `px`, RGB, 300 dpi (pHYs) and sRGB (iCCP)."""
    from PIL import Image

    with Image.open(path) as im:
        image = im.convert("RGB")
    if image.size != px:  # a size in mm rounds a pixel off the template: scale to it
        image = image.resize(px, Image.Resampling.LANCZOS)
    image.save(path, dpi=(DPI, DPI), icc_profile=icc, compress_level=1)


def export_tgc(run, project, decks: list[Deck], diags: Diagnostics) -> list[Exported]:
    icc = srgb_profile()
    results = []
    for deck in decks:
        final = project.out_dir(run.game.id) / "shop" / "tgc" / deck.id
        refuse_link(final, project.out)
        folder = staging_folder(final)
        try:
            files = PngExport(deck, DPI, True).write(run, folder, diags)
            px = template_px(deck)
            for name in files:
                if name.endswith(".png"):
                    try:
                        retag(folder / name, px, icc)
                    except OSError as exc:
                        raise ContentError.at(
                            deck.loc, f"could not write {name}: {plain_error(exc)}"
                        ) from None
            swap_folder(folder, final, project.out)
        finally:
            if folder.exists():
                _discard(folder)
        results.append(Exported(deck.id, files))
    _spec(run, project, decks, results)
    return results


def _spec(run, project, decks: list, results: list) -> None:
    """spec.csv and spec.pdf beside the decks' folders."""
    from pnpgen.pipeline.staging import Stage
    from pnpgen.shop.spec import write_spec
    from pnpgen.shop.targets import TARGETS

    files = {}
    for r in results:
        images = [n for n in r.files if n.endswith(".png")]
        files[r.component] = f"{r.component}/: {len(images)} PNG images and cards.csv"
    final = project.out_dir(run.game.id) / "shop" / "tgc"
    with Stage(final, project.out) as stage:
        stage.commit(write_spec(stage.dir, run, TARGETS["tgc"], decks, files))
