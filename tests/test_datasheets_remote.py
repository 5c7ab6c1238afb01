"""Sheets from a URL, against a local HTTP server (127.0.0.1, a free port), never the internet: fetched and
cached with its digest, so a changed remote sheet rebuilds and an unchanged one does not; offline, the cached
copy with a warning, or a located error; too big, too slow and redirect loops refused; the kind sniffed from
the bytes, whatever the server says."""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time

import pytest
from conftest import fast_once, run_cli
from test_datasheets import HEADER, ROWS, cards, csv_text, xlsx

from pnpgen.bounds import remote


class Site:
    """A local server: path -> (status, headers, body); `delay` seconds before each answer."""

    def __init__(self):
        self.pages: dict[str, tuple[int, dict, bytes]] = {}
        self.delay = 0.0
        self.drip = 0.0
        self.hits = 0
        self.asked: list[dict] = []  # each request's headers
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                site.hits += 1
                site.asked.append(dict(self.headers))
                time.sleep(site.delay)
                status, headers, body = site.pages.get(self.path, (404, {}, b"no"))
                etag, modified = headers.get("ETag"), headers.get("Last-Modified")
                if (etag and self.headers.get("If-None-Match") == etag) or (
                    modified and self.headers.get("If-Modified-Since") == modified
                ):
                    status, body = 304, b""  # as a server that honours the validators answers
                try:
                    self.send_response(status)
                    for k, v in {"Content-Length": str(len(body)), **headers}.items():
                        self.send_header(k, v)
                    self.end_headers()
                    if site.drip:  # a byte at a time, each in time, the whole too slow
                        for i in range(len(body)):
                            self.wfile.write(body[i : i + 1])
                            self.wfile.flush()
                            time.sleep(site.drip)
                    else:
                        self.wfile.write(body)
                except OSError:  # the client gave up (a timeout)
                    pass

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        # a short poll: shutdown() waits for the loop to look, half a second by default, at every test's end
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def ask_every_time(monkeypatch):
    """These tests ask the server at every check (a window of 0 s) unless they set a window themselves."""
    monkeypatch.setenv(remote.AGE_VARIABLE, "0")


@pytest.fixture
def site():
    s = Site()
    yield s
    s.stop()


DECK = """id: heroes
kind: cards
name: Hero cards
size: poker
front: hero
back: sample-back
defaults:
  colour: ember
cards_from: {ref}
"""


def remote_game(project, ref: str):
    root = project("basic")
    (root / "content/sample/decks/heroes.yaml").write_text(DECK.format(ref=ref))
    return root


SHEETS = {
    "csv": (lambda rows: csv_text(rows).encode(), "/pub?output=csv", "{url}"),
    # a workbook served as text/html: what it is comes from its bytes
    "xlsx": (lambda rows: xlsx(rows), "/pub?output=xlsx", "{{file: '{url}', sheet: Heroes}}"),
    # a JSON list of cards as an API serves it (no .json in its address): it was read as a CSV file
    "json": (lambda rows: json.dumps(cards(rows[1:]), indent=1).encode(), "/api/cards?format=json", "{url}"),
}


