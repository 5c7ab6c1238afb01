"""The shipped rulebooks' diagrams and layout, measured in the written PDFs: each diagram's caption with the
pieces' faces drawn on its page, a running header naming the heading current on each page, no page holding only a
line or two, tables split with their header and rows kept together, a cover per game in its own colours."""

from __future__ import annotations

import re

import pdfplumber
import pypdfium2
import pytest
import yaml
from conftest import ROOT, fast_first, fast_once, form_uses, holders, run_cli

CONTENT = ROOT / "content"
GAMES = ["elements-of-the-gods", "deity", "orbis", "river", "seven-gods"]
MM = 72 / 25.4
# what issue 16 asks each rulebook to show, by diagram file
EXPECTED = {
    "elements-of-the-gods": {"setup", "setup-small", "water", "fire", "wind", "monuments-gardens"},
    "orbis": {"pyramid", "central-area"},
    "seven-gods": {"currents", "persuasion"},
    "river": {"start"},
    "deity": {"board"},
}


@pytest.fixture(scope="module")
def built(shipped_build):
    return shipped_build


def words_of(page):
    return page.extract_words(extra_attrs=["size", "fontname"])


def caption_page(pdf, caption: str) -> int | None:
    """The page whose text holds the caption's first words."""
    start = " ".join(caption.split()[:6])
    for i, page in enumerate(pdf.pages):
        if start in re.sub(r"\s+", " ", page.extract_text() or ""):
            return i
    return None


@pytest.mark.parametrize("game", fast_first(GAMES, fast="orbis"))  # each reads a whole book
def test_every_spatial_rule_has_its_diagram_with_the_pieces_faces(shipped_pdf, game):
    folder = CONTENT / game / "diagrams"
    ids = {p.stem for p in folder.glob("*.yaml")} - {"cover"}
    assert EXPECTED[game] <= ids
    pdf = shipped_pdf(game, "rulebook.pdf")
    for diagram in sorted(ids):
        data = yaml.safe_load((folder / f"{diagram}.yaml").read_text())
        index = caption_page(pdf, data["caption"])
        assert index is not None, f"{game}: the diagram '{diagram}' is not in the rulebook"
        faces = [n for n in form_uses(pdf.pages[index]) if re.match(rb"(FormXob\.)?RF\d+$", n)]
        pieces = {(p["piece"], str(p.get("card", 1)), bool(p.get("back"))) for p in data.get("pieces", [])}
        # every distinct piece is a face drawn from its layout (one form each), plus the board when there is one
        assert len(set(faces)) >= len(pieces) + (1 if data.get("board") else 0), (
            diagram,
            len(set(faces)),
        )


def headings(page) -> list[tuple[float, str, int]]:
    """(top, text, level) of the chapter (17 pt) and section (12.5 pt) headings begun on a page."""
    lines: dict[float, list] = {}
    for w in words_of(page):
        if 16 * MM < w["top"] < page.height - 16 * MM and round(w["size"], 1) in (17.0, 12.5):
            lines.setdefault(round(w["top"]), []).append(w)
    out = []
    for top, ws in sorted(lines.items()):
        if re.fullmatch(r"\d+(\.\d+)?", ws[0]["text"]):
            out.append((top, " ".join(w["text"] for w in ws), 0 if round(ws[0]["size"], 1) == 17.0 else 1))
    return out


def running_head(page) -> str:
    """The header's right-hand text (8 pt; a diagram's clipped board text may lie under it, in other sizes)."""
    head = [
        w
        for w in words_of(page)
        if w["top"] < 14 * MM and w["x0"] > page.width / 3 and round(w["size"], 1) == 8.0
    ]
    return " ".join(w["text"] for w in sorted(head, key=lambda w: w["x0"]))


