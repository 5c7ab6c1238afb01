"""One mistake, one message: a card that cannot be drawn is told once, by its cause, however many rulebook
pictures, diagram pieces, component tables or covers show it; what only follows from it ("could not be drawn")
is not told beside it (`Diagnostics.consequence`)."""

from __future__ import annotations

import re

import pytest
from conftest import fast_once, run_cli

# Extra elements of the hero layout, harmless for a card without the fields they read.
EXTRA = """
  - type: rect
    x: 1
    y: 1
    w: 4
    h: 4
    fill: "{{ card.tint | default('white') }}"
  - type: image
    when: "card.art is defined"
    src: "{{ card.art | default('split.png') }}"
    x: 1
    y: 1
    w: 4
    h: 4
  - type: rect
    when: "card.glow is defined"
    x: 1
    y: 1
    w: 4
    h: 4
    fill: "{{ palette[card.glow] }}"
"""

# What is wrong with the first card, Ash Walker (every consumer below shows it), and the cause's message.
CAUSES = {
    "template": ("    glow: emberr\n", r"hero\.yaml:\d+:\d+: error: undefined value: .*'emberr'"),
    "colour": ("    tint: rouge\n", r"hero\.yaml:\d+:\d+: error: 'fill' is not a colour: 'rouge'"),
    "art": ("    art: lost.png\n", r"hero\.yaml:\d+:\d+: error: .*lost\.png"),
}

TABLE = "grid: {cols: 2, rows: 1, cell: 40mm}\npieces:\n  - {piece: heroes, card: Ash Walker, at: A1, size: 30mm}\n"
# Each consumer: the rulebook's body after its title, and the files it needs.
CONSUMERS = {
    "picture": ("{{ picture('heroes', 'Ash Walker') }}\n", {}),
    "diagram": ("{{ diagram('table') }}\n", {"diagrams/table.yaml": 'caption: "Two"\n' + TABLE}),
    "component-table": ("## Components\n\n{{ component_table() }}\n", {}),
    "default-cover": ("Play the heroes.\n", {}),
    "own-cover": (
        "Play the heroes.\n",
        {
            "cover.yaml": "background: black\nink: white\naccent: ember\nart: art\n",
            "diagrams/art.yaml": 'caption: "Art"\n' + TABLE,
        },
    ),
    "all-at-once": (
        "{{ picture('heroes', 'Ash Walker') }}\n\n{{ diagram('table') }}\n\n{{ diagram('table') }}\n\n"
        "## Components\n\n{{ component_table() }}\n",
        {"diagrams/table.yaml": 'caption: "Two"\n' + TABLE},
    ),
}

CASES = [(c, u) for c in CAUSES for u in CONSUMERS]


@pytest.mark.parametrize("cause,consumer", fast_once(CASES), ids=[f"{c}-{u}" for c, u in CASES])
def test_a_card_that_cannot_be_drawn_is_told_once_by_its_cause(project, cause, consumer):
    root = project("basic")
    game = root / "content" / "sample"
    layout = game / "layouts" / "hero.yaml"
    layout.write_text(layout.read_text() + EXTRA)
    body, files = CONSUMERS[consumer]
    (game / "rulebook.md").write_text(f"# Sample Game\n\n## Play\n\n{body}")
    for name, text in files.items():
        (game / name).parent.mkdir(exist_ok=True)
        (game / name).write_text(text)
    first = run_cli("build", "--out", "out", cwd=root)
    assert first.exit_code == 0, first.output
    before = {p.name: p.read_bytes() for p in (root / "out" / "sample").iterdir()}
    deck = game / "decks" / "heroes.yaml"
    fault, message = CAUSES[cause]
    deck.write_text(deck.read_text().replace("  - name: Ash Walker\n", "  - name: Ash Walker\n" + fault, 1))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(errors) == 1, result.output  # one mistake, one message
    assert re.search(message, errors[0]), result.output  # and it is the cause
    assert "could not be drawn" not in result.output
    assert "failed sample: 1 error;" in result.output
    assert {p.name: p.read_bytes() for p in (root / "out" / "sample").iterdir()} == before


