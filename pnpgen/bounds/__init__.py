"""Bounds checked on a file's own structure before another library parses it (issue 28's first class).

Spreadsheets (`sheets.py`: a zip's entries, a sheet's cells), fonts (`fonts.py`: the table directory), raster
images (`images.py`: a JPEG's segments, a PNG's chunks), colour profiles (`icc.py`), PDFs read back (`pdfs.py`:
size, pages, page sizes), and `child.py`, which parses in a short-lived process what cannot be bounded first, so
that a native library that aborts takes only that process down. Plain standard-library code: each check raises `Refused` with what is wrong
and, for a sheet, the cell; the caller turns it into a located error naming the file.
"""

from __future__ import annotations


class Refused(ValueError):
    """A file refused before it was parsed: `message` says why; `row` and `col` (1-based, 0 when none) name the
    cell of a sheet that is out of range, `sheet` its sheet."""

    def __init__(self, message: str, row: int = 0, col: int = 0, sheet: str = "") -> None:
        super().__init__(message, row, col, sheet)  # all of them: an error from a child process pickles whole
        self.message, self.row, self.col, self.sheet = message, row, col, sheet

    def __str__(self) -> str:
        return self.message
