"""Colour management, measured from the written PDFs: raster art carrying its own RGB profile is drawn in sRGB
(every writer draws through the same image code), and a printer's CMYK profile given to `export shop` separates
colours and art through it under the ink limit, and is embedded in the output intent."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pikepdf
import pytest
from conftest import holders, run_cli
from PIL import Image, ImageCms

ICC = Path("/usr/share/color/icc/ghostscript")
ADOBE_RGB = ICC / "a98.icc"  # ghostscript's Adobe RGB (1998)
PRINTER = ICC / "default_cmyk.icc"  # ghostscript's SWOP CMYK profile
needs_profiles = pytest.mark.skipif(
    not (ADOBE_RGB.exists() and PRINTER.exists()), reason="ghostscript's ICC profiles are not installed"
)
ART = (60, 140, 90)  # inside sRGB's gamut when read as Adobe RGB, so the conversion shows


def with_art(root: Path, art: Image.Image, **save) -> None:
    """The sample deck's front gains a 20 x 20 mm picture of `art` and a dark red square."""
    art.save(root / "content" / "sample" / "art" / "swatch.png", **save)
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: swatch.png\n    x: 10\n    y: 40\n    w: 20\n    h: 20\n"
        + '  - type: rect\n    x: 35\n    y: 40\n    w: 10\n    h: 10\n    fill: "#800000"\n'
    )


def images(path: Path) -> list:
    """Every image XObject of the PDF at `path`, as Pillow images, in pages' and forms' order."""
    found, seen = [], set()
    with pikepdf.open(path) as pdf:
        for obj in holders(pdf):
            for _, x in obj.get("/Resources", {}).get("/XObject", {}).items():
                if x.get("/Subtype") == "/Image" and x.objgen not in seen:
                    seen.add(x.objgen)
                    found.append(pikepdf.PdfImage(x).as_pil_image())
    return found


def solid(found: list, size: int = 8) -> list:
    """The one-colour images among `found` (the swatch), by their first pixel."""
    return [im.getpixel((0, 0)) for im in found if im.size == (size, size)]


def _adobe_in_srgb(rgb: tuple) -> tuple:
    """An Adobe RGB colour as an image editor converts it to sRGB (relative colorimetric, black point kept)."""
    return ImageCms.profileToProfile(
        Image.new("RGB", (1, 1), rgb),
        ImageCms.ImageCmsProfile(str(ADOBE_RGB)),
        ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")),
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    ).getpixel((0, 0))


@needs_profiles
def test_art_with_its_own_rgb_profile_is_drawn_in_srgb(project):
    root = project("basic")
    with_art(root, Image.new("RGB", (8, 8), ART), icc_profile=ADOBE_RGB.read_bytes())
    result = run_cli("build", "sample", "--out", "out", "--no-print-all", cwd=root)
    assert result.exit_code == 0, result.output
    expected = _adobe_in_srgb(ART)
    assert expected != ART  # the profile changes the numbers: the test can tell
    drawn = solid(images(root / "out" / "sample" / "heroes.pdf"))
    assert drawn == [expected], drawn


def test_art_without_a_profile_keeps_its_values(project):
    root = project("basic")
    with_art(root, Image.new("RGB", (8, 8), ART))
    assert run_cli("build", "sample", "--out", "out", "--no-print-all", cwd=root).exit_code == 0
    assert solid(images(root / "out" / "sample" / "heroes.pdf")) == [ART]


def _printer_cmyk(rgb: tuple) -> tuple:
    transform = ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")),
        ImageCms.ImageCmsProfile(str(PRINTER)),
        "RGB",
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    return ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform).getpixel((0, 0))


def _fills(path: Path) -> set:
    """Every `c m y k k` fill of the PDF's pages and forms, rounded to 3 places."""
    with pikepdf.open(path) as pdf:
        return {
            tuple(round(float(v), 3) for v in operands)
            for obj in holders(pdf)
            for operands, op in pikepdf.parse_content_stream(obj)
            if str(op) == "k"
        }


