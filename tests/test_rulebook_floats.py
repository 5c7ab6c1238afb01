"""A figure that does not fit the room left on a page leaves no half-empty page when text of its chapter could
fill it (`render/floats.py`): it is set a little smaller, or the text after it floats up before it, and a
components' gallery never ends in one picture alone. Read back from the written PDFs (`tests/pagebreaks.py`:
`float_faults`), over the five shipped books on A4 and Letter and small books that break without the floats."""

from __future__ import annotations

import pytest
from conftest import fast_first, run_cli
from pagebreaks import empty_share, faults, float_faults, pages
from test_rulebook_breaks import GAMES, filler, written

TALL = """caption: "A tall table"
width: 130mm
grid: {cols: 3, rows: 4, cell: 40mm, x: 5mm, y: 5mm}
pieces:
  - {piece: heroes, card: Ash Walker, at: A1, size: 30mm}
"""


@pytest.fixture(scope="module")
def letter_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("letter")
    result = run_cli("build", "--paper", "letter", "--no-print-all", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


HALF = 0.5  # no page but a book's last is more than half empty, whatever opens the next


def held(book) -> list[str]:
    return float_faults(book) + [
        f"page {p.number}: {empty_share(p):.0%} empty" for p in pages(book)[:-1] if empty_share(p) > HALF
    ]


@pytest.mark.parametrize("game", fast_first(GAMES, fast="deity"))
def test_no_shipped_a4_page_is_left_empty_above_a_figure(shipped_build, game):
    assert held(shipped_build / game / "rulebook.pdf") == []


@pytest.mark.slow  # a build of the five games on Letter
@pytest.mark.parametrize("game", GAMES)
def test_no_shipped_letter_page_is_left_empty_above_a_figure(letter_build, game):
    assert held(letter_build / game / "rulebook.pdf") == []


def after(k: int, start: int = 0) -> str:
    return "\n\n".join(f"After the figure, line {i}." for i in range(start, start + k))


# what follows (or opens with) the tall figure: text, a section with a lead-in and its list, a section opening
# with the figure
AFTER = {
    "text": lambda: f"{{{{ diagram('tall') }}}}\n\n{after(25)}",
    "section": lambda: (
        "{{ diagram('tall') }}\n\n### Parts\n\nThe parts, in order:\n\n"
        + "\n".join(f"- After the figure, line {i}." for i in range(8))
        + f"\n\n{after(6, 8)}"
    ),
    "opens": lambda: f"### The table\n\n{{{{ diagram('tall') }}}}\n\n{after(25)}",
    "lead-in": lambda: f"The table, as it is set out:\n\n{{{{ diagram('tall') }}}}\n\n{after(25)}",
}


def tall_book(tmp_path, k: int, name: str, case: str = "text"):
    diagrams = tmp_path / "basic" / "content" / "sample" / "diagrams"
    if not diagrams.exists():
        written(tmp_path, "Text.", "seed")  # copies the fixture game
        diagrams.mkdir()
        (diagrams / "tall.yaml").write_text(TALL)
    return written(tmp_path, f"{filler(k)}\n\n{AFTER[case]()}\n\n## Next\n\n{filler(10)}\n", name)


def out_of_order(pdf) -> list[str]:
    """What the floats may never do: text that followed the figure set above it on its page, or out of order."""
    book = pages(pdf)
    at = next(p for p in book if any(line.text == "Atalltable" for line in p.lines))
    top = max(box[3] for box in at.boxes)
    found = [
        f"page {at.number}: {line.text!r} above the figure"
        for line in at.lines
        if line.y > top and "After" in line.text
    ]
    numbers = [
        int(line.text.rstrip(".").rsplit("line", 1)[1])
        for p in book
        for line in p.lines
        if "Afterthefigure" in line.text
    ]
    if numbers != sorted(numbers):
        found.append(f"the text after the figure out of order: {numbers}")
    return found


SWEEP = range(12, 42, 3)  # filler lines before the figure: it no longer fits the first page's room left


def unfloated(monkeypatch) -> None:
    """Take the floats out: a figure that does not fit moves on whole, at its size."""
    from pnpgen.render import book
    from pnpgen.render.diagram import DiagramFlowable

    monkeypatch.setattr(book, "floated", lambda story: story)
    monkeypatch.setattr(DiagramFlowable, "shrunk", lambda self, height: None)


@pytest.mark.slow  # sixty small books
@pytest.mark.parametrize("case", ["opens", "section", "text"])
def test_a_tall_figure_lets_its_text_float_up_and_fails_without(tmp_path, monkeypatch, case):
    books = {k: tall_book(tmp_path, k, f"float-{case}-{k}", case) for k in SWEEP}
    found = {k: float_faults(b) + faults(b) + out_of_order(b) for k, b in books.items()}
    assert all(f == [] for f in found.values()), found
    unfloated(monkeypatch)
    broken = {k: float_faults(tall_book(tmp_path, k, f"sunk-{case}-{k}", case)) for k in SWEEP}
    assert any(found for found in broken.values()), broken


def test_text_after_a_tall_figure_fills_the_page_before_it(tmp_path):
    """Too tall to fit even set smaller: the first page is filled with the text that followed the figure, in its
    order, and the figure opens the second page; set a little smaller, one a few lines shorter stays put."""
    book = pages(tall_book(tmp_path, 18, "order"))
    lines = [line.text for line in book[0].lines[1:]]
    numbers = [int(t.rstrip(".").rsplit("number" if "filler" in t else "line", 1)[1]) for t in lines]
    assert all("filler" in t for t in lines[:18]) and all("Afterthefigure" in t for t in lines[18:]), lines
    assert numbers[:18] == list(range(18)) and numbers[18:] == list(range(len(numbers) - 18)), numbers
    assert len(numbers) > 20 and empty_share(book[0]) < 0.05
    assert book[1].boxes and max(b[3] for b in book[1].boxes) > max(line.y for line in book[1].lines)
    shrunk = pages(tall_book(tmp_path, 12, "shrunk"))
    assert shrunk[0].boxes and shrunk[0].lines[-1].text == "Atalltable"  # its caption, on the first page


def test_a_figure_a_little_too_tall_is_set_smaller_on_the_same_page():
    from types import SimpleNamespace

    from pnpgen.render.diagram import DiagramFlowable
    from pnpgen.render.flowables import SHRINK

    plan = SimpleNamespace(view=(0, 0, 300.0, 400.0), width_pt=300.0, caption="", board=None)
    fig = DiagramFlowable(plan, {}, 400.0)
    assert fig.split(400.0, fig.height * 0.9)[0].height <= fig.height * 0.9  # shrunk to fit
    assert fig.split(400.0, fig.height * (SHRINK - 0.05)) == []  # not below the bound: moved on whole


@pytest.mark.parametrize(
    ("widths", "rows"),
    [
        ([50.0] * 5, [[0, 1], [2, 3, 4]]),  # a last picture alone joins the row before when three fit
        ([150.0] * 5, [[0, 1], [2, 3], [4]]),  # too wide for three: it stays (kept with the row before)
        ([50.0] * 4, [[0, 1], [2, 3]]),
        ([50.0], [[0]]),
    ],
)
def test_a_gallery_never_ends_in_one_picture_alone(widths, rows):
    from pnpgen.render.flowables import gallery_rows

    assert gallery_rows(widths, 480.0) == rows


@pytest.mark.slow  # 32 small books
def test_a_gallery_s_last_picture_never_opens_a_page_alone(tmp_path, monkeypatch):
    """Three components, the third alone on its row and too narrow for the first to share it: wherever filler puts
    the gallery's end, the page holding the last picture holds the row before it too (without the keeping, some
    amount of filler leaves it alone)."""
    decks = tmp_path / "basic" / "content" / "sample" / "decks"
    written(tmp_path, "Text.", "seed")  # copies the fixture game
    minis = (decks / "minis.yaml").read_text()
    (decks / "extras.yaml").write_text(
        minis.replace("id: minis", "id: extras").replace("Mini cards", "Extras")
    )
    game = decks.parent / "game.yaml"
    game.write_text(game.read_text() + "  - decks/extras.yaml\n")

    def lone(name: str) -> list[int]:
        alone = []
        for k in range(0, 48, 3):
            pdf = written(
                tmp_path, f"{filler(k)}\n\n{{{{ component_table() }}}}\n\n{filler(5)}\n", f"{name}{k}"
            )
            captions = [
                (p.number, line.text) for p in pages(pdf) for line in p.lines if round(line.size, 1) == 7.5
            ]
            assert len(captions) == 3, captions
            if captions[-1][0] != captions[-2][0]:
                alone.append(k)
        return alone

    assert lone("kept") == []
    from pnpgen.render import book

    monkeypatch.setattr(
        book, "kept_end", lambda gallery: gallery
    )  # the last row no longer kept with the one before
    assert lone("alone") != []


@pytest.mark.slow  # 25 small books
def test_a_figure_led_in_a_little_too_tall_is_set_smaller_beside_its_lead_in(tmp_path, monkeypatch):
    """A lead-in ending in a colon keeps its figure (`keep.bound`); when only the figure does not fit, and would
    at 85% of its size, it is set smaller there, beside its lead-in, rather than taking it to the next page."""

    def shrunk_here(name: str) -> list[int]:
        found = []
        for k in range(2, 14):
            book = pages(tall_book(tmp_path, k, f"{name}-{k}", "lead-in"))
            first = book[0]
            if any(line.text == "Atalltable" for line in first.lines) and first.boxes:
                width = max(b[2] - b[0] for b in first.boxes)
                if width < natural - 0.5 and first.lines[-2].text.startswith("Thetable"):
                    found.append(k)
        return found

    natural = max(b[2] - b[0] for b in pages(tall_book(tmp_path, 0, "natural", "lead-in"))[0].boxes)
    assert shrunk_here("kept") != []
    from pnpgen.render.diagram import DiagramFlowable

    monkeypatch.setattr(DiagramFlowable, "shrunk", lambda self, height: None)
    assert shrunk_here("whole") == []
