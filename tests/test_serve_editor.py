"""The editor in `pnpgen serve` (issue 29, item 1): gestures on the page written back into the layout file, only
the values they change, and the PDF redrawn; writes refused without the token, from another Host or site, to a
file the page may not write, or over a file changed on disk. In Debian's chromium through Playwright, as the page
test does; the refusals over plain HTTP."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import pytest
from conftest import FIXTURES
from serving import Served

LAYOUT = "content/sample/layouts/hero.yaml"
HERO = """\
# The hero card: a layout full of comments, to see that edits leave them be.
vars:
  accent: "{{ palette[card.colour | default('ember')] }}"
elements:
  - type: rect            # the background
    area: bleed
    fill: "{{ accent }}"
  - id: panel   # the panel the text sits on
    type: rect
    x: 3
    y: 12
    w: 57.5     # as wide as the card allows
    h: 73.9
    radius: 2
    fill: "#fbf6ea"
  - type: text
    x: 4
    y: 3
    w: "{{ w - 8 }}"
    h: 8
    text: "{{ card.name }}"
    font: display-bold
    size: 14
    color: white
    align: center
    valign: middle

  - id: badge
    type: rect
    x: 10
    y: 30
    w: 10
    h: 10
    fill: '#336699'   # single-quoted on purpose
  - type: text
    x: 5
    y: "{{ h - 30 }}"
    w: "{{ w - 10 }}"
    h: 20
    text: "{{ card.text }}"
    size: 10
    align: center
    valign: middle
"""
ZOOM = 5  # px per mm, the editor's default


def project(tmp: Path) -> Path:
    shutil.copytree(FIXTURES / "basic", tmp / "p")
    (tmp / "p" / LAYOUT).write_text(HERO)
    return tmp / "p"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wait_for(check, seconds: float = 30.0, what: str = "a change"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")


def badge_pixel(root: Path, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The colour the built heroes.pdf shows at (x, y) mm on the first card's front (placed by its manifest)."""
    import pypdfium2 as pdfium

    entry = next(
        e
        for e in json.loads((root / "out/sample/manifest.json").read_text())["files"]
        if e["path"] == "heroes.pdf"
    )
    page_no, x, y, w, h = entry["cards"][0]["front_at"]
    doc = pdfium.PdfDocument(str(root / "out/sample/heroes.pdf"))
    try:
        page = doc[page_no]
        scale = 2.0
        image = page.render(scale=scale).to_pil().convert("RGB")
        height = page.get_height()
    finally:
        doc.close()
    mm = 72 / 25.4
    px = (x + x_mm * mm) * scale
    py = (height - y - h + y_mm * mm) * scale
    return image.getpixel((round(px), round(py)))


def near(colour, target=(0x33, 0x66, 0x99), tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


def open_editor(page, served: Served) -> None:
    page.goto(served.url + "#edit=sample/heroes/0")
    page.wait_for_selector("#e-face-front .el", timeout=30_000)


def written(page, before: int) -> None:
    """Until the page has made one more write (what it said, when it made none)."""
    try:
        page.wait_for_function(f"() => Number(document.body.dataset.written || 0) > {before}", timeout=30_000)
    except Exception:
        raise AssertionError(f"no write; the page says: {page.inner_text('#e-msg')!r}") from None


def count(page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.written || 0)"))


def element_id(page, element_index: int) -> str:
    """The outline of the element at `element_index` of hero.yaml on the front."""
    return page.evaluate(
        "i => document.querySelector(`#e-face-front .el[data-index='${i}']`).id", element_index
    )


def settled_box(page, selector: str) -> dict:
    """The element's box once the page has stopped laying the face out: the same twice, 0.1 s apart (on a busy
    machine the face is drawn again after the page says it is open, and for a moment the element is gone)."""
    last = None
    for _ in range(150):
        box = page.locator(selector).bounding_box()
        if box is not None and box == last:
            return box
        last = box
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} never stayed in place")


def drag(page, selector: str, dx_mm: float, dy_mm: float, hold=None) -> None:
    box = settled_box(page, selector)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx_mm * ZOOM / 2, y + dy_mm * ZOOM / 2, steps=4)
    page.mouse.move(x + dx_mm * ZOOM, y + dy_mm * ZOOM, steps=4)
    if hold is not None:
        hold()
    page.mouse.up()


