"""Layouts evaluated into faces: extends and overrides, vars, when, for_each, grids, images, errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnpgen.errors import ContentError, Diagnostics, Location
from pnpgen.faces import Icon, Image, Rect, Text
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler
from pnpgen.units import MM

ART = Path(__file__).parent / "fixtures" / "basic" / "content" / "sample" / "art"


@pytest.fixture
def library(tmp_path):
    def make(**files):
        for name, text in files.items():
            (tmp_path / f"{name}.yaml").write_text(text)
        return LayoutLibrary([tmp_path], Compiler())

    return make


def face(library, name, card, palette=None):
    fc = FaceContext(
        63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, palette or {}, load_icons(BUILTIN, {}, Diagnostics()), ART
    )
    diags = Diagnostics()
    layout = library.get(name, Location("test"))
    f = draw_face(layout, fc, template_names(fc, card, {"id": "d"}, {"id": "g", "title": "G"}), "card", diags)
    fc.flush_notes(diags)
    return f, diags


BASE = """
vars:
  accent: "{{ palette[card.colour] }}"
elements:
  - id: bg
    type: rect
    area: bleed
    fill: "{{ accent }}"
  - id: title
    type: text
    x: 5
    y: 5
    w: 50
    h: 8
    text: "{{ card.name }}"
"""

CHILD = """
extends: base
elements:
  - id: title
    type: text
    x: 5
    y: 5
    w: 50
    h: 8
    text: "{{ card.name | upper }}"
  - type: icon
    name: star
    x: "{{ 5 + loop.index0 * 10 }}"
    y: 70
    size: 8
    for_each: "range(card.stars)"
  - type: rect
    x: 0
    y: 0
    w: 1
    h: 1
    fill: black
    when: "card.stars > 2"
"""


def test_extends_replaces_by_id_and_appends_the_rest(library):
    lib = library(base=BASE, child=CHILD)
    f, diags = face(lib, "child", {"name": "Nova", "colour": "gold", "stars": 2}, {"gold": "#d4a017"})
    assert not diags.items
    kinds = [type(op).__name__ for op in f.ops]
    assert kinds == ["Rect", "Text", "Icon", "Icon"]
    bg, title = f.ops[0], f.ops[1]
    assert bg.fill == "#d4a017" and bg.x == pytest.approx(-3 * MM) and bg.w == pytest.approx(69.5 * MM)
    assert title.text == "NOVA"
    assert [round(op.x / MM, 2) for op in f.ops if isinstance(op, Icon)] == [5.0, 15.0]


def test_when_draws_an_element_only_if_true(library):
    lib = library(base=BASE, child=CHILD)
    f, _ = face(lib, "child", {"name": "N", "colour": "gold", "stars": 3}, {"gold": "#d4a017"})
    assert isinstance(f.ops[-1], Rect) and f.ops[-1].fill == "#000000"


def test_snapshot_is_stable_text(library):
    lib = library(base=BASE)
    f, _ = face(lib, "base", {"name": "Ash", "colour": "red"}, {"red": "#aa0000"})
    snap = f.snapshot().splitlines()
    assert snap[0] == (
        "Rect x=-8.50 y=-8.50 w=197.01 h=269.01 radius=0.00 fill=#aa0000 stroke=None "
        "stroke_width=0.50 dash=() opacity=1.00"
    )
    assert snap[1].startswith("Text x=14.17 y=") and snap[1].endswith("text=Ash")


def test_grid_draws_cells_and_icons_and_skips_holes(library):
    lib = library(
        g="""
elements:
  - type: grid
    x: 0
    y: 0
    w: 30
    h: 30
    gap: 0
    cells: "{{ card.pattern }}"
