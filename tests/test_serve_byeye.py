"""The `serve` editor used by eye, on the game `pnpgen new` writes (its cards from a CSV sheet): a write the build
would refuse is refused by the page, the file kept; a sheet's cell holds any text a designer types; a drag shows
the values it will write, in mm, and writes them as a person would; a text whose width is a template is still
made taller; the build's errors show over the editor."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from conftest import fast_once
from serving import Served
from test_serve_editor import ZOOM, count, drag, settled_box, wait_for, written

FRONT = "content/mygame/layouts/card-front.yaml"
SHEET = "content/mygame/data/cards.csv"


@pytest.fixture
def editor(tmp_path, monkeypatch):
    """An `Editor` of `pnpgen new`'s game in tmp_path, in this process: (editor, look of its first card)."""
    from pnpgen.commands.new import new_game
    from pnpgen.project import Project
    from pnpgen.serve.command import Sketcher
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.preview import Preview

    new_game(tmp_path / "content", "mygame")
    monkeypatch.chdir(tmp_path)
    project = Project(Path("content"), Path("out"), resident=True)
    return Editor(project, Preview(project, ["mygame"]), Sketcher(project))


def look(editor) -> dict:
    status, seen = editor.get("/look", {"game": ["mygame"], "component": ["cards"], "card": ["0"]})
    assert status == 200, seen
    return seen


def post(editor, file: str, **body) -> tuple[int, dict]:
    asked = {
        "game": "mygame",
        "component": "cards",
        "card": 0,
        "file": file,
        "digest": look(editor)["files"][file],
    }
    return editor.post("/edit", json.dumps(asked | body).encode())


def element(editor, word: str) -> int:
    """The index in card-front.yaml of the element whose values mention `word`."""
    front = look(editor)["faces"][0]
    return next(
        e["index"] for e in front["elements"] if e["file"] == FRONT and word in json.dumps(e["values"])
    )


def builds(root: Path) -> str:
    """'' when `pnpgen build` takes the game as it stands, else what it said."""
    from conftest import run_cli

    result = run_cli("build", "mygame", "--out", root / "out-check", cwd=root)
    return "" if result.exit_code == 0 else result.output


# Each write passes its key's table, yet the build refuses the file it makes: each op, layouts and card cells.
REFUSED = [
    pytest.param(FRONT, "set", "card.text", {"values": {"size": 4}}, "under the 6 pt floor", id="size-floor"),
    pytest.param(FRONT, "set", "emblem", {"values": {"src": "none.png"}}, "does not exist", id="missing-art"),
    pytest.param(FRONT, "set", "card.name", {"values": {"text": "{{ card.nope }}"}}, "no 'nope'", id="no-field"),
    pytest.param(FRONT, "add", None, {"type": "image", "values": {"x": 5, "y": 5, "w": 9, "h": 9, "src": "no.png"}},
                 "does not exist", id="add-missing-art"),
    pytest.param(SHEET, "field", None, {"card_pos": 0, "field": "count", "value": 9}, "rules check", id="count-vs-facts"),
    pytest.param(SHEET, "field", None, {"card_pos": 0, "field": "count", "value": "x"}, "whole number", id="count-word"),
    pytest.param(SHEET, "field", None, {"card_pos": 0, "field": "cost", "value": "lots"}, "cost", id="cost-word"),
    pytest.param(SHEET, "field", None, {"card_pos": 1, "field": "colour", "value": "rouge"}, "'rouge'", id="colour"),
]  # fmt: skip


@pytest.mark.parametrize("file, op, word, body, said", fast_once(REFUSED))
def test_a_write_the_build_would_refuse_is_refused_and_the_file_kept(
    editor, tmp_path, file, op, word, body, said
):
    path = tmp_path / file
    before = path.read_bytes()
    if word is not None:
        body = body | {"index": element(editor, word)}
    status, answer = post(editor, file, op=op, **body)
    assert status == 422, answer
    assert answer["error"].startswith("not written: the build would refuse it: content/mygame/"), answer
    assert re.search(r"\.(yaml|csv):\d+:\d+: ", answer["error"]) and said in answer["error"], answer
    assert path.read_bytes() == before
    assert builds(tmp_path) == ""


def test_a_write_is_kept_when_the_game_failed_as_much_before(editor, tmp_path):
    """A game already refused for another reason (a count the rules check does not find) can still be edited."""
    sheet = tmp_path / SHEET
    sheet.write_text(sheet.read_text().replace("Spark,4,1,", "Spark,5,1,"))
    assert "rules check" in builds(tmp_path)
    index = element(editor, "emblem")
    status, answer = post(editor, FRONT, op="set", index=index, values={"x": 20})
    assert status == 200, answer
    assert "    x: 20\n" in (tmp_path / FRONT).read_text()