@pytest.mark.parametrize("sheet", fast_once(SHEETS))
def test_a_sheet_from_a_url_is_fetched_cached_and_kept_fresh(project, site, sheet):
    make, path, ref = SHEETS[sheet]
    site.pages[path] = (200, {"Content-Type": "text/html"}, make([HEADER, *ROWS]))
    url = site.url + path
    yaml_root = project("basic")
    assert run_cli("build", "--out", "out", "--strict", cwd=yaml_root).exit_code == 0
    root = yaml_root.parent / "remote"
    import shutil

    shutil.copytree(yaml_root, root, ignore=shutil.ignore_patterns("out"))
    (root / "content/sample/decks/heroes.yaml").write_text(DECK.format(ref=ref.format(url=url)))
    # fresh: fetched, and the PDF is the one of the same cards in YAML
    result = run_cli("build", "--out", "out", "--strict", cwd=root)
    assert result.exit_code == 0, result.output
    assert (root / "out/sample/heroes.pdf").read_bytes() == (yaml_root / "out/sample/heroes.pdf").read_bytes()
    cached = remote.cache_path(root, url)
    assert cached.read_bytes() == site.pages[path][2]
    # unchanged: fetched again to know, nothing rebuilt
    hits = site.hits
    result = run_cli("build", "--out", "out", cwd=root)
    assert "up to date" in result.output and "rendered" not in result.output, result.output
    assert site.hits > hits
    # changed: the deck (and print-all) rebuild
    site.pages[path] = (200, {}, make([HEADER, ROWS[0], ["Tide Singer", *ROWS[1][1:]]]))
    result = run_cli("build", "--out", "out", cwd=root)
    assert "(2 rendered, 1 up to date)" in result.output, result.output
    assert cached.read_bytes() == site.pages[path][2]


@pytest.mark.parametrize(
    "body",
    [b'[{"name": "A", "count": 2.5}]', b'\xef\xbb\xbf \r\n\t[{"name": "A", "count": 2.5}]', b'{"name": "A"}'],
    ids=["list", "bom-and-space", "object"],
)
def test_a_json_list_from_a_url_is_told_at_its_line_and_column(project, site, body):
    """What the bytes are decides how they are read, whatever the address or the server says: JSON's first '['
    or '{' (after a BOM and white space), never a CSV file's first cell."""
    assert remote.kind(body) == ".json" and remote.kind(b"name,count\n[a],1\n") == ".csv"
    site.pages["/cards"] = (200, {"Content-Type": "text/plain"}, body)
    root = remote_game(project, site.url + "/cards")
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1 and "Traceback" not in result.output
    col = body.decode("utf-8-sig").splitlines()[-1].index("2.5") + 1 if b"[" in body else 1
    line = len(body.decode("utf-8-sig").splitlines())
    told = (
        f"{site.url}/cards:{line}:{col}: error: 'count' must be a whole number from 0 to 10,000 (got float 2.5)"
        if b"[" in body
        else f"{site.url}/cards:1:1: error: a JSON card file is a list of cards (got a mapping)"
    )
    assert told in result.output, result.output


def _built(project, site, body: bytes = b""):
    site.pages["/s.csv"] = (200, {}, body or csv_text([HEADER, *ROWS]).encode())
    root = remote_game(project, site.url + "/s.csv")
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    return root


def test_offline_the_cached_copy_is_used_with_a_warning(project, site):
    root = _built(project, site)
    before = (root / "out/sample/heroes.pdf").read_bytes()
    site.stop()
    result = run_cli("build", "--out", "out", cwd=root)  # offline and unchanged: up to date
    assert result.exit_code == 0 and "rendered" not in result.output, result.output
    layout = root / "content/sample/layouts/hero.yaml"
    layout.write_text(layout.read_text() + "\n")  # something else changed: the deck is drawn again
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 0, result.output
    assert "content/sample/decks/heroes.yaml:9:" in result.output
    assert "warning: data sheet" in result.output and "is used" in result.output, result.output
    assert "cannot be fetched" in result.output
    assert (root / "out/sample/heroes.pdf").read_bytes() == before


