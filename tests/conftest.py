"""Shared helpers: run the CLI, copy fixture games, read written PDFs."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import time
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from pnpgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MM = 72 / 25.4


def run_cli(*args, cwd: Path | None = None):
    """Run pnpgen in-process; returns click's Result (exit_code, stdout, stderr)."""
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    finally:
        os.chdir(old)


ParameterSet = type(pytest.param())  # what pytest.param makes (its class is not exported)


def fast_first(values, key=lambda value: value, fast=None) -> list:
    """`values` for `pytest.mark.parametrize`, each one whose `key` (a game) came before marked slow: a class
    test runs whole in `make test`, and `make test-fast` still runs it once for each key (or only for the key
    `fast` when given: the cheapest game, where each case reads a whole book). A tuple is one case's arguments,
    as parametrize takes them for several names; a `pytest.param` keeps its marks and id, `key` seeing its values."""
    seen: set = set()
    params = []
    for value in values:
        given = value if isinstance(value, ParameterSet) else None  # a pytest.param: its values, marks and id
        value = given.values if given else value
        k = key(value)
        quick = k == fast if fast is not None else k not in seen
        seen.add(k)
        marks = (*(given.marks if given else ()), *(() if quick else (pytest.mark.slow,)))
        args = value if isinstance(value, tuple) else (value,)
        params.append(pytest.param(*args, marks=marks, id=given.id if given else None))
    return params


def fast_once(values) -> list:
    """`values` for `pytest.mark.parametrize`: the first in `make test-fast`, every one in `make test`."""
    return fast_first(values, key=lambda value: None)


@pytest.fixture
def most_spent(monkeypatch):
    """A function giving the most template steps any budget made since the fixture was asked for has spent
    (`pnpgen.budget.Budget`): what a build's drawing took, to set `MAX_BUILD_STEPS` around it."""
    import pnpgen.budget as budget

    made: list = []
    init = budget.Budget.__init__

    def counted(self) -> None:
        init(self)
        made.append(self)

    monkeypatch.setattr(budget.Budget, "__init__", counted)
    return lambda: max(budget.MAX_BUILD_STEPS - b.build_left for b in made)


