"""Nothing a rulebook prints runs past its column: a word wider than a line (a web address, a name written without
spaces) is broken over lines wherever the book sets text, never drawn off the page."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli
from pdfium_read import chars

LONG = "x" * 150  # wider than any column of the book
TITLE = "# Sample\n\n## Setup\n\n"

# where a long word can stand: the rulebook's Markdown (and a diagram's caption)
PLACES = {
    "paragraph": f"Before {LONG} after.\n",
    "bold": f"Before **{LONG}** after.\n",
    "link-address": f"See [the site](https://example.com/{LONG}).\n",
    "icon-glued": f"Pay :drop:{LONG} now.\n",
    "table-cell": f"| a | b |\n|---|---|\n| {LONG} | y |\n",
    "table-header": f"| {LONG} | b |\n|---|---|\n| a | y |\n",
    "list-item": f"- {LONG}\n",
    "nested-list": f"- one\n  - two\n    - three {LONG}\n",
    "quote": f"> {LONG}\n",
    "example": f"> Example: {LONG}\n",
    "code": f"```\n{LONG}\n```\n",
    "heading": f"### {LONG}\n\nText.\n",
    "diagram-caption": "{{ diagram('d') }}\n",
}


def _edges(path) -> list[tuple[float, float, float, float, int]]:
    """Each body page's 'x' furthest left and right, its margins (the running head's left, as wide on the right),
    and its number."""
    pdf = pdfium.PdfDocument(path)
    try:
        out = []
        for n, page in enumerate(pdf):
            drawn = list(chars(page))
            xs = [c for c in drawn if c.text == "x"]
            if n > 0 and xs:  # the cover (page 0) has no Markdown
                left = min(c.box[0] for c in drawn if c.text != "x")
                out.append(
                    (
                        min(c.box[0] for c in xs),
                        max(c.box[2] for c in xs),
                        left,
                        page.get_width() - left,
                        n + 1,
                    )
                )
        return out
    finally:
        pdf.close()


@pytest.mark.parametrize("place", fast_once(sorted(PLACES)))
def test_a_word_wider_than_the_column_is_broken_not_run_off_the_page(project, place):
    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text(TITLE + PLACES[place], encoding="utf-8")
    (game / "diagrams").mkdir()
    (game / "diagrams" / "d.yaml").write_text(f'caption: "{LONG}"\ngrid: {{cols: 2, rows: 2, cell: 20mm}}\n')
    result = run_cli("build", "--out", "out", "--no-print-all", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    pdf = root / "out" / "sample" / "rulebook.pdf"
    edges = _edges(pdf)
    assert edges, "the long word is not printed"
    for x0, x1, left, right, page in edges:
        assert left - 0.5 <= x0 and x1 <= right + 0.5, (
            f"page {page}: text from {x0:.1f} to {x1:.1f} pt, past the column"
        )
    doc = pdfium.PdfDocument(pdf)
    try:
        printed = sum(page.get_textpage().get_text_range().count("x") for page in list(doc)[1:])
    finally:
        doc.close()
    assert printed >= len(LONG), f"only {printed} of the word's {len(LONG)} characters are printed"
