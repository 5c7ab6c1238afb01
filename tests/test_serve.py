"""`pnpgen serve`: the page in a real browser (Debian's chromium driven by Playwright), and the server's routes
as an attacker would try them. The server runs as the user runs it: `python -m pnpgen serve` in its own process."""

from __future__ import annotations

import io
import re
import shutil
import socket

import pytest
from conftest import FIXTURES
from PIL import Image
from serving import CHROMIUM_FLAGS, Served, edit


@pytest.fixture
def served(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", project)
    server = Served(project)
    yield server
    print(server.stop())  # shown when a test fails


@pytest.mark.slow
def test_state_lists_every_face_with_its_source(served):
    state = served.state(since=-1)
    (game,) = state["games"]
    assert game["errors"] == [] and game["title"] == "Sample Game"
    heroes = next(c for c in game["components"] if c["id"] == "heroes")
    assert [i["name"] for i in heroes["items"]] == ["Ash Walker", "Tide Caller"]
    assert heroes["faces"] == 11
    first = heroes["items"][0]
    assert first["source"] == "content/sample/decks/heroes.yaml:10" and first["fields"]["colour"] == "ember"
    status, kind, body = served.get(first["front"])
    assert status == 200 and kind == "image/png" and body.startswith(b"\x89PNG")


@pytest.mark.slow
def test_no_request_reaches_the_file_system(served):
    (served.project / "out" / "secret.txt").write_text("not for the page")
    for path in (
        "/../../etc/passwd",
        "/img/../../etc/passwd.png",
        "/img/..%2f..%2fetc%2fpasswd.png",
        "/out/sample/heroes.pdf",
        "/secret.txt",
        "/img/%00.png",
        "/content/sample/decks/heroes.yaml",
        "//etc/passwd",
    ):
        status, _, body = served.get(path)
        assert status == 404, path
        assert b"root:" not in body and b"not for the page" not in body


@pytest.mark.slow
def test_the_server_survives_clients_that_go_away(served):
    for request in (b"GET /state?since=-1 HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /img/", b"\x16\x03\x01garbage"):
        with socket.create_connection(("127.0.0.1", served.port), timeout=5) as s:
            s.sendall(request)  # and close at once, mid-answer or mid-request
    status, _, body = served.get("/")
    assert status == 200 and b"pnpgen preview" in body


@pytest.mark.slow
def test_a_saved_card_is_drawn_ahead_of_its_build(served):
    """The page is shown the edited card drawn on its own as soon as the save is seen (`/img/q<digest>.png`), then
    the face cut from the file the build wrote (`/img/<digest>.png`); both stay answerable."""
    state = served.state(since=-1)
    edit(served.project, "Ash Walker", "Ash Runner")
    while True:
        state = served.state(since=state["version"])
        (game,) = state["games"]
        items = next(c for c in game["components"] if c["id"] == "heroes")["items"]
        if items[0]["name"] == "Ash Runner" and not items[0]["front"].startswith("/img/q"):
            break
    front = items[0]["front"]
    for url in (front, front.replace("/img/", "/img/q")):
        status, kind, body = served.get(url)
        assert status == 200 and kind == "image/png" and body.startswith(b"\x89PNG"), url


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Debian's chromium is not installed (make test installs it where apt-get can)")
    return path


@pytest.mark.slow
def test_the_page_shows_faces_updates_on_save_and_shows_errors(served):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    executable = chromium()
    with sync_api.sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        except sync_api.Error as exc:
            pytest.skip(f"chromium does not start here: {str(exc).splitlines()[0]}")
        page = browser.new_page()
        page.goto(served.url)
        loaded = "n => [...document.querySelectorAll('figure img.front')].filter(i => i.complete && i.naturalWidth > 0).length === n"
        page.wait_for_function(loaded, arg=3, timeout=30_000)  # Ash Walker, Tide Caller, Spark
        front = lambda i: page.get_attribute(f"#f-sample-heroes-{i} img.front", "src")  # noqa: E731
        ash, tide = front(0), front(1)
        assert page.get_attribute("#f-sample-heroes-0 img.back", "src") is not None

        edit(served.project, "to move **two** spaces", "to move **three** spaces")
        page.wait_for_function(  # drawn ahead of its build (/img/q...), then cut from the file the build wrote
            "old => { const src = document.querySelector('#f-sample-heroes-0 img.front').getAttribute('src');"
            " return src !== old && !src.startsWith('/img/q'); }",
            arg=ash,
            timeout=30_000,
        )
        page.wait_for_function(loaded, arg=3, timeout=30_000)
        assert front(1) == tide  # only the edited face changed
        new_ash = front(0)

        edit(served.project, "count: 5", "count: three")
        page.wait_for_selector("#overlay.shown", timeout=30_000)
        overlay = page.inner_text("#overlay")
        assert "content/sample/decks/heroes.yaml:11:12: error: 'count' must be a whole number" in overlay
        assert front(0) == new_ash and front(1) == tide  # the last good faces stay under the errors

        edit(served.project, "count: three", "count: 5")
        page.wait_for_selector("#overlay", state="hidden", timeout=30_000)

        page.click("#f-sample-heroes-1")
        page.wait_for_selector("#panel.shown", timeout=5_000)
        panel = page.inner_text("#panel")
        assert (
            "Tide Caller" in panel
            and "content/sample/decks/heroes.yaml:13" in panel
            and '"colour": "sea"' in panel
        )
        page.click("#edit-link")  # the editor, on that card
        page.wait_for_selector("#e-face-front .el", timeout=30_000)
        assert page.input_value("#e-card") == "1" and "heroes" in page.input_value("#e-comp")
        browser.close()


@pytest.mark.slow
def test_rulebook_pages_are_drawn_when_asked_for_from_the_file_the_state_named(tmp_path):
    """The state names the rulebook's pages at once; each is drawn from its PDF when the page asks for it (so a
    card's new face is not kept waiting behind every page of the book), and only while that PDF is the one the
    state named."""
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", project)
    (project / "content/sample/rulebook.md").write_text("# Sample rules\n\nPlay the heroes.\n")
    served = Served(project)
    try:
        state = served.state(since=-1)
        pages = state["games"][0]["rulebook"]
        assert pages and all(re.match(r"^/img/rb[0-9a-f]{16}-\d+\.png$", u) for u in pages), pages
        status, kind, body = served.get(pages[0])
        assert status == 200 and kind == "image/png" and body.startswith(b"\x89PNG")
        status, kind, full = served.get(pages[0].replace("/img/rb", "/img/rz"))  # the page opened to be read
        assert status == 200 and kind == "image/png"
        small, big = (Image.open(io.BytesIO(data)).size for data in (body, full))
        assert big[0] / small[0] == pytest.approx(120 / 50, rel=0.02) and big[0] >= 900  # A4 at 120 dpi
        (project / "content/sample/rulebook.md").write_text("# Sample rules\n\nPlay the heroes well.\n")
        while state["games"][0]["rulebook"] == pages:
            state = served.state(since=state["version"])
        assert served.get(pages[-1])[0] == 404  # not drawn yet, and its file is another now
        status, kind, body = served.get(state["games"][0]["rulebook"][-1])
        assert status == 200 and body.startswith(b"\x89PNG")
    finally:
        print(served.stop())


def test_a_file_shown_early_gives_way_to_its_build_and_to_the_last_good_state_if_that_fails(tmp_path):
    """`Preview.early` shows a deck's file as soon as it is written (from the staging folder, before the game's
    files move into place); the build's end replaces that state, and a build that fails shows its errors over
    the last good faces, not over the ones shown early."""
    from dataclasses import replace

    from pnpgen import pipeline
    from pnpgen.errors import Diagnostics, Location
    from pnpgen.imposition.duplex import DEFAULT
    from pnpgen.pipeline.run import GameResult
    from pnpgen.project import Project
    from pnpgen.serve.preview import Preview

    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    out = tmp_path / "p" / "out"
    project = Project(
        tmp_path / "p" / "content", out, printing=replace(DEFAULT, whole=False)
    )  # as serve has it
    preview = Preview(project, ["sample"])
    preview.update(pipeline.build(project, ["sample"]))

    def names() -> list:
        (game,) = preview.state(-1, 0)["games"]
        return [i["name"] for c in game["components"] if c["id"] == "heroes" for i in c["items"]]

    seen = []

    def early(run, entry, staged):
        preview.early(run, entry, staged)
        seen.append((entry["path"], staged.parent.name, names()))

    edit(tmp_path / "p", "Ash Walker", "Ash Runner")
    built = pipeline.build(project, ["sample"], on_file=early)
    assert built[0].ok and [s[0] for s in seen] == ["heroes.pdf"], seen
    assert ".staging-" in seen[0][1] and seen[0][2] == ["Ash Runner", "Tide Caller"]
    preview.update(built)
    assert names() == ["Ash Runner", "Tide Caller"]

    edit(tmp_path / "p", "Ash Runner", "Ash Flyer")
    pipeline.build(project, ["sample"], on_file=early)  # shown early; then, say, the rulebook fails to write
    assert seen[-1][2] == ["Ash Flyer", "Tide Caller"]
    failed = Diagnostics()
    failed.error(Location("content/sample/rulebook.md", 1, 1), "broken")
    preview.update([GameResult("sample", False, failed)])
    (game,) = preview.state(-1, 0)["games"]
    assert names() == ["Ash Runner", "Tide Caller"] and game["errors"][0]["message"] == "broken"


def test_with_a_page_to_show_the_edited_deck_is_written_before_the_rulebook_is_drawn(tmp_path, monkeypatch):
    """A one-card edit of a card the rulebook pictures: the deck's file is written and shown first, the rulebook
    drawn and written after it, and the game's files still move into place together (one manifest, both new)."""
    from dataclasses import replace

    from pnpgen import pipeline
    from pnpgen.imposition.duplex import DEFAULT
    from pnpgen.pipeline import manifest, outputs
    from pnpgen.project import Project

    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    (tmp_path / "p/content/sample/rulebook.md").write_text("# Rules\n\n{{ picture('heroes') }}\n")
    out = tmp_path / "p" / "out"
    project = Project(tmp_path / "p" / "content", out, printing=replace(DEFAULT, whole=False))
    assert pipeline.build(project, ["sample"])[0].ok
    events = []
    prepare = outputs.RulebookFile.prepare

    def drawn(self, run, diags):
        events.append("rulebook drawn")
        return prepare(self, run, diags)

    monkeypatch.setattr(outputs.RulebookFile, "prepare", drawn)
    edit(tmp_path / "p", "Ash Walker", "Ash Runner")
    shown = lambda run, entry, staged: events.append(f"{entry['path']} written")  # noqa: E731
    (result,) = pipeline.build(project, ["sample"], on_file=shown)
    assert result.ok and sorted(result.rendered) == ["heroes", "rulebook"]
    assert events == ["heroes.pdf written", "rulebook drawn", "rulebook.pdf written"], events
    entries = {e["path"]: e for e in manifest.read(out / "sample")["files"]}
    assert entries["heroes.pdf"]["cards"][0]["name"] == "Ash Runner" and "rulebook.pdf" in entries
