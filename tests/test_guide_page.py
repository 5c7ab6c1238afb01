"""The print-and-build page (print-all's first), set without platypus: measured from the written PDF (pdfium's
characters and rules, with their positions) for every form of the page (paper, flip, ink, back offset): every
line inside the margins, each table cell inside its column, the rows in order, the words as typed (`&`, `<`,
`*`), a list too long for the page ending with the line that says it goes on; and the build that writes it
never imports ReportLab's platypus."""

from __future__ import annotations

import ctypes
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from conftest import MM, fast_once
from pdfium_read import lines

from pnpgen.pipeline.printall import PrintDoc, Section
from pnpgen.render.printall import guide_lines, write_print_all
from pnpgen.units import paper_pt

ROOT = Path(__file__).resolve().parent.parent
MARGIN = 15 * MM  # the page's side margins (the table's rules reach them, text stays 6 pt inside)
GOES_ON = "The list goes on: see each page's label for what it holds."
HOW = "cut on the cut marks: straight cuts right across the sheet"


class Glyph(NamedTuple):
    """A drawn character: its size, its box (left, bottom, right, top: the font's ascent to descent) and the
    height of its baseline."""

    text: str
    size: float
    box: tuple[float, float, float, float]
    baseline: float


def chars(page) -> list[Glyph]:
    """Every character the page draws (not the spaces pdfium invents between words), with its baseline."""
    text = page.get_textpage()
    matrix, rect = pdfium_c.FS_MATRIX(), pdfium_c.FS_RECTF()
    x, y = ctypes.c_double(), ctypes.c_double()
    found = []
    for k in range(text.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(text, k):
            continue
        pdfium_c.FPDFText_GetMatrix(text, k, matrix)
        pdfium_c.FPDFText_GetLooseCharBox(text, k, rect)
        pdfium_c.FPDFText_GetCharOrigin(text, k, x, y)
        size = pdfium_c.FPDFText_GetFontSize(text, k) * math.hypot(matrix.c, matrix.d)
        box = (rect.left, rect.bottom, rect.right, rect.top)
        found.append(Glyph(chr(pdfium_c.FPDFText_GetUnicode(text, k)), round(size, 2), box, y.value))
    return found


def doc_of(sections, paper="a4", flip="long", low=False, offset=(0.0, 0.0, 0.0), title="Test", supply=()):
    return PrintDoc(title, paper, flip, offset, low, tuple(supply), sections, 9, True, pages=2)


def rows_of(n: int, title=lambda k: f"Deck {k} ({k * 3} cards)", how=HOW) -> list[Section]:
    return [Section("cards", title(k), how, first=2 * k + 1, last=2 * k + 2) for k in range(1, n + 1)]


def page_one(tmp_path: Path, doc: PrintDoc):
    path = tmp_path / "print-all.pdf"
    assert write_print_all(path, doc, {}) >= 1
    pdf = pdfium.PdfDocument(path)
    page = pdf[0]
    return list(chars(page)), lines(page), page.get_size()


def text_lines(found) -> list[str]:
    """The page's characters as lines of text, top down (a line: one baseline, characters left to right)."""
    rows: dict = {}
    for ch in found:
        rows.setdefault(round(ch.baseline, 1), []).append(ch)
    out = []
    for y in sorted(rows, reverse=True):
        line, last = "", None
        for ch in sorted(rows[y], key=lambda c: c.box[0]):
            if (
                last is not None
                and ch.box[0] - last.box[2] > 0.2 * ch.size
                and " " not in (ch.text, last.text)
            ):
                line += " "  # words set as runs of their own (a fallback font's character): a space apart
            line, last = line + ch.text, ch
        out.append(line)
    return out


def assert_inside_margins(found, pw: float, ph: float) -> None:
    for ch in found:
        if ch.size < 8:  # the page number and the "goes on" line stand in the bottom margin, inside the sides
            assert MARGIN - 0.5 <= ch.box[0] and ch.box[2] <= pw - MARGIN + 0.5 and ch.box[1] >= 0, ch
            continue
        assert MARGIN + 6 - 0.5 <= ch.box[0] and ch.box[2] <= pw - MARGIN - 6 + 0.5, ch
        assert 12 * MM <= ch.box[1] and ch.box[3] <= ph - 15 * MM + 2, ch


def table_cells(found, rules, pw: float) -> list[tuple[str, str, str]]:
    """The table read back: its columns from the header's words, its rows between its rules, each cell's text
    (its lines joined by a space); asserts that every character of a cell stands inside its column."""
    accent = [r for r in rules if r.rgb == (122, 59, 29)]
    assert len(accent) == 1, accent  # the header's rule, in the accent colour
    head = accent[0]
    assert (
        abs(head.x0 - MARGIN) < 0.5 and abs(head.x1 - (pw - MARGIN)) < 0.5
    )  # across the table, margin to margin
    header = [ch for ch in found if head.y0 < ch.box[1] < head.y0 + 14 and ch.size == 8.5]
    starts = []
    for word in ("Pages", "What", "Then"):
        line = "".join(c.text for c in sorted(header, key=lambda c: c.box[0]))
        at = line.index(word)
        starts.append(sorted(header, key=lambda c: c.box[0])[at].box[0])
    columns = [(starts[0], starts[1] - 12), (starts[1], starts[2] - 12), (starts[2], pw - MARGIN - 6)]
    below = sorted((r.y0 for r in rules if r.rgb == (201, 194, 182) and r.y0 < head.y0), reverse=True)
    cells = []
    for top, bottom in zip([head.y0, *below], below):
        row = [ch for ch in found if bottom < ch.box[1] < top and ch.size == 8.5]
        texts = []
        for left, right in columns:
            mine = [ch for ch in row if left - 0.5 <= ch.box[0] < right]
            for ch in mine:
                assert ch.box[2] <= right + 0.5, (ch, right)  # wrapped inside its column
            texts.append(" ".join(text_lines(mine)))
        assert sum(len(t) for t in texts) == sum(1 for ch in row if ch.text != " ") + sum(
            t.count(" ") for t in texts
        )  # every character of the row is in one of its columns
        cells.append(tuple(" ".join(t.split()) for t in texts))
    return cells


FORMS = [
    (paper, flip, low, offset)
    for paper in ("a4", "letter")
    for flip in ("long", "short", "none")
    for low, offset in ((False, (0.0, 0.0, 0.0)), (True, (1.5 * MM, -0.8 * MM, 0.3)))
]


@pytest.mark.parametrize(("paper", "flip", "low", "offset"), FORMS)
def test_every_form_of_the_page_says_its_words_inside_the_margins_and_the_table_in_order(
    tmp_path, paper, flip, low, offset
):
    supply = ["a cloth bag for the Well of Wonders", "four six-sided dice"]
    sections = rows_of(3) + [
        Section(
            "pieces", "Shared sheets of tiles and tokens: " + ", ".join(f"Set {k}" for k in range(12)), "x"
        )
    ]
    sections[-1].first, sections[-1].last = 9, 9
    doc = doc_of(sections, paper, flip, low, offset, supply=supply)
    found, rules, (pw, ph) = page_one(tmp_path, doc)
    assert (pw, ph) == pytest.approx(paper_pt(paper))
    assert_inside_margins(found, pw, ph)
    words = guide_lines(doc)
    said = " ".join(text_lines(found))
    for line in [*words["how"], *words["tools"], *words["supply"], *words["tail"]]:
        assert " ".join(line.split()) in said, line  # each line of the words, whole and in its order of words
    assert said.index("How to print") < said.index("What is on which pages") < said.index("What you need")
    assert said.index("What you need") < said.index("From home, as well") < said.index(words["tail"][0])
    assert GOES_ON not in said
    assert table_cells(found, rules, pw) == [tuple(" ".join(c.split()) for c in row) for row in words["rows"]]
    title = [ch for ch in found if ch.size == 20]
    assert "".join(c.text for c in title) == "Test: print and build"


def test_a_list_too_long_for_the_page_draws_the_rows_that_fit_in_order_and_says_it_goes_on(tmp_path):
    doc = doc_of(rows_of(60))
    found, rules, (pw, ph) = page_one(tmp_path, doc)
    assert_inside_margins(found, pw, ph)
    cells = table_cells(found, rules, pw)
    want = [tuple(" ".join(c.split()) for c in row) for row in guide_lines(doc)["rows"]]
    assert 10 < len(cells) < 60 and cells == want[: len(cells)]  # the first rows, whole, none skipped
    said = text_lines(found)
    assert said[-2:] == [GOES_ON, "page 1"]  # below the last row: the note, then the page number
    assert "What you need" not in said  # nothing after a block that did not fit


@pytest.mark.parametrize(
    "title",
    fast_once(["Tom & Jerry <3> *bold* :star: a<b>&amp;", "Forty-two > 41 & \u2212 1 \u2192 \u2605"]),
)
def test_a_games_words_print_as_typed(tmp_path, title):
    """No markup is read in a game's title, a section's name or a supply line: `&`, `<`, `*` and `:name:` print
    as typed; a character the sans lacks is set in the fallback font that has it."""
    doc = doc_of(rows_of(1, title=lambda k: title), supply=[title], title=title)
    found, rules, (pw, ph) = page_one(tmp_path, doc)
    said = text_lines(found)
    assert " ".join(text_lines([ch for ch in found if ch.size == 20])) == f"{title}: print and build"
    assert f"\u2022 {title}" in said  # the supply line, after its bullet
    assert table_cells(found, rules, pw)[0][1] == title


def test_a_word_wider_than_its_column_is_broken_inside_it(tmp_path):
    long = "Supercalifragilisticexpialidocious" * 3
    doc = doc_of(rows_of(2, title=lambda k: long, how=long), supply=[long], title=long)
    found, rules, (pw, ph) = page_one(tmp_path, doc)
    assert_inside_margins(found, pw, ph)
    cells = table_cells(found, rules, pw)  # inside their columns, and every character of them there
    assert [c[1].replace(" ", "") for c in cells] == [long, long]
    assert "".join(ch.text for ch in found if ch.size == 20).replace(" ", "") == long + ":printandbuild"


@pytest.mark.parametrize("start", fast_once(["platform", "spawn"]))
def test_writing_print_all_for_a_game_without_rulebook_or_art_never_imports_platypus(tmp_path, start):
    """Every process of the build (the one that writes print-all.pdf too) reports its imports (`-X importtime`,
    which forked and spawned workers inherit): platypus and ReportLab's paragraph styles only when a rulebook is
    written. On the platform's way of starting workers, and on the portable one (spawn)."""
    game = tmp_path / "content" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\ntitle: G & <G>\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: front\ncards:\n  - name: Ash\n  - name: Elm\n"
    )
    (game / "layouts" / "front.yaml").write_text(
        "elements:\n  - type: text\n    x: 5\n    y: 5\n    w: 50\n    h: 10\n    text: '{{ card.name }}'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PNPGEN_START_METHOD": "" if start == "platform" else start}
    for rulebook in (False, True):
        if rulebook:
            (game / "rulebook.md").write_text("# Rules\n\nEach player takes a card.\n")
        built = subprocess.run(
            [
                sys.executable,
                "-X",
                "importtime",
                "-m",
                "pnpgen",
                "build",
                "--content",
                "content",
                "--out",
                "out",
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert built.returncode == 0, built.stdout + built.stderr
        assert len(pdfium.PdfDocument(tmp_path / "out" / "g" / "print-all.pdf")) >= 3
        imported = {line.rsplit("|", 1)[-1].strip() for line in built.stderr.splitlines() if "|" in line}
        drawn = {m for m in imported if m.startswith(("reportlab.platypus", "reportlab.lib.styles"))}
        assert bool(drawn) == rulebook, sorted(
            drawn
        )  # the rulebook's process imports them: the check can fail
