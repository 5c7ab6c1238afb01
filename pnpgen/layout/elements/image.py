"""`image`: a PNG, JPEG or SVG from the game's `art/` folder, fitted to its box (contain, cover or stretch).

The file is found through the build's reader (confined to the game folder, recorded with its digest). A bitmap's
size is read from its header alone, so nothing is decoded before it is known to be sane; an SVG is checked and
converted once per process (`pnpgen.svg`) and drawn as vectors, cut to the box like a bitmap."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pnpgen.errors import ContentError
from pnpgen.faces import Image, Vector
from pnpgen.layout.draw import DrawProblem, FaceContext
from pnpgen.layout.kinds import BOX, Area, Choice, ElementType, Text
from pnpgen.names import near_file

MAX_IMAGE_PIXELS = 60_000_000
MAX_IMAGE_BYTES = 60_000_000
MIN_DPI = 300


def draw(p, fc, ops, label, diags) -> None:
    src = p.get("src")
    if src.lower().endswith(".svg"):
        path, digest = find_svg(src, p, fc, label)
        x, y, w, h = p.box()
        dx, dy, dw, dh = fitted(p.get("fit"), (x, y, w, h), fc.image_sizes[(path, digest)])
        ops.append(Vector(str(path), digest, dx, dy, dw, dh, (x, y, w, h)))
        return
    path = find(src, p, fc)
    x, y, w, h = p.box()
    iw, ih = image_size(path, fc, p)
    dx, dy, dw, dh = fitted(p.get("fit"), (x, y, w, h), (iw, ih))
    dpi = min(iw / (dw / 72), ih / (dh / 72)) if dw > 0 and dh > 0 else 0
    if dpi < MIN_DPI:
        fc.note(p.loc("src"), f"image art/{src} prints at {dpi:.0f} dpi, under {MIN_DPI}", label)
    ops.append(Image(str(path), dx, dy, dw, dh, (x, y, w, h)))


def fitted(fit: str, box: tuple, size: tuple) -> tuple:
    """Where art of `size` (any unit) is drawn in `box` (x, y, w, h in points) to `fit` it."""
    (x, y, w, h), (iw, ih) = box, size
    if fit == "stretch":
        dx, dy, dw, dh = x, y, w, h
    else:
        scale = (min if fit == "contain" else max)(w / iw, h / ih)
        dw, dh = iw * scale, ih * scale
        dx, dy = x + (w - dw) / 2, y + (h - dh) / 2
    return dx, dy, dw, dh


def find(src: str, p, fc: FaceContext, limit: int = sys.maxsize) -> Path:
    """The real path of art/<src>, confined to the art folder; its digest is recorded (a missing file too)."""
    reader, loc = fc.art_reader(), p.loc("src")
    try:
        path = reader.inside(fc.art_root, src, loc, "image", "the game's art folder")
        if not os.path.lexists(path):
            reader.probe(path, "image", loc)  # recorded as missing: adding it later counts
            near = near_file(path, src)
            p.fail("src", f"names an image that does not exist: art/{src}" + (f"; {near}" if near else ""))
        return reader.use(path, "image", loc, limit=limit)  # a bitmap is bounded by `image_size`, in MB
    except ContentError as exc:
        raise DrawProblem(loc, exc.diagnostics.items[0].message) from None


def find_svg(src: str, p, fc: FaceContext, label: str) -> tuple[Path, str]:
    """The real path and digest of an SVG in art/, checked and converted (once per process: `pnpgen.svg`); its
    size is noted in `fc.image_sizes` and what it leaves out is one warning."""
    from pnpgen import svg

    reader = fc.art_reader()
    with reader.recording() as seen:
        path = find(src, p, fc, limit=svg.MAX_SVG_BYTES)
    digest = next(iter(seen.values()))  # the one file `find` recorded: this one
    if (path, digest) not in fc.image_sizes:
        try:
            art = svg.load(path, digest)
        except svg.SvgError as exc:
            where = f":{exc.line}" if exc.line else ""
            p.fail("src", f"names an SVG that cannot be drawn: art/{src}{where} {exc.message}")
        with fc.claimed(("image", (path, digest))):  # told once per deck, as the size is kept
            if art.left_out:
                fc.note(p.loc("src"), f"SVG art/{src} is drawn without {'; '.join(art.left_out)}", label)
        fc.image_sizes[(path, digest)] = (art.width, art.height)
    return path, digest


def image_size(path: Path, fc: FaceContext, p) -> tuple[int, int]:
    """Pixel size read from the file's header only: nothing is decoded before the size is known to be sane."""
    if path not in fc.image_sizes:
        from PIL import Image as PILImage

        from pnpgen.artcolour import needs_conversion

        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            p.fail(
                "src", f"names an image of {size / 1e6:.0f} MB; the limit is {MAX_IMAGE_BYTES / 1e6:.0f} MB"
            )
        from pnpgen.bounds import Refused, images

        try:  # the file's own structure first: a JPEG is embedded undecoded, so nothing else would check it
            images.image_size(path.read_bytes(), MAX_IMAGE_PIXELS)
        except Refused as exc:
            p.fail("src", f"names a file that cannot be read as an image: art/{path.name} {exc.message}")
        except OSError as exc:
            p.fail("src", f"names a file that cannot be read: art/{path.name} ({exc.strerror or exc})")
        try:
            with PILImage.open(path) as im:  # reads the header, decodes nothing
                fmt, dims = im.format, im.size
                # a JPEG goes into the PDF as its own bytes, never decoded (unless its profile must be applied)
                passthrough = fmt == "JPEG" and not needs_conversion(im.info, im.mode)
            if fmt == "PNG" and dims[0] * dims[1] <= MAX_IMAGE_PIXELS:
                with PILImage.open(
                    path
                ) as im:  # checks every chunk, so a damaged file fails here, not mid-write
                    im.verify()
        except PILImage.DecompressionBombError:
            p.fail(
                "src",
                f"names an image too large to decode safely (over {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels)",
            )
        except Exception:  # unreadable or not an image
            p.fail(
                "src",
                f"names a file that cannot be read as an image: art/{path.name} is damaged or not a PNG or JPEG",
            )
        if fmt not in ("PNG", "JPEG"):
            p.fail("src", f"must be a PNG or JPEG image (got {fmt})")
        if dims[0] * dims[1] > MAX_IMAGE_PIXELS:
            p.fail(
                "src",
                f"names an image of {dims[0]} x {dims[1]} pixels; the limit is "
                f"{MAX_IMAGE_PIXELS / 1e6:.0f} megapixels",
            )
        if fc.reader is not None:  # every image within its own limit, and all of a build's together
            try:
                fc.reader.charge_pixels(path, dims[0] * dims[1], p.loc("src"), passthrough)
            except ContentError as exc:
                raise DrawProblem(p.loc("src"), exc.diagnostics.items[0].message) from None
        fc.image_sizes[path] = dims
    return fc.image_sizes[path]


TYPE = ElementType(
    "image",
    keys={**BOX, "area": Area(), "src": Text(), "fit": Choice(("contain", "cover", "stretch"), "contain")},
    draw=draw,
    required=("src",),
    area=True,
    example="{type: image, src: split.png, x: 5, y: 5, w: 30, h: 30, fit: cover}",  # for tests/test_elements.py: every type draws its example
    draws=("Image",),
)