@pytest.mark.slow
def test_drag_resize_nudge_and_snap_write_the_layout_in_place(tmp_path, browser_page):
    root = project(tmp_path)
    served = Served(root)
    page = browser_page
    layout = root / LAYOUT
    try:
        built = sha(root / "out/sample/heroes.pdf")
        assert near(badge_pixel(root, 15, 35)) and not near(badge_pixel(root, 25, 35))
        open_editor(page, served)
        badge = "#" + element_id(page, 3)

        n = count(page)
        drag(page, badge, 10, 0)  # drag 10 mm right
        written(page, n)
        text = layout.read_text()
        assert text == HERO.replace("    x: 10\n    y: 30", "    x: 20\n    y: 30"), text
        # the build that follows redraws the PDF: the badge is now 10 mm further right on the printed card
        wait_for(lambda: sha(root / "out/sample/heroes.pdf") != built, what="the PDF redrawn")
        wait_for(
            lambda: near(badge_pixel(root, 25, 35)) and not near(badge_pixel(root, 15, 35)), what="badge"
        )

        page.click(badge)
        n = count(page)
        drag(page, "#e-handle-se", 5, 6)  # resize by its corner handle (its edges far from any guide)
        written(page, n)
        assert layout.read_text() == HERO.replace(
            "    x: 10\n    y: 30\n    w: 10\n    h: 10", "    x: 20\n    y: 30\n    w: 15\n    h: 16"
        )

        page.click(badge)
        n = count(page)
        page.keyboard.press("ArrowRight")  # 0.5 mm
        written(page, n)
        n = count(page)
        page.keyboard.press("Shift+ArrowDown")  # 5 mm
        written(page, n)
        assert layout.read_text() == HERO.replace(
            "    x: 10\n    y: 30\n    w: 10\n    h: 10", "    x: 20.5\n    y: 35\n    w: 15\n    h: 16"
        )

        # snap: the badge's centre (28 mm) dragged 3.6 mm lands on the card's centre line (31.75 mm), a guide shows
        page.click(badge)
        n = count(page)
        guides = []
        drag(page, badge, 3.6, 0, hold=lambda: guides.append(page.locator(".guide").count()))
        written(page, n)
        assert guides[0] >= 1
        x = float(re.search(r"^    x: ([0-9.]+)\n    y: 35\n", layout.read_text(), re.M).group(1))
        assert abs(x - 24.25) <= 0.1  # the centre line at 31.75 mm, to the 0.1 mm the engine writes
    finally:
        print(served.stop())


@pytest.mark.slow
def test_the_card_list_filters_by_a_fields_value_and_by_its_search(tmp_path, browser_page):
    """The fields the deck's cards give are offered (defaults included); a value shows only its cards and opens
    the first of them; 'any field' shows them all again."""
    root = project(tmp_path)
    served = Served(root)
    page = browser_page

    def listed():
        return page.eval_on_selector_all("#e-card option", "os => os.map(o => o.textContent)")

    try:
        open_editor(page, served)
        fields = page.eval_on_selector_all("#e-field option", "os => os.map(o => o.value)")
        assert fields == ["", "colour", "name", "text"]  # not count: the build's, not the card's
        page.select_option("#e-field", "colour")
        assert page.eval_on_selector_all("#e-value option", "os => os.map(o => o.value)") == ["ember", "sea"]
        page.select_option("#e-value", "sea")
        page.wait_for_function("() => document.querySelector('#e-card').value === '1'")
        assert listed() == ["2. Tide Caller"]
        page.wait_for_function("() => ed.look.name === 'Tide Caller'")  # the card it opened
        page.select_option("#e-field", "")
        assert listed() == ["1. Ash Walker", "2. Tide Caller"]
        page.fill("#e-search", "ash")
        page.wait_for_function("() => document.querySelector('#e-card').value === '0'")
        assert listed() == ["1. Ash Walker"]
    finally:
        print(served.stop())


@pytest.mark.slow
def test_the_palette_stays_put_while_the_lists_fill(tmp_path, browser_page):
    """The bar's lists have widths of their own: filling them (a build's state arriving, a long card name) never
    moves the buttons beside them, so a click lands on the button it was aimed at (CI once clicked beside 'add
    text' as the first build's state filled the lists)."""
    root = project(tmp_path)
    served = Served(root)
    page = browser_page
    buttons = ["button[data-add='text']", "button[data-add='line']", "#e-undo", "#e-close"]

    def places():
        return [page.locator(b).bounding_box() for b in buttons]

    try:
        open_editor(page, served)
        before = places()
        page.evaluate(
            """() => {
              for (const id of ["e-comp", "e-field", "e-value", "e-card"]) {
                const o = document.createElement("option");
                o.textContent = "A name far longer than any list's own width, as a card or a game may have";
                document.getElementById(id).appendChild(o);
              }
            }"""
        )
        assert places() == before
    finally:
        print(served.stop())


LINE = "  - type: line      # a rule\n    x1: 8\n    y1: 50\n    x2: 40\n    y2: 60\n"


