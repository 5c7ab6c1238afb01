"""The stages' arrows point one way (see ARCHITECTURE.md): checked on every import of every module, both of
third-party libraries and of pnpgen's own packages."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "pnpgen"

# The plain values every stage may use; they import nothing of pnpgen but each other.
FOUNDATION = {
    "errors",
    "units",
    "names",
    "colours",
    "shapes",
    "faces",
    "model",
    "recorded",
    "inputs",
    "source",
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
    "rulebook": {"render", "layout", "pipeline", "commands", "cli", "exports"},
    "templating": {"layout", "render", "text", "pipeline", "commands", "cli", "schema", "checker"},
    "pipeline": {"commands", "cli", "exports", "shop"},
    "commands": {"cli"},
    "exports": {"cli"},
    "shop": {"commands", "cli"},
    "changes": {"commands", "cli"},
    "serve": {"commands", "cli"},
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
    "python_calamine": {"datasheets"},
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


def test_no_module_is_over_about_400_lines():
    long = [f"{p.relative_to(PKG)}: {n}" for p in modules() if (n := len(p.read_text().splitlines())) > 420]
    assert not long, long
