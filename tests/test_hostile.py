"""The hostile corpus: content nobody here wrote, one case per file in tests/hostile/<promise>/, grouped by the
five promises of the README's trust section (confinement, bounded, located, never half-written, honest text).

A case is YAML:

    fixture: basic                  # a project in tests/fixtures/, copied with its good build (made once)
    prepare:                        # more runs before the case, whose output must survive it (optional)
      - [export, png, sample, heroes, --dpi, "50"]
    setup:                          # what the attacker changes, in order (paths inside the project)
      - write: content/sample/decks/heroes.yaml
        text: "..."
      - replace: {file: content/sample/decks/heroes.yaml, old: "count: 5", new: "count: .nan"}
      - replace: {file: content/sample/decks/heroes.yaml, old: "@", new: "x", times: 10000}   # `new` repeated
                                      # (with `numbered: true`, each repeat filled as `generate` fills it, below)
      - copy: {from: content/sample/art/split.png, to: content/sample/art/other.png}   # or a folder
      - binary: {file: content/sample/data/h.xlsx, kind: xlsx, cells: {A1: name, XFD1048576: x}}
                                      # made by tests/hostile_files.py (kind: xlsx, ods, font, jpeg, png, pdf...)
      - link: content/sample/layouts/hero.yaml
        to: "{outside}/secret.yaml"   # {outside} is a folder beside the project holding a canary file
      - fifo: content/sample/icons.yaml
      - mkdir: content/sample/art/deep
      - remove: content/sample/art/split.png
      - bytes: {file: content/sample/art/split.png, hex: "89504e47", repeat: 1}
      - generate: {file: content/sample/decks/deep.yaml, text: "a: ", repeat: "[", times: 200000, then: "]"}
      - generate: {file: content/sample/rulebook.md, text: "# A\n", repeat: "{indent}- item {i}\n", times: 500,
                   numbered: true}            # {i} counts from 1, {prev} = i - 1, {next} = i + 1, {indent} = 2i spaces
      - many: {file: "content/sample/layouts/l{i}.yaml", text: "extends: l{next}\n", times: 300}   # files l1..l300
      - chmod: {path: content/sample/art, mode: 0}
    command: [build]                # default; the CLI runs in a fresh process
    exit: 1
    expect:                         # lines the output must hold, exactly
      - "content/sample/decks/heroes.yaml:8:12: error: ..."
    output: unchanged               # the output folder byte for byte as before the attack (default); `as-set-up`:
                                    # as the attack left it (an attack on the output folder itself); or `any`
    fsize: 300000                   # a limit on the size of any file written (a full disk)
    files:                          # what written files must (not) hold
      - {path: out/sample/png/heroes/cards.csv, contains: "'=HYPERLINK"}
      - {path: out/sample/tts/heroes.json, json: true}   # parses as JSON

Every case runs under a time limit (60 s) and a memory limit (2 GiB of address space), and also asserts: it
finished within 20 s of wall time and 512 MiB of resident memory (a bomb refused only by the limits fails),
no traceback, nothing outside the project read into the output (the canary never appears) or written there,
and nothing outside the output folder written. The whole corpus must finish within a bound too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, ROOT, run_cli

CORPUS = Path(__file__).resolve().parent / "hostile"
CASES = sorted(p for p in CORPUS.glob("*/*.yaml"))
CANARY = "CANARY-7f3a9c-outside-the-game"
TIME_LIMIT = 60
CASE_SECONDS = 20  # every case, however hostile, is answered well within this (measured: under 4 s each)
MEMORY_LIMIT = 2 << 30
# resident memory a case may use: well over a real build's (about 40 MiB), far under a bomb's
PEAK_MEMORY = 512 << 20
CORPUS_SECONDS = 600  # the whole corpus, one case after another (measured: about 3 minutes for 340 cases)
TIMES: dict[str, float] = {}  # wall time of each case run in this session


def tree(folder: Path) -> dict:
    """Every file under `folder` (links as their target's name, never followed) with its bytes."""
    out = {}
    if folder.is_symlink():  # the output folder itself replaced by a link: the link is what it holds
        return {".": b"-> " + os.readlink(folder).encode()}
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


def numbered(text: str, i: int) -> str:
    """`text` with {i}, {prev}, {next} and {indent} filled for the i-th of a generated series."""
    for name, value in (("{i}", i), ("{prev}", i - 1), ("{next}", i + 1), ("{indent}", "  " * i)):
        text = text.replace(name, str(value))
    return text


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
        times = arg.get("times", 1)
        if arg.get("numbered"):
            new = "".join(numbered(fill(arg["new"]), i) for i in range(1, times + 1))
        else:
            new = fill(arg["new"]) * times
        path.write_text(text.replace(arg["old"], new), encoding="utf-8")
    elif kind == "copy":  # a file, or a whole folder
        at(arg["to"]).parent.mkdir(parents=True, exist_ok=True)
        if at(arg["from"]).is_dir():
            shutil.copytree(at(arg["from"]), at(arg["to"]))
        else:
            shutil.copyfile(at(arg["from"]), at(arg["to"]))
    elif kind == "binary":  # a workbook, font, image or PDF made by tests/hostile_files.py
        from hostile_files import make

        at(arg["file"]).parent.mkdir(parents=True, exist_ok=True)
        at(arg["file"]).write_bytes(make(**{k: v for k, v in arg.items() if k != "file"}))
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
        if arg.get("numbered"):
            body = "".join(numbered(arg["repeat"], i) for i in range(1, arg["times"] + 1))
        else:
            body = arg["repeat"] * arg["times"]
        text = arg.get("text", "") + body + arg.get("then", "") * arg.get("close", arg["times"])
        at(arg["file"]).parent.mkdir(parents=True, exist_ok=True)
        at(arg["file"]).write_text(text, encoding="utf-8")
    elif kind == "many":
        for i in range(1, arg["times"] + 1):
            path = at(numbered(arg["file"], i))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(numbered(fill(arg["text"]), i), encoding="utf-8")
    elif kind == "chmod":
        os.chmod(at(arg["path"]), arg["mode"])
    elif kind == "mkdir":
        at(arg).mkdir(parents=True, exist_ok=True)
    elif kind == "remove":
        path = at(arg)
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    else:
        raise AssertionError(f"unknown setup step {kind!r}")


# Runs pnpgen under the limits, in a process of its own forked from this small one (not from pytest, whose
# memory a forked child would count as its own), and reports the peak resident memory of pnpgen and its workers.
RUNNER = """
import json, os, resource, signal, sys
spec = json.loads(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (spec["memory"], spec["memory"]))
resource.setrlimit(resource.RLIMIT_CPU, (spec["cpu"], spec["cpu"] + 5))
if spec["fsize"]:  # a full disk: writes past the limit fail with EFBIG instead of killing the process
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (spec["fsize"], spec["fsize"]))
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "pnpgen", *spec["command"]])
_, status, usage = os.wait4(pid, 0)
with open(spec["report"], "w") as report:
    report.write(str(usage.ru_maxrss * 1024))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def run_pnpgen(command: list, cwd: Path, env: dict, fsize: int | None) -> tuple[int, str, float, int]:
    """Run the CLI in a fresh process under the limits: its exit code (128 + N when killed by signal N), output
    (stdout then stderr), wall time, and peak resident memory in bytes (a case that fails only with MemoryError
    under the address-space limit still shows how much it took)."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "peak"
        spec = {
            "memory": MEMORY_LIMIT,
            "cpu": TIME_LIMIT,
            "fsize": fsize,
            "command": command,
            "report": str(report),
        }
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-c", RUNNER, json.dumps(spec)],
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=TIME_LIMIT + 30,
            stdin=subprocess.DEVNULL,
        )
        took = time.monotonic() - start
        peak = int(report.read_text()) if report.exists() else 0
    output = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    return proc.returncode, output, took, peak


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`built(fixture)`: that fixture project with its good first build in `out`, made once per module. A case
    copies it (copytree keeps the times: the copied output is as up to date as a build of its own would be)."""
    made: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name not in made:
            made[name] = project = tmp_path_factory.mktemp(f"built-{name}") / name
            shutil.copytree(FIXTURES / name, project)
            result = run_cli("build", "--out", "out", cwd=project)
            assert result.exit_code == 0, result.output
        return made[name]

    return build


def run_case(path: Path, tmp: Path, built) -> None:
    case = yaml.safe_load(path.read_text())
    project, outside = tmp / "project", tmp / "outside"
    shutil.copytree(built(case.get("fixture", "basic")), project)  # the fixture and its first good build
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"id: sample\ntitle: {CANARY}\n")
    (outside / "secret.md").write_text(f"# {CANARY}\n")
    (outside / "secret.png").write_bytes((FIXTURES / "basic/content/sample/art/split.png").read_bytes())
    for earlier in case.get("prepare", []):  # earlier runs whose output the attack must leave as it is
        result = run_cli(*earlier, "--out", "out", cwd=project)
        assert result.exit_code == 0, result.output
    out_before = tree(project / "out")
    for step in case.get("setup", []):
        apply(step, project, outside)
    outside_before = tree(outside)  # after the attack's own files are in place
    out_set_up = tree(project / "out")  # after an attack on the output folder itself
    command = case.get("command", ["build"])
    if command[0] in ("build", "export", "watch"):
        command = [*command, "--out", "out"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "200"}
    returncode, output, took, peak = run_pnpgen(command, project, env, case.get("fsize"))
    TIMES[path.relative_to(CORPUS).as_posix()] = took
    assert took < CASE_SECONDS, f"the case took {took:.1f} s: work is not bounded by the content's size"
    assert peak < PEAK_MEMORY, f"the case used {peak >> 20} MiB: memory is not bounded by the content's size"
    assert returncode == case.get("exit", 1), f"exit {returncode} after {took:.1f} s:\n{output}"
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
    elif case["output"] == "as-set-up":
        assert written == out_set_up, "the output folder changed from how the attack left it"
    assert tree(outside) == outside_before, "something outside the project was written"
    for check in case.get("files", []):
        data = (project / check["path"]).read_text(encoding="utf-8")
        if check.get("json"):
            json.loads(data)  # still valid JSON, whatever the content put in it
        if "contains" in check:
            assert check["contains"] in data, f"{check['path']} lacks {check['contains']!r}:\n{data[:500]}"
        if "lacks" in check:
            assert check["lacks"] not in data, f"{check['path']} holds {check['lacks']!r}"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.stem}" for c in CASES])
def test_hostile_case(case, tmp_path, built):
    try:
        run_case(case, tmp_path, built)
    finally:
        for dirpath, dirnames, _ in os.walk(tmp_path):  # a case may have made a folder unreadable
            for d in dirnames:
                os.chmod(os.path.join(dirpath, d), 0o755)


def test_the_corpus_covers_every_promise_with_enough_cases():
    promises = {"confinement", "bounded", "located", "never-half-written", "honest-text"}
    found = {c.parent.name for c in CASES}
    assert promises <= found, promises - found
    assert len(CASES) >= 60


@pytest.mark.slow
def test_the_whole_corpus_finishes_within_a_bound():
    """Runs after the cases (pytest keeps the order of the file) and reads the times they recorded; each case
    also holds itself to CASE_SECONDS."""
    if len(TIMES) < len(CASES):
        pytest.skip(f"only {len(TIMES)} of the {len(CASES)} cases ran in this session")
    total = sum(TIMES.values())
    slowest = [f"{name} {took:.1f} s" for name, took in sorted(TIMES.items(), key=lambda kv: -kv[1])[:5]]
    assert total < CORPUS_SECONDS, f"the corpus took {total:.0f} s; slowest: {slowest}"
