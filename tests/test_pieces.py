"""Tiles, tokens and boards, measured from the written PDFs."""

from __future__ import annotations

import math

import pdfplumber
import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, MM, run_cli

GUIDE = (0.0, 0.0, 0.0)  # the guide's dark line (its light halo is white)


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    dest = tmp_path_factory.mktemp("pieces")
    result = run_cli("build", "--content", FIXTURES / "pieces" / "content", "--out", dest)
    assert result.exit_code == 0, result.output
    return dest / "pieces"


def guides(page):
    return [
        c["pts"] for c in page.curves if tuple(round(v, 6) for v in c.get("stroking_color") or ()) == GUIDE
    ]


FILLS = {(0.784314, 0.262745, 0.101961), (0.121569, 0.435294, 0.698039)}  # piece-front's and piece-back's


def placed(page) -> int:
    """How many pieces a page prints: each face's background fill, whether the face is drawn by a form (printed
    more than once) or on the page (printed once)."""
    return sum(
        1
        for r in page.rects + page.curves
        if r.get("fill") and tuple(round(v, 6) for v in r.get("non_stroking_color") or ()) in FILLS
    )


def words(page, prefix):
    return [
        ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2, w["text"])
        for w in page.extract_words()
        if w["text"].startswith(prefix)
    ]


@pytest.mark.parametrize(
    "pdf, count, backs", [("hex", 35, True), ("tri", 17, True), ("coins", 30, False), ("squares", 12, True)]
)
def test_every_piece_is_printed_once_front_and_back(out, pdf, count, backs):
    with pdfplumber.open(out / f"{pdf}.pdf") as doc:
        pages = doc.pages
        step = 2 if backs else 1
        assert sum(placed(p) for p in pages[0::step]) == count
        if backs:
            assert sum(placed(p) for p in pages[1::2]) == count


def test_hexes_are_regular_and_measure_their_size(out):
    with pdfplumber.open(out / "hex.pdf") as doc:
        polys = guides(doc.pages[0])
    assert polys
    for pts in polys:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        assert (max(xs) - min(xs)) / MM == pytest.approx(40, abs=0.2)  # across the flats
        assert (max(ys) - min(ys)) / MM == pytest.approx(80 / math.sqrt(3), abs=0.2)
        sides = [math.dist(pts[i], pts[i + 1]) / MM for i in range(6)]
        assert max(sides) - min(sides) < 0.05 and sides[0] == pytest.approx(40 / math.sqrt(3), abs=0.05)


def test_hexes_stand_apart_by_twice_the_bleed(out):
    """Hexes are cut round one by one, so each keeps its full bleed (2 mm, the default for tiles): centres (40 + 4) mm apart."""
    with pdfplumber.open(out / "hex.pdf") as doc:
        centres = sorted(
            {
                (
                    round((min(p[0] for p in pts) + max(p[0] for p in pts)) / 2 / MM, 2),
                    round((min(p[1] for p in pts) + max(p[1] for p in pts)) / 2 / MM, 2),
                )
                for pts in guides(doc.pages[0])
            },
            key=lambda c: (c[1], c[0]),
        )
    rows = sorted({y for _, y in centres})
    assert [round(b - a, 2) for a, b in zip(rows, rows[1:])] == [
        pytest.approx(44 * math.sqrt(3) / 2, abs=0.05)
    ] * (len(rows) - 1)
    first = sorted(x for x, y in centres if y == rows[0])
    second = sorted(x for x, y in centres if y == rows[1])
    assert [round(b - a, 2) for a, b in zip(first, first[1:])] == [pytest.approx(44, abs=0.05)] * (
        len(first) - 1
    )
    assert abs(abs(second[0] - first[0]) - 22) < 0.05  # offset rows: half a step


def test_triangles_alternate_and_share_edges(out):
    with pdfplumber.open(out / "tri.pdf") as doc:
        polys = guides(doc.pages[0])
    ups = downs = 0
    for pts in polys:
        ys = [p[1] for p in pts[:3]]
        apex_high = sorted(ys)[0] < sorted(ys)[1] - 1  # pdfplumber y grows downwards
        ups += apex_high
        downs += not apex_high
        sides = [math.dist(pts[i], pts[(i + 1) % 3]) / MM for i in range(3)]
        assert all(abs(s - 40) < 0.1 for s in sides)
    assert abs(ups - downs) <= 1 and ups + downs == 17


