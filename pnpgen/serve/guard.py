"""Who `pnpgen serve` answers: its own page, in a browser on this machine, and nobody else.

A page on any other site, open in the same browser, can make the browser send requests to 127.0.0.1, and a
DNS-rebinding page can even make them look same-origin to the browser. So each request is judged on what it
carries, before anything of the game is read or written (`Guard.judge`):

- **Host.** The Host header must name this server as the browser addressed it: `127.0.0.1`, `localhost` or
  `[::1]` with the port it listens on (listening beyond loopback, which `serve` warns about, an IP address too:
  a rebinding page always sends a DNS name). Anything else is answered 421, with nothing of the game.
- **Where it comes from.** Every request but a plain top-level load of the page (the address typed or clicked:
  the page itself holds nothing of the game) must not come from another site: its `Origin`, `Referer` and
  `Sec-Fetch-Site`, each when sent, must name this server. Otherwise 403.
- **The token.** Each run makes a secret (`secrets.token_urlsafe`), carried in the page's address that `serve`
  prints; the state, the images and every write must carry it (a write in the `X-Pnpgen-Token` header, which a
  cross-site form cannot send and a cross-site `fetch` cannot send without a preflight this server refuses).

The server's own bounds (the size of a request, the number of connections and how long one may take to send
its request) are kept by `serve/server.py`.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field
from email.message import Message
from urllib.parse import urlsplit

LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]"})
TOKEN_HEADER = "X-Pnpgen-Token"
PAGE_PATHS = ("/", "/index.html")


def loopback(host: str) -> bool:
    """Whether listening on `host` keeps the server to this machine."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def bracketed(host: str) -> str:
    """`host` as it stands in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Verdict:
    code: int
    message: str


@dataclass
class Guard:
    """The rules above for one run of `serve`: the address it listens on, its port (known once bound) and its
    token."""

    host: str
    port: int = 0
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    def url(self) -> str:
        """The page's address, token included: what `serve` prints."""
        name = "127.0.0.1" if self.host in ("0.0.0.0", "") else "[::1]" if self.host == "::" else self.host
        return f"http://{bracketed(name)}:{self.port}/?t={self.token}"

    def host_allowed(self, name: str) -> bool:
        """A Host header's name (lowercase, an IPv6 address in brackets) this server answers to."""
        if name in LOOPBACK:
            return True
        if loopback(self.host):
            return False
        if self.host in ("0.0.0.0", "::", ""):
            return _ip_literal(name)  # listening everywhere: any address of this machine, never a DNS name
        return name == bracketed(self.host.lower())

    def ours(self, authority: str) -> bool:
        """Whether `authority` (`host[:port]`) names this server."""
        authority = authority.strip().lower()
        if authority.startswith("["):
            end = authority.find("]")
            if end < 0:
                return False
            name, rest = authority[: end + 1], authority[end + 1 :]
        else:
            name, sep, tail = authority.partition(":")
            rest = sep + tail
        digits = rest[1:]
        if rest == "":
            port = 80
        elif rest.startswith(":") and digits.isascii() and digits.isdigit() and len(digits) <= 5:
            port = int(digits)
        else:
            return False
        return port == self.port and self.host_allowed(name)

    def judge(self, method: str, path: str, query: dict[str, list[str]], headers: Message) -> Verdict | None:
        """None when the request may be answered; otherwise how to refuse it."""
        hosts = headers.get_all("Host") or []
        if len(hosts) != 1 or not self.ours(hosts[0]):
            return Verdict(421, f"this server answers only {self.url().split('?')[0]}")
        if not self.page_load(method, path, headers):
            foreign = self.foreign(headers)
            if foreign:
                return Verdict(403, f"refused: a request from another site ({foreign})")
            if (
                path not in PAGE_PATHS
                and path != "/favicon.ico"
                and not self.token_ok(method, query, headers)
            ):
                return Verdict(403, "refused: open the address `pnpgen serve` printed (it carries the token)")
        return None

    @staticmethod
    def page_load(method: str, path: str, headers: Message) -> bool:
        """A plain top-level load of the page: typed, clicked or reloaded (a browser says so in its
        Sec-Fetch headers; a client that sends none, curl or a script, is taken at its word)."""
        mode, dest = headers.get("Sec-Fetch-Mode"), headers.get("Sec-Fetch-Dest")
        return (
            method in ("GET", "HEAD")
            and path in PAGE_PATHS
            and mode in (None, "navigate")
            and dest in (None, "document")
        )

    def foreign(self, headers: Message) -> str:
        """What says the request comes from another site, or ''."""
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            return f"Sec-Fetch-Site: {site}"
        for name in ("Origin", "Referer"):
            for value in headers.get_all(name) or []:
                parts = urlsplit(value.strip())
                if parts.scheme != "http" or not self.ours(parts.netloc):
                    return f"{name}: {value[:80]}"
        return ""

    def token_ok(self, method: str, query: dict[str, list[str]], headers: Message) -> bool:
        given = headers.get(TOKEN_HEADER)
        if given is None and method == "GET" and query.get("t"):
            given = query["t"][0]
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())