@pytest.mark.parametrize("game", fast_first(GAMES, fast="orbis"))  # each reads a whole book
def test_the_running_header_names_the_heading_current_on_each_page(shipped_pdf, game):
    """The header names the chapter (or its section) in force at the top of the page: the heading the page opens
    with, else the one carried over from the pages before, never one that begins further down."""
    chapter = section = ""
    checked = 0
    pdf = shipped_pdf(game, "rulebook.pdf")
    for page in pdf.pages[2:]:
        begun = headings(page)
        head = running_head(page)
        body = [w["top"] for w in page.extract_words() if 16 * MM < w["top"] < page.height - 16 * MM]
        if begun and body and begun[0][0] <= min(body) + 2:  # the page opens with a heading
            first = begun[0][1]
            then = begun[1][1] if len(begun) > 1 and (begun[0][2], begun[1][2]) == (0, 1) else first
            assert first in head or then in head, (page.page_number, head, begun)
        elif chapter:  # the chapter or section carried over, not one begun lower on the page
            assert chapter in head or (section and section in head), (page.page_number, head)
            for _, text, _ in begun:
                assert text not in head or text in (chapter, section), (page.page_number, head, text)
        checked += 1
        for _, text, level in begun:
            chapter, section = (text, "") if level == 0 else (chapter, text)
    assert checked >= 8


@pytest.mark.parametrize("game", fast_first(GAMES, fast="orbis"))  # each reads a whole book
def test_no_page_holds_only_a_line_or_two(shipped_pdf, game):
    pdf = shipped_pdf(game, "rulebook.pdf")
    for page in pdf.pages[1:-1]:  # the last page may end the book with what is left
        body = [w for w in page.extract_words() if 16 * MM < w["top"] < page.height - 16 * MM]
        lines = {round(w["top"]) for w in body}
        drawn = len(page.rects) + len(page.curves) + len(form_uses(page))
        assert len(lines) > 3 or drawn > 20, (page.page_number, sorted(lines))


def test_each_game_has_its_own_cover_in_its_own_colours(built, shipped_pdf):
    grounds = {}
    for game in GAMES:
        cover = yaml.safe_load((CONTENT / game / "cover.yaml").read_text())
        palette = yaml.safe_load((CONTENT / game / "game.yaml").read_text())["palette"]
        want = palette.get(cover["background"], cover["background"]).lstrip("#")
        doc = pypdfium2.PdfDocument(str(built / game / "rulebook.pdf"))
        image = doc[0].render(scale=1).to_pil().convert("RGB")
        doc.close()
        pixel = image.getpixel((int(6 * MM), int(6 * MM)))  # outside the frame: the ground
        assert all(abs(a - int(want[i * 2 : i * 2 + 2], 16)) <= 2 for i, a in enumerate(pixel)), (
            game,
            pixel,
            want,
        )
        grounds[game] = pixel
        pdf = shipped_pdf(game, "rulebook.pdf")  # its art: the game's own faces
        assert len([n for n in form_uses(pdf.pages[0]) if re.match(rb"(FormXob\.)?RF\d+$", n)]) >= 3
    assert len(set(grounds.values())) == len(GAMES)


LONG_TABLE = "\n".join(
    ["| Round | What happens |", "|---|---|"]
    + [f"| {i} | the players do thing number {i} |" for i in range(1, 31)]
)


@pytest.mark.parametrize("filler", fast_once([37, 44, 50]))  # 37 and 50 left the header with one row before
def test_a_table_never_leaves_its_header_alone_at_a_page_foot(project, filler):
    root = project("basic")
    words = " ".join(["word"] * 14)
    text = "\n\n".join(f"{words} {i}." for i in range(filler))  # pushes the table to near the page's foot
    (root / "content" / "sample" / "rulebook.md").write_text(
        f"# Sample\n\n## Play\n\n{text}\n\n{LONG_TABLE}\n"
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "out" / "sample" / "rulebook.pdf") as pdf:
        pages = [p for p in pdf.pages if "Round" in (p.extract_text() or "")]
        assert pages
        for page in pages:  # on every page the table is on: its header, then at least two of its rows
            lines = (page.extract_text() or "").splitlines()
            at = next(i for i, line in enumerate(lines) if line.startswith("Round"))
            rows = [line for line in lines[at + 1 :] if re.match(r"^\d+ the players", line)]
            assert len(rows) >= 2, (page.page_number, lines[at:])
        all_rows = [
            r for p in pages for r in (p.extract_text() or "").splitlines() if re.match(r"^\d+ the", r)
        ]
        assert len(all_rows) == 30


