"""Untrusted content and crashes: hostile inputs refused, fuzzed inputs never crash, killed or concurrent builds
never tear a file, and every PDF written is valid."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from conftest import FIXTURES, ROOT, SHIPPED_BUILD_SOCKETS, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_broken_inputs import check_case, header, snapshot

HOSTILE = sorted((Path(__file__).parent / "hostile").glob("*.yaml"))
CONTENT = ROOT / "content"


# -- valid output ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def all_games(shipped_build):
    return shipped_build  # the shipped games, built once per session with --strict (conftest.py)


def test_every_pdf_passes_qpdf_and_opens_in_pdfium(all_games):
    pdfs = sorted(all_games.glob("*/*.pdf"))
    assert len(pdfs) >= 12
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            assert pdf.check_pdf_syntax() == [], path  # qpdf's --check
            for page in pdf.pages:
                media = [float(v) for v in page.MediaBox]
                bleed = [float(v) for v in page.BleedBox]
                trim = [float(v) for v in page.TrimBox]
                assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
                assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                    assert "/FontFile2" in obj, path  # every font embedded
        doc = pdfium.PdfDocument(path)
        try:
            assert len(doc) > 0
            img = doc[0].render(scale=0.2).to_pil()
            assert img.width > 0
        finally:
            doc.close()


def test_no_network_is_touched_during_a_build(all_games):
    """The session's build of the five shipped games runs with socket() and create_connection() refusing and
    recording every call (conftest.shipped_build): it built, and it tried none."""
    assert (all_games / "deity" / "manifest.json").is_file()
    assert SHIPPED_BUILD_SOCKETS == []


# -- hostile content -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", HOSTILE, ids=[c.stem for c in HOSTILE])
def test_hostile_input_is_refused_with_a_clear_message(case, project, basic_out):
    check_case(case, project("basic"), basic_out)


def test_a_symlink_out_of_the_game_folder_is_refused(project):
    root = project("basic")
    link = root / "content" / "sample" / "decks" / "evil.yaml"
    link.symlink_to("/etc/passwd")
    game = root / "content" / "sample" / "game.yaml"
    game.write_text(game.read_text().replace("  - decks/minis.yaml", "  - decks/evil.yaml"))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert (
        "content/sample/game.yaml:10:5: error: component file 'decks/evil.yaml' leaves the game folder"
        in result.output
    )


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims a huge size (a decompression bomb's header) with almost no data."""

    def chunk(kind, data):
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def test_an_image_bomb_is_refused_before_decoding(project):
    root = project("basic")
    (root / "content" / "sample" / "art" / "bomb.png").write_bytes(_png_header_only(60000, 60000))
    (root / "content" / "sample" / "layouts" / "hero.yaml").write_text(
        "elements:\n  - type: image\n    src: bomb.png\n    area: trim\n"
    )
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code == 1
    assert "content/sample/layouts/hero.yaml:3:10: error: 'src' names an image" in result.output
    assert "megapixels" in result.output and "Traceback" not in result.output


def test_a_low_resolution_image_is_a_warning_naming_the_card(project):
    root = project("basic")
    (root / "content" / "sample" / "layouts" / "hero.yaml").write_text(
        "elements:\n  - type: image\n    src: split.png\n    area: bleed\n    fit: cover\n"
    )
    relaxed = run_cli("build", "--out", "out", cwd=root)
    assert relaxed.exit_code == 0
    assert "warning: image art/split.png prints at" in relaxed.output and "'Ash Walker'" in relaxed.output
    assert run_cli("build", "--out", "out2", "--strict", cwd=root).exit_code == 1


# -- fuzzing ---------------------------------------------------------------------------------------------------

FUZZ_SOURCES = [p for p in sorted((FIXTURES / "basic").rglob("*.yaml"))] + sorted(
    (Path(__file__).parent / "broken").glob("*.yaml")
)
NOISE = [
    ":",
    "-",
    " ",
    "\n",
    "[",
    "]",
    "{",
    "}",
    "#",
    "&",
    "*",
    "!",
    "|",
    ">",
    "'",
    '"',
    "\t",
    "{{",
    "}}",
    "%",
    "0",
    "-1",
    "1e99",
    "null",
    "x",
    "é",
    "\x00",
    "?",
]


