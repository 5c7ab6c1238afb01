"""Layout element types: one registration each (keys, kinds, required, draw), one example each, and constant
values checked once when the layout loads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from pnpgen.errors import ContentError, Diagnostics, Location
from pnpgen.faces import Ellipse
from pnpgen.layout.draw import FaceContext, draw_face, template_names
from pnpgen.layout.elements import COMMON_KEYS, TYPES, _check
from pnpgen.layout.kinds import BOX, COLOUR, PAINT, Choice, ElementType, Length
from pnpgen.layout.spec import LayoutLibrary
from pnpgen.schema.icons import BUILTIN, load_icons
from pnpgen.templating import Compiler
from pnpgen.units import MM

ROOT = Path(__file__).resolve().parent.parent
ART = Path(__file__).parent / "fixtures" / "basic" / "content" / "sample" / "art"
ICONS = load_icons(BUILTIN, {}, Diagnostics())


def library(tmp_path, text: str, **options) -> LayoutLibrary:
    (tmp_path / "l.yaml").write_text(text)
    return LayoutLibrary([tmp_path], Compiler(), **options)


def draw(lib: LayoutLibrary, card: dict | None = None, palette: dict | None = None):
    fc = FaceContext(63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, palette or {}, ICONS, ART)
    diags = Diagnostics()
    layout = lib.get("l", Location("test"))
    names = template_names(fc, card or {}, {"id": "d"}, {"id": "g"})
    face = draw_face(layout, fc, names, "card 1", diags)
    fc.flush_notes(diags)
    return face, diags


def load_errors(tmp_path, text: str, **options) -> list[str]:
    with pytest.raises(ContentError) as exc:
        library(tmp_path, text, **options).get("l", Location("test"))
    return [brief(d) for d in exc.value.diagnostics.items]


def brief(d) -> str:
    """A diagnostic as line:column: message (the file is a temporary one)."""
    return f"{d.location.line}:{d.location.col}: {d.message}" + (f" | {d.hint}" if d.hint else "")


# -- the registry -------------------------------------------------------------------------------------------


def test_every_element_type_is_registered_once_with_what_it_takes():
    """Every module of the package but helpers (`_*.py`) is a type, found by itself: no list to keep here."""
    folder = ROOT / "pnpgen" / "layout" / "elements"
    modules = {f.stem.replace("_", "-") for f in folder.glob("*.py") if not f.name.startswith("_")}
    assert set(TYPES) == modules and len(modules) >= 12
    for name, t in TYPES.items():
        assert t.name == name and callable(t.draw)
        assert set(t.required) <= set(t.keys), name
        assert not set(COMMON_KEYS) & set(t.keys), name


def test_every_element_type_has_a_row_in_the_docs_and_no_type_goes_without_an_example():
    docs = (ROOT / "docs" / "content-format.md").read_text()
    with pytest.raises(TypeError, match="gives no example"):  # a module without one fails at import
        _check("dot", ElementType("dot", dict(BOX), lambda *a: None))
    for name in TYPES:
        assert re.search(rf"^\| `{name}` \|", docs, re.M), f"add a row for '{name}' to docs/content-format.md"


# Keys the docs' table did not name (docs/content-format.md); a new key must not join them.
UNDOCUMENTED = {("cells", "icon_scale"), ("ellipse", "dash"), ("polygon", "dash")}


def test_the_docs_name_only_keys_the_registry_declares():
    docs = (ROOT / "docs" / "content-format.md").read_text()
    missing = set()
    for name, t in TYPES.items():
        row = re.search(rf"^\| `{name}` \|(.*)$", docs, re.M).group(1)
        words = {
            w.rstrip(":,")
            for code in re.findall(r"`([^`]+)`", row)
            if not code.startswith("[")
            for w in code.split()
        }
        named = {w for w in words if re.fullmatch(r"[a-z0-9_]+", w)}
        assert named <= set(t.keys) | set(COMMON_KEYS), (name, sorted(named - set(t.keys)))
        missing |= {(name, key) for key in t.keys if key not in named}
    assert missing <= UNDOCUMENTED, f"add to the docs' rows: {sorted(missing - UNDOCUMENTED)}"


@pytest.mark.parametrize("name", sorted(TYPES))
def test_each_element_type_draws_its_example(name, tmp_path):
    """Every registered type draws the example its own module gives (nothing here lists the types)."""
    t = TYPES[name]
    face, diags = draw(library(tmp_path, f"elements:\n  - {t.example}\n"))
    assert not diags.errors, [brief(d) for d in diags.errors]
    assert [type(op).__name__ for op in face.ops] == list(t.draws)


def test_a_new_element_type_is_one_registration(tmp_path, monkeypatch):
    """A type in TYPES is validated by the library and drawn by draw_face: nothing else lists it."""

    def draw_dot(p, fc, ops, label, diags):
        x, y, w, h = p.box()
        ops.append(Ellipse(x, y, w, h, p.get("fill"), None, 0.0))

    dot = ElementType(
        "dot",
        {**BOX, "fill": COLOUR, "size": Length()},
        draw_dot,
        required=("x", "y", "w", "h"),
        example="{type: dot, x: 1, y: 2, w: 3, h: 4}",
        draws=("Ellipse",),
    )
    monkeypatch.setitem(TYPES, "dot", dot)
    face, diags = draw(library(tmp_path, "elements:\n  - {type: dot, x: 1, y: 2, w: 3, h: 4, fill: black}\n"))
    assert not diags.items and face.ops == (Ellipse(1 * MM, 2 * MM, 3 * MM, 4 * MM, "#000000", None, 0.0),)
    errors = load_errors(tmp_path, "elements:\n  - {type: dot, x: 1, y: 2, w: 3, fil: red}\n")
    assert errors == [
        "2:35: unknown key 'fil' in dot element | did you mean 'fill'? "
        "(accepted: as, fill, for_each, h, id, overlap, size, type, w, when, x, y)",
        "2:5: dot element needs 'h'",
    ]


def test_helpers_stay_importable_from_their_element_and_from_draw():
    from pnpgen.layout import draw as draw_module
    from pnpgen.layout.elements.cells import cell_polygons
    from pnpgen.layout.elements.track import track_positions

    assert draw_module.cell_polygons is cell_polygons and draw_module.track_positions is track_positions
    assert len(cell_polygons("hex", 3, 2, 0, 0, 100, 100)) == 6
    size, spaces = track_positions(10, 0, 0, 100 * MM, 100 * MM)
    assert len(spaces) == 10 and size > 0


# -- constant values are checked when the layout loads -------------------------------------------------------

BAD = """elements:
  - type: rect
    area: trim
    fill: "#12345"
  - type: text
    x: 3em
    y: 5
    w: 20
    h: 10
    text: Hi
    align: centre
