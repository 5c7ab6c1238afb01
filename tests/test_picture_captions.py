"""A rulebook picture of a named card names that card in its caption, however the picture names it (its id or
its name); a deck's own picture (its first card) keeps the component's name. Measured in the written PDF."""

from __future__ import annotations

import pypdfium2
import pytest
from conftest import run_cli

CALLS = {
    "by-name": ("{{ picture('heroes', 'Tide Caller') }}", "Hero cards: Tide Caller, front and back"),
    "by-id": ("{{ picture('heroes', 'tide') }}", "Hero cards: Tide Caller, front and back"),
    "first-card": ("{{ component_table() }}", "Hero cards: front and back"),
}


def _text(pdf) -> str:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return "\n".join(" ".join(page.get_textpage().get_text_range().split()) for page in doc)
    finally:
        doc.close()


@pytest.mark.parametrize("call", list(CALLS))
def test_a_picture_of_a_card_names_it_in_its_caption(project, call):
    root = project("basic")
    game = root / "content" / "sample"
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(
        deck.read_text().replace("  - name: Tide Caller\n", "  - name: Tide Caller\n    id: tide\n")
    )
    body, caption = CALLS[call]
    (game / "rulebook.md").write_text(f"# Sample Game\n\n## Components\n\n{body}\n")
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    text = _text(root / "out" / "sample" / "rulebook.pdf")
    assert caption in text, text
    if call != "first-card":
        assert "Hero cards: front and back" not in text


def test_a_renamed_card_is_renamed_in_its_caption(project):
    """The caption stands on the card's name: renamed (its id kept, its face not printing the name), the rulebook is
    drawn again."""
    root = project("basic")
    game = root / "content" / "sample"
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(
        deck.read_text().replace("  - name: Tide Caller\n", "  - name: Tide Caller\n    id: tide\n")
    )
    layout = game / "layouts" / "hero.yaml"
    layout.write_text(
        layout.read_text().replace('text: "{{ card.name }}"', 'text: "{{ card.id | default(card.name) }}"')
    )
    (game / "rulebook.md").write_text("# Sample Game\n\n## Components\n\n{{ picture('heroes', 'tide') }}\n")
    assert run_cli("build", "--out", "out", "--no-check", cwd=root).exit_code == 0
    deck.write_text(deck.read_text().replace("Tide Caller", "Tide Singer"))
    assert run_cli("build", "--out", "out", "--no-check", cwd=root).exit_code == 0
    assert "Hero cards: Tide Singer, front and back" in _text(root / "out" / "sample" / "rulebook.pdf")


@pytest.mark.parametrize("card", ["Hero card", "Hero cards", "hero card"])
def test_a_card_named_as_its_component_is_not_named_twice(project, card):
    """A card whose name only says its component's again, one or many ("Story spinners: Story spinner"), is
    captioned as the component's own picture is."""
    root = project("basic")
    game = root / "content" / "sample"
    deck = game / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("  - name: Tide Caller\n", f"  - name: {card}\n"))
    (game / "rulebook.md").write_text(
        f"# Sample Game\n\n## Components\n\n{{{{ picture('heroes', '{card}') }}}}\n"
    )
    result = run_cli("build", "--out", "out", "--no-check", cwd=root)
    assert result.exit_code == 0, result.output
    text = _text(root / "out" / "sample" / "rulebook.pdf")
    assert "Hero cards: front and back" in text, text
    assert f"Hero cards: {card}" not in text and "Hero cards, front" not in text, text