def test_no_pdf_of_the_shipped_games_names_a_font_it_does_not_embed(built):
    """Every PDF `build` writes (sheets, boards, rulebooks, low-ink forms, print-all): each font any page or form
    names is embedded. ReportLab's tables used to select Helvetica for every cell, so every rulebook and
    print-all page named it, unembedded."""
    import pikepdf

    pdfs = sorted(built.rglob("*.pdf"))
    assert "rulebook.pdf" in {p.name for p in pdfs}
    assert any(p.name.startswith("print-all") for p in pdfs)
    unembedded = set()
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            for obj in holders(pdf):
                for _, font in obj.get("/Resources", {}).get("/Font", {}).items():
                    fonts = font.get("/DescendantFonts", [font])
                    if not all("/FontDescriptor" in f and "/FontFile2" in f.FontDescriptor for f in fonts):
                        unembedded.add((path.relative_to(built).as_posix(), str(font.get("/BaseFont"))))
    assert not unembedded, sorted(unembedded)[:10]


@pytest.mark.slow
def test_the_rulebook_is_the_same_whether_its_first_pass_draws_or_not(tmp_path, monkeypatch):
    """The first of the rulebook's layout passes only finds where the headings fall (for the contents) and is
    never saved, so it draws no pictures, diagrams, rich text or cover (`BookDoc.drafting`). The file is the
    same, byte for byte, as when that pass draws everything."""
    from pathlib import Path

    from reportlab.platypus import BaseDocTemplate

    from pnpgen.errors import Diagnostics
    from pnpgen.pipeline import outputs
    from pnpgen.pipeline.jobs import Writing
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project
    from pnpgen.render import book as book_module

    run = GameRun(Project(CONTENT, tmp_path / "out"), CONTENT / "deity")
    run.load(Diagnostics())
    target = next(t for t in outputs.targets_of(run.game, run.sources, run.printing) if t.kind == "rulebook")
    assert target.prepare(run, Diagnostics())
    writing = Writing(run.game, run.icons, "a4", run.printing)
    passes = []

    def written(name: str) -> bytes:
        target.write(Path(tmp_path / name), "rulebook.pdf", writing)
        return (tmp_path / name).read_bytes()

    drafted = written("drafted.pdf")

    def undrafted(doc, flowables, **kw):
        doc.passes += 1
        passes.append(doc.drafting)
        return BaseDocTemplate.build(doc, flowables, **kw)

    monkeypatch.setattr(book_module.BookDoc, "build", undrafted)
    assert written("drawn.pdf") == drafted
    assert passes and not any(passes) and len(passes) >= 2  # undrafted: every pass drew, and there were two


@pytest.mark.slow  # two builds of a shipped book
def test_a_rebuilt_rulebook_starts_from_the_last_contents_and_is_the_same_file(tmp_path, monkeypatch):
    """A rebuild hands the rulebook the contents list its last build ended with (kept in the manifest): when the
    headings land where it says, the first pass is the book (one pass, not two); when they do not, or the list
    is damaged, the book is made as if there were none. Every way, the same bytes as a build from scratch."""
    from pathlib import Path

    from pnpgen.errors import Diagnostics
    from pnpgen.pipeline import outputs
    from pnpgen.pipeline.jobs import Writing
    from pnpgen.pipeline.run import GameRun
    from pnpgen.project import Project
    from pnpgen.render.passes import BookDoc

    run = GameRun(Project(CONTENT, tmp_path / "out"), CONTENT / "deity")
    run.load(Diagnostics())
    target = next(t for t in outputs.targets_of(run.game, run.sources, run.printing) if t.kind == "rulebook")
    assert target.prepare(run, Diagnostics())
    writing = Writing(run.game, run.icons, "a4", run.printing)
    from reportlab.platypus import BaseDocTemplate

    passes: list[bool] = []  # each pass: whether it was a draft
    build = BaseDocTemplate.build

    def counted(doc, flowables, **kw):
        if isinstance(doc, BookDoc):
            passes.append(doc.drafting)
        return build(doc, flowables, **kw)

    monkeypatch.setattr(BaseDocTemplate, "build", counted)

    def written(name: str, seed) -> tuple[bytes, list, list]:
        passes.clear()
        target.seeds = {"rulebook.pdf": seed}
        _pages, more = target.write(Path(tmp_path / name), "rulebook.pdf", writing)
        return (tmp_path / name).read_bytes(), more["contents"], list(passes)

    clean, contents, clean_passes = written("clean.pdf", None)
    assert clean_passes[0] is True and len(clean_passes) >= 2  # a draft, then whole passes
    assert contents and all(len(e) == 4 and isinstance(e[2], int) for e in contents)
    seeded, again, seeded_passes = written("seeded.pdf", contents)
    assert seeded == clean and again == contents and seeded_passes == [False]  # one whole pass
    moved = [[lvl, text, page + 1, key] for lvl, text, page, key in contents]  # every heading a page later
    assert written("moved.pdf", moved)[0] == clean
    assert passes == [False] + clean_passes  # the seeded pass did not hold: made again from scratch
    hostile = [list(e) for e in contents]
    hostile[0][1] = '<img src="/dev/zero"/>'  # ReportLab reads a contents entry's text as markup
    markup = [list(e) for e in contents]
    markup[1][3] = 'h2"><b'
    shorter, far = contents[:-1], [[lvl, text, 10**9, key] for lvl, text, _page, key in contents]
    for damaged in ([["1", "Overview", 3, "h1"]], "contents", [[0, "x", 1]], hostile, markup, shorter, far):
        book, _, used = written("damaged.pdf", damaged)
        assert book == clean and used == clean_passes  # not taken: no pass spent on it


