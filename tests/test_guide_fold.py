"""Print-all's first page names the fold-over files written beside it, in its own ink, for a designer without a
duplex printer: `--fold` (or `print: fold: true`) wrote them, but the page that says how to print never did."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli


def first_page(path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return " ".join(pdf[0].get_textpage().get_text_range().split())
    finally:
        pdf.close()


# (flags, the print-all file, what its first page must say; None: it names no fold-over file)
CASES = [
    pytest.param(["--fold"], "print-all.pdf", "heroes-fold.pdf holds the same fronts and backs", id="fold"),
    pytest.param([], "print-all.pdf", None, id="no-fold"),
    pytest.param(
        ["--fold", "--duplex", "none"], "print-all-single.pdf", "heroes-fold.pdf holds", id="single-sided"
    ),
    pytest.param(
        ["--fold", "--ink", "low"], "print-all-lowink.pdf", "heroes-fold-lowink.pdf holds", id="low-ink"
    ),
    pytest.param(["--fold", "--ink", "both"], "print-all.pdf", "heroes-fold.pdf holds", id="both-inks-full"),
    pytest.param(
        ["--fold", "--ink", "both"], "print-all-lowink.pdf", "heroes-fold-lowink.pdf holds", id="both-low"
    ),
]


@pytest.mark.parametrize("flags, name, says", fast_once(CASES))
def test_print_all_names_the_fold_over_files_of_its_ink(project, tmp_path, flags, name, says):
    root = project("basic")
    result = run_cli("build", "--out", tmp_path, *flags, cwd=root)
    assert result.exit_code == 0, result.output
    text = first_page(tmp_path / "sample" / name)
    if says is None:
        assert "No duplex printer?" not in text and "-fold" not in text
    else:
        assert f"No duplex printer? {says}" in text, text
        assert (tmp_path / "sample" / says.split()[0]).is_file()  # the file it names was written
        assert "minis-fold" not in text  # single-sided minis have nothing to fold
