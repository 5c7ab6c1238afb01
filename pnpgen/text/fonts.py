"""Fonts shipped with pnpgen (Noto, SIL Open Font License): registration and text metrics.

Nothing depends on fonts installed on the machine. TrueType fonts embed as subsets.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"

FONT_FILES = {
    "sans": "NotoSans-Regular.ttf",
    "sans-bold": "NotoSans-Bold.ttf",
    "sans-italic": "NotoSans-Italic.ttf",
    "sans-bolditalic": "NotoSans-BoldItalic.ttf",
    "serif": "NotoSerif-Regular.ttf",
    "serif-bold": "NotoSerif-Bold.ttf",
    "serif-italic": "NotoSerif-Italic.ttf",
    "serif-bolditalic": "NotoSerif-BoldItalic.ttf",
    "display": "NotoSerifDisplay-Regular.ttf",
    "display-bold": "NotoSerifDisplay-Bold.ttf",
    "display-italic": "NotoSerifDisplay-Italic.ttf",
    "display-bolditalic": "NotoSerifDisplay-BoldItalic.ttf",
}  # every name has a file of its own: no style is ever printed in another's face
FONT_NAMES = tuple(sorted(FONT_FILES))
_PREFIX = "pnp-"  # registered names, kept apart from reportlab's standard fonts


@cache
def pdf_name(font: str) -> str:
    """The name ReportLab knows a shipped font by, registering it the first time it is asked for: no writer can
    set a font that was never registered."""
    pdfmetrics.registerFont(TTFont(_PREFIX + font, str(FONT_DIR / FONT_FILES[font])))
    return _PREFIX + font


def ensure_registered(font: str = "sans") -> None:
    """Register a shipped font with ReportLab (parsing a TTF costs ~15 ms, so only on first use)."""
    pdf_name(font)


def register_all() -> None:
    for font in FONT_NAMES:
        pdf_name(font)


def variant(font: str, bold: bool, italic: bool) -> str:
    """The font of the same family with bold/italic switched on (markup **..** and *..*)."""
    family = font.split("-")[0]
    style = font.split("-")[1] if "-" in font else ""
    bold = bold or "bold" in style
    italic = italic or "italic" in style
    suffix = ("bold" if bold else "") + ("italic" if italic else "")
    name = f"{family}-{suffix}" if suffix else family
    return name if name in FONT_FILES else font


@lru_cache(maxsize=200_000)
def unit_width(text: str, font: str) -> float:
    """Width of `text` at 1 pt."""
    pdf_name(font)
    return pdfmetrics.stringWidth(text, pdf_name(font), 1.0)


@lru_cache(maxsize=64)
def vertical_metrics(font: str) -> tuple[float, float]:
    """(ascent, descent) at 1 pt, descent positive."""
    pdf_name(font)
    face = pdfmetrics.getFont(pdf_name(font)).face
    return face.ascent / 1000.0, -face.descent / 1000.0


@lru_cache(maxsize=4096)
def missing_glyphs(text: str, font: str) -> str:
    """The characters of `text` that the font cannot draw (they would silently vanish)."""
    pdf_name(font)
    chars = pdfmetrics.getFont(pdf_name(font)).face.charToGlyph
    return "".join(sorted({ch for ch in text if ord(ch) not in chars and not ch.isspace()}))
