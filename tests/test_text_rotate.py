"""`rotate` on a text or icon element: a quarter turn clockwise (Squib's `angle`, nanDECK's text angle),
measured in the PDF and the PNGs written (where each glyph lands, which way it reads, inline icons turned with
their text) and in what the build judges of the face (the layout warnings and the shop preflight see turned
text and icons where they print)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from conftest import MM, run_cli

from pnpgen.errors import ContentError, Diagnostics, Location
from pnpgen.faces import Face, Icon, Text, face_digest, turned, turned_bounds
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.layout.warnings import face_warnings
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler
from pnpgen.text.fonts import unit_width, vertical_metrics

BOX = (20.0, 15.0, 12.0, 50.0)  # x, y, w, h in mm: a tall box, as a card's side banner is
WORDS = "ZAP BOX"  # no letter of the sheet's label (Turns, Cards)


def _game(root: Path, rotate: object, text: str = WORDS, box: tuple = BOX) -> None:
    game = root / "content" / "turns"
    (game / "decks").mkdir(parents=True)
    (game / "layouts").mkdir()
    (game / "game.yaml").write_text(
        "id: turns\ntitle: Turns\nplayers: 2\ncomponents: [decks/cards.yaml]\n", encoding="utf-8"
    )
    (game / "decks/cards.yaml").write_text(
        "id: cards\nkind: cards\nsize: poker\nfront: front\ncards:\n  - {name: One, count: 1}\n",
        encoding="utf-8",
    )
    x, y, w, h = box if rotate in (90, 270, -90) else (box[0], box[1], box[3], box[2])  # long along the line
    (game / "layouts/front.yaml").write_text(
        "elements:\n"
        f"  - {{type: rect, x: {x}, y: {y}, w: {w}, h: {h}, stroke: '#ff0000', stroke_width: 0.2, overlap: allowed}}\n"
        f"  - {{type: text, x: {x}, y: {y}, w: {w}, h: {h}, text: '{text}', size: 14, min_size: 14,"
        f" rotate: {rotate}, align: center, valign: middle, overlap: allowed}}\n",
        encoding="utf-8",
    )


def _build(root: Path):
    result = run_cli("build", "--no-check", "--no-print-all", cwd=root)
    return result


# turn as written -> which way successive letters step on the page (dx, dy; y down) and the glyphs' up
READS = {
    0: ((1, 0), "upright"),
    90: ((0, 1), "top to the right"),
    180: ((-1, 0), "upside down"),
    270: ((0, -1), "top to the left"),
    -90: ((0, -1), "top to the left"),
}


@pytest.mark.parametrize("rotate", list(READS))
def test_turned_text_lands_in_its_box_and_reads_the_way_it_is_turned(tmp_path, rotate):
    _game(tmp_path, rotate)
    result = _build(tmp_path)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "output/turns/cards.pdf") as pdf:
        page = pdf.pages[0]
        frame = max(page.rects, key=lambda r: r["width"] * r["height"] if r["stroke"] else 0)
        chars = [c for c in page.chars if c["text"].strip() and c["text"] in WORDS]
    assert "".join(c["text"] for c in chars) == WORDS.replace(" ", "")
    # every glyph inside the box drawn at the element's place (0.3 pt for the stroke and rounding)
    for c in chars:
        assert frame["x0"] - 0.3 <= c["x0"] and c["x1"] <= frame["x1"] + 0.3, (c["text"], c["x0"], frame)
        assert frame["top"] - 0.3 <= c["top"] and c["bottom"] <= frame["bottom"] + 0.3, (c["text"], frame)
    (dx, dy), _ = READS[rotate]
    steps = [
        ((b["x0"] + b["x1"]) - (a["x0"] + a["x1"]), (b["top"] + b["bottom"]) - (a["top"] + a["bottom"]))
        for a, b in zip(chars, chars[1:])
    ]
    for sx, sy in steps:  # each letter a step further along the turned line, none across it
        assert sx * dx + sy * dy > 1, (steps, rotate)
        assert abs(sx * dy - sy * dx) < 0.5, (steps, rotate)
    # the glyphs turn with the line: the text matrix's x axis (a, b) points along it (PDF's y runs up)
    a, b = chars[0]["matrix"][:2]
    assert (round(a), round(-b)) == (dx, dy)


def test_a_turn_that_is_not_a_quarter_is_refused_at_its_value(tmp_path):
    _game(tmp_path, 45)
    result = _build(tmp_path)
    assert result.exit_code == 1, result.output
    assert (
        "content/turns/layouts/front.yaml:3:103: error: 'rotate' must be a quarter turn, degrees clockwise: "
        "0, 90, 180 or 270 (or -90, -180, -270) (got 45)"
    ) in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "output/turns").exists()


def test_a_turned_text_too_long_for_its_box_says_so(tmp_path):
    _game(
        tmp_path,
        90,
        text="A LINE FAR TOO LONG FOR A BOX FIFTY MM TALL AT FOURTEEN POINTS, SET IN ONE LINE ONLY",
    )
    result = _build(tmp_path)
    assert result.exit_code == 1, result.output
    assert "text does not fit its 12.0 x 50.0 mm box (turned 90 degrees)" in result.output, result.output


@pytest.mark.parametrize("x, warned", [(52.0, False), (55.0, True)])
def test_the_shop_preflight_sees_turned_text_where_it_prints(tmp_path, x, warned):
    """Down the card's right edge: inside the safe zone is no finding (set unturned from its origin, the run
    would reach past the trim); within 3 mm of the trim is one."""
    _game(tmp_path, 90, box=(x, 15.0, 8.0, 50.0))
    result = run_cli("preflight", "tgc", "turns", cwd=tmp_path)
    lines = [line for line in result.output.splitlines() if "front.yaml:3:" in line]
    if warned:
        assert len(lines) == 1 and "text 'ZAP BOX' comes within" in lines[0], result.output
    else:
        assert lines == [], result.output


# -- what the build judges of a face with turned text ------------------------------------------------------

CARD = (63.5, 88.9)


def _drawn(tmp_path, elements: str, card: dict | None = None):
    (tmp_path / "l.yaml").write_text("elements:\n" + elements)
    lib = LayoutLibrary([tmp_path], Compiler())
    fc = FaceContext(
        CARD[0] * MM, CARD[1] * MM, 3 * MM, 3 * MM, {}, load_icons(BUILTIN, {}, Diagnostics()), tmp_path
    )
    fc.origins = {}
    diags = Diagnostics()
    face = draw_face(
        lib.get("l", Location("test")),
        fc,
        template_names(fc, card or {"name": "Ash"}, {"id": "d"}, {"id": "g"}),
        "card 1",
        diags,
    )
    assert face is not None
    found = face_warnings(face, fc.origins[face][0], fc)
    fc.flush_notes(diags)
    return face, found, diags


BANNER = "  - {{id: banner, type: text, x: 5, y: 10, w: 8, h: 60, text: 'SIDE BANNER TEXT', size: 12, rotate: {turn}}}\n"


@pytest.mark.parametrize("turn", [90, 270])
def test_the_warnings_see_turned_text_where_it_prints(tmp_path, turn):
    """A line across the banner's box is crossed; a line beside it is not, though the text set unturned from
    the same origin would run across it."""
    across = "  - {id: across, type: line, x1: 0, y1: 40, x2: 20, y2: 40}\n"
    beside = "  - {id: beside, type: line, x1: 30, y1: 0, x2: 30, y2: 88}\n"
    _, found, _ = _drawn(tmp_path, BANNER.format(turn=turn) + across + beside)
    crossing = [w for w in found if w.kind == "crossing"]
    assert any("'across'" in w.message for w in crossing), found
    assert not any("'beside'" in w.message for w in crossing), found


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_every_glyph_box_of_turned_text_is_inside_its_element_box(tmp_path, turn):
    face, found, diags = _drawn(tmp_path, BANNER.format(turn=turn).replace("w: 8, h: 60", "w: 30, h: 40"))
    runs = [op for op in face.ops if isinstance(op, Text)]
    assert runs and all(op.turn == turn for op in runs)
    x, y, w, h = (v * MM for v in (5, 10, 30, 40))
    for op in runs:
        ascent, descent = vertical_metrics(op.font)
        box = (op.x, op.y - ascent * op.size, op.x + unit_width(op.text, op.font) * op.size, op.y)
        x0, y0, x1, y1 = turned(op, box)
        assert x - 0.5 <= x0 and x1 <= x + w + 0.5 and y - 0.5 <= y0 and y1 <= y + h + 0.5, (turn, op)
    assert not [w for w in found if w.kind == "outside-safe"]


def test_turned_text_outside_the_safe_zone_is_warned_of(tmp_path):
    _, found, _ = _drawn(tmp_path, BANNER.format(turn=270).replace("x: 5,", "x: 0.5,"))
    assert [w for w in found if w.kind == "outside-safe"], found


def test_inline_icons_turn_with_their_text(tmp_path):
    face, _, _ = _drawn(tmp_path, BANNER.format(turn=90).replace("SIDE BANNER TEXT", "GAIN :air: NOW"))
    icons = [op for op in face.ops if isinstance(op, Icon)]
    runs = [op for op in face.ops if isinstance(op, Text)]
    assert [op.turn for op in icons] == [90]
    # it sits on the line between the words, down the page: below GAIN's start, above NOW's
    assert runs[0].y < icons[0].y < runs[-1].y


@pytest.mark.parametrize(
    "value, said, when",
    [
        ("45", "(got 45)", "as the layout loads"),
        ("'{{ card.angle }}'", "(got 30) (while drawing card 1)", "per card"),
    ],
)
def test_a_turn_that_is_not_a_quarter_is_an_error_at_its_value(tmp_path, value, said, when):
    (tmp_path / "l.yaml").write_text(
        f"elements:\n  - {{type: text, x: 5, y: 5, w: 20, h: 8, text: Hi, rotate: {value}}}\n"
    )
    lib = LayoutLibrary([tmp_path], Compiler())
    fc = FaceContext(CARD[0] * MM, CARD[1] * MM, 3 * MM, 3 * MM, {}, {}, tmp_path)
    diags = Diagnostics()
    if when == "as the layout loads":
        with pytest.raises(ContentError) as exc:
            lib.get("l", Location("test"))
        found = exc.value.diagnostics.items
    else:
        layout = lib.get("l", Location("test"))
        face = draw_face(
            layout, fc, template_names(fc, {"angle": 30}, {"id": "d"}, {"id": "g"}), "card 1", diags
        )
        fc.flush_notes(diags)
        assert face is None
        found = diags.items
    said = (
        f"'rotate' must be a quarter turn, degrees clockwise: 0, 90, 180 or 270 (or -90, -180, -270) {said}"
    )
    assert [(d.location.line, d.message) for d in found] == [(2, said)]


def test_a_turn_is_part_of_the_face_and_no_turn_changes_no_face():
    run = Text(10.0, 20.0, "sans", 12.0, "#000000", "Hi")
    face = Face(100.0, 100.0, 5.0, (run,))
    turned_face = Face(100.0, 100.0, 5.0, (Text(10.0, 20.0, "sans", 12.0, "#000000", "Hi", turn=90),))
    assert face_digest(face) != face_digest(turned_face)
    assert "turn" not in face.snapshot()  # as before text could turn: every shipped face keeps its digest
    assert "turn=90" in turned_face.snapshot()
    icon = Face(100.0, 100.0, 5.0, (Icon("drop", 1.0, 2.0, 10.0, 10.0),))
    assert "turn" not in icon.snapshot()


# -- icons turn too, measured in the pixels exported ------------------------------------------------------


def _icon_game(root: Path, element: str) -> None:
    game = root / "content" / "turns"
    (game / "decks").mkdir(parents=True)
    (game / "layouts").mkdir()
    (game / "game.yaml").write_text(
        "id: turns\ntitle: Turns\nplayers: 2\ncomponents: [decks/cards.yaml]\n", encoding="utf-8"
    )
    cards = "".join(f"  - {{name: T{t}, count: 1, turn: {t}}}\n" for t in (0, 90, 180, 270))
    (game / "decks/cards.yaml").write_text(
        f"id: cards\nkind: cards\nsize: poker\nfront: front\ncards:\n{cards}", encoding="utf-8"
    )
    (game / "layouts/front.yaml").write_text(
        "elements:\n  - {type: rect, area: bleed, fill: white}\n  - " + element + "\n", encoding="utf-8"
    )


@pytest.mark.parametrize(
    "element",
    [
        "{type: icon, name: arrow-up, x: 10, y: 20, size: 40, rotate: '{{ card.turn }}'}",
        "{type: text, x: 10, y: 20, w: 40, h: 40, text: 'L :arrow-up:', size: 40, min_size: 40, rotate: "
        "'{{ card.turn }}', align: center, valign: middle}",
    ],
    ids=["icon", "text with an inline icon"],
)
def test_a_turned_face_is_the_unturned_one_turned_in_its_box(tmp_path, element):
    """Each card's square box, cut from the PNG exported, is card 1's box turned by PIL the same quarter turn;
    and no two are alike (what is drawn has no symmetry that would hide a wrong turn)."""
    from PIL import Image, ImageChops, ImageStat

    _icon_game(tmp_path, element)
    result = run_cli("export", "png", "turns", "--no-bleed", "--dpi", "100", "--no-check", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "output/turns/png/cards"
    px = 100 / 25.4
    x0, y0, n = round(10 * px), round(20 * px), round(40 * px)
    box = (x0, y0, x0 + n, y0 + n)  # square, so that a quarter turn maps it onto itself
    crops = [Image.open(folder / f"cards-{n:03d}-front.png").convert("L").crop(box) for n in (1, 2, 3, 4)]

    def differ(a, b) -> float:
        return float(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])  # mean grey difference, 0-255

    for turn, crop in zip((90, 180, 270), crops[1:]):
        expected = crops[0].rotate(-turn)  # PIL turns anticlockwise
        assert differ(crop, expected) < 4, (turn, differ(crop, expected))
        assert differ(crop, crops[0]) > 8, turn


@pytest.mark.parametrize(
    "turn, landed",
    [(0, (10, 0, 30, 100)), (90, (0, 10, 100, 30)), (180, (70, 0, 90, 100)), (270, (0, 70, 100, 90))],
)
def test_an_icons_drawn_bounds_turn_with_it(turn, landed):
    """A tall stroke at the left of the 100 x 100 box lands along its top at 90 (clockwise), at the right at 180,
    along the bottom at 270: what the safe zone and the warnings judge of a turned icon."""
    icon = Icon("bar", 0.0, 0.0, 10.0, 10.0, None, turn)
    assert turned_bounds(icon, (10, 0, 30, 100)) == landed


def test_the_icon_element_takes_the_same_quarter_turns(tmp_path):
    (tmp_path / "l.yaml").write_text(
        "elements:\n  - {type: icon, name: air, x: 5, y: 5, size: 9, rotate: 30}\n"
    )
    with pytest.raises(ContentError) as exc:
        LayoutLibrary([tmp_path], Compiler()).get("l", Location("test"))
    assert [d.message for d in exc.value.diagnostics.items] == [
        "'rotate' must be a quarter turn, degrees clockwise: 0, 90, 180 or 270 (or -90, -180, -270) (got 30)"
    ]