@pytest.mark.slow
def test_a_line_has_a_handle_on_each_end_and_each_moves_its_own_end(tmp_path, browser_page):
    """Dragging one end's handle writes that end's two values and leaves the other end where it was."""
    root = project(tmp_path)
    layout = root / LAYOUT
    layout.write_text(HERO + LINE)
    served = Served(root)
    page = browser_page
    try:
        open_editor(page, served)
        line = "#" + element_id(page, 5)
        page.click(line)
        assert page.locator(".handle").count() == 2  # one per end, no box corner
        n = count(page)
        drag(page, "#e-handle-p1", 4, 3)  # (8, 50) -> (12, 53): far from any guide
        written(page, n)
        assert layout.read_text() == HERO + LINE.replace("x1: 8\n    y1: 50", "x1: 12\n    y1: 53")
        page.click(line)
        n = count(page)
        drag(page, "#e-handle-p2", -5, 6)  # (40, 60) -> (35, 66)
        written(page, n)
        assert layout.read_text() == HERO + LINE.replace("x1: 8\n    y1: 50", "x1: 12\n    y1: 53").replace(
            "x2: 40\n    y2: 60", "x2: 35\n    y2: 66"
        )
    finally:
        print(served.stop())


@pytest.mark.slow
def test_add_delete_duplicate_undo_and_redo(tmp_path, browser_page):
    root = project(tmp_path)
    served = Served(root)
    page = browser_page
    layout = root / LAYOUT
    try:
        open_editor(page, served)
        n = count(page)
        page.click("button[data-add='ellipse']")
        written(page, n)
        added = layout.read_text()
        assert added.startswith(HERO) and added[len(HERO) :] == (
            '  - type: ellipse\n    x: 5\n    y: 5\n    w: 12\n    h: 12\n    fill: "#cccccc"\n'
        )
        page.wait_for_selector("#e-face-front .el.selected", timeout=30_000)  # the new element is selected
        assert page.locator("#e-face-front .el.selected").count() == 1

        n = count(page)
        page.click("#e-dup")
        written(page, n)
        assert layout.read_text() == added + added[len(HERO) :]

        n = count(page)
        page.keyboard.press("Delete")  # the original stays selected; the copy, the same lines, stays
        written(page, n)
        assert layout.read_text() == added

        for expected in (added + added[len(HERO) :], added, HERO):  # undo: delete, duplicate, add
            n = count(page)
            page.click("#e-undo")
            written(page, n)
            assert layout.read_text() == expected
        n = count(page)
        page.click("#e-redo")
        written(page, n)
        assert layout.read_text() == added

        page.click("#" + element_id(page, 3))
        n = count(page)
        page.click("#e-up")  # drawn after the text below it
        written(page, n)
        ordered = layout.read_text()
        assert ordered.index("id: badge") > ordered.index('text: "{{ card.text }}"')
        assert sorted(ordered.splitlines()) == sorted(added.splitlines())
    finally:
        print(served.stop())


@pytest.mark.slow
def test_the_panels_write_checked_values_and_a_file_changed_on_disk_is_not_overwritten(
    tmp_path, browser_page
):
    root = project(tmp_path)
    served = Served(root)
    page = browser_page
    layout = root / LAYOUT
    try:
        open_editor(page, served)
        deck = root / "content/sample/decks/heroes.yaml"
        cards = deck.read_text()
        n = count(page)  # nothing selected: the card's own values
        page.fill("#e-props input[data-field='name']", "Ash Runner")
        page.press("#e-props input[data-field='name']", "Enter")
        written(page, n)
        assert deck.read_text() == cards.replace("  - name: Ash Walker\n", "  - name: Ash Runner\n")
        page.wait_for_function(
            "() => document.querySelector('#e-card').selectedOptions[0].text.includes('Ash Runner')"
        )

        page.click("#" + element_id(page, 3))
        n = count(page)
        page.fill("#e-props input[data-key='fill']", "#993366")
        page.press("#e-props input[data-key='fill']", "Enter")
        written(page, n)
        assert layout.read_text() == HERO.replace("fill: '#336699'", "fill: '#993366'")  # its quotes kept
        page.fill("#e-props input[data-key='fill']", "notacolour")
        page.press("#e-props input[data-key='fill']", "Enter")
        page.wait_for_selector("#e-msg.bad", timeout=30_000)
        assert "'fill' is not a colour" in page.inner_text("#e-msg")
        assert layout.read_text() == HERO.replace("fill: '#336699'", "fill: '#993366'")
        page.click("#e-undo")
        page.wait_for_function(
            "() => !document.querySelector('#e-msg').classList.contains('bad')", timeout=30_000
        )
        wait_for(lambda: layout.read_text() == HERO, what="the undo")

        theirs = HERO.replace("# the panel the text sits on", "# edited in a text editor meanwhile")
        layout.write_text(theirs)
        looked = int(page.evaluate("() => Number(document.body.dataset.looked)"))
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#e-msg.bad", timeout=30_000)
        assert "changed on disk since the page read it" in page.inner_text("#e-msg")
        page.wait_for_function(f"() => Number(document.body.dataset.looked) > {looked}", timeout=30_000)
        assert layout.read_text() == theirs  # refused: their edit stands
        n = count(page)
        page.keyboard.press("ArrowRight")  # after the reload, the same gesture is written over their file
        written(page, n)
        assert layout.read_text() == theirs.replace("    x: 10\n", "    x: 10.5\n")
    finally:
        print(served.stop())


