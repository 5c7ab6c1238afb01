"""The written PDF, measured: pages, sizes in mm, card counts, cut marks, duplex backs, label, boxes."""

from __future__ import annotations

import json

import pdfplumber
import pypdfium2 as pdfium
import pytest
from conftest import MM, face_uses, fast_once, run_cli

from pnpgen.imposition.sheets import MARGIN, Label, plan_sheet

PAPER_MM = {"a4": (210, 297), "letter": (215.9, 279.4)}


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory):
    import shutil

    from conftest import FIXTURES

    root = tmp_path_factory.mktemp(f"duplex-{request.param}")
    shutil.copytree(FIXTURES / "duplex", root / "p")
    result = run_cli(
        "build", "--content", root / "p" / "content", "--out", root / "out", "--paper", request.param
    )
    assert result.exit_code == 0, result.output
    return request.param, root / "out" / "duplex"


def words(page):
    return [(w["text"], (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in page.extract_words()]


def test_manifest_lists_every_file_with_counts(built):
    paper, out = built
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "duplex" and manifest["paper"] == paper
    entries = {f["component"]: f for f in manifest["files"] if f["kind"] != "print-all"}
    assert {k: v["faces"] for k, v in entries.items()} == {"poker": 11, "mini": 17, "tarot": 3}
    for f in manifest["files"]:
        with pdfplumber.open(out / f["path"]) as pdf:
            assert len(pdf.pages) == f["pages"]
        assert f["kind"] in ("cards", "print-all") and len(f["sha256"]) == 64


@pytest.mark.parametrize("deck, count", [("poker", 11), ("mini", 17), ("tarot", 3)])
def test_pdf_holds_exactly_the_card_count_fronts_and_backs(built, deck, count):
    paper, out = built
    with pdfplumber.open(out / f"{deck}.pdf") as pdf:
        fronts = [p for i, p in enumerate(pdf.pages) if i % 2 == 0]
        backs = [p for i, p in enumerate(pdf.pages) if i % 2 == 1]
        assert sum(face_uses(p) for p in fronts) == count
        assert sum(face_uses(p) for p in backs) == count
        names = [t for p in fronts for t, _, _ in words(p) if t.startswith("F")]
        assert len(names) == count


def test_pages_have_the_paper_size(built):
    paper, out = built
    with pdfplumber.open(out / "poker.pdf") as pdf:
        for page in pdf.pages:
            assert page.width / MM == pytest.approx(PAPER_MM[paper][0], abs=0.01)
            assert page.height / MM == pytest.approx(PAPER_MM[paper][1], abs=0.01)


def _mark_positions(page):
    xs = sorted({round(ln["x0"], 2) for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01})
    ys = sorted({round(ln["top"], 2) for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 0.01})
    return xs, ys


@pytest.mark.parametrize(
    "deck, size_mm", [("poker", (63.5, 88.9)), ("mini", (44.45, 63.5)), ("tarot", (69.85, 120.65))]
)
def test_a_card_measures_its_size_between_its_cut_marks(built, deck, size_mm):
    paper, out = built
    with pdfplumber.open(out / f"{deck}.pdf") as pdf:
        xs, ys = _mark_positions(pdf.pages[0])
    widths = {round((b - a) / MM, 1) for a, b in zip(xs, xs[1:])}
    heights = {round((b - a) / MM, 1) for a, b in zip(ys, ys[1:])}
    assert any(abs(w - size_mm[0]) <= 0.2 for w in widths), widths
    assert any(abs(h - size_mm[1]) <= 0.2 for h in heights), heights
    # each card's centre text sits midway between two neighbouring cut lines
    with pdfplumber.open(out / f"{deck}.pdf") as pdf:
        for _, cx, _cy in [w for w in words(pdf.pages[0]) if w[0].startswith("F")]:
            left = max(x for x in xs if x < cx)
            right = min(x for x in xs if x > cx)
            assert (right - left) / MM == pytest.approx(size_mm[0], abs=0.2)


@pytest.mark.parametrize("deck", ["poker", "mini", "tarot"])
def test_each_back_lands_behind_its_front_on_a_long_edge_flip(built, deck):
    paper, out = built
    with pdfplumber.open(out / f"{deck}.pdf") as pdf:
        width = pdf.pages[0].width
        for i in range(0, len(pdf.pages), 2):
            front = [w for w in words(pdf.pages[i]) if w[0].startswith("F")]
            back = [w for w in words(pdf.pages[i + 1]) if w[0].startswith("B")]
            assert len(front) == len(back)
            for name, cx, cy in front:
                # flipping the sheet on its long edge takes x to width - x
                match = [b for b in back if abs(b[1] - (width - cx)) < 0.5 * MM and abs(b[2] - cy) < 0.5 * MM]
                assert len(match) == 1, (name, cx, cy)
                assert match[0][0] == "B" + name[1:]


@pytest.mark.parametrize("deck", ["poker", "mini", "tarot"])
def test_every_cut_mark_is_at_least_3_mm_long(built, deck):
    """Side and end marks alike, on A4 and on Letter (three poker rows leave 6.35 mm to the paper's edge)."""
    paper, out = built
    with pdfplumber.open(out / f"{deck}.pdf") as pdf:
        lengths = [
            ((ln["x1"] - ln["x0"]) ** 2 + (ln["bottom"] - ln["top"]) ** 2) ** 0.5 / MM
            for page in pdf.pages
            for ln in page.lines
        ]
    assert lengths and min(lengths) >= 3.0 - 0.01, (paper, deck, min(lengths))


def test_only_bleed_comes_nearer_the_paper_edge_than_5mm(built):
    """Text keeps the 5 mm margin; cut marks too, unless drawn over the bleed (three poker rows on Letter):
    such a mark starts in the bleed and runs on no nearer than 3 mm to the paper's edge (3 mm long at least)."""
    paper, out = built
    with pdfplumber.open(out / "poker.pdf") as pdf:
        for page in pdf.pages:
            for obj in page.chars:
                assert obj["x0"] >= 5 * MM - 0.01 and obj["x1"] <= page.width - 5 * MM + 0.01
                assert obj["top"] >= 5 * MM - 0.01 and obj["bottom"] <= page.height - 5 * MM + 0.01
            bx0, by0, bx1, by1 = (float(v) for v in page.page_obj.attrs["BleedBox"])
            for obj in page.lines:
                assert obj["x0"] >= 3 * MM - 0.01 and obj["x1"] <= page.width - 3 * MM + 0.01
                assert obj["top"] >= 3 * MM - 0.01 and obj["bottom"] <= page.height - 3 * MM + 0.01
                if obj["top"] < 5 * MM or obj["bottom"] > page.height - 5 * MM:
                    assert (
                        page.height - obj["bottom"] <= by1 + 0.01 and page.height - obj["top"] >= by0 - 0.01
                    )


def test_the_grid_has_art_in_its_bleed_on_all_four_sides(built):
    """1.5 mm outside the trim of the grid, in the middle of each side, the page is printed (the outer
    bleed is kept on A4 and Letter alike)."""
    paper, out = built
    scale = 150 / 72
    doc = pdfium.PdfDocument(str(out / "poker.pdf"))
    try:
        page = doc[0]
        image = page.render(scale=scale).to_pil().convert("L")
        height = page.get_height()
    finally:
        doc.close()
    with pdfplumber.open(out / "poker.pdf") as pdf:
        tx0, ty0, tx1, ty1 = (float(v) for v in pdf.pages[0].page_obj.attrs["TrimBox"])
    d = 1.5 * MM
    # probe at a third of each side: the middle of a column or row, not a cut line
    probes = [
        (tx0 - d, (ty0 + ty1) / 2 + 5 * MM),
        (tx1 + d, (ty0 + ty1) / 2 + 5 * MM),
        (tx0 + (tx1 - tx0) / 6, ty0 - d),
        (tx0 + (tx1 - tx0) / 6, ty1 + d),
    ]
    for x, y in probes:
        assert image.getpixel((int(x * scale), int((height - y) * scale))) < 240, (paper, x / MM, y / MM)


def label_text(page) -> str:
    """The margin label, whether it runs across the bottom or up a side."""
    rotated = [c for c in page.chars if not c["upright"]]
    if rotated:
        return "".join(c["text"] for c in sorted(rotated, key=lambda c: -c["top"]))
    return page.extract_text()


def test_every_page_carries_its_margin_label(built):
    paper, out = built
    with pdfplumber.open(out / "poker.pdf") as pdf:
        n = len(pdf.pages) // 2
        for i, page in enumerate(pdf.pages):
            text = label_text(page)
            side = "fronts" if i % 2 == 0 else "backs"
            assert f"sheet {i // 2 + 1} of {n}" in text and side in text and "Duplex Test" in text


def test_page_boxes_nest(built):
    paper, out = built
    with pdfplumber.open(out / "poker.pdf") as pdf:
        for page in pdf.pages:
            attrs = page.page_obj.attrs
            media, trim, bleed = attrs["MediaBox"], attrs["TrimBox"], attrs["BleedBox"]
            assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
            assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]


def test_fonts_are_embedded_and_no_base14_font_is_referenced(built):
    paper, out = built
    raw = (out / "poker.pdf").read_bytes()
    assert b"/FontFile2" in raw
    assert b"/Helvetica" not in raw


def test_two_builds_give_identical_bytes(built, tmp_path):
    paper, out = built
    from conftest import FIXTURES

    result = run_cli(
        "build", "--content", FIXTURES / "duplex" / "content", "--out", tmp_path, "--paper", paper
    )
    assert result.exit_code == 0
    for pdf in sorted(out.glob("*.pdf")) + [out / "manifest.json"]:
        assert (tmp_path / "duplex" / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


@pytest.mark.parametrize(
    "deck, size_mm", [("poker", (63.5, 88.9)), ("mini", (44.45, 63.5)), ("tarot", (69.85, 120.65))]
)
def test_every_cut_mark_lies_on_an_edge_of_a_card_on_its_page(built, deck, size_mm):
    """Fronts and backs, full and partial sheets (poker's 11 cards leave 2 on the second sheet, mini's 17 leave
    some): each cut line marked on a page is an edge of a card printed on that page, so a partial sheet's empty
    rows and columns carry no marks; and each card's four edges are marked."""
    paper, out = built
    w, h = size_mm[0] * MM, size_mm[1] * MM
    with pdfplumber.open(out / f"{deck}.pdf") as pdf:
        for i, page in enumerate(pdf.pages):
            cards = [(cx, cy) for t, cx, cy in words(page) if t[:1] in "FB" and t[1:2] in "PMT"]
            assert cards, i
            xs, ys = _mark_positions(page)
            edges_x = [v for cx, _ in cards for v in (cx - w / 2, cx + w / 2)]
            edges_y = [v for _, cy in cards for v in (cy - h / 2, cy + h / 2)]
            near = 2 * MM  # a word's centre is up to ~1 mm off its card's; cut lines stand 6 mm apart or more
            assert all(any(abs(x - e) < near for e in edges_x) for x in xs), (paper, i, xs, edges_x)
            assert all(any(abs(y - e) < near for e in edges_y) for y in ys), (paper, i, ys, edges_y)
            assert all(any(abs(x - e) < near for x in xs) for e in edges_x), (paper, i, xs, edges_x)
            assert all(any(abs(y - e) < near for y in ys) for e in edges_y), (paper, i, ys, edges_y)


@pytest.fixture(scope="module", params=["a4", "letter"])
def folded(request, tmp_path_factory):
    import shutil

    from conftest import FIXTURES

    root = tmp_path_factory.mktemp(f"fold-{request.param}")
    shutil.copytree(FIXTURES / "duplex", root / "p")
    result = run_cli(
        "build",
        "--content",
        root / "p" / "content",
        "--out",
        root / "out",
        "--paper",
        request.param,
        "--fold",
    )
    assert result.exit_code == 0, result.output
    return request.param, root / "out" / "duplex"


@pytest.mark.parametrize(
    "deck, size_mm", [("poker", (63.5, 88.9)), ("mini", (44.45, 63.5)), ("tarot", (69.85, 120.65))]
)
def test_every_cut_mark_of_a_fold_over_sheet_lies_on_an_edge_of_a_card_on_its_page(folded, deck, size_mm):
    """The fold-over form as the duplex ones: a partial sheet (mini's last holds one card and its back) marks
    only the cut lines its fronts and backs have an edge on, and every edge of theirs is marked."""
    paper, out = folded
    w, h = size_mm[0] * MM, size_mm[1] * MM
    with pdfplumber.open(out / f"{deck}-fold.pdf") as pdf:
        for i, page in enumerate(pdf.pages):
            # a back turned half round reads backwards ("1MB")
            cards = [
                (cx, cy)
                for t, cx, cy in words(page)
                if {t[:2], t[::-1][:2]} & {"FP", "FM", "FT", "BP", "BM", "BT"}
            ]
            short = [
                ln for ln in page.lines if abs(ln["x1"] - ln["x0"]) + abs(ln["bottom"] - ln["top"]) < 10 * MM
            ]
            xs = {round(ln["x0"], 2) for ln in short if abs(ln["x0"] - ln["x1"]) < 0.01}  # not the fold line
            ys = {round(ln["top"], 2) for ln in short if abs(ln["top"] - ln["bottom"]) < 0.01}
            edges_x = [v for cx, _ in cards for v in (cx - w / 2, cx + w / 2)]
            edges_y = [v for _, cy in cards for v in (cy - h / 2, cy + h / 2)]
            near = 2 * MM
            assert cards and xs and ys, (paper, i)
            assert all(any(abs(x - e) < near for e in edges_x) for x in xs), (paper, i, sorted(xs), edges_x)
            assert all(any(abs(y - e) < near for e in edges_y) for y in ys), (paper, i, sorted(ys), edges_y)
            assert all(any(abs(x - e) < near for x in xs) for e in edges_x), (paper, i, sorted(xs), edges_x)
            assert all(any(abs(y - e) < near for y in ys) for e in edges_y), (paper, i, sorted(ys), edges_y)


@pytest.mark.parametrize("paper, size", [("a4", 24), ("letter", 18)])
def test_small_tokens_print_their_label_whole_and_clear_of_the_marks(project, tmp_path, paper, size):
    """Small square tokens put their cut marks 18-24 mm apart: the label between two of them was cut short and set
    at 3.5 pt ("Piec… · sheet 1 of 1 · fronts"). It is set whole, at 5 pt or more, below every cut mark."""
    root = project("pieces")
    with _square_tokens(root, tmp_path, paper, size, 2) as pdf:
        for page in pdf.pages:
            (line,) = [ln for ln in page.extract_text_lines(return_chars=True) if "sheet 1 of" in ln["text"]]
            assert line["text"].startswith("Pieces Test · Squares · sheet 1 of 1 · "), line["text"]
            assert min(c["size"] for c in line["chars"]) >= 5.0
            top_of_label = line["top"]
            marks_end = max(max(e["top"], e["bottom"]) for e in page.edges if e["orientation"] == "v")
            assert top_of_label >= marks_end - 0.01  # every vertical mark ends above the label


@pytest.mark.parametrize("paper, size, bleed", [("a4", 28, 2), ("letter", 24, 2), ("a4", 14, 1.5)])
def test_a_label_cut_short_keeps_the_deck_name_not_the_game_name(project, tmp_path, paper, size, bleed):
    """Square tokens that fill the paper to its margin leave no lane for the label: it goes between two marks,
    cut. What it keeps of the names is the deck's, whole where it fits ("Garden tiles · sheet 1 of 1 · fronts",
    not "Elements of the Gods… · sheet 1 of 1 · fronts"), and never a stub like "R…"; fronts and backs alike."""
    root = project("pieces")
    game = root / "content" / "pieces" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("title: Pieces Test", "title: A Game Whose Title Runs Long"),
        encoding="utf-8",
    )
    full = plan_sheet(paper, size * MM, size * MM, bleed * MM).per_sheet  # a full sheet: no row left empty
    with _square_tokens(root, tmp_path, paper, size, bleed, full) as pdf:
        for page, side in zip(pdf.pages, ("fronts", "backs")):
            grey = [c for c in page.chars if _is_label_grey(c)]  # the label, set along or up the margin
            text = "".join(c["text"] for c in grey)
            assert "Game" not in text and "…" not in text, text  # the game's name goes whole, and first
            whole = f"Squares · sheet 1 of 1 · {side}" if size > 20 else f"sheet 1 of 1 · {side}"
            assert text == whole, text
            e = 0.5  # pt: a glyph's box runs a hair past its ink (the font's whole descent)
            for c in grey:  # inside the printer margin
                assert MARGIN - e <= c["x0"] and c["x1"] <= page.width - MARGIN + e, (text, c["x0"])
                assert MARGIN - e <= c["top"] and c["bottom"] <= page.height - MARGIN + e, (text, c["top"])


@pytest.mark.parametrize(
    "paper, size, bleed, duplex",
    fast_once([(p, s, b, d) for p, s, b in (("a4", 28, 2), ("letter", 14, 1.5)) for d in ("short", "long")]),
)
def test_a_partial_sheet_sets_its_label_whole_below_its_last_faces(
    project, tmp_path, paper, size, bleed, duplex
):
    """Pieces that fill the paper to its margin leave no lane for the label: on a full sheet it is cut short between
    two marks (above). A sheet whose last rows are empty sets it whole, at 7 pt, in the first of them, just below
    the last faces' bleed and clear of every mark, on its fronts and on its backs however the sheet turns."""
    root = project("pieces")
    plan = plan_sheet(paper, size * MM, size * MM, bleed * MM)
    count = plan.per_sheet - plan.cols - 1  # the last row empty, the one above it all but one
    with _square_tokens(root, tmp_path, paper, size, bleed, count, "--duplex", duplex) as pdf:
        for page, side in zip(pdf.pages, ("fronts", "backs")):
            (line,) = [ln for ln in page.extract_text_lines(return_chars=True) if "sheet 1 of" in ln["text"]]
            assert line["text"] == f"Pieces Test · Squares · sheet 1 of 1 · {side}", line["text"]
            assert min(c["size"] for c in line["chars"]) >= 7.0 - 0.01
            faces = [r for r in page.rects if r["width"] > size * MM * 0.9 and r["height"] > size * MM * 0.9]
            assert faces, side
            x0, x1, top, bottom = line["x0"], line["x1"], line["top"], line["bottom"]
            marks = [e for e in page.edges if max(e["width"], e["height"]) < 10 * MM]
            for m in marks:  # no mark crosses the label's line
                assert m["x1"] <= x0 or m["x0"] >= x1 or m["bottom"] <= top or m["top"] >= bottom, (side, m)
            last = min(r["top"] for r in faces) if (side == "backs" and duplex == "short") else None
            if last is None:  # upright: the label stands below the lowest face and its bleed
                assert top >= max(r["bottom"] for r in faces) - 0.01, side
            else:  # turned half round: above the highest
                assert bottom <= last + 0.01, side
            assert MARGIN <= top and bottom <= page.height - MARGIN


def _square_tokens(root, out, paper: str, size: float, bleed: float, count: int = 12, *more: str):
    """The pieces fixture's square tokens (`count` of them) at `size` mm with `bleed` mm, built on `paper` (with
    the options `more`): their PDF, opened."""
    squares = root / "content" / "pieces" / "tiles" / "squares.yaml"
    text = squares.read_text(encoding="utf-8").replace("size: 15mm", f"size: {size}mm\nbleed: {bleed}mm")
    squares.write_text(text.replace("count: 12", f"count: {count}"), encoding="utf-8")
    result = run_cli("build", "--out", out, "--paper", paper, "--no-print-all", *more, cwd=root)
    assert result.exit_code == 0, result.output
    return pdfplumber.open(out / "pieces" / ("squares-short.pdf" if "short" in more else "squares.pdf"))


def _is_label_grey(char) -> bool:
    """A character drawn in the margin label's grey, #555555."""
    colour = char.get("non_stroking_color") or ()
    return len(colour) == 3 and all(abs(v - 0x55 / 255) < 0.01 for v in colour)


@pytest.mark.slow  # 300 labels drawn and read back
def test_a_label_sized_to_fill_its_room_is_printed_whole(tmp_path):
    """A label is set at the size that fills its room when that is the smallest (`length / width`): 0.01 pt of
    rounding then cut it ("Elements of the Go… · shared sheet 1 of 3: ... · backs" on Letter, its fronts whole).
    Labels of every kind, each in 60 rooms from 55 % to 98 % of its width at 7 pt, read back from the PDF whole."""
    from pnpgen.render.sheets import PdfWriter
    from pnpgen.text.fonts import unit_width

    texts = [
        "Elements of the Gods · shared sheet 1 of 3: Monument cards, Garden cards, Divinity cards · backs",
        "Elements of the Gods · shared sheet 1 of 3: Monument cards, Garden cards, Divinity cards · fronts",
        "7 Gods · Personal objective cards · sheet 1 of 2 · fronts",
        "River · Belief cards · sheet 1 of 9 · fold on the dashed line, then cut",
        "Deity · Game board · page 1-2 (row 1 of 2, column 1 of 2) · true size",
    ]
    path = tmp_path / "labels.pdf"
    writer = PdfWriter(path, (216 * MM, 279 * MM), "labels", "labels", {})
    for text in texts:
        for k in range(60):
            length = unit_width(text, "sans") * 7 * (0.55 + k * 0.0073)
            writer._label(Label(108 * MM, 100 * MM, length, 9 * MM, False), text)
            writer.c.showPage()
    writer.save()
    with pdfplumber.open(path) as pdf:
        read = [page.extract_text() for page in pdf.pages]
    assert [r for r, text in zip(read, (t for t in texts for _ in range(60))) if r != text] == []
