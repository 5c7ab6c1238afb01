"""Data sheets from a URL (a published Google Sheets CSV or XLSX link), fetched bounded and kept in a cache.

Only http and https; the standard library's urllib, with a timeout, a size bound (the `Content-Length` first,
then the bytes as they come) and at most `MAX_REDIRECTS` redirects, each to http(s) again. What a sheet is
(CSV, a zip workbook, an XLS file) is sniffed from its bytes (`kind`), never taken from the server's word.

Each fetch is kept in the project's `.pnpgen/sheets/` folder (beside `content/`), one file per URL named by the
URL's digest, written whole or not at all. A build records the sheet as the input `url:<URL>` with the digest of
its bytes; the freshness check fetches it again (`digest_now`), so a changed remote sheet rebuilds and an
unchanged one does not. Offline (or any failed fetch), the cached copy is used with a warning; with no cached
copy, the failure is the error. Standard library only, like the rest of `bounds`.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from pnpgen.bounds import Refused

REMOTE = "url:"  # the key of a fetched sheet in a build's recorded inputs starts so, then its URL
CACHE = Path(".pnpgen") / "sheets"  # inside the project
MAX_BYTES = 5_000_000  # as a content file (inputs.MAX_BYTES)
TIMEOUT = 20.0  # seconds to connect, and between two blocks of the answer
WHOLE = 3  # the whole answer within this many TIMEOUTs (a server that drips bytes is cut off)
MAX_REDIRECTS = 5


def is_url(text: object) -> bool:
    return isinstance(text, str) and text[:8].lower().startswith(("http://", "https://"))


def cache_path(project: Path, url: str) -> Path:
    return project / CACHE / hashlib.sha256(url.encode()).hexdigest()[:32]


def kind(data: bytes) -> str:
    """What the bytes are: `.xlsx` (a zip: XLSX or ODS, told apart when read), `.xls` (an OLE file), or `.csv`."""
    if data[:4] == b"PK\x03\x04":
        return ".xlsx"
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return ".xls"
    return ".csv"


def fetch(url: str, timeout: float | None = None, limit: int | None = None) -> bytes:
    """The bytes at `url`, bounded; any failure is `Refused` saying what happened."""
    timeout = TIMEOUT if timeout is None else timeout
    limit = MAX_BYTES if limit is None else limit
    import urllib.error  # here: the freshness check imports this module for every game
    import urllib.request

    class Redirects(urllib.request.HTTPRedirectHandler):
        max_redirections = MAX_REDIRECTS
        max_repeats = 1  # the same address twice is a loop

        def redirect_request(self, req, fp, code, msg, headers, newurl):
            if not is_url(newurl):
                raise Refused("redirects away from http and https; refused")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    if not is_url(url):
        raise Refused("is not an http or https address")
    opener = urllib.request.build_opener(Redirects())
    deadline = time.monotonic() + timeout * WHOLE
    request = urllib.request.Request(url, headers={"User-Agent": "pnpgen"})
    try:
        with opener.open(request, timeout=timeout) as answer:
            size = answer.headers.get("Content-Length")
            if size is not None and size.isdigit() and int(size) > limit:
                raise Refused(f"is {int(size):,} bytes; the limit is {limit:,}")
            chunks, total = [], 0
            while block := answer.read1(1 << 14):  # what has come, not a full block
                if time.monotonic() > deadline:
                    raise Refused(f"took over {timeout * WHOLE:g} s to arrive")
                total += len(block)
                if total > limit:
                    raise Refused(f"is over {limit:,} bytes; the limit is {limit:,}")
                chunks.append(block)
    except urllib.error.HTTPError as exc:
        if 300 <= exc.code < 400:
            away = "not allowed" in str(exc.msg)  # urllib's word for a redirect to another kind of address
            raise Refused(
                "redirects away from http and https; refused" if away else "redirects in a loop or too often"
            ) from None
        raise Refused(f"answered {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise Refused(f"cannot be fetched ({_reason(exc.reason)})") from None
    except (TimeoutError, OSError) as exc:
        raise Refused(f"cannot be fetched ({_reason(exc)})") from None
    return b"".join(chunks)


def _reason(exc: object) -> str:
    if isinstance(exc, TimeoutError) or "timed out" in str(exc):
        return "timed out"
    return str(getattr(exc, "strerror", None) or exc)


def get(url: str, project: Path) -> tuple[bytes, str]:
    """(the sheet's bytes, a warning or ""): fetched and cached, or the cached copy when the fetch failed.
    A failed fetch with nothing cached is `Refused`."""
    path = cache_path(project, url)
    try:
        data = fetch(url)
    except Refused as exc:
        cached = _cached(path)
        if cached is None:
            raise Refused(f"{exc.message}, and no copy of it is cached in {CACHE.as_posix()}/") from None
        return cached, f"{exc.message}; the copy cached in {CACHE.as_posix()}/{path.name} is used"
    _keep(path, data)
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


def _keep(path: Path, data: bytes) -> None:
    """Written whole or not at all (a temporary file renamed over the old copy); a cache that cannot be written
    only means no offline copy."""
    try:
        if _cached(path) == data:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + f".{os.getpid()}.part")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        return