@st.composite
def mutation(draw):
    source = draw(st.sampled_from(FUZZ_SOURCES))
    text = source.read_text()
    lines = text.splitlines(keepends=True)
    kind = draw(
        st.sampled_from(["insert", "delete-line", "duplicate-line", "truncate", "swap-lines", "replace"])
    )
    if kind == "insert":
        pos = draw(st.integers(0, len(text)))
        text = text[:pos] + draw(st.sampled_from(NOISE)) + text[pos:]
    elif kind == "replace" and text:
        pos = draw(st.integers(0, len(text) - 1))
        text = text[:pos] + draw(st.sampled_from(NOISE)) + text[pos + 1 :]
    elif kind == "delete-line" and lines:
        del lines[draw(st.integers(0, len(lines) - 1))]
        text = "".join(lines)
    elif kind == "duplicate-line" and lines:
        i = draw(st.integers(0, len(lines) - 1))
        lines.insert(i, lines[i])
        text = "".join(lines)
    elif kind == "swap-lines" and len(lines) > 1:
        i = draw(st.integers(0, len(lines) - 2))
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        text = "".join(lines)
    elif kind == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    return source, text


def _target_for(source: Path) -> str:
    if source.parent.name in ("broken", "hostile"):
        return header(source, "target")[0] if header(source, "target") else "content/sample/decks/heroes.yaml"
    return str(source.relative_to(FIXTURES / "basic"))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_fuzzed_content_never_crashes_or_tears_a_file(tmp_path_factory, basic_out, case):
    source, text = case
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(FIXTURES / "basic", root, dirs_exist_ok=True)
    before_files = header(source, "before") if source.parent.name == "broken" else []
    for spec in before_files:  # a case's good files first (`# before:`), as its own test adds them
        dest, src = (part.strip() for part in spec.split("="))
        (root / dest).parent.mkdir(parents=True, exist_ok=True)
        (root / dest).write_text((source.parent / "support" / src).read_text())
    if before_files:
        assert run_cli("build", "--out", "out", cwd=root).exit_code == 0
    else:  # the fixture as it is: its good output is the session's build of it
        shutil.copytree(basic_out, root / "out")
    before = snapshot(root / "out" / "sample")
    target = root / _target_for(source)
    target.write_bytes(text.encode("utf-8", "surrogatepass"))
    result = run_cli("build", "--out", "out", cwd=root)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    out = root / "out" / "sample"
    assert not list(out.glob(".*.tmp"))
    if result.exit_code == 1:
        assert snapshot(out) == before
        assert any(line.count(":") >= 3 and " error: " in line for line in result.output.splitlines())
    manifest = json.loads((out / "manifest.json").read_text())
    for f in manifest["files"]:
        assert hashlib.sha256((out / f["path"]).read_bytes()).hexdigest() == f["sha256"]


# -- crashes and concurrency -----------------------------------------------------------------------------------


def _pnpgen(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pnpgen", *map(str, args)],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _hashes(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*.pdf")}


