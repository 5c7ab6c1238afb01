"""The last line of defence for numbers: no page or form pnpgen writes holds NaN or infinity.

Every number is checked where it is read (YAML, SVG, data sheets, printer profiles, the command line), so nothing
here should ever fire. If a number slips past them all, ReportLab would write `nan` into the content stream
without a word (and fail on infinity deep in its C accelerator); `FiniteCanvas` looks at each page's and each
form's operators, its page size and boxes, as the page or form is closed, and refuses with `NotFinite`, naming
the page. Text strings are skipped (a card may say "nan"), so only operands are judged.
"""

from __future__ import annotations

import math
import re

from reportlab.pdfgen.canvas import Canvas

# a string in a content stream: ReportLab escapes every paren and backslash in one
_STRING = re.compile(rb"\((?:\\.|[^\\()])*\)", re.S)
_BAD = re.compile(rb"(?<![^\s\[\]])[-+]?(?:nan|inf)(?![^\s\[\]])")


class NotFinite(ValueError):
    """A number no PDF may hold reached a page: a bug in pnpgen's checks, reported as a clear error."""


def not_finite(code: list[str] | str) -> str | None:
    """The first NaN or infinite operand in content-stream text, or None."""
    text = code if isinstance(code, str) else "\n".join(code)
    if "nan" not in text and "inf" not in text:  # the common case; Python writes them lower case
        return None
    data = _STRING.sub(b"()", text.encode("latin-1", "replace"))
    found = _BAD.search(data)
    return found.group().decode("latin-1") if found else None


class FiniteCanvas(Canvas):
    """A canvas that refuses to close a page or a form holding a non-finite number (`NotFinite`)."""

    def showPage(self):
        where = f"page {self.getPageNumber()}"
        self._refuse(f"{where} would hold")
        sizes = [*self._pagesize]
        for box in ("_cropBox", "_bleedBox", "_trimBox", "_artBox"):
            sizes += getattr(self, box, None) or ()
        if not all(isinstance(v, (int, float)) and math.isfinite(v) and abs(v) < 1e7 for v in sizes):
            raise NotFinite(f"{where} would have a size or box that is not a finite number ({sizes})")
        super().showPage()

    def endForm(self, **extra):
        self._refuse(f"page {self.getPageNumber()} would hold, in a face or art drawn there,")
        super().endForm(**extra)

    def _refuse(self, where: str) -> None:
        bad = not_finite(self._code)
        if bad is not None:
            raise NotFinite(
                f"{where} '{bad}', a number that is not finite, which no PDF may hold; "
                "refused (a number escaped pnpgen's checks: please report it with the content that led here)"
            )
