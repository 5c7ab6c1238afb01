"""A Ctrl-C at any moment of a command ends it as click ends one (`Aborted!`, exit 1), with no traceback: before
click has started (the imports, `answer_unchanged`'s check of an unchanged build), inside click, in a command.
Found by Ctrl-C sent at random moments of builds: 4 of 30 landed in the imports and printed a traceback."""

from __future__ import annotations

import shutil
import sys

import pytest
from conftest import FIXTURES

from pnpgen import __main__ as entry


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
