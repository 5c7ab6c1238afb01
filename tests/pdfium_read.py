"""Read a written PDF's lines and characters with pdfium (C): what pdfplumber's `page.lines` and `page.chars`
give, some 30 times faster, for the tests that walk every sheet of the shipped games.

Coordinates are PDF user space (points from the bottom-left, as the page's boxes are); colours are the 0-255 RGB
pdfium draws them in (a CMYK colour converted as the page's raster shows it)."""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from typing import NamedTuple

import pypdfium2.raw as pdfium_c

_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class Line(NamedTuple):
    """A stroked straight line: a path of one segment, its ends on the page."""

    x0: float
    y0: float
    x1: float
    y1: float
    rgb: tuple[int, int, int]

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


class Char(NamedTuple):
    """A drawn character: its font size as printed, its box (left, bottom, right, top; the font's ascent to
    descent, as pdfplumber's), and its fill colour."""

    text: str
    size: float
    box: tuple[float, float, float, float]
    rgb: tuple[int, int, int]


def _then(m, n):
    """The matrix that applies m, then n (PDF's a b c d e f)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def lines(page) -> list[Line]:
    """Every stroked straight line on a pypdfium2 page, those inside its forms (faces) too."""
    found: list[Line] = []
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    x, y = ctypes.c_float(), ctypes.c_float()
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    fs = pdfium_c.FS_MATRIX()

    def walk(count, get, parent, outer) -> None:
        for i in range(count(parent)):
            obj = get(parent, i)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind not in (pdfium_c.FPDF_PAGEOBJ_FORM, pdfium_c.FPDF_PAGEOBJ_PATH):
                continue
            pdfium_c.FPDFPageObj_GetMatrix(obj, fs)
            m = _then((fs.a, fs.b, fs.c, fs.d, fs.e, fs.f), outer)
            if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
                walk(pdfium_c.FPDFFormObj_CountObjects, pdfium_c.FPDFFormObj_GetObject, obj, m)
                continue
            if pdfium_c.FPDFPath_CountSegments(obj) != 2:
                continue
            pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke)
            if not stroke.value:
                continue
            ends = []
            for k in range(2):
                pdfium_c.FPDFPathSegment_GetPoint(pdfium_c.FPDFPath_GetPathSegment(obj, k), x, y)
                ends += [m[0] * x.value + m[2] * y.value + m[4], m[1] * x.value + m[3] * y.value + m[5]]
            pdfium_c.FPDFPageObj_GetStrokeColor(obj, r, g, b, a)
            found.append(Line(*ends, (r.value, g.value, b.value)))

    walk(pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject, page, _IDENTITY)
    return found


def chars(page) -> Iterator[Char]:
    """Every character a pypdfium2 page draws (not the spaces and line breaks pdfium invents between words)."""
    text = page.get_textpage()
    matrix, rect = pdfium_c.FS_MATRIX(), pdfium_c.FS_RECTF()
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    for k in range(text.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(text, k):
            continue
        pdfium_c.FPDFText_GetMatrix(text, k, matrix)
        pdfium_c.FPDFText_GetLooseCharBox(text, k, rect)
        pdfium_c.FPDFText_GetFillColor(text, k, r, g, b, a)
        yield Char(
            chr(pdfium_c.FPDFText_GetUnicode(text, k)),
            pdfium_c.FPDFText_GetFontSize(text, k) * math.hypot(matrix.c, matrix.d),
            (rect.left, rect.bottom, rect.right, rect.top),
            (r.value, g.value, b.value),
        )
