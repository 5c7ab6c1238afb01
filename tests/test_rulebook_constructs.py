"""Nothing a designer writes in a rulebook disappears without a word: every Markdown construct is printed (found
in the PDF's text) or warned about at its line."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli

TITLE = "# Sample\n\nEach player takes 11 Hero cards and 20 Mini cards.\n\n## Setup\n\nShuffle the deck.\n"

# each construct: (its Markdown, the words the PDF must show, a message the build must give or None)
CONSTRUCTS = {
    "chapter-title": ("# Variants\n\nPlay it solo.\n", ["Variants", "Play it solo"], None),
    "heading-2": ("## Winning\n\nMost gold.\n", ["Winning", "Most gold"], None),
    "heading-3": ("### Ties\n\nShare it.\n", ["Ties", "Share it"], None),
    "heading-4": ("#### Fine print\n\nRare.\n", ["Fine print", "Rare"], None),
    "heading-5": ("##### Finer print\n\nRarer.\n", ["Finer print", "Rarer"], None),
    "heading-6": ("###### Finest print\n\nRarest.\n", ["Finest print", "Rarest"], None),
    "setext": ("Overview\n--------\n\nA short game.\n", ["Overview", "A short game"], None),
    "bullets": ("- draw two\n- play one\n", ["draw two", "play one"], None),
    "numbers": ("3. third step\n4. fourth step\n", ["third step", "fourth step", "3.", "4."], None),
    "nested": (
        "- outer item\n  - inner item\n    1. deepest item\n",
        ["outer item", "inner item", "deepest"],
        None,
    ),
    "table": ("| Phase | Action |\n|---|---|\n| one | roll dice |\n", ["Phase", "Action", "roll dice"], None),
    "quote": ("> Example: a full turn.\n", ["a full turn"], None),
    "fence": ("```\nscore = gold + 2\n```\n", ["score = gold + 2"], None),
    "indented-code": ("Text.\n\n    indented words\n", ["indented words"], None),
    "emphasis": ("Some **bold** and *italic* and `code`.\n", ["bold", "italic", "code"], None),
    "link": ("See [the site](https://example.com/rules).\n", ["the site", "example.com/rules"], None),
    "autolink": ("Mail <rules@example.com>.\n", ["rules@example.com"], None),
    "image": (
        "![a map of the board](art/map.png)\n",
        ["a map of the board"],
        "an image in Markdown is not drawn",
    ),
    "html-block": ("<div>boxed words</div>\n", ["boxed words"], "HTML is not drawn"),
    "html-inline": ("A <b>bold</b> word.\n", ["word"], "HTML is not drawn"),
    "rule": ("Above the line.\n\n---\n\nBelow the line.\n", ["Above the line", "Below the line"], None),
    "footnote": ("A claim.[^1]\n\n[^1]: The source.\n", ["A claim.[^1]", "The source"], None),
    "hard-break": ("First line  \nsecond line\n", ["First line", "second line"], None),
    "entity": ("Fish &amp; chips &copy;\n", ["Fish & chips ©"], None),
}


def pdf_text(path) -> str:
    pdf = pdfium.PdfDocument(path)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


@pytest.mark.parametrize("name", fast_once(sorted(CONSTRUCTS)))
def test_every_markdown_construct_is_printed_or_warned(project, name):
    root = project("basic")
    markdown, words, message = CONSTRUCTS[name]
    folder = root / "content" / "sample" / "rulebook"
    folder.mkdir()
    (folder / "01-rules.md").write_text(TITLE)
    (folder / "02-more.md").write_text(markdown)
    result = run_cli("build", "--out", "out", "--no-print-all", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    text = " ".join(pdf_text(root / "out" / "sample" / "rulebook.pdf").split())
    for word in words:
        assert word in text, f"{word!r} is not printed"
    if message is not None:
        assert f"content/sample/rulebook/02-more.md:1:1: warning: {message}" in result.output


def test_a_chapter_files_title_is_a_numbered_chapter_in_the_contents(project):
    root = project("basic")
    folder = root / "content" / "sample" / "rulebook"
    folder.mkdir()
    (folder / "01-rules.md").write_text(TITLE)
    (folder / "02-variants.md").write_text("# Variants\n\nPlay it solo.\n\n## Solo\n\nAlone.\n")
    result = run_cli("build", "--out", "out", "--no-print-all", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    text = " ".join(pdf_text(root / "out" / "sample" / "rulebook.pdf").split())
    assert text.count("2 Variants") >= 2  # in the contents and as the chapter's heading
    assert text.count("2.1 Solo") >= 2  # its sections are the chapter's
    assert "warning" not in result.output


def test_an_html_comment_is_the_designers_own_note(project):
    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(TITLE + "\n<!-- check with the printer -->\n")
    result = run_cli("build", "--out", "out", "--no-print-all", "--no-check", cwd=root)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    assert "printer" not in pdf_text(root / "out" / "sample" / "rulebook.pdf")
