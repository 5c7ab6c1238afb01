import pytest

from pnpgen.errors import ContentError
from pnpgen.source import LList, LMap, load_text


def test_values_remember_where_they_stand():
    data = load_text("deck:\n  id: x\n  cards:\n    - name: a\n    - name: b\n", "f.yaml")
    assert isinstance(data, LMap)
    cards = data["deck"]["cards"]
    assert isinstance(cards, LList)
    assert str(cards.loc_at(1)) == "f.yaml:5:7"
    assert str(data["deck"].key_loc("cards")) == "f.yaml:3:3"
    assert str(cards[1].loc_of("name")) == "f.yaml:5:13"


def test_syntax_errors_carry_line_and_column():
    with pytest.raises(ContentError) as err:
        load_text("a: 1\nb: [1, 2\n", "f.yaml")
    assert str(err.value).startswith("f.yaml:3:1: error: invalid YAML")


def test_duplicate_keys_are_errors():
    with pytest.raises(ContentError, match=r"f.yaml:3:1: error: duplicate key 'a' \(first at line 1\)"):
        load_text("a: 1\nb: 2\na: 3\n", "f.yaml")


@pytest.mark.parametrize(
    "doc", ["a: !!python/object/apply:os.system ['echo hi']\n", "a: !custom 3\n", "a: !!binary aGVsbG8=\n"]
)
def test_arbitrary_tags_are_refused(doc):
    with pytest.raises(ContentError, match="is not allowed in content files"):
        load_text(doc, "f.yaml")


def test_alias_bombs_are_refused():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    prev = "a"
    for n in "bcdefghij":
        lines.append(f"{n}: &{n} [" + ", ".join([f"*{prev}"] * 10) + "]")
        prev = n
    with pytest.raises(ContentError, match="expands to more than"):
        load_text("\n".join(lines) + "\n", "bomb.yaml")


def test_merge_keys_fill_what_the_mapping_does_not_set():
    data = load_text("base: &b {x: 1, y: 2}\nthing:\n  <<: *b\n  y: 3\n", "f.yaml")
    assert dict(data["thing"]) == {"y": 3, "x": 1}


def test_plain_types():
    data = load_text("i: 3\nf: 2.5\nb: true\nn: null\ns: '3'\nd: 2024-01-02\n", "f.yaml")
    assert data == {"i": 3, "f": 2.5, "b": True, "n": None, "s": "3", "d": "2024-01-02"}


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a: ", "}")])
def test_nesting_is_bounded_before_any_parser_recurses(opening, closing):
    """200,000 levels segfaulted libyaml's recursive composer; the event stream stops at the bound instead."""
    depth = 200_000
    with pytest.raises(
        ContentError, match=r"f.yaml:1:\d+: error: lists and mappings nest deeper than 64 levels"
    ):
        load_text("a: " + opening * depth + "1" + closing * depth + "\n", "f.yaml")


def test_a_second_document_and_an_unknown_alias_are_errors():
    with pytest.raises(ContentError, match=r"f.yaml:2:1: error: a content file holds one YAML document"):
        load_text("a: 1\n---\nb: 2\n", "f.yaml")
    with pytest.raises(ContentError, match=r"f.yaml:1:8: error: alias '\*a' names no anchor before it"):
        load_text("x: &a [*a]\n", "f.yaml")


@pytest.mark.parametrize(
    "text, shown", [(".nan", "nan"), (".inf", "inf"), ("-.Inf", "-inf"), (".NaN", "nan")]
)
def test_nan_and_infinity_are_refused_where_they_are_read(text, shown):
    with pytest.raises(ContentError, match=rf"f.yaml:2:8: error: must be a finite number \(got {shown}\)"):
        load_text(f"a: 1\nbleed: {text}\n", "f.yaml")


@pytest.mark.parametrize("key", ["no", "yes", "on", "off", "True"])
def test_a_key_yaml_reads_as_true_or_false_is_refused_with_advice(key):
    with pytest.raises(
        ContentError, match=rf"f.yaml:2:6: error: the key '{key}' reads as (true|false) in YAML"
    ):
        load_text(f"cards:\n  - {{{key}: 1, name: x}}\n", "f.yaml")


def test_text_in_every_style_loads_as_yaml_constructs_it():
    import yaml

    text = (
        "plain: Card 7:spend, two\nsingle: 'it''s'\ndouble: \"tab\\there \\u00e9\"\n"
        "literal: |\n  two\n  lines\nfolded: >\n  one\n  line\ntagged: !!str 123\nkey with spaces: x\n"
        "'3': quoted key\nempty: ''\nlist: [a, 'b', \"c\"]\n"
    )
    data = load_text(text, "f.yaml")
    expected = yaml.safe_load(text)
    assert data == expected
    assert all(type(data[k]) is type(expected[k]) for k in expected if k != "list")
    assert [type(v) for v in data["list"]] == [str, str, str]


MIXED = """\
cards:
  - name: Card 1
    n: 3
    yes_no: yes
    none: ~
    f: 1.5
    date: 2024-01-02
    quoted: "12"
    single: 'true'
    block: |
      two
      lines
    tagged: !!str 7
    anchored: &a plain text
    again: *a
  - name: Card 1
    n: 3
    <<: {extra: 1}
"""


def test_every_scalar_loads_with_its_type_and_place_however_often_its_text_recurs():
    """Plain scalars' tags are remembered by their text within a file: the same text reads the same."""
    import yaml

    doc = load_text(MIXED, "m.yaml")
    plain = yaml.safe_load(MIXED)
    first, second = doc["cards"]
    for key in (
        "name",
        "n",
        "yes_no",
        "none",
        "f",
        "quoted",
        "single",
        "block",
        "tagged",
        "anchored",
        "again",
    ):
        assert first[key] == plain["cards"][0][key] and type(first[key]) is type(plain["cards"][0][key]), key
    assert first["date"] == "2024-01-02"  # dates stay the text written
    assert (second["name"], second["n"], second["extra"]) == ("Card 1", 3, 1)
    assert str(first.loc_of("n")) == "m.yaml:3:8" and str(second.loc_of("n")) == "m.yaml:17:8"
    assert str(first.key_loc("tagged")) == "m.yaml:13:5" and str(doc["cards"].loc_at(1)) == "m.yaml:16:5"