@pytest.mark.parametrize(
    "cut, where",
    fast_once([(c, w) for c in ("copy", "meta") for w in ("offline", "within the window", "asked again")]),
)
def test_a_kept_copy_or_its_meta_cut_at_any_byte_is_no_copy(project, site, monkeypatch, where, cut):
    """A copy cut short (a disk that filled, a copy by hand) would be fewer cards, read without a word: each cut
    of the copy, and of its `.meta`, is no copy. Offline that is the error of no copy; else it is fetched again,
    even when the server would answer `304 Not Modified` to the validators kept."""
    body = csv_text([HEADER, *ROWS]).encode()
    root = _built(project, site, body)
    site.pages["/s.csv"] = (200, {"ETag": '"v1"'}, body)
    url = site.url + "/s.csv"
    assert remote.get(url, root) == (body, "")  # the validators kept
    path = remote.cache_path(root, url)
    meta = remote._meta_path(path).read_bytes()
    if where == "offline":
        site.stop()
    elif where == "within the window":
        monkeypatch.setenv(remote.AGE_VARIABLE, "3600")
    whole = body if cut == "copy" else meta
    for n in range(len(whole)):
        path.write_bytes(body[:n] if cut == "copy" else body)
        remote._meta_path(path).write_bytes(meta[:n] if cut == "meta" else meta)
        if where == "offline":
            with pytest.raises(remote.Refused, match="no copy of it is cached"):
                remote.get(url, root)
        else:
            assert remote.get(url, root) == (body, ""), n


def test_offline_a_copy_cut_short_is_an_error_and_the_output_stays(project, site):
    root = _built(project, site)
    before = (root / "out/sample/heroes.pdf").read_bytes()
    site.stop()
    path = remote.cache_path(root, site.url + "/s.csv")
    path.write_bytes(b"\n".join(path.read_bytes().split(b"\n")[:2]) + b"\n")  # the header, one card of two
    layout = root / "content/sample/layouts/hero.yaml"
    layout.write_text(layout.read_text() + "\n")  # the deck is drawn again
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1, result.output
    assert "content/sample/decks/heroes.yaml:9:" in result.output
    assert "no copy of it is cached" in result.output
    assert (root / "out/sample/heroes.pdf").read_bytes() == before


def _drip(site, seconds):
    site.pages["/s.csv"] = (200, {}, csv_text([HEADER, *ROWS]).encode())
    site.drip = seconds


@pytest.mark.parametrize(
    "page, setup, message",
    [
        ("offline", lambda site: site.stop(), "cannot be fetched"),
        (
            "big",
            lambda site: site.pages.update({"/s.csv": (200, {}, b"name,count\n" + b"A,1\n" * 400)}),
            "is 1,611 bytes; the limit is 1,000",
        ),
        (
            "big-unsaid",
            lambda site: site.pages.update(
                {"/s.csv": (200, {"Content-Length": "5"}, b"name,count\n" + b"A,1\n" * 400)}
            ),
            "",
        ),
        # these two wait out the fetch's time limits (3 s of clock): make test only
        pytest.param(
            "slow",
            lambda site: setattr(site, "delay", 2.0),
            "cannot be fetched (timed out)",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "drip", lambda site: _drip(site, 0.05), "took over 1.5 s to arrive", marks=pytest.mark.slow
        ),
        (
            "loop",
            lambda site: site.pages.update({"/s.csv": (302, {"Location": "/s.csv"}, b"")}),
            "redirects in a loop",
        ),
        (
            "away",
            lambda site: site.pages.update({"/s.csv": (302, {"Location": "file:///etc/passwd"}, b"")}),
            "redirects away from http and https; refused",
        ),
        ("missing", lambda site: None, "answered 404"),
    ],
)
def test_a_failed_fetch_without_a_cache_is_a_located_error(project, site, monkeypatch, page, setup, message):
    monkeypatch.setattr(remote, "MAX_BYTES", 1000)
    monkeypatch.setattr(remote, "TIMEOUT", 0.5)
    url = site.url + ("/s.csv" if page != "missing" else "/nothing.csv")
    setup(site)
    root = remote_game(project, url)
    result = run_cli("build", "--out", "out", cwd=root)
    if page == "big-unsaid":  # a short Content-Length is no way past the bound: the answer is cut at it
        assert result.exit_code == 1
        return
    assert result.exit_code == 1, result.output
    assert f"content/sample/decks/heroes.yaml:9:13: error: data sheet '{url}' {message}" in result.output, (
        result.output
    )
    assert "no copy of it is cached in .pnpgen/sheets/" in result.output
    assert "Traceback" not in result.output
    assert not (root / "out/sample/heroes.pdf").exists()


