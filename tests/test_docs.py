"""docs/content-format.md against the code: every key a content mapping accepts is documented and every key
documented is accepted (the tables of `pnpgen.schema`, and of `pnpgen.layout.elements` for layout elements), and
the names the docs say templates see are the names they see."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from pnpgen.schema import tables

DOCS = Path(__file__).resolve().parent.parent / "docs" / "content-format.md"
TEXT = DOCS.read_text(encoding="utf-8")
WORD = re.compile(r"[a-z0-9_]+")


def section_table(heading: str) -> dict[str, list[str]]:
    """The first table after `### heading`: its first column's name (in backticks) -> the row's other cells."""
    m = re.search(rf"^### {re.escape(heading)}\n(.*?)(?=^#)", TEXT + "\n#", re.M | re.S)
    assert m, f"docs/content-format.md has no '### {heading}'"
    rows = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        name = re.fullmatch(r"`([^`]+)`", cells[0]) if cells else None
        if name:
            assert name.group(1) not in rows, f"'{name.group(1)}' is listed twice under '{heading}'"
            rows[name.group(1)] = cells[1:]
    assert rows, f"'### {heading}' has no table of names in backticks"
    return rows


def named(cell: str) -> set[str]:
    """The names a cell writes in backticks (`x y w h` names four; `[x, y]` and `palette.fire` name none)."""
    words = {
        w.rstrip(":,")
        for code in re.findall(r"`([^`]+)`", cell)
        if not code.startswith("[")
        for w in code.split()
    }
    return {w for w in words if WORD.fullmatch(w)}


# -- content keys ----------------------------------------------------------------------------------------------

GROUPS = defaultdict(list)
for _table in tables():
    GROUPS[_table.heading].append(_table)


@pytest.mark.parametrize("heading", sorted(GROUPS))
def test_every_key_accepted_is_documented_and_every_key_documented_is_accepted(heading):
    accepted = {key.name for table in GROUPS[heading] for key in table.keys}
    documented = set(section_table(heading))
    assert documented - accepted == set(), f"documented under '{heading}' but refused"
    assert accepted - documented == set(), f"accepted but not documented under '{heading}'"


@pytest.mark.parametrize("heading", sorted(GROUPS))
def test_the_docs_say_which_keys_are_required(heading):
    rows = section_table(heading)
    for name in rows:
        required = any(t.key(name).required for t in GROUPS[heading] if name in t.names)
        says = rows[name][0].lower().startswith("required")
        assert says == required, f"'{name}' under '{heading}': the docs say {'not ' * (not says)}required"


def _other_keys() -> dict[str, tuple[str, ...]]:
    """Mappings whose keys the code checks with a list of its own rather than a `Table`."""
    from pnpgen.layout.spec import LAYOUT_KEYS
    from pnpgen.schema.printers import KEYS as PRINTER_KEYS

    return {"Keys of a layout": LAYOUT_KEYS, "Keys of a printer profile": PRINTER_KEYS}


@pytest.mark.parametrize("heading", sorted(_other_keys()))
def test_the_keys_checked_without_a_table_are_documented_too(heading):
    assert set(section_table(heading)) == set(_other_keys()[heading])


def test_the_docs_tables_are_all_known():
    """Every '### Keys of ...' heading belongs to a table of the code (a renamed table leaves none behind)."""
    headings = set(re.findall(r"^### (Keys of .*)$", TEXT, re.M))
    assert headings == set(GROUPS) | set(_other_keys())


# -- layout elements -------------------------------------------------------------------------------------------


def element_rows() -> dict[str, set[str]]:
    rows = {**section_table("Elements"), **section_table("Board elements")}
    return {name: named(cells[0]) for name, cells in rows.items()}


def test_element_keys_agree_with_the_registry():
    try:
        from pnpgen.layout.elements import COMMON_KEYS, TYPES
    except ImportError as exc:  # the registry is another part's; until it exists there is nothing to hold
        pytest.skip(f"pnpgen.layout.elements is not importable ({exc}); element keys are not checked")
    rows = element_rows()
    for name, t in TYPES.items():
        assert name in rows, f"element type '{name}' has no row in docs/content-format.md"
        assert rows[name] - set(t.keys) - set(COMMON_KEYS) == set(), f"documented for '{name}' but refused"
        assert set(t.keys) - rows[name] == set(), f"accepted by '{name}' but not documented"
    common = re.search(r"^All elements take (.*)\.$", TEXT, re.M)
    assert common and named(common.group(1)) == set(COMMON_KEYS)


# -- names templates see ---------------------------------------------------------------------------------------


@pytest.fixture
def sample(project, monkeypatch):
    """The fixture game with a board added, as the working folder."""
    root = project("basic")
    monkeypatch.chdir(root)
    game_root = root / "content" / "sample"
    (game_root / "decks" / "board.yaml").write_text(
        "id: map\nkind: board\nsize: 200mm x 200mm\nsides:\n  - {id: a, layout: hero, fields: {grid: 9}}\n"
    )
    game_file = game_root / "game.yaml"
    game_file.write_text(game_file.read_text() + "  - decks/board.yaml\n")
    return root


def layout_names(root, monkeypatch) -> tuple[dict, dict]:
    """What the pipeline hands a layout's templates for a card and for a board side."""
    from pnpgen.errors import Diagnostics
    from pnpgen.layout.spec import LayoutLibrary
    from pnpgen.pipeline import faces
    from pnpgen.pipeline.assets import game_icons
    from pnpgen.project import Project
    from pnpgen.schema import load_game
    from pnpgen.templating import Compiler

    project = Project(root / "content")
    game_root = root / "content" / "sample"
    reader = project.reader(game_root)
    game = load_game(game_root, reader)
    seen = []
    monkeypatch.setattr(faces, "draw_face", lambda layout, fc, names, label, diags: seen.append(names))
    library = LayoutLibrary(project.layout_folders(game_root), Compiler(), reader)
    painter = faces.Painter(game, library, game_icons(game, Diagnostics(), reader), reader)
    deck = game.component("heroes")
    painter.card(deck, deck.cards[0], painter.context(deck), Diagnostics())
    card = seen[0]
    painter.board(game.component("map"), Diagnostics())
    return card, seen[-1]


