"""Every count a command prints agrees with its number: `1 image`, `1 face`, `1 fact checked`, `1 error`, never
`1 images` (export png, list, build, check, new, preflight, export shop all print counts)."""

from __future__ import annotations

import re

import pytest
from conftest import run_cli

from pnpgen.errors import counted

ONE_PLURAL = re.compile(r"\b1 (files|faces|pages|images|facts|errors|warnings|errata)\b")


@pytest.mark.parametrize(
    "n, word, text",
    [(0, "error", "0 errors"), (1, "image", "1 image"), (2, "page", "2 pages"), (1, "erratum", "1 erratum")]
    + [(0, "erratum", "0 errata"), (3, "erratum", "3 errata")],
)
def test_counted(n, word, text):
    assert counted(n, word) == text


@pytest.fixture
def one_card(tmp_path):
    """The starter game cut down to one card of one copy with no back, and one fact: every count is 1."""
    content = tmp_path / "content"
    assert run_cli("new", "one", "--content", content).exit_code == 0
    game = content / "one"
    (game / "data" / "cards.csv").write_text("name,count,cost,colour,text\nSpark,1,1,accent,Gain :spark:.\n")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("back: card-back\n", ""))
    facts = game / "facts.yaml"
    facts.write_text(
        facts.read_text()
        .replace("says: 9 Action cards", "says: 1 Action card")
        .replace("total: 9", "total: 1")
    )
    (game / "rulebook.md").write_text(
        "# One\n\n## Components\n\n{{ component_table() }}\n\nOne Action card gives sparks :spark:.\n"
    )
    return content


@pytest.mark.parametrize(
    "args, says",
    [
        (["list"], "1 face (1 different)"),
        (["check", "one"], "one: 1 fact checked, 0 errors, 0 warnings, 0 errata: ok"),
        (["export", "png", "one"], "exported one/cards: 1 image -> "),
        (["build", "one"], "built one: "),
    ],
    ids=["list", "check", "export-png", "build"],
)
def test_a_count_of_one_is_singular(one_card, tmp_path, args, says):
    result = run_cli(
        *args,
        "--content",
        one_card,
        *(["--out", tmp_path / "out"] if args[0] != "list" and args[0] != "check" else []),
    )
    assert result.exit_code == 0, result.output
    assert says in result.output
    assert not ONE_PLURAL.search(result.output), result.output


def test_one_error_is_singular_in_check_and_build(one_card, tmp_path):
    facts = one_card / "one" / "facts.yaml"
    facts.write_text(facts.read_text().replace("total: 1", "total: 2"))
    check = run_cli("check", "one", "--content", one_card)
    assert "one: 1 fact checked, 1 error, 0 warnings, 0 errata: FAILED" in check.output
    build = run_cli("build", "one", "--content", one_card, "--out", tmp_path / "out")
    assert "failed one: 1 error; its output was left as it was" in build.output
    assert not ONE_PLURAL.search(check.output + build.output)


def _spec_text(one_card, out) -> str:
    import pypdfium2 as pdfium

    assert run_cli("export", "shop", "tgc", "one", "--content", one_card, "--out", out).exit_code == 0
    doc = pdfium.PdfDocument(str(out / "one" / "shop" / "tgc" / "spec.pdf"))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


def _deck_subject(one_card, out) -> str:
    import pypdfium2 as pdfium

    assert run_cli("build", "one", "--content", one_card, "--out", out).exit_code == 0
    doc = pdfium.PdfDocument(str(out / "one" / "cards.pdf"))
    try:
        return doc.get_metadata_dict()["Subject"]
    finally:
        doc.close()


@pytest.mark.parametrize(
    "written, says",
    [(_spec_text, "1 fact, 0 errors, 0 warnings, 0 errata"), (_deck_subject, "Action cards: 1 card, A4")],
    ids=["shop-spec", "deck-pdf-subject"],
)
def test_a_count_of_one_is_singular_in_the_files_written(one_card, tmp_path, written, says):
    """What a command writes counts as its summary does: the shop's spec sheet, a deck PDF's description."""
    text = written(one_card, tmp_path / "out")
    assert says in text, text
    wrong = re.search(r"\b1 (cards|facts|errors|warnings|PNG images)\b(?!/)", text)  # not the folder cards/
    assert not wrong, text