"""
    )
    f, _ = face(lib, "g", {"pattern": [[["star"], None], [None, ["fire", "water"]]]})
    rects = [op for op in f.ops if isinstance(op, Rect)]
    icons = [op for op in f.ops if isinstance(op, Icon)]
    assert len(rects) == 2
    assert [i.name for i in icons] == ["star", "fire", "water"]
    assert rects[0].w == pytest.approx(15 * MM) and rects[1].x == pytest.approx(15 * MM)
    assert icons[1].x < icons[2].x and icons[1].y == icons[2].y  # two icons side by side


@pytest.mark.parametrize(
    ("pattern", "says"),
    [
        (
            [[7]],
            "'cells' must hold cells that are lists of icon names, null or {icons: [...], fill: colour} (got 7)",
        ),
        ([[["star"] * 7]], "'cells' holds a cell of 7 icons; a cell holds at most 6"),
    ],
)
def test_a_bad_grid_cell_is_said_after_its_key(library, pattern, says):
    lib = library(g='elements:\n  - {type: grid, x: 0, y: 0, w: 30, h: 30, cells: "{{ card.pattern }}"}\n')
    _, diags = face(lib, "g", {"pattern": pattern})
    assert [d.message for d in diags.errors] == [f"{says} (while drawing card)"]


def test_a_grid_cell_may_be_a_string_of_icon_names(library):
    """As docs/content-format.md says: `"fire water"` is `[fire, water]`, also as a mapping's `icons`."""
    lib = library(
        g="""
elements:
  - type: grid
    x: 0
    y: 0
    w: 30
    h: 30
    gap: 0
    cells: "{{ card.pattern }}"
"""
    )
    f, _ = face(lib, "g", {"pattern": [["star", ""], [None, {"icons": "fire water", "fill": "#ffffff"}]]})
    assert [i.name for i in f.ops if isinstance(i, Icon)] == ["star", "fire", "water"]
    assert len([op for op in f.ops if isinstance(op, Rect)]) == 3  # "" is a cell with no icon, None a hole


def test_image_fits_its_box(library):
    lib = library(
        i="""
elements:
  - type: image
    src: split.png
    x: 0
    y: 0
    w: 30
    h: 30
    fit: contain
"""
    )
    f, _ = face(lib, "i", {})
    (img,) = [op for op in f.ops if isinstance(op, Image)]
    assert img.w == pytest.approx(30 * MM) and img.h == pytest.approx(20 * MM)
    assert img.y == pytest.approx(5 * MM)


def test_extends_cycle_is_an_error(library):
    lib = library(a="extends: b\nelements: []\n", b="extends: a\nelements: []\n")
    with pytest.raises(ContentError, match="extends itself"):
        lib.get("a", Location("test"))


def test_template_reaching_python_internals_is_refused(library):
    lib = library(
        h="""
elements:
  - type: text
    x: 5
    y: 5
    w: 50
    h: 8
    text: "{{ card.__class__.__mro__ }}"
"""
    )
    f, diags = face(lib, "h", {"name": "x"})
    assert f is None
    (err,) = diags.errors
    assert "__class__" in err.message or "not allowed" in err.message or "undefined" in err.message


def test_built_in_layouts_build_and_can_be_extended_with_no_layouts_folder_beside(tmp_path):
    from conftest import run_cli

    game = tmp_path / "content" / "shared-test"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("id: shared-test\ntitle: Shared\nplayers: 2\ncomponents: [d.yaml]\n")
    (game / "d.yaml").write_text(
        "id: d\nkind: cards\nsize: poker\nfront: mine\nback: basic-back\n"
        "cards:\n  - {name: Alpha, type: spell, text: 'Draw :star: twice.'}\n  - {name: Beta}\n"
    )
    (game / "layouts" / "mine.yaml").write_text('extends: basic-card\nvars:\n  accent: "#7b3fa0"\n')
    assert not (tmp_path / "layouts").exists()  # basic-card and basic-back are pnpgen's own
    result = run_cli("build", "--content", tmp_path / "content", "--out", tmp_path / "out", "--strict")
    assert result.exit_code == 0, result.output
    import pdfplumber

    with pdfplumber.open(tmp_path / "out" / "shared-test" / "d.pdf") as pdf:
        assert "Alpha" in pdf.pages[0].extract_text() and "SPELL" in pdf.pages[0].extract_text()
        assert "Shared" in pdf.pages[1].extract_text()


