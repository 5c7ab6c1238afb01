"""The contents list prints each heading as the heading prints it: a heading's `&`, `<` and `>` are its own
text, never ReportLab markup (`Q&A` was listed as `Q&A;`, `<b>x</b>` set bold, a `<font>` failed the build)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli

HEADINGS = {
    "ampersand": ("Q&A", "Q&A"),
    "less-than": ("Ties: 3 < 5", "Ties: 3 < 5"),
    "entity": ("Fish &amp; chips", "Fish & chips"),
    "tag": ("<b>Bold</b> move", "<b>Bold</b> move"),
    "font-tag": ('a < b & c <font name="x">y</font>', 'a < b & c <font name="x">y</font>'),
    "markup-like": ("<para>Setup</para>", "<para>Setup</para>"),
}


def _pages(path) -> list[str]:
    pdf = pdfium.PdfDocument(path)
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in pdf]
    finally:
        pdf.close()


@pytest.mark.parametrize("name", fast_once(sorted(HEADINGS)))
def test_the_contents_lists_a_heading_as_it_prints(project, name):
    root = project("basic")
    written, printed = HEADINGS[name]
    (root / "content" / "sample" / "rulebook.md").write_text(
        f"# Sample\n\n## {written}\n\nText.\n\n## Play\n\nMore.\n", encoding="utf-8"
    )
    result = run_cli("build", "--out", "out", "--no-print-all", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    contents, *body = _pages(root / "out" / "sample" / "rulebook.pdf")[1:]
    assert contents.startswith("Contents"), contents
    assert f"1 {printed}" in " ".join(body), body  # the heading, as written
    assert f"1 {printed} ." in contents, contents  # the contents, the same words
