"""What the rulebooks of Elements of the Gods, Deity and Orbis tell a player, read back from the written PDFs.

Each piece this edition designed is pictured and explained; the solo result bands do not overlap; no heading
carries a number of its own under the automatic numbering.
"""

from __future__ import annotations

import re

import pytest


@pytest.fixture(scope="module")
def books(shipped_build) -> dict[str, list[str]]:
    """Each game's rulebook, as the text of each page (read with pdfium: a tenth of pdfplumber's time)."""
    import pypdfium2 as pdfium

    out = {}
    for game in ("elements-of-the-gods", "deity", "orbis"):
        doc = pdfium.PdfDocument(str(shipped_build / game / "rulebook.pdf"))
        try:
            out[game] = [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in doc]
        finally:
            doc.close()
    return out


def _text(pages: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(pages))


def _page_with(pages: list[str], needle: str) -> str:
    found = [p for p in pages if needle in re.sub(r"\s+", " ", p)]
    assert found, f"no page says {needle!r}"
    return re.sub(r"\s+", " ", found[0])


def test_eotg_pictures_and_walks_through_the_rival_flowcharts(books):
    pages = books["elements-of-the-gods"]
    text = _text(pages)
    assert "cannot be given here" not in text
    assert "Rival flowcharts (solo): front and back" in text  # the picture's caption
    page = _page_with(pages, "each number is the step of the same number below")  # the labelled card
    assert "Candidates." in page and "most worshipers" in page  # its numbered steps on the same page
    for step in ("most Gardens", "most worshipers", "most Rival Monuments", "fewest of your Monuments"):
        assert step in text, step
    assert "Rival builds nothing" in text


def test_eotg_solo_result_bands_do_not_overlap(books):
    text = _text(books["elements-of-the-gods"])
    bands = [
        (int(a), int(b)) for a, b in re.findall(r"(\d+) to (\d+) (?:Animism|Polytheism|Henotheism)", text)
    ]
    assert bands == [(1, 25), (26, 50), (51, 75)]
    assert "76 or more Monotheism" in text


def test_eotg_counts_32_worshipers_of_each_colour(books):
    text = _text(books["elements-of-the-gods"])
    assert "128 worshipers: 32 in each of 4 colours" in text


def test_orbis_explains_the_tile_and_its_mystic_value(books):
    pages = books["orbis"]
    page = _page_with(pages, "The labelled picture names each part")
    assert "Region tiles: Temple" not in page  # the tile is pictured once labelled, its back in the gallery
    assert "A Region tile's parts" in _text(pages)  # the labelled one
    assert _text(pages).count("Region tiles: front and back") == 1  # once: in the gallery
    text = _text(pages)
    for part in ("top left", "top right", "bottom right", "CP value", "mystic value", "Wilderness side"):
        assert part in text, part
    assert "Only the six white Temple tiles carry a mystic value" in text
    assert "does not explain mystic values" not in text


def test_no_heading_is_numbered_twice(books):
    for game, pages in books.items():
        for line in "\n".join(pages).splitlines():
            m = re.match(r"^\d+(?:\.\d+)* (?:Step )?\d+[.:] ", line)
            assert not m, f"{game}: {line!r}"
