"""The rulebook's print version: saddle-stitch imposition of the built rulebook (pikepdf, no redrawing).

The page count is padded with blank pages to a multiple of 4; each sheet carries four pages, two a side, in
the order a stack of folded sheets stapled on the fold reads (for N pages, the first sheet's front holds N and
1, its back 2 and N-1, and so on). Link annotations, outlines and named destinations are dropped: nothing in
print can be clicked. The booklet then goes through the PDF/X-1a making and check like every shop file.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf


def order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page numbers (1-based; None: a blank) for each side of each sheet, front then back."""
    n = -(-pages // 4) * 4

    def real(p: int) -> int | None:
        return p if p <= pages else None

    sides = []
    for i in range(n // 4):
        sides.append((real(n - 2 * i), real(2 * i + 1)))
        sides.append((real(2 * i + 2), real(n - 2 * i - 1)))
    return sides


def impose(source: Path, target: Path) -> int:
    """Write `source` (single pages) as a saddle-stitched booklet to `target`; returns the padded page count."""
    with pikepdf.open(source) as src, pikepdf.new() as out:
        pages = len(src.pages)
        w, h = (float(v) for v in src.pages[0].MediaBox[2:])
        for page in src.pages:
            if "/Annots" in page.obj:
                del page.obj["/Annots"]
        forms = [out.copy_foreign(page.as_form_xobject()) for page in src.pages]
        for left, right in order(pages):
            sheet = out.add_blank_page(page_size=(2 * w, h))
            for number, x in ((left, 0.0), (right, w)):
                if number is None:
                    continue
                name = sheet.add_resource(forms[number - 1], pikepdf.Name.XObject, prefix="P")
                sheet.contents_add(f"q 1 0 0 1 {x:g} 0 cm {name} Do Q".encode(), prepend=False)
        out.docinfo.Title = src.docinfo.get("/Title", "Rules")
        out.save(target, deterministic_id=True)
        return -(-pages // 4) * 4
