"""`pnpgen serve` run as the user runs it, `python -m pnpgen serve` in its own process, and requests to it as a
browser or an attacker would send them (any Host, any header, any body). Shared by the serve test files."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT

HEROES = "content/sample/decks/heroes.yaml"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Served:
    def __init__(self, project: Path, host: str = "127.0.0.1", game: str = "sample"):
        self.project = project
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        args = [sys.executable, "-m", "pnpgen", "serve", game, "--port", "0", "--out", "out", "--host", host]
        self.proc = subprocess.Popen(
            args, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.first = self.proc.stdout.readline()
        match = re.search(
            r"serving (http://(127\.0\.0\.1|\[::1\]):(\d+)/\?t=([A-Za-z0-9_-]{32}))", self.first
        )
        assert match, self.first + self.proc.stdout.read()
        self.url, self.port, self.token = match.group(1), int(match.group(3)), match.group(4)
        self.name = match.group(2)
        self.family = socket.AF_INET6 if self.name.startswith("[") else socket.AF_INET
        self.state(since=-1)  # the first build is in

    def request(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
        host: str | None = None,
    ) -> tuple[int, str, bytes]:
        """Any request, with `host` (default: this server's own name and port) as its Host header."""
        conn = http.client.HTTPConnection(self.name.strip("[]"), self.port, timeout=30)
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", f"{self.name}:{self.port}" if host is None else host)
        for key, value in (headers or {}).items():
            conn.putheader(key, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, response.getheader("Content-Type", ""), data

    def get(self, path: str, token: bool = True) -> tuple[int, str, bytes]:
        """A GET as the page sends it: the token in the query (images) or none (the page itself)."""
        if token:
            path += ("&" if "?" in path else "?") + "t=" + self.token
        return self.request("GET", path)

    def state(self, since: int) -> dict:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status, _, body = self.get(f"/state?since={since}")
            state = json.loads(body)
            if status == 200 and state["version"] > since and state["games"]:
                return state
        raise AssertionError("the page's state never changed")

    def stop(self) -> str:
        """Stop it; what it printed."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        # read through the pipe's text buffer, which the first readline may have filled ahead (communicate
        # with a timeout would read the descriptor beneath it, and lose those lines)
        return self.first + self.proc.stdout.read()


def edit(project: Path, old: str, new: str, path: str = HEROES) -> None:
    file = project / path
    text = file.read_text()
    assert old in text
    file.write_text(text.replace(old, new))