@pytest.mark.slow
def test_what_is_typed_in_a_panel_survives_the_card_drawn_again(tmp_path, browser_page):
    """The card is drawn again whenever a rebuild or a write finishes, and with it the panel of values: a value
    being typed there (the element selected a moment before) was lost under the typing, and the Enter that
    followed wrote nothing. Typed, then the card drawn again, then Enter: the typed value is written."""
    root = project(tmp_path)
    served = Served(root)
    page = browser_page
    layout = root / LAYOUT
    try:
        open_editor(page, served)
        for field, selector, value in (
            (
                "name",
                "#e-props input[data-field='name']",
                "Ash Runner",
            ),  # nothing selected: the card's values
            ("fill", "#e-props input[data-key='fill']", "#993366"),
        ):
            if field == "fill":
                page.click("#" + element_id(page, 3))
            n = count(page)
            page.click(selector)
            page.fill(selector, value)
            looked = int(page.evaluate("() => Number(document.body.dataset.looked || 0)"))
            page.evaluate("() => { edLoad(); }")  # as a rebuild finishing here does
            page.wait_for_function(f"() => Number(document.body.dataset.looked) > {looked}", timeout=30_000)
            assert page.input_value(selector) == value  # still there, typed
            page.press(selector, "Enter")
            written(page, n)
        assert layout.read_text() == HERO.replace("fill: '#336699'", "fill: '#993366'")
        deck = root / "content/sample/decks/heroes.yaml"
        assert "  - name: Ash Runner\n" in deck.read_text()
    finally:
        print(served.stop())


STRIPE = "  - {id: stripe, type: rect, x: 0, y: 0, w: 5, h: 5, fill: '#112233'}\n"
NEWCOMER = "  - name: Ember Scout\n    count: 1\n    text: First now.\n"


@pytest.mark.slow
@pytest.mark.parametrize("what", ["card", "element"])
def test_what_is_typed_is_not_kept_for_another_card_or_element_at_its_place(tmp_path, browser_page, what):
    """The panel keeps what is typed when the card is drawn again showing the same card or element. A rebuild
    after the file changed on disk (a card added above the one shown, an element above the one selected) shows
    another at the same place: the typed value was kept in its field, and the Enter after it wrote it there; and
    the field taken away while typed in wrote it at once, to the old place with the new file's digest."""
    root = project(tmp_path)
    served = Served(root)
    page = browser_page
    deck, layout = root / "content/sample/decks/heroes.yaml", root / LAYOUT
    try:
        open_editor(page, served)
        if what == "card":
            selector, value, file = "#e-props input[data-field='name']", "Ash Runner", deck
            changed = deck.read_text().replace("cards:\n", "cards:\n" + NEWCOMER)
        else:
            page.click("#" + element_id(page, 3))
            selector, value, file = "#e-props input[data-key='fill']", "#993366", layout
            changed = HERO.replace("\n  - id: badge", STRIPE + "  - id: badge")
        page.click(selector)
        page.fill(selector, value)
        file.write_text(changed)  # changed elsewhere: the rebuild that follows shows another at this place
        looked = int(page.evaluate("() => Number(document.body.dataset.looked || 0)"))
        page.evaluate("() => { edLoad(); }")  # as that rebuild finishing here does
        page.wait_for_function(f"() => Number(document.body.dataset.looked) > {looked}", timeout=30_000)
        assert page.input_value(selector) == ("Ember Scout" if what == "card" else "#112233")
        page.press(selector, "Enter")
        page.wait_for_function(
            "() => !ed.busy", timeout=30_000
        )  # a write begun by the redraw or Enter is done
        assert file.read_text() == changed  # nothing written to the card or element now there
    finally:
        print(served.stop())


# -- writes refused, over HTTP ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = project(tmp_path_factory.mktemp("editor"))
    server = Served(root)
    yield server
    out = server.stop()
    assert "Traceback" not in out, out


def post(served: Served, body: dict, headers: dict | None = None, host: str | None = None):
    given = {"X-Pnpgen-Token": served.token, "Content-Type": "application/json", **(headers or {})}
    status, _, data = served.request("POST", "/edit", given, json.dumps(body).encode(), host=host)
    return status, data


