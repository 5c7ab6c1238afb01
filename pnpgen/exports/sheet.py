"""`export sheet`: a contact sheet of the first page of every file the game builds:
`OUT/<game>/<game>-contact-sheet.png`."""

from __future__ import annotations

import math
from pathlib import Path

from pnpgen.errors import ContentError, Location, display_path
from pnpgen.exports import (
    _save,
)
from pnpgen.pipeline.staging import Stage

THUMB = 360  # px: the box a page fits in on a contact sheet


def export_sheet(project, game_id: str, check: bool = True) -> Path:
    """Build the game (it must be up to date to be pictured), then one PNG of the first page of every file."""
    from pnpgen import pipeline

    (root,) = project.select([game_id])
    result = pipeline.build_game(project, root, check=check)
    if not result.ok:
        raise ContentError(result.diagnostics)
    assert result.out_dir is not None  # a game that built has its folder
    pdfs = [result.out_dir / f["path"] for f in result.files]
    name = f"{game_id}-contact-sheet.png"
    with Stage(result.out_dir, project.out) as stage:
        where = Location(display_path(result.out_dir / name))
        _save(lambda path: contact_sheet(pdfs, path), stage.dir, name, where)
        stage.commit([name])
    return result.out_dir / name


def contact_sheet(pdfs: list[Path], target: Path) -> None:
    """One PNG with the first page of each PDF, captioned, in a grid."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    from pnpgen.bounds import Refused
    from pnpgen.bounds import pdfs as bounds

    thumbs, scales = [], []
    for path in pdfs:
        try:
            bounds.check_file(path)
        except Refused as exc:
            raise ContentError.at(Location(display_path(path)), f"the PDF {exc.message}") from None
        doc = pdfium.PdfDocument(str(path))
        try:
            page = doc[0]
            w_pt, h_pt = page.get_size()
            try:  # a thumbnail's scale fits the box, but only for a page of a size that is a size
                bounds.check_page(
                    w_pt, h_pt, min(THUMB / w_pt, THUMB / h_pt) if w_pt > 0 and h_pt > 0 else 1.0
                )
            except Refused as exc:
                raise ContentError.at(Location(display_path(path)), f"the PDF {exc.message}") from None
            scale = min(THUMB / w_pt, THUMB / h_pt)  # every page fits the same box, whatever its size
            scales.append(scale)
            img = page.render(scale=scale).to_pil().convert("RGB")
            page.close()
        finally:
            doc.close()
        thumbs.append((path.stem, img))
    cols = min(4, max(1, len(thumbs)))
    cell_w = max(t[1].width for t in thumbs) + 20
    cell_h = max(t[1].height for t in thumbs) + 40
    rows = math.ceil(len(thumbs) / cols)
    sheet = Image.new("RGB", (cols * cell_w, rows * cell_h), "#e8e4dc")
    draw = ImageDraw.Draw(sheet)
    for i, (name, img) in enumerate(thumbs):
        r, c = divmod(i, cols)
        x, y = c * cell_w + 10, r * cell_h + 10
        sheet.paste(img, (x, y))
        draw.text((x, y + img.height + 6), name, fill="#222222")
    dpi = round(72 * min(scales), 2)  # pages differ in scale: the sheet says its coarsest
    sheet.save(target, dpi=(dpi, dpi), compress_level=1)