@pytest.mark.slow
def test_a_build_killed_at_any_moment_leaves_old_or_new_files_never_torn(tmp_path, shipped_build):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    shutil.copytree(ROOT / "layouts", tmp_path / "layouts")
    out = tmp_path / "out"
    shutil.copytree(shipped_build, out)  # the old output: the session's build of the same content
    games = sorted(p.name for p in out.iterdir())
    old = {g: _hashes(out / g) for g in games}
    for game_yaml in content.glob("*/game.yaml"):  # a new title changes every page's label: every PDF changes
        game_yaml.write_text(game_yaml.read_text().replace("title: ", "title: New ", 1))
    new_out = tmp_path / "new"
    assert _pnpgen("build", "--content", content, "--out", new_out, cwd=tmp_path).wait() == 0
    new = {g: _hashes(new_out / g) for g in games}
    rng = random.Random(7)
    for trial in range(6):
        proc = _pnpgen("build", "--content", content, "--out", out, cwd=tmp_path)
        time.sleep(rng.uniform(0.3, 1.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for g in games:
            for name, digest in _hashes(out / g).items():
                assert digest in (old[g].get(name), new[g].get(name)), (trial, g, name)
            manifest = json.loads((out / g / "manifest.json").read_text())
            for f in manifest["files"]:
                assert (out / g / f["path"]).is_file()
    # no worker of a killed build lives on
    time.sleep(0.5)
    leftovers = subprocess.run(["pgrep", "-f", f"--out {out}"], capture_output=True, text=True).stdout.split()
    assert leftovers == [], leftovers
    # the next build finishes the job and sweeps what the killed ones left behind
    assert _pnpgen("build", "--content", content, "--out", out, cwd=tmp_path).wait() == 0
    for g in games:
        assert _hashes(out / g) == new[g]
        assert not list((out / g).glob(".*.tmp"))


@pytest.mark.slow
def test_two_builds_at_once_do_not_corrupt_each_other(tmp_path, shipped_build):
    out = tmp_path / "out"
    procs = [_pnpgen("build", "--content", CONTENT, "--out", out, cwd=tmp_path) for _ in range(2)]
    assert [p.wait() for p in procs] == [0, 0]
    clean = shipped_build  # the same content built once, alone, by this session
    for game in sorted(p.name for p in clean.iterdir()):
        for f in sorted((clean / game).iterdir()):
            assert (out / game / f.name).read_bytes() == f.read_bytes(), f"{game}/{f.name}"
        assert not list((out / game).glob(".*.tmp"))


# -- structural fuzzing: nesting, types, templates and links, not only characters ----------------------------

STRUCT_SOURCES = [
    "content/sample/game.yaml",
    "content/sample/decks/heroes.yaml",
    "content/sample/decks/minis.yaml",
    "content/sample/layouts/hero.yaml",
    "content/sample/icons.yaml",
    "content/sample/facts.yaml",
    "layouts/sample-back.yaml",
]
# What a link, a pipe or a folder may replace: every file kind, and the folders that hold them.
LINK_TARGETS = [
    *STRUCT_SOURCES,
    "content/sample/art/split.png",
    "content/sample/rulebook.md",
    "content/sample/decks",
    "content/sample/layouts",
    "content/sample/art",
    "layouts",
]
FUZZ_CANARY = "CANARY-fuzz-outside-the-project"

# Random Jinja: expressions built from these, nested a few levels, as a value or inside a statement.
NAMES = [
    "card.name",
    "card.count",
    "card.index",
    "w",
    "h",
    "bleed",
    "deck.count",
    "game.title",
    "palette",
    "nope",
]
NUMBERS = ["0", "1", "-1", "2.5", "1e308", "1e-308", "1000000", "99999999999", "(9 ** 99)"]
TEXTS = ["''", "'x'", "'\\x1b[31m'", "'\\u202e'", "'{:>9}'", "'%s'", "'a,b'"]
CALLS = [
    "range({})",
    "({}) | list",
    "({}) | length",
    "({}) | sum",
    "({}) | string",
    "({}) | int",
    "({}) | join(',')",
    "({}) | center(20)",
    "({}) | reverse | list",
    "cycler({}, 1).next()",
    "joiner({})()",
    "namespace(a={}).a",
    "[{}] * 3",
    "{{'k': {}}}",
    "({}).__class__",
    "'{{}}'.format({})",
]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "~", "and", "or", "<", "=="]
STATEMENTS = [
    "{{{{ {} }}}}",
    "{{% for i in range(100) %}}{{{{ {} }}}}{{% endfor %}}",
    "{{% for i in range(300) %}}{{% for j in range(300) %}}{{{{ {} }}}}{{% endfor %}}{{% endfor %}}",
    "{{% if {} %}}a{{% else %}}b{{% endif %}}",
    "{{% set v = {} %}}{{{{ v ~ v }}}}",
    "{{% set ns = namespace(s={}) %}}{{% for i in range(30) %}}{{% set ns.s = ns.s ~ ns.s %}}{{% endfor %}}x",
    "{{% macro m(n) %}}{{{{ m(n) }}}}{{% endmacro %}}{{{{ m({}) }}}}",
    "{{% include {} %}}",
]

expressions = st.recursive(
    st.sampled_from(NAMES + NUMBERS + TEXTS),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(CALLS), inner).map(lambda t: t[0].format(t[1])),
        st.tuples(inner, st.sampled_from(OPERATORS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    ),
    max_leaves=6,
)
templates = st.tuples(st.sampled_from(STATEMENTS), expressions).map(lambda t: t[0].format(t[1]))


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _get(tree, path):
    for key in path:
        tree = tree[key]
    return tree


def _set(tree, path, value):
    if not path:
        return value
    _get(tree, path[:-1])[path[-1]] = value
    return tree


def _nested(depth: int, mapping: bool):
    node: object = "x"
    for _ in range(depth):
        node = {"a": node} if mapping else [node]
    return node


@st.composite
def structure(draw):
    """A change to the fixture game: ("write", file, text) with one value of one file replaced by another
    structure (nested up to 200 deep, another type, a list where a mapping is expected, a mapping where a list
    is, a non-finite or huge number, a random template), or ("link" | "fifo" | "folder", path) replacing a file
    or a folder by a link out of the project, a link to itself, a pipe or an empty folder."""
    import yaml

    kind = draw(
        st.sampled_from(["nest", "type", "flip", "wrap", "number", "template", "template", "special"])
    )
    if kind == "special":
        special = draw(st.sampled_from(["link-file", "link-folder", "link-loop", "fifo", "folder"]))
        return (special, draw(st.sampled_from(LINK_TARGETS)), None)
    source = draw(st.sampled_from(STRUCT_SOURCES))
    tree = yaml.safe_load((FIXTURES / "basic" / source).read_text())
    path = draw(st.sampled_from(list(_paths(tree))))
    node = _get(tree, path)
    if kind == "nest":
        replacement = _nested(draw(st.integers(1, 200)), draw(st.booleans()))
    elif kind == "type":
        replacement = draw(st.sampled_from([{}, [], "", None, True, 7, "7", {"a": [1, {"b": 2}]}, ["x"] * 5]))
    elif kind == "flip":  # a list where a mapping is expected, and the other way round
        if isinstance(node, dict):
            replacement = [{k: v} for k, v in node.items()]
        elif isinstance(node, list):
            replacement = {str(i): v for i, v in enumerate(node)}
        else:
            replacement = [node]
    elif kind == "wrap":
        replacement = draw(st.sampled_from([[node], {"x": node}, [node, node]]))
    elif kind == "number":
        replacement = draw(st.sampled_from([float("nan"), float("inf"), -float("inf"), -1, 0, 10**30, 1e-30]))
    else:
        replacement = draw(templates)
    return ("write", source, yaml.safe_dump(_set(tree, path, replacement), allow_unicode=True, width=1000))


def _special(kind: str, target: Path, outside: Path) -> None:
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
    if kind == "link-file":
        target.symlink_to(outside / "secret.yaml")
    elif kind == "link-folder":
        target.symlink_to(outside)
    elif kind == "link-loop":
        target.symlink_to(target.name)
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()


@pytest.mark.slow
@settings(
    max_examples=int(os.environ.get("PNPGEN_FUZZ_EXAMPLES", "40")),
    deadline=None,
    derandomize=not os.environ.get("PNPGEN_FUZZ_RANDOM"),  # the same examples every run, unless asked
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(structure())
def test_structurally_fuzzed_content_never_crashes_or_tears_a_file(tmp_path_factory, basic_out, case):
    """Each example builds in a fresh process under the hostile corpus's time and memory limits: whatever the
    change, exit 0 or 1 with a located message, never a traceback, nothing from outside read, and on failure the
    output exactly as it was."""
    from test_hostile import CASE_SECONDS, PEAK_MEMORY, run_pnpgen

    kind, source, text = case
    root = tmp_path_factory.mktemp("sfuzz")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.yaml").write_text(f"id: sample\ntitle: {FUZZ_CANARY}\nelements: []\n")
    shutil.copytree(FIXTURES / "basic", root, dirs_exist_ok=True)
    shutil.copytree(basic_out, root / "out")  # the fixture's good output, built once per session
    out = root / "out" / "sample"
    before = snapshot(out)
    if kind == "write":
        (root / source).write_text(text)
    else:
        _special(kind, root / source, outside)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "200"}
    code, output, took, peak = run_pnpgen(["build", "--out", "out"], root, env, None)
    assert took < CASE_SECONDS and peak < PEAK_MEMORY, (took, peak >> 20, output[-2000:])
    assert code in (0, 1), output[-2000:]
    assert "Traceback" not in output and "internal error" not in output, output[-2000:]
    assert FUZZ_CANARY not in output
    if code == 1:
        assert snapshot(out) == before
        assert any(" error: " in line for line in output.splitlines()), output[-2000:]
    manifest = json.loads((out / "manifest.json").read_text())
    for f in manifest["files"]:
        data = (out / f["path"]).read_bytes()
        assert FUZZ_CANARY.encode() not in data
        assert hashlib.sha256(data).hexdigest() == f["sha256"]