def a_write(served: Served, **more) -> dict:
    digest = sha(served.project / LAYOUT)
    return {
        "op": "set",
        "game": "sample",
        "file": LAYOUT,
        "digest": digest,
        "index": 3,
        "values": {"x": 11},
    } | more


@pytest.mark.slow
@pytest.mark.parametrize(
    "how,code",
    [
        ({"headers": {"X-Pnpgen-Token": ""}}, 403),
        ({"headers": {"X-Pnpgen-Token": "x" * 32}}, 403),
        ({"host": "evil.example:{port}"}, 421),
        ({"host": "127.0.0.1:1"}, 421),
        ({"headers": {"Origin": "http://evil.example"}}, 403),
        ({"headers": {"Origin": "null"}}, 403),
        ({"headers": {"Sec-Fetch-Site": "cross-site"}}, 403),
        ({"headers": {"Referer": "http://evil.example/page"}}, 403),
        ({"body": {"file": "content/sample/decks/heroes.yaml"}}, 403),
        ({"body": {"file": "layouts/sample-back.yaml"}}, 403),  # shared by every game
        ({"body": {"file": "content/sample/layouts/../../../../etc/passwd"}}, 403),
        ({"body": {"file": "pnpgen/layouts/basic-card.yaml"}}, 403),
        ({"body": {"digest": "0" * 64}}, 409),
        ({"body": {"values": {"x": "left"}}}, 422),
        ({"body": {"values": {"fill": "notacolour"}}}, 422),
        ({"body": {"values": {"colour": "#123456"}}}, 422),  # not a key of rect
        ({"body": {"values": {"when": "true"}}}, 422),
        ({"body": {"values": {"x": 1e400}}}, 400),  # Infinity: not JSON a layout can hold
        ({"body": {"index": 99}}, 404),
        ({"body": {"op": "rm -rf"}}, 400),
        ({"body": {"game": "other"}}, 404),
        ({"body": {"op": "add", "type": "polygon", "values": {}}}, 422),
        ({"body": {"op": "restore", "to": "f" * 64}}, 409),
    ],
)
def test_a_write_is_refused_and_the_file_left_as_it_was(served, how, code):
    layout = served.project / LAYOUT
    before = layout.read_bytes()
    body = a_write(served) | how.get("body", {})
    host = how.get("host")
    status, data = post(served, body, how.get("headers"), host.format(port=served.port) if host else None)
    assert status == code, data
    assert layout.read_bytes() == before


@pytest.mark.slow
def test_a_write_is_answered_with_the_new_digest_and_changes_only_its_value(served):
    layout = served.project / LAYOUT
    before = layout.read_text()
    status, data = post(served, a_write(served, values={"x": 12.5}))
    assert status == 200, data
    answer = json.loads(data)
    assert answer["digest"] == sha(layout) and answer["before"] != answer["digest"]
    assert layout.read_text() == before.replace("    x: 10\n    y: 30", "    x: 12.5\n    y: 30")
    status, data = post(served, a_write(served, op="restore", to=answer["before"]))
    assert status == 200 and layout.read_text() == before


@pytest.mark.slow
def test_the_look_names_each_element_its_file_line_and_why_it_cannot_move(served):
    status, _, data = served.get("/look?game=sample&component=heroes&card=0")
    assert status == 200
    look = json.loads(data)
    front = look["faces"][0]
    assert front["file"] == LAYOUT and (front["w"], front["h"], front["bleed"]) == (63.5, 88.9, 3.0)
    by_index = {e["index"]: e for e in front["elements"] if e["file"] == LAYOUT}
    assert by_index[3]["box"] == [10, 30, 10, 10] and by_index[3]["move"] == ["x", "y"]
    assert by_index[0]["move"] == [] and "area 'bleed'" in by_index[0]["why_move"]
    # its `w` a template, its `h` a number: made taller by hand, never wider (the reason given)
    assert by_index[2]["resize"] == ["h"] and f"{LAYOUT}:19:8" in by_index[2]["why_resize"]
    back = look["faces"][1]
    assert all(e["readonly"] and not e["move"] for e in back["elements"])  # a shared layout
    assert served.request("GET", "/look?game=sample&component=heroes&card=0")[0] == 403  # no token


