"""No page break of a rulebook parts what belongs together (issue 30, item 4), read back from the written PDFs
(`tests/pagebreaks.py`): no heading ends a page, a list leaves no item alone on a page beside the rest of it and
stays with its lead-in, no paragraph leaves one line alone at a page's top or foot, and no page's only text is
one short block (a note, a table's last rows).

Every page of the five shipped books is held to it, and small books made to break each of these ways: built with
the keeping taken out (`keep.bound`, `keep.KeptTable`, `keep.tail`, `RichText.lines_kept`), they break, so the
check can fail; built as pnpgen builds them, they do not.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, fast_first, fast_once
from pagebreaks import faults, pages

GAMES = ["deity", "elements-of-the-gods", "orbis", "river", "seven-gods"]


@pytest.mark.parametrize("game", fast_first(GAMES, fast="elements-of-the-gods"))
def test_no_page_break_of_a_shipped_rulebook_parts_what_belongs_together(shipped_build, game):
    book = shipped_build / game / "rulebook.pdf"
    assert len(pages(book)) >= 8  # the body's pages were read
    assert faults(book) == []


def filler(k: int) -> str:
    return "\n\n".join(f"A line of filler, number {i}." for i in range(k))


WORDS = "the players take turns in order and each does the thing this rule asks of them before play goes on"
# each book: filler pushes its construct down the first page; some amount of filler puts it at the page's foot
BOOKS = {
    "heading": lambda k: (
        f"{filler(k)}\n\n### Rounds\n\n#### Before the round\n\n> **Example:** {WORDS}, {WORDS}, {WORDS}.\n\n"
        f"{filler(30)}\n"
    ),
    "lone-item": lambda k: (
        f"{filler(k)}\n\n"
        + "\n".join(f"- Item {i}: {WORDS}." for i in range(1, 7))
        + f"\n\nAfter the list, {WORDS}.\n\n### Next\n\n{filler(30)}\n"
    ),
    "lead-in": lambda k: (
        f"{filler(k)}\n\nEach round, in this order:\n\n"
        + "\n".join(f"{i}. {WORDS}, {WORDS}." for i in range(1, 4))
        + f"\n\n{filler(30)}\n"
    ),
    "table-lead-in": lambda k: (
        f"{filler(k)}\n\n**Added in this edition**\n\n| Part | Count |\n|---|---|\n"
        + "\n".join(f"| {WORDS[: 30 + i]} | {i} |" for i in range(3))
        + f"\n\n{filler(30)}\n"
    ),
    "lone-line": lambda k: f"{filler(k)}\n\n{', '.join([WORDS] * 6)}.\n\n{filler(30)}\n",
    "short-block": lambda k: (
        f"{filler(k)}\n\nFind your result:\n\n| Score | Result |\n|---|---|\n"
        + "\n".join(f"| {i} to {i + 9} | {WORDS[:40]} |" for i in range(0, 50, 10))
        + f"\n\n> **Designer's note:** {WORDS}, {WORDS}.\n"
    ),
}
FAULT = {
    "heading": "ends the page",
    "lone-item": "alone",
    "lead-in": "parted from its list",
    "lone-line": "one line",
    "table-lead-in": "parted from the table",
    "short-block": "one short block",
}
SWEEP = range(27, 43)  # filler lines: the construct passes over the first page's foot


def written(tmp_path: Path, markdown: str, name: str) -> Path:
    """The `basic` fixture game with this rulebook, its book written in this process (so a test's patches hold)."""
    from pnpgen.errors import Diagnostics
    from pnpgen.pipeline import outputs
    from pnpgen.pipeline.jobs import Writing
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project

    root = tmp_path / "basic"
    if not root.exists():
        shutil.copytree(FIXTURES / "basic", root)
    (root / "content" / "sample" / "rulebook.md").write_text(f"# Sample\n\n## Play\n\n{markdown}")
    run = GameRun(Project(root / "content", tmp_path / "out"), root / "content" / "sample")
    diags = Diagnostics()
    run.load(diags)
    target = next(t for t in outputs.targets_of(run.game, run.sources, run.printing) if t.kind == "rulebook")
    assert target.prepare(run, diags), diags.errors
    path = tmp_path / f"{name}.pdf"
    target.write(path, "rulebook.pdf", Writing(run.game, run.icons, "a4", run.printing))
    return path


def unkept(monkeypatch) -> None:
    """Take the keeping out: no block tied to the next, paragraphs, lists and tables split anywhere, any end to
    the book."""
    from reportlab.platypus import Table

    from pnpgen.render import book, keep
    from pnpgen.render.flowables import RichText

    monkeypatch.setattr(book, "bound", lambda *args: False)
    monkeypatch.setattr(RichText, "lines_kept", 1)
    monkeypatch.setattr(keep.KeptTable, "split", Table.split)
    monkeypatch.setattr(book, "tail", lambda story, width: story)


@pytest.mark.slow  # 32 small books per case
@pytest.mark.parametrize("case", sorted(BOOKS))
def test_a_book_made_to_break_breaks_without_the_keeping_and_holds_with_it(tmp_path, monkeypatch, case):
    kept = {k: faults(written(tmp_path, BOOKS[case](k), f"kept-{k}")) for k in SWEEP}
    assert all(found == [] for found in kept.values()), {k: f for k, f in kept.items() if f}
    unkept(monkeypatch)
    broken = {k: faults(written(tmp_path, BOOKS[case](k), f"unkept-{k}")) for k in SWEEP}
    assert any(FAULT[case] in f for found in broken.values() for f in found), broken


def test_the_shipped_books_named_by_the_issue_are_mended(shipped_build):
    """Elements of the Gods: the lead-in 'What the rules fix ...' is on the page of its list's first item, and the
    book's last page holds the designer's note with rows of the result table it comments on, not the note alone."""
    book = pages(shipped_build / "elements-of-the-gods" / "rulebook.pdf")
    lead = next(p for p in book if any(line.text.startswith("Whattherulesfix") for line in p.lines))
    at = next(i for i, line in enumerate(lead.lines) if line.text.startswith("Whattherulesfix"))
    assert lead.lines[at + 1].item
    last = book[-1].lines
    note = next(i for i, line in enumerate(last) if line.text.startswith("Designer'snote"))
    assert any(round(line.size, 1) == 8.4 and line.text[0].isdigit() for line in last[:note]), last


def test_a_short_list_or_table_taller_than_a_page_still_splits(tmp_path):
    """A list of four items and a table of three rows (of up to five) move whole, unless taller than a page: then they split,
    keeping two items each side, and the book is written (no layout error)."""
    items = "\n".join(f"- Item {i}: " + ", ".join([WORDS] * 22) + "." for i in range(4))
    rows = "\n".join(f"| {i} | " + ", ".join([WORDS] * 12) + " |" for i in range(3))
    for k in (0, 20, 35):
        book = written(
            tmp_path, f"{filler(k)}\n\n### A long list\n\n{items}\n\n| A | B |\n|---|---|\n{rows}\n", f"{k}"
        )
        assert faults(book) == []
        starts = [[line.text[:6] for line in p.lines if line.item] for p in pages(book)]
        assert [len(s) for s in starts if s] == [2, 2], starts


@pytest.mark.parametrize("rows", fast_once([5, 4]))
def test_a_table_of_five_rows_or_fewer_moves_to_the_next_page_whole(tmp_path, rows):
    """A short lookup table (like the result bands closing Elements of the Gods' solo rules) is never parted: for
    every amount of filler that carries it over the first page's foot, all its rows are on one page. (With three
    rows as the limit, four and five rows split, two or three on each side.)"""
    table = "| Score | Result |\n|---|---|\n" + "\n".join(
        f"| {i} to {i + 9} | band {i} |" for i in range(0, rows * 10, 10)
    )
    for k in SWEEP:
        book = written(tmp_path, f"{filler(k)}\n\n{table}\n\n{filler(30)}\n", f"{rows}-{k}")
        where = [p.number for p in pages(book) for line in p.lines if re.match(r"^\d+to\d+", line.text)]
        assert len(where) == rows and len(set(where)) == 1, (k, where)


def tall_rows(n: int, w: int) -> str:
    return "| A | B |\n|---|---|\n" + "\n".join(
        f"| {' '.join(f'r{i}w{j}x' for j in range(w))} | {i} |" for i in range(n)
    )


@pytest.mark.parametrize(
    ("lead", "n", "w", "k"),
    fast_once(
        [
            (
                "### Rows\n\n",
                6,
                260,
                0,
            ),  # a heading kept with a table whose tail of rows is taller than a page
            ("The rows:\n\n", 7, 200, 10),  # a lead-in kept with it
            ("### Rows\n\n", 8, 260, 25),
            ("### Rows\n\n", 7, 260, 0),
        ]
    ),
)
def test_a_kept_table_of_rows_taller_than_a_page_splits(tmp_path, lead, n, w, k):
    """A table kept with what leads into it, of rows each shorter than a page but five of them taller, is written
    (it once failed as "this heading is taller than a page"), each row's words once and in order."""
    book = written(tmp_path, f"{filler(k)}\n\n{lead}{tall_rows(n, w)}\n\nEnd.\n", "tall-rows")
    words = [m for p in pages(book) for line in p.lines for m in re.findall(r"r(\d+)w(\d+)x", line.text)]
    assert [(int(i), int(j)) for i, j in words] == [(i, j) for i in range(n) for j in range(w)]


LONG = "W" * 1500  # a word wider than the page


@pytest.mark.parametrize(
    "table",
    [
        f"| A | B |\n|---|---|\n| {LONG} | b |\n",
        f"| A | B | C |\n|---|---|---|\n| a | b | {LONG} |\n",
        f"| {LONG} | B |\n|---|---|\n| a | b |\n",
        f"| A | B |\n|---|---|\n| {LONG} | {LONG} |\n",
    ],
    ids=["first", "last", "header", "both"],
)
def test_a_table_cell_with_a_word_wider_than_the_page_breaks_it(tmp_path, table):
    """A word wider than the page in any cell is broken in its column (it once failed the book: "flowable given
    negative availWidth"), every letter of it printed once, within the page."""
    book = written(tmp_path, f"{table}\nEnd.\n", "long-word")
    text = "".join(line.text for p in pages(book) for line in p.lines)
    assert text.count("W") == table.count("W")
    assert faults(book) == []
