"""Rulebooks, measured from the PDF: contents against headings and pages, counts against the content, pictures."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from conftest import ROOT, fast_first, form_uses, run_cli

CONTENT = ROOT / "content"
GAMES = ["elements-of-the-gods", "deity", "orbis", "river", "seven-gods"]


@pytest.fixture(scope="module")
def built(shipped_build):
    return shipped_build  # the shipped games, built once per session with --strict (conftest.py)


def toc_entries(pdf) -> list[tuple[str, int]]:
    """(heading, page) pairs read from the contents pages (those before the first numbered chapter)."""
    entries = []
    for page in pdf.pages[1:4]:
        for line in (page.extract_text() or "").splitlines():
            m = re.match(r"^(\d+(?:\.\d+)?\s+.+?)\s*(?:\. ?){3,}\s*(\d+)$", line.strip())
            if m:
                entries.append((m.group(1).strip(), int(m.group(2))))
    return entries


@pytest.mark.parametrize("game", fast_first(GAMES, fast="orbis"))
def test_contents_match_the_headings_and_their_pages(shipped_pdf, shipped_build, game):
    """Every contents entry's heading is on the page it names, and every page after the cover has its folio at
    its foot. The pages' text is read with pdfium (a tenth of pdfplumber's time); the contents with pdfplumber,
    whose lines the entries' pattern reads."""
    import pypdfium2 as pdfium

    entries = toc_entries(shipped_pdf(game, "rulebook.pdf"))
    assert len(entries) >= 8
    numbers = [e[0].split()[0] for e in entries]
    assert numbers[0] == "1" and "2" in numbers
    doc = pdfium.PdfDocument(str(shipped_build / game / "rulebook.pdf"))
    try:
        texts, feet = [], []
        for page in doc:
            text = page.get_textpage()
            width, _height = page.get_size()
            texts.append(re.sub(r"\s+", " ", text.get_text_range()))
            feet.append(text.get_text_bounded(left=0, bottom=0, right=width, top=15 * 72 / 25.4).split())
    finally:
        doc.close()
    for title, page in entries:
        assert title in texts[page - 1], (title, page)
    for i, foot in enumerate(feet[1:], start=2):
        assert str(i) in foot, (i, foot)


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g != "orbis"])
def test_component_counts_in_the_rulebook_equal_the_content(built, shipped_pdf, game):
    manifest = json.loads((built / game / "manifest.json").read_text())
    cards = {f["component"]: f["faces"] for f in manifest["files"] if f["kind"] != "rulebook"}
    names = json.loads(run_cli("list", game, "--content", CONTENT, "--format", "json").output)
    text = "\n".join(p.extract_text() or "" for p in shipped_pdf(game, "rulebook.pdf").pages)
    for comp in names["games"][0]["components"]:
        assert re.search(rf"{re.escape(comp['name'])} {cards[comp['id']]}\b", text), comp["name"]


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g != "orbis"])
def test_pictures_of_every_deck_are_drawn_as_vector_faces(built, shipped_pdf, game):
    manifest = json.loads((built / game / "manifest.json").read_text())
    decks = [f for f in manifest["files"] if f["kind"] == "cards"]
    pdf = shipped_pdf(game, "rulebook.pdf")
    faces = [n for p in pdf.pages for n in form_uses(p) if re.match(rb"FormXob\.RF\d+$", n)]
    images = sum(len(p.images) for p in pdf.pages)
    assert len(faces) >= 2 * len(decks)  # front and back of one card per deck (plus the cover)
    assert images == 0  # drawings, not screenshots


def test_rulebooks_are_listed_in_the_manifest(built):
    for game in GAMES:
        manifest = json.loads((built / game / "manifest.json").read_text())
        (entry,) = [f for f in manifest["files"] if f["kind"] == "rulebook"]
        assert entry["path"] == "rulebook.pdf" and entry["pages"] >= 8


def _sample_with_rulebook(root: Path, text: str) -> Path:
    (root / "content" / "sample" / "rulebook.md").write_text(text)
    return root


def test_a_wrong_count_in_the_components_chapter_is_an_error(project):
    root = _sample_with_rulebook(
        project("basic"), "# Sample\n\n## Components\n\n- 12 Hero cards\n- 20 Mini cards\n"
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/rulebook.md:5:3: error: rules check: rulebook: the rulebook says 12 Hero cards but the content"
        " has 11" in result.output
    )
    assert "Mini cards but" not in result.output


@pytest.mark.parametrize(
    ("heading", "wrong", "share"),
    [
        ("Components", "12 Hero cards", "each player takes 3 Hero cards"),
        ("Spielmaterial", "12 Hero cards", "jeder Spieler erhält 3 Hero cards"),
        ("Spielinhalt", "12 Hero cards", "davon 3 Hero cards je Farbe"),
        ("Matériel", "12 Hero cards", "chaque joueur prend 3 Hero cards"),
        ("Composants", "12 Hero cards", "dont 3 Hero cards rouges"),
    ],
)
def test_a_wrong_count_is_found_in_a_components_chapter_of_any_language(project, heading, wrong, share):
    """The chapter is found by its title in English, German or French, and a share or a limit written in the
    same language is not taken for the component's total."""
    book = f"# Sample\n\n## {heading}\n\n- {wrong}\n- 20 Mini cards\n\n{share}.\n"
    root = _sample_with_rulebook(project("basic"), book)
    result = run_cli("check", "--content", "content", "sample", cwd=root)
    assert result.exit_code == 1, result.output
    said = [line for line in result.output.splitlines() if "the rulebook says" in line]
    assert said == [
        "error rulebook: the rulebook says 12 Hero cards but the content has 11 [content/sample/rulebook.md:5:3]"
    ], result.output


def test_counts_written_as_expressions_always_agree(project):
    root = _sample_with_rulebook(
        project("basic"),
        "# Sample\n\n## Components\n\n"
        "- {{ components['heroes'].faces }} Hero cards\n\n{{ component_table() }}\n",
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out" / "sample" / "rulebook.pdf") as pdf:
        assert "11 Hero cards" in "".join(p.extract_text() or "" for p in pdf.pages)


@pytest.mark.parametrize(
    "source, expected",
    [
        (
            "# T\n\n## A\n\nText {{ components['nosuch'].faces }}\n",
            "content/sample/rulebook.md:5:1: error: template error: ",
        ),
        ("# T\n\n## A\n\n{% if %}\n", "content/sample/rulebook.md:5:1: error: template error: "),
        (
            "# T\n\n{{ picture('nosuch') }}\n",
            "content/sample/rulebook.md:3:1: error: template error: picture(): no component",
        ),
        (
            "## No title\n\ntext\n",
            "content/sample/rulebook.md:1:1: error: a rulebook needs a '# Title' heading",
        ),
    ],
)
def test_rulebook_source_errors_are_located(project, source, expected):
    root = _sample_with_rulebook(project("basic"), source)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert expected in result.output and "Traceback" not in result.output


def test_nothing_is_copied_word_for_word_from_the_source_documents():
    checker = ROOT.parent / "shared" / "tools" / "verbatim_check.py"
    if not checker.is_file():
        pytest.skip("the shared verbatim checker is not beside this checkout")
    out = subprocess.run([sys.executable, str(checker), str(ROOT)], capture_output=True, text=True).stdout
    assert out.strip() == ""