"""


def test_constant_values_are_checked_once_at_their_line_when_the_layout_loads(tmp_path):
    errors = load_errors(tmp_path, BAD)
    assert errors == [
        "4:11: 'fill' is not a colour: '#12345' (use '#rrggbb', '#rgb', 'cmyk(c, m, y, k)', a palette name, white, black, grey or none)",
        "6:8: 'x' unknown unit 'em' in '3em' (accepted: mm, cm, in, pt)",
        "11:12: 'align' must be one of left, center, right, justify (got 'centre'); did you mean 'center'?",
    ]


def test_a_constant_never_drawn_is_still_checked(tmp_path):
    errors = load_errors(
        tmp_path, "elements:\n  - {type: rect, area: trim, opacity: 2, when: 'card.never'}\n"
    )
    assert errors == ["2:39: 'opacity' must be between 0 and 1 (got 2)"]


def test_palette_names_and_icons_are_checked_at_load_time_when_known(tmp_path):
    text = "elements:\n  - {type: rect, area: trim, fill: rouge}\n  - {type: icon, name: starr, x: 1, y: 1}\n"
    library(tmp_path, text).get("l", Location("test"))  # not known yet: left for the cards
    errors = load_errors(tmp_path, text, palette={"rose": "#ff0088"}, icons=ICONS)
    assert errors[0].startswith("2:36: 'fill' is not a colour: 'rouge'")
    assert errors[1].startswith("3:24: 'name' names no icon 'starr'; did you mean 'star'?")
    lib = library(
        tmp_path, "elements:\n  - {type: rect, area: trim, fill: rose}\n", palette={"rose": "#ff0088"}
    )
    face, diags = draw(lib, palette={"rose": "#ff0088"})
    assert face.ops[0].fill == "#ff0088"


@pytest.mark.parametrize(
    ("key", "value", "near"),
    [
        ("fill", "whte", "white"),
        ("stroke", "flam", "flame"),
        ("fill", "Blak", "black"),
        ("stroke", "non", "none"),
        ("fill", "rouge", None),  # nothing near: the forms a colour takes, as before
        ("stroke", "#ff00zz", None),  # a hex typo is no misspelt name
    ],
)
def test_a_misspelt_colour_name_names_the_nearest_colour(tmp_path, key, value, near):
    """Every colour key of a layout (and every colour, which parse_colour reads) says which name was meant."""
    text = f"elements:\n  - {{type: rect, area: trim, {key}: '{value}'}}\n"
    (error,) = load_errors(tmp_path, text, palette={"flame": "#e0902a", "sea": "#7fb3d5"})
    column = text.splitlines()[1].index("'") + 1  # at the value, where it is written
    assert error.startswith(f"2:{column}: '{key}' is not a colour: {value!r}")
    assert error.endswith(f"grey or none); did you mean {near!r}?" if near else "grey or none)")


def test_a_palette_name_unknown_at_load_time_is_checked_per_card(tmp_path):
    face, diags = draw(library(tmp_path, "elements:\n  - {type: rect, area: trim, fill: rouge}\n"))
    assert face is None
    assert [brief(d) for d in diags.errors] == [
        "2:36: 'fill' is not a colour: 'rouge' (use '#rrggbb', '#rgb', 'cmyk(c, m, y, k)', a palette name, white, black, "
        "grey or none) (while drawing card 1)"
    ]


def test_templated_values_are_still_checked_per_card(tmp_path):
    lib = library(tmp_path, 'elements:\n  - {type: rect, area: trim, fill: "{{ card.c }}"}\n')
    face, diags = draw(lib, {"c": "#00ff00"})
    assert face.ops[0].fill == "#00ff00"
    face, diags = draw(lib, {"c": "#00ff0080"})
    assert face is None
    (error,) = diags.errors
    assert error.location.line == 2 and "has an alpha byte" in error.message
    assert error.message.endswith("(while drawing card 1)")


def test_colours_are_read_by_the_one_parser_everywhere(tmp_path):
    lib = library(
        tmp_path,
        "elements:\n  - {type: rect, area: trim, fill: '#ABC', stroke: Black}\n"
        "  - {type: cells, x: 0, y: 0, w: 10, h: 10, cols: 1, rows: 1, fills: [[0, 0, '#fff']]}\n",
    )
    face, diags = draw(lib)
    assert (face.ops[0].fill, face.ops[0].stroke, face.ops[1].fill) == ("#aabbcc", "#000000", "#ffffff")
    import pnpgen.layout.draw as draw_module

    assert not hasattr(draw_module, "resolve_colour") and not hasattr(draw_module, "NAMED_COLOURS")


@pytest.mark.parametrize("computed", ["1e308 * 10", "(1e308 * 10) - (1e308 * 10)", "10 ** 8"])
def test_a_computed_length_that_is_not_finite_or_absurd_is_refused(computed):
    from pnpgen.layout.kinds import Bad, Length, Number

    value = eval(computed)  # what a template would hand over
    with pytest.raises(Bad, match=r"must be a finite number|is too large"):
        Length().parse(value, None)
    with pytest.raises(Bad, match=r"must be a finite number|is too large|must be between"):
        Number(0, 1).parse(value, None)


PAINTED = sorted(name for name, t in TYPES.items() if set(PAINT) <= set(t.keys))


@pytest.mark.parametrize("name", PAINTED)
def test_every_painted_shape_draws_each_paint_key_into_its_own_field(name, tmp_path):
    """`paint(p)` goes by name: a shape whose operation declares its fields in another order (`Polygon`: opacity
    before dash) still gets each value in its place."""
    given = {
        **yaml.safe_load(TYPES[name].example),
        **{"fill": "#102030", "stroke": "#405060", "stroke_width": 2, "dash": [3, 1], "opacity": 0.5},
    }
    face, diags = draw(library(tmp_path, "elements:\n  - " + json.dumps(given) + "\n"))
    assert not diags.errors, [brief(d) for d in diags.errors]
    (op,) = face.ops
    assert (op.fill, op.stroke, op.stroke_width, op.dash, op.opacity) == (
        "#102030",
        "#405060",
        2,
        (3, 1),
        0.5,
    )
    assert len(PAINTED) >= 4  # rect, ellipse, polygon, star


CHOICES = [(t, k, kind) for t, et in TYPES.items() for k, kind in et.keys.items() if isinstance(kind, Choice)]


@pytest.mark.parametrize(("type_name", "key", "kind"), CHOICES, ids=[f"{t}.{k}" for t, k, _ in CHOICES])
def test_every_choice_key_lists_its_choices_once_and_offers_the_close_one(tmp_path, type_name, key, kind):
    """The class: a value that is none of a key's choices. The choices are listed once, in their own order (not
    again as 'expected one of'), with the closest offered when one is close."""
    example = TYPES[type_name].example
    far, close = "zzzzzz", kind.options[-1] + "x"
    for value, offered in ((far, None), (close, kind.options[-1])):
        text = f"elements:\n  - {example[:-1]}, {key}: {value}}}\n" if key not in example else None
        if text is None:  # the example sets it: put the bad value in its place
            text = "elements:\n  - " + re.sub(rf"\b{key}: [^,}}]+", f"{key}: {value}", example) + "\n"
        (message,) = [m for m in load_errors(tmp_path, text) if f"'{key}'" in m]
        said = f"'{key}' must be one of {', '.join(kind.options)} (got '{value}')"
        assert said in message and "expected one of" not in message and message.count(kind.options[0]) == 1
        assert (f"did you mean '{offered}'?" in message) == (offered is not None), message
