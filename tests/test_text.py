import pytest

from pnpgen.faces import Icon, Text
from pnpgen.text.fit import fit_text
from pnpgen.text.fonts import unit_width

BOX = dict(x=0, y=0, w=100, h=40, font="sans", color="#000000")


def test_short_text_keeps_its_size_and_wraps_nothing():
    f = fit_text("Hello world", size=10, min_size=6, **BOX)
    assert f.fits and f.size == 10
    assert [op.text for op in f.ops] == ["Hello world"]


def test_long_text_wraps_inside_the_box():
    f = fit_text("word " * 30, size=10, min_size=6, **BOX)
    assert f.fits
    lines = {round(op.y, 2) for op in f.ops}
    assert len(lines) > 1
    for op in f.ops:
        assert op.x + unit_width(op.text, op.font) * op.size <= 100.01


def test_text_shrinks_to_fit_and_reports_when_it_cannot():
    long = "A rather long sentence that needs several lines. " * 4
    f = fit_text(long, size=12, min_size=4, **BOX)
    assert f.fits and 4 <= f.size < 12
    g = fit_text(long * 6, size=12, min_size=9, **BOX)
    assert not g.fits and g.size == 9


def test_alignment():
    left = fit_text("ab", size=10, min_size=10, align="left", **BOX).ops[0]
    right = fit_text("ab", size=10, min_size=10, align="right", **BOX).ops[0]
    center = fit_text("ab", size=10, min_size=10, align="center", **BOX).ops[0]
    width = unit_width("ab", "sans") * 10
    assert left.x == 0
    assert right.x == pytest.approx(100 - width)
    assert center.x == pytest.approx((100 - width) / 2)


def test_markup_switches_to_bold_and_italic():
    f = fit_text("plain **bold** *it*", size=10, min_size=10, **BOX)
    fonts = [op.font for op in f.ops]
    assert "sans" in fonts and "sans-bold" in fonts and "sans-italic" in fonts


def test_inline_icons_sit_on_the_baseline():
    f = fit_text("Pay :fire: now", size=10, min_size=10, is_icon=lambda n: n == "fire", **BOX)
    icons = [op for op in f.ops if isinstance(op, Icon)]
    texts = [op for op in f.ops if isinstance(op, Text)]
    assert len(icons) == 1 and icons[0].name == "fire"
    assert icons[0].y + icons[0].h == pytest.approx(texts[0].y)  # bottom of the icon on the baseline
    assert texts[0].x < icons[0].x < texts[1].x


def test_unknown_icon_names_stay_text():
    f = fit_text("ratio 3:4: done", size=10, min_size=10, is_icon=lambda n: False, **BOX)
    assert "".join(op.text for op in f.ops if isinstance(op, Text)).replace(" ", "") == "ratio3:4:done"


def test_vertical_alignment():
    top = fit_text("x", size=10, min_size=10, valign="top", **BOX).ops[0].y
    mid = fit_text("x", size=10, min_size=10, valign="middle", **BOX).ops[0].y
    bottom = fit_text("x", size=10, min_size=10, valign="bottom", **BOX).ops[0].y
    assert top < mid < bottom <= 40


def test_a_long_label_keeps_its_sheet_and_side_and_fits():
    from pnpgen.text.labels import shorten_label

    text = "A Game With A Very Long Title Indeed · The Deck Of Many Names · sheet 3 of 12 · backs"
    for width in (400, 150, 90):
        short = shorten_label(text, "sans", 3.5, width)
        assert unit_width(short, "sans") * 3.5 <= width + 1e-6
        assert short.endswith(" · sheet 3 of 12 · backs")
    assert shorten_label(text, "sans", 3.5, 1000) == text


@pytest.mark.parametrize(
    "text",
    [
        "Elements of the Gods · Garden tiles · sheet 1 of 1 · fronts",  # a deck's sheet
        "Orbis · Reduction tokens (low ink) · sheet 2 of 3 · backs",
        "River · Belief cards · sheet 1 of 9 · fold on the dashed line, then cut",  # a fold-over sheet
        "Deity · Game board · page 1-2 (row 1 of 2, column 1 of 2) · true size",  # a board's page
    ],
)
def test_a_cut_label_gives_up_the_game_name_before_the_deck_name(text):
    """Every margin label is `game · name · which · side`. Cut to its room, it keeps its last two parts whole, and
    of the names the deck's (the one that tells the sheet apart) is kept longest: the game's goes whole first. A
    name cut to a letter or two ("R…") names nothing and goes too."""
    from pnpgen.text.labels import shorten_label

    game, name, *rest = text.split(" · ")
    kept = " · " + " · ".join(rest)
    seen = set()
    for width in range(20, 400):
        short = shorten_label(text, "sans", 3.5, width)
        assert unit_width(short, "sans") * 3.5 <= width + 0.01, (width, short)  # as `shorten` allows
        if not short.endswith(kept[3:]):
            continue  # not even the tail fits: cut as it must
        head = short[: -len(kept)] if short != kept[3:] else ""
        seen.add(head)
        cut = head.endswith("…") and name.startswith(head[:-1]) and len(head) >= 4
        assert head in ("", name, f"{game} · {name}") or cut, (width, short)
    assert {"", name, f"{game} · {name}"} <= seen  # every stage met: no name, the deck's only, both