def test_characters_the_font_cannot_draw_are_a_warning(project):
    from conftest import run_cli

    root = project("basic")
    deck = root / "content" / "sample" / "decks" / "minis.yaml"
    # −, → and ≥ come from the shipped fallback fonts; no shipped font has 中
    deck.write_text(deck.read_text().replace('"Tiny."', '"Lose −1 → gain ≥ 2 中."'))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0
    assert "warning: the font sans has no '中' (U+4E2D)" in result.output
    assert "U+2212" not in result.output and "U+2192" not in result.output and "U+2265" not in result.output
    assert "'Spark'" in result.output
    assert run_cli("build", "--out", "out2", "--strict", cwd=root).exit_code == 1


# -- files are read through the reader, and what a layout read is recorded ----------------------------------


def two_folders(tmp_path):
    """A game with a layouts folder and the shared one, and a reader confined to both."""
    from pnpgen.inputs import Reader

    game, shared = tmp_path / "content" / "g", tmp_path / "layouts"
    (game / "layouts").mkdir(parents=True)
    shared.mkdir()
    (shared / "base.yaml").write_text(BASE)
    (game / "layouts" / "child.yaml").write_text(CHILD)
    reader = Reader([game, shared], tmp_path)
    return LayoutLibrary([game / "layouts", shared], Compiler(), reader), reader


def test_a_layout_records_its_chain_and_the_lookups_that_found_nothing(tmp_path):
    from pnpgen.inputs import MISSING

    lib, reader = two_folders(tmp_path)
    with reader.recording() as first:
        lib.get("child", Location("test"))
    assert first["content/g/layouts/child.yaml"] not in (MISSING, None)
    assert first["content/g/layouts/base.yaml"] == MISSING  # a game-level base added later shadows the shared
    assert first["layouts/base.yaml"] not in (MISSING, None)
    assert "layouts/child.yaml" not in first  # found in the game's folder first
    with reader.recording() as again:  # a cache hit records the same
        lib.get("child", Location("test"))
        lib.get("base", Location("test"))
    assert again == first


def test_a_layout_is_read_once(tmp_path, monkeypatch):
    lib, reader = two_folders(tmp_path)
    reads = []
    original = reader.load_yaml
    monkeypatch.setattr(reader, "load_yaml", lambda path, *a: reads.append(path.name) or original(path, *a))
    for _ in range(3):
        lib.get("child", Location("test"))
        lib.get("base", Location("test"))
    assert reads == ["child.yaml", "base.yaml"]


def test_a_library_without_a_reader_makes_one_over_its_folders(tmp_path):
    (tmp_path / "a.yaml").write_text("elements: []\n")
    lib = LayoutLibrary([tmp_path, tmp_path / "absent"], Compiler())
    with lib.reader.recording() as rec:
        lib.get("a", Location("test"))
    assert list(rec) == ["a.yaml"]
    with pytest.raises(ContentError, match="layout 'b' not found"):
        lib.get("b", Location("test"))


def test_an_unknown_layout_names_every_folder_it_looked_in_in_order(tmp_path):
    from pnpgen.errors import display_path
    from pnpgen.project import BUILTIN_LAYOUTS, Project

    project = Project(tmp_path / "content")
    game = tmp_path / "content" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "layouts" / "hero.yaml").write_text("elements: []\n")
    lib = LayoutLibrary(project.layout_folders(game), Compiler(), project.reader(game))
    with pytest.raises(ContentError) as exc:
        lib.get("heroo", Location("deck.yaml", 6, 8))
    (d,) = exc.value.diagnostics.items
    folders = [game / "layouts", tmp_path / "layouts", BUILTIN_LAYOUTS]  # the shared one: not there, named
    shown = ", then ".join(display_path(f) + os.sep for f in folders)
    assert str(d.location) == "deck.yaml:6:8"
    assert d.message == f"layout 'heroo' not found (looked in {shown})"
    assert d.hint.startswith("did you mean 'hero'? (accepted: basic-back, basic-card, hero)")


