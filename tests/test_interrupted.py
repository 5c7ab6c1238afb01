"""A Ctrl-C at any moment of a command ends it as click ends one (`Aborted!`, exit 1), with no traceback: before
click has started (the imports, `answer_unchanged`'s check of an unchanged build), inside click, in a command.
Found by Ctrl-C sent at random moments of builds: 4 of 30 landed in the imports and printed a traceback, and one
while a worker was forked, in an at-fork handler that swallowed it: a traceback, and the build went on. So also a
Ctrl-C while any child process starts, in the parent or in the child."""

from __future__ import annotations

import os
import shutil
import signal
import sys

import pytest
from conftest import FIXTURES

from pnpgen import __main__ as entry
from pnpgen.bounds import child
from pnpgen.pipeline.pool import Pool


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


# where the Ctrl-C lands: (module, attribute) replaced by a function that raises it
MOMENTS = {
    "the unchanged check": ("pnpgen.commands.build", "answer_unchanged"),
    "click starting": ("pnpgen.cli", "main"),
    "a build": ("pnpgen.commands.build", "build"),
}


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_ctrl_c_at_any_moment_is_aborted_without_a_traceback(tmp_path, monkeypatch, capsys, moment):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "basic", root)
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "argv", ["pnpgen", "build", "--out", "out"])
    module, name = MOMENTS[moment]
    monkeypatch.setattr(f"{module}.{name}", _interrupt)
    with pytest.raises(SystemExit) as done:
        entry.main()
    err = capsys.readouterr().err
    assert done.value.code == 1, err
    assert "Aborted!" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert not (root / "out").exists()  # nothing written


# -- a Ctrl-C while a child process starts: every child pnpgen starts (the pool's workers, a parse's child) ------
def _double(x):
    return 2 * x


def _pool(items):
    with Pool(2, _double, items) as pool:
        return sorted(value for _i, _ok, value in pool.run(list(range(len(items)))))


STARTERS = {
    "a pool's workers": lambda: _pool([1, 2, 3]),
    "a parse's child": lambda: [child.isolated(_double, 21)],
}
RESULTS = {"a pool's workers": [2, 4, 6], "a parse's child": [42]}


@pytest.fixture(scope="module")
def armed():
    """Whether the parent, forking, gets a Ctrl-C inside an at-fork handler (as inside logging's own): the handler
    runs a few instructions after the signal, so the KeyboardInterrupt is raised there, where Python swallows it."""
    state = {"on": False}

    def after_in_parent():
        if state["on"]:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):
                pass

    os.register_at_fork(after_in_parent=after_in_parent)
    return state


@pytest.mark.skipif(child.start_method() != "fork", reason="children are forked on Linux only")
@pytest.mark.parametrize("where", ["the child", "the parent"])
@pytest.mark.parametrize("starter", sorted(STARTERS))
def test_a_ctrl_c_while_a_child_starts_stops_the_command_without_a_traceback(
    monkeypatch, capfd, armed, starter, where
):
    # Python's own Ctrl-C, as a command has it (pytest-xdist's workers ignore Ctrl-C: a start would then hold none)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupted_while_starting(monkeypatch, armed, starter, where)
    finally:
        signal.signal(signal.SIGINT, previous)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def _interrupted_while_starting(monkeypatch, armed, starter: str, where: str) -> None:
    if where == "the child":  # the forked child gets it before it ignores Ctrl-C
        real = os.fork

        def forked():
            pid = real()
            if pid == 0:
                os.kill(os.getpid(), signal.SIGINT)
            return pid

        monkeypatch.setattr(os, "fork", forked)
        assert STARTERS[starter]() == RESULTS[starter]  # the work is done: the child ignores it
    else:
        armed["on"] = True
        try:
            with pytest.raises(KeyboardInterrupt):  # the parent stops, as a Ctrl-C anywhere else stops it
                STARTERS[starter]()
        finally:
            armed["on"] = False