@needs_profiles
def test_a_printers_cmyk_profile_separates_colours_and_art_through_it(project):
    root = project("basic")
    with_art(root, Image.new("RGB", (8, 8), ART))
    args = ["export", "shop", "dtc", "sample", "heroes", "--out", "out"]
    result = run_cli(*args, "--cmyk-profile", PRINTER, cwd=root)
    assert result.exit_code == 0, result.output
    fronts = root / "out" / "sample" / "shop" / "dtc" / "heroes-fronts.pdf"
    with pikepdf.open(fronts) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert intent.DestOutputProfile.read_bytes() == PRINTER.read_bytes()
        assert int(intent.DestOutputProfile.N) == 4
        assert "Artifex CMYK SWOP" in str(intent.Info)
    # the art: through the profile, then under DriveThruCards' 240 %
    c, m, y, k = _printer_cmyk(ART)
    scale = min(1.0, max(240 * 255 / 100 - k, 0) / (c + m + y))
    want = tuple(round(v * scale) for v in (c, m, y)) + (k,)
    (art,) = solid(images(fronts))
    assert all(abs(a - b) <= 1 for a, b in zip(art, want)), (art, want)
    assert sum(art) <= 2.4 * 255 + 2
    # a chromatic fill through the profile; black text stays black alone
    c, m, y, k = _printer_cmyk((0x80, 0, 0))
    total = c + m + y
    scale = min(1.0, max(2.4 * 255 - k, 0) / total)
    red = tuple(round(v, 3) for v in (c * scale / 255, m * scale / 255, y * scale / 255, k / 255))
    fills = _fills(fronts)
    assert any(all(abs(a - b) <= 0.005 for a, b in zip(f, red)) for f in fills), (red, sorted(fills))
    assert (0.0, 0.0, 0.0, 1.0) in fills
    # without the profile, the formula: a different separation of the same red
    plain = run_cli(*args, cwd=root)
    assert plain.exit_code == 0, plain.output
    assert (0.0, 0.951, 0.951, 0.498) in _fills(fronts)  # 0 100 100 50, scaled under 240 %


@needs_profiles
@pytest.mark.parametrize(
    "given, words, code",
    [
        (ADOBE_RGB, "an ICC profile for RGB colours", 1),
        (Path("content/sample/game.yaml"), "not a readable ICC colour profile", 1),
        (Path("no-such.icc"), "does not exist", 2),  # odd paths are usage errors (cli/paths.py)
        (Path("/dev/zero"), "is not a regular file", 2),
    ],
)
def test_a_wrong_cmyk_profile_is_refused_and_nothing_is_written(project, given, words, code):
    root = project("basic")
    result = run_cli("export", "shop", "pdfx", "sample", "--out", "out", "--cmyk-profile", given, cwd=root)
    assert result.exit_code == code, result.output
    assert words in result.output and "--cmyk-profile" in result.output
    assert str(given.name) in result.output and "Traceback" not in result.output
    assert not (root / "out" / "sample" / "shop").exists()


def test_preflight_names_art_whose_profile_cannot_be_read_and_cmyk_art(project):
    root = project("basic")
    broken = io.BytesIO()
    Image.new("RGB", (8, 8), ART).save(broken, "PNG", icc_profile=b"not a profile at all" * 8)
    with_art(root, Image.open(broken), icc_profile=b"not a profile at all" * 8)
    result = run_cli("preflight", "sample", "--target", "pdfx", cwd=root)
    assert re.search(
        r"hero\.yaml:\d+:\d+: warning: .*swatch\.png carries an unreadable colour profile", result.output
    )
    Image.new("CMYK", (8, 8), (0, 50, 100, 0)).save(root / "content" / "sample" / "art" / "swatch.jpg")
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text().replace("swatch.png", "swatch.jpg"))
    result = run_cli("preflight", "sample", "--target", "pdfx", cwd=root)
    assert "swatch.jpg is CMYK: its inks go to the printer as they are" in result.output, result.output


