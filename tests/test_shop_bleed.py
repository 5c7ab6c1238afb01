"""Preflight never passes what the file does not hold (issue 28, class 6): for the shop targets a piece whose bleed
is not filled on every side is an error, and each page's boxes describe what was drawn (measured in the pixels of
the written PDF). A PDF/X file holding a number no PDF may hold is never passed by the check."""

from __future__ import annotations

import pikepdf
import pytest
from conftest import MM, run_cli

from pnpgen.faces import Ellipse, Face, Image, Polygon, Rect, Vector
from pnpgen.shapes import grow, outline
from pnpgen.shop.bleed import missing_bleed

B = 9.0  # 1/8 in, in pt
W, H = 180.0, 252.0
ALL = ["left", "top", "right", "bottom"]


def face(*ops) -> Face:
    return Face(W, H, B, tuple(ops))


@pytest.mark.parametrize(
    ("ops", "missing"),
    [
        ([Rect(-B, -B, W + 2 * B, H + 2 * B, fill="#123456")], []),
        ([Rect(0, 0, W, H, fill="#123456")], ALL),  # the trim only
        ([Rect(-B, 0, W + B, H, fill="#123456")], ["top", "right", "bottom"]),  # bled on the left only
        ([Rect(-B, -B, W + B, H + 2 * B, fill="#123456")], ["right"]),
        (  # two halves side by side, each to its bleed
            [
                Rect(-B, -B, W / 2 + B, H + 2 * B, fill="#111111"),
                Rect(W / 2, -B, W / 2 + B, H + 2 * B, fill="#222"),
            ],
            [],
        ),
        (  # two halves with a gap of 1 pt between them
            [
                Rect(-B, -B, W / 2 + B - 1, H + 2 * B, fill="#111111"),
                Rect(W / 2, -B, W / 2 + B, H + 2 * B, fill="#2"),
            ],
            ["top", "bottom"],
        ),
        ([Rect(-B, -B, W + 2 * B, H + 2 * B, fill="#123456", opacity=0.5)], ALL),  # see-through
        ([Rect(-B, -B, W + 2 * B, H + 2 * B, fill="#123456", radius=3)], ALL),  # rounded: not counted
        (  # a band along each side, the corners left out
            [
                Rect(-B, 0, B, H, fill="#111111"),
                Rect(W, 0, B, H, fill="#111111"),
                Rect(0, -B, W, B, fill="#111111"),
                Rect(0, H, W, B, fill="#111111"),
            ],
            ["top-left corner", "top-right corner", "bottom-right corner", "bottom-left corner"],
        ),
        ([Rect(-B, -B, W + 2 * B, H + 2 * B, stroke="#000000")], ALL),  # an outline fills nothing
        ([Image("/x.png", -B, -B, W + 2 * B, H + 2 * B, (-B, -B, W + 2 * B, H + 2 * B))], []),
        ([Image("/x.png", -B, -B, W + 2 * B, H + 2 * B, (0, 0, W, H))], ALL),  # art cut to the trim
        ([Vector("/x.svg", "0", -B, -B, W + 2 * B, H + B, (-B, -B, W + 2 * B, H + 2 * B))], ["bottom"]),
    ],
)
def test_missing_bleed_names_every_side_nothing_fills(ops, missing):
    assert missing_bleed(face(*ops)) == missing


HW, HH = 100.0, 100.0 * 2 / 3**0.5  # a pointy-top hex's box
TH = HW * 3**0.5 / 2  # a triangle's height
HEX = tuple((x, HH - y) for x, y in outline("hex", HW, HH))  # y downwards, as a face's operations


@pytest.mark.parametrize(
    ("shape", "size", "ops", "missing"),
    [
        ("hex", (HW, HH), [Rect(-B, -B, HW + 2 * B, HH + 2 * B, fill="#123456")], []),
        ("hex", (HW, HH), [Polygon(HEX, fill="#123456")], ALL),  # the hex itself: no bleed round it
        ("hex", (HW, HH), [Polygon(grow(HEX, [B] * 6), fill="#123456")], []),  # the hex grown by the bleed
        (
            "hex",
            (HW, HH),
            [Rect(-B, -B, HW / 2 + B, HH + 2 * B, fill="#1")],
            ["top", "right", "bottom"],
        ),  # left half
        ("circle", (HW, HW), [Ellipse(0, 0, HW, HW, fill="#123456")], ALL),
        ("circle", (HW, HW), [Ellipse(-B, -B, HW + 2 * B, HW + 2 * B, fill="#123456")], []),
        ("circle", (HW, HW), [Ellipse(-B, -B, HW + 2 * B, HW + 2 * B, fill="#1", opacity=0.5)], ALL),
        ("triangle", (HW, TH), [Rect(-B, -B, HW + 2 * B, TH + 2 * B, fill="#123456")], []),
        ("triangle", (HW, TH), [Rect(-B, -B, HW + 2 * B, 40, fill="#123456")], ["left", "right", "bottom"]),
    ],
)
def test_a_shaped_piece_needs_its_outline_grown_by_the_bleed_filled(shape, size, ops, missing):
    assert missing_bleed(Face(*size, B, tuple(ops), shape=shape)) == missing


