"""The HTTP side of `pnpgen serve`: the standard library's threading server, bounded, and the page's routes.

Routes: `/` (the page), `/state` (JSON, long-polled), `/img/<key>.png` (a PNG held in memory), `/favicon.ico`
(none) and, for the editor, the writes that `serve/editor.py` answers. No part of a request's path reaches the
file system. Every request is first judged by `guard.Guard` (Host, origin, token).

Bounds, so that no client, idle or hostile, can take the server from its page:
- a request's line and headers together: `MAX_HEAD` bytes (431); a body: `MAX_BODY` bytes (413), only with a
  Content-Length (411), never chunked (501);
- connections: at most `MAX_CONNECTIONS` at once; one more makes the server hang up the connection that has
  waited longest for its request (idle keep-alive connections and slow senders go first), or, when every one is
  being answered, is told 503 at once;
- time: a connection that has not sent a whole request within `REQUEST_SECONDS` of starting it (or of its last
  answer) is hung up, however slowly it trickles bytes; a stalled read or write gives up after `IO_SECONDS`;
- nothing a client does prints a traceback: a handler that fails answers 500 with one line, and the server's
  own error hook is quiet.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pnpgen.serve.guard import Guard, Verdict

MAX_HEAD = 16 * 1024
MAX_BODY = 256 * 1024
MAX_CONNECTIONS = 32
REQUEST_SECONDS = 10.0
IO_SECONDS = 20.0
STATE_WAIT = 15.0  # how long a `/state` long-poll waits for a new version


def page_html() -> bytes:
    return resources.files("pnpgen").joinpath("data/serve.html").read_bytes()


class _Head:
    """The connection's reader, counting what a request's line and headers take (`MAX_HEAD`)."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.left = MAX_HEAD

    def readline(self, limit: int = -1) -> bytes:
        line = self.raw.readline(min(limit, self.left + 1) if limit >= 0 else self.left + 1)
        self.left -= len(line)
        if self.left < 0:
            raise http.client.LineTooLong("request headers")
        return line

    def read(self, n: int = -1) -> bytes:
        return self.raw.read(n)

    def close(self) -> None:
        self.raw.close()


class Handler(BaseHTTPRequestHandler):
    """Judges, bounds and routes each request; the answers come from the `Preview` and the `Editor`."""

    preview: Any  # serve.preview.Preview
    editor: Any  # serve.editor.Editor, or None
    guard: Guard
    server: GuardedServer
    server_version = "pnpgen"
    protocol_version = "HTTP/1.1"
    timeout = IO_SECONDS

    def setup(self) -> None:
        super().setup()
        self.rfile = _Head(self.rfile)  # type: ignore[assignment]  # read through, counted

    def handle_one_request(self) -> None:
        self.server.waiting(self.connection, True)
        self.rfile.left = MAX_HEAD  # type: ignore[attr-defined]
        self.command, self.request_version = (
            "",
            "HTTP/1.1",
        )  # what a refusal before parse_request answers with
        self.requestline = ""
        try:
            line = self.rfile.readline(MAX_HEAD + 1)
            if not line:
                self.close_connection = True
                return
            self.raw_requestline = line
            if not self.parse_request():  # answers 400/431 itself
                self.close_connection = True
                return
            self._route()
            self.wfile.flush()
        except http.client.LineTooLong:
            self._refuse(Verdict(431, "request line or headers too large"))
        except (TimeoutError, ConnectionError, OSError):
            self.close_connection = True  # the client stalled or went away
        except Exception:  # noqa: BLE001 - the last line of defence: one line, never a traceback
            self.close_connection = True
            try:
                self._send(500, "text/plain", b"internal error\n")
            except Exception:  # noqa: BLE001, S110 - nothing more to say to this client
                pass

    def _route(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query, max_num_fields=16)
        verdict = self.guard.judge(self.command, url.path, query, self.headers)
        if verdict is None:
            verdict = self._body_bounds()
        if verdict is not None:
            self._refuse(verdict)
            return
        if self.command == "POST":
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.server.waiting(self.connection, False)
            self._post(url.path, body)
        elif self.command in ("GET", "HEAD"):
            self.server.waiting(self.connection, False)
            self._get(url.path, query)
        else:
            self._refuse(Verdict(405, "only GET and POST"))

    def _body_bounds(self) -> Verdict | None:
        if self.headers.get("Transfer-Encoding") is not None:
            return Verdict(501, "no chunked bodies")
        length = self.headers.get("Content-Length")
        if length is None:
            return Verdict(411, "a write needs a Content-Length") if self.command == "POST" else None
        if not (length.isascii() and length.isdigit()):
            return Verdict(400, "bad Content-Length")
        if int(length) > (MAX_BODY if self.command == "POST" else 0):
            return Verdict(413, f"request body over {MAX_BODY} bytes")
        return None

    def _get(self, path: str, query: dict[str, list[str]]) -> None:
        if path in ("/", "/index.html"):
            self._send(200, "text/html; charset=utf-8", page_html())
        elif path == "/state":
            asked = query.get("since", ["-1"])[0]
            since = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 12 else -1
            self._send(200, "application/json", json.dumps(self.preview.state(since, STATE_WAIT)).encode())
        elif path.startswith("/img/") and path.endswith(".png"):
            data = self.preview.image(path[len("/img/") : -len(".png")])
            if data is None:
                self._send(404, "text/plain", b"no such image\n")
            else:
                self._send(200, "image/png", data, cache=True)
        else:
            answer = None if self.editor is None else self.editor.get(path, query)
            if answer is None:
                self._send(404, "text/plain", b"not found\n")
            else:
                self._send(answer[0], "application/json", json.dumps(answer[1]).encode())

    def _post(self, path: str, body: bytes) -> None:
        answer = None if self.editor is None else self.editor.post(path, body)
        if answer is None:
            self._send(404, "text/plain", b"not found\n")
        else:
            code, data = answer
            self._send(code, "application/json", json.dumps(data).encode())

    def _refuse(self, verdict: Verdict) -> None:
        self.close_connection = True
        try:
            self._send(verdict.code, "text/plain; charset=utf-8", (verdict.message + "\n").encode())
        except OSError:
            pass

    def _send(self, code: int, kind: str, body: bytes, cache: bool = False) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "private, max-age=31536000, immutable" if cache else "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a malformed request line, too many headers): short, plain, closing."""
        self._refuse(Verdict(code, message or "bad request"))

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass  # quiet: the terminal shows builds, not requests

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - http.server's name
        pass