SEE_THROUGH = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<rect x="0" y="0" width="100" height="100" fill="#2e7d32"/>
<circle cx="50" cy="50" r="30" fill="#ffffff" fill-opacity="0.5"/></svg>
"""


def test_svg_art_that_would_be_refused_is_a_preflight_error_at_its_element(project):
    """SVG art is drawn alone and separated as the export would: its transparency is found before export."""
    root = project("basic")
    (root / "content" / "sample" / "art" / "glass.svg").write_text(SEE_THROUGH)
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: glass.svg\n    x: 10\n    y: 40\n    w: 20\n    h: 20\n"
    )
    line = len(layout.read_text().splitlines()) - 5  # the element's first line
    result = run_cli("preflight", "sample", "--target", "pdfx", cwd=root)
    assert result.exit_code == 1, result.output
    assert re.search(
        rf"hero\.yaml:{line}:\d+: error: \[pdfx\] art .*glass\.svg: transparency", result.output
    ), result.output
    assert run_cli("preflight", "sample", "--target", "tgc", cwd=root).exit_code == 0  # RGB PNGs take it
    result = run_cli("export", "shop", "pdfx", "sample", "--out", "out", cwd=root)
    assert result.exit_code == 1 and not (root / "out" / "sample" / "shop").exists()


def test_boards_are_preflighted_for_the_pdf_x_targets(project):
    root = project("pieces")
    layout = root / "content" / "pieces" / "layouts" / "board-side.yaml"
    layout.write_text(
        layout.read_text()
        + '  - type: rect\n    x: 50\n    y: 50\n    w: 20\n    h: 20\n    fill: "cmyk(100, 100, 100, 90)"\n'
    )
    fill_line = len(layout.read_text().splitlines())
    result = run_cli("preflight", "pieces", "board", "--target", "pdfx", cwd=root)
    assert result.exit_code == 1, result.output
    assert re.search(
        rf"board-side\.yaml:{fill_line}:\d+: error: \[pdfx\] cmyk\(100,100,100,90\) is 390 % ink, over the 300 %.*"
        r"on side '(front|back)' of board 'board'",
        result.output,
    ), result.output


def _with_jpeg(root: Path, profile: bytes | None) -> bytes:
    """The sample deck's front gains a 20 x 20 mm JPEG of the art colour (with `profile`, if any); its bytes."""
    art = root / "content" / "sample" / "art" / "swatch.jpg"
    extra = {"icc_profile": profile} if profile else {}
    Image.new("RGB", (8, 8), ART).save(art, quality=100, **extra)
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text()
        + "  - type: image\n    src: swatch.jpg\n    x: 10\n    y: 40\n    w: 20\n    h: 20\n"
    )
    return art.read_bytes()


def _near(a: tuple, b: tuple) -> bool:
    return all(abs(x - y) <= 3 for x, y in zip(a, b))  # a JPEG of one colour decodes within a step or two


def test_a_jpeg_without_a_profile_goes_in_as_its_own_bytes(project):
    """Its bytes are the image's stream (DCT, never decoded), read without Pillow (`jpeg_without_profile`)."""
    root = project("basic")
    data = _with_jpeg(root, None)
    assert run_cli("build", "sample", "--out", "out", "--no-print-all", cwd=root).exit_code == 0
    with pikepdf.open(root / "out" / "sample" / "heroes.pdf") as pdf:
        streams = [
            x.read_raw_bytes()
            for obj in holders(pdf)
            for _, x in obj.get("/Resources", {}).get("/XObject", {}).items()
            if x.get("/Subtype") == "/Image" and "DCTDecode" in str(x.get("/Filter"))
        ]
    assert data in streams


@needs_profiles
def test_a_jpeg_with_its_own_rgb_profile_is_drawn_in_srgb(project):
    """A profile found in the JPEG's headers sends it through Pillow's conversion, as PNG art is."""
    root = project("basic")
    _with_jpeg(root, ADOBE_RGB.read_bytes())
    assert run_cli("build", "sample", "--out", "out", "--no-print-all", cwd=root).exit_code == 0
    expected = _adobe_in_srgb(ART)
    assert not _near(expected, ART)  # the profile moves the colour further than JPEG's rounding
    drawn = solid(images(root / "out" / "sample" / "heroes.pdf"))
    assert len(drawn) == 1 and _near(drawn[0], expected), (drawn, expected)