def test_circle_tokens_measure_their_diameter(out):
    with pdfplumber.open(out / "coins.pdf") as doc:
        polys = guides(doc.pages[0])
    assert len(polys) == 30
    for pts in polys:
        xs = [p[0] for p in pts]
        assert (max(xs) - min(xs)) / MM == pytest.approx(20, abs=0.2)


@pytest.mark.parametrize("pdf", ["hex", "tri", "squares"])
def test_each_back_lands_behind_its_front(out, pdf):
    with pdfplumber.open(out / f"{pdf}.pdf") as doc:
        width = doc.pages[0].width
        for i in range(0, len(doc.pages), 2):
            fronts, backs = words(doc.pages[i], "F"), words(doc.pages[i + 1], "B")
            assert len(fronts) == len(backs) > 0
            for x, y, text in fronts:
                match = [b for b in backs if abs(b[0] - (width - x)) < 0.5 * MM and abs(b[1] - y) < 0.5 * MM]
                assert len(match) == 1 and match[0][2][1:] == text[1:], (text, x, y)


def test_full_size_board_has_true_size_and_boxes(out):
    with pdfplumber.open(out / "board-full.pdf") as doc:
        assert len(doc.pages) == 2  # two sides
        for page in doc.pages:
            assert page.width / MM == pytest.approx(406, abs=0.05) and page.height / MM == pytest.approx(
                306, abs=0.05
            )
            x0, y0, x1, y1 = page.page_obj.attrs["TrimBox"]
            assert (x1 - x0) / MM == pytest.approx(400, abs=0.05) and (y1 - y0) / MM == pytest.approx(
                300, abs=0.05
            )


def _render(path, index, dpi):
    """A page in grey, softened so anti-aliasing at other sub-pixel offsets does not count as a difference."""
    from PIL import ImageFilter

    doc = pdfium.PdfDocument(str(path))
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("L").filter(ImageFilter.GaussianBlur(2))
    finally:
        doc.close()


def test_tiled_pages_put_together_give_the_board_at_true_size(out):
    from pnpgen.imposition.boards import MARGIN, page_size, tile_windows

    total_w, total_h = 406 * MM, 306 * MM
    page = page_size(total_w, total_h, "a4")
    windows, rows, cols, ww, wh = tile_windows(total_w, total_h, page)
    assert len(windows) == rows * cols >= 2
    dpi = 20
    k = dpi / 72
    full = _render(out / "board-full.pdf", 0, dpi)
    assert abs(full.width - total_w * k) <= 1 and abs(full.height - total_h * k) <= 1
    worst = 0.0
    for n, win in enumerate(windows):
        tile = _render(out / "board.pdf", 1 + n, dpi)  # page 0 is the map
        left, top = MARGIN * k, MARGIN * k
        box_tile = (round(left) + 2, round(top) + 2, round(left + win.w * k) - 2, round(top + win.h * k) - 2)
        fx, fy = win.ox * k, (total_h - win.oy - win.h) * k
        box_full = (
            round(fx) + 2,
            round(fy) + 2,
            round(fx) + box_tile[2] - box_tile[0] + 2,
            round(fy) + box_tile[3] - box_tile[1] + 2,
        )
        a, b = tile.crop(box_tile), full.crop(box_full)
        diff = sum(abs(p - q) for p, q in zip(a.tobytes(), b.tobytes())) / (a.width * a.height)
        worst = max(worst, diff)
    assert worst < 6, worst  # ~3 when right (crosses, dashed lines); a window 5 mm off gives 12 or more


