"""The stages' arrows point one way (see ARCHITECTURE.md): checked on every import of every module, both of
third-party libraries and of pnpgen's own packages."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "pnpgen"

# The plain values every stage may use; they import nothing of pnpgen but each other.
FOUNDATION = {
    "codecache",
    "errors",
    "units",
    "names",
    "colours",
    "shapes",
    "faces",
    "model",
    "recorded",
    "memo",
    "inputs",
    "source",
    "textfiles",
    "bounds",
    "sheetkinds",
    "words",
    "budget",
}

# What each part of pnpgen must never import (its own package excepted).
FORBIDDEN = {
    "text": {"layout", "render", "pipeline", "commands", "cli", "schema", "checker", "rulebook", "exports"},
    "layout": {"render", "pipeline", "commands", "cli", "checker", "rulebook", "exports", "imposition"},
    "imposition": {
        "layout",
        "render",
        "text",
        "pipeline",
        "commands",
        "cli",
        "schema",
        "templating",
        "source",
    },
    "render": {
        "layout",
        "pipeline",
        "commands",
        "cli",
        "schema",
        "checker",
        "templating",
        "source",
        "exports",
    },
    "schema": {"layout", "render", "text", "pipeline", "commands", "cli", "checker", "templating", "exports"},
    "checker": {"layout", "render", "text", "imposition", "pipeline", "commands", "cli", "exports"},
    "rules": {"layout", "render", "text", "imposition", "pipeline", "commands", "cli", "exports"},
    "rulebook": {"render", "layout", "pipeline", "commands", "cli", "exports"},
    "templating": {"layout", "render", "text", "pipeline", "commands", "cli", "schema", "checker"},
    "pipeline": {"commands", "cli", "exports", "shop"},
    "commands": {"cli"},
    "exports": {"cli"},
    "shop": {"commands", "cli"},
    "changes": {"cli"},  # its command builds (commands.build) before it compares
    "serve": {"cli"},  # its command is a watch (commands.watch) that feeds the page
    "edit": {"render", "commands", "cli", "serve", "exports", "shop", "changes"},  # the one writer of sources
    "project": {"pipeline", "commands", "cli", "layout", "render", "schema"},
}
THIRD_PARTY = {  # library -> the only places that may import it
    "yaml": {"source"},
    "jinja2": {"templating"},
    "click": {"cli"},
    "reportlab": {"render", "text/fonts"},
    "markdown_it": {"rulebook"},
    "pypdfium2": {"exports", "changes", "serve"},  # those that read PDFs back: as images, face by face
    "watchfiles": {"commands/watch"},
    "svglib": {"svg"},
    "lxml": {"svg"},
    "python_calamine": {"schema/datasheets"},
    "fontTools": {"text/otf"},
    "pikepdf": {
        "shop/separate",
        "shop/pdfx",
        "shop/booklet",
    },  # PDF/X structure and CMYK separation of written PDFs
}


def modules() -> list[Path]:
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


def part_of(path: Path) -> str:
    """`layout` for pnpgen/layout/spec.py, `model` for pnpgen/model.py."""
    rel = path.relative_to(PKG)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def imports_of(path: Path) -> set[str]:
    """Every module imported anywhere in the file (function-level imports too), as dotted names."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                base = path.relative_to(PKG.parent).with_suffix("").parts[: -node.level]
                names.add(".".join((*base, node.module)))
            else:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def own_parts(path: Path) -> set[str]:
    return {n.split(".")[1] for n in imports_of(path) if n.startswith("pnpgen.") and len(n.split(".")) > 1}


def test_foundation_imports_only_foundation():
    for path in modules():
        if part_of(path) in FOUNDATION:
            bad = own_parts(path) - FOUNDATION - {"__version__"}
            assert not bad, f"{path.relative_to(PKG)} imports {sorted(bad)}"


def test_the_map_names_the_foundation_this_test_holds():
    """ARCHITECTURE.md's foundation is FOUNDATION, no module more or less (they had drifted: `budget`)."""
    text = (PKG.parent / "ARCHITECTURE.md").read_text()
    sentence = re.search(r"^- The foundation — (.*?) — imports nothing", text, re.M | re.S)
    assert sentence and set(re.findall(r"`(\w+)`", sentence.group(1))) == FOUNDATION


def test_each_part_keeps_its_arrows():
    broken = []
    for path in modules():
        part = part_of(path)
        bad = own_parts(path) & FORBIDDEN.get(part, set())
        if bad:
            broken.append(f"{path.relative_to(PKG)} imports {sorted(bad)}")
    assert not broken, "\n".join(broken)


def test_third_party_libraries_stay_in_their_place():
    broken = []
    for path in modules():
        rel = path.relative_to(PKG).with_suffix("").as_posix()
        for name in imports_of(path):
            lib = name.split(".")[0]
            allowed = THIRD_PARTY.get(lib)
            if allowed is not None and not any(rel == a or rel.startswith(a + "/") for a in allowed):
                broken.append(f"{rel} imports {lib}")
    assert not broken, "\n".join(broken)