def test_art_is_read_through_the_reader_and_recorded(library, tmp_path):
    from pnpgen.inputs import MISSING, Reader

    game = ART.parent
    reader = Reader([game], game.parent.parent)
    lib = library(
        i="elements:\n  - {type: image, src: split.png, area: trim}\n",
        m="elements:\n  - {type: image, src: nope.png, area: trim}\n",
    )
    fc = FaceContext(63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, {}, {}, ART, reader=reader)
    with reader.recording() as rec:
        f = draw_face(lib.get("i", Location("t")), fc, template_names(fc, {}, {}, {}), "card", Diagnostics())
        assert (
            draw_face(lib.get("m", Location("t")), fc, template_names(fc, {}, {}, {}), "card", Diagnostics())
            is None
        )
    (img,) = f.ops
    assert img.path == str((ART / "split.png").resolve())
    assert (
        rec["content/sample/art/split.png"] not in (MISSING, None)
        and rec["content/sample/art/nope.png"] == MISSING
    )
    ((loc, message),) = fc.faults
    assert message == "'src' names an image that does not exist: art/nope.png"


@pytest.mark.parametrize("src", ["../game.yaml", "/etc/passwd", ""])
def test_an_image_outside_the_art_folder_is_refused(library, src):
    lib = library(i=f"elements:\n  - {{type: image, src: '{src}', area: trim}}\n")
    f, diags = face(lib, "i", {})
    assert f is None
    (err,) = diags.errors
    assert "leaves the game's art folder; refused" in err.message or "must be a path inside" in err.message


def test_a_game_layout_linking_outside_is_refused_not_skipped(tmp_path):
    lib, reader = two_folders(tmp_path)
    (tmp_path / "secret.yaml").write_text("elements: []\n")
    (tmp_path / "content" / "g" / "layouts" / "base.yaml").symlink_to(tmp_path / "secret.yaml")
    with pytest.raises(ContentError) as exc:
        lib.get("base", Location("deck.yaml", 6, 8))
    (d,) = exc.value.diagnostics.items
    assert str(d.location) == "deck.yaml:6:8" and d.message.startswith("layout '")
    assert d.message.endswith("content/g/layouts/base.yaml' leaves the game folder; refused")


SHAPES = """
elements:
  - type: rect
    area: bleed
    fill: "#f6efe0"
  - type: rect
    x: 3
    y: 3
    w: 57.5
    h: 82.9
    radius: 2
    stroke: "{{ card.ink }}"
  - type: icon
    name: star
    x: -2
    y: 20
    size: 15
  - type: ellipse
    x: 10
    y: 10
    w: 5
    h: 5
    fill: "#123456"
    when: "{{ card.dot }}"
  - type: text
    x: 6
    y: 6
    w: 51.5
    h: 8
    text: "{{ card.name }}"
"""


