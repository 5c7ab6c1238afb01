"""Data sheets from a URL (a published Google Sheets CSV or XLSX link), fetched bounded and kept in a cache.

Only http and https; the standard library's urllib, with a timeout (each read; the whole answer, its status
line and headers too, within `WHOLE` of them), a size bound (the `Content-Length` first,
then the bytes as they come) and at most `MAX_REDIRECTS` redirects, each to http(s) again. What a sheet is
(CSV, a zip workbook, an XLS file) is sniffed from its bytes (`kind`), never taken from the server's word.

Each fetch is kept in the project's `.pnpgen/sheets/` folder (beside `content/`), one file per URL named by the
URL's digest, written whole or not at all, and beside it (`.meta`) when it was fetched, the copy's sha256 (a copy
that does not match it, cut short or damaged, is no copy) and the validators the server gave (`ETag`,
`Last-Modified`). A build records the sheet as the input `url:<URL>` with the digest of its
bytes. A copy fetched less than `MAX_AGE` seconds ago (`PNPGEN_SHEET_MAX_AGE` sets it; 0 asks every time) is
taken as the sheet without a request; an older one is asked again conditionally (`If-None-Match`,
`If-Modified-Since`): `304 Not Modified` keeps it, anything else is fetched whole. So a changed remote sheet
rebuilds, and an up-to-date check within the window costs no request. Offline (or any failed fetch), the cached
copy is used with a warning; with no cached copy, the failure is the error. Standard library only, like the
rest of `bounds`.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from pnpgen.bounds import Refused

REMOTE = "url:"  # the key of a fetched sheet in a build's recorded inputs starts so, then its URL
CACHE = Path(".pnpgen") / "sheets"  # inside the project
MAX_BYTES = 5_000_000  # as a content file (textfiles.MAX_BYTES)
TIMEOUT = 20.0  # seconds to connect, and between two blocks of the answer
WHOLE = 3  # the whole answer within this many TIMEOUTs (a server that drips bytes is cut off)
MAX_REDIRECTS = 5
MAX_AGE = 300.0  # seconds a fetched copy is taken as the sheet without asking the server again
AGE_VARIABLE = "PNPGEN_SHEET_MAX_AGE"  # sets MAX_AGE (seconds, 0: ask every time)


def is_url(text: object) -> bool:
    return isinstance(text, str) and text[:8].lower().startswith(("http://", "https://"))


def cache_path(project: Path, url: str) -> Path:
    return project / CACHE / hashlib.sha256(url.encode()).hexdigest()[:32]


def kind(data: bytes) -> str:
    """What the bytes are: `.xlsx` (a zip: XLSX or ODS, told apart when read), `.xls` (an OLE file), `.json` (a
    JSON list of cards, as an API serves them: '[' or '{' first, after a BOM and white space), or `.csv`."""
    if data[:4] == b"PK\x03\x04":
        return ".xlsx"
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return ".xls"
    if data.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")[:1] in (b"[", b"{"):
        return ".json"
    return ".csv"


def fetch(url: str, timeout: float | None = None, limit: int | None = None) -> bytes:
    """The bytes at `url`, bounded; any failure is `Refused` saying what happened."""
    data, _ = answer(url, {}, timeout, limit)
    assert data is not None  # asked without validators: never "not modified"
    return data


def answer(
    url: str, validators: dict[str, str], timeout: float | None = None, limit: int | None = None
) -> tuple[bytes | None, dict[str, str]]:
    """(the bytes at `url`, the validators it came with), or (None, {}) when the server answers 304 to the
    `validators` (`etag`, `modified`) of the copy kept; bounded, any failure `Refused` saying what happened."""
    wait: float = TIMEOUT if timeout is None else timeout
    limit = MAX_BYTES if limit is None else limit
    import http.client  # here: the freshness check imports this module for every game
    import urllib.error
    import urllib.request

    class Redirects(urllib.request.HTTPRedirectHandler):
        max_redirections = MAX_REDIRECTS
        max_repeats = 1  # the same address twice is a loop

        def redirect_request(self, req, fp, code, msg, headers, newurl):
            if not is_url(newurl):
                raise Refused("redirects away from http and https; refused")
            fp.close()  # its body unread: urllib reads it whole into memory, whatever its size, before it follows
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    if not is_url(url):
        raise Refused("is not an http or https address")
    deadline = time.monotonic() + wait * WHOLE
    late = f"took over {wait * WHOLE:g} s to arrive"

    cut: list[bool] = []  # the deadline passed: the connection was shut (`_by`)
    watches: list = []  # the timers that shut each connection at the deadline, stopped once the answer is in

    class Http(urllib.request.HTTPHandler):  # every read, status line and headers too, ends by the deadline
        def do_open(self, http_class, req, **kw):
            return super().do_open(_by(http_class, deadline, cut, watches), req, **kw)

    class Https(urllib.request.HTTPSHandler):
        def do_open(self, http_class, req, **kw):
            return super().do_open(_by(http_class, deadline, cut, watches), req, **kw)

    opener = urllib.request.build_opener(Redirects(), Http(), Https())
    headers = {"User-Agent": "pnpgen"}
    if validators.get("etag"):
        headers["If-None-Match"] = validators["etag"]
    if validators.get("modified"):
        headers["If-Modified-Since"] = validators["modified"]
    request = urllib.request.Request(url, headers=headers)
    try:
        with opener.open(request, timeout=wait) as got:
            size = got.headers.get("Content-Length")
            if size is not None and size.isdigit() and int(size) > limit:
                raise Refused(f"is {int(size):,} bytes; the limit is {limit:,}")
            chunks, total = [], 0
            while block := got.read1(1 << 14):  # what has come, not a full block
                if time.monotonic() > deadline:
                    raise Refused(late)
                total += len(block)
                if total > limit:
                    raise Refused(f"is over {limit:,} bytes; the limit is {limit:,}")
                chunks.append(block)
            if cut:  # the answer ended because the deadline shut the connection: what came is not all of it
                raise Refused(late)
            if size is not None and size.isdigit() and total != int(size):  # the connection broke off early
                raise Refused(f"broke off after {total:,} of its {int(size):,} bytes")
            given = {
                "etag": got.headers.get("ETag") or "",
                "modified": got.headers.get("Last-Modified") or "",
            }
    except urllib.error.HTTPError as exc:
        if exc.code == 304 and validators:
            return None, {}
        said = str(exc.msg)  # urllib's words for a redirect to another kind of address, and for a loop
        if 300 <= exc.code < 400 and ("not allowed" in said or "infinite loop" in said):
            away = "not allowed" in said
            raise Refused(
                "redirects away from http and https; refused" if away else "redirects in a loop or too often"
            ) from None
        lost = exc.code in (301, 302, 303, 307, 308) and not (exc.headers and exc.headers.get("Location"))
        raise Refused(
            f"answered {exc.code} {exc.reason}" + (" without saying where to" if lost else "")
        ) from None
    except urllib.error.URLError as exc:
        raise Refused(late if cut else f"cannot be fetched ({_reason(exc.reason)})") from None
    except http.client.RemoteDisconnected:
        raise Refused(
            late if cut else "cannot be fetched (the server closed the connection unanswered)"
        ) from None
    except http.client.HTTPException as exc:
        broke = (
            "its answer broke off"
            if isinstance(exc, http.client.IncompleteRead)
            else "its answer is not HTTP"
        )
        raise Refused(late if cut else f"cannot be fetched ({broke})") from None
    except (TimeoutError, OSError) as exc:
        raise Refused(late if cut else f"cannot be fetched ({_reason(exc)})") from None
    finally:
        for watch in watches:
            watch.cancel()
    return b"".join(chunks), {k: v for k, v in given.items() if v}


def _by(http_class: Any, deadline: float, cut: list, watches: list) -> Any:
    """`http_class` (http.client's connection) whose connection is shut when `deadline` passes, which ends any
    read in progress (a server dripping its status line or headers a byte at a time, each within the timeout,
    held a build for days); `cut` is then told. Plain sockets and TLS alike, through their public calls."""
    import socket
    import threading

    class Connection(http_class):
        def connect(self):
            super().connect()
            sock = self.sock

            def shut() -> None:
                cut.append(True)
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:  # closed already
                    pass

            watch = threading.Timer(max(0.0, deadline - time.monotonic()), shut)
            watch.daemon = True
            watches.append(watch)
            watch.start()

    return Connection


def _reason(exc: object) -> str:
    if isinstance(exc, TimeoutError) or "timed out" in str(exc):
        return "timed out"
    return str(getattr(exc, "strerror", None) or exc)


def max_age() -> float:
    """Seconds a fetched copy stands for the sheet without a request: `PNPGEN_SHEET_MAX_AGE`, else `MAX_AGE`."""
    given = os.environ.get(AGE_VARIABLE, "").strip()
    if not given:
        return MAX_AGE
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise Refused(f"is not fetched: {AGE_VARIABLE} must be a number of seconds from 0 (got {given!r})")
    return seconds


def get(url: str, project: Path) -> tuple[bytes, str]:
    """(the sheet's bytes, a warning or ""): the copy kept when it is younger than `max_age()`, else asked again
    (conditionally when a copy is kept: a 304 keeps it), or the copy kept when the fetch failed. A failed fetch
    with nothing cached is `Refused`."""
    path = cache_path(project, url)
    window = max_age()
    cached = _cached(path)
    meta = _meta(path) if cached is not None else {}
    if cached is not None and not _whole(cached, meta):
        cached, meta = None, {}  # cut short or damaged: no copy, never fewer cards
    fetched = meta.get("fetched")
    if cached is not None and isinstance(fetched, (int, float)) and 0 <= time.time() - fetched < window:
        return cached, ""
    validators = {k: v for k, v in meta.items() if k in ("etag", "modified") and isinstance(v, str)}
    try:
        data, given = answer(url, validators if cached is not None else {})
    except Refused as exc:
        if cached is None:
            raise Refused(f"{exc.message}, and no copy of it is cached in {CACHE.as_posix()}/") from None
        return cached, f"{exc.message}; the copy cached in {CACHE.as_posix()}/{path.name} is used"
    if data is None:  # not modified: the copy kept is the sheet, asked again after another window
        assert cached is not None
        _keep(path, cached, validators)
        return cached, ""
    _keep(path, data, given)
    return data, ""


def digest_now(url: str, project: Path) -> str:
    """What the sheet at `url` is now, for the freshness check: its bytes' sha256 (fetched again and cached), the
    cached copy's when it cannot be fetched, or `missing`."""
    try:
        data, _ = get(url, project)
    except Refused:
        return "missing"
    return hashlib.sha256(data).hexdigest()


def _cached(path: Path) -> bytes | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        return path.read_bytes()
    except OSError:
        return None


def _meta(path: Path) -> dict:
    """What was kept with a copy: when it was fetched (seconds since the epoch) and its validators; {} if none."""
    try:
        with open(_meta_path(path), "rb") as fh:
            meta = json.loads(fh.read(10_000))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _whole(data: bytes, meta: dict) -> bool:
    """Whether a kept copy is the one fetched: its sha256 as its `.meta` recorded it. A copy cut short or damaged,
    or whose `.meta` is lost or damaged, is none; a `.meta` written before digests were kept vouches for it."""
    said = meta.get("sha256")
    return bool(meta) if said is None else said == hashlib.sha256(data).hexdigest()


def _meta_path(path: Path) -> Path:
    return path.with_name(path.name + ".meta")


def _keep(path: Path, data: bytes, validators: dict[str, str]) -> None:
    """The copy and its `.meta` (now, the validators), each written whole or not at all (a temporary file renamed
    over the old one); a cache that cannot be written only means no offline copy and a request next time."""
    kept = {"fetched": time.time(), "sha256": hashlib.sha256(data).hexdigest(), **validators}
    meta = json.dumps(kept, sort_keys=True).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for where, what in ((path, data), (_meta_path(path), meta)):
            if where == path and _cached(path) == data:
                continue
            part = where.with_name(where.name + f".{os.getpid()}.part")
            part.write_bytes(what)
            os.replace(part, where)
    except OSError:
        return
