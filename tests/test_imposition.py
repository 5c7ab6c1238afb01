"""Sheet geometry on numbers: grids, bleed, marks, labels, mirrored backs."""

import pytest

from pnpgen.imposition import MARGIN, ImpositionError, paginate, plan_sheet
from pnpgen.imposition.sheets import PRINT_EDGE
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
def test_every_outer_edge_keeps_the_full_bleed_and_only_bleed_enters_the_margin(paper, size):
    """Every named size on both papers: the grid's outer edges keep all 3 mm of bleed; only bleed (and marks
    drawn over it, which start in it) comes nearer the paper's edge than the 5 mm margin, and nothing nearer
    than 3 mm; every mark is at least 3 mm long."""
    p = plan(paper, size)
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    tx0, ty0, tx1, ty1 = p.trim_box
    x0, y0, x1, y1 = p.bleed_box
    assert [tx0 - x0, ty0 - y0, x1 - tx1, y1 - ty1] == pytest.approx([3 * MM] * 4)
    assert x0 >= PRINT_EDGE - 1e-6 and y0 >= PRINT_EDGE - 1e-6
    assert x1 <= pw - PRINT_EDGE + 1e-6 and y1 <= ph - PRINT_EDGE + 1e-6
    for m in p.marks:
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= 3 * MM - 1e-6
        if m.over:
            assert x0 - 1e-6 <= m.x1 <= x1 + 1e-6 and y0 - 1e-6 <= m.y1 <= y1 + 1e-6
        for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
            if m.over:
                assert PRINT_EDGE - 1e-6 <= x <= pw - PRINT_EDGE + 1e-6
                assert PRINT_EDGE - 1e-6 <= y <= ph - PRINT_EDGE + 1e-6
            else:
                assert MARGIN - 1e-6 <= x <= pw - MARGIN + 1e-6
                assert MARGIN - 1e-6 <= y <= ph - MARGIN + 1e-6


def test_three_poker_rows_on_letter_keep_their_bleed_with_marks_over_it():
    p = plan("letter", "poker")
    assert (p.cols, p.rows) == (3, 3)
    assert p.slots[0].bleed[3] == pytest.approx(3 * MM) and p.slots[-1].bleed[1] == pytest.approx(3 * MM)
    over = [m for m in p.marks if m.over]
    assert len(over) == 8  # both ends of the four vertical cut lines
    for m in over:
        assert m.x1 == m.x2 and abs(m.y2 - m.y1) == pytest.approx(3 * MM)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_marks_stay_outside_every_card_and_its_bleed(paper, size):
    p = plan(paper, size)
    for m in (m for m in p.marks if not m.over):
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


def test_a_bleed_wider_than_the_paper_allows_is_kept_as_far_as_print_edge():
    p = plan("letter", "poker", bleed=5)
    assert p.kept_bleed == pytest.approx((279.4 - 3 * 88.9) / 2 * MM - PRINT_EDGE)
    assert p.bleed_box[1] == pytest.approx(PRINT_EDGE)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_a_partial_sheet_marks_only_the_cut_lines_of_its_faces(paper, size):
    """A full sheet keeps every mark; one face in the first slot gets the marks of its own four cut lines only
    (both ends of each), and the first row full gets every column's but only that row's two horizontal lines."""
    p = plan(paper, size)
    assert p.cut_marks() == p.marks and p.cut_marks([True] * p.per_sheet) == p.marks
    s = p.slots[0]

    def lines(marks):
        return (
            sorted({round(m.x1, 3) for m in marks if m.x1 == m.x2}),
            sorted({round(m.y1, 3) for m in marks if m.y1 == m.y2}),
        )

    one = p.cut_marks([True] + [False] * (p.per_sheet - 1))
    assert lines(one) == ([round(s.x, 3), round(s.x + s.w, 3)], [round(s.y, 3), round(s.y + s.h, 3)])
    assert len(one) == 8
    row = p.cut_marks([True] * p.cols)
    assert lines(row)[0] == lines(p.marks)[0] and lines(row)[1] == [round(s.y, 3), round(s.y + s.h, 3)]
    backs = p.back_marks(present=[True] + [False] * (p.per_sheet - 1))
    assert len(backs) == 8  # the back page mirrors the same lines


def _label_box(lb):
    """The label's box (x0, y0, x1, y1) on the page."""
    along, across = lb.length / 2, lb.thickness / 2
    dx, dy = (across, along) if lb.rotate else (along, across)
    return lb.x - dx, lb.y - dy, lb.x + dx, lb.y + dy