def test_a_shape_the_same_on_every_card_is_drawn_once_and_its_warning_counted_per_card(library, monkeypatch):
    """A shape whose values are all constants is worked out on the deck's first face and its ops reused; one
    that reports (the icon outside the safe zone) is drawn, and reported, on every card."""
    import pnpgen.layout.draw as draw

    lib = library(shapes=SHAPES)
    layout = lib.get("shapes", Location("test"))
    cards = [{"name": f"Card {i}", "ink": "#7a3b1d" if i % 2 else "#000000", "dot": i == 2} for i in range(5)]

    def deck():
        fc = FaceContext(
            63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, {}, load_icons(BUILTIN, {}, Diagnostics()), ART
        )
        diags = Diagnostics()
        faces = [
            draw_face(layout, fc, template_names(fc, card, {"id": "d"}, {"id": "g"}), f"card {i}", diags)
            for i, card in enumerate(cards)
        ]
        fc.flush_notes(diags)
        return faces, [d.message for d in diags.items], fc

    faces, messages, fc = deck()
    assert [sum(type(op) is Rect for op in f.ops) for f in faces] == [2] * 5
    assert faces[0].ops[0] is faces[4].ops[0]  # the background: one op, shared
    assert faces[1].ops[1] != faces[2].ops[1]  # the frame's stroke is the card's
    assert any("safe zone" in m and "and 4 more" in m for m in messages)
    assert sum(kept is not None for _el, kept in fc.drawn.values()) == 1
    monkeypatch.setattr(draw, "_fixed", lambda el: False)
    again, again_messages, _ = deck()
    assert again == faces and again_messages == messages


@pytest.mark.parametrize(
    "lazy",
    [
        "range(card.stars)",
        "range(card.stars) | map('string')",
        "range(9) | select('odd') | batch(1) | map('first') | reject('gt', 2 * card.stars - 1)",
        "card.tags | map('upper')",
        "card.tags | reverse",
    ],
)
@pytest.mark.parametrize(
    "first",
    [
        "  - {type: text, for_each: 'xs', x: 5, y: 5, w: 9, h: 5, size: 8, text: 'A{{ item }}'}\n",
        "  - {type: text, x: 5, y: 5, w: 50, h: 5, size: 8, text: \"{{ xs | join('/') }}\"}\n",
    ],
)
def test_a_var_made_as_it_is_read_gives_every_item_to_each_element_that_uses_it(library, lazy, first):
    """A var whose sequence Jinja makes as it is read (`range`, a `map`, a `select`...) gives all its items to
    every element, in every order: a second `for_each` over it drew nothing, as the first had read it out."""
    layout = f'vars:\n  xs: "{{{{ {lazy} }}}}"\n  ys: "{{{{ xs }}}}"\nelements:\n' + first
    for name in ("xs", "ys"):
        layout += f"  - {{type: text, for_each: '{name}', x: 5, y: 20, w: 9, h: 5, size: 8, text: 'B{{{{ item }}}}'}}\n"
    lib = library(v=layout)
    f, diags = face(lib, "v", {"name": "N", "stars": 3, "tags": ["a", "b", "c"]})
    assert not [d for d in diags.items if d.severity == "error"], diags.items
    texts = [op.text for op in f.ops if isinstance(op, Text)]
    assert len([t for t in texts if t.startswith("B")]) == 6, texts  # three items, twice


def test_a_var_that_fails_as_it_is_read_is_told_at_its_line(library):
    lib = library(
        v='vars:\n  xs: "{{ range(card.stras) }}"\nelements:\n  - {type: rect, for_each: xs, x: 1, y: 1, w: 1, h: 1}\n'
    )
    f, diags = face(lib, "v", {"name": "N", "stars": 3})
    assert f is None
    (error,) = [d for d in diags.items if d.severity == "error"]
    assert error.location.line == 2 and "did you mean 'stars'?" in error.message, error


@pytest.mark.parametrize("value", ["{{ palette[card.colour] }}", "{{ palette.bleu }}"])
def test_a_colour_the_palette_lacks_is_told_as_the_palettes(library, value):
    """`palette[...]` naming no colour of the game's palette says so in the designer's words, not 'the mapping'."""
    lib = library(g=f'elements:\n  - {{type: rect, area: trim, fill: "{value}"}}\n')
    _, diags = face(lib, "g", {"colour": "bleu"}, palette={"rouge": "#aa0000", "bleue": "#0000aa"})
    (message,) = [d.message for d in diags.errors]
    assert message.startswith("undefined value: the palette has no colour 'bleu'; did you mean 'bleue'?"), (
        message
    )