def test_a_consequence_alone_is_still_told_and_still_fails():
    """A consequence whose cause was not told (nothing else went wrong) is shown: a build never fails silently."""
    from pnpgen.errors import Diagnostics, Location

    diags = Diagnostics()
    diags.warning(Location("a.md", 1, 1), "a warning is no cause")
    diags.consequence(Location("b.yaml", 2, 3), "card 'X' could not be drawn")
    assert [d.message for d in diags.sorted()] == ["a warning is no cause", "card 'X' could not be drawn"]
    diags.error(Location("z.yaml", 9, 9), "the cause")
    assert [d.message for d in diags.sorted()] == ["a warning is no cause", "the cause"]
    assert len(diags.errors) == 2  # both fail the build


ICON_USES = {  # how a card uses an icon the game does not have: (card text, deck line added, layout change)
    "inline": ("Spend :dropp: to move", "", None),
    "field": (
        "Spend :drop: to move",
        "    icon: dropp\n",
        ("    name: drop\n", '    name: "{{ card.icon }}"\n'),
    ),
}


@pytest.mark.parametrize("use", fast_once(list(ICON_USES)))
def test_an_unknown_icon_is_told_once_by_the_drawing(project, use):
    """The drawing tells an icon the game does not have (with the names it might mean); the rulebook check
    does not add that the book never shows it."""
    root = project("basic")
    game = root / "content" / "sample"
    (game / "rulebook.md").write_text("# Sample Game\n\n## Play\n\nSpend :drop: to act.\n")
    text, field, layout_change = ICON_USES[use]
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(
        deck.read_text()
        .replace("Spend :drop: to move", text)
        .replace("  - name: Ash Walker\n", "  - name: Ash Walker\n" + field)
    )
    if layout_change:
        layout = game / "layouts" / "hero.yaml"
        layout.write_text(layout.read_text().replace(*layout_change))
    result = run_cli("build", "--out", "out", cwd=root)
    assert "Traceback" not in result.output
    told = [line for line in result.output.splitlines() if "dropp" in line]
    assert len(told) == 1, result.output
    assert "names no icon" in told[0] and "drop" in told[0].split("dropp", 1)[1], told


def _told(kind: str):
    from pnpgen.errors import Diagnostics, Location

    diags = Diagnostics()
    cause, follows = Location("hero.yaml", 4, 5), Location("rulebook.md", 3, 1)
    if kind in ("with-cause", "twice"):
        diags.error(cause, "undefined value: 'emberr'")
    if kind == "twice":  # the same cause found by two consumers
        diags.error(cause, "undefined value: 'emberr'")
    diags.consequence(follows, "card 'Ash Walker' could not be drawn")
    diags.warning(Location("a.md", 1, 1), "a warning")
    diags.warning(Location("a.md", 1, 1), "a warning")
    return diags


@pytest.mark.parametrize("kind", ["with-cause", "twice", "alone"])
def test_the_serve_page_tells_what_the_command_line_tells(tmp_path, kind):
    """The page of `serve` shows a failed build's problems as every command prints them (`Diagnostics.sorted`):
    each once, a consequence only when its cause is not told."""
    from pnpgen.pipeline.run import GameResult
    from pnpgen.project import Project
    from pnpgen.serve.preview import Preview

    diags = _told(kind)
    preview = Preview(Project(tmp_path / "content", tmp_path / "out"), ["sample"])
    preview.update([GameResult("sample", False, diags)])
    (game,) = preview.state(-1, 0)["games"]
    shown = diags.sorted()
    assert [e["message"] for e in game["errors"]] == [d.message for d in shown if d.severity == "error"]
    assert [w["message"] for w in game["warnings"]] == [d.message for d in shown if d.severity == "warning"]
