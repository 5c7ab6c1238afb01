"""A local server answers only its own page (issue 28, class 3; issue 29, item 5): `pnpgen serve` refuses a
foreign Host (DNS rebinding), requests from other sites, requests without the run's token, requests too large,
and keeps answering its page while idle or slow clients hold connections; IPv6 loopback works; listening beyond
loopback is warned about. First the rules alone (`Guard.judge`, every route times every header), then the
server as it runs, in its own process."""

from __future__ import annotations

import shutil
import socket
import time
from email.message import Message

import pytest
from conftest import FIXTURES
from serving import Served

from pnpgen.serve.guard import Guard, loopback

PORT = 8765
ROUTES = [("GET", "/state"), ("GET", "/img/0123abcd.png"), ("POST", "/edit"), ("HEAD", "/state")]


def headers(**given: str) -> Message:
    m = Message()
    for key, value in given.items():
        for one in value.split("\n"):
            m[key.replace("_", "-")] = one
    return m


def judge(guard: Guard, method: str, path: str, query: dict | None = None, **given: str):
    verdict = guard.judge(method, path, query or {}, headers(**given))
    return None if verdict is None else verdict.code


@pytest.fixture
def guard() -> Guard:
    return Guard("127.0.0.1", PORT)


FOREIGN_HOSTS = [
    "evil.example:8765",  # DNS rebinding: the attacker's name, now resolving to 127.0.0.1
    "evil.example",
    "localhost.evil.example:8765",
    "127.0.0.1.nip.io:8765",
    "127.0.0.1:8766",  # another port: another server's page
    "127.0.0.1",  # port 80 implied
    "localhost:80",
    "127.0.0.2:8765",
    "[::2]:8765",
    "0.0.0.0:8765",
    "127.0.0.1:8765:8765",
    "127.0.0.1:+8765",
    "127.0.0.1:８７６５",  # full-width digits
    "[::1:8765",
    "",
    "127.0.0.1:8765\nevil.example:8765",  # two Host headers
]


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
@pytest.mark.parametrize("method,path", [*ROUTES, ("GET", "/")])
def test_a_foreign_host_is_refused_on_every_route(guard, host, method, path):
    given = {"Host": host} if host else {}
    assert judge(guard, method, path, {"t": [guard.token]}, X_Pnpgen_Token=guard.token, **given) == 421


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"])
@pytest.mark.parametrize("method,path", ROUTES)
def test_this_machine_s_names_with_the_token_are_answered(guard, host, method, path):
    assert judge(guard, method, path, X_Pnpgen_Token=guard.token, Host=host) is None


@pytest.mark.parametrize("method,path", ROUTES)
@pytest.mark.parametrize(
    "how",
    ["none", "empty", "wrong", "prefix", "longer", "query-on-a-write", "another-run"],
)
def test_a_request_without_the_run_s_token_is_refused(guard, method, path, how):
    token = {
        "none": None,
        "empty": "",
        "wrong": "x" * 32,
        "prefix": guard.token[:-1],
        "longer": guard.token + "A",
        "query-on-a-write": None,
        "another-run": Guard("127.0.0.1", PORT).token,
    }[how]
    query = {"t": [guard.token]} if how == "query-on-a-write" and method == "POST" else {}
    given = {} if token is None else {"X_Pnpgen_Token": token}
    assert judge(guard, method, path, query, Host="127.0.0.1:8765", **given) == 403


def test_the_token_is_per_run_and_unguessable():
    tokens = {Guard("127.0.0.1").token for _ in range(50)}
    assert len(tokens) == 50 and all(len(t) == 32 for t in tokens)


CROSS_SITE = [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://127.0.0.1:8766"},
    {"Origin": "https://127.0.0.1:8765"},
    {"Origin": "http://evil.example:8765"},
    {"Referer": "http://evil.example/attack.html"},
    {"Referer": "http://localhost:9999/"},
    {"Sec_Fetch_Site": "cross-site"},
    {"Sec_Fetch_Site": "same-site"},  # another port of this machine is another site's page
    {"Origin": "http://127.0.0.1:8765", "Sec_Fetch_Site": "cross-site"},
    {"Origin": "http://127.0.0.1:8765\nhttp://evil.example"},
]


@pytest.mark.parametrize("sent", CROSS_SITE, ids=lambda d: repr(d)[:60])
@pytest.mark.parametrize("method,path", [*ROUTES, ("GET", "/favicon.ico")])
def test_a_request_from_another_site_is_refused_even_with_the_token(guard, sent, method, path):
    code = judge(guard, method, path, X_Pnpgen_Token=guard.token, Host="127.0.0.1:8765", **sent)
    assert code == 403