# every named size, and square pieces from 10 to 40 mm with 1 to 3 mm of bleed (tokens, tiles)
SIZES = [(w, h, 3) for w, h in CARD_SIZES.values()] + [
    (s, s, b) for s in range(10, 41, 2) for b in (1, 1.5, 2, 3)
]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_label_crosses_no_mark_and_stays_in_the_margin_whatever_the_size(paper):
    """On every sheet plan, of cards or of small pieces close together: the label's box touches no mark and no
    card's bleed, lies inside the 5 mm margin, and every mark (those shortened for a lane included) is at least
    3 mm long."""
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    held = 0
    for w, h, bleed in SIZES:
        p = plan_sheet(paper, w * MM, h * MM, bleed * MM)
        if p.label.thickness < 2.2 * MM:
            continue  # no band or lane anywhere: set at the smallest size in what there is (a few sizes, below)
        held += 1
        x0, y0, x1, y1 = _label_box(p.label)
        assert MARGIN - 1e-6 <= x0 and x1 <= pw - MARGIN + 1e-6, (w, h, bleed)
        assert MARGIN - 1e-6 <= y0 and y1 <= ph - MARGIN + 1e-6, (w, h, bleed)
        for m in p.marks:
            assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= 3 * MM - 1e-6
            mx0, mx1, my0, my1 = min(m.x1, m.x2), max(m.x1, m.x2), min(m.y1, m.y2), max(m.y1, m.y2)
            e = 1e-6  # touching is not crossing: a lane ends where the marks do
            assert mx1 <= x0 + e or mx0 >= x1 - e or my1 <= y0 + e or my0 >= y1 - e, (w, h, bleed, m)
        bx0, by0, _bx1, _by1 = p.bleed_box
        assert y1 <= by0 + 1e-6 or x1 <= bx0 + 1e-6, (w, h, bleed)  # below the grid's bleed, or beside it
    assert held >= len(SIZES) * 0.9


def _typical(lb) -> float:
    return min(7.0, lb.thickness * 0.7, lb.length / 30)  # as render/sheets.py sets a label of about 30 em


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_wherever_the_marks_leave_room_for_a_lane_the_label_is_set_whole(paper):
    """Small pieces put their marks 10-30 mm apart: between two of them a label was cut short at 3.5 pt. Wherever
    the bottom marks, kept 3 mm long, leave a 3 mm lane below them, the label is set at 5 pt or more (in that lane,
    or somewhere better)."""
    lanes = 0
    for w, h, bleed in SIZES:
        p = plan_sheet(paper, w * MM, h * MM, bleed * MM)
        trim_bottom = p.trim_box[1]
        below = [m for m in p.marks if m.x1 == m.x2 and max(m.y1, m.y2) < trim_bottom]
        start = trim_bottom - max(max(m.y1, m.y2) for m in below)
        if any(m.over for m in below) or trim_bottom - MARGIN - start - 3 * MM < 3 * MM - 1e-6:
            continue
        lanes += 1
        assert _typical(p.label) >= 5.0, (w, h, bleed, p.label)
    assert lanes >= 10  # the test meets the class it is about


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_partial_sheet_with_empty_rows_sets_its_label_whole_and_clear(paper):
    """Whatever the size: a sheet whose last rows hold no face sets its label at 5 pt or more (typical length), in
    the paper's printable area, crossing no mark drawn on that sheet and no face's bleed (`opened`, widened beside
    the empty slots); a full sheet keeps the plan's label."""
    pw, ph = PAPERS[paper][0] * MM, PAPERS[paper][1] * MM
    moved = 0
    for w, h, bleed in SIZES:
        p = plan_sheet(paper, w * MM, h * MM, bleed * MM)
        assert p.label_on([True] * p.per_sheet) == p.label
        if p.rows < 2:
            continue
        for n in {1, p.cols - 1, p.per_sheet - p.cols - 1, p.per_sheet - p.cols} - {0}:
            present = [k < n for k in range(p.per_sheet)]
            lb = p.label_on(present)
            if lb == p.label:
                assert _typical(lb) >= 5.0 - 1e-9, (w, h, bleed, n)
                continue
            moved += 1
            assert _typical(lb) >= 5.0, (w, h, bleed, n, lb)
            x0, y0, x1, y1 = _label_box(lb)
            assert MARGIN - 1e-6 <= x0 and x1 <= pw - MARGIN + 1e-6 and MARGIN - 1e-6 <= y0, (w, h, bleed, n)
            assert y1 <= ph - MARGIN + 1e-6
            for m in p.cut_marks(present):
                mx0, mx1, my0, my1 = min(m.x1, m.x2), max(m.x1, m.x2), min(m.y1, m.y2), max(m.y1, m.y2)
                assert mx1 <= x0 or mx0 >= x1 or my1 <= y0 or my0 >= y1, (w, h, bleed, n, m)
            for s, here in zip(p.opened(present), present):
                if here:
                    left, b, r, t = s.bleed
                    assert s.x + s.w + r <= x0 or s.x - left >= x1 or s.y + s.h + t <= y0 or s.y - b >= y1
    assert moved >= 20  # the test meets the class it is about: small pieces that leave no lane