class GuardedServer(ThreadingHTTPServer):
    """`ThreadingHTTPServer` with its connections bounded in number and in time (see the module)."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = 256  # a burst of connections waits to be accepted rather than retried

    def __init__(self, address: tuple, handler: type[Handler], family: socket.AddressFamily) -> None:
        self.address_family = family
        self._lock = threading.Lock()
        self._open: dict[socket.socket, float | None] = {}  # connection -> waiting for a request since
        super().__init__(address, handler)

    def waiting(self, conn: socket.socket, waits: bool) -> None:
        """Called by the handler: the connection now waits for a request (True) or is being answered."""
        with self._lock:
            if conn in self._open:
                self._open[conn] = time.monotonic() if waits else None

    def process_request(self, request, client_address) -> None:
        with self._lock:
            if len(self._open) >= MAX_CONNECTIONS:
                idle = [(since, c) for c, since in self._open.items() if since is not None]
                if not idle:
                    _busy(request)
                    return
                oldest = min(idle, key=lambda p: p[0])[1]
                del self._open[oldest]
                _hang_up(oldest)
            self._open[request] = time.monotonic()
        try:
            super().process_request(request, client_address)
        except RuntimeError:  # no thread could start
            self.shutdown_request(request)

    def shutdown_request(self, request) -> None:
        with self._lock:
            self._open.pop(request, None)
        super().shutdown_request(request)

    def service_actions(self) -> None:
        """Every half second (serve_forever's poll): hang up those that took too long to send a request."""
        now = time.monotonic()
        with self._lock:
            late = [
                c for c, since in self._open.items() if since is not None and now - since > REQUEST_SECONDS
            ]
            for conn in late:
                self._open[conn] = None  # its thread closes it and forgets it
        for conn in late:
            _hang_up(conn)

    def handle_error(self, request, client_address) -> None:
        pass  # a client's doing; the handler has answered what it could


def _hang_up(conn: socket.socket) -> None:
    """End a connection another thread may be reading: its read returns at once, and that thread closes it."""
    try:
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _busy(conn: socket.socket) -> None:
    try:
        conn.settimeout(1.0)
        conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    except OSError:
        pass
    finally:
        conn.close()


def make_server(preview, guard: Guard, editor=None) -> GuardedServer:
    """Listening on `guard.host` (IPv4 or IPv6) at `guard.port` (0: any free port; the guard then learns it)."""
    infos = socket.getaddrinfo(
        guard.host or None, guard.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )
    family, _, _, _, address = infos[0]
    handler = type("PreviewHandler", (Handler,), {"preview": preview, "editor": editor, "guard": guard})
    server = GuardedServer(address[:2], handler, family)
    guard.port = server.server_address[1]
    return server
