"""The API reference's module listing (tools/sphinx_hclib_api.py), generated from the package."""

from __future__ import annotations

import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import sphinx_hclib_api  # noqa: E402


def test_public_modules_lists_the_package_first_and_skips_private_and_shims() -> None:
    names = sphinx_hclib_api.public_modules("hclib", {"hclib.__main__"})
    assert names[0] == "hclib"
    assert names[1:] == sorted(names[1:])
    assert {"hclib.formulas.pvalues", "hclib.formulas.hc", "hclib.studies", "hclib.studies.federalist",
            "hclib.studies.published", "hclib.plotting"} <= set(names)
    assert not any(part.startswith("_") for name in names for part in name.split("."))
    assert "hclib.__main__" not in names


def test_the_reference_is_grouped_by_layer_in_the_package_order() -> None:
    import hclib

    names = sphinx_hclib_api.public_modules("hclib", {"hclib.__main__"})
    groups = sphinx_hclib_api.layered("hclib", names)
    layers = [layer for layer, _ in groups]
    assert layers[: len(hclib.LAYERS)] == [f"hclib.{layer}" for layer in hclib.LAYERS]
    assert layers[len(hclib.LAYERS):] == ["hclib.plotting"]
    for layer, members in groups:
        assert members[0] == layer and all(m.startswith(layer) for m in members)
    placed = [m for _, members in groups for m in members]
    assert sorted(placed) == sorted(n for n in names if n != "hclib")


def test_every_public_module_has_a_docstring_and_an_all() -> None:
    import importlib

    for name in sphinx_hclib_api.public_modules("hclib", {"hclib.__main__"}):
        module = importlib.import_module(name)
        assert (module.__doc__ or "").strip(), f"{name} has no module docstring"
        assert hasattr(module, "__all__"), f"{name} has no __all__"
