"""The hostile corpus: content nobody here wrote, one case per file in tests/hostile/<promise>/, grouped by the
five promises of the README's trust section (confinement, bounded, located, never half-written, honest text).

A case is YAML:

    fixture: basic                  # a project in tests/fixtures/, copied; built once before the case
    setup:                          # what the attacker changes, in order (paths inside the project)
      - write: content/sample/decks/heroes.yaml
        text: "..."
      - replace: {file: content/sample/decks/heroes.yaml, old: "count: 5", new: "count: .nan"}
      - link: content/sample/layouts/hero.yaml
        to: "{outside}/secret.yaml"   # {outside} is a folder beside the project holding a canary file
      - fifo: content/sample/icons.yaml
      - mkdir: content/sample/art/deep
      - remove: content/sample/art/split.png
      - bytes: {file: content/sample/art/split.png, hex: "89504e47", repeat: 1}
      - generate: {file: content/sample/decks/deep.yaml, text: "a: ", repeat: "[", times: 200000, then: "]"}
      - chmod: {path: content/sample/art, mode: 0}
    command: [build]                # default; the CLI runs in a fresh process
    exit: 1
    expect:                         # lines the output must hold, exactly
      - "content/sample/decks/heroes.yaml:8:12: error: ..."
    output: unchanged               # the output folder byte for byte as before (default); or `any`
    fsize: 300000                   # a limit on the size of any file written (a full disk)
    files:                          # what written files must (not) hold
      - {path: out/sample/png/heroes/cards.csv, contains: "'=HYPERLINK"}

Every case runs under a time limit (60 s) and a memory limit (2 GiB of address space), and also asserts:
no traceback, nothing outside the project read into the output (the canary never appears) or written there,
and nothing outside the output folder written.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, ROOT, run_cli

CORPUS = Path(__file__).resolve().parent / "hostile"
CASES = sorted(p for p in CORPUS.glob("*/*.yaml"))
CANARY = "CANARY-7f3a9c-outside-the-game"
TIME_LIMIT = 60
CASE_SECONDS = 20  # every case, however hostile, is answered well within this (measured: under 2 s each)
MEMORY_LIMIT = 2 << 30


def tree(folder: Path) -> dict:
    """Every file under `folder` (links as their target's name, never followed) with its bytes."""
    out = {}
    if not folder.exists():
        return out
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            if path.is_symlink():
                out[rel] = b"-> " + os.readlink(path).encode()
            elif path.is_file():
                out[rel] = path.read_bytes()
            else:
                out[rel] = b"<special>"
    return out


def apply(step: dict, root: Path, outside: Path) -> None:
    def fill(text: str) -> str:  # not str.format: content holds braces
        return text.replace("{outside}", str(outside))

    def at(rel: str) -> Path:
        return root / fill(rel)

    (kind, arg), *_ = step.items()
    if kind == "write":
        at(arg).parent.mkdir(parents=True, exist_ok=True)
        at(arg).write_text(fill(step["text"]), encoding="utf-8")
    elif kind == "replace":
        path = at(arg["file"])
        text = path.read_text(encoding="utf-8")
        assert arg["old"] in text, f"setup: {arg['old']!r} is not in {arg['file']}"
        path.write_text(text.replace(arg["old"], fill(arg["new"])), encoding="utf-8")
    elif kind == "bytes":
        at(arg["file"]).parent.mkdir(parents=True, exist_ok=True)
        at(arg["file"]).write_bytes(bytes.fromhex(arg["hex"]) * arg.get("repeat", 1))
    elif kind == "link":
        path = at(arg)
        if path.exists() or path.is_symlink():
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(fill(step["to"]))
    elif kind == "fifo":
        path = at(arg)
        if path.exists():
            path.unlink()
        os.mkfifo(path)
    elif kind == "generate":
        text = (
            arg.get("text", "")
            + arg["repeat"] * arg["times"]
            + arg.get("then", "") * arg.get("close", arg["times"])
        )
        at(arg["file"]).parent.mkdir(parents=True, exist_ok=True)
        at(arg["file"]).write_text(text, encoding="utf-8")
    elif kind == "chmod":
        os.chmod(at(arg["path"]), arg["mode"])
    elif kind == "mkdir":
        at(arg).mkdir(parents=True, exist_ok=True)
    elif kind == "remove":
        path = at(arg)
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    else:
        raise AssertionError(f"unknown setup step {kind!r}")


def _limits(fsize: int | None = None):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CPU, (TIME_LIMIT, TIME_LIMIT + 5))
        if fsize:  # a full disk: writes past the limit fail with EFBIG instead of killing the process
            import signal

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return apply


def run_case(path: Path, tmp: Path) -> None:
    case = yaml.safe_load(path.read_text())
    project, outside = tmp / "project", tmp / "outside"
    shutil.copytree(FIXTURES / case.get("fixture", "basic"), project)
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"id: sample\ntitle: {CANARY}\n")
    (outside / "secret.md").write_text(f"# {CANARY}\n")
    (outside / "secret.png").write_bytes((FIXTURES / "basic/content/sample/art/split.png").read_bytes())
    assert run_cli("build", "--out", "out", cwd=project).exit_code == 0
    out_before = tree(project / "out")
    for step in case.get("setup", []):
        apply(step, project, outside)
    outside_before = tree(outside)  # after the attack's own files are in place
    command = case.get("command", ["build"])
    if command[0] in ("build", "export", "watch"):
        command = [*command, "--out", "out"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "200"}
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pnpgen", *command],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT + 30,
        preexec_fn=_limits(case.get("fsize")),
        stdin=subprocess.DEVNULL,
    )
    took = time.monotonic() - start
    output = proc.stdout + proc.stderr
    assert took < CASE_SECONDS, f"the case took {took:.1f} s: work is not bounded by the content's size"
    assert proc.returncode == case.get("exit", 1), f"exit {proc.returncode} after {took:.1f} s:\n{output}"
    for line in case.get("expect", []):
        line = line.replace("{outside}", str(outside))
        assert line in output, f"expected:\n  {line}\ngot:\n{output}"
    assert "Traceback" not in output and "internal error" not in output, output
    assert CANARY not in output
    written = tree(project / "out")
    assert not any(CANARY.encode() in data for data in written.values()), (
        "something outside was read into the output"
    )
    if case.get("output", "unchanged") == "unchanged":
        assert written == out_before, "the output folder changed"
    assert tree(outside) == outside_before, "something outside the project was written"
    for check in case.get("files", []):
        data = (project / check["path"]).read_text(encoding="utf-8")
        if "contains" in check:
            assert check["contains"] in data, f"{check['path']} lacks {check['contains']!r}:\n{data[:500]}"
        if "lacks" in check:
            assert check["lacks"] not in data, f"{check['path']} holds {check['lacks']!r}"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.stem}" for c in CASES])
def test_hostile_case(case, tmp_path):
    try:
        run_case(case, tmp_path)
    finally:
        for dirpath, dirnames, _ in os.walk(tmp_path):  # a case may have made a folder unreadable
            for d in dirnames:
                os.chmod(os.path.join(dirpath, d), 0o755)


def test_the_corpus_covers_every_promise_with_enough_cases():
    promises = {"confinement", "bounded", "located", "never-half-written", "honest-text"}
    found = {c.parent.name for c in CASES}
    assert promises <= found, promises - found
    assert len(CASES) >= 60
