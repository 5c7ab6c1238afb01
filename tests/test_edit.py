"""`pnpgen.edit`, the one writer of layouts and cards, and `pnpgen edit`: an edit changes the edited value's
bytes and no other byte of the file (compared byte for byte), whatever the file's comments, quoting, flow or
block style, line endings or byte order mark; a refused edit leaves the file as it was."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, fast_once, run_cli
from test_datasheets import ods, xlsx

from pnpgen.edit import (
    Conflict,
    add_element,
    delete_element,
    digest,
    duplicate_element,
    locate,
    move_order,
    set_card_field,
    set_values,
)
from pnpgen.errors import ContentError, Location
from pnpgen.layout.elements import TYPES
from pnpgen.layout.kinds import Length
from pnpgen.project import Project
from pnpgen.source import load_text

# A layout full of what a person writes; {X} is the one value edited, everything else must stay.
STYLES = {
    "comments": (
        "# the front of a hero card: Dieu-Soleil \u2600\ufe0f \U0001f31e\n"
        "elements:   # drawn in order\n"
        "  # the title, over the art\n"
        "  - type: text   # one line\n"
        "    id: title\n"
        "    x: {X}      # mm from the trim\n"
        "    y: 5\n"
        "    w: 40\n"
        "    h: 10\n"
        "    text: 'H\u00e9llo: w\U0001f30dorld'   # quoted, beyond the BMP\n"
        "  # a box\n"
        "  - {type: rect, id: box, x: 1, y: 2, w: 3, h: 4}\n"
    ),
    "flow": 'elements:\n  - {type: text, id: title, x: {X}, y: 5, w: 40, h: 10, text: "a, b"}  # flow\n',
    "odd-quoting": (
        "elements:\n"
        '  - "type": "text"\n'
        "    'id': 'title'\n"
        '    "x":    {X}\n'
        "    y: 5.0\n"
        "    w: 4.0e+1\n"
        "    h: 10\n"
        '    text: "it\'s \\"quoted\\"\\n twice"\n'
    ),
    "block-scalar": (
        "elements:\n"
        "  - type: text\n"
        "    id: title\n"
        "    text: |\n"
        "      two\n"
        "      lines\n"
        "\n"
        "    x: {X}\n"
        "    y: 5\n"
        "    w: 40\n"
        "    h: 10\n"
    ),
    "deep-indent": (
        "elements:\n"
        "-       type: text\n"
        "        id: title\n"
        "        x: {X}\n"
        "        y: 5\n"
        "        w: 40\n"
        "        h: 10\n"
        "        text: Hi\n"
    ),
    "extends": (
        "extends: base   # the parent layout\n"
        "vars:\n"
        "  accent: '{{ palette.ember }}'\n"
        "elements:\n"
        "  - id: title\n"
        "    type: text\n"
        "    x: {X}\n"
        "    y: 5\n"
        "    w: 40\n"
        "    h: 10\n"
        "    text: '{{ card.name }}'\n"
    ),
}
ENDINGS = {
    "lf": ("", "\n"),
    "crlf": ("", "\r\n"),
    "cr": ("", "\r"),
    "bom-crlf": ("\ufeff", "\r\n"),
    "bom-lf": ("\ufeff", "\n"),
}


def written(template: str, x: str, ending: tuple[str, str]) -> bytes:
    bom, nl = ending
    return (bom + template.replace("{X}", x).replace("\n", nl)).encode()


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("style", STYLES)
def test_setting_a_value_changes_only_its_bytes(tmp_path, style, ending):
    path = tmp_path / "hero.yaml"
    path.write_bytes(written(STYLES[style], "5", ENDINGS[ending]))
    result = set_values(path, "title", {"x": 15.0})
    assert path.read_bytes() == written(STYLES[style], "15", ENDINGS[ending])
    assert result.digest == digest(path.read_bytes())
    assert [text.strip().split("#")[0].strip() for _, text in result.lines] in (
        [("x: 15")],
        [('"x":    15')],
        [result.lines[0][1].strip().split("  #")[0]],  # the flow line, whole
    )


@pytest.mark.parametrize(
    "value, text", [(12.5, "12.5"), (12.500000001, "12.5"), (7, "7"), (-0.04, "0"), (3.25, "3.2")]
)
def test_numbers_are_written_as_a_person_writes_them(tmp_path, value, text):
    path = tmp_path / "hero.yaml"
    path.write_bytes(written(STYLES["comments"], "5", ENDINGS["lf"]))
    set_values(path, "title", {"x": value})
    assert path.read_bytes() == written(STYLES["comments"], text, ENDINGS["lf"])


def test_a_file_that_writes_finer_lengths_keeps_its_precision(tmp_path):
    path = tmp_path / "hero.yaml"
    path.write_text(STYLES["comments"].replace("y: 5", "y: 5.25").replace("{X}", "5"))
    set_values(path, "title", {"x": 12.125})
    assert "    x: 12.12      # mm from the trim\n" in path.read_text()  # 12.125 rounds to even


def _examples():
    """Every registered element type's example, with each number it sets: the class of numeric keys (a length
    moves by 2.5 mm, any other number by 1)."""
    for name, t in sorted(TYPES.items()):
        example = load_text(t.example, "example")
        for key, kind in t.keys.items():
            value = example.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                step = 2.5 if isinstance(kind, Length) else 1
                yield pytest.param(t.example, key, value, step, id=f"{name}-{key}")


def _text(value) -> str:
    return json.dumps(value) if isinstance(value, (str, list)) else str(value)


@pytest.mark.parametrize("example, key, old, step", list(_examples()))
@pytest.mark.parametrize("style", ["flow", "block"])
def test_every_numeric_key_of_every_element_type_is_set_in_place(tmp_path, example, key, old, step, style):
    data = load_text(example, "example")
    if style == "flow":
        body = "  - {" + ", ".join(f"{k}: {_text(v)}" for k, v in data.items()) + "}   # the example\n"
    else:
        body = "".join(
            ("  - " if i == 0 else "    ") + f"{k}: {_text(v)}   # {k}\n"
            for i, (k, v) in enumerate(data.items())
        )
    before = f"# every type\nelements:\n{body}"
    path = tmp_path / "l.yaml"
    path.write_text(before)
    new = old + step
    set_values(path, 0, {key: new})
    after = path.read_text()
    assert load_text(after, "l")["elements"][0][key] == pytest.approx(new)
    # one contiguous change: the old number's characters for the new number's
    start = next(i for i, (a, b) in enumerate(zip(before, after)) if a != b)
    tail = next(i for i, (a, b) in enumerate(zip(reversed(before), reversed(after))) if a != b)
    assert before[start : len(before) - tail].strip("0123456789.") == ""
    assert after[start : len(after) - tail].strip("0123456789.") == ""


def test_a_new_key_takes_the_elements_indentation_or_its_braces(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_text(STYLES["deep-indent"].replace("{X}", "5") + "- {type: rect, x: 1, y: 2, w: 3, h: 4}\n")
    set_values(path, "title", {"size": 12, "color": "#8a1c1c"})
    set_values(path, 1, {"fill": "white"})
    assert path.read_text() == (
        STYLES["deep-indent"].replace("{X}", "5")
        + '        size: 12\n        color: "#8a1c1c"\n'
        + "- {type: rect, x: 1, y: 2, w: 3, h: 4, fill: white}\n"
    )


def test_strings_keep_their_quoting_and_are_quoted_only_when_they_must(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_text(STYLES["comments"].replace("{X}", "5"))
    set_values(path, "title", {"text": "It's here"})
    assert "    text: 'It''s here'   # quoted, beyond the BMP\n" in path.read_text()
    set_values(path, "box", {"fill": "yes"})  # plain `yes` would read as a boolean
    assert load_text(path.read_text(), "l")["elements"][1]["fill"] == "yes"


def test_a_key_is_removed_with_its_line(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_text(STYLES["comments"].replace("{X}", "5").replace("    y: 5\n", "    y: 5\n    size: 9\n"))
    set_values(path, "title", {"size": None})
    assert path.read_text() == STYLES["comments"].replace("{X}", "5")


@pytest.mark.parametrize(
    "values, message",
    [
        ({"x": "abc"}, "6:8: error: 'x' expected a length"),
        ({"colour": "red"}, "unknown key 'colour' in text element"),
        ({"align": "middle"}, "'align'"),
        ({"type": "rect"}, "an element's type cannot be changed"),
        ({"w": None}, "text element needs 'w'"),
        ({"id": "box"}, "duplicate id 'box'"),
        ({"overlap": "sometimes"}, "'overlap' takes only 'allowed'"),
    ],
)
def test_a_bad_value_is_refused_with_its_place_and_the_file_untouched(tmp_path, values, message):
    path = tmp_path / "hero.yaml"
    before = written(STYLES["comments"], "5", ENDINGS["bom-crlf"])
    path.write_bytes(before)
    with pytest.raises(ContentError) as exc:
        set_values(path, "title", values)
    assert message in str(exc.value)
    assert path.read_bytes() == before


def test_a_file_changed_since_it_was_loaded_is_not_overwritten(tmp_path):
    path = tmp_path / "hero.yaml"
    path.write_text(STYLES["comments"].replace("{X}", "5"))
    seen = digest(path.read_bytes())
    path.write_text(STYLES["comments"].replace("{X}", "6"))  # someone saved it meanwhile
    for call in (
        lambda: set_values(path, "title", {"x": 9}, expect_digest=seen),
        lambda: delete_element(path, "box", expect_digest=seen),
        lambda: add_element(path, "rect", {"x": 1, "y": 1, "w": 1, "h": 1}, expect_digest=seen),
        lambda: move_order(path, "box", 0, expect_digest=seen),
        lambda: duplicate_element(path, "box", expect_digest=seen),
    ):
        with pytest.raises(Conflict):
            call()
    assert path.read_text() == STYLES["comments"].replace("{X}", "6")


@pytest.mark.parametrize(
    "name, text, edit",
    [
        (
            "deck.yaml",
            "id: d\nkind: cards\ncards:\n  - {name: Ash, cost: 2}\n",
            lambda p, d: set_card_field(p, "Ash", "cost", 3, d),
        ),
        ("cards.csv", "name,cost\nAsh,2\n", lambda p, d: set_card_field(p, "Ash", "cost", 3, d)),
    ],
)
def test_a_card_file_changed_since_it_was_loaded_is_not_overwritten(tmp_path, name, text, edit):
    path = tmp_path / name
    path.write_text(text)
    seen = digest(path.read_bytes())
    path.write_text(text.replace("Ash", "Ask"))
    with pytest.raises(Conflict):
        edit(path, seen)
    assert path.read_text() == text.replace("Ash", "Ask")


@pytest.mark.parametrize("layout", ["flow", "block"])
def test_a_list_value_is_written_in_flow_style(tmp_path, layout):
    path = tmp_path / "l.yaml"
    if layout == "flow":
        path.write_text(
            "elements:\n  - {type: polygon, points: [[0, 0], [10, 0], [5, 8]], fill: white}  # tri\n"
        )
    else:
        path.write_text(
            "elements:\n  - type: polygon   # tri\n    points: [[0, 0], [10, 0], [5, 8]]\n    fill: white\n"
        )
    before = path.read_text()
    set_values(path, 0, {"points": [[0, 0], [12.5, 0], [6.25, 9]]})
    assert path.read_text() == before.replace("[[0, 0], [10, 0], [5, 8]]", "[[0, 0], [12.5, 0], [6.25, 9]]")


def test_unknown_elements_are_named_with_the_ids_there_are(tmp_path):
    path = tmp_path / "hero.yaml"
    path.write_text(STYLES["comments"].replace("{X}", "5"))
    with pytest.raises(ContentError, match="no element with id 'titel'") as exc:
        set_values(path, "titel", {"x": 1})
    assert "did you mean 'title'" in str(exc.value)
    with pytest.raises(ContentError, match="no element 7"):
        set_values(path, 7, {"x": 1})


# -- whole elements ----------------------------------------------------------------------------------------------

LAYOUT = (
    "elements:\n"
    "  # the frame\n"
    "  - type: rect   # frame\n"
    "    id: frame\n"
    "    area: bleed\n"
    "    fill: white\n"
    "    # end of frame\n"
    "\n"
    "  - type: text\n"
    "    id: title\n"
    "    x: 5\n"
    "    y: 5\n"
    "    w: 40\n"
    "    h: 10\n"
    "    text: Hi\n"
)
FRAME = "  # the frame\n  - type: rect   # frame\n    id: frame\n    area: bleed\n    fill: white\n    # end of frame\n"
TITLE = "  - type: text\n    id: title\n    x: 5\n    y: 5\n    w: 40\n    h: 10\n    text: Hi\n"


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_whole_elements_move_with_their_comments(tmp_path, nl):
    path = tmp_path / "l.yaml"
    path.write_bytes(LAYOUT.replace("\n", nl).encode())
    move_order(path, "frame", 1)
    assert path.read_bytes() == ("elements:\n\n" + TITLE + FRAME).replace("\n", nl).encode()
    move_order(path, "frame", 0)  # blank lines between elements stay where they were
    assert path.read_bytes() == ("elements:\n\n" + FRAME + TITLE).replace("\n", nl).encode()
    unmoved = move_order(path, "frame", 0)
    assert unmoved.lines == () and unmoved.digest == unmoved.before == digest(path.read_bytes())
    delete_element(path, "frame")
    assert path.read_bytes() == ("elements:\n\n" + TITLE).replace("\n", nl).encode()


def test_duplicate_gives_the_copy_a_free_id_and_add_writes_like_the_neighbours(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_text(LAYOUT)
    duplicate_element(path, "title")
    duplicate_element(path, "title")
    ids = [e.get("id") for e in load_text(path.read_text(), "l")["elements"]]
    assert ids == ["frame", "title", "title-3", "title-2"]
    add_element(path, "ellipse", {"x": 1, "y": 2.25, "w": 3, "h": 4, "id": "dot"}, after="frame")
    assert (
        "  - type: ellipse\n    id: dot\n    x: 1\n    y: 2.2\n    w: 3\n    h: 4\n  - type: text\n"
        in path.read_text()
    )
    flow = tmp_path / "f.yaml"
    flow.write_text(
        "elements:\n  - {type: rect, x: 1, y: 2, w: 3, h: 4}\n  - {type: rect, x: 5, y: 6, w: 7, h: 8}\n"
    )
    add_element(flow, "line", {"x1": 0, "y1": 0, "x2": 10, "y2": 10})
    assert flow.read_text().endswith("  - {type: line, x1: 0, y1: 0, x2: 10, y2: 10}\n")


def test_an_added_element_is_checked_first(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_text(LAYOUT)
    with pytest.raises(ContentError, match="text element needs 'text'"):
        add_element(path, "text", {"x": 1, "y": 1, "w": 5, "h": 5})
    with pytest.raises(ContentError, match="unknown element type 'txt'"):
        add_element(path, "txt", {})
    assert path.read_text() == LAYOUT


# -- where an element is defined -----------------------------------------------------------------------------------


def _game(tmp_path):
    content = tmp_path / "content"
    game = content / "g"
    (game / "layouts").mkdir(parents=True)
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "base.yaml").write_text(
        "elements:\n  - {id: bg, type: rect, area: bleed, fill: white}\n  - {id: name, type: text, x: 1, y: 1, w: 9, h: 5, text: a}\n"
    )
    (game / "layouts" / "hero.yaml").write_text(
        "extends: base\n"
        "elements:\n"
        "  - {id: name, type: text, x: 2, y: 2, w: 9, h: 5, text: b}\n"
        "  - {id: pips, type: ellipse, for_each: 3, x: '{{ loop.index0 * 5 }}', y: 1, w: 4, h: 4}\n"
        "  - id: cost\n"
        "    type: text\n"
        "    x: 40\n"
        "    y: '{{ card.cost * 2 }}'\n"
        "    w: 5\n"
        "    h: 5\n"
        "    text: c\n"
    )
    return Project(content), game


def test_locate_finds_the_file_of_the_extends_chain_and_whether_a_drag_may_move_it(tmp_path):
    project, game = _game(tmp_path)
    hero = game / "layouts" / "hero.yaml"
    name = locate(project, game, "hero", "name")
    assert (name.path, name.line, name.index, name.movable) == (hero, 3, 0, True)
    bg = locate(project, game, "hero", 0)  # the parent's elements come first
    assert bg.path == tmp_path / "layouts" / "base.yaml" and not bg.movable and "outside the game" in bg.why
    pips = locate(project, game, "hero", "pips")
    assert not pips.movable and "for_each" in pips.why and pips.edit_line == 4
    cost = locate(project, game, "hero", "cost")
    assert not cost.movable and "'y' is a template" in cost.why and cost.edit_line == 8
    from pnpgen.layout.spec import LayoutLibrary
    from pnpgen.templating import Compiler

    built = LayoutLibrary(project.layout_folders(game), Compiler()).get("hero", Location("t"))
    where = [locate(project, game, "hero", el) for el in built.elements]  # the built elements themselves
    assert [(w.path.parent.name, w.line) for w in where] == [
        ("layouts", 2),
        ("layouts", 3),
        ("layouts", 4),
        ("layouts", 5),
    ]
    assert (
        where[0].path.parent.parent == tmp_path and where[1].id == "name"
    )  # the child's name replaced the parent's


# -- cards -------------------------------------------------------------------------------------------------------

DECK = "id: d\nkind: cards\ncards:   # the heroes\n  - name: Ash   # first\n    cost: 2\n  - {name: Tide, cost: 3, text: 'Wave'}\n"


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_a_yaml_card_field_is_written_in_place(tmp_path, nl):
    path = tmp_path / "d.yaml"
    path.write_bytes(DECK.replace("\n", nl).encode())
    set_card_field(path, "Ash", "cost", 4)
    set_card_field(path, 1, "text", "Big wave")
    set_card_field(path, "Tide", "art", "tide.png")
    assert (
        path.read_bytes()
        == DECK.replace("cost: 2", "cost: 4")
        .replace("text: 'Wave'}", "text: 'Big wave', art: tide.png}")
        .replace("\n", nl)
        .encode()
    )
    with pytest.raises(ContentError, match="'count' must be"):
        set_card_field(path, "Ash", "count", -1)


CSV = 'name;cost;text\r\nAsh;2;"Burn; all"\r\n\r\nTide;3;Wave\r\nRoot;1\r\n'


@pytest.mark.parametrize(
    "card, field, value, expected",
    [
        ("Ash", "cost", 4, CSV.replace("Ash;2;", "Ash;4;")),
        (0, "text", "Burn", CSV.replace('"Burn; all"', '"Burn"')),  # a quoted cell stays quoted
        ("Tide", "text", 'Say "hi"; go', CSV.replace("Tide;3;Wave", 'Tide;3;"Say ""hi""; go"')),
        ("Root", "text", "Grow", CSV.replace("Root;1\r\n", "Root;1;Grow\r\n")),  # a short row grows
        ("Tide", "cost", None, CSV.replace("Tide;3;", "Tide;;")),
    ],
)
def test_a_csv_cell_is_written_with_the_files_delimiter_and_quoting(tmp_path, card, field, value, expected):
    path = tmp_path / "cards.csv"
    path.write_bytes(("\ufeff" + CSV).encode())
    set_card_field(path, card, field, value)
    assert path.read_bytes() == ("\ufeff" + expected).encode()


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
@pytest.mark.parametrize("value", ["'q'", "'Fire','Water'", "it's, 'so'", "'a','b','c'", "x 'y'; z"])
def test_a_csv_cell_with_apostrophes_is_written_and_read_back_as_typed(tmp_path, delimiter, value):
    """An apostrophe is never a CSV quote (a spreadsheet quotes with '"'): a cell such as 'Fire' is written and
    read back as typed, on a sheet of every delimiter (the sniffer took it for the quote, or guessed the
    delimiter from it, and the write was refused or the cell read without its apostrophes)."""
    from pnpgen.schema.datasheets import _csv_cells

    path = tmp_path / "cards.csv"
    path.write_text(
        delimiter.join(["name", "cost", "text"]) + "\nAsh" + delimiter + "2" + delimiter + "Burn\n"
    )
    set_card_field(path, "Ash", "text", value)
    rows = list(_csv_cells(path.read_text(), "cards.csv"))
    assert rows[-1][1] == {1: "Ash", 2: "2", 3: value}, path.read_text()


def test_a_csv_without_the_column_or_the_card_is_refused_untouched(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_bytes(CSV.encode())
    with pytest.raises(ContentError, match="no column 'txt'"):
        set_card_field(path, "Ash", "txt", "x")
    with pytest.raises(ContentError, match="no card named 'Ahs'"):
        set_card_field(path, "Ahs", "cost", 1)
    assert path.read_bytes().decode() == CSV


@pytest.mark.parametrize("name, make", [("h.xlsx", xlsx), ("h.ods", ods)])
def test_a_workbook_is_never_written_and_the_refusal_names_sheet_and_cell(tmp_path, name, make):
    path = tmp_path / name
    data = make([["name", "cost"], ["Ash", 2], ["Tide", 3]])
    path.write_bytes(data)
    with pytest.raises(ContentError) as exc:
        set_card_field(path, "Tide", "cost", 4)
    assert f"{name}:Heroes!B3" in str(exc.value) and "sheet 'Heroes', cell B3" in str(exc.value)
    assert path.read_bytes() == data


# -- the command -------------------------------------------------------------------------------------------------


def test_pnpgen_edit_sets_values_and_refuses_bad_ones_without_a_traceback(tmp_path):
    path = tmp_path / "hero.yaml"
    original = written(STYLES["comments"], "5", ENDINGS["crlf"])
    path.write_bytes(original)
    result = run_cli("edit", path, "title", "x=12.5", "color=#8a1c1c", "text=Hi, there")
    assert result.exit_code == 0, result.output
    data = load_text(path.read_text(), "l")["elements"][0]
    assert (data["x"], data["color"], data["text"]) == (12.5, "#8a1c1c", "Hi, there")
    good = path.read_bytes()
    assert good.count(b"\r\n") == original.count(b"\r\n") + 1  # one new line (color), CRLF like the rest
    for args, message in [
        (("title", "x=abc"), "error: 'x' expected a length"),
        (("title", "x=1", "--expect", "0" * 64), "changed on disk"),
        (("nope", "x=1"), "no element with id 'nope'"),
        (("title", "id=a\0b"), "'id' must be a name of printable characters"),
        (("title", "--duplicate", "--id", "a\tb"), "'id' must be a name of printable characters"),
        (("title", "--duplicate", "--id", " "), "'id' must be a name of printable characters"),
    ]:
        result = run_cli("edit", path, *args)
        assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
        assert path.read_bytes() == good
    result = run_cli("edit", path, "title", "--move-to", "1")
    assert result.exit_code == 0 and load_text(path.read_text(), "l")["elements"][1]["id"] == "title"


def test_pnpgen_edit_changes_a_csv_card(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_bytes(CSV.encode())
    result = run_cli("edit", path, "Tide", "cost=5")
    assert result.exit_code == 0, result.output
    assert path.read_bytes().decode() == CSV.replace("Tide;3;", "Tide;5;")


def test_a_link_or_a_pipe_is_never_written_through(tmp_path):
    import os

    real = tmp_path / "real.yaml"
    real.write_text(LAYOUT)
    link = tmp_path / "link.yaml"
    try:
        link.symlink_to(real)
    except OSError:  # Windows without the right to make links
        pytest.skip("cannot make a link here")
    with pytest.raises(ContentError, match="this is a link; edit the file it points to"):
        set_values(link, "title", {"x": 1})
    assert link.is_symlink() and real.read_text() == LAYOUT
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe.yaml"
        os.mkfifo(pipe)
        result = run_cli("edit", pipe, "title", "x=1")
        assert result.exit_code == 2 and "is not a regular file" in result.output


def test_an_element_of_the_parent_layout_is_pointed_to(tmp_path):
    path = tmp_path / "hero.yaml"
    path.write_text(STYLES["extends"].replace("{X}", "5"))
    with pytest.raises(ContentError, match="the layout this one extends, 'base'"):
        set_values(path, "background", {"x": 1})


# -- the shipped layouts: files people wrote, full of comments ----------------------------------------------------

SHIPPED = sorted(
    p
    for pattern in ("content/*/layouts/*.yaml", "layouts/*.yaml", "pnpgen/layouts/*.yaml")
    for p in ROOT.glob(pattern)
)


@pytest.mark.parametrize(
    "source", fast_once([pytest.param(p, id=p.relative_to(ROOT).as_posix()) for p in SHIPPED])
)
def test_each_shipped_layout_takes_an_edit_in_one_line_and_back_byte_for_byte(tmp_path, source):
    data = load_text(source.read_text(encoding="utf-8"), "l")
    found = next(
        (
            (i, key, el[key])
            for i, el in enumerate(data.get("elements") or [])
            for key in ("x", "y", "w", "h", "size")
            if isinstance(el, dict) and type(el.get(key)) in (int, float) and "for_each" not in el
        ),
        None,
    )
    if found is None:
        pytest.skip("no element with a constant length")
    i, key, old = found
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    moved = set_values(path, i, {key: old + 1})
    assert len(moved.lines) == 1 and key in moved.lines[0][1]
    before, after = source.read_bytes().splitlines(), path.read_bytes().splitlines()
    assert len(before) == len(after) and sum(a != b for a, b in zip(before, after)) == 1
    set_values(path, i, {key: old}, expect_digest=moved.digest)
    assert path.read_bytes() == source.read_bytes()


@pytest.mark.parametrize(
    "old, value, text",
    [
        ("5.0", 15, "15.0"),
        ("5.0", 2.25, "2.2"),
        ("5.50", 6, "6.00"),
        ("5", 6.0, "6"),
        ("17.75", 25.1, "25.1"),
    ],
)  # zeros only where the old number showed them: 17.75 moved is 25.1, never 25.10
def test_a_number_keeps_the_decimals_it_was_written_with(tmp_path, old, value, text):
    path = tmp_path / "hero.yaml"
    path.write_bytes(written(STYLES["comments"], old, ENDINGS["lf"]))
    set_values(path, "title", {"x": value})
    assert path.read_bytes() == written(STYLES["comments"], text, ENDINGS["lf"])


CARD_FILES = sorted(
    p
    for pattern in (
        "content/*/decks/*.yaml",
        "content/*/tiles/*.yaml",
        "content/*/tokens/*.yaml",
        "content/*/data/*.csv",
    )
    for p in ROOT.glob(pattern)
)


@pytest.mark.parametrize("source", CARD_FILES, ids=[p.relative_to(ROOT).as_posix() for p in CARD_FILES])
def test_each_shipped_card_file_takes_an_edit_and_back_byte_for_byte(tmp_path, source):
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    if source.suffix == ".csv":
        import csv
        import io

        from pnpgen.schema.datasheets import csv_dialect

        text = source.read_text(encoding="utf-8-sig")
        rows = [
            r
            for r in csv.reader(io.StringIO(text, newline=""), csv_dialect(text))
            if any(c.strip() for c in r)
        ]
        field, old = rows[0][-1], rows[1][-1]
        new: object = old + " (edited)"
    else:
        data = load_text(source.read_text(encoding="utf-8"), "d")
        items = next(
            (data[k] for k in ("cards", "tiles", "tokens", "sides") if isinstance(data.get(k), list)), None
        )
        if not items:
            pytest.skip("no items written in the file")
        if "sides" in data:  # a board side's fields
            field, old = "edited", None
            new = "yes"
        else:
            field, old = "count", items[0].get("count")
            new = (old or 1) + 1
    edited = set_card_field(path, 0, field, new)
    assert len(edited.lines) == 1
    set_card_field(path, 0, field, old, expect_digest=edited.digest)
    assert path.read_bytes() == source.read_bytes()


BOARD = (
    "id: map\nkind: board\nsize: 200mm x 200mm\nsides:   # two\n"
    "  - id: front\n    layout: hero\n    fields: {grid: 9}   # the grid\n"
    "  - id: back\n    layout: hero\n"
)


def test_a_board_sides_fields_are_its_card_data(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text(BOARD)
    set_card_field(path, "front", "grid", 12)
    set_card_field(path, "back", "title", "Night side")
    assert path.read_text() == BOARD.replace("{grid: 9}", "{grid: 12}").replace(
        "  - id: back\n    layout: hero\n",
        "  - id: back\n    layout: hero\n    fields: {title: Night side}\n",
    )
    set_card_field(path, "back", "title", None)  # its last field: the mapping stays, empty
    set_card_field(path, 0, "grid", 9)
    assert path.read_text() == BOARD.replace(
        "  - id: back\n    layout: hero\n", "  - id: back\n    layout: hero\n    fields: {}\n"
    )