@pytest.fixture(scope="session")
def shipped_build(tmp_path_factory, request) -> Path:
    """The shipped games (content/ with the shared layouts/) built once per run, strictly: the output folder.

    Read-only: the tests that read it share it. No test changes content/ in place (those that change a game copy
    it first), so this builds from content/ itself, the way `make build` does. Under pytest-xdist the first
    worker to ask builds it in the run's shared temp folder and the others wait for it (a build is 3-4 s of CPU
    that every worker paid for again).
    """
    shared = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # an xdist worker: its basetemp is a folder of the run's
        shared = shared.parent
    out, done = shared / "shipped-build", shared / "shipped-build.done"
    try:
        os.close(os.open(shared / "shipped-build.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:  # another worker builds it: wait for its word
        deadline = time.monotonic() + 600
        while not done.exists():
            assert time.monotonic() < deadline, "the shipped games' build in another worker never finished"
            time.sleep(0.05)
    else:
        try:
            _build_shipped(out)
            report = {"sockets": [repr(a) for a in SHIPPED_BUILD_SOCKETS]}
        except BaseException as exc:
            report = {"failed": str(exc)}
            raise
        finally:
            staged = done.with_suffix(".tmp")
            staged.write_text(json.dumps(report))
            staged.replace(done)
    report = json.loads(done.read_text())
    assert "failed" not in report, report["failed"]
    if not SHIPPED_BUILD_SOCKETS:  # what the build tried, wherever it ran (tests/test_trust.py reads it)
        SHIPPED_BUILD_SOCKETS.extend(report["sockets"])
    return out


def _build_shipped(out: Path) -> None:
    def refuse(*args, **kwargs):
        SHIPPED_BUILD_SOCKETS.append(args)
        raise AssertionError("pnpgen opened a socket")

    # no network during a build (tests/test_trust.py reads what was tried): proved here, not by a second build
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket, "socket", refuse)
        patch.setattr(socket, "create_connection", refuse)
        result = run_cli("build", "--content", ROOT / "content", "--out", out, "--strict")
    assert result.exit_code == 0, result.output


SHIPPED_BUILD_SOCKETS: list = []  # every socket the session's build of the shipped games tried to open


@pytest.fixture(scope="session")
def shipped_pdf(shipped_build):
    """Open a PDF of the shipped build with pdfplumber, once per session: `shipped_pdf("deity", "rulebook.pdf")`.

    pdfplumber keeps each page's parsed objects (chars, words' sources, rects, curves) on its `Page`, so the tests
    that measure the same rulebook or deck share one parse instead of each parsing every page again. Read-only:
    never close it (the session does) or change a page's objects.
    """
    opened: dict[Path, pdfplumber.PDF] = {}

    def open_(game: str, name: str) -> pdfplumber.PDF:
        path = shipped_build / game / name
        if path not in opened:
            opened[path] = pdf = pdfplumber.open(path)
            for page in pdf.pages:
                _drop_layout_once_parsed(page)
        return opened[path]

    yield open_
    for pdf in opened.values():
        pdf.close()


def _drop_layout_once_parsed(page) -> None:
    """Keep a shared page's objects but not pdfminer's layout tree they came from (half the memory of a parse)."""
    parse = page.parse_objects

    def parse_then_drop():
        objects = parse()
        page.__dict__.pop("_layout", None)
        return objects

    page.parse_objects = parse_then_drop


@pytest.fixture(scope="session")
def basic_out(tmp_path_factory) -> Path:
    """The `basic` fixture game built once per session: its `out` folder. Read-only: a test that needs the good
    output of an unchanged copy of `basic` copies this folder (copy2 keeps the times) instead of building."""
    root = tmp_path_factory.mktemp("basic-built") / "basic"
    shutil.copytree(FIXTURES / "basic", root)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    return root / "out"


@pytest.fixture
def project(tmp_path):
    """Copy a fixture project (content/ + layouts/) into a temp folder and return its path."""

    def make(name: str) -> Path:
        dest = tmp_path / name
        shutil.copytree(FIXTURES / name, dest)
        return dest

    return make


def _contents(page) -> bytes:
    """A pdfplumber page's content stream, decoded."""
    data = page.page_obj.get_contents() if hasattr(page.page_obj, "get_contents") else None
    if data is None:
        from pdfminer.pdftypes import resolve1

        contents = resolve1(page.page_obj.attrs.get("Contents"))
        streams = contents if isinstance(contents, list) else [contents]
        data = b"".join(resolve1(s).get_data() for s in streams)
    return data


def form_uses(page) -> list[str]:
    """Names of the Form XObjects a pdfplumber page draws with `Do`, in order."""
    return re.findall(rb"/([\w.]+) Do", _contents(page))


def face_uses(page) -> int:
    """How many faces a sheet page places: by form (pnpgen names face forms F<n>; a face printed more than once in
    its file) or drawn on the page (a face printed once, marked content `/Face BMC`)."""
    forms = sum(1 for name in form_uses(page) if re.match(rb"^FormXob\.F\d+$|^F\d+$", name))
    return forms + len(re.findall(rb"/Face BMC", _contents(page)))


def holders(pdf):
    """Every page and form XObject of a pikepdf `Pdf`, each once, pages first: where content streams and the
    resources they name (fonts, images, colour spaces) live."""
    todo, seen = [p.obj for p in pdf.pages], set()
    while todo:
        obj = todo.pop(0)
        if obj.objgen != (0, 0) and obj.objgen in seen:
            continue
        seen.add(obj.objgen)
        yield obj
        todo += [
            x
            for _, x in obj.get("/Resources", {}).get("/XObject", {}).items()
            if x.get("/Subtype") == "/Form"
        ]


@pytest.fixture
def split(monkeypatch) -> list:
    """Decks drawn in halves from 40 cards (`pipeline/halves.py`; 300 as shipped), for a small test deck to split:
    the list gets what each `halves` call in this process came to (None: drawn in order instead)."""
    import pnpgen.pipeline.faces as painting

    monkeypatch.setattr(painting, "SPLIT_AT", 40)
    seen: list = []
    real = painting.halves
    monkeypatch.setattr(painting, "halves", lambda *a: seen.append(real(*a)) or seen[-1])
    return seen


@pytest.fixture(autouse=True, scope="session")
def _one_core_when_asked():
    """`make test` and `make test-fast` set PNPGEN_TEST_ONE_CORE: a build not told how many workers to use writes
    its files in the test's own process instead of forking workers from it (pytest's process is large: a fork
    cost a small build 10-20 ms: the fast run went from 60-65 s to 47-52 s, the whole from 332 to 279 s). What
    the workers do is tested where it is asked for: the tests of the pool, of `-j`, of big decks in halves and
    of several games name their workers, and every pnpgen run in a child process (the shipped games built a
    second time, by `test_a_second_build_gives_identical_bytes`, whose bytes must be the session's one-core
    build's; the portable job) uses every core, as a designer's does."""
    if not os.environ.get("PNPGEN_TEST_ONE_CORE"):
        yield
        return
    import pnpgen.pipeline.jobs

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnpgen.pipeline.jobs, "cores", lambda: 1)
        yield


@pytest.fixture
def browser_page():
    """A page of Debian's chromium driven by Playwright (the `serve` page's tests), 1400 x 900; skipped where
    either is missing."""
    from serving import CHROMIUM_FLAGS

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the [test] extra")
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.skip("Debian's chromium is not installed (make test installs it where apt-get can)")
    with sync_api.sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        except sync_api.Error as exc:
            pytest.skip(f"chromium does not start here: {str(exc).splitlines()[0]}")
        yield browser.new_page(viewport={"width": 1400, "height": 900})
        browser.close()
