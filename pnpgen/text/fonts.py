"""Fonts shipped with pnpgen (Noto, SIL Open Font License): registration and text metrics.

Nothing depends on fonts installed on the machine. TrueType fonts embed as subsets.
"""

from __future__ import annotations

import contextlib
import hashlib
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
# Where a character missing from a run's font is looked for, in order (Noto, OFL): mathematical signs (the
# minus sign U+2212, arrows, relations), then two sets of symbols (stars, checks, card suits, dice, swords...).
FALLBACK_FILES = {
    "fallback-math": "NotoSansMath-Regular.ttf",
    "fallback-symbols2": "NotoSansSymbols2-Regular.ttf",
    "fallback-symbols": "NotoSansSymbols-Regular.ttf",
}
FALLBACKS = tuple(FALLBACK_FILES)
_FILES = {**FONT_FILES, **FALLBACK_FILES}
_PREFIX = "pnp-"  # registered names, kept apart from reportlab's standard fonts


@cache
def pdf_name(font: str) -> str:
    """The name ReportLab knows a shipped font by, registering it the first time it is asked for: no writer can
    set a font that was never registered. ReportLab gives a font the first font registered with its PostScript
    name: one of the same name but other outlines (two games' versions of a font, a font file edited while
    `serve` runs) is made its own."""
    made = TTFont(_PREFIX + font, str(FONT_DIR / _FILES[font]))
    same = pdfmetrics._dynFaceNames.get(made.face.name)
    if same is not None and getattr(same.face, "_ttf_data", None) != getattr(made.face, "_ttf_data", b""):
        del pdfmetrics._dynFaceNames[made.face.name]  # the name's font for ReportLab: this one from now on
    pdfmetrics.registerFont(made)
    return _PREFIX + font


def ensure_registered(font: str = "sans") -> None:
    """Register a shipped font with ReportLab (parsing a TTF costs ~15 ms, so only on first use)."""
    pdf_name(font)


def register_all() -> None:
    for font in FONT_NAMES:
        pdf_name(font)


STYLES = ("regular", "bold", "italic", "bolditalic")


class MissingStyle(Exception):
    """A font family that has no file for a style a text asks for (never silently replaced)."""

    def __init__(self, family: str, style: str):
        self.family, self.style = family, style
        super().__init__(f"the font '{family}' has no {style} file")


# Which family and style each font name is, and back: the shipped families, and the game fonts registered in
# this process (as ReportLab's own font registry, it only grows; names are unique per game and family).
_STYLE_OF: dict[str, tuple[str, str]] = {}
_MEMBER: dict[tuple[str, str], str] = {}
for _name in FONT_FILES:
    _family, _, _style = _name.partition("-")
    _STYLE_OF[_name] = (_family, _style or "regular")
    _MEMBER[(_family, _style or "regular")] = _name


def variant(font: str, bold: bool, italic: bool) -> str:
    """The font of the same family with bold/italic switched on (markup **..** and *..*); MissingStyle when
    the family has no file for that style."""
    family, style = _STYLE_OF.get(font, (font, "regular"))
    bold = bold or "bold" in style
    italic = italic or "italic" in style
    want = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
    name = _MEMBER.get((family, want))
    if name is None:
        if (family, "regular") not in _MEMBER:
            return font  # not a family pnpgen knows (a fallback font): as it is
        raise MissingStyle(_DISPLAY.get(family, family), want)
    return name


_DISPLAY: dict[str, str] = {}  # a game family's internal key -> the name its game gives it


class FontRefused(ValueError):
    """A game's font file whose own structure is broken (`bounds.fonts`), found before ReportLab reads it."""

    def __init__(self, style: str, path: str, message: str):
        super().__init__(f"{style}: {message}")
        self.style, self.path, self.message = style, path, message


