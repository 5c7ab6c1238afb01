"""The `pnpgen` program ends without Python's teardown of its modules (`__main__.quick_exit`), and still ends as
Python would: with the command's exit code, everything it printed (a pipe's buffer flushed), and the exit handlers
run. `main` called inside another program leaves it running."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

ENV_CODE = """
import atexit, sys
from pathlib import Path
from pnpgen.__main__ import quick_exit
atexit.register(lambda: Path(sys.argv[1]).write_text("handlers ran"))
print("buffered, not flushed", end="")  # to a pipe: block-buffered until the exit flushes it
print("on stderr", file=sys.stderr, end="")
quick_exit(eval(sys.argv[2]))
raise SystemExit(99)  # never reached: the process has ended
"""


@pytest.mark.parametrize(
    "code, status, said",
    [
        pytest.param("None", 0, "", id="none"),
        pytest.param("0", 0, "", id="zero"),
        pytest.param("1", 1, "", id="content-error"),
        pytest.param("2", 2, "", id="usage-error"),
        pytest.param("'a message'", 1, "a message", id="message"),
    ],
)
def test_quick_exit_ends_as_python_would(tmp_path, code, status, said):
    mark = tmp_path / "ran"
    done = subprocess.run(
        [sys.executable, "-c", ENV_CODE, str(mark), code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == status
    assert done.stdout == "buffered, not flushed"
    assert done.stderr.startswith("on stderr") and said in done.stderr
    assert mark.read_text() == "handlers ran"


@pytest.mark.parametrize(
    "args, status, out",
    [
        pytest.param(["--version"], 0, "pnpgen", id="version"),
        pytest.param(["build", "--content", "no-such-folder"], 2, "no-such-folder", id="usage"),
        pytest.param(
            ["build", "--content", "tests/fixtures/basic/content", "--out", "OUT"], 0, "built", id="build"
        ),
    ],
)
def test_the_program_ends_with_its_code_and_all_it_printed(tmp_path, args, status, out):
    """`python -m pnpgen`, as a user runs it (and `make bench` times it)."""
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    done = subprocess.run(
        [sys.executable, "-m", "pnpgen", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == status, done.stderr
    assert out in done.stdout + done.stderr


def test_main_inside_another_program_leaves_it_running(monkeypatch, capsys):
    """A test calls `main` in its own process: the command's SystemExit comes back to it."""
    from pnpgen.__main__ import main

    monkeypatch.setattr(sys, "argv", ["pnpgen", "--version"])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 0 and "pnpgen" in capsys.readouterr().out