@pytest.mark.parametrize(
    "sent",
    [
        {"Sec_Fetch_Dest": "iframe", "Sec_Fetch_Mode": "navigate", "Sec_Fetch_Site": "cross-site"},
        {"Sec_Fetch_Dest": "empty", "Sec_Fetch_Mode": "cors", "Origin": "http://evil.example"},
        {"Sec_Fetch_Dest": "script", "Sec_Fetch_Mode": "no-cors", "Sec_Fetch_Site": "cross-site"},
    ],
)
def test_the_page_itself_is_refused_to_another_site_s_frame_or_fetch(guard, sent):
    assert judge(guard, "GET", "/", Host="127.0.0.1:8765", **sent) == 403


@pytest.mark.parametrize(
    "sent",
    [
        {},
        {"Sec_Fetch_Dest": "document", "Sec_Fetch_Mode": "navigate", "Sec_Fetch_Site": "none"},
        {"Sec_Fetch_Dest": "document", "Sec_Fetch_Mode": "navigate", "Sec_Fetch_Site": "cross-site"},
    ],
)
def test_a_plain_top_level_load_of_the_page_needs_no_token(guard, sent):
    """The page holds nothing of the game (it asks for the state with the token from its own address)."""
    assert judge(guard, "GET", "/", Host="localhost:8765", **sent) is None


def test_the_page_s_own_requests_are_answered(guard):
    same = {"Sec_Fetch_Site": "same-origin", "Origin": "http://127.0.0.1:8765"}
    assert judge(guard, "GET", "/state", X_Pnpgen_Token=guard.token, Host="127.0.0.1:8765", **same) is None
    image = {"Sec_Fetch_Site": "same-origin", "Sec_Fetch_Dest": "image", "Referer": "http://127.0.0.1:8765/"}
    assert judge(guard, "GET", "/img/ab.png", {"t": [guard.token]}, Host="127.0.0.1:8765", **image) is None


@pytest.mark.parametrize(
    "listen,host,answered",
    [
        ("0.0.0.0", "192.168.1.20:8765", True),  # listening everywhere: this machine's addresses
        ("0.0.0.0", "evil.example:8765", False),  # but never a DNS name
        ("::", "[fe80::1]:8765", True),
        ("192.168.1.20", "192.168.1.20:8765", True),
        ("192.168.1.20", "192.168.1.21:8765", False),
        ("::1", "[::1]:8765", True),
        ("::1", "evil.example:8765", False),
    ],
)
def test_beyond_loopback_an_address_may_name_the_server_never_a_dns_name(listen, host, answered):
    guard = Guard(listen, PORT)
    code = judge(guard, "GET", "/state", X_Pnpgen_Token=guard.token, Host=host)
    assert (code is None) is answered


@pytest.mark.parametrize(
    "host,expected",
    [("127.0.0.1", True), ("::1", True), ("localhost", True), ("127.0.0.5", True), ("0.0.0.0", False)]
    + [("::", False), ("192.168.1.20", False), ("example.com", False)],
)
def test_loopback(host, expected):
    assert loopback(host) is expected


# -- the server as it runs ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    project = tmp_path_factory.mktemp("guard") / "p"
    shutil.copytree(FIXTURES / "basic", project)
    server = Served(project)
    yield server
    out = server.stop()
    print(out)
    assert "Traceback" not in out


def a_face(served) -> str:
    (game,) = served.state(since=-1)["games"]
    return game["components"][0]["items"][0]["front"]


@pytest.mark.slow
@pytest.mark.parametrize("host", ["evil.example:{port}", "localhost.evil.example:{port}", "127.0.0.1:1"])
def test_the_running_server_refuses_a_foreign_host_with_nothing_of_the_game(served, host):
    for path in ("/", "/state?since=-1&t=" + served.token, a_face(served) + "?t=" + served.token):
        status, _, body = served.request("GET", path, host=host.format(port=served.port))
        assert status == 421, path
        assert b"Ash Walker" not in body and not body.startswith(b"\x89PNG")


