import pytest

from pnpgen import units
from pnpgen.units import MM, UnitError


@pytest.mark.parametrize(
    "value, expected_mm",
    [
        (3, 3),
        (2.5, 2.5),
        ("3mm", 3),
        ("1cm", 10),
        ("1in", 25.4),
        ("72pt", 25.4),
        (" 0.5 in ", 12.7),
        ("-2mm", -2),
    ],
)
def test_lengths_convert_to_points(value, expected_mm):
    assert units.to_pt(value) == pytest.approx(expected_mm * MM)


def test_bare_numbers_take_the_default_unit():
    assert units.to_pt(9, "pt") == 9
    assert units.to_pt("9", "pt") == 9


@pytest.mark.parametrize("bad", ["3 furlongs", "3px", "mm", "", "three", True, None, [3]])
def test_unknown_units_and_non_lengths_are_errors(bad):
    with pytest.raises(UnitError):
        units.to_pt(bad)


def test_unknown_unit_names_the_unit():
    with pytest.raises(UnitError, match="unknown unit 'em'"):
        units.to_pt("3em")


@pytest.mark.parametrize(
    "value, said",
    [
        (
            "37.5px",
            "is in pixels, which are as large as the dpi makes them: at 300 dpi (Squib's cards, print "
            "shops' templates) '37.5px' is 3.175 mm: write '3.175mm'",
        ),
        ("210 PX", "'210 PX' is 17.78 mm: write '17.78mm'"),
    ],
)
def test_a_length_in_pixels_is_told_in_mm_at_300_dpi(value, said):
    with pytest.raises(UnitError) as exc:
        units.to_pt(value)
    assert said in str(exc.value)


@pytest.mark.parametrize(
    "size, said",
    [
        (
            "825px x 1125px",
            "825 x 1125 px is 69.85 x 95.25 mm, a poker card with a 1/8 in bleed: "
            "write 'size: poker' and 'bleed: 0.125in'",
        ),  # Squib's default deck
        ("750px x 1050px", "750 x 1050 px is 63.5 x 88.9 mm: write 'size: poker'"),
        ("600 px × 825 px", "600 x 825 px is 50.8 x 69.85 mm, a mini card with a 1/8 in bleed"),
        ("700px x 1000px", "700 x 1000 px is 59.27 x 84.67 mm: write '59.27mm x 84.67mm'"),
    ],
)
def test_a_size_in_pixels_names_the_size_it_is(size, said):
    with pytest.raises(UnitError) as exc:
        units.parse_size(size)
    assert str(exc.value).startswith("is in pixels, which are no length: at 300 dpi, ")
    assert said in str(exc.value)


@pytest.mark.parametrize(
    "name, w, h",
    [
        ("poker", 63.5, 88.9),
        ("bridge", 57.15, 88.9),
        ("tarot", 69.85, 120.65),
        ("mini", 44.45, 63.5),
        ("square-2.5in", 63.5, 63.5),
        ("square-3.5in", 88.9, 88.9),
    ],
)
def test_named_card_sizes(name, w, h):
    assert units.parse_size(name) == pytest.approx((w * MM, h * MM))


def test_square_says_which_two_squares_shops_sell():
    with pytest.raises(UnitError, match="square-2.5in or square-3.5in"):
        units.parse_size("square")


def test_free_sizes():
    assert units.parse_size("2.5in x 3.5in") == pytest.approx((180, 252))
    assert units.parse_size({"width": "63mm", "height": 88}) == pytest.approx((63 * MM, 88 * MM))


@pytest.mark.parametrize("bad", ["jumbo", "63 x", "0mm x 10mm", {"width": 3}])
def test_bad_sizes(bad):
    with pytest.raises(UnitError):
        units.parse_size(bad)


@pytest.mark.parametrize("text", ["30mm x 20mm", "30 x 20", "30 × 20", "30mm×20mm", "3cm X 2cm"])
def test_w_by_h_takes_x_or_the_times_sign(text):
    assert units.parse_size(text) == pytest.approx((30 * MM, 20 * MM))


def test_one_length_is_a_size_only_where_asked():
    assert units.parse_size("40mm", one_length=True) == pytest.approx((40 * MM, 40 * MM))
    assert units.parse_size(12, one_length=True, min_mm=units.MIN_PIECE_MM) == pytest.approx(
        (12 * MM, 12 * MM)
    )
    with pytest.raises(UnitError, match="unknown size '40mm'"):
        units.parse_size("40mm")


def test_the_smallest_side_is_the_callers():
    with pytest.raises(UnitError, match="sides must be from 10 mm"):
        units.parse_size("8mm x 8mm")
    assert units.parse_size("8mm x 8mm", min_mm=units.MIN_PIECE_MM) == pytest.approx((8 * MM, 8 * MM))
    with pytest.raises(UnitError, match="sides must be from 5 mm"):
        units.parse_size("4mm", one_length=True, min_mm=units.MIN_PIECE_MM)


@pytest.mark.parametrize("value", ["1" + "0" * 400 + "mm", "1" + "0" * 12 + "mm", float("inf"), float("nan")])
def test_every_length_is_finite_and_sane(value):
    with pytest.raises(UnitError, match=r"must be a finite number|is too large a length"):
        units.to_pt(value)
