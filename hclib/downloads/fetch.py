"""Finding, fetching and verifying data files: the one place where hclib resolves data.

Files are named by a *relpath* laid out like the project's data folder (``federalist/pg1404.txt``,
``wordlists/...``, ``pan18/<collection>/...``, ``gutenberg/texts/pg<ID>.txt.xz``).
:func:`data_file` resolves a relpath to a local path:

1. ``$HCLIB_DATA_DIR/<relpath>`` if that exists (a folder laid out like the data folder). A file
   with a known sha256 (:func:`~hclib.downloads.registry.checksum`) is checked against it, once per
   process; a mismatch raises :class:`~hclib.downloads.registry.DataIntegrityError` naming the file
   and the remedy.
2. Otherwise the user cache (``$HCLIB_CACHE_DIR``, default ``pooch.os_cache("hclib")``),
   downloading into it from the file's original public source, pinned by commit and checked by
   sha256. Three kinds of source:

   * single files (:data:`~hclib.downloads.registry.REGISTRY`: URL and sha256 of the download);
   * archives (:data:`~hclib.downloads.registry.ARCHIVES`: the PAN 2018 test collection's zip), extracted into a staging
     folder, checked against a per-file sha256 list and only then renamed into the cache;
   * *recipes* registered by the corpus modules (:func:`~hclib.downloads.registry.register_source`): per-file PAN 2018
     training texts, Gutenberg works stripped from their raw sources, the Mosteller–Wallace list
     parsed from the paper's notebook. Each recipe verifies what it builds before writing it.

   Every write is atomic (a temporary file ``.<name>.hclib-<pid>-*.part`` renamed into place), so
   nothing partial survives a failed or interrupted download:
   :func:`~hclib.downloads.transfer.cancel_downloads` removes the temporary files of this process
   (``hclib data fetch`` calls it on Ctrl-C or SIGTERM) and
   :func:`~hclib.downloads.transfer.remove_stale_temporaries` those of a process that was killed. A
   cached file that fails its checksum (or, in :func:`fetch_all` with ``recheck``, its registered
   check, :func:`~hclib.downloads.registry.register_verifier`) is fetched again.
3. Otherwise :class:`~hclib.downloads.registry.DataNotFoundError`, naming every place looked at and how to get the file.

A ``$HCLIB_DATA_DIR`` that is set but is not a folder is an error
(:class:`~hclib.downloads.registry.DataNotFoundError`), not silently ignored.

``HCLIB_SOURCE_MIRROR=<base URL>`` sends every download of ``https://HOST/PATH`` to ``<base
URL>/HOST/PATH`` (:func:`~hclib.downloads.registry.source_url`): a local or institutional mirror,
``file://`` included.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from tqdm import tqdm

from .registry import (ARCHIVES, DATA_DIR_ENV, FETCH_COMMAND, REGISTRY, CacheWriteError,
                       DataIntegrityError, DataNotFoundError, _lock, _normalize, _recipe, _under,
                       _verifier, cache_dir, checksum, reach_advice, source_shown,
                       verify_file)
from .transfer import _CANCELLED, DownloadTooLargeError, _download, _fetch_archive

__all__ = ["data_file", "fetch_all", "locate"]


# ------------------------------------------------------------------ locating files


def data_dir() -> Path | None:
    """``$HCLIB_DATA_DIR`` as a folder, None if unset; DataNotFoundError if it is set to
    something that is not a folder."""
    value = os.environ.get(DATA_DIR_ENV)
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_dir():
        raise DataNotFoundError(
            f"${DATA_DIR_ENV} is set to {value}, which is not a folder. To fix: point it at a "
            f"folder laid out like hclib's data folder, or unset it to use the cache "
            f"({cache_dir()}), which `{FETCH_COMMAND}` fills.")
    return path


def locate(relpath: str) -> tuple[Path, str] | None:
    """Where ``relpath`` is now, without downloading: ``(path, "HCLIB_DATA_DIR" or "cache")``."""
    rel = _normalize(relpath)
    folder = data_dir()
    if folder is not None and (folder / rel).exists():
        return folder / rel, DATA_DIR_ENV
    if (cache_dir() / rel).exists():
        return cache_dir() / rel, "cache"
    return None


def data_file(relpath: str, *, recheck: bool = False) -> Path:
    """Return a local path to the data file (or dataset folder) ``relpath``.

    Looks in ``$HCLIB_DATA_DIR`` first (verifying the pinned sha256 where there is one), then in
    :func:`~hclib.downloads.registry.cache_dir`, downloading from the original source if needed. Raises
    :class:`~hclib.downloads.registry.DataNotFoundError` if it cannot be found or fetched, :class:`~hclib.downloads.registry.DataIntegrityError` if
    the ``$HCLIB_DATA_DIR`` copy fails its checksum. ``recheck``: a cached file with a
    registered check (:func:`~hclib.downloads.registry.register_verifier`) is checked, and fetched
    again if damaged.
    """
    rel = _normalize(relpath)
    url, sha256 = REGISTRY.get(rel, (None, None))
    sha256 = checksum(rel)
    looked: list[str] = []

    folder = data_dir()
    if folder is not None:
        local = folder / rel
        if local.exists():
            if sha256 and local.is_file():
                verify_file(local, rel, sha256, url)
            return local
        looked.append(f"{local} (${DATA_DIR_ENV})")
    else:
        looked.append(f"${DATA_DIR_ENV} (not set)")

    cache = cache_dir()
    cached = cache / rel
    looked.append(f"{cached} (cache)")
    archive_key = _archive_key(rel)
    recipe = None if archive_key is not None or url is not None else _recipe(rel)
    try:
        if archive_key is not None:
            archive = ARCHIVES[archive_key]
            url = archive.url
            with _lock(archive_key):  # one download per archive, however many threads ask
                if not (cache / archive_key).is_dir() or _damaged_member(cached, rel, sha256):
                    _fetch_archive(archive_key, archive, cache)  # extracts, or repairs
        elif url is not None:
            _download(url, sha256, cached)  # no-op if cached and (where known) hash-verified
        elif recipe is not None:
            url, build = recipe
            verifier = _verifier(rel) if recheck else None
            if cached.is_file() and (sha256 or verifier):
                try:
                    if sha256:
                        verify_file(cached, rel, sha256, url)
                    if verifier is not None:
                        verifier(rel, cached)
                except DataIntegrityError:
                    cached.unlink()  # a damaged cached copy is fetched again
            if not cached.exists():
                build(cached)
    except (DataIntegrityError, CacheWriteError, DownloadTooLargeError):  # each says why
        raise
    except Exception as exc:  # any download or extraction failure
        raise DataNotFoundError(_not_found(rel, looked, url, exc)) from exc
    if cached.exists():
        if archive_key is not None and sha256 and cached.is_file():
            verify_file(cached, rel, sha256, url)
        return cached
    raise DataNotFoundError(_not_found(rel, looked, url, None))


def fetch_all(
    relpaths: Sequence[str], *, workers: int = 8, desc: str = "downloading",
    progress: bool | None = None, recheck: bool = False,
) -> list[Path]:
    """:func:`data_file` of every relpath, downloading missing ones in parallel threads.

    A tqdm bar counts files (``progress=None``: shown once it takes over 2 s). An archive
    (:data:`~hclib.downloads.registry.ARCHIVES`) is fetched once, before the threads start. The
    first failure is raised at once (files not yet started are not attempted); so is Ctrl-C,
    without waiting for the downloads under way (whatever they write is complete or nothing).
    """
    if not relpaths:
        return []
    _CANCELLED.clear()
    bar = tqdm(total=len(relpaths), unit="file", desc=desc, delay=0 if progress else 2.0,
               disable=progress is False)

    def one(rel: str) -> Path:
        path = data_file(rel, recheck=recheck)
        bar.update()  # only a file that is ready counts: a failure never shows as done
        return path

    # each archive is fetched once before the threads start: a thread waiting for an
    # archive's lock would otherwise fetch it again after a failure, behind the caller's back
    first_of_archive: dict[str, str] = {}
    try:
        for rel in relpaths:
            key = _archive_key(_normalize(rel))
            if key is not None:
                first_of_archive.setdefault(key, rel)
        for rel in first_of_archive.values():
            data_file(rel, recheck=recheck)
    except BaseException:
        bar.close()
        raise
    pool = ThreadPoolExecutor(max(1, min(workers, len(relpaths))))
    try:
        futures = [pool.submit(one, rel) for rel in relpaths]
        for future in as_completed(futures):
            if future.exception() is not None:  # fail fast: later files are not attempted
                raise future.exception()  # type: ignore[misc]
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
        raise
    pool.shutdown(wait=True)
    bar.close()
    return [f.result() for f in futures]


def _damaged_member(cached: Path, rel: str, sha256: str | None) -> bool:
    """True when ``rel``, a file of an extracted archive with a pinned sha256, is missing from
    the cache or fails its checksum: the archive is then extracted again to repair it."""
    if sha256 is None:
        return False  # not a listed file of the archive: nothing to repair it from
    if not cached.is_file():
        return True
    try:
        verify_file(cached, rel, sha256)
    except DataIntegrityError:
        return True
    return False


def _archive_key(rel: str) -> str | None:
    """The ARCHIVES key whose folder contains ``rel`` (or is ``rel``), if any."""
    for key in ARCHIVES:
        if _under(rel, key):
            return key
    return None


def _not_found(rel: str, looked: list[str], url: str | None, error: Exception | None) -> str:
    """The message of a DataNotFoundError: the file, where it was looked for, how to get it."""
    lines = [f"hclib data file {rel!r} was not found. Looked in:"]
    lines += [f"  - {place}" for place in looked]
    if url is None:
        lines.append(f"It has no public download source: it must be supplied via ${DATA_DIR_ENV}.")
    elif error is not None:  # with $HCLIB_SOURCE_MIRROR set, the mirror's address failed
        lines.append(f"Downloading it from {source_shown(url)} failed: "
                     f"{type(error).__name__}: {error}")
    else:
        lines.append(f"The download from {source_shown(url)} does not contain it.")
    remedy = f"To fix: set {DATA_DIR_ENV} to a folder laid out like hclib's data folder"
    remedy += f" (containing {rel})"
    if url:
        remedy += f", or {reach_advice(url)} and run `{FETCH_COMMAND}`."
    else:
        remedy += "."
    lines.append(remedy)
    return "\n".join(lines)