@pytest.mark.parametrize("sections", [0, 2])
def test_a_book_without_sections_has_no_contents_page(tmp_path, sections):
    """The contents page lists the book's sections; a book with none has no such page (ReportLab's empty list
    printed 'Placeholder for table of contents'), and its rules start on the page after the cover."""
    import shutil

    from conftest import FIXTURES

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    parts = [f"## Part {n}\n\nPlay a card in part {n}.\n" for n in range(1, sections + 1)]
    text = "# Sample rules\n\nDeal four cards to each player.\n\n" + "\n".join(parts)
    (root / "content" / "sample" / "rulebook.md").write_text(text)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    doc = pypdfium2.PdfDocument(root / "out" / "sample" / "rulebook.pdf")
    try:
        pages = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()
    assert not any("Placeholder" in page for page in pages)
    assert ("Contents" in pages[1]) == bool(sections)
    if sections:
        assert all(f"Part {n}" in pages[1] for n in range(1, sections + 1))
        assert "Deal four cards" in pages[2]
    else:
        assert "Deal four cards" in pages[1] and len(pages) == 2


def test_a_book_whose_headings_start_at_three_marks_numbers_them_as_chapters(tmp_path):
    """The first heading after the title is a chapter whatever its marks: `### Setup` is chapter 1 (it was '0.1',
    and the PDF outline's jump from no level to the second made ReportLab refuse to write the book)."""
    import shutil

    from conftest import FIXTURES

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    text = "# Sample rules\n\nDeal four cards.\n\n### Setup\n\nShuffle.\n\n### Play\n\nPlay a card.\n\n#### Ending\n\nStop.\n"
    (root / "content" / "sample" / "rulebook.md").write_text(text)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    doc = pypdfium2.PdfDocument(root / "out" / "sample" / "rulebook.pdf")
    try:
        contents = doc[1].get_textpage().get_text_range()
        outline = [(item.level, item.get_title()) for item in doc.get_toc()]
    finally:
        doc.close()
    assert "1 Setup" in contents and "2 Play" in contents and "0.1" not in contents, contents
    assert [title for _level, title in outline][:2] == ["1  Setup", "2  Play"], outline


NESTED = {
    "bullet-list": "- Deal the cards.\n\n  {h} Inside\n\n  Under the inner heading.\n\n- Then play.\n",
    "ordered-list": "1. Deal the cards.\n\n   {h} Inside\n\n   Under the inner heading.\n\n2. Then play.\n",
    "list-in-a-list": "- Deal:\n  - the cards\n\n    {h} Inside\n\n    Under the inner heading.\n",
    "call-out": "> **Note:** a call-out.\n>\n> {h} Inside\n>\n> Under the inner heading.\n",
    "list-in-a-call-out": "> - Deal the cards.\n>\n>   {h} Inside\n>\n>   Under the inner heading.\n",
}


