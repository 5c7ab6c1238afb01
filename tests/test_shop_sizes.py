"""The card sizes shops sell: names, matching, the nearest, The Game Crafter's template pixels."""

import pytest

from pnpgen import units
from pnpgen.shop import sizes
from pnpgen.units import MM


@pytest.mark.parametrize(
    "name, inches",
    [
        ("poker", (2.5, 3.5)),
        ("bridge", (2.25, 3.5)),
        ("tarot", (2.75, 4.75)),
        ("mini", (1.75, 2.5)),
        ("square-2.5in", (2.5, 2.5)),
        ("square-3.5in", (3.5, 3.5)),
    ],
)
def test_a_named_size_is_what_shops_sell_under_that_name(name, inches):
    w, h = units.parse_size(name)
    assert (w / 72, h / 72) == pytest.approx(inches, abs=1e-9)
    assert sizes.match(w, h, "tgc").name == name
    assert sizes.match(h, w, "dtc").name == name  # landscape too


@pytest.mark.parametrize(
    "name, px",
    [
        ("poker", (825, 1125)),
        ("bridge", (750, 1125)),
        ("tarot", (900, 1500)),
        ("mini", (600, 825)),
        ("square-2.5in", (825, 825)),
        ("square-3.5in", (1125, 1125)),
    ],
)
def test_template_pixels_are_the_game_crafters(name, px):
    (size,) = [s for s in sizes.CARD_SIZES if s.name == name]
    assert size.template_px() == px


def test_a_size_written_in_mm_matches_within_rounding():
    assert sizes.match(57.2 * MM, 88.9 * MM, "tgc").name == "bridge"
    assert sizes.match(58.0 * MM, 88.9 * MM, "tgc") is None


def test_an_unsold_size_names_the_nearest_sold():
    message = sizes.unsold_message(70 * MM, 120 * MM, "tgc")
    assert message == "tgc sells no card of 70.0 x 120.0 mm; the nearest it sells is tarot (2.75 x 4.75 in)"
    assert sizes.unsold_message(63.5 * MM, 88.9 * MM, "dtc") is None
    assert "nearest it sells is tarot" in sizes.unsold_message(88.9 * MM, 127 * MM, "tgc")
