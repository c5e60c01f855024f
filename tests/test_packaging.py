"""The installed package: its version, its type hints and its subpackages.

CI runs this file also against the wheel installed in a fresh virtual environment.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import files, metadata, version
from importlib.resources import files as package_files
from pathlib import Path

import pytest

import hclib


def test_version_is_the_installed_metadata() -> None:
    assert hclib.__version__ == version("hclib")
    out = subprocess.run([sys.executable, "-m", "hclib", "--version"], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == f"hclib {version('hclib')}"


def test_subpackages_typing_marker_and_data_are_installed() -> None:
    assert package_files("hclib").joinpath("py.typed").is_file()
    for name in ("gutenberg-manifest.csv", "pan18-test-files.tsv", "pan18-train-files.tsv"):
        assert package_files("hclib.downloads").joinpath("data", name).is_file()
    import hclib.studies.pan  # noqa: F401  (the subpackage the hand-written list left out)

    assert hclib.studies.pan.__name__ == "hclib.studies.pan"


def test_license_travels_with_the_distribution() -> None:
    """An installed (not editable) hclib carries the licence and the SPDX expression."""
    root = Path(__file__).resolve().parents[1]
    if Path(hclib.__file__).resolve().parents[1] == root:
        pytest.skip("hclib is imported from this checkout, not from an installed wheel")
    assert any(str(f).endswith("licenses/LICENSE") for f in files("hclib") or [])
    assert metadata("hclib")["License-Expression"] == "MIT"


def test_pyproject_finds_packages_and_declares_the_license() -> None:
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("run outside the checkout (the wheel test in CI)")
    tomllib = pytest.importorskip("tomllib")                # Python 3.11+
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    assert config["project"]["license"] == "MIT"
    packages = config["tool"]["setuptools"]["packages"]
    assert packages == {"find": {"include": ["hclib*"]}}    # found, not listed by hand


def test_every_module_imports_from_where_hclib_is_installed() -> None:
    """Every module of the package imports (against a wheel: from site-packages, with no
    checkout beside it), and every stored table of hclib.studies is there."""
    import importlib
    import pkgutil

    names = [m.name for m in pkgutil.walk_packages(hclib.__path__, "hclib.")
             if m.name != "hclib.__main__"]
    assert len(names) > 40 and "hclib.studies.trust" in names
    for name in names:
        module = importlib.import_module(name)
        assert Path(module.__file__).resolve().is_relative_to(
            Path(hclib.__file__).resolve().parent), name
    data = package_files("hclib.studies").joinpath("data")
    stored = {p.name for p in Path(str(data)).glob("*.csv")}
    assert {"your_texts.csv", "short_texts.csv", "trust_folds.csv", "trust_confirmation.csv",
            "trust_balance.csv"} <= stored