def test_nothing_imports_the_cli():
    for path in modules():
        assert "cli" not in own_parts(path) or part_of(path) in ("__main__", "cli"), path


def test_the_unchanged_rebuild_path_imports_no_heavy_library():
    """`pnpgen build` answers an unchanged game from its manifest: the modules it needs for that import no YAML,
    Jinja, ReportLab or Markdown parser."""
    code = (
        "import sys, pnpgen.cli, pnpgen.commands.build, pnpgen.pipeline.freshness, pnpgen.project; "
        "print(sorted(m for m in ('yaml', 'jinja2', 'reportlab', 'markdown_it', 'PIL') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _pnpgen(args: list, cwd: Path, importtime: bool = False) -> subprocess.CompletedProcess:
    flags = ["-X", "importtime"] if importtime else []
    env = {**__import__("os").environ, "PYTHONPATH": str(PKG.parent)}
    return subprocess.run(
        [sys.executable, *flags, "-m", "pnpgen", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_pnpgen_build_with_nothing_to_do_imports_neither_click_nor_anything_that_draws(tmp_path):
    """`python -m pnpgen build` on an up-to-date game is answered before click is imported, with what the click
    command prints; a stale game, another flag or an unknown game still goes through click (and draws)."""
    import shutil

    shutil.copytree(PKG.parent / "tests" / "fixtures" / "basic", tmp_path / "p")
    cwd = tmp_path / "p"
    first = _pnpgen(["build", "--out", "out"], cwd, importtime=True)
    assert first.returncode == 0 and "built sample" in first.stdout, first.stderr
    assert " click" in first.stderr and " reportlab" in first.stderr  # the stale build: click, and drawing
    for args in (["build", "--out", "out"], ["build", "sample", "--out=out", "--content", "content"]):
        again = _pnpgen(args, cwd, importtime=True)
        assert again.returncode == 0 and again.stdout == "up to date sample\n", again.stdout + again.stderr
        imported = {line.rsplit("|", 1)[-1].strip() for line in again.stderr.splitlines() if "|" in line}
        heavy = {m for m in imported if m.split(".")[0] in ("click", "yaml", "jinja2", "reportlab", "PIL")}
        assert not heavy, sorted(heavy)
    click_said = subprocess.run(
        [sys.executable, "-c", "from pnpgen.cli import main; main()", "build", "--out", "out"],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    assert click_said.returncode == 0 and click_said.stdout == "up to date sample\n"
    for args, code in ((["build", "--out", "out", "--strict"], 0), (["build", "nope", "--out", "out"], 2)):
        other = _pnpgen(args, cwd, importtime=True)
        assert other.returncode == code and " click" in other.stderr, other.stdout


def test_a_deck_of_look_ups_without_a_rulebook_imports_no_jinja(tmp_path):
    """`{{ card.field }}` is answered without Jinja, so a build whose templates are all look-ups never imports it;
    a value that needs Jinja (a filter) does."""
    game = tmp_path / "content" / "g"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\ntitle: G\nplayers: 2\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: cards\nsize: poker\nfront: front\ncards:\n  - name: Ash\n    text: One\n"
    )
    layout = (
        "elements:\n  - type: text\n    x: 5\n    y: 5\n    w: 50\n    h: 10\n    text: '{{ card.%s }}'\n"
    )
    for field, jinja in (("name", False), ("name | upper", True)):
        (game / "layouts" / "front.yaml").write_text(layout % field)
        built = _pnpgen(["build", "--content", "content", "--out", "out"], tmp_path, importtime=True)
        assert built.returncode == 0, built.stdout + built.stderr
        assert (" jinja2" in built.stderr) == jinja, field


def test_the_pool_is_the_standard_librarys_and_nothing_hooks_another_librarys_import():
    """Workers start through `multiprocessing` (fork or spawn, as the platform does), never `os.fork` called by
    pnpgen; no import hook or swapped `re.compile` reaches into ReportLab while it loads."""
    import ast

    for path in modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) not in {("os", "fork"), ("sys", "meta_path")}, (
                    f"{path.relative_to(PKG)}:{node.lineno}: {node.value.id}.{node.attr}"
                )
    code = (
        "import re, sys\n"
        "before = list(sys.meta_path)\n"
        "import pnpgen.render.printall, pnpgen.render.book\n"
        "from reportlab.platypus import paragraph\n"
        "assert sys.meta_path == before and re.compile.__module__ == 're'\n"
        "print(type(paragraph.uri_pat).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "Pattern"


def test_no_module_is_over_about_400_lines():
    long = [f"{p.relative_to(PKG)}: {n}" for p in modules() if (n := len(p.read_text().splitlines())) > 420]
    assert not long, long


def test_every_output_is_a_target_and_the_pipeline_never_asks_its_kind():
    """One output protocol (`pipeline/target.py`): build targets, exports and shop exports all implement it, one
    class is called Target, and a build never asks an output which kind it is (no isinstance or hasattr on it)."""
    import inspect

    import pnpgen.exports.png
    import pnpgen.exports.tts
    import pnpgen.pipeline.printall
    import pnpgen.shop.pdfexport
    import pnpgen.shop.tgc  # noqa: F401
    from pnpgen.pipeline.target import Target

    def every(cls) -> set:
        return {cls} | {c for sub in cls.__subclasses__() for c in every(sub)}

    concrete = {
        c.__name__ for c in every(Target) if not inspect.isabstract(c) and c.__module__.startswith("pnpgen")
    }
    assert {
        *("DeckSheets", "BoardFiles", "RulebookFile", "PrintAll"),
        *("PngExport", "TtsExport", "TtsPieces", "TtsBoard"),
        *("TgcDeck", "TgcBoard", "PdfExport", "PunchboardExport", "BoardExport", "BookletExport"),
    } <= concrete
    named = [p for p in modules() if "class Target(" in p.read_text() or "class Target:" in p.read_text()]
    assert [p.relative_to(PKG).as_posix() for p in named] == ["pipeline/target.py"]
    for path in (PKG / "pipeline" / "run.py", PKG / "pipeline" / "__init__.py"):
        asked = [
            ast.unparse(node)
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call)
            and getattr(node.func, "id", "") in ("isinstance", "hasattr", "getattr")
            and ast.unparse(node.args[0]) != "self"
        ]
        assert asked == [], path


# Who may import the pipeline: what runs a command (the stages it runs never import it back).
RUNS_COMMANDS = {
    "pipeline",
    "commands",
    "exports",
    "shop",
    "changes",
    "serve",
    "cli",
    "edit",
}  # edit: staging
# The only mutable module globals: per-process registries, each documented where it is made.
PROCESS_GLOBALS = {
    ("budget.py", "_watchdogs"),
    ("codecache.py", "_stored"),
    ("pipeline/staging.py", "_held"),
    ("pipeline/staging.py", "_beating"),
    ("faces.py", "_FILE_DIGESTS"),
    ("text/fonts.py", "_DISPLAY"),
    ("text/fonts.py", "_FILES"),
    ("text/fonts.py", "_MEMBER"),
    ("text/fonts.py", "_STYLE_OF"),
}
MUTATORS = {"append", "extend", "update", "setdefault", "add", "pop", "clear", "insert", "remove", "discard"}


def test_only_what_runs_a_command_imports_the_pipeline():
    wrong = [
        f"{p.relative_to(PKG)}"
        for p in modules()
        if part_of(p) not in RUNS_COMMANDS and any(n.startswith("pnpgen.pipeline") for n in imports_of(p))
    ]
    assert not wrong, wrong


def _module_containers(tree: ast.Module) -> set[str]:
    """The names a module binds to a dict, list or set (made by a display or a call) at its top level."""
    names = set()
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        value = node.value
        made = isinstance(value, (ast.Dict, ast.List, ast.Set)) or (
            isinstance(value, ast.Call)
            and getattr(value.func, "id", getattr(value.func, "attr", ""))
            in ("dict", "list", "set", "OrderedDict", "defaultdict", "deque")
        )
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        if made and isinstance(target, ast.Name) and not target.id.startswith("__"):
            names.add(target.id)
    return names


def _changed_in_functions(tree: ast.Module, names: set[str]) -> set[str]:
    """Which of `names` a function of the module changes (an item set or deleted, a mutating method called), and
    every name a function declares `global`. (Filled once where the module is made, at its top level, a table is
    a constant.)"""
    changed = set()
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(
                node, ast.Global
            ):  # any module name a function binds again is state, container or not
                changed.update(node.names)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                base, what = node.func.value, node.func.attr
                if isinstance(base, ast.Name) and base.id in names and what in MUTATORS:
                    changed.add(base.id)
            targets = (
                node.targets
                if isinstance(node, (ast.Assign, ast.Delete))
                else [node.target]
                if isinstance(node, ast.AugAssign)
                else []
            )
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in names:
                    changed.add(t.value.id)
    return changed


def test_no_mutable_module_globals_but_the_per_process_ones():
    """Every dict, list or set a module makes is a constant, whatever its name (an upper-case name is no proof:
    `_FILE_DIGESTS` was a cache), unless a function of the module changes it: then it is a per-process
    registry, listed here and in ARCHITECTURE.md."""
    found = set()
    for path in modules():
        tree = ast.parse(path.read_text())
        for name in _changed_in_functions(tree, _module_containers(tree)):
            found.add((path.relative_to(PKG).as_posix(), name))
    assert found == PROCESS_GLOBALS
