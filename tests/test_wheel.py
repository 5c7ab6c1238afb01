"""The wheel is the whole of pnpgen: built, installed into a fresh virtual environment outside the repository, it
runs the tutorial in an empty folder, and a game anywhere extends the built-in layouts.

No network: the wheel is built without build isolation (the test extras bring setuptools), installed with
--no-deps, and the new environment reaches pnpgen's dependencies through a .pth file naming the site-packages
of the interpreter running the tests. A path line of a .pth file only adds that folder to sys.path; the .pth
files inside it (the editable install of the repository among them) are not processed, so the only pnpgen the
new environment can import is the wheel's, which the test checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow

# where an interpreter's own settings would bring the repository's pnpgen (or another Python) back in
CLEARED = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONUSERBASE",
    "VIRTUAL_ENV",
    "__PYVENV_LAUNCHER__",
)


def build_wheel(tmp: Path) -> Path:
    """`pip wheel` of a clean copy of what the wheel is made of (no stale build/ folder, nothing written into the
    repository)."""
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "pnpgen", src / "pnpgen", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    run([*pip, "wheel", str(src), "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(wheels)])
    (wheel,) = wheels.glob("pnpgen-*.whl")
    return wheel


def run(args: list, cwd: Path | None = None, env: dict | None = None) -> str:
    proc = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def fresh_env(tmp: Path, wheel: Path) -> tuple[Path, dict]:
    """A virtual environment holding the wheel, reaching the dependencies of the running interpreter."""
    home = tmp / "env"
    venv.EnvBuilder(with_pip=False).create(home)
    bindir = home / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env["PATH"] = str(bindir) + os.pathsep + env.get("PATH", "")
    # the parent's pip installs into the new environment (it has no pip of its own: faster, and no network)
    run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--python", python, "install", "--no-deps",
         "--no-index", "-q", wheel], env=env)  # fmt: skip
    site = Path(
        run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], env=env).strip()
    )
    theirs = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "zz-dependencies.pth").write_text("".join(f"{p}\n" for p in theirs))
    return python, env


def pages(path: Path) -> int:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(path)
    try:
        return len(pdf)
    finally:
        pdf.close()


def test_the_wheel_installed_in_a_fresh_environment_runs_the_tutorial(tmp_path):
    from PIL import Image

    from pnpgen import __version__

    wheel = build_wheel(tmp_path)
    assert wheel.name == f"pnpgen-{__version__}-py3-none-any.whl"
    python, env = fresh_env(tmp_path, wheel)
    # (run in the temp folder: `python -c` puts its working folder first on sys.path)
    where = run([python, "-c", "import pnpgen, reportlab; print(pnpgen.__file__)"], tmp_path, env).strip()
    assert Path(where).is_relative_to(tmp_path / "env"), where  # the wheel's, never the repository's
    assert not Path(where).is_relative_to(ROOT)
    # the preview page is package data, read through importlib.resources as `serve` reads it
    page = "from pnpgen.serve.server import page_html; print(len(page_html()))"
    assert int(run([python, "-c", page], tmp_path, env)) > 1000

    desk = tmp_path / "desk"  # the designer's empty folder
    desk.mkdir()
    pnpgen = shutil.which("pnpgen", path=env["PATH"])
    assert pnpgen is not None and Path(pnpgen).is_relative_to(tmp_path / "env")

    assert run([pnpgen, "--version"], desk, env) == f"pnpgen, version {__version__}\n"
    assert "wrote 9 files in content" in run([pnpgen, "new", "mygame"], desk, env)
    assert "built mygame" in run([pnpgen, "build"], desk, env)
    assert run([pnpgen, "build"], desk, env).strip() == "up to date mygame"
    assert ": ok" in run([pnpgen, "check"], desk, env)
    assert "exported mygame/cards" in run([pnpgen, "export", "png", "mygame"], desk, env)
    out = desk / "output" / "mygame"
    for name in ("cards.pdf", "rulebook.pdf", "print-all.pdf"):
        assert pages(out / name) > 0, name
    pngs = sorted((out / "png" / "cards").glob("*.png"))
    assert len(pngs) == 4
    for png in pngs:
        with Image.open(png) as image:
            assert image.format == "PNG" and min(image.size) > 100

    # a game whose content folder is anywhere, with no layouts/ beside it: pnpgen's own basic-card and basic-back
    game = desk / "elsewhere" / "games" / "castle"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("id: castle\ntitle: Castle\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: mine\nback: basic-back\n"
        "cards:\n  - {name: Keep, type: place, text: Hold the wall.}\n  - {name: Moat}\n"
    )
    (game / "layouts" / "mine.yaml").write_text('extends: basic-card\nvars:\n  accent: "#7b3fa0"\n')
    assert not (desk / "elsewhere" / "layouts").exists() and not (desk / "layouts").exists()
    where = ["--content", "elsewhere/games", "--out", "printed"]
    assert "built castle" in run([pnpgen, "build", "--strict", *where], desk, env)
    assert pages(desk / "printed" / "castle" / "deck.pdf") > 0
    # recorded inside pnpgen's own folder, so a rebuild with nothing changed is answered from the manifest
    assert "pnpgen:layouts/basic-card.yaml" in (desk / "printed" / "castle" / "manifest.json").read_text()
    assert run([pnpgen, "build", *where], desk, env).strip() == "up to date castle"
