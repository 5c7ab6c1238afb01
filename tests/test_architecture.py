"""The stages' arrows point one way: the model knows nothing of YAML, Jinja, ReportLab or click."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "pnpgen"


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_model_and_faces_are_plain():
    for name in ("model.py", "faces.py", "imposition.py", "units.py", "errors.py"):
        assert not imports_of(PKG / name) & {"yaml", "jinja2", "reportlab", "click"}, name


def test_only_source_imports_yaml_only_templating_imports_jinja():
    for path in PKG.rglob("*.py"):
        found = imports_of(path)
        if "yaml" in found:
            assert path.name == "source.py", path
        if "jinja2" in found:
            assert path.name == "templating.py", path
        if "reportlab" in found:  # drawing in render/, font metrics in text/fonts.py
            assert path.parent.name == "render" or path.as_posix().endswith("text/fonts.py"), path
        if "click" in found:
            assert path.name == "cli.py", path
