"""The ``hclib-api`` directive: the API reference of every public module of ``hclib``.

A local Sphinx extension named in ``_config.yml``. The directive walks the ``hclib`` package
(``pkgutil.walk_packages``) and documents every public module with ``automodule``,
``:members:`` and ``:undoc-members:`` (every name of the module's ``__all__``, documented or
not), the package itself first, after an ``autosummary`` table of its top-level functions
and classes, then one section per layer (``hclib.LAYERS``, from the formulas up to the
command line) with the layer's modules under it, then the remaining top-level modules. Modules
whose name starts with ``_`` are private and skipped, as are the modules listed in
``hclib_api_skip`` (``conf.py`` / ``_config.yml``: deprecated shims, the ``__main__`` entry
point). A module added to the package appears in the reference without editing the page.
Module constants show their value only when it is short (at most ``MAX_VALUE`` characters);
the value of a registry or a table of numbers, thousands of characters on one line, would
widen the page far beyond the window, so for those the docstring alone speaks.
"""

from __future__ import annotations

import importlib
import pkgutil

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.ext.autodoc import DataDocumenter
from sphinx.util.docutils import SphinxDirective
from sphinx.util.inspect import object_description
from sphinx.util.nodes import nested_parse_with_titles

MAX_VALUE = 60


def layered(package: str, names: list[str]) -> list[tuple[str, list[str]]]:
    """``names`` grouped under their layer: ``(layer, modules)`` in the order of the package's
    ``LAYERS`` (a layer's own ``__init__`` first), then each remaining module on its own."""
    root = importlib.import_module(package)
    layers = [f"{package}.{layer}" for layer in getattr(root, "LAYERS", ())]
    groups = [(layer, [n for n in names if n == layer or n.startswith(layer + ".")])
              for layer in layers]
    placed = {n for _, members in groups for n in members}
    groups += [(n, [n]) for n in names if n not in placed and n != package]
    return [(layer, members) for layer, members in groups if members]


def public_modules(package: str, skip: set[str]) -> list[str]:
    """``package`` and its public submodules, in alphabetical order within each level."""
    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts) or info.name in skip:
            continue
        names.append(info.name)
    return sorted(names, key=lambda name: (name != package, name))


def reexported_twice(package: str, modules: list[str]) -> list[str]:
    """The names of ``package.__all__`` that its reference would document a third or second
    time: a class of one of its modules that the top-level package exports too
    (``hclib.TextMap``), and a function named as one of its modules
    (``from hclib.verification import verify``)."""
    import inspect

    pkg = importlib.import_module(package)
    top = set(getattr(importlib.import_module(package.split(".")[0]), "__all__", []))
    out = []
    for name in getattr(pkg, "__all__", []):
        obj = getattr(pkg, name, None)
        home = getattr(obj, "__module__", "")
        if inspect.isclass(obj) and home != package and home in modules and name in top:
            out.append(name)
        elif callable(obj) and not inspect.isclass(obj) and f"{package}.{name}" in modules:
            out.append(name)
    return out


class HclibAPI(SphinxDirective):
    """Emit one section with ``automodule`` per public module of the package."""

    has_content = False
    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        package = self.arguments[0] if self.arguments else "hclib"
        skip = set(self.config.hclib_api_skip)
        names = public_modules(package, skip)
        root = importlib.import_module(package)
        functions = [m for m in root.__all__ if callable(getattr(root, m))]
        title = f"``{package}``"
        lines: list[str] = [title, "-" * len(title), "", ".. autosummary::",
                            "   :nosignatures:", ""]
        lines += [f"   {package}.{member}" for member in functions] + [""]
        lines += [f".. automodule:: {package}", "   :members:", "   :undoc-members:", ""]
        for layer, members in layered(package, names):
            title = f"``{layer}``"
            lines += [title, "-" * len(title), ""]
            for name in members:
                if name != layer:
                    sub = f"``{name}``"
                    lines += [sub, "~" * len(sub), ""]
                lines += [f".. automodule:: {name}", "   :members:", "   :undoc-members:"]
                if name == layer:  # a layer's package: its tools' classes, and a function
                    # named as its module (hclib.verification.verify), are documented in
                    # their own modules, not twice
                    twice = reexported_twice(name, names)
                    if twice:
                        lines.append(f"   :exclude-members: {', '.join(twice)}")
                lines.append("")
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="hclib-api"),
                                 container)
        return container.children


class ShortValueDocumenter(DataDocumenter):
    """Module data, with its value only when that fits ``MAX_VALUE`` characters."""

    def should_suppress_value_header(self) -> bool:
        if super().should_suppress_value_header():
            return True
        try:
            return len(object_description(self.object)) > MAX_VALUE
        except ValueError:
            return False


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.autosummary")
    app.add_config_value("hclib_api_skip", ["hclib.__main__"], "env")
    app.add_directive("hclib-api", HclibAPI)
    app.add_autodocumenter(ShortValueDocumenter, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