def test_a_face_without_bleed_has_none_to_miss():
    assert missing_bleed(Face(W, H, 0.0, (Rect(0, 0, W, H, fill="#000000"),))) == []


ONE_SIDE = '  - type: rect\n    x: -4\n    y: 0\n    w: 10\n    h: "{{ h }}"\n    fill: "#202020"\n'  # the left bleed only


def bled_on_one_side(root):
    layout = root / "content" / "sample" / "layouts" / "hero.yaml"
    text = layout.read_text()
    assert "    area: bleed\n" in text
    layout.write_text(text.replace("    area: bleed\n", "    area: trim\n", 1) + ONE_SIDE)
    return layout


@pytest.mark.parametrize("target", ["dtc", "pdfx", "factory", "tgc"])
def test_a_piece_bled_on_one_side_is_a_preflight_error_for_every_shop_target(target, project):
    root = project("basic")
    bled_on_one_side(root)
    result = run_cli("preflight", "sample", "--target", target, cwd=root)
    assert result.exit_code == 1, result.output
    assert "content/sample/layouts/hero.yaml:1:1: error: [" in result.output, result.output
    assert "bleed at the top, right, bottom: a white edge would show after cutting" in result.output


def test_the_export_refuses_it_and_writes_nothing(project):
    root = project("basic")
    bled_on_one_side(root)
    result = run_cli("export", "shop", "dtc", "sample", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert "bleed at the top, right, bottom" in result.output
    assert not (root / "out" / "sample" / "shop").exists()


def test_home_printing_still_builds_a_piece_bled_on_one_side(project):
    """Sheets for a home printer are cut at the trim with the bleed as a margin of safety: no error there."""
    root = project("basic")
    bled_on_one_side(root)
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 0, result.output
    assert "bleed" not in result.output


@pytest.mark.slow
def test_every_page_box_describes_what_was_drawn(project):
    """The written pages, measured: the TrimBox is the card's size, the BleedBox the trim with 1/8 in all round
    and the page itself; and the ink reaches every edge of the BleedBox (rasterised), so the box claims no
    bleed that is not there. An ArtBox, if any, lies inside the trim."""
    import pypdfium2

    root = project("basic")
    result = run_cli("export", "shop", "dtc", "sample", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    path = root / "out" / "sample" / "shop" / "dtc" / "heroes-fronts.pdf"
    with pikepdf.open(path) as pdf:
        boxes = []
        for page in pdf.pages:
            trim = [float(v) for v in page.obj.TrimBox]
            bleed = [float(v) for v in page.obj.BleedBox]
            assert bleed == [float(v) for v in page.MediaBox]
            assert ((trim[2] - trim[0]) / MM, (trim[3] - trim[1]) / MM) == pytest.approx(
                (63.5, 88.9), abs=0.01
            )
            assert [t - b for t, b in zip(trim[:2], bleed[:2])] == pytest.approx([B, B])
            assert [b - t for t, b in zip(trim[2:], bleed[2:])] == pytest.approx([B, B])
            if "/ArtBox" in page.obj:
                art = [float(v) for v in page.obj.ArtBox]
                assert art[0] >= trim[0] and art[1] >= trim[1] and art[2] <= trim[2] and art[3] <= trim[3]
            boxes.append(bleed)
    doc = pypdfium2.PdfDocument(path)
    for n in range(len(doc)):
        scale = 2.0  # 144 dpi
        image = doc[n].render(scale=scale).to_pil().convert("RGB")
        x0, y0, x1, y1 = boxes[n]
        assert image.size == (round((x1 - x0) * scale), round((y1 - y0) * scale))
        w, h = image.size
        # one pixel in from each edge of the BleedBox, along the whole edge: the piece's ink, never paper
        edges = [(1, y) for y in range(h)] + [(w - 2, y) for y in range(h)]
        edges += [(x, 1) for x in range(w)] + [(x, h - 2) for x in range(w)]
        white = [xy for xy in edges if min(image.getpixel(xy)) > 245]
        assert not white, (
            f"page {n + 1}: {len(white)} of {len(edges)} bleed-edge pixels are paper, e.g. {white[:3]}"
        )


def pdf_with(stream: bytes, tmp_path, **boxes):
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    page = pdf.pages[0]
    page.obj.Contents = pdf.make_stream(stream)
    for key, box in boxes.items():
        page.obj[f"/{key}"] = pikepdf.Array(box)
    path = tmp_path / "x.pdf"
    pdf.save(path)
    return path


@pytest.mark.parametrize(
    "stream",
    [
        b"nan w",
        b"0.5 w 1 0 0 1 inf 0 cm",
        b"-nan 0 m 1 1 l S",
        b"1e400 w",
        b"[1 nan] 0 d",
        b"99999999999999999999 w",
    ],
)
def test_the_pdfx_check_never_passes_a_number_no_pdf_may_hold(stream, tmp_path):
    from pnpgen.shop.pdfx import problems

    found = problems(pdf_with(stream, tmp_path))
    assert any("PDF operator" in p or "number" in p or "cannot be read" in p for p in found), found


def test_the_pdfx_check_passes_ordinary_numbers(tmp_path):
    from pnpgen.shop.pdfx import problems

    found = problems(pdf_with(b"0.5 w [2 1] 0 d 1 0 0 1 10 10 cm 0 0 m 3 3 l S 0 0 0 1 k", tmp_path))
    assert not [p for p in found if "operator" in p or "number" in p], found


@pytest.mark.parametrize(
    "boxes",
    [
        {"BleedBox": [0, 0, 200, 200], "TrimBox": [-5, 9, 191, 191]},  # the trim outside the bleed
        {"BleedBox": [0, 0, 300, 200], "TrimBox": [9, 9, 191, 191]},  # the bleed outside the page
        {"BleedBox": [0, 0, 200, 200], "TrimBox": [9, 9, 191, 191], "ArtBox": [0, 0, 200, 200]},
        {"BleedBox": [0, 0, 200, 200], "TrimBox": [9, 9, 191, 20000]},
    ],
)
def test_the_pdfx_check_refuses_boxes_that_do_not_nest(boxes, tmp_path):
    from pnpgen.shop.pdfx import problems

    found = problems(pdf_with(b"0 0 m 1 1 l S", tmp_path, **boxes))
    assert any("Box" in p for p in found), found


@pytest.mark.slow
@pytest.mark.parametrize("component", ["hex", "tri"])
def test_a_shaped_piece_is_drawn_with_its_bleed_round_its_outline(component, project):
    """A hex or triangle alone on its PDF/X page was cut at its outline, the bleed its boxes claim left white:
    measured, the piece's ink now reaches the BleedBox at the ends of its straight edges (a hex's top and
    bottom vertices' neighbourhood, a triangle's base), and 1 pt beyond its outline all round."""
    import pypdfium2

    from pnpgen.shapes import outline

    root = project("pieces")
    result = run_cli("export", "shop", "pdfx", "pieces", component, "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    path = root / "out" / "pieces" / "shop" / "pdfx" / f"{component}-fronts.pdf"
    with pikepdf.open(path) as pdf:
        page = pdf.pages[0].obj
        trim = [float(v) for v in page.TrimBox]
        bleed = [float(v) for v in page.BleedBox]
    scale = 3.0
    image = pypdfium2.PdfDocument(path)[0].render(scale=scale).to_pil().convert("RGB")
    w, h = trim[2] - trim[0], trim[3] - trim[1]
    shape = outline("hex" if component == "hex" else "triangle", w, h)
    cx, cy = w / 2, h / 2
    paper = []
    for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1]):
        for i in range(20):
            x, y = x1 + (x2 - x1) * i / 20, y1 + (y2 - y1) * i / 20
            d = max(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5, 1e-9)
            px, py = x + (x - cx) / d * 1.5, y + (y - cy) / d * 1.5  # 1.5 pt outside the cut, in the bleed
            ix, iy = round((px + trim[0] - bleed[0]) * scale), round((bleed[3] - trim[1] - py) * scale)
            if 0 <= ix < image.width and 0 <= iy < image.height and min(image.getpixel((ix, iy))) > 245:
                paper.append((round(px, 1), round(py, 1)))
    assert not paper, f"paper just outside the cut of {component}: {paper[:5]}"