@pytest.mark.parametrize(
    "text",
    ['Gain :spark:, then "more", at once', 'a "quoted" word', '"all quoted"', "a, b, c", 'ends in a quote "'],
)
def test_a_sheet_cell_holds_any_text_typed_and_the_build_reads_it_back(editor, tmp_path, text):
    """A quote doubled in a quoted CSV cell is read as one quote by the build (the sniffer guessed otherwise)."""
    status, answer = post(editor, SHEET, op="field", card_pos=0, field="text", value=text)
    assert status == 200, answer
    assert look(editor)["card_edit"]["fields"]["text"] == text
    from pnpgen.schema.datasheets import _csv_cells

    rows = list(_csv_cells((tmp_path / SHEET).read_text(), SHEET))
    assert rows[1][1][5] == text and [len(r[1]) for r in rows] == [5, 5, 5, 5]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def served_new_game(tmp_path: Path) -> Served:
    import subprocess
    import sys

    from conftest import ROOT

    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "pnpgen", "new", "mygame"], cwd=tmp_path, env=env, check=True)
    return Served(tmp_path, game="mygame")


def open_card(page, served: Served) -> None:
    page.goto(served.url + "#edit=mygame/cards/0")
    page.wait_for_selector("#e-face-front .el", timeout=30_000)


def index_of(page, word: str) -> str:
    """The outline id on the front of the element whose values mention `word`."""
    return page.evaluate(
        """w => { const e = ed.look.faces[0].elements.find(e => JSON.stringify(e.values).includes(w));
                  return "#e-front-" + e.n; }""",
        word,
    )


@pytest.mark.slow
def test_a_drag_shows_what_it_writes_in_mm_and_a_template_width_still_resizes(tmp_path, browser_page):
    served = served_new_game(tmp_path)
    page, front = browser_page, tmp_path / FRONT
    try:
        open_card(page, served)
        page.uncheck("#e-snap")  # by eye alone: the values are whatever the hand gives
        emblem = index_of(page, "emblem")
        page.click(emblem)
        assert "box: 17.75, 14, 28, 28 mm" in page.inner_text("#e-props")  # as the file writes it
        box = settled_box(page, emblem)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        n = count(page)
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 7.3 * ZOOM, y + 3.1 * ZOOM, steps=6)
        shown = page.text_content("#e-readout")  # what the drag will write, while it is under way
        assert page.locator(".handle").count() == 0  # none left behind where the box was
        page.mouse.up()
        written(page, n)
        xs = re.fullmatch(r"x (\S+)  y (\S+)  \(28 × 28\) mm", shown or "")
        assert xs, shown
        text = front.read_text()
        assert f"    x: {xs[1]}\n    y: {xs[2]}\n    w: 28\n" in text, text  # as shown, no '25.10'
        assert abs(float(xs[1]) - 25.05) <= 0.25 and not xs[1].endswith("0")

        name = index_of(page, "card.name")  # `w: "{{ w - 10 }}"`, `h: 8`: made taller by its bottom handle
        page.click(name)
        assert page.eval_on_selector_all(".handle", "hs => hs.map(h => h.id)") == ["e-handle-n", "e-handle-s"]
        assert "resized only by its h: its 'w' is a template" in page.inner_text("#e-props")
        handle = settled_box(page, "#e-handle-s")
        n = count(page)
        page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
        page.mouse.down()
        page.mouse.move(
            handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2 + 3 * ZOOM, steps=6
        )
        page.mouse.up()
        written(page, n)
        assert '    w: "{{ w - 10 }}"\n    h: 11\n' in front.read_text()

        page.keyboard.press("Escape")  # back to the card's own values (the snap box had the focus)
        page.wait_for_selector("input[data-field='text']")
        background = page.locator(
            "#e-front-0 title"
        ).text_content()  # what cannot move says so under the pointer
        assert "cannot be moved here: fills the area 'bleed'" in background

        page.check("#e-snap")  # the emblem's right edge dragged 0.3 mm beyond the bleed's edge snaps onto it
        page.click(emblem)
        n = count(page)
        drag(page, emblem, 63.5 + 3 + 0.3 - 28 - float(xs[1]), 0)
        written(page, n)
        assert f"    x: 38.5\n    y: {xs[2]}\n" in front.read_text(), front.read_text()  # y as it was
        n = count(page)
        page.keyboard.press("ArrowDown")  # a nudge says where it went, and writes only what it moved
        written(page, n)
        said = page.inner_text("#e-msg")
        y = float(xs[2]) + 0.5
        assert said.startswith(f"set y {y:g} written to {FRONT}"), said

        page.uncheck(
            "#e-snap"
        )  # its top-left corner pulled out: x and y move, w and h grow, the far edges stay
        page.click(emblem)
        assert len(page.locator(".handle").all()) == 8
        n = count(page)
        drag(page, "#e-handle-nw", -2, -3)
        written(page, n)
        assert f"    x: 36.5\n    y: {y - 3:g}\n    w: 30\n    h: 31\n" in front.read_text(), (
            front.read_text()
        )

        page.click(emblem)  # four quick presses while the first is being written: all four count
        for _ in range(4):
            page.keyboard.press("ArrowLeft")
        wait_for(lambda: "    x: 34.5\n" in front.read_text(), what="four nudges of 0.5 mm")

        # a drag ended while a write is under way is not written, and the page says so (never silently lost)
        page.wait_for_function("() => !ed.busy && !ed.nudge && document.body.dataset.written >= 7")
        settled = front.read_text()
        page.evaluate("() => { ed.busy = true; }")  # as while a write is under way
        drag(page, emblem, 4, 0)
        page.evaluate("() => { ed.busy = false; }")
        page.click("#e-undo")  # the next write's end says what was dropped
        page.wait_for_function("() => document.getElementById('e-msg').textContent.includes('not written')")
        assert page.inner_text("#e-msg").startswith("set not written: the change before it was still being")
        assert (
            "    x: 38.5\n" not in front.read_text() and settled != front.read_text()
        )  # the undo, not the drag
    finally:
        print(served.stop())