@pytest.mark.parametrize("marks", fast_once(["##", "#", "===", "---"]))  # and underlined (setext) ones
@pytest.mark.parametrize("where", fast_once(list(NESTED)))
def test_a_heading_inside_a_list_or_a_call_out_is_a_bold_line(tmp_path, where, marks):
    """No section can begin inside a list item or a call-out: such a heading is printed where it stands as a
    bold line, with a warning at its line, and is neither numbered nor in the contents or the outline. (It was
    numbered as a chapter, missing from the contents, and the page breaks it asked for inside kept blocks left
    pages with nothing but their foot.)"""
    import shutil

    from conftest import FIXTURES

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    prefix = next(s for s in NESTED[where].splitlines() if "{h}" in s).split("{h}")[0]  # "  ", "> "...
    heading = f"{marks} Inside" if marks.startswith("#") else f"Inside\n{prefix}{marks}"
    text = (
        "# Sample rules\n\nDeal four cards.\n\n## Setup\n\nShuffle.\n\n"
        + NESTED[where].replace("{h} Inside", heading)
        + "\n## Play\n\nPlay a card.\n"
    )
    (root / "content" / "sample" / "rulebook.md").write_text(text)
    result = run_cli("build", "--out", "out", "--no-print-all", cwd=root)
    assert result.exit_code == 0, result.output
    lines = text.splitlines()
    start = heading.split("\n")[0]  # where the heading begins: its '#', or an underlined one's word
    line = next(n for n, s in enumerate(lines, 1) if s.endswith(start))
    col = lines[line - 1].index(start) + 1
    assert (
        f"rulebook.md:{line}:{col}: warning: the heading 'Inside' is inside a list or a call-out"
        in result.output
    )
    with pdfplumber.open(root / "out" / "sample" / "rulebook.pdf") as pdf:
        pages = [page.extract_text() or "" for page in pdf.pages]
        words = {w["text"]: w for w in pdf.pages[2].extract_words(extra_attrs=["fontname"])}
    doc = pypdfium2.PdfDocument(root / "out" / "sample" / "rulebook.pdf")
    try:
        outline = [item.get_title() for item in doc.get_toc()]
    finally:
        doc.close()
    assert len(pages) == 3, pages  # the cover, the contents, and every rule on one page: no page left blank
    assert "1 Setup" in pages[1] and "2 Play" in pages[1] and "Inside" not in pages[1]
    assert outline == ["1  Setup", "2  Play"], outline
    rules = pages[2]
    assert rules.index("Shuffle.") < rules.index("Inside") < rules.index("Under the inner heading.")
    assert rules.index("Under the inner heading.") < rules.index("2 Play")
    assert not re.search(r"\d Inside", rules)  # not numbered
    assert "Bold" in words["Inside"]["fontname"], words["Inside"]


@pytest.mark.parametrize(
    "empty", fast_once(["## ", "### ", "##", "- Deal.\n\n  ## ", "> Note.\n>\n> ## "]), ids=str.strip
)
def test_a_heading_with_no_text_is_left_out_with_a_warning(tmp_path, empty):
    """`## ` with nothing after it (a slip of the keyboard) began an untitled section: a number in the contents
    with no title. It is left out, wherever it stands, with a warning at its line and column; the numbers go on."""
    import shutil

    from conftest import FIXTURES

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    text = f"# Sample rules\n\nDeal four cards.\n\n## Setup\n\nShuffle.\n\n{empty}\n\nUnder it.\n\n## Play\n\nPlay.\n"
    (root / "content" / "sample" / "rulebook.md").write_text(text)
    result = run_cli("build", "--out", "out", "--no-print-all", cwd=root)
    assert result.exit_code == 0, result.output
    lines = text.split("\n")
    line = next(n for n, s in enumerate(lines, 1) if s.rstrip().endswith("#") or s.rstrip().endswith("# "))
    col = lines[line - 1].index("#") + 1
    assert f"rulebook.md:{line}:{col}: warning: a heading with no text is left out" in result.output
    doc = pypdfium2.PdfDocument(root / "out" / "sample" / "rulebook.pdf")
    try:
        contents = doc[1].get_textpage().get_text_range()
        outline = [item.get_title() for item in doc.get_toc()]
    finally:
        doc.close()
    assert outline == ["1  Setup", "2  Play"], outline
    entries = [ln for ln in contents.splitlines() if ". . ." in ln]
    assert len(entries) == 2 and entries[0].startswith("1 Setup") and entries[1].startswith("2 Play"), entries
