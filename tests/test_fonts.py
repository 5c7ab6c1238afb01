"""A game's own fonts: named in layouts like the shipped ones, embedded, styles never substituted, files
confined and recorded."""

from __future__ import annotations

import shutil

import pdfplumber
from conftest import ROOT, run_cli

FONTS = ROOT / "pnpgen" / "fonts"


def with_font(root, styles: dict, layout_font: str = "mine", text_font: str | None = None):
    game = root / "content" / "sample"
    (game / "fonts").mkdir(exist_ok=True)
    lines = ["fonts:", "  mine:"]
    for style, source in styles.items():
        shutil.copy(FONTS / source, game / "fonts" / f"Mine-{style}.ttf")
        lines.append(f"    {style}: fonts/Mine-{style}.ttf")
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("components:", "\n".join(lines) + "\ncomponents:"))
    layout = game / "layouts" / "hero.yaml"
    text = layout.read_text().replace("font: display-bold", f"font: {layout_font}")
    if text_font:  # the rules text, which holds **bold** and *italic* markup
        text = text.replace("    size: 10\n", f"    size: 10\n    font: {text_font}\n")
    layout.write_text(text)
    return root


def fonts_in(pdf_path) -> set[str]:
    with pdfplumber.open(pdf_path) as pdf:
        return {c["fontname"].split("+")[-1] for page in pdf.pages for c in page.chars}


def test_a_game_font_is_named_in_layouts_and_embedded(project):
    root = with_font(project("basic"), {"regular": "NotoSerifDisplay-Italic.ttf"})
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 0, result.output
    assert "NotoSerifDisplay-Italic" in fonts_in(root / "out" / "sample" / "heroes.pdf")


def test_markup_switches_within_the_family_and_a_missing_style_is_an_error(project):
    root = with_font(
        project("basic"),
        {"regular": "NotoSerif-Regular.ttf", "bold": "NotoSerifDisplay-Bold.ttf"},
        text_font="mine",
    )
    result = run_cli("build", "--out", "out", cwd=root)  # card 1's text has **two** and *Once per turn.*
    assert result.exit_code == 1
    assert (
        "error: 'text' asks for the italic of the font 'mine' (**bold** or *italic*), which the game gives"
        in (result.output)
    )
    deck = root / "content" / "sample" / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text().replace("*Once per turn.*", "Once per turn."))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    assert "NotoSerifDisplay-Bold" in fonts_in(
        root / "out" / "sample" / "heroes.pdf"
    )  # **two**, in mine's bold


def test_a_layout_asking_for_a_style_the_game_lacks_is_located(project):
    root = with_font(project("basic"), {"regular": "NotoSerif-Regular.ttf"}, layout_font="mine-bold")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/layouts/hero.yaml:20:11: error: 'font' names the bold of the game's font 'mine', which has "
        "no such file" in result.output
    )


def test_font_files_are_confined_checked_and_recorded(project, tmp_path):
    root = with_font(project("basic"), {"regular": "NotoSerif-Regular.ttf"})
    font = root / "content" / "sample" / "fonts" / "Mine-regular.ttf"
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    font.write_bytes((FONTS / "NotoSans-Regular.ttf").read_bytes())  # another font under the same name
    result = run_cli("build", "--out", "out", cwd=root)
    assert "3 rendered" in result.output, result.output  # with print-all
    font.write_text("not a font")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/game.yaml:10:14: error: font 'mine' regular: 'content/sample/fonts/Mine-regular.ttf' is not "
        "a font: it is too short" in result.output
    )
    font.unlink()
    font.symlink_to(FONTS / "NotoSans-Regular.ttf")  # a link out of the game folder
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "leaves the game folder; refused" in result.output


def test_text_falls_back_to_the_games_own_fonts_first():
    from pnpgen.text.fonts import fallback_chain, register_family, runs

    names = register_family(
        "fallback-test", "stars", {"regular": str(FONTS / "NotoSansSymbols2-Regular.ttf")}
    )
    chain = fallback_chain(names)
    assert chain[0] == names["stars"] and chain[-1] == "fallback-symbols"
    assert runs("a ★", "sans", chain) == (
        ("sans", "a "),
        (names["stars"], "★"),
    )  # the game's font, not pnpgen's
    assert runs("a ★", "sans") == (("sans", "a "), ("fallback-symbols2", "★"))  # without it: pnpgen's


def test_missing_glyphs_answers_as_a_look_at_every_character_does():
    import random

    from reportlab.pdfbase import pdfmetrics

    from pnpgen.text.fonts import _control, missing_glyphs, pdf_name

    rng = random.Random(7)
    pool = "abc XYZ 09 \t\n\u00a0\u3000\u2212\u2605\u0007\u0085\u00e9\u4e2d\U0001f600"
    chars = pdfmetrics.getFont(pdf_name("sans")).face.charToGlyph
    for _ in range(300):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 12)))
        slow = {ch for ch in text if (ord(ch) not in chars or _control(ch)) and not ch.isspace()}
        assert missing_glyphs(text, "sans") == "".join(sorted(slow)), repr(text)


def test_runs_of_text_the_font_holds_and_of_text_it_lacks():
    from pnpgen.text.fonts import runs

    assert runs("", "sans") == ()
    assert runs("Card 7: spend two", "sans") == (("sans", "Card 7: spend two"),)
    assert runs("\u00a0\t", "sans") == (("sans", "\u00a0\t"),)
    mixed = runs("a \u2192 b", "sans")
    assert "".join(part for _f, part in mixed) == "a \u2192 b" and len(mixed) == 3
    assert mixed[0] == ("sans", "a ") and mixed[1][0].startswith("fallback-") and mixed[2] == ("sans", " b")


def test_a_rulebook_registers_only_the_fonts_it_sets(project):
    """Parsing a font costs ~15 ms: a one-game build (its rulebook written in the same process here) registers
    the shipped fonts its pages use, not all twelve; every font it names is embedded."""
    import subprocess
    import sys

    root = project("basic")
    (root / "content" / "sample" / "rulebook.md").write_text(
        "# Sample\n\n## Goal\n\nWin **twice**, *quickly*.\n"
    )
    code = (
        "from pathlib import Path; from pnpgen.project import Project; from pnpgen import pipeline;"
        "from pnpgen.text.fonts import FONT_NAMES, pdf_name;"
        "assert all(r.ok for r in pipeline.build(Project(Path('content'), Path('out')), None, workers=1));"
        "print(pdf_name.cache_info().currsize, len(FONT_NAMES))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)}
    )
    assert done.returncode == 0, done.stderr
    registered, shipped = (int(n) for n in done.stdout.split())
    assert 0 < registered < shipped
    with pdfplumber.open(root / "out" / "sample" / "rulebook.pdf") as pdf:
        fonts = {ch["fontname"] for page in pdf.pages for ch in page.chars}
    assert fonts and all("+" in name for name in fonts)  # subset prefixes: embedded, none unembedded
