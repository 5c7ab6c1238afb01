"""The tables of content keys and their one reader: converted values, located messages, unknown keys with a
did-you-mean; and what the tables fixed: one colour parser (no alpha byte), `defaults` validated like a card,
W x H and W × H for pieces, ids by the one name pattern, every file read through the recording reader."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from pnpgen.errors import ContentError, Diagnostics
from pnpgen.inputs import Reader
from pnpgen.schema import load_game, tables
from pnpgen.schema.fields import Key, Table, as_count, as_id, as_str, each_value
from pnpgen.schema.icons import load_icons
from pnpgen.source import load_text
from pnpgen.units import MM

GAME = "content/sample/game.yaml"
HEROES = "content/sample/decks/heroes.yaml"
ICONS = "content/sample/icons.yaml"


def messages(diags: Diagnostics) -> list[str]:
    return [str(d.location) + ": " + d.message + (f" | {d.hint}" if d.hint else "") for d in diags.items]


# -- the reader ------------------------------------------------------------------------------------------------

THING = Table(
    "thing",
    (
        Key("id", as_id, "its id", required=True),
        Key("count", as_count, "how many", default=1),
        Key("label", as_str, "its label"),
        Key("times", lambda v, count: v * count, "count times this", takes=("count",)),
        Key("scale", lambda v, factor: v * factor, "scaled", takes=("factor",)),
        Key("colours", each_value(as_id, "colour '{key}'", "must be a mapping"), "named ids"),
    ),
)


def read(text: str, table: Table = THING, **context):
    diags = Diagnostics()
    values = table.read(load_text(text, "t.yaml"), diags, context=context)
    return values, messages(diags)


def test_values_are_converted_and_absent_keys_take_their_default():
    values, problems = read("id: a\ntimes: 3\ncount: 2\nscale: 2\n", factor=10)
    assert problems == []
    assert dict(values) == {"id": "a", "count": 2, "label": None, "times": 6, "scale": 20, "colours": None}
    assert values.given == {"id", "times", "count", "scale"} and values.ok


def test_each_problem_is_at_its_value_in_the_words_of_the_converter():
    _, problems = read("id: a\ncount: -1\nlabel: [x]\n")
    assert problems == [
        "t.yaml:2:8: 'count' must be from 0 to 10,000 (got -1)",
        "t.yaml:3:8: 'label' must be text (got a list)",
    ]


def test_a_required_key_is_named_at_the_mapping():
    values, problems = read("count: 2\n")
    assert problems == ["t.yaml:1:1: thing needs 'id'"] and not values.ok


def test_an_unknown_key_is_at_the_key_with_a_did_you_mean():
    _, problems = read("id: a\ncuont: 2\n")
    assert problems == [
        "t.yaml:2:1: unknown key 'cuont' in thing | did you mean 'count'? "
        "(accepted: colours, count, id, label, scale, times)"
    ]


def test_an_open_table_leaves_other_keys_as_fields():
    table = Table("card", (Key("count", as_count, default=1),), open=True)
    values, problems = read("count: 2\nelement: fire\n", table)
    assert problems == [] and values.fields() == {"element": "fire"}


def test_a_mapping_of_values_places_each_problem_at_its_own_value():
    _, problems = read("id: a\ncolours:\n  ok: fire\n  bad: Fire Red\n")
    assert problems == [
        "t.yaml:4:8: colour 'bad' must be an id of lower-case letters, digits, '-' and '_' (got 'Fire Red'; "
        "use 'fire-red')"
    ]


def test_every_table_names_each_key_once_with_a_doc():
    for table in tables():
        assert table.keys and all(k.doc for k in table.keys), table.what


# -- game.yaml and component files -----------------------------------------------------------------------------


@pytest.fixture
def project(project, monkeypatch):
    """The fixture project, made the working folder (messages name files relative to it)."""

    def make(name: str):
        root = project(name)
        monkeypatch.chdir(root)
        return root

    return make


def edit(root, path, old, new):
    f = root / path
    text = f.read_text()
    assert old in text, (old, path)
    f.write_text(text.replace(old, new, 1))


def load_errors(root) -> list[str]:
    with pytest.raises(ContentError) as err:
        load_game(root / "content" / "sample")
    return messages(err.value.diagnostics)


def test_a_palette_colour_with_an_alpha_byte_is_refused_pointing_at_opacity(project):
    root = project("basic")
    edit(root, GAME, 'ember: "#c8431a"', 'ember: "#c8431a80"')
    (problem,) = load_errors(root)
    assert problem.startswith(f"{GAME}:5:10: palette colour 'ember' '#c8431a80' has an alpha byte")
    assert "'opacity'" in problem


def test_palette_colours_go_through_the_one_colour_parser(project):
    root = project("basic")
    edit(root, GAME, 'sea: "#1f6fb2"', "sea: '#ABC'")
    assert load_game(root / "content" / "sample").palette["sea"] == "#aabbcc"
    edit(root, GAME, "sea: '#ABC'", "sea: teal")
    (problem,) = load_errors(root)
    assert problem.startswith(f"{GAME}:6:8: palette colour 'sea' is not a colour: 'teal'")


def test_count_in_defaults_is_every_cards_count_unless_it_sets_its_own(project):
    root = project("basic")
    edit(root, HEROES, "defaults:\n", "defaults:\n  count: 3\n")
    edit(root, HEROES, "    count: 5\n", "")
    deck = load_game(root / "content" / "sample").component("heroes")
    assert [(c.name, c.count) for c in deck.cards] == [("Ash Walker", 3), ("Tide Caller", 6)]
    assert "count" not in deck.cards[0].fields


@pytest.mark.parametrize(
    "line, expected",
    [
        ("  count: -1", f"{HEROES}:8:10: 'count' must be from 0 to 10,000 (got -1)"),
        ("  count: many", f"{HEROES}:8:10: 'count' must be a whole number from 0 to 10,000 (got str 'many')"),
        ("  designed: yes please", f"{HEROES}:8:13: 'designed' must be true or false (got str 'yes please')"),
        ("  designed: 1", f"{HEROES}:8:13: 'designed' must be true or false (got int 1)"),
    ],
)
def test_defaults_are_validated_like_a_card_at_their_line(project, line, expected):
    root = project("basic")
    edit(root, HEROES, "defaults:\n", f"defaults:\n{line}\n")
    assert load_errors(root) == [expected]


def test_designed_in_defaults_marks_every_card(project):
    root = project("basic")
    edit(root, HEROES, "defaults:\n", "defaults:\n  designed: true\n")
    edit(root, HEROES, "  - name: Tide Caller\n", "  - name: Tide Caller\n    designed: false\n")
    deck = load_game(root / "content" / "sample").component("heroes")
    assert [c.designed for c in deck.cards] == [True, False]


def tiles(root, shape: str, size: str) -> None:
    (root / "content/sample/decks/tiles.yaml").write_text(
        f"id: land\nkind: tiles\nshape: {shape}\nsize: {size}\nfront: hero\ntiles:\n  - name: Farm\n"
    )
    edit(root, GAME, "  - decks/minis.yaml\n", "  - decks/minis.yaml\n  - decks/tiles.yaml\n")


@pytest.mark.parametrize(
    "size", ["30mm x 20mm", "30 x 20", '"30 × 20"', "30mm × 20mm", "{width: 30, height: 20}"]
)
def test_rectangular_pieces_take_w_x_h_as_cards_do(project, size):
    root = project("basic")
    tiles(root, "rect", size)
    deck = load_game(root / "content" / "sample").component("land")
    assert (deck.width_pt, deck.height_pt) == pytest.approx((30 * MM, 20 * MM))


@pytest.mark.parametrize("shape, size, box", [("square", "12mm", (12, 12)), ("hex", "40", (40, 46.188))])
def test_other_pieces_take_one_length(project, shape, size, box):
    root = project("basic")
    tiles(root, shape, size)
    deck = load_game(root / "content" / "sample").component("land")
    assert (deck.width_pt / MM, deck.height_pt / MM) == pytest.approx(box, abs=1e-3)


def test_a_piece_size_out_of_range_is_at_its_value(project):
    root = project("basic")
    tiles(root, "circle", "3mm")
    assert load_errors(root) == [
        "content/sample/decks/tiles.yaml:4:7: 'size' sides must be from 5 mm to 2000 mm (got 3.0 x 3.0 mm)"
    ]


@pytest.mark.parametrize(
    "bad, why",
    [("Heroes", "must be an id of lower-case letters"), ("h" * 65, "must be an id of at most 64 characters")],
)
def test_ids_follow_the_one_name_pattern(project, bad, why):
    root = project("basic")
    edit(root, HEROES, "id: heroes", f"id: {bad}")
    (problem,) = load_errors(root)
    assert problem.startswith(f"{HEROES}:1:5: 'id' {why}")


def test_unknown_keys_of_a_side_and_of_a_card_are_located(project):
    root = project("basic")
    (root / "content/sample/decks/board.yaml").write_text(
        "id: map\nkind: board\nsize: 200mm x 200mm\nsides:\n  - {id: a, layout: hero, feilds: {}}\n"
    )
    edit(root, GAME, "  - decks/minis.yaml\n", "  - decks/minis.yaml\n  - decks/board.yaml\n")
    (problem,) = load_errors(root)
    assert problem.startswith("content/sample/decks/board.yaml:5:27: unknown key 'feilds' in board side")
    assert "did you mean 'fields'?" in problem


# -- files through the reader ----------------------------------------------------------------------------------


def test_the_model_records_what_each_part_was_read_from(project):
    root = project("basic")
    game = load_game(root / "content" / "sample")
    assert set(game.inputs) == {GAME, ICONS}
    assert set(game.component("heroes").inputs) == {HEROES}
    assert set(game.component("minis").inputs) == {"content/sample/decks/minis.yaml"}
    assert all(len(d) == 64 for d in game.inputs.values())
    assert isinstance(game.inputs, MappingProxyType)
    with pytest.raises(TypeError):
        game.inputs["x"] = "y"  # type: ignore[index]


def test_a_reader_given_records_everything_in_its_recordings(project):
    root = project("basic")
    game_root = root / "content" / "sample"
    reader = Reader([game_root, root / "layouts"], root)
    with reader.recording() as everything:
        game = load_game(game_root, reader)
        load_icons(game.icons_file, dict(game.palette), Diagnostics(), reader=reader)
    assert set(everything) == {GAME, ICONS, HEROES, "content/sample/decks/minis.yaml"}


def test_a_component_file_outside_the_readers_roots_is_refused(project, tmp_path):
    root = project("basic")
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("id: x\n")
    (root / "content/sample/decks/link.yaml").symlink_to(outside)
    edit(root, GAME, "  - decks/minis.yaml\n", "  - decks/link.yaml\n")
    (problem,) = load_errors(root)
    assert problem == f"{GAME}:10:5: component file 'decks/link.yaml' leaves the game folder; refused"


# -- icons -----------------------------------------------------------------------------------------------------


def icon_problems(tmp_path, text: str, palette=None) -> tuple[dict, list[str]]:
    path = tmp_path / "icons.yaml"
    path.write_text(text)
    diags = Diagnostics()
    icons = load_icons(path, palette or {}, diags)
    return icons, [p.split(": ", 1)[1] for p in messages(diags)]


def test_an_icon_colour_with_an_alpha_byte_is_refused(tmp_path):
    _, problems = icon_problems(
        tmp_path, "dot:\n  shapes:\n    - {circle: [50, 50, 10], fill: '#ff000080'}\n"
    )
    assert len(problems) == 1 and "'fill' '#ff000080' has an alpha byte" in problems[0]
    assert "'opacity'" in problems[0]


def test_icon_colours_take_the_palette_tint_and_none(tmp_path):
    icons, problems = icon_problems(
        tmp_path,
        "dot:\n  tint: sea\n  shapes:\n    - {circle: [50, 50, 10], fill: none, stroke: tint}\n",
        {"sea": "#1f6fb2"},
    )
    assert problems == []
    (shape,) = icons["dot"].shapes
    assert icons["dot"].tint == "#1f6fb2" and (shape.fill, shape.stroke) == (None, "tint")


def test_relative_path_commands_draw_where_the_absolute_ones_would(tmp_path):
    icons, problems = icon_problems(
        tmp_path,
        "a:\n  shapes:\n    - path: 'M 10 10 L 20 10 L 20 30 Z'\n"
        "b:\n  shapes:\n    - path: 'm 10 10 l 10 0 l 0 20 z'\n",
    )
    assert problems == [] and icons["a"].shapes[0].commands == icons["b"].shapes[0].commands


@pytest.mark.parametrize(
    "shape, expected",
    [
        ("{circle: [1, 2]}", "icon 'x': 'circle' needs 3 numbers"),
        ("{circle: [1, 2, 3], rect: [1, 2, 3, 4]}", "icon 'x': a shape needs exactly one of: path, circle"),
        ("{path: 'M 1 1 A 2 2'}", "icon 'x': unexpected 'A' in path"),
        ("{line: [1, 2, 3, 4], opacity: 2}", "icon 'x': 'opacity' must be from 0 to 1 (got 2)"),
        ("{circle: [1, 2, 3], fil: red}", "unknown key 'fil' in icon 'x' | did you mean 'fill'?"),
    ],
)
def test_icon_shape_problems(tmp_path, shape, expected):
    _, problems = icon_problems(tmp_path, f"x:\n  shapes:\n    - {shape}\n")
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_icon_names_follow_the_one_name_pattern(tmp_path):
    _, problems = icon_problems(tmp_path, "Big Star:\n  shapes:\n    - {circle: [50, 50, 10]}\n")
    assert problems == ["icon name 'Big Star' must be lower-case letters, digits, '-' and '_'"]


def test_an_icons_own_tint_is_a_colour_not_tint(tmp_path):
    _, problems = icon_problems(tmp_path, "dot:\n  tint: tint\n  shapes:\n    - {circle: [50, 50, 10]}\n")
    assert problems == [
        "'tint' is not a colour: 'tint' (use '#rrggbb', '#rgb', 'cmyk(c, m, y, k)', a palette name, white, black, grey or none)"
    ]
