"""Rulebook diagrams from data (`diagrams/<id>.yaml`), measured in the written rulebook: the pieces' own faces on
their cells, arrows, labels and crossed cells; and a rebuild redraws the rulebook only when what it shows changes.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from conftest import fast_once, run_cli

SUPPORT = Path(__file__).parent / "broken" / "support"
MM = 72 / 25.4


@pytest.fixture
def diagram_game(project):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text((SUPPORT / "diagram-rulebook.md").read_text())
    (game / "diagrams").mkdir()
    (game / "diagrams" / "table.yaml").write_text((SUPPORT / "diagram-table.yaml").read_text())
    return root


def build(root):
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    return result


def diagram_page(pdf_path: Path):
    """(page number, the caption's words, every word of the page) of the page holding the diagram."""
    with pdfplumber.open(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages):
            words = page.extract_words()
            first = [w for w in words if w["text"] == "Two"]
            if first:
                caption = [w for w in words if abs(w["top"] - first[0]["top"]) < 1]
                return i, caption, words, page.height
    raise AssertionError("no page holds the diagram's caption")


def test_a_diagram_places_the_pieces_faces_on_their_cells(diagram_game):
    build(diagram_game)
    pdf = diagram_game / "out" / "sample" / "rulebook.pdf"
    index, caption, words, height = diagram_page(pdf)
    top_of_caption = min(w["top"] for w in caption)
    # the area is 3 x 40 mm + 2 x 5 mm wide = 130 mm, 2 x 40 + 10 = 90 mm high, printed at its true width
    # (`width: 130mm`), so it ends 90 mm above the caption's line
    above = [w for w in words if top_of_caption - 95 * MM < w["top"] < top_of_caption]
    texts = " ".join(w["text"] for w in above)
    assert "Ash" in texts and "Walker" in texts  # card 1's face, drawn from its layout
    assert "Tide" in texts and "Caller" in texts  # card Tide Caller (by name)
    assert "move" in texts and "here" in texts  # the arrow's label and the label
    ash = next(w for w in above if w["text"] == "Ash")
    tide = next(w for w in above if w["text"] == "Tide")
    # A1 and B1 are one 40 mm column apart, both in row 1
    assert abs((tide["x0"] - ash["x0"]) - 40 * MM) < 3 * MM
    assert abs(tide["top"] - ash["top"]) < 2 * MM
    here = next(w for w in above if w["text"] == "here")
    assert abs((here["x0"] + here["x1"]) / 2 - ((ash["x0"] + ash["x1"]) / 2 + 80 * MM)) < 12 * MM
    # the crossed cell C1 shows red ink; the plain area around it does not
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[index].render(scale=2).to_pil().convert("RGB")
    k = 2  # pixels per point
    cx = ((ash["x0"] + ash["x1"]) / 2 + 80 * MM) * k
    cy = (ash["top"] + 2 * MM) * k
    box = image.crop(
        (int(cx - 12 * MM * k), int(cy - 12 * MM * k), int(cx + 12 * MM * k), int(cy + 12 * MM * k))
    )
    reds = sum(1 for r, g, b in box.get_flattened_data() if r > 150 and g < 80 and b < 80)
    assert reds > 200, reds
    doc.close()


def test_the_rulebook_is_redrawn_when_a_shown_card_changes_and_only_then(diagram_game):
    def stamp():
        return pdf.stat().st_mtime_ns, pdf.stat().st_ino

    pdf = diagram_game / "out" / "sample" / "rulebook.pdf"
    diagram = diagram_game / "content" / "sample" / "diagrams" / "table.yaml"
    heroes = diagram_game / "content" / "sample" / "decks" / "heroes.yaml"
    shown = diagram.read_text()
    diagram.write_text(shown.replace("  - {piece: heroes, card: Tide Caller, at: B1, size: 30mm}\n", ""))
    build(diagram_game)
    before = stamp()
    heroes.write_text(heroes.read_text().replace("when a neighbour", "when a friend"))  # card 2: not shown
    build(diagram_game)
    assert stamp() == before
    diagram.write_text(shown)  # now card 2 is placed on B1
    build(diagram_game)
    assert stamp() != before
    again = stamp()
    heroes.write_text(heroes.read_text().replace("Gain :drop:", "Take :drop:"))  # the shown card's text
    build(diagram_game)
    assert stamp() != again
    _, _, words, _ = diagram_page(pdf)
    assert "Take" in {w["text"] for w in words}


def test_a_cover_file_added_later_redraws_the_rulebook_in_its_colours(diagram_game):
    build(diagram_game)
    pdf = diagram_game / "out" / "sample" / "rulebook.pdf"
    before = pdf.stat().st_mtime_ns, pdf.stat().st_ino
    cover = diagram_game / "content" / "sample" / "cover.yaml"
    cover.write_text("background: sea\nink: '#ffffff'\naccent: ember\nart: table\n")
    build(diagram_game)
    assert (pdf.stat().st_mtime_ns, pdf.stat().st_ino) != before
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[0].render(scale=1).to_pil().convert("RGB")
    doc.close()
    assert image.getpixel((int(6 * MM), int(6 * MM))) == (0x1F, 0x6F, 0xB2)  # the palette's sea
    with pdfplumber.open(pdf) as book:  # the art: the diagram's hero cards, drawn from their layouts
        words = {w["text"] for w in book.pages[0].extract_words()}
    assert {"Ash", "Walker", "Tide", "Caller", "Sample", "Game"} <= words


@pytest.mark.parametrize(
    "filler", fast_once([22, 28, 34])
)  # without the keeping, each left the heading at a foot
def test_a_heading_stays_with_the_diagram_it_introduces(diagram_game, filler):
    words = " ".join(["word"] * 14)
    text = "\n\n".join(f"{words} {i}." for i in range(filler))  # the heading lands near a page's foot
    rulebook = diagram_game / "content" / "sample" / "rulebook.md"
    rulebook.write_text(f"# Sample\n\n## Play\n\n{text}\n\n### The table\n\n{{{{ diagram('table') }}}}\n")
    build(diagram_game)
    with pdfplumber.open(diagram_game / "out" / "sample" / "rulebook.pdf") as pdf:
        pages = [  # the heading itself, not the running header above the page's text
            i
            for i, p in enumerate(pdf.pages)
            if "table" in {w["text"] for w in p.extract_words() if w["top"] > 16 * MM}
        ]
        index, _, _, _ = diagram_page(diagram_game / "out" / "sample" / "rulebook.pdf")
    assert pages[-1] == index  # the heading's page (not the contents) is the diagram's


def test_cover_and_diagram_colours_may_be_cmyk(diagram_game):
    """A colour is taken as `cmyk()` wherever one is taken: the cover's ground and a diagram label's ink."""
    sample = diagram_game / "content" / "sample"
    (sample / "cover.yaml").write_text("background: cmyk(100, 0, 0, 0)\nink: '#ffffff'\naccent: ember\n")
    table = sample / "diagrams" / "table.yaml"
    table.write_text(
        table.read_text().replace(
            '{at: C2, text: "here"}', '{at: C2, text: "here", colour: "cmyk(0, 100, 0, 0)"}'
        )
    )
    build(diagram_game)
    pdf = diagram_game / "out" / "sample" / "rulebook.pdf"
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[0].render(scale=1).to_pil().convert("RGB")
    doc.close()
    r, g, b = image.getpixel((int(6 * MM), int(6 * MM)))
    assert r < 40 and g > 120 and b > 200, (r, g, b)  # cyan ink, drawn as CMYK (pdfium shows 0 174 239)
    import pikepdf

    with pikepdf.open(pdf) as book:
        streams = b"".join(
            x.read_bytes() for p in book.pages for _, x in p.Resources.get("/XObject", {}).items()
        ) + b"".join(
            p.Contents.read_bytes() if not isinstance(p.Contents, pikepdf.Array) else b"" for p in book.pages
        )
    assert b"1 0 0 0 k" in streams and b"0 1 0 0 k" in streams


def test_an_arrows_label_is_printed_beside_its_arrow_not_over_it(diagram_game):
    from pnpgen.rulebook.crops import box_meets_segment

    build(diagram_game)
    pdf_path = diagram_game / "out" / "sample" / "rulebook.pdf"
    index, _, words, _ = diagram_page(pdf_path)
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[index]
        shafts = [
            ln
            for ln in page.lines
            if abs(ln["x1"] - ln["x0"]) > 20 and abs(ln["bottom"] - ln["top"]) > 20  # A1 to B2: diagonal
        ]
    assert shafts, "the arrow's shaft is not on the page"
    move = next(w for w in words if w["text"] == "move")
    cx, cy = (move["x0"] + move["x1"]) / 2, (move["top"] + move["bottom"]) / 2
    hw, hh = (move["x1"] - move["x0"]) / 2, (move["bottom"] - move["top"]) / 2
    for ln in shafts:  # pdfplumber: top-down coordinates for both the words and the line's points
        (x1, y1), (x2, y2) = ((p[0], page.height - p[1]) for p in (ln["pts"][0], ln["pts"][-1]))
        if ln["pts"][0][1] == ln["top"] or ln["pts"][0][1] == ln["bottom"]:
            (x1, y1), (x2, y2) = ln["pts"][0], ln["pts"][-1]
        assert not box_meets_segment(cx, cy, hw, hh, x1, y1, x2, y2), (move, ln["pts"])


def test_a_view_may_cut_a_piece_when_it_says_which_part_is_shown(diagram_game):
    table = diagram_game / "content" / "sample" / "diagrams" / "table.yaml"
    table.write_text(table.read_text() + "view: {x: 0mm, y: 0mm, w: 60mm, h: 90mm}\n")
    result = run_cli("build", "--out", "out", cwd=diagram_game)
    assert result.exit_code == 1 and "the diagram's view cuts this piece in half" in result.output
    assert "content/sample/diagrams/table.yaml:6:5" in result.output  # Tide Caller, on B1
    table.write_text(table.read_text() + "part: the hero on the right is cut at its middle\n")
    build(diagram_game)
    with pdfplumber.open(diagram_game / "out" / "sample" / "rulebook.pdf") as pdf:
        text = " ".join((p.extract_text() or "") for p in pdf.pages)
    assert "the hero on the right is cut at its" in " ".join(text.split())


@pytest.mark.parametrize(
    "width, line, message",
    [
        ("63mm", 6, "the diagram's view cuts the words 'Tide Caller' printed on this piece"),  # B1, mid-title
        ("103mm", 10, "the diagram's view cuts the label 'here'"),  # C2's label; both heroes whole
    ],
    ids=["a-piece's-words", "a-label"],
)
def test_part_excuses_a_cut_piece_but_never_cut_words(diagram_game, width, line, message):
    # `part:` says which part of a piece is shown; a word the view cuts in half (on the piece, or a label)
    # still reads as a typo on the page (River's strip printed 'IVER' and 'THE I'), so it stays an error.
    table = diagram_game / "content" / "sample" / "diagrams" / "table.yaml"
    table.write_text(table.read_text() + f"view: {{x: 0mm, y: 0mm, w: {width}, h: 90mm}}\npart: cut\n")
    result = run_cli("build", "--out", "out", cwd=diagram_game)
    assert result.exit_code == 1, result.output
    assert f"content/sample/diagrams/table.yaml:{line}:5: error: {message}" in result.output, result.output
