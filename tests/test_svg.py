"""SVG art and SVG icons, through the CLI on a copy of the basic fixture: drawn as vectors (no bitmap in the PDF),
fitted and cut like bitmaps, tinted (white kept when several colours); bad files are located errors, what svglib cannot draw one
warning, references outside the file never read, and an edit rebuilds exactly what draws the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, MM, ROOT, run_cli

SVG = FIXTURES / "svg"
SCALE = 4  # pixels per point when a page is rasterised
BLEED = 3  # mm, the board's

PLATE = """\
elements:
  - {type: rect, area: bleed, fill: white}
  - {type: image, src: bands.svg, x: 5, y: 5, w: 20, h: 20, fit: contain}
  - {type: image, src: bands.svg, x: 30, y: 5, w: 20, h: 20, fit: cover}
  - {type: image, src: bands.svg, x: 55, y: 5, w: 20, h: 20, fit: stretch}
  - {type: icon, name: crossed-swords, x: 5, y: 28, size: 15, color: "#ff0000"}
  - {type: icon, name: two-tone, x: 25, y: 28, size: 15, color: "#00ff00"}
  - {type: text, x: 45, y: 30, w: 50, h: 10, text: "Fight :crossed-swords: now", size: 12}
"""


def game(root: Path) -> Path:
    return root / "content" / "sample"


@pytest.fixture
def svg_game(project):
    """The basic game with SVG art in art/, SVG icons in icons/ and a board (`plate`) that draws them."""
    root = project("basic")
    g = game(root)
    (g / "art" / "bands.svg").write_bytes((SVG / "bands.svg").read_bytes())
    (g / "icons").mkdir()
    for name in ("crossed-swords", "two-tone"):
        (g / "icons" / f"{name}.svg").write_bytes((SVG / f"{name}.svg").read_bytes())
    text = (
        (g / "game.yaml").read_text().replace("icons: icons.yaml", "icons: {file: icons.yaml, svg: icons/}")
    )
    (g / "game.yaml").write_text(text + "  - decks/plate.yaml\n")
    (g / "decks" / "plate.yaml").write_text(
        f"id: plate\nkind: board\nsize: 100mm x 50mm\nbleed: {BLEED}mm\nsides:\n  - {{id: a, layout: plate}}\n"
    )
    (g / "layouts" / "plate.yaml").write_text(PLATE)
    return root


def build(root: Path, *extra):
    return run_cli("build", "--out", "out", *extra, cwd=root)


def built(root: Path, *extra) -> str:
    result = build(root, *extra)
    assert result.exit_code == 0, result.output
    return result.output


def failed(root: Path) -> str:
    result = build(root)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    return result.output


def pixels(pdf: Path):
    """The first page, rasterised; `at(x_mm, y_mm)` reads the colour at a point of the board (trim, y down)."""
    image = pdfium.PdfDocument(str(pdf))[0].render(scale=SCALE).to_pil().convert("RGB")

    def at(x_mm: float, y_mm: float) -> tuple:
        return image.getpixel((round((x_mm + BLEED) * MM * SCALE), round((y_mm + BLEED) * MM * SCALE)))

    return at


def near(got: tuple, want: str) -> bool:
    rgb = tuple(int(want[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= 40 for a, b in zip(got, rgb))


def xobjects(pdf: pikepdf.Pdf) -> list:
    """Every XObject the pages use, forms inside forms included."""
    found, seen = [], set()
    stack = [page.obj.get("/Resources") for page in pdf.pages]
    while stack:
        resources = stack.pop()
        for obj in (resources or {}).get("/XObject", {}).values():
            if obj.objgen not in seen:
                seen.add(obj.objgen)
                found.append(obj)
                stack.append(obj.get("/Resources"))
    return found


# -- drawn as vectors, where they belong -----------------------------------------------------------------------


def test_svg_art_is_fitted_in_each_mode_and_cut_to_its_box(svg_game):
    built(svg_game)
    at = pixels(svg_game / "out" / "sample" / "plate-full.pdf")
    # contain: the whole 2:1 art, centred, white above and below
    assert near(at(15, 6), "#ffffff") and near(at(15, 24), "#ffffff")
    assert near(at(7, 15), "#ff0000") and near(at(15, 15), "#00ff00") and near(at(23, 15), "#0000ff")
    # cover: the box filled with the art's middle half, which is the green band
    for x, y in ((31, 6), (40, 15), (49, 24)):
        assert near(at(x, y), "#00ff00"), (x, y, at(x, y))
    # stretch: every band, squeezed into the box, top to bottom
    assert near(at(57, 6), "#ff0000") and near(at(65, 24), "#00ff00") and near(at(73, 15), "#0000ff")
    # nothing outside the boxes: the art that cover spreads wider is cut
    assert near(at(27.5, 15), "#ffffff") and near(at(52.5, 15), "#ffffff")


def test_svg_art_and_icons_put_no_bitmap_in_the_pdf(svg_game):
    built(svg_game)
    for name in ("plate-full.pdf", "plate.pdf"):
        with pikepdf.open(svg_game / "out" / "sample" / name) as pdf:
            kinds = [str(x.get("/Subtype")) for x in xobjects(pdf)]
            assert "/Form" in kinds and "/Image" not in kinds, (name, kinds)
            assert not any("Helvetica" in str(f.get("/BaseFont")) for f in _fonts(pdf))  # no unembedded font


def _fonts(pdf):
    return [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"]


def test_the_same_svg_input_gives_the_same_pdf_bytes(svg_game):
    built(svg_game)
    first = (svg_game / "out" / "sample" / "plate-full.pdf").read_bytes()
    assert run_cli("build", "--out", "again", cwd=svg_game).exit_code == 0
    assert (svg_game / "again" / "sample" / "plate-full.pdf").read_bytes() == first


# -- icons from SVG files --------------------------------------------------------------------------------------


def test_svg_icons_draw_as_elements_tinted_when_one_colour(svg_game):
    built(svg_game)
    at = pixels(svg_game / "out" / "sample" / "plate-full.pdf")
    assert near(at(12.5, 35.5), "#ff0000")  # crossed swords, tinted red where the blades cross
    assert near(at(32.5, 35.5), "#00ff00")  # two colours, neither white: both take its `color`
    assert near(at(32.5, 30.5), "#00ff00")


RINGED = (  # a blue disc with a white dot: the dot stays white under a `color`
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="45" '
    'fill="#336699"/><circle cx="50" cy="50" r="20" fill="#ffffff"/></svg>'
)
WHITE_ON_BLACK = (  # as game-icons.net delivers its white-on-black downloads: a black square, a white icon
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><path d="M0 0h512v512H0z"/>'
    '<path fill="#fff" d="M128 128h256v256H128z"/></svg>'
)
NESTED = (  # the same, the square and the icon in transformed groups (and an inner viewBox-less size)
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><g transform="scale(2)">'
    '<rect width="256" height="256" fill="#000"/></g><g transform="translate(128 128)">'
    '<rect width="256" height="256" style="fill: #ffffff"/></g></svg>'
)


@pytest.mark.parametrize("backdrop", [WHITE_ON_BLACK, NESTED], ids=["path", "groups"])
def test_colour_rule_and_white_on_black_icons(svg_game, backdrop):
    g = game(svg_game)
    (g / "icons" / "ringed.svg").write_text(RINGED)
    (g / "icons" / "badge.svg").write_text(backdrop)
    with (g / "layouts" / "plate.yaml").open("a") as fh:
        fh.write("  - {type: icon, name: ringed, x: 80, y: 5, size: 15, color: '#ff0000'}\n")
        fh.write("  - {type: icon, name: badge, x: 80, y: 28, size: 15}\n")
        fh.write("  - {type: icon, name: badge, x: 5, y: 5, size: 15, color: '#0000ff'}\n")
    assert "badge" not in built(svg_game) and "ringed" not in built(svg_game)  # no warning names them
    at = pixels(svg_game / "out" / "sample" / "plate-full.pdf")
    assert near(at(87.5, 12.5), "#ffffff") and near(at(87.5, 7.0), "#ff0000")  # white kept, blue recoloured
    assert near(at(87.5, 35.5), "#000000")  # the icon, in the square's black
    for x, y in ((81, 29), (94, 29), (81, 42), (94, 42), (84.5, 31.5)):  # where the square was: paper
        assert near(at(x, y), "#ffffff"), (x, y)
    assert near(at(12.5, 12.5), "#0000ff")  # and tinted like a one-colour icon
    image = pdfium.PdfDocument(str(svg_game / "out" / "sample" / "plate-full.pdf"))[0].render(scale=SCALE)
    box = [round((v + BLEED) * MM * SCALE) for v in (80, 28, 95, 43)]
    dark = sum(image.to_pil().convert("L").crop(box).histogram()[:128])
    assert 0.2 < dark / ((box[2] - box[0]) * (box[3] - box[1])) < 0.3  # a quarter of the box: the icon


def test_svg_icons_draw_inline_in_text_and_once_per_tint(svg_game):
    built(svg_game)
    with pikepdf.open(svg_game / "out" / "sample" / "plate-full.pdf") as pdf:
        (face,) = [x for x in xobjects(pdf) if b" Do" in x.read_bytes() and b"Tf" in x.read_bytes()]
        icons = {name: form for name, form in face.Resources.XObject.items() if ".I" in name}
        streams = [form.read_bytes() for form in icons.values()]
        used = face.read_bytes()
    # swords in red (the element), swords in their own black (inline), two-tone once: three forms
    assert len(icons) == 3 and len(set(streams)) == 3
    assert sum(b"1 0 0 rg" in s for s in streams) == 1
    assert all(f"{name[1:]} Do".encode() in used for name in icons)


def test_svg_icons_are_listed_with_the_others(svg_game):
    result = run_cli("icons", "sample", cwd=svg_game)
    assert result.exit_code == 0 and "crossed-swords" in result.output and "two-tone" in result.output


def test_a_badly_named_svg_icon_file_is_a_warning_naming_it(svg_game):
    folder = game(svg_game) / "icons"
    (folder / "Crossed Swords.svg").write_bytes((SVG / "crossed-swords.svg").read_bytes())
    result = run_cli("icons", "sample", cwd=svg_game)
    assert result.exit_code == 0, result.output
    assert "icons/Crossed Swords.svg: warning: 'Crossed Swords.svg' is not an icon" in result.output
    assert "rename it (as 'crossed-swords-icon.svg')" in result.output  # crossed-swords.svg is there already
    listed = [line.strip() for line in result.output.splitlines() if "warning" not in line]
    assert "crossed-swords" in listed and "Crossed Swords" not in listed  # not an icon
    result = run_cli("build", "--out", "out", cwd=svg_game)  # the game builds without it, and says why
    assert result.exit_code == 0, result.output
    assert "icons/Crossed Swords.svg: warning: 'Crossed Swords.svg' is not an icon" in result.output
    assert run_cli("build", "--out", "out", "--strict", cwd=svg_game).exit_code == 1
    (folder / "Crossed Swords.svg").rename(
        folder / "Épée Longue.svg"
    )  # a French name: its letters, unaccented
    result = run_cli("icons", "sample", cwd=svg_game)
    assert "rename it (as 'epee-longue.svg')" in result.output, result.output


def test_the_icons_key_takes_a_file_or_a_file_and_a_folder(svg_game):
    g = game(svg_game)
    text = (g / "game.yaml").read_text()
    (g / "game.yaml").write_text(
        text.replace("{file: icons.yaml, svg: icons/}", "{file: icons.yaml, svgs: x}")
    )
    output = failed(svg_game)
    assert "game.yaml:7:" in output and "takes 'file' (an icons file) and 'svg'" in output
    (g / "game.yaml").write_text(text.replace("svg: icons/", "svg: nowhere/"))
    assert "icons folder 'nowhere/' not found" in failed(svg_game)


# -- what a rebuild redraws ------------------------------------------------------------------------------------


def stamps(folder: Path) -> dict:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(folder.glob("*.pdf"))}


def test_editing_svg_art_rebuilds_exactly_what_draws_it(svg_game):
    out = svg_game / "out" / "sample"
    built(svg_game)
    before = stamps(out)
    art = game(svg_game) / "art" / "bands.svg"
    art.write_text(art.read_text().replace("#0000ff", "#000080"))
    assert "5 files (3 rendered, 2 up to date)" in built(
        svg_game
    )  # the board's two and print-all, not the decks
    after = stamps(out)
    assert {n for n in after if after[n] != before[n]} == {"plate.pdf", "plate-full.pdf", "print-all.pdf"}
    assert near(pixels(out / "plate-full.pdf")(73, 15), "#000080")


def test_adding_or_editing_an_svg_icon_is_noticed(svg_game):
    built(svg_game)
    icons = game(svg_game) / "icons"
    (icons / "shield.svg").write_bytes((SVG / "two-tone.svg").read_bytes())
    assert "up to date sample" not in built(svg_game)
    assert "up to date sample" in built(svg_game)
    swords = icons / "crossed-swords.svg"
    swords.write_text(swords.read_text().replace("<path", '<path fill="#ffffff"', 1))
    assert "up to date sample" not in built(svg_game)


# -- bad files -------------------------------------------------------------------------------------------------


def use_art(root: Path, name: str, data: bytes | str) -> None:
    path = game(root) / "art" / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    layout = game(root) / "layouts" / "plate.yaml"
    layout.write_text(layout.read_text().replace("src: bands.svg, x: 5", f"src: {name}, x: 5"))


def test_malformed_svg_art_is_an_error_at_its_element_and_line(svg_game):
    use_art(svg_game, "broken.svg", '<svg xmlns="http://www.w3.org/2000/svg">\n  <rect>\n</svg>\n')
    output = failed(svg_game)
    assert "plate.yaml:3:" in output  # the element's src
    assert "names an SVG that cannot be drawn: art/broken.svg:3 is not SVG: not well-formed XML" in output


def test_a_file_that_is_not_svg_is_an_error(svg_game):
    use_art(svg_game, "photo.svg", (game(svg_game) / "art" / "split.png").read_bytes())
    assert "art/photo.svg:1 is not SVG: not well-formed XML" in failed(svg_game)
    use_art(svg_game, "photo.svg", "<html><body/></html>")
    assert "art/photo.svg:1 is not SVG: its root element is <html>, not <svg>" in failed(svg_game)


def test_malformed_svg_icon_is_an_error_at_its_file_and_line(svg_game):
    (game(svg_game) / "icons" / "crossed-swords.svg").write_text("<svg>\n<path d='M0 0'>\n</svg>")
    assert "icons/crossed-swords.svg:3:" in failed(svg_game)


def test_oversized_svg_is_an_error(svg_game):
    padding = "<!-- " + "x" * 5_000_000 + " -->"
    use_art(svg_game, "huge.svg", (SVG / "bands.svg").read_text().replace("<svg", padding + "<svg"))
    assert "bytes; the limit is 5,000,000" in failed(svg_game)


def test_svg_with_too_many_shapes_is_an_error_even_through_use(svg_game):
    many = "<rect width='1' height='1'/>" * 20_001
    use_art(svg_game, "many.svg", f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'>{many}</svg>")
    assert "art/many.svg:1 draws more than 20,000 shapes" in failed(svg_game)
    uses = "<use href='#a'/>" * 300  # 300 copies of 100 rects: 30,000 shapes in a few kilobytes
    rects = "<rect width='1' height='1'/>" * 100
    use_art(
        svg_game, "many.svg", f"<svg xmlns='http://www.w3.org/2000/svg'><g id='a'>{rects}</g>{uses}</svg>"
    )
    assert "draws more than 20,000 shapes (each <use> counting what it repeats)" in failed(svg_game)


def test_what_svglib_cannot_draw_is_one_warning_naming_the_file(svg_game):
    use_art(svg_game, "partial.svg", (SVG / "partial.svg").read_bytes())
    output = built(svg_game)
    lines = [line for line in output.splitlines() if "partial.svg" in line]
    assert len(lines) == 1 and "warning:" in lines[0], output
    assert "SVG art/partial.svg is drawn without" in lines[0]
    assert "filter effects" in lines[0] and "text (convert it to paths)" in lines[0]


# -- nothing outside is read -----------------------------------------------------------------------------------


def test_an_svg_naming_a_file_outside_is_refused_and_the_file_never_opened(svg_game, tmp_path):
    """The outside file is a named pipe: opening it for reading would block the build until the time limit."""
    secret = tmp_path / "secret.png"
    os.mkfifo(secret)
    for ref in (str(secret), os.path.relpath(secret, game(svg_game) / "art"), f"file://{secret}"):
        use_art(
            svg_game,
            "leak.svg",
            "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
            f"viewBox='0 0 9 9'>\n<image xlink:href='{ref}' width='9' height='9'/></svg>",
        )
        proc = subprocess.run(
            [sys.executable, "-m", "pnpgen", "build", "--out", "out"],
            cwd=svg_game,
            env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "250"},
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        output = proc.stdout + proc.stderr
        assert proc.returncode == 1, output
        assert (
            "art/leak.svg:2 refers to" in output
            and "which pnpgen never reads" in output
            and "refused" in output
        )


def test_svglib_itself_resolves_no_reference_to_a_file(tmp_path):
    """Behind the check: svglib is handed a tree without a file name, so even a reference that reached it
    could not be read."""
    from lxml import etree

    from pnpgen import svg

    outside = tmp_path / "outside.png"
    outside.write_bytes((FIXTURES / "basic/content/sample/art/split.png").read_bytes())
    root = etree.fromstring(
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><image href='{outside}' width='9' "
        f"height='9'/><image href='outside.png' width='9' height='9'/><rect width='1' height='1'/></svg>"
    )
    drawing, logged = svg._draw(root)
    kinds, stack = [], [drawing]
    while stack:
        node = stack.pop()
        kinds.append(type(node).__name__)
        stack.extend(getattr(node, "contents", None) or ())
    assert "Image" not in kinds and "Rect" in kinds
    assert len(logged) == 2  # each refused, in svglib's words


GRADIENT = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><defs><linearGradient id="g"><stop offset="0" '
    'stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>'
    '<rect x="10" y="10" width="80" height="80" fill="url(#g)"/></svg>'
)


def test_a_colour_on_an_icon_with_gradients_is_a_warning_at_the_element(svg_game):
    g = game(svg_game)
    (g / "icons" / "glow.svg").write_text(GRADIENT)
    with (g / "layouts" / "plate.yaml").open("a") as fh:
        fh.write("  - {type: icon, name: glow, x: 80, y: 5, size: 15, color: '#00ff00'}\n")
        fh.write("  - {type: icon, name: glow, x: 80, y: 28, size: 15}\n")
    output = built(svg_game)
    line = len(PLATE.splitlines()) + 1
    assert (
        f"content/sample/layouts/plate.yaml:{line}:5: warning: 'color' is ignored: the SVG icon 'glow' has "
        "gradients, drawn in its own" in output
    ), output
    assert output.count("'glow' has gradients") == 1  # the element without a colour says nothing
