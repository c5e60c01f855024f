"""The NLTK resources the book uses: WordNet and the English averaged-perceptron POS tagger.

NLTK looks for them on ``nltk.data.path`` (``$NLTK_DATA`` first). ``hclib data fetch nltk``, or the
first use in :mod:`hclib.texts.cleaning`, downloads a missing one from NLTK's own data repository
into ``<cache>/nltk_data`` (as the zip NLTK reads), after checking that the zip is whole (every
member's CRC), and
:func:`add_search_path` puts that folder on ``nltk.data.path``. NLTK's repository publishes
on a moving branch, so these downloads have no pinned sha256: they are verified, then cached.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from .registry import (FETCH_COMMAND, DataIntegrityError, DataNotFoundError, cache_dir,
                       reach_advice, source_shown)
from .transfer import atomic_write, download_bytes

__all__ = [
    "NLTK_PACKAGES",
    "NLTK_BASE_URL",
    "nltk_cache",
    "add_search_path",
    "find_resource",
    "check_zip",
    "fetch_package",
]

#: package -> its folder in NLTK's data layout.
NLTK_PACKAGES: dict[str, str] = {
    "wordnet": "corpora",
    "averaged_perceptron_tagger_eng": "taggers",
}
NLTK_BASE_URL = "https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages"


def nltk_cache() -> Path:
    """hclib's folder of NLTK data: ``<cache>/nltk_data``."""
    return cache_dir() / "nltk_data"


def add_search_path() -> None:
    """Append :func:`nltk_cache` to ``nltk.data.path`` (once)."""
    import nltk

    folder = str(nltk_cache())
    if folder not in nltk.data.path:
        nltk.data.path.append(folder)


def find_resource(package: str) -> Path | None:
    """The installed zip or folder of an NLTK ``package`` on the search path, or None."""
    import nltk

    add_search_path()
    kind = NLTK_PACKAGES[package]
    for base in nltk.data.path:
        for candidate in (Path(base) / kind / f"{package}.zip", Path(base) / kind / package):
            if candidate.exists():
                return candidate
    return None


def check_zip(data: bytes | Path, package: str, origin: str) -> None:
    """Raise :class:`~hclib.downloads.registry.DataIntegrityError` unless ``data`` is a whole zip of ``package/``."""
    try:
        source = io.BytesIO(data) if isinstance(data, bytes) else data
        with zipfile.ZipFile(source) as archive:
            bad = archive.testzip()
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        bad, names = f"({type(exc).__name__}: {exc})", []
    if bad is not None or not any(n.startswith(f"{package}/") for n in names):
        raise DataIntegrityError(
            f"NLTK resource {package} from {origin} is damaged or not the expected zip "
            f"(bad member {bad}); delete it and run `{FETCH_COMMAND} nltk`"
        )


def fetch_package(package: str, *, force: bool = False, verify: bool = False) -> Path:
    """Install NLTK ``package`` into :func:`nltk_cache` unless NLTK already finds it.

    ``verify``: a zip found is checked (:func:`check_zip`); a damaged one in hclib's cache is
    fetched again, a damaged one elsewhere on NLTK's path is an error naming it."""
    if package not in NLTK_PACKAGES:
        raise ValueError(f"unknown NLTK package {package!r}; expected one of {list(NLTK_PACKAGES)}")
    found = find_resource(package)
    if found is not None and verify and found.is_file():
        try:
            check_zip(found, package, str(found))
        except DataIntegrityError:
            if not found.is_relative_to(nltk_cache()):
                raise
            force = True  # a damaged copy in hclib's cache is fetched again
    if found is not None and not force:
        return found
    kind = NLTK_PACKAGES[package]
    url = f"{NLTK_BASE_URL}/{kind}/{package}.zip"
    try:
        data = download_bytes(url)
    except Exception as exc:  # network or mirror failure: say what and where
        raise DataNotFoundError(
            f"NLTK resource {package}: downloading {source_shown(url)} failed "
            f"({type(exc).__name__}: {exc}); {reach_advice(url)} and run "
            f"`{FETCH_COMMAND} nltk` again"
        ) from exc
    check_zip(data, package, url)
    target = nltk_cache() / kind / f"{package}.zip"
    atomic_write(target, data)
    return target
