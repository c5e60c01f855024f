"""The package's layers: imports flow one way, from the tool down to the formulas.

Every import of an ``hclib`` module inside ``hclib/`` (at the top of a module or inside a
function) is read with :mod:`ast`; a module may import its own layer and the layers below it,
never one above. The top-level ``hclib/__init__.py`` (the public API) and ``__main__`` may
import any layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hclib

PACKAGE = Path(hclib.__file__).parent

#: The layers, from the bottom up: ``_checks`` (the input checks), ``_results`` (the interface
#: every result shares) and ``plotting`` (the book's figure style), which import nothing of
#: hclib and which every layer may use, then the subpackages in the package's own order.
LAYERS = ("_checks", "_results", "plotting", *hclib.LAYERS)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every ``hclib`` module that ``path`` imports, relative imports resolved (with each
    imported name appended too, since ``from hclib.texts import tokens`` imports a module)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "hclib")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "hclib":
                continue
            found.add(target)  # and each name, which may be a module (from hclib import cli)
            found.update(f"{target}.{a.name}" for a in node.names)
    return found


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


#: Every module but the public API (``hclib/__init__.py``) and the ``python -m hclib`` entry.
MODULES = sorted(set(PACKAGE.rglob("*.py")) - {PACKAGE / "__init__.py", PACKAGE / "__main__.py"})


def test_the_layers_are_the_subpackages():
    subpackages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert subpackages == set(hclib.LAYERS)


def test_every_module_is_in_a_layer():
    loose = [module_name(p) for p in MODULES if layer(module_name(p)) is None]
    assert not loose, f"modules outside every layer: {loose}"


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_imports_flow_down(path):
    own = LAYERS.index(layer(module_name(path)))
    above = sorted(m for m in imported_modules(path)
                   if layer(m) is not None and LAYERS.index(layer(m)) > own)
    assert not above, f"{module_name(path)} imports a layer above its own: {above}"


def test_the_checker_sees_imports_inside_functions(tmp_path):
    """The checker would catch a lazy import of a layer above (the bug it exists for)."""
    path = PACKAGE / "formulas" / "hc.py"
    found = imported_modules(path)
    assert "hclib._checks" in found
    source = "def f():\n    from ..attribution import pipeline\n"
    fake = PACKAGE / "formulas" / "_layers_probe.py"
    try:
        fake.write_text(source)
        assert "hclib.attribution.pipeline" in imported_modules(fake)
    finally:
        fake.unlink()


def test_no_module_is_much_over_600_lines():
    long = {module_name(p): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 620}
    assert not long, f"modules over about 600 lines (one concept each): {long}"


def test_no_docstring_holds_a_control_character():
    """A backslash in a docstring that is not raw is an escape: ``\\alpha`` became a bell and
    ``\\text`` a tab, and Sphinx typeset nonsense. Formulas go in raw docstrings (``r\"\"\"``)."""
    control = set("\x07\x08\x0b\x0c\t\r")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc and control & set(doc):
                    found.append(f"{module_name(path)}:{getattr(node, 'lineno', 1)}")
    assert not found, found
