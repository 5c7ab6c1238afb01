"""Sheet geometry on numbers: grids, bleed, marks, labels, mirrored backs."""

import pytest

from pnpgen.imposition import MARGIN, ImpositionError, paginate, plan_sheet
from pnpgen.units import CARD_SIZES, MM, PAPERS


def plan(paper, size, bleed=3):
    w, h = CARD_SIZES[size]
    return plan_sheet(paper, w * MM, h * MM, bleed * MM)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_is_three_by_three_on_both_papers(paper):
    p = plan(paper, "poker")
    assert (p.cols, p.rows) == (3, 3)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_everything_printed_keeps_the_margin(paper, size):
    p = plan(paper, size)
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    x0, y0, x1, y1 = p.bleed_box
    assert (
        x0 >= MARGIN - 1e-6 and y0 >= MARGIN - 1e-6 and x1 <= pw - MARGIN + 1e-6 and y1 <= ph - MARGIN + 1e-6
    )
    for m in p.marks:
        for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
            assert MARGIN - 1e-6 <= x <= pw - MARGIN + 1e-6
            assert MARGIN - 1e-6 <= y <= ph - MARGIN + 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_marks_stay_outside_every_card_and_its_bleed(paper, size):
    p = plan(paper, size)
    for m in p.marks:
        for s in p.slots:
            left, bottom, right, top = s.bleed
            bx0, by0, bx1, by1 = s.x - left, s.y - bottom, s.x + s.w + right, s.y + s.h + top
            mx0, mx1 = sorted((m.x1, m.x2))
            my0, my1 = sorted((m.y1, m.y2))
            overlaps = mx0 < bx1 - 1e-6 and mx1 > bx0 + 1e-6 and my0 < by1 - 1e-6 and my1 > by0 + 1e-6
            assert not overlaps


def test_every_cut_line_has_marks_on_both_ends():
    p = plan("a4", "poker")
    vertical = sorted({round(m.x1, 3) for m in p.marks if m.x1 == m.x2})
    horizontal = sorted({round(m.y1, 3) for m in p.marks if m.y1 == m.y2})
    assert len(vertical) == p.cols + 1 and len(horizontal) == p.rows + 1
    diffs = [b - a for a, b in zip(vertical, vertical[1:])]
    assert diffs == pytest.approx([63.5 * MM] * 3, abs=0.01)


def test_shared_cut_lines_keep_bleed_only_on_the_outer_edges():
    p = plan("a4", "poker")
    assert p.mode == "shared"
    middle = p.slots[4]
    assert middle.bleed == (0, 0, 0, 0)
    corner = p.slots[0]  # top-left
    assert corner.bleed[0] > 0 and corner.bleed[3] > 0 and corner.bleed[1] == 0 and corner.bleed[2] == 0


def test_gutters_when_the_paper_allows_them_without_losing_a_card():
    p = plan("a4", "tarot")
    assert p.mode == "gutters" and (p.cols, p.rows) == (2, 2)
    a, b = p.slots[0], p.slots[1]
    assert b.x - (a.x + a.w) == pytest.approx(6 * MM)
    assert all(s.bleed == pytest.approx((3 * MM,) * 4) for s in p.slots)


def test_backs_mirror_about_the_long_edge():
    p = plan("a4", "poker")
    for front, back in zip(p.slots, p.back_slots()):
        assert back.x + back.w / 2 == pytest.approx(p.paper_w - (front.x + front.w / 2))
        assert back.y == front.y


def test_a_card_too_big_for_the_paper_is_an_error():
    with pytest.raises(ImpositionError, match="does not fit on A4"):
        plan_sheet("a4", 300 * MM, 100 * MM, 3 * MM)


def test_label_lies_in_free_margin():
    for paper in ("a4", "letter"):
        p = plan(paper, "poker")
        lb = p.label
        assert lb.thickness >= 2 * MM and lb.length >= 40 * MM


def test_paginate():
    assert [list(r) for r in paginate(11, 9)] == [list(range(9)), [9, 10]]
    assert paginate(0, 9) == []