def test_a_url_is_one_of_a_list_of_sheets(project, site):
    site.pages["/b.csv"] = (200, {}, csv_text([HEADER, ROWS[1]]).encode())
    root = project("basic")
    (root / "content/sample/data").mkdir()
    (root / "content/sample/data/a.csv").write_text(csv_text([HEADER, ROWS[0]]))
    (root / "content/sample/decks/heroes.yaml").write_text(
        DECK.format(ref=f"[data/a.csv, '{site.url}/b.csv']")
    )
    result = run_cli("build", "--out", "out", "--strict", cwd=root)  # the facts' 11 cards: 5 + 6
    assert result.exit_code == 0, result.output
    site.pages["/b.csv"] = (200, {}, csv_text([HEADER, [ROWS[1][0], "x", *ROWS[1][2:]]]).encode())
    layout = root / "content/sample/layouts/hero.yaml"
    layout.write_text(layout.read_text() + "\n")
    result = run_cli("build", "--out", "out", cwd=root)
    assert f"{site.url}/b.csv:2:2: error: 'count'" in result.output, result.output


def test_the_serve_editor_shows_a_card_from_a_url_read_only():
    from types import SimpleNamespace

    from pnpgen.errors import Location
    from pnpgen.serve.look import card_fields

    url = "https://docs.google.com/spreadsheets/d/e/x/pub?output=csv"
    cards = [
        SimpleNamespace(index=i + 1, name=f"c{i}", fields={"cost": i}, loc=Location(url, i + 2, 1))
        for i in range(2)
    ]
    shown = card_fields(SimpleNamespace(cards=cards, left_out=()), 1)
    assert shown["pos"] == 1 and shown["at"] == f"{url}:3:1"
    assert (
        shown["readonly"]
        == f"a sheet from a URL, shown read-only: change it where it is published, at {url}:3:1"
    )


@pytest.mark.parametrize(
    "ref", ["ftp://127.0.0.1/a.csv", "file:///etc/passwd", "[data/a.csv, 'gopher://x/a.csv']"]
)
def test_only_http_and_https_addresses_are_fetched(project, ref):
    root = remote_game(project, ref)
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/decks/heroes.yaml:9:" in result.output
    assert "error: 'cards_from' only http and https addresses are fetched" in result.output, result.output


VALIDATORS = {
    "etag": ("ETag", ['"v1"', '"v2"'], "If-None-Match"),
    "last-modified": (
        "Last-Modified",
        ["Wed, 25 Nov 2026 10:00:00 GMT", "Thu, 26 Nov 2026 10:00:00 GMT"],
        "If-Modified-Since",
    ),
}