@pytest.mark.slow
def test_a_board_side_is_edited_like_a_card(tmp_path, monkeypatch):
    """A board's sides are picked like cards: the side drawn as the build draws it (at most MAX_PX across), its
    elements named, and a move written into the board's layout."""
    import io

    from PIL import Image

    from pnpgen.project import Project
    from pnpgen.serve.command import Sketcher
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.look import MAX_PX
    from pnpgen.serve.preview import Preview

    shutil.copytree(FIXTURES / "pieces", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")  # as serve runs: files are named from the working folder
    project = Project(Path("content"), Path("out"), resident=True)
    preview = Preview(project, ["pieces"])
    editor = Editor(project, preview, Sketcher(project))
    status, look = editor.get("/look", {"game": ["pieces"], "component": ["board"], "card": ["1"]})
    assert status == 200, look
    (side,) = look["faces"]
    assert (side["w"], side["h"], side["bleed"]) == (400, 300, 3) and look["name"] == "Back side"
    image = Image.open(io.BytesIO(preview.image(side["image"][len("/img/") : -len(".png")])))
    assert max(image.size) <= MAX_PX and image.size[0] / image.size[1] == pytest.approx(406 / 306, abs=0.01)
    track = next(e for e in side["elements"] if e["type"] == "track")
    text = next(e for e in side["elements"] if e["type"] == "text")
    assert track["move"] == ["x", "y"] and track["box"][:2] == [5, 5]
    assert text["move"] == [] and "'y' is a template" in text["why_move"]
    layout = Path(side["file"])
    before = layout.read_text()
    body = {"op": "set", "game": "pieces", "file": side["file"], "digest": look["files"][side["file"]]}
    body |= {"index": track["index"], "values": {"x": 15}, "component": "board", "card": 1}
    status, answer = editor.post("/edit", json.dumps(body).encode())
    assert status == 200, answer
    assert layout.read_text() == before.replace("    x: 5\n    y: 5\n", "    x: 15\n    y: 5\n", 1)
    moved = next(e for e in answer["look"]["faces"][0]["elements"] if e["type"] == "track")
    assert moved["box"][:2] == [15, 5]


@pytest.mark.slow
def test_the_look_shows_the_build_s_layout_warnings_on_the_face(served):
    """Text added over the title: the answer's face carries the overlap warning `build` prints, at the element,
    with its box; undone, the warning goes."""
    layout = served.project / LAYOUT
    before = layout.read_text()
    body = a_write(served, op="add", type="text", component="heroes", card=0)
    body["values"] = {"x": 6, "y": 4, "w": 30, "h": 6, "text": "Over the title", "size": 9}
    status, data = post(served, body)
    assert status == 200, data
    answer = json.loads(data)
    (front, _back) = answer["look"]["faces"]
    overlaps = [w for w in front["warnings"] if w["kind"] == "overlap"]
    assert overlaps and any(w["at"].startswith(f"{LAYOUT}:") for w in overlaps), front["warnings"]
    assert all(len(w["box"]) == 4 for w in overlaps)
    status, data = post(
        served, a_write(served, op="restore", to=answer["before"], component="heroes", card=0)
    )
    assert status == 200 and layout.read_text() == before
    assert not [w for w in json.loads(data)["look"]["faces"][0]["warnings"] if w["kind"] == "overlap"]


@pytest.mark.slow
def test_a_card_field_is_written_to_its_line_and_undone(served):
    """The card's own values: written to the line the build reads it from (the engine's set_card_field), the
    answer's face drawn from it; a layout write op on a card file, or a field op on a layout, refused."""
    deck = served.project / "content/sample/decks/heroes.yaml"
    before = deck.read_text()
    status, _, data = served.get("/look?game=sample&component=heroes&card=1")
    edit = json.loads(data)["card_edit"]
    assert edit["file"] == "content/sample/decks/heroes.yaml" and edit["pos"] == 1 and not edit["readonly"]
    assert edit["fields"]["name"] == "Tide Caller" and edit["fields"]["colour"] == "sea"
    body = {"op": "field", "game": "sample", "file": edit["file"], "digest": sha(deck), "card_pos": 1}
    # not its colour: the rules check counts each colour's cards (such a write is refused, test_serve_byeye.py)
    body |= {"field": "text", "value": "Gain :drop: twice.", "component": "heroes", "card": 1}
    status, data = post(served, body)
    assert status == 200, data
    answer = json.loads(data)
    old = '    text: "Gain :drop::drop: when a neighbour plays water."\n'
    assert deck.read_text() == before.replace(old, '    text: "Gain :drop: twice."\n')
    assert answer["look"]["card_edit"]["fields"]["text"] == "Gain :drop: twice."
    assert post(served, body | {"digest": sha(deck), "op": "set", "index": 0, "values": {"x": 1}})[0] == 403
    layout_field = body | {"file": LAYOUT, "digest": sha(served.project / LAYOUT)}
    assert post(served, layout_field)[0] == 403
    status, _ = post(served, body | {"op": "restore", "digest": sha(deck), "to": answer["before"]})
    assert status == 200 and deck.read_text() == before


@pytest.mark.slow
@pytest.mark.parametrize(
    "body",
    [b"", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b"null", b"[]", b'{"op": "set", "game": ["sample"]}']
    + [b'{"op": "set", "game": "sample", "file": 5, "digest": null}', b'{"op": "set", "x": NaN}'],
    ids=["empty", "not-utf8", "deep", "null", "list", "game-list", "file-number", "nan"],
)
def test_a_malformed_write_is_a_clear_refusal_never_a_traceback(served, body):
    layout = served.project / LAYOUT
    before = layout.read_bytes()
    if len(body) > 200_000:
        body = body[:200_000]
    headers = {"X-Pnpgen-Token": served.token, "Content-Type": "application/json"}
    status, kind, data = served.request("POST", "/edit", headers, body)
    assert status in (400, 404) and kind == "application/json" and b"error" in data, data
    assert layout.read_bytes() == before


@pytest.mark.slow
def test_a_shared_layout_is_copied_into_the_game_to_be_edited(tmp_path):
    """The back comes from the shared `layouts/`: read-only, with an offer to copy it into the game; the copy
    holds the same bytes, the game draws with it, and the page may edit it. A second copy is refused."""
    root = project(tmp_path)
    served = Served(root)
    try:
        status, _, data = served.get("/look?game=sample&component=heroes&card=0")
        back = json.loads(data)["faces"][1]
        assert back["file"] == "layouts/sample-back.yaml" and back["readonly"] and back["adopt"]
        body = {"op": "adopt", "game": "sample", "file": back["file"], "digest": sha(root / back["file"])}
        status, data = post(served, body | {"component": "heroes", "card": 0})
        assert status == 200, data
        copy = root / "content/sample/layouts/sample-back.yaml"
        assert copy.read_bytes() == (root / "layouts/sample-back.yaml").read_bytes()
        new_back = json.loads(data)["look"]["faces"][1]
        assert new_back["file"] == "content/sample/layouts/sample-back.yaml" and not new_back["readonly"]
        assert not new_back["adopt"] and any(e["move"] for e in new_back["elements"])
        assert post(served, body)[0] == 409  # it is there now: never replaced
        for file in (LAYOUT, "content/sample/decks/heroes.yaml", "../etc/passwd"):
            assert post(served, body | {"file": file})[0] == 403
    finally:
        print(served.stop())


# -- the writes' own checks, without a server -----------------------------------------------------------------


@pytest.mark.parametrize(
    "etype,values,message",
    [
        ("rect", {"x": "left"}, "'x'"),
        ("rect", {"fill": "notacolour"}, "'fill' is not a colour"),
        ("rect", {"colour": "#123456"}, "unknown key 'colour' in rect element"),
        ("rect", {"when": "true"}, "unknown key 'when'"),
        ("rect", {"x": float("nan")}, "'x' must be a finite number"),
        ("rect", {"x": float("inf")}, "'x' must be a finite number"),
        ("rect", {"x": True}, "'x' must be a number or a text"),
        ("rect", {"x": [1, 2]}, "'x' must be a number or a text"),
        ("text", {"text": "x" * 2_001}, "longer than 2000 characters"),
        ("text", {"size": -3}, "'size'"),
        ("wibble", {"x": 1}, "unknown element type 'wibble'"),
        ("rect", {f"k{i}": 1 for i in range(17)}, "at most 16 keys"),
        ("rect", ["x", 1], "at most 16 keys"),
    ],
)
def test_values_are_checked_by_the_element_type_s_table_before_a_write(etype, values, message):
    from pnpgen.layout.kinds import Known
    from pnpgen.serve.writes import Refused, checked_values

    known = Known(palette={"ember": "#cc5500"}, icons={}, fonts={})  # as the game's library knows them
    with pytest.raises(Refused) as refused:
        checked_values(etype, values, known)
    assert message in refused.value.message


def test_values_a_layout_takes_pass_and_templates_are_left_to_the_build():
    from pnpgen.layout.kinds import Known
    from pnpgen.serve.writes import checked_values

    values = {"x": 12.5, "y": 3, "fill": "#336699", "w": "{{ w - 6 }}", "id": "panel"}
    assert checked_values("rect", values, Known()) == values


def test_undo_puts_back_only_versions_this_run_kept(tmp_path):
    from pnpgen.serve.writes import History, Refused, create

    path = tmp_path / "a.yaml"
    path.write_bytes(b"elements: []\n")
    history = History()
    history.keep(path, path.read_bytes())
    old = sha(path)
    path.write_bytes(b"elements: [] # edited\n")
    with pytest.raises(Refused):
        history.restore(path, sha(path), "f" * 64)  # never kept
    with pytest.raises(Refused):
        history.restore(path, old, old)  # the file is not at the digest the page names
    assert history.restore(path, sha(path), old) == old and path.read_bytes() == b"elements: []\n"
    with pytest.raises(FileExistsError):
        create(path, b"other")
    assert path.read_bytes() == b"elements: []\n"
    create(tmp_path / "layouts" / "b.yaml", b"new\n")
    assert (tmp_path / "layouts" / "b.yaml").read_bytes() == b"new\n"


@pytest.mark.slow
def test_the_starter_game_s_csv_cell_is_written_in_place(tmp_path, monkeypatch):
    """`pnpgen new`'s cards come from a CSV: the page edits a cell where the build reads it, every other byte
    kept; its layouts' constant boxes move."""
    import subprocess
    import sys

    from conftest import ROOT

    from pnpgen.project import Project
    from pnpgen.serve.command import Sketcher
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.preview import Preview

    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "pnpgen", "new", "mygame"], cwd=tmp_path, env=env, check=True)
    monkeypatch.chdir(tmp_path)
    project = Project(Path("content"), Path("out"), resident=True)
    editor = Editor(project, Preview(project, ["mygame"]), Sketcher(project))
    status, look = editor.get("/look", {"game": ["mygame"], "component": ["cards"], "card": ["0"]})
    assert status == 200, look
    card = look["card_edit"]
    assert card["file"].endswith(".csv") and not card["readonly"]
    sheet = Path(card["file"])
    before = sheet.read_bytes()
    old = str(card["fields"]["cost"])
    body = {"op": "field", "game": "mygame", "file": card["file"], "digest": look["files"][card["file"]]}
    status, answer = editor.post(
        "/edit", json.dumps(body | {"card_pos": 0, "field": "cost", "value": 7}).encode()
    )
    assert status == 200, answer
    import csv

    a, b = before.decode().splitlines(keepends=True), sheet.read_text().splitlines(keepends=True)
    changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    assert len(a) == len(b) and changed == [1]  # the first card's row, and no other byte
    header = next(csv.reader([a[0]]))
    was, now = next(csv.reader([a[1]])), next(csv.reader([b[1]]))
    cost = header.index("cost")
    assert was[cost] == old and now[cost] == "7"
    assert [c for i, c in enumerate(was) if i != cost] == [c for i, c in enumerate(now) if i != cost]
    assert any(e["move"] == ["x", "y"] for e in look["faces"][0]["elements"])