def register_family(
    game_id: str, family: str, files: dict[str, str], instances: dict | None = None
) -> dict[str, str]:
    """Make a game's font family known: `files` maps styles (regular, bold, italic, bolditalic) to the real
    paths of TTF or OTF files, `instances` styles to a variable font's named instance or axis values. Returns
    the names a layout uses (`mine`, `mine-bold`...) -> the registered names. Raises FontRefused for a file
    whose table directory is broken (checked first, `bounds.fonts`) or that cannot be converted or instanced
    (`text.otf`), ValueError naming the style whose file ReportLab cannot embed."""
    from pnpgen.bounds import Refused
    from pnpgen.bounds.fonts import check_font
    from pnpgen.text.otf import InstanceError, prepare

    made = hashlib.sha256(
        f"{game_id}/{family}/{sorted(files.items())}/{sorted((instances or {}).items())}".encode()
    )
    for _style, path in sorted(
        files.items()
    ):  # what the files hold: a font edited in the same process is new
        with contextlib.suppress(OSError):
            made.update(hashlib.sha256(Path(path).read_bytes()).digest())
    key = "g" + made.hexdigest()[:10]
    _DISPLAY[key] = family
    names = {}
    for style, path in files.items():
        name = f"{key}-{style}"
        try:
            check_font(Path(path))
        except Refused as exc:
            raise FontRefused(style, path, exc.message) from None
        except OSError as exc:
            raise FontRefused(style, path, f"cannot be read ({exc.strerror or exc})") from None
        original = path
        try:
            path = prepare(path, (instances or {}).get(style))
        except InstanceError as exc:
            raise FontRefused(style, original, str(exc)) from None
        except Exception as exc:  # fontTools' own errors on a font it cannot read or convert
            raise FontRefused(style, original, f"cannot be converted to TrueType ({exc})") from None
        try:
            TTFont(_PREFIX + name, path)  # parses the file: a font ReportLab cannot embed fails here
        except Exception as exc:  # ReportLab's TTFError and friends: not a font it can embed
            raise ValueError(f"{style}: {exc}") from None
        _FILES[name] = path
        _STYLE_OF[name] = (key, style)
        _MEMBER[(key, style)] = name
        names[family if style == "regular" else f"{family}-{style}"] = name
    return names


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
    if _drawable(font).issuperset(map(ord, text)):  # the usual answer, without looking at each character
        return ""
    chars = pdfmetrics.getFont(pdf_name(font)).face.charToGlyph
    return "".join(sorted({ch for ch in text if (ord(ch) not in chars or _control(ch)) and not ch.isspace()}))


@lru_cache(maxsize=64)
def _drawable(font: str) -> frozenset:
    """The code points `missing_glyphs` never reports for `font`: its glyphs but control characters, and
    every space."""
    return frozenset({code for code in _charset(font) if not _control(chr(code))} | _spaces())


@cache
def _spaces() -> frozenset:
    return frozenset(code for code in range(0x3000 + 1) if chr(code).isspace())


def _control(ch: str) -> bool:
    """A control character (ESC, NUL...): no font prints it, whatever glyph a font maps it to."""
    code = ord(ch)
    return code < 0x20 or 0x7F <= code < 0xA0


@lru_cache(maxsize=64)
def _charset(font: str) -> frozenset:
    pdf_name(font)
    return frozenset(pdfmetrics.getFont(pdf_name(font)).face.charToGlyph)


@lru_cache(maxsize=100_000)
def runs(text: str, font: str, fallbacks: tuple = FALLBACKS) -> tuple:
    """`text` split into (font, part) runs: each character in `font` when it has it, else in the first of
    `fallbacks` that has it (glyph by glyph: a game's own fonts, then pnpgen's), else left in `font` (and
    reported as missing where text is set). Remembered: a font's name never changes what it holds (a game's
    own fonts are registered under names of their own)."""
    own = _charset(font)
    if text and own.issuperset(map(ord, text)):  # the usual answer: every character in the font itself
        return ((font, text),)
    out: list[list] = []
    for ch in text:
        use = font
        if ord(ch) not in own and not ch.isspace() and not _control(ch):
            use = next((f for f in fallbacks if ord(ch) in _charset(f)), font)
        if out and out[-1][0] == use:
            out[-1][1] += ch
        else:
            out.append([use, ch])
    return tuple((f, part) for f, part in out)


def fallback_chain(game_fonts: dict | None) -> tuple:
    """Where a missing character is looked for: the game's own families (their regular files, in name order),
    then pnpgen's fallback fonts."""
    own = [name for layout_name, name in sorted((game_fonts or {}).items()) if "-" not in layout_name]
    return (*own, *FALLBACKS)
