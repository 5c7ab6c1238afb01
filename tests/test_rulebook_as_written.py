"""Code and HTML in a rulebook print as they are written: a `*` is printed, never taken for emphasis, and an
icon's `:name:` is printed as its name, never drawn as the icon (`a * b * c` printed `a b c`, `b` in italic)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli

WRITTEN = "score = a * b * c, **x** and :drop:"
PLACES = {
    "fence": f"```\n{WRITTEN}\n```\n",
    "indented-code": f"Text.\n\n    {WRITTEN}\n",
    "inline-code": f"Count `{WRITTEN}` now.\n",
    "html-block": f"<div>{WRITTEN}</div>\n",
    "code-in-list": f"- `{WRITTEN}`\n",
    "code-in-table": f"| a | b |\n|---|---|\n| `{WRITTEN}` | y |\n",
}


@pytest.mark.parametrize("place", fast_once(sorted(PLACES)))
def test_code_and_html_print_every_character_as_written(project, place):
    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(
        f"# Sample\n\n## Setup\n\n{PLACES[place]}", encoding="utf-8"
    )
    result = run_cli("build", "--out", "out", "--no-print-all", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(root / "out" / "sample" / "rulebook.pdf")
    try:
        text = " ".join(" ".join(p.get_textpage().get_text_range() for p in pdf).split())
    finally:
        pdf.close()
    # the signs as the look-alikes that set no emphasis and draw no icon (U+2217, U+2236)
    assert "score = a \u2217 b \u2217 c, \u2217\u2217x\u2217\u2217 and \u2236drop:" in text, text