@pytest.mark.parametrize("validator", VALIDATORS)
def test_an_unchanged_sheet_is_asked_conditionally_and_kept_on_304(project, site, validator):
    header, (first, second), asks = VALIDATORS[validator]
    url = site.url + "/s.csv"
    site.pages["/s.csv"] = (200, {header: first}, csv_text([HEADER, *ROWS]).encode())
    root = remote_game(project, url)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    assert asks not in site.asked[0]  # nothing kept yet: asked plainly
    cached = remote.cache_path(root, url)
    kept, hits = cached.read_bytes(), site.hits
    result = run_cli("build", "--out", "out", cwd=root)
    assert "up to date" in result.output and "rendered" not in result.output, result.output
    assert site.hits > hits and all(a.get(asks) == first for a in site.asked[hits:])  # each answered 304
    assert cached.read_bytes() == kept
    # changed at the server: a new validator, the whole sheet, the deck drawn again
    site.pages["/s.csv"] = (
        200,
        {header: second},
        csv_text([HEADER, ROWS[0], ["Tide Singer", *ROWS[1][1:]]]).encode(),
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert "(2 rendered, 1 up to date)" in result.output, result.output
    assert cached.read_bytes() == site.pages["/s.csv"][2]


def test_within_the_window_an_up_to_date_check_asks_nothing(project, site, monkeypatch):
    import json

    monkeypatch.setenv(remote.AGE_VARIABLE, "3600")
    url = site.url + "/s.csv"
    site.pages["/s.csv"] = (200, {}, csv_text([HEADER, *ROWS]).encode())
    root = remote_game(project, url)
    assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    hits = site.hits
    assert hits == 1  # one fetch serves the whole build
    result = run_cli("build", "--out", "out", cwd=root)
    assert "up to date" in result.output and "rendered" not in result.output, result.output
    assert site.hits == hits  # no request at all
    from pnpgen.commands.build import answer_unchanged  # `pnpgen build`'s fast path: no request either

    assert answer_unchanged(["build", "--content", str(root / "content"), "--out", str(root / "out")])
    assert site.hits == hits
    # changed at the server: within the window the kept copy still stands for it
    site.pages["/s.csv"] = (200, {}, csv_text([HEADER, ROWS[0], ["Tide Singer", *ROWS[1][1:]]]).encode())
    assert "rendered" not in run_cli("build", "--out", "out", cwd=root).output
    assert site.hits == hits
    # the window has passed (the copy's .meta says it was fetched two hours ago): asked again, rebuilt
    meta = remote.cache_path(root, url).with_name(remote.cache_path(root, url).name + ".meta")
    kept = json.loads(meta.read_text())
    meta.write_text(json.dumps({**kept, "fetched": kept["fetched"] - 7200}))
    result = run_cli("build", "--out", "out", cwd=root)
    assert "(2 rendered, 1 up to date)" in result.output, result.output
    assert site.hits == hits + 1


def test_the_window_is_a_few_minutes_unless_set(monkeypatch):
    monkeypatch.delenv(remote.AGE_VARIABLE)
    assert remote.max_age() == remote.MAX_AGE == 300
    monkeypatch.setenv(remote.AGE_VARIABLE, "90")
    assert remote.max_age() == 90


@pytest.mark.parametrize("value", ["soon", "-5", "inf", "nan"])
def test_a_bad_window_is_a_located_error(project, site, monkeypatch, value):
    monkeypatch.setenv(remote.AGE_VARIABLE, value)
    url = site.url + "/s.csv"
    site.pages["/s.csv"] = (200, {}, csv_text([HEADER, *ROWS]).encode())
    result = run_cli("build", "--out", "out", cwd=remote_game(project, url))
    assert result.exit_code == 1
    assert (
        f"content/sample/decks/heroes.yaml:9:13: error: data sheet '{url}' is not fetched: "
        f"PNPGEN_SHEET_MAX_AGE must be a number of seconds from 0 (got '{value}')"
    ) in result.output, result.output
    assert "Traceback" not in result.output


# what a server drips a byte at a time, each within the timeout: before the body, it held a build for days
DRIPS = {
    "status-line": (b"", b"H"),
    "header": (b"HTTP/1.1 200 OK\r\n", b"X"),
    "many-headers": (b"HTTP/1.1 200 OK\r\n", b"X-Y: z\r\n"),
    "body": (b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", b"a"),
}


@pytest.mark.parametrize("part", fast_once(sorted(DRIPS)))
def test_a_server_dripping_any_part_of_its_answer_is_cut_off(part):
    first, drip = DRIPS[part]
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            try:
                conn.sendall(first)
                while not stop.wait(0.05):
                    conn.sendall(drip)
            except OSError:  # the client gave up
                pass

    threading.Thread(target=serve, daemon=True).start()
    got: list = []

    def fetch():
        try:
            remote.fetch(f"http://127.0.0.1:{listener.getsockname()[1]}/s.csv", timeout=0.2)
        except remote.Refused as exc:
            got.append(str(exc))

    asking = threading.Thread(target=fetch, daemon=True)
    asking.start()
    asking.join(20)  # a bound, far over the answer's 0.6 s: without it the test would wait for days
    stop.set()
    listener.close()
    assert not asking.is_alive(), "the fetch is still waiting for the server"
    assert got == ["took over 0.6 s to arrive"]


@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nname,count\nA,1\n",  # the body cut short
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nname,count\nA,1\n",  # more than it said: only 5 read
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nname,count\nA,1\n",  # a chunk cut short
    ],
    ids=["short", "long", "chunk-cut"],
)
def test_an_answer_that_breaks_off_is_refused_never_taken_as_the_sheet(answer):
    """A connection that closes before the answer is whole (fewer bytes than its Content-Length, a chunk cut
    short) is refused with what happened: the rows that came were taken as the whole sheet, and the deck
    silently lost the rest. One that says 5 bytes is taken as those 5, as HTTP means."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        got = remote.fetch(f"http://127.0.0.1:{listener.getsockname()[1]}/s.csv", timeout=5)
    except remote.Refused as exc:
        got = str(exc)
    finally:
        listener.close()
    if b"Content-Length: 5\r" in answer:
        assert got == b"name,"
    elif b"chunked" in answer:
        assert got == "cannot be fetched (its answer broke off)"
    else:
        assert got == "broke off after 15 of its 100 bytes"


@pytest.mark.parametrize("code", fast_once([302, 301, 303, 307, 308]))
def test_the_body_of_a_redirect_is_never_read_into_memory(code):
    """urllib read a redirect's body whole, unbounded by the sheet's limit, before it followed the redirect: a
    server answering 302 with gigabytes (fast, well within the deadline) filled the memory. The body is
    skipped now; the sheet at the new address comes, within its limit, for every redirect status."""
    import tracemalloc

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    big = 40 << 20  # 40 MiB

    def serve():
        for answer in (
            b"HTTP/1.1 %d Moved\r\nLocation: http://127.0.0.1:%d/b.csv\r\nContent-Length: %d\r\n\r\n" % (code, port, big),
            b"HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\nname,count\nA,1\n",
        ):  # fmt: skip
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                try:
                    conn.sendall(answer)
                    if answer.startswith(b"HTTP/1.1 3"):
                        block = b"a" * (1 << 20)
                        for _ in range(big >> 20):
                            conn.sendall(block)
                except OSError:  # the client shut it unread
                    pass

    threading.Thread(target=serve, daemon=True).start()
    tracemalloc.start()
    try:
        got = remote.fetch(f"http://127.0.0.1:{port}/a.csv", timeout=5, limit=100_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        listener.close()
    assert got == b"name,count\nA,1\n"
    assert peak < 5_000_000, f"{peak:,} bytes held for a sheet of 15 (its limit 100,000)"


@pytest.mark.parametrize(
    ("status", "said"),
    [
        (b"304 Not Modified", "answered 304 Not Modified"),  # asked for the whole sheet: no copy kept
        (b"302 Found", "answered 302 Found without saying where to"),  # no Location
        (b"307 Temporary Redirect", "answered 307 Temporary Redirect without saying where to"),
        (b"300 Multiple Choices", "answered 300 Multiple Choices"),
        (b"305 Use Proxy", "answered 305 Use Proxy"),
    ],
)
def test_an_answer_in_the_300s_that_is_no_redirect_followed_says_what_came(status, said):
    """Every 3xx that urllib does not follow (a 304 to a request that kept no copy, a redirect without a
    Location, a 300) was told as "redirects in a loop or too often": what the server answered is said."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    try:
        with pytest.raises(remote.Refused) as refused:
            remote.fetch(f"http://127.0.0.1:{listener.getsockname()[1]}/s.csv", timeout=5)
    finally:
        listener.close()
    assert str(refused.value) == said