def loop_names(tmp_path) -> set[str]:
    from pnpgen.errors import Diagnostics, Location
    from pnpgen.faces import Text
    from pnpgen.layout.draw import FaceContext, draw_face, template_names
    from pnpgen.layout.spec import LayoutLibrary
    from pnpgen.templating import Compiler
    from pnpgen.units import MM

    (tmp_path / "l.yaml").write_text(
        "elements:\n  - {type: text, for_each: '[1]', x: 0, y: 0, w: 60, h: 80, size: 6,"
        " text: \"{{ loop | sort | join(' ') }}\"}\n"
    )
    fc = FaceContext(63.5 * MM, 88.9 * MM, 3 * MM, 3 * MM, {}, {}, tmp_path)
    layout = LayoutLibrary([tmp_path], Compiler()).get("l", Location("test"))
    face = draw_face(layout, fc, template_names(fc, {}, {}, {}), "card", Diagnostics())
    return {w for op in face.ops if isinstance(op, Text) for w in op.text.split()}


def test_the_names_a_layout_sees_are_the_documented_ones(sample, monkeypatch, tmp_path):
    rows = section_table("Names a layout's templates see")
    card, side = layout_names(sample, monkeypatch)
    assert set(rows) == set(card) | {"loop"}
    assert set(card) == set(side)
    assert named(rows["deck"][0]) == set(card["deck"]) == set(side["deck"])
    assert named(rows["game"][0]) == set(card["game"])
    own = {"colour", "text"}  # the sample card's fields besides its name
    assert named(rows["card"][0]) == (set(card["card"]) - own) | set(side["card"]) - {"grid"}
    assert named(rows["loop"][0]) - {"for_each"} == loop_names(tmp_path)


def test_the_names_a_rulebook_sees_are_the_documented_ones(sample, monkeypatch):
    from pnpgen.rulebook import sources
    from pnpgen.schema import load_game

    rows = section_table("Names a rulebook's templates see")
    game = load_game(sample / "content" / "sample")
    path = sample / "content" / "sample" / "rulebook.md"
    path.write_text("# Sample\n")
    seen = []
    monkeypatch.setattr(sources, "render_document", lambda text, names, display: seen.append(names) or text)
    sources.render_source(path, game, None)
    (names,) = seen
    data = sources.template_data(game)
    assert set(rows) == set(names)
    assert named(rows["game"][0]) == set(data["game"])
    assert named(rows["components"][0]) == set(data["components"]["heroes"])


def test_no_name_the_docs_give_templates_is_left_over():
    """Names the docs once gave templates and that never existed stay out (`card.copy` was one)."""
    assert "card.copy" not in TEXT and "`copy`" not in TEXT