@pytest.mark.slow
def test_the_running_server_wants_the_token_and_its_own_origin(served):
    face = a_face(served)
    for path in ("/state?since=-1", "/state?since=-1&t=wrong", face, face + "?t=" + served.token[:-1]):
        status, _, body = served.request("GET", path)
        assert status == 403 and b"Ash Walker" not in body, path
    status, _, body = served.request(
        "GET", "/state?since=-1&t=" + served.token, {"Origin": "http://evil.example"}
    )
    assert status == 403 and b"Ash Walker" not in body
    status, _, _ = served.request("GET", face + "?t=" + served.token, {"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    status, _, body = served.request("GET", face, {"X-Pnpgen-Token": served.token})
    assert status == 200 and body.startswith(b"\x89PNG")


@pytest.mark.slow
@pytest.mark.parametrize(
    "head,code",
    [
        ("POST /edit HTTP/1.1\r\nContent-Length: 1000000000\r\n", 413),
        ("POST /edit HTTP/1.1\r\nContent-Length: 262145\r\n", 413),
        ("POST /edit HTTP/1.1\r\nTransfer-Encoding: chunked\r\n", 501),
        ("POST /edit HTTP/1.1\r\n", 411),
        ("POST /edit HTTP/1.1\r\nContent-Length: -1\r\n", 400),
        ("GET /state HTTP/1.1\r\nContent-Length: 5000\r\n", 413),
        ("GET /state HTTP/1.1\r\n" + "X-Pad: " + "a" * 20_000 + "\r\n", 431),
        ("GET /state HTTP/1.1\r\n" + "X-Pad: 0123456789\r\n" * 2_000, 431),
        ("GET /" + "a" * 70_000 + " HTTP/1.1\r\n", 431),
    ],
    ids=[
        "1GB",
        "limit+1",
        "chunked",
        "no-length",
        "negative",
        "get-body",
        "long-header",
        "many",
        "long-line",
    ],
)
def test_requests_are_bounded_in_size_and_answered_at_once(served, head, code):
    request = head + f"Host: 127.0.0.1:{served.port}\r\nX-Pnpgen-Token: {served.token}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        try:
            s.sendall(request.encode())
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the rest was read
        answer = s.recv(200)  # without sending the body it announced: refused before reading one
    assert answer.startswith(f"HTTP/1.1 {code} ".encode()) or answer.startswith(f"HTTP/1.0 {code} ".encode())
    assert served.get("/state?since=-1")[0] == 200


@pytest.mark.slow
def test_idle_and_slow_clients_cannot_exhaust_the_server(served):
    """Slow loris: 200 connections that send nothing, half a request, or a byte at a time, held open. The page
    and its state are still answered, and the server has hung up on the idle ones."""
    held = []
    partial = f"GET /state?since=-1 HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nX-Slow: ".encode()
    for n in range(200):
        s = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        if n % 3 == 1:
            s.sendall(partial)
        elif n % 3 == 2:
            s.sendall(b"G")
        held.append(s)
    try:
        for path in ("/", "/state?since=-1", a_face(served)):
            status, _, body = served.get(path)
            assert status == 200 and body, path
        still_open = 0
        for s in held:
            s.settimeout(0.02)
            try:
                data = s.recv(100)  # b"": hung up; a 503 and then hung up; or nothing yet: still open
                assert data == b"" or data.startswith(b"HTTP/1.1 503 "), data
            except TimeoutError:
                still_open += 1
            except ConnectionResetError:
                pass
        assert still_open <= 32  # MAX_CONNECTIONS, the page's own connection among them
    finally:
        for s in held:
            s.close()
    assert served.get("/state?since=-1")[0] == 200


@pytest.mark.slow
def test_garbage_and_hangups_never_print_a_traceback(served):
    port = served.port
    for request in (
        b"\x16\x03\x01\x02\x00garbage\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"BREW /state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port,
        b"GET /state?since=99999999999999999999&t=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
        % (served.token.encode(), port),
        b"GET /img/%%00.png HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port,
        b"GET / HTTP/1.1\r\nHost: \xff\xfe\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 150 + b"\r\n",
    ):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(request)
            s.settimeout(2)
            try:
                answer = s.recv(100)
            except TimeoutError:
                answer = b"(nothing)"
        assert not answer.startswith(b"HTTP/1.1 200") or request.startswith(b"GET /state?since=9"), request
    assert served.get("/")[0] == 200


@pytest.mark.slow
def test_ipv6_loopback_works(tmp_path):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 in this Python")
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    served = Served(tmp_path / "p", host="::1")
    try:
        assert served.url.startswith("http://[::1]:") and served.family == socket.AF_INET6
        status, _, body = served.get("/state?since=-1")
        assert status == 200 and b"Ash Walker" in body
        assert served.request("GET", "/state?since=-1&t=" + served.token, host="evil.example")[0] == 421
    finally:
        out = served.stop()
    assert "warning" not in out and "Traceback" not in out


@pytest.mark.slow
def test_listening_beyond_loopback_is_warned_about(tmp_path):
    shutil.copytree(FIXTURES / "basic", tmp_path / "p")
    served = Served(tmp_path / "p", host="0.0.0.0")
    try:
        assert served.get("/state?since=-1")[0] == 200  # reached as 127.0.0.1
        assert served.request("GET", "/state?since=-1&t=" + served.token, host="evil.example")[0] == 421
        time.sleep(0.1)
    finally:
        out = served.stop()
    assert "warning: listening on 0.0.0.0, beyond this machine" in out, out