@pytest.mark.slow
def test_the_page_says_why_a_write_was_refused_and_shows_the_build_s_errors(tmp_path, browser_page):
    served = served_new_game(tmp_path)
    page, front = browser_page, tmp_path / FRONT
    try:
        open_card(page, served)
        before = sha(front)
        page.click(index_of(page, "card.text"))
        page.fill("input[data-key='size']", "4")
        page.press("input[data-key='size']", "Enter")
        page.wait_for_function("() => document.getElementById('e-msg').classList.contains('bad')")
        said = page.inner_text("#e-msg")
        assert said.startswith(f"not written: the build would refuse it: {FRONT}:") and "6 pt floor" in said
        assert sha(front) == before

        # a file broken outside the page: the build's error is shown over the editor, and cleared when fixed
        back = tmp_path / "content/mygame/layouts/card-back.yaml"
        good = back.read_text()
        back.write_text(good.replace("fill: accent", "fill: rouge"))
        page.wait_for_selector("#e-build.shown", timeout=30_000)
        assert "card-back.yaml:5:11" in page.inner_text("#e-build") and "'rouge'" in page.inner_text(
            "#e-build"
        )
        back.write_text(good)
        page.wait_for_selector("#e-build:not(.shown)", state="attached", timeout=30_000)
    finally:
        print(served.stop())


@pytest.mark.parametrize("shown, refused", [(2, True), (0, False)])
def test_a_big_decks_write_check_draws_its_first_cards_and_the_shown_one(
    editor, tmp_path, monkeypatch, shown, refused
):
    """A write's check is bounded (`verify.MAX_CARDS`, here 1 of the deck's 3 cards): it draws the first cards and
    the card the page shows, no more. A break on a card it did not draw is told by the build the write starts."""
    from pnpgen.pipeline.faces import Painter
    from pnpgen.serve import verify

    monkeypatch.setattr(verify, "MAX_CARDS", 1)
    drawn: list[str] = []
    card = Painter.card

    def counted(self, deck, c, *args, **kwargs):
        drawn.append(c.name)
        return card(self, deck, c, *args, **kwargs)

    digest = look(editor)["files"][SHEET]
    monkeypatch.setattr(Painter, "card", counted)
    asked = {"game": "mygame", "component": "cards", "card": shown, "file": SHEET, "digest": digest}
    body = {"op": "field", "card_pos": 2, "field": "cost", "value": "lots"}
    status, answer = editor.post("/edit", json.dumps(asked | body).encode())
    assert (status == 422) is refused, answer
    assert set(drawn) <= {"Spark", "Beacon"} and len(drawn) <= 2 * 2, drawn  # the first card, the shown one
    assert ("Beacon" in drawn) is refused
    if refused:
        assert "cost" in answer["error"]
    else:
        assert "Beacon" in (tmp_path / SHEET).read_text() and "lots" in (tmp_path / SHEET).read_text()
