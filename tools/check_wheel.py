"""Check a built wheel against the checkout: every module and data file of ``hclib``,
``py.typed`` and the licence are in it, each byte for byte the checkout's (so the tests run
on the checkout have tested the wheel's code; CI then runs only the tests of what installing
can break against the installed wheel), and nothing is listed twice.

    python tools/check_wheel.py dist/hclib-*.whl

Exits with status 1 and lists what is missing.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FILES = ("*.py", "py.typed", "*.csv", "*.tsv")


def expected_files(root: Path = ROOT) -> set[str]:
    """Every file of the hclib package in the checkout that the wheel must carry."""
    found = {path.relative_to(root).as_posix()
             for pattern in PACKAGE_FILES for path in (root / "hclib").rglob(pattern)}
    return {name for name in found if "__pycache__" not in name}


def missing_from(wheel: Path, root: Path = ROOT) -> list[str]:
    """What the wheel lacks: package files (or holds in another version than the
    checkout's), and the licence under .dist-info/licenses/."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        expected = expected_files(root)
        changed = sorted(f"{name} (differs from the checkout's)"
                         for name in expected & set(names)
                         if archive.read(name) != (root / name).read_bytes())
    missing = sorted(expected - set(names)) + changed
    if not any(name.endswith(".dist-info/licenses/LICENSE") for name in names):
        missing.append("*.dist-info/licenses/LICENSE")
    return missing


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/check_wheel.py WHEEL", file=sys.stderr)
        return 2
    missing = missing_from(Path(argv[0]))
    for name in missing:
        print(f"missing from the wheel: {name}")
    if not missing:
        print(f"{argv[0]}: every hclib module, its data, py.typed and LICENSE are in it, "
              f"each the checkout's")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
