"""No line of text pnpgen sets starts where a reader would stumble (`pnpgen.text.breaks`): never with a mark that
closes what comes before it, standing apart (French `Papier :`, `« taille réelle »`, a German `100 %`), nor with
a unit after the number that ended the line before (`63,5` / `mm`, `9` / `× 9`), and no line ends with a mark
that opens what follows (`«`, `„`).

Held two ways: every word of every built-in language (`pnpgen.words`) set by every wrapper that sets pnpgen's
words (the print-and-build page and the checklist, a tiled board's map page, a diagram's caption, a rulebook's
or a piece's text) at a sweep of widths; and every PDF of the five shipped games built on A4 and on Letter, in
English, French and German, read back with pdfium, line by line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import fast_once, run_cli

from pnpgen.words import LANGUAGES, Words

CLOSING = set(":;!?%\u2030\u00bb\u203a)]}\u2026")
OPENING = set("\u00ab\u2039\u201e([{")
UNITS = {"mm", "cm", "m", "in", "pt", "px", "%", "\u2030", "\u00b0", "g/m\u00b2", "\u00d7", "x"}
CONTENT = Path(__file__).resolve().parent.parent / "content"
GAMES = ["deity", "elements-of-the-gods", "orbis", "river", "seven-gods"]
WIDTHS = range(100, 460, 9)  # points: a narrow column (where "63,5 × 88,9 mm" fits) to a page's


def stumbles(lines: list[str]) -> list[str]:
    """Each pair of lines whose break falls where none may: read as a reader reads, not as pnpgen breaks."""
    found = []
    for before, line in zip(lines, lines[1:]):
        a, b = before.split(), line.split()
        if not a or not b:
            continue
        first, last = b[0], a[-1]
        closes = first[0] in CLOSING and not any(ch.isalnum() for ch in first)
        opens = all(ch in OPENING for ch in last)
        unit = last[-1].isdigit() and first.rstrip(".,;:!?)]}\u00bb") in UNITS
        if closes or opens or unit:
            found.append(f"{before[-30:]!r} / {line[:30]!r}")
    return found


def _filled(language: str) -> list[str]:
    """Every word of the language, its placeholders given numbers (a size, a count) or a name."""
    words = Words(language)
    out = []
    for key, text in LANGUAGES[language].items():
        names = re.findall(r"(?<!\{)\{(\w+)\}", text)
        values = {n: "Deity" if n in ("title", "name", "names", "list", "files") else "63,5" for n in names}
        out.append(words(key, **values))
    return out


def _guide(text: str, width: float) -> list[str]:
    from pnpgen.render.guide import BODY, wrapped

    lines, _ = wrapped(text, BODY, width)
    return [" ".join("".join(p.value for p in w.pieces) for w in line) for line in lines]


def _board(text: str, width: float) -> list[str]:
    from pnpgen.render.board import _wrapped

    return _wrapped(text, "sans", 9, width)


def _caption(text: str, width: float) -> list[str]:
    from pnpgen.render.diagram import _wrap

    return _wrap(text, "sans-italic", 7.5, width)


def _text(text: str, width: float) -> list[str]:
    from pnpgen.text.fit import broken, parse, wrap

    lines, _, _ = wrap(broken(parse(text, "sans", lambda name: False), width, 9.6), width, 9.6)
    return [" ".join("".join(p.value for p in w.pieces) for w in line) for line in lines]


WRAPPERS = {"guide": _guide, "board-map": _board, "caption": _caption, "text": _text}


@pytest.mark.parametrize(
    ("language", "wrapper"), fast_once([(lang, w) for lang in ("de", "fr", "en") for w in sorted(WRAPPERS)])
)
def test_no_wrapper_breaks_a_word_of_any_language_where_none_may_come(language, wrapper):
    setter = WRAPPERS[wrapper]
    texts = [t for t in _filled(language) if " " in t]
    assert len(texts) > 50
    found = {
        f"{text[:40]!r} at {width} pt: {s}"
        for text in texts
        for width in WIDTHS
        for s in stumbles(setter(text, width))
    }
    assert sorted(found) == []


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_a_no_break_space_a_game_types_is_never_a_break(wrapper):
    text = "Lege die Karte auf Seite\u00a01 und dann auf Seite\u00a02"
    lines = [line for width in WIDTHS[:8] for line in WRAPPERS[wrapper](text, width)]
    assert not [line for line in lines if line.split()[-1] == "Seite" or line.split()[0] in ("1", "2")]
    assert any(line.endswith("Seite\u00a02") for line in lines)


@pytest.fixture(scope="module")
def copies(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("languages")


# a whole game built per case, shared by the two tests below; the first case also in the fast run. Every game in
# every language, on the two papers by turns: each game and each language meets both (15 builds, not 30)
CASES = fast_once(
    [
        (g, ("letter", "a4")[(i + j) % 2], lang)
        for j, lang in enumerate(("de", "fr", "en"))
        for i, g in enumerate(GAMES)
    ]
)


def written(copies: Path, game: str, paper: str, language: str) -> list[Path]:
    """The PDFs of a shipped game built on `paper` in `language` (built once for the tests of this file)."""
    content = copies / f"{language}-{paper}-{game}"
    out = copies / f"out-{language}-{paper}-{game}"
    if not (out / game / "manifest.json").exists():
        shutil.copytree(CONTENT / game, content / game)
        if language != "en":
            yaml = content / game / "game.yaml"
            yaml.write_text(yaml.read_text(encoding="utf-8") + f"\nlanguage: {language}\n", encoding="utf-8")
        result = run_cli("build", game, "--content", content, "--out", out, "--paper", paper, "--no-check")
        assert result.exit_code == 0, result.output
    pdfs = sorted((out / game).glob("*.pdf"))
    assert {"rulebook.pdf", "print-all.pdf"} <= {p.name for p in pdfs}
    return pdfs


def pages(pdf: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize(("game", "paper", "language"), CASES)
def test_no_line_of_a_written_pdf_breaks_where_none_may_come(copies, game, paper, language):
    found = [
        f"{pdf.name} page {i}: {s}"
        for pdf in written(copies, game, paper, language)
        for i, text in enumerate(pages(pdf), 1)
        for s in stumbles(text.split("\n"))
    ]
    assert found == []


@pytest.mark.parametrize(("game", "paper", "language"), CASES)
def test_a_name_and_what_follows_it_are_joined_as_the_language_writes_it(copies, game, paper, language):
    """A picture's caption (`Deity Cards : recto et verso`) and a shared sheet's label (`feuille partagée 1 sur
    3 : ...`) put the language's colon between the name and what follows it (French sets a space before it)."""
    words = Words(language)
    colon = re.escape(words("colon", before="", after=""))
    both = re.escape(words("front_and_back"))
    shared = re.escape(words("shared_sheet_of", n="NN", count="NN")).replace("NN", r"\d+")
    joined = rf"(\S{colon}{both}|{shared}{colon}\S)"
    wrong = rf"(\S\s*:\s*{both}|{shared}\s*:\s*\S)"
    texts = {
        pdf.name: " ".join(pages(pdf)).replace("\n", " ") for pdf in written(copies, game, paper, language)
    }
    found = [(name, m.group(0)) for name, text in texts.items() for m in re.finditer(wrong, text)]
    assert any(name == "rulebook.pdf" for name, _ in found)  # every game's book pictures its pieces
    assert [(name, join) for name, join in found if not re.fullmatch(joined, join)] == []
