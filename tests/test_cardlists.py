"""Cards from a JSON list (`cards_from: data/cards.json`): every value at its line and column, every mistake of
JSON told there, a card's bad field told at its value, the file an input of its deck, and refused, at the card,
by the editors that write CSV and YAML cards. Which kinds of sheet there are is `pnpgen.sheetkinds`'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from test_datasheets import ROWS, cards, with_sheet

from pnpgen.edit import card_files_of, set_card_field
from pnpgen.errors import ContentError, Location
from pnpgen.schema.cardlists import load_json
from pnpgen.schema.game import in_sheet
from pnpgen.sheetkinds import KINDS, expected, kind_of
from pnpgen.source import MAX_DEPTH
from pnpgen.textfiles import plain_text


def test_every_value_knows_its_line_and_column():
    text = '[\n  {"name": "Ash", "count": 5,\n\t"tags": ["a", true, null, -2.5e1]}\n]\n'
    data = load_json(text, "c.json")
    assert data == [{"name": "Ash", "count": 5, "tags": ["a", True, None, -25.0]}]
    card = data[0]
    assert (data.loc.line, data.loc.col) == (1, 1) and (data.loc_at(0).line, data.loc_at(0).col) == (2, 3)
    assert [(card.loc_of(k).line, card.loc_of(k).col) for k in card] == [(2, 12), (2, 28), (3, 10)]
    assert (card.key_loc("tags").line, card.key_loc("tags").col) == (3, 2)
    assert [(loc.line, loc.col) for loc in card["tags"].item_locs] == [(3, 11), (3, 16), (3, 22), (3, 28)]
    assert isinstance(card["count"], int) and json.loads(text) == data


BAD = {
    "a trailing comma": ('[{"a": 1},\n]', "2:1: invalid JSON: expected a value, found ']'"),
    "a key without quotes": ("[{a: 1}]", "1:3: invalid JSON: expected a key in double quotes"),
    "a missing colon": ('[{"a" 1}]', "1:7: invalid JSON: expected ':', found '1'"),
    "a missing comma": ('[{"a": 1} {"b": 2}]', "1:11: invalid JSON: expected ',' or ']', found '{'"),
    "an unterminated string": ('[{"a": "x}]', "1:8: invalid JSON: unterminated string"),
    "a control character": ('[{"a": "x\ty"}]', "1:10: invalid JSON: invalid control character"),
    "a bad escape": ('[{"a": "\\q"}]', "1:9: invalid JSON: invalid \\escape"),
    "a comment": ("// cards\n[]", "1:1: invalid JSON: expected a value, found '/'"),
    "NaN": ('[{"a": NaN}]', "1:8: invalid JSON: expected a value, found 'N'"),
    "a number past a double": ('[{"a": 1e999}]', "1:8: must be a finite number (got 1e999)"),
    "a number of 401 digits": ('[{"a": ' + "9" * 401 + "}]", "1:8: a number of 401 digits is too large"),
    "a key given twice": ('[{"a": 1,\n  "a": 2}]', "2:3: duplicate key 'a' (first at line 1)"),
    "more after the end": ("[] []", "1:4: invalid JSON: more after the end of the document: '['"),
    "nothing": ("  ", "1:3: invalid JSON: the document ends early"),
    "too deep": ("[" * (MAX_DEPTH + 1), f"1:{MAX_DEPTH + 1}: lists and mappings nest deeper than 64 levels"),
    # Half a surrogate pair is no character: no PDF, CSV or JSON writer could encode it (a build stopped with
    # an internal error). In a value or a key, alone, before another escape, after a whole pair.
    "a lone high surrogate": (
        '["Ash \\ud800"]',
        "1:7: invalid JSON: '\\ud800' is half of a UTF-16 surrogate pair, alone",
    ),
    "a lone low surrogate": (
        '["\\uDC00 x"]',
        "1:3: invalid JSON: '\\uDC00' is half of a UTF-16 surrogate pair, alone",
    ),
    "a high surrogate before a letter": (
        '["\\ud83d\\u0041"]',
        "1:3: invalid JSON: '\\ud83d' is half of a UTF-16 surrogate pair, alone",
    ),
    "a pair in the wrong order": (
        '["\\ude00\\ud83d"]',
        "1:3: invalid JSON: '\\ude00' is half of a UTF-16 surrogate pair, alone",
    ),
    "a surrogate after a pair": (
        '["\\ud83d\\ude00\\\\\\ud800"]',
        "1:17: invalid JSON: '\\ud800' is half of a UTF-16 surrogate pair, alone",
    ),
    "a surrogate in a key": (
        '[{"na\\udbffme": 1}]',
        "1:6: invalid JSON: '\\udbff' is half of a UTF-16 surrogate pair, alone",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_a_mistake_of_json_is_an_error_at_its_place(case):
    text, message = BAD[case]
    with pytest.raises(ContentError) as exc:
        load_json(text, "c.json")
    (d,) = exc.value.diagnostics.items
    assert f"{d.location.line}:{d.location.col}: {d.message}" == message


def test_whole_pairs_and_escaped_backslashes_are_no_lone_surrogates():
    text = r'["\ud83d\ude00", "\\ud800", "\u00e9\ud800\udc00"]'
    assert load_json(text, "c.json") == json.loads(text) == ["\U0001f600", "\\ud800", "\u00e9\U00010000"]


SHAPES = {  # documents JSON and YAML both read: the bound of values falls at the same place in each
    "flat numbers": "[" + "0," * 200 + "0]",
    "one-key cards": "[" + '{"a":0},' * 200 + "{}]",
    "nested": "[" + "[[],{}]," * 100 + "0]",
    "cards on lines": "[\n" + '  {"name": "x", "tags": [1, 2]},\n' * 100 + "0]",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_values_are_bounded_where_yaml_bounds_them(shape, monkeypatch):
    """A 5 MB list of 625,000 cards was read whole (950 MB, tests/hostile/bounded/json-many-values.yaml); YAML's
    bound (`source.MAX_VALUES`, here made small) counts values and keys as YAML does."""
    import pnpgen.schema.cardlists as cardlists
    import pnpgen.source as source

    monkeypatch.setattr(source, "MAX_VALUES", 100)
    monkeypatch.setattr(cardlists, "MAX_VALUES", 100)
    told = []
    for load in (load_json, source.load_text):
        with pytest.raises(ContentError) as exc:
            load(SHAPES[shape], "c")
        (d,) = exc.value.diagnostics.items
        told.append((d.location.line, d.location.col, d.message))
    assert told[0] == told[1] and told[0][2] == "this file holds more than 100 values"


@pytest.mark.parametrize("indent", [None, 0, 2, "\t", "\r\n  "])
def test_every_place_is_where_its_value_is_written(indent):
    """Lines and columns are counted on as the parser goes (no index of lines: 5 MB of new lines once took 220
    MB): every item's place holds the item's own JSON."""
    data = [{"name": f"c{i}", "n": [i, -i * 0.5, None, {"k": "v\n"}], "t": i % 2 == 0} for i in range(30)]
    raw = json.dumps(data, indent=indent if indent != "\r\n  " else None)
    if indent == "\r\n  ":
        raw = raw.replace(", ", ",\r\n  ")
    text = plain_text(raw)
    lines = text.split("\n")
    found = load_json(text, "c.json")
    assert found == data

    def walk(value):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            at = value.loc_of(key) if isinstance(value, dict) else value.loc_at(key)
            assert lines[at.line - 1][at.col - 1 :].startswith(json.dumps(item)[:1]), (key, at)
            if isinstance(item, (dict, list)):
                walk(item)

    walk(found)


def test_white_space_costs_no_more_than_the_text():
    import tracemalloc

    text = "\n" * 1_000_000 + "[]"
    tracemalloc.start()
    try:
        assert load_json(text, "c.json") == []
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(text), f"{peak:,} bytes to read {len(text):,}"


def test_a_json_deck_builds_fails_at_a_cell_keeps_its_output_and_rebuilds_when_edited(project):
    root = with_sheet(project("basic"), "h.json", json.dumps(cards(ROWS), indent=1), "data/h.json")
    assert run_cli("build", "--out", "out", "--strict", cwd=root).exit_code == 0
    sheet = root / "content/sample/data/h.json"
    good = (root / "out/sample/heroes.pdf").read_bytes()
    sheet.write_text(sheet.read_text().replace('"count": 6', '"count": 6.5'))
    result = run_cli("build", "--out", "out", cwd=root)
    line, col = next(
        (i, ln.index("6.5") + 1) for i, ln in enumerate(sheet.read_text().splitlines(), 1) if "6.5" in ln
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"content/sample/data/h.json:{line}:{col}: error: 'count' must be a whole number" in result.output
    assert (root / "out/sample/heroes.pdf").read_bytes() == good
    sheet.write_text(
        sheet.read_text().replace('"count": 6.5', '"count": 6').replace("Tide Caller", "Tide Singer")
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert "(2 rendered, 1 up to date)" in result.output, result.output  # the deck and print-all


def test_a_json_object_is_not_a_list_of_cards(project):
    root = with_sheet(project("basic"), "h.json", '{"name": "Ash"}', "data/h.json")
    result = run_cli("build", "--out", "out", cwd=root)
    assert "content/sample/data/h.json:1:1: error: a JSON card file is a list of cards (got a mapping)" in (
        result.output
    )


# Every JSON file a card is read from: a list that `cards_from` names, or a component's own file written as JSON
# (it loads as YAML does), its cards under cards:, tokens: or tiles:. A component file once got "no card named
# 'Tide Caller' in this file", with no place and nothing expected.
JSON_FILES = {
    "a list of cards": lambda rows: rows,
    "a deck's file": lambda rows: {"id": "heroes", "kind": "cards", "cards": rows},
    "a token sheet's file": lambda rows: {"id": "heroes", "kind": "tokens", "tokens": rows},
}


@pytest.mark.parametrize("shape", JSON_FILES)
def test_the_editor_refuses_a_json_card_at_its_field_and_leaves_the_file(tmp_path, shape):
    sheet = tmp_path / "h.json"
    sheet.write_text(json.dumps(JSON_FILES[shape](cards(ROWS)), indent=1))
    before = sheet.read_bytes()
    for card in ("Tide Caller", 1):
        with pytest.raises(ContentError) as exc:
            set_card_field(sheet, card, "count", 3)
        (d,) = exc.value.diagnostics.items
        assert d.message == "a JSON file is read-only here: change 'count' of this card in the file itself"
        data = load_json(before.decode(), "h")
        at = (data if isinstance(data, list) else data[list(data)[-1]])[1].loc_of("count")
        assert (d.location.line, d.location.col) == (at.line, at.col) and at.line > 1
    with pytest.raises(ContentError) as exc:
        set_card_field(sheet, "Tide Callr", "count", 3)
    assert "did you mean 'Tide Caller'?" in str(exc.value) and f"{sheet.name}:" in str(exc.value)
    assert sheet.read_bytes() == before


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_each_kind_is_known_by_every_reader_of_places_and_writer(kind, tmp_path):
    """The kinds' list is the one every part asks: the data sheets' message, a place's reading as a cell, the
    files the editor writes."""
    for suffix in kind.suffixes:
        assert kind_of(f"data/x{suffix.upper()}") is kind and suffix in expected()
        assert in_sheet(Location(f"data/x{suffix}", 3, 2)) is kind.cells
        assert Location(f"data/x{suffix}", 3, 2).in_sheet is kind.cells

        class Deck:
            path = tmp_path / "d.yaml"
            inputs = {f"content/g/data/x{suffix}": "digest"}

        assert (tmp_path / f"content/g/data/x{suffix}" in card_files_of([Deck], tmp_path)) is kind.edited


def test_the_docs_name_every_kind_of_sheet():
    docs = (Path(__file__).parent.parent / "docs" / "content-format.md").read_text()
    section = docs[docs.index("### Card data from spreadsheets") :][:3000]
    for kind in KINDS:
        assert kind.suffixes[0][1:].upper() in section.upper(), f"name {kind.name}s in the docs' section"
