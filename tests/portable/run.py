"""The portable job (`make portable`, run by `.ci/run`): pnpgen as Windows would run it, proved on Linux.

Every command runs twice: once the ordinary way, on `content/` as it is, and once the portable way, on a copy of
the content whose every text file has CRLF line endings and a UTF-8 byte order mark, in processes that lack what
Windows lacks (`sitecustomize.py` beside this file takes `os.fork`, `signal.setitimer`, `signal.SIGALRM` and the
rest out of Python before pnpgen is imported, in spawned workers too), so workers are spawned, with a console
that prints cp1252. Every PDF and PNG the two write must be byte for byte the same. Then `watch` and `serve`
run the portable way: each must see an edit and rebuild. Prints one line per step, then `N passed, N failed`.

    python tests/portable/run.py [--games G ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TEXT = {".yaml", ".yml", ".csv", ".tsv", ".md", ".svg", ".txt", ".html", ".json"}
SHOPS = ("tgc", "dtc", "pdfx", "factory")
# the `pnpgen` command as installed beside this Python (what a designer runs; on Windows its launcher starts the
# spawned workers' parent), else `python -m pnpgen`
_SCRIPT = Path(sys.executable).with_name("pnpgen.exe" if os.name == "nt" else "pnpgen")
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "pnpgen"]


def windows_text(src: Path, dest: Path) -> int:
    """Copy a folder, every text file with CRLF line endings and a byte order mark; the number converted."""
    n = 0
    for path in sorted(src.rglob("*")):
        target = dest / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() in TEXT:
            text = path.read_bytes().decode("utf-8").replace("\r\n", "\n")
            target.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
            n += 1
        else:
            shutil.copy2(path, target)
    return n


def environments() -> tuple[dict, dict]:
    plain = {k: v for k, v in os.environ.items() if not k.startswith("PNPGEN_") and k != "PYTHONPATH"}
    plain["PNPGEN_CACHE"] = "off"
    portable = dict(plain)
    portable.update(
        PYTHONPATH=str(HERE),
        PNPGEN_PORTABLE="1",
        PYTHONIOENCODING="cp1252",
        PYTHONUTF8="0",
    )
    return plain, portable


class Job:
    def __init__(self, work: Path, games: list[str]) -> None:
        self.work, self.games = work, games
        self.passed, self.failed = 0, 0
        self.plain, self.portable = environments()

    def say(self, ok: bool, what: str, detail: str = "") -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(
            f"{'ok  ' if ok else 'FAIL'} {what}" + (f"\n     {detail}" if detail and not ok else ""),
            flush=True,
        )

    def pnpgen(self, side: str, *args: str, expect: int = 0) -> subprocess.CompletedProcess:
        env = self.portable if side == "portable" else self.plain
        cwd = self.work / side
        done = subprocess.run([*COMMAND, *args], cwd=cwd, env=env, capture_output=True, timeout=600)
        text = done.stdout.decode("cp1252", "replace") + done.stderr.decode("cp1252", "replace")
        ok = done.returncode == expect and "Traceback" not in text
        if not ok or side == "portable":
            self.say(ok, f"{side}: pnpgen {' '.join(args)}", f"exit {done.returncode}: {text[-2000:]}")
        return done

    def workers_ran(self) -> None:
        """The portable build really ran in spawned workers (the bytes alone would not show a fall back to one
        process): each spawned worker wrote its process id (`sitecustomize.py`)."""
        log = Path(self.portable["PNPGEN_PORTABLE_WORKERS"])
        pids = set(log.read_text().split()) if log.exists() else set()
        self.say(len(pids) >= 2, f"portable: the build ran in {len(pids)} spawned worker processes")

    def both(self, *args: str) -> None:
        self.pnpgen("plain", *args)
        self.pnpgen("portable", *args)

    def compare(self) -> None:
        """Every PDF and PNG of the plain side, the same bytes on the portable side; nothing only on one."""
        a, b = self.work / "plain" / "output", self.work / "portable" / "output"
        mine = {p.relative_to(a) for p in a.rglob("*") if p.suffix in (".pdf", ".png")}
        theirs = {p.relative_to(b) for p in b.rglob("*") if p.suffix in (".pdf", ".png")}
        self.say(mine == theirs, f"the same {len(mine)} PDF and PNG files", f"{sorted(mine ^ theirs)[:10]}")
        differ = sorted(str(p) for p in mine & theirs if (a / p).read_bytes() != (b / p).read_bytes())
        self.say(not differ, f"byte-identical PDFs and PNGs ({len(mine & theirs)})", f"differ: {differ[:10]}")

    def watch(self) -> None:
        """`pnpgen watch` the portable way: it builds, sees a save, rebuilds."""
        game = self.games[0]
        out = self.work / "portable" / "watch-out"
        proc = _start(["watch", game, "--out", str(out)], self.work / "portable", self.portable)
        try:
            first = _read_until(proc, ("watching",), 120)  # built first, then listening
            self.say(first is not None, "portable: pnpgen watch builds first", _tail(proc))
            card = _a_component_file(self.work / "portable" / "content" / game)
            card.write_bytes(card.read_bytes() + b"\r\n# edited by the portable job\r\n")
            again = _read_until(proc, (f"rebuilt {game}", f"{game} is up to date"), 120)
            self.say(again is not None, "portable: pnpgen watch rebuilds after a save", _tail(proc))
        finally:
            _stop(proc)

    def serve(self) -> None:
        """`pnpgen serve` the portable way: the page, its state, and a save seen in the state."""
        game = self.games[-1]
        port = _free_port()
        proc = _start(
            ["serve", game, "--port", str(port), "--out", str(self.work / "portable" / "serve-out")],
            self.work / "portable",
            self.portable,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            serving = _read_until(proc, ("serving http",), 120) or ""
            token = serving.split("?t=")[-1].split()[0] if "?t=" in serving else ""
            self.say(
                bool(token), "portable: pnpgen serve prints its address with the run's token", _tail(proc)
            )
            base_state = f"{base}/state?t={token}&since="
            page = _get(base + "/", 120)
            self.say(page is not None and b"<html" in page.lower(), "portable: pnpgen serve answers its page")
            state = _state(base_state, -1, 120)
            self.say(state is not None, "portable: pnpgen serve gives its state", _tail(proc))
            version = state.get("version", 0) if state else 0
            card = _a_component_file(self.work / "portable" / "content" / game)
            card.write_bytes(card.read_bytes() + b"\r\n# edited by the portable job\r\n")
            deadline = time.monotonic() + 120
            seen = None
            while time.monotonic() < deadline:
                seen = _state(base_state, version, 20)
                if seen and seen.get("version", 0) > version:
                    break
            self.say(
                bool(seen and seen.get("version", 0) > version),
                "portable: pnpgen serve rebuilds after a save",
            )
        finally:
            _stop(proc)


def _start(args: list[str], cwd: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-u", "-m", "pnpgen", *args],
        cwd=cwd,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _read_until(proc: subprocess.Popen, words: tuple[str, ...], seconds: float) -> str | None:
    import threading

    found: list[str] = []
    lines: list[str] = getattr(proc, "lines", [])
    proc.lines = lines  # type: ignore[attr-defined]

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("cp1252", "replace")
            lines.append(line)
            if any(w in line for w in words):
                found.append(line)
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(seconds)
    return found[0] if found else None


def _tail(proc: subprocess.Popen) -> str:
    return "".join(getattr(proc, "lines", [])[-20:])


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, seconds: float) -> bytes | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 - 127.0.0.1 only
                return answer.read()
        except OSError:
            time.sleep(0.2)
    return None


def _state(address: str, since: int, seconds: float) -> dict | None:
    body = _get(f"{address}{since}", seconds)
    return json.loads(body) if body else None


def _a_component_file(game: Path) -> Path:
    for folder in ("decks", "cards", "tiles", "tokens", "components"):
        files = sorted((game / folder).glob("*.yaml")) if (game / folder).is_dir() else []
        if files:
            return files[0]
    return game / "game.yaml"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", help="the shipped games to use (default: all)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    opts = parser.parse_args()
    games = opts.games or sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists())
    work = opts.keep or Path(tempfile.mkdtemp(prefix="pnpgen-portable-"))
    started = time.monotonic()
    try:
        for side in ("plain", "portable"):
            shutil.rmtree(work / side, ignore_errors=True)
        shutil.copytree(ROOT / "content", work / "plain" / "content")
        n = windows_text(ROOT / "content", work / "portable" / "content")
        if (ROOT / "layouts").is_dir():
            shutil.copytree(ROOT / "layouts", work / "plain" / "layouts")
            n += windows_text(ROOT / "layouts", work / "portable" / "layouts")
        print(f"     {n} text files given CRLF line endings and a byte order mark", flush=True)
        job = Job(work, games)
        job.portable["PNPGEN_PORTABLE_WORKERS"] = str(work / "workers.txt")
        job.both("build", "--out", "output")
        if len(games) > 1:  # several games build one per worker; one game writes its files in its process
            job.workers_ran()
        job.both("check")
        job.both("list")
        job.both("icons")
        job.both("calibrate", "--out", "output/calibration.pdf")
        for game in games:
            job.both("export", "png", game, "--out", "output")
            job.both("export", "tts", game, "--out", "output")
            job.both("export", "sheet", game, "--out", "output")
            for shop in SHOPS:
                job.both("export", "shop", shop, game, "--out", "output")
                job.both("preflight", shop, game)
        job.compare()
        job.both("new", "starter")
        job.both("build", "starter", "--out", "starter-out")
        job.watch()
        job.serve()
    finally:
        if opts.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"portable job: {time.monotonic() - started:.0f} s")
    print(f"{job.passed} passed, {job.failed} failed")
    return 1 if job.failed else 0


if __name__ == "__main__":
    sys.exit(main())
