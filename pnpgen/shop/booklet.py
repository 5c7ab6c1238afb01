"""The rulebook's print version: saddle-stitch imposition of the built rulebook (pikepdf, no redrawing).

The booklet's pages are the rulebook's, then blank pages to make the count a multiple of 4, then a back cover
(`render.cover.draw_back_cover`), so the blanks fall inside the book and its outside is the cover spread. Each
sheet carries four pages, two a side, in the order a stack of folded sheets stapled on the fold reads (for N
pages, the first sheet's front holds N and 1, its back 2 and N-1, and so on).

Every sheet has `bleed` all round its outer edges (MediaBox = BleedBox, TrimBox inset by it; the fold has
none, the two pages meet there). The front and back covers' ground is painted over their bleed, so the cover
spread is printed to the edge and trimmed like a shop's cover; inside pages are white to their edges.
Link annotations, outlines and named destinations are dropped: nothing in print can be clicked. The booklet
then goes through the PDF/X-1a making and check like every shop file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf

from pnpgen.colours import cmyk_of, is_cmyk, rgb_of

BACK = -1  # the back cover's place in a sequence


def sequence(pages: int, back: bool = False) -> list[int | None]:
    """The booklet's pages in reading order (1-based; None: a blank; BACK: the back cover), padded to a
    multiple of 4 with blanks before the back cover."""
    total = pages + (1 if back else 0)
    n = -(-total // 4) * 4
    return [*range(1, pages + 1), *[None] * (n - total), *([BACK] if back else [])]


def order(pages: int, back: bool = False) -> list[tuple[int | None, int | None]]:
    """(left, right) pages (as `sequence` names them) for each side of each sheet, front then back."""
    seq = sequence(pages, back)
    n = len(seq)
    sides = []
    for i in range(n // 4):
        sides.append((seq[n - 2 * i - 1], seq[2 * i]))
        sides.append((seq[2 * i + 1], seq[n - 2 * i - 2]))
    return sides


def impose(
    source: Path, target: Path, bleed: float = 0.0, ground: str | None = None, back: Path | None = None
):
    """Write `source` (single pages) as a saddle-stitched booklet to `target`, `bleed` points round each sheet;
    `ground` (a colour) fills the covers' bleed; `back` is a one-page PDF of the back cover, put last.
    Returns the padded page count."""
    with pikepdf.open(source) as src, pikepdf.new() as out:
        pages = len(src.pages)
        w, h = (float(v) for v in src.pages[0].MediaBox[2:])
        for page in src.pages:
            if "/Annots" in page.obj:
                del page.obj["/Annots"]
        forms = {n: out.copy_foreign(page.as_form_xobject()) for n, page in enumerate(src.pages, 1)}
        if back is not None:
            with pikepdf.open(back) as b:
                forms[BACK] = out.copy_foreign(b.pages[0].as_form_xobject())
        covers = {1, BACK}
        fill = ""
        if ground:
            cmyk = is_cmyk(ground)
            values = cmyk_of(ground) if cmyk else rgb_of(ground)
            fill = " ".join(f"{v:.4f}" for v in values) + (" k" if cmyk else " rg")
        sides = order(pages, back is not None)
        for left, right in sides:
            sheet = out.add_blank_page(page_size=(2 * w + 2 * bleed, h + 2 * bleed))
            ops = []
            for number, x, strip in (
                (left, bleed, (0, 0, w + bleed, h + 2 * bleed)),
                (right, w + bleed, (w + bleed, 0, w + bleed, h + 2 * bleed)),
            ):
                if number is None:
                    continue
                if number in covers and fill and bleed:
                    ops.append(f"q {fill} {' '.join(f'{v:g}' for v in strip)} re f Q")
                # named by page, not at random (pikepdf's prefix): same content, same bytes
                name = sheet.add_resource(forms[number], pikepdf.Name.XObject, pikepdf.Name(f"/P{number}"))
                ops.append(f"q 1 0 0 1 {x:g} {bleed:g} cm {name} Do Q")
            sheet.contents_add(" ".join(ops).encode(), prepend=False)
        out.docinfo.Title = src.docinfo.get("/Title", "Rules")
        out.save(target, deterministic_id=True)
        return len(sides) * 2


def _times(m: tuple, n: tuple) -> tuple:
    """The transformation `m` then `n` (PDF's row-vector matrices, as `cm` concatenates them)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def image_resolutions(path: Path) -> list[tuple[int, float, tuple[int, int], tuple[int, int]]]:
    """Every image drawn in the PDF at `path`, as (page, effective dpi, pixels, the image's object id): its pixels
    over the inches the page's transformation prints them at, the lower of its two directions."""
    found: list[tuple[int, float, tuple[int, int], tuple[int, int]]] = []
    with pikepdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            todo: list[tuple[Any, tuple, int]] = [(page.obj, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), 0)]
            while todo:
                holder, start, depth = todo.pop()
                resources = holder.get("/Resources")
                xobjects: Any = resources.get("/XObject", {}) if resources is not None else {}
                ctm, stack = start, []
                for ins in pikepdf.parse_content_stream(holder, "q Q cm Do"):
                    operands, name = ins.operands, str(ins.operator)
                    if name == "q":
                        stack.append(ctm)
                    elif name == "Q":
                        ctm = stack.pop() if stack else start
                    elif name == "cm":
                        ctm = _times(tuple(float(v) for v in operands), ctm)
                    elif str(operands[0]) in xobjects:
                        x = xobjects[str(operands[0])]
                        if x.get("/Subtype") == "/Form" and depth < 20:
                            matrix = tuple(float(v) for v in x.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                            todo.append((x, _times(matrix, ctm), depth + 1))
                        elif x.get("/Subtype") == "/Image":
                            a, b, c, d = ctm[:4]
                            px = (int(x.Width), int(x.Height))
                            wide, high = (a * a + b * b) ** 0.5 / 72, (c * c + d * d) ** 0.5 / 72
                            dpi = min(px[0] / wide if wide else 1e9, px[1] / high if high else 1e9)
                            found.append((number, dpi, px, x.objgen))
    return found
