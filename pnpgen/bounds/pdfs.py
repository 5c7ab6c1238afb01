"""A PDF read back (by `changes`, `serve`'s previews, the PNG and sheet exports) bounded before pdfium renders it.

pdfium allocates a page's whole bitmap at the scale it is asked for: a page of 5 m x 5 m at a proof's 100 dpi is
about 1.5 gigabytes. The file's size is checked before it is opened, its page count once it is, and each page's
size (which pdfium reads from the page's boxes without drawing it) before the page is rendered.
"""

from __future__ import annotations

import math
from pathlib import Path

from pnpgen.bounds import Refused

MAX_PDF_BYTES = 1_000_000_000  # pnpgen's largest output, a whole game's print-all file, is far smaller
MAX_PAGES = 20_000
MAX_PAGE_PIXELS = 60_000_000  # one rendered page, as a bitmap a game draws (a 60 cm board at 300 dpi: 50)
MAX_PAGE_PT = 14_400.0  # the largest page a PDF viewer opens: 200 inches (PDF 1.7's user-space limit)


def check_file(path: Path) -> None:
    """Refuse a file too large to be a PDF pnpgen wrote."""
    size = path.stat().st_size
    if size > MAX_PDF_BYTES:
        raise Refused(f"is {size / 1e6:,.0f} MB; a PDF read back may be {MAX_PDF_BYTES / 1e6:,.0f} MB")


def check_pages(count: int) -> None:
    if count > MAX_PAGES:
        raise Refused(f"has {count:,} pages; a PDF read back may have {MAX_PAGES:,}")


def check_page(width_pt: float, height_pt: float, scale: float, page_no: int = 0) -> None:
    """Refuse a page whose size is not finite, not positive, beyond what PDF allows, or that would render to
    more than MAX_PAGE_PIXELS at `scale` (pixels per point)."""
    which = f"page {page_no + 1}"
    if not (math.isfinite(width_pt) and math.isfinite(height_pt)) or width_pt <= 0 or height_pt <= 0:
        raise Refused(f"has a {which} of no usable size ({width_pt!r} x {height_pt!r} pt)")
    if max(width_pt, height_pt) > MAX_PAGE_PT:
        raise Refused(
            f"has a {which} of {width_pt / 72 * 25.4:,.0f} x {height_pt / 72 * 25.4:,.0f} mm; a page may be "
            f"{MAX_PAGE_PT / 72 * 25.4:,.0f} mm on a side"
        )
    pixels = width_pt * scale * height_pt * scale
    if pixels > MAX_PAGE_PIXELS:
        raise Refused(
            f"has a {which} of {width_pt / 72 * 25.4:,.0f} x {height_pt / 72 * 25.4:,.0f} mm, which would render "
            f"to {pixels / 1e6:,.0f} megapixels; the limit is {MAX_PAGE_PIXELS / 1e6:,.0f}"
        )


def check_render(page, scale: float, page_no: int = 0, pages: int = 1) -> None:
    """`check_pages` and `check_page` for a pdfium page about to be rendered at `scale` (its size is read from
    its boxes: nothing is drawn)."""
    check_pages(pages)
    width, height = page.get_size()
    check_page(float(width), float(height), scale, page_no)


def renderable(page, scale: float, page_no: int = 0, pages: int = 1) -> bool:
    """Whether `check_render` lets the page be rendered (a preview that would not is not shown)."""
    try:
        check_render(page, scale, page_no, pages)
    except Refused:
        return False
    return True
