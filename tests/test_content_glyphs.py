"""No character of Elements of the Gods, Deity or Orbis is dropped or drawn as a box.

Read back from the written PDFs (pypdfium2): every character outside ASCII that the game's content writes
(cards, tiles, tokens, layouts, the rulebook) is in the text of its PDFs, and every character in those PDFs is
drawn with a font that has a glyph for it (the font pdfium reports for that character, looked up in pnpgen's
shipped fonts), so no character falls to the .notdef box. Signs that matter to play are checked by name.
"""

from __future__ import annotations

import ctypes
import re
from collections import defaultdict
from functools import cache

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from conftest import ROOT
from reportlab.pdfbase.ttfonts import TTFont

GAMES = ("elements-of-the-gods", "deity", "orbis")
FONTS = ROOT / "pnpgen" / "fonts"
MINUS = "\u2212"

pytestmark = pytest.mark.slow  # reads every page of three games' PDFs


@cache
def _cmap(font_name: str) -> frozenset[int]:
    """The code points a shipped font draws; pdfium names a subset font by its base name, maybe with a tag."""
    base = font_name.split("+")[-1]
    path = FONTS / f"{base}.ttf"
    assert path.is_file(), f"a PDF uses the font {font_name!r}, which pnpgen does not ship"
    return frozenset(TTFont(base, str(path)).face.charToGlyph)


def _chars_by_font(pdf) -> dict[str, set[str]]:
    """Each character drawn in a PDF, with the fonts pdfium says draw it."""
    out: dict[str, set[str]] = defaultdict(set)
    doc = pdfium.PdfDocument(str(pdf))
    buf = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    for page in doc:
        tp = page.get_textpage()
        for i in range(pdfium_raw.FPDFText_CountChars(tp)):
            code = pdfium_raw.FPDFText_GetUnicode(tp, i)
            if code <= 32 or code in (0xFFFE, 0xFFFF):
                continue  # spaces, and the line breaks pdfium invents
            pdfium_raw.FPDFText_GetFontInfo(tp, i, buf, 256, ctypes.byref(flags))
            out[chr(code)].add(buf.value.decode("latin-1"))
    return out


def _source_chars(game: str) -> dict[str, str]:
    """Characters outside ASCII that the game's content writes, each with a file that writes it."""
    found: dict[str, str] = {}
    folder = ROOT / "content" / game
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".yaml", ".md") or path.name in ("NOTES.md", "facts.yaml"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("#") and path.suffix == ".yaml":
                continue  # comments are not printed
            for ch in line:
                if ord(ch) > 127:
                    found.setdefault(ch, str(path.relative_to(ROOT)))
    return found


@pytest.fixture(scope="module")
def drawn(shipped_build) -> dict[str, dict[str, set[str]]]:
    result = {}
    for game in GAMES:
        chars: dict[str, set[str]] = defaultdict(set)
        for pdf in sorted((shipped_build / game).glob("*.pdf")):
            for ch, fonts in _chars_by_font(pdf).items():
                chars[ch] |= fonts
        result[game] = chars
    return result


@pytest.mark.parametrize("game", GAMES)
def test_every_character_the_content_writes_is_printed(game, drawn):
    lost = {ch: where for ch, where in _source_chars(game).items() if ch not in drawn[game]}
    assert not lost, "dropped: " + ", ".join(f"U+{ord(c):04X} {c!r} ({w})" for c, w in lost.items())


@pytest.mark.parametrize("game", GAMES)
def test_every_printed_character_has_a_glyph_in_its_font(game, drawn):
    assert drawn[game], "no text read back"
    boxed = sorted(
        f"U+{ord(ch):04X} {ch!r} in {font}"
        for ch, fonts in drawn[game].items()
        for font in fonts
        if ord(ch) not in _cmap(font)
    )
    assert not boxed, "drawn as a missing glyph: " + ", ".join(boxed)


def _text(pdf) -> str:
    return "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(pdf)))


def test_minus_signs_survive(shipped_build):
    deity = _text(shipped_build / "deity" / "rulebook.pdf")
    assert f"{MINUS}2 if the tile is of an Element that opposes it" in re.sub(r"\s+", " ", deity)
    assert f"{MINUS}2 strength" in re.sub(r"\s+", " ", deity)
    aid = _text(shipped_build / "deity" / "aid.pdf")
    assert f"{MINUS}2 on an opposed one" in re.sub(r"\s+", " ", aid)
    region = _text(shipped_build / "orbis" / "region.pdf")
    assert re.search(MINUS + r"[234]", region), "a Village's discard reads as a minus and a number"
    orbis_aid = re.sub(r"\s+", " ", _text(shipped_build / "orbis" / "player-aid.pdf"))
    assert f"{MINUS}1 per Wilderness" in orbis_aid