def test_a_character_the_font_lacks_falls_back_glyph_by_glyph():
    fitted = fit_text(
        "Lose −2 ★ now", x=0, y=0, w=300, h=40, font="sans", size=10, min_size=6, color="#000000"
    )
    texts = [(op.font, op.text) for op in fitted.ops if isinstance(op, Text)]
    assert ("fallback-math", "−") in texts and ("fallback-symbols2", "★") in texts
    xs = [op.x for op in fitted.ops if isinstance(op, Text)]
    assert xs == sorted(xs)  # each run set after the one before, measured in its own font
    from pnpgen.text.fit import missing_in

    assert missing_in("−2 ★ ⚔ →", "sans") == ""
    assert missing_in("中", "sans") == "中"  # no shipped font has it: still reported


def test_a_fallback_glyph_is_embedded_where_it_belongs(project):
    import pdfplumber
    from conftest import run_cli

    root = project("basic")
    deck = root / "content" / "sample" / "decks" / "minis.yaml"
    deck.write_text(deck.read_text().replace("Tiny.", "Lose −2."))
    assert run_cli("build", "--out", "out", "--strict", cwd=root).exit_code == 0
    with pdfplumber.open(root / "out" / "sample" / "minis.pdf") as pdf:
        chars = pdf.pages[0].chars
    minus = [c for c in chars if c["text"] == "−"]
    assert minus and all("NotoSansMath" in c["fontname"] for c in minus)
    two = min((c for c in chars if c["text"] == "2"), key=lambda c: abs(c["x0"] - minus[0]["x1"]))
    assert 0 <= two["x0"] - minus[0]["x1"] < 1.0 and abs(two["top"] - minus[0]["top"]) < 3


def test_a_paragraph_without_markup_parses_as_the_markup_path_does():
    from pnpgen.text.fit import parse

    for text in (
        "Card 7: spend two tokens",
        "x \u2212 y \u2605 ok",
        "  lead  and\u00a0trail ",
        "na\u00efve caf\u00e9",
    ):
        plain = parse(text, "sans", lambda name: False)
        marked = parse(text + " ****", "sans", lambda name: False)  # bold on and off: the markup path
        assert [[w.pieces for w in p] for p in plain] == [[w.pieces for w in p] for p in marked]
        assert [[w.width(9.0) for w in p] for p in plain] == [[w.width(9.0) for w in p] for p in marked]
        assert plain[0][0] is parse(text, "sans", lambda name: False)[0][0]  # a word is parsed once


WHOLE_LINES = [
    "Card 7: spend two tokens to move any piece one space, then draw a card and keep it hidden until your turn.",
    "Short",
    "A **bold** claim and an *italic* aside, with :star: icons :star: inline.",
    "Two\n\nparagraphs, the second one long enough to wrap over more than one line of its box.",
    "Greek \u03b1\u03b2\u03b3 and arrows \u2192 \u21d2 set in fallback fonts between plain words here.",
    "   spaces   between   words   ",
]


@pytest.mark.parametrize("align", ["left", "center", "right", "justify"])
@pytest.mark.parametrize("font", ["sans", "display-bold", "serif"])
def test_a_line_set_whole_is_the_line_set_word_by_word(monkeypatch, align, font):
    """A line of plain words in one font is one run, made at once; the same ops as joining it word by word."""
    import pnpgen.text.fit as fit

    def fitted():
        return [
            fit_text(
                text,
                x=17.0,
                y=12.5,
                w=w,
                h=h,
                font=font,
                size=9,
                min_size=5,
                color="#123456",
                align=align,
                is_icon=lambda n: n == "star",
            ).ops
            for text in WHOLE_LINES
            for w, h in ((146.0, 62.0), (60.0, 200.0), (300.0, 11.0))
        ]

    whole = fitted()
    monkeypatch.setattr(fit, "_one_run", lambda line, s, gap: False)
    assert fitted() == whole
    assert any(len(op.text.split()) > 3 for ops in whole for op in ops if isinstance(op, Text))
