"""The per-user store of compiled templates (`pnpgen.codecache`): same output with it cold, warm, damaged, off
or unwritable; the sandbox's refusals hold for code read back from it; only the user's own entries are read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnpgen import codecache, templating
from pnpgen.errors import Location
from pnpgen.templating import Compiler, TemplateProblem, content, jinja

ROOT = Path(__file__).resolve().parent.parent
LOC = Location("l.yaml", 2, 7)


@pytest.fixture
def cache_at(monkeypatch, tmp_path):
    """Point the store at a folder (or turn it off), with nothing compiled in this process yet."""

    def use(where: str | Path) -> Path:
        monkeypatch.setenv("PNPGEN_CACHE", str(where))
        codecache.folder.cache_clear()
        jinja._compiled.cache_clear()
        return Path(where) / "templates"

    yield use
    codecache.folder.cache_clear()
    jinja._compiled.cache_clear()


def entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def evaluate_fresh(source: str, **ctx):
    """Compile in a new compiler with this process's memory cleared: what another build process would do."""
    jinja._compiled.cache_clear()
    return Compiler().value(source, LOC)(ctx)


VALUES = [
    ("{{ card.cost * 2 + 1 }}", 7),
    ("{{ card.name | upper }} of {{ card.tags | join('/') }}", "NOVA of a/b"),
    ("{{ [card.cost, 9] | max }}", 9),
    ("{% if card.cost > 2 %}big{% else %}small{% endif %}", "big"),
    ("{{ 'x' ~ card.cost }}", "x3"),
]


@pytest.mark.parametrize("source, expected", VALUES)
def test_a_value_read_back_from_the_store_is_the_value_compiled(cache_at, tmp_path, source, expected):
    folder = cache_at(tmp_path / "c")
    card = content({"name": "Nova", "cost": 3, "tags": ["a", "b"]})
    assert evaluate_fresh(source, card=card) == expected  # cold: compiled, stored
    stored = entries(folder)
    assert len(stored) == 1
    mtime = stored[0].stat().st_mtime_ns
    assert evaluate_fresh(source, card=card) == expected  # warm: read back
    assert entries(folder) == stored and stored[0].stat().st_mtime_ns == mtime  # not written again
    # the card fields it reads came back too (rebuilds decide which cards changed from them)
    compiler = Compiler()
    assert compiler.deps(compiler.value(source, LOC)) == jinja.card_fields_used(
        jinja.shared_environment(), *_kind(source)
    )


def _kind(source: str) -> tuple[str, str]:
    m = templating._SINGLE_EXPR.match(source)
    return (m.group("expr"), "expr") if m and "{{" not in m.group("expr") else (source, "template")


def test_the_sandbox_refuses_what_it_refused_when_code_comes_back_from_the_store(cache_at, tmp_path):
    cache_at(tmp_path / "c")
    card = content({"name": "Nova"})
    for _ in range(2):  # cold, then warm
        with pytest.raises(TemplateProblem, match="not allowed"):
            evaluate_fresh("{{ card.name.__class__.__mro__ }}", card=card)
        with pytest.raises(TemplateProblem, match="more than 1,000,000 items"):
            evaluate_fresh('{{ "x" * 10**9 }}', card=card)


def test_a_syntax_error_is_reported_each_time_and_never_stored(cache_at, tmp_path):
    folder = cache_at(tmp_path / "c")
    for _ in range(2):
        jinja._compiled.cache_clear()
        with pytest.raises(Exception, match="template error"):
            Compiler().value("{{ card.name | }}", LOC)
    assert entries(folder) == []


def test_damaged_foreign_or_oversized_entries_are_compiled_again(cache_at, tmp_path, monkeypatch):
    folder = cache_at(tmp_path / "c")
    card = content({"cost": 3})
    assert evaluate_fresh("{{ card.cost + 1 }}", card=card) == 4
    (entry,) = entries(folder)
    good = entry.read_bytes()
    for damage in (b"", b"\x00garbage", good[: len(good) // 2], b"\xe9" * 10):
        entry.write_bytes(damage)
        assert evaluate_fresh("{{ card.cost + 1 }}", card=card) == 4
        assert entry.read_bytes() == good  # stored again, whole
    # an entry written by someone else is not run: it is compiled again and replaced by the user's own
    real = os.geteuid()
    monkeypatch.setattr(os, "geteuid", lambda: real + 1)
    assert codecache.load(entry.name) is None
    monkeypatch.setattr(os, "geteuid", lambda: real)
    monkeypatch.setattr(codecache, "MAX_ENTRY", 10)
    assert codecache.load(entry.name) is None


@pytest.mark.parametrize("setting", ["off", ""])
def test_off_writes_nothing(cache_at, tmp_path, setting, monkeypatch):
    cache_at(setting)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert codecache.folder() is None
    assert evaluate_fresh("{{ card.cost + 1 }}", card=content({"cost": 1})) == 2
    assert entries(tmp_path) == []


def test_an_unwritable_store_is_left_alone(cache_at, tmp_path):
    blocker = tmp_path / "c"
    blocker.write_text("a file where the folder would be")
    cache_at(blocker)
    assert evaluate_fresh("{{ card.cost + 1 }}", card=content({"cost": 1})) == 2
    assert blocker.read_text() == "a file where the folder would be"


def test_the_default_place_is_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("PNPGEN_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    codecache.folder.cache_clear()
    try:
        assert codecache.folder() == tmp_path / "xdg" / "pnpgen" / "templates"
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not a place: the home's .cache
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        codecache.folder.cache_clear()
        assert codecache.folder() == tmp_path / "home" / ".cache" / "pnpgen" / "templates"
    finally:
        codecache.folder.cache_clear()


@pytest.mark.slow
def test_a_build_writes_the_same_bytes_with_the_store_cold_warm_and_off(project, tmp_path):
    """Whole builds in fresh processes, as a designer runs them: the store changes no byte of any output."""
    game = project("basic")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def build(cache: str, out: str) -> dict[str, bytes]:
        done = subprocess.run(
            [sys.executable, "-m", "pnpgen", "build", "--out", out],
            cwd=game,
            env={**env, "PNPGEN_CACHE": cache},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return {
            p.relative_to(game / out).as_posix(): p.read_bytes()
            for p in (game / out).rglob("*")
            if p.is_file()
        }

    store = str(tmp_path / "store")
    cold = build(store, "cold")
    assert entries(Path(store) / "templates")  # the first build filled it
    warm = build(store, "warm")
    off = build("off", "off")
    assert cold.keys() == warm.keys() == off.keys() and "sample/manifest.json" in cold
    assert all(cold[k] == warm[k] == off[k] for k in cold)


def test_one_process_writes_a_bounded_number_of_entries(cache_at, tmp_path, monkeypatch):
    folder = cache_at(tmp_path / "c")
    monkeypatch.setattr(codecache, "MAX_STORES", 3)
    monkeypatch.setattr(codecache, "_stored", [0])
    card = content({"cost": 1})
    for n in range(6):
        assert evaluate_fresh(f"{{{{ card.cost + {n} }}}}", card=card) == 1 + n  # all still evaluated
    assert len(entries(folder)) == 3