def test_the_routes_the_docs_give_move_an_element(tmp_path, monkeypatch):
    """docs/content-format.md shows a script the editor's routes: its `/look` query and its `/edit` body, taken
    from the docs as written (the game, deck, file and digest filled in), move the element and nothing else."""
    from conftest import ROOT

    from pnpgen.commands.new import new_game
    from pnpgen.project import Project
    from pnpgen.serve.command import Sketcher
    from pnpgen.serve.editor import Editor
    from pnpgen.serve.preview import Preview

    docs = (ROOT / "docs" / "content-format.md").read_text()
    query = re.search(r"`GET (/look)\?game=GAME&component=DECK&card=N&t=TOKEN`", docs)
    body = re.search(r"`POST (/edit)`, a JSON body: `(\{.*?\})` sets", docs, re.S)
    assert query and body, "the docs no longer show the editor's routes"
    new_game(tmp_path / "content", "my-game")
    monkeypatch.chdir(tmp_path)
    project = Project(Path("content"), Path("out"), resident=True)
    editor = Editor(project, Preview(project, ["my-game"]), Sketcher(project))
    status, look = editor.get(query[1], {"game": ["my-game"], "component": ["cards"], "card": ["0"]})
    assert status == 200, look
    front = look["faces"][0]
    text = next(
        e for e in front["elements"] if e["type"] == "text" and "card.text" in str(e["values"]["text"])
    )
    layout = Path(text["file"])
    before = layout.read_text()
    filled = re.sub(r"\s+", " ", body[2])
    for word, value in (("GAME", "my-game"), ("DECK", "cards"), ("FILE", text["file"])):
        filled = filled.replace(word, json.dumps(value))
    filled = filled.replace("DIGEST", json.dumps(look["files"][text["file"]]))
    filled = filled.replace('"card": N', '"card": 0').replace('"index": I', f'"index": {text["index"]}')
    status, answer = editor.post(body[1], filled.encode())
    assert status == 200, answer
    after = layout.read_text()
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    old_x, old_y = text["values"]["x"], text["values"]["y"]
    assert changed == [(f"    x: {old_x}", "    x: 12.5"), (f"    y: {old_y}", "    y: 60")], changed
    status, again = editor.post(body[1], filled.encode())  # the same digest again: the file changed since
    assert status == 409, again