def test_overlap_strips_repeat_and_crosses_coincide(out):
    from pnpgen.imposition.boards import CROSS, MARGIN, OVERLAP, page_size, tile_windows

    total_w, total_h = 406 * MM, 306 * MM
    windows, rows, cols, ww, wh = tile_windows(total_w, total_h, page_size(total_w, total_h, "a4"))
    assert windows[1].ox - windows[0].ox == pytest.approx(ww - OVERLAP)
    with pdfplumber.open(out / "board.pdf") as doc:

        def crosses(page_index, win):
            page = doc.pages[page_index]
            found = set()
            for ln in page.lines:
                if abs(ln["x1"] - ln["x0"] - 2 * CROSS) < 0.1 and abs(ln["top"] - ln["bottom"]) < 0.01:
                    bx = (ln["x0"] + CROSS) - MARGIN + win.ox
                    by_top = ln["top"] - MARGIN  # distance below the window's top edge
                    found.add((round(bx / MM, 1), round(by_top / MM, 1)))
            return found

        left, right = crosses(1, windows[0]), crosses(2, windows[1])
        shared = left & right
        assert len(shared) >= 3  # the same board points, marked on both pages of the strip
        for bx, _ in shared:
            assert windows[1].ox / MM <= bx <= (windows[1].ox + OVERLAP) / MM


def test_map_page_names_every_page(out):
    with pdfplumber.open(out / "board.pdf") as doc:
        text = doc.pages[0].extract_text()
    assert "Test board: Front side" in text and "1-1" in text and "True size 400 × 300 mm" in text


@pytest.mark.parametrize(
    "yaml_text, expected",
    [
        (
            "id: hex\nkind: tiles\nshape: hex\nsize: 300mm\nfront: piece-front\ntiles: [{name: H}]\n",
            "does not fit on A4 paper",
        ),
        (
            "id: hex\nkind: tiles\nshape: hexagon\nsize: 30mm\nfront: piece-front\ntiles: [{name: H}]\n",
            "'shape' must be one of square, rect, hex, hex-flat, triangle, circle (got 'hexagon'); did you mean 'hex'?",
        ),
        (
            "id: hex\nkind: tokens\nshape: circle\nsize: 30mm\nfront: piece-front\ntiles: [{name: H}]\n",
            "unknown key 'tiles' in token sheet",
        ),
    ],
)
def test_bad_pieces_are_located_errors(project, yaml_text, expected):
    root = project("pieces")
    (root / "content" / "pieces" / "tiles" / "hex.yaml").write_text(yaml_text)
    result = run_cli("build", "--out", "out", cwd=root)
    assert (
        result.exit_code == 1
        and expected in result.output
        and "content/pieces/tiles/hex.yaml:" in result.output
    )


@pytest.mark.parametrize(
    "change, expected",
    [
        (('cols: "{{ card.cols }}"', "cols: 0"), "'cols' must be between 1 and 200 (got 0)"),
        (("count: 60", "count: 400"), "'count' 400 spaces do not fit around"),
    ],
)
def test_impossible_board_grids_are_located_errors(project, change, expected):
    root = project("pieces")
    layout = root / "content" / "pieces" / "layouts" / "board-side.yaml"
    layout.write_text(layout.read_text().replace(*change))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and expected in result.output
    assert "content/pieces/layouts/board-side.yaml:" in result.output


@pytest.mark.parametrize("pdf", ["hex", "tri", "coins"])
def test_every_cut_edge_has_art_beyond_it(out, pdf):
    """Bleed on every edge of every piece: 1 mm outside the middle of each cut edge (and four points round a
    coin) the page is the face's colour, not paper."""
    scale = 150 / 72
    doc = pdfium.PdfDocument(str(out / f"{pdf}.pdf"))
    image = doc[0].render(scale=scale).to_pil().convert("RGB")
    doc.close()
    with pdfplumber.open(out / f"{pdf}.pdf") as pl:
        polys = guides(pl.pages[0])
    assert polys
    checked = 0
    for pts in polys:
        pts = [tuple(p) for p in pts]
        if pts[0] == pts[-1]:
            pts = pts[:-1]
        cx = sum(x for x, _ in pts) / len(pts)
        cy = sum(y for _, y in pts) / len(pts)
        if len(pts) > 8:  # a circle: four points round it
            r = (max(x for x, _ in pts) - min(x for x, _ in pts)) / 2
            probes = [
                (cx + (r + MM) * dx, cy + (r + MM) * dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            ]
        else:
            probes = []
            for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                d = math.hypot(mx - cx, my - cy)
                probes.append((mx + (mx - cx) / d * MM, my + (my - cy) / d * MM))
        for x, y in probes:
            red, green, blue = image.getpixel((int(x * scale), int(y * scale)))
            assert red > 150 and green < 120, (pdf, x / MM, y / MM, (red, green, blue))
            checked += 1
    assert checked >= len(polys) * 3
