"""Downloading into the cache: atomic writes, cancellation and stale temporaries, archives
(zip or tar, extracted into a staging folder and checked file by file) and the salvage of a
truncated zip.

Every write is atomic (a temporary file ``.<name>.hclib-<pid>-*.part`` renamed into place), so
nothing partial survives a failed or interrupted download: :func:`cancel_downloads` removes the
temporary files of this process and :func:`remove_stale_temporaries` those of a killed one.
"""

from __future__ import annotations

import fnmatch
import io
import os
import re
import shutil
import struct
import tarfile
import tempfile
import threading
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO
from urllib.parse import urlparse
from urllib.request import url2pathname

import pooch

from .registry import (CACHE_DIR_ENV, DATA_DIR_ENV, Archive, CacheWriteError,
                       DataIntegrityError, _sha256, cache_dir, read_checksum_list, sha256_bytes,
                       source_shown, source_url, verify_file)

__all__ = ["MAX_DOWNLOAD_BYTES", "DownloadTooLargeError", "atomic_write", "cancel_downloads", "download_bytes",
           "download_verified", "remove_stale_temporaries"]

#: The most bytes one download may bring (256 MiB; hclib's largest source, the PAN 2018
#: test archive, is far smaller): a source or mirror that sends more is cut off, so that an
#: endless stream cannot fill the memory.
MAX_DOWNLOAD_BYTES = 256 * 2**20


# ------------------------------------------------------------------ downloading


_CANCELLED = threading.Event()
_TEMPS: set[Path] = set()
_TEMPS_LOCK = threading.Lock()
_TEMP_RE = re.compile(r"\.hclib-(\d+)-[^/]*\.part$|^\.extract-hclib-(\d+)-")


class _Cancelled(Exception):
    """Downloads were cancelled (:func:`cancel_downloads`)."""


def _temporary(path: Path) -> None:
    with _TEMPS_LOCK:
        if _CANCELLED.is_set():
            shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(
                missing_ok=True)
            raise _Cancelled("downloads were cancelled")
        _TEMPS.add(path)


def _done(path: Path) -> None:
    with _TEMPS_LOCK:
        _TEMPS.discard(path)


def cancel_downloads() -> int:
    """Stop writing into the cache and remove this process's temporary files; their number."""
    with _TEMPS_LOCK:
        _CANCELLED.set()
        temps = list(_TEMPS)
        _TEMPS.clear()
    for path in temps:
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
    return len(temps)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale_temporaries(root: Path | None = None, *,
                             errors: list[str] | None = None) -> int:
    """Remove the temporary files and folders left in the cache by a process that was killed
    (their names carry its process id); the number removed. Best effort: one that cannot be
    removed (a read-only cache) is left, and described in ``errors`` if given."""
    root = cache_dir() if root is None else root
    if not root.is_dir():
        return 0
    removed = 0
    for folder, dirs, files in os.walk(root):
        for name in [*files, *dirs]:
            match = _TEMP_RE.search(name)
            if match is None or _alive(int(match.group(1) or match.group(2))):
                continue
            path = Path(folder) / name
            try:
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
            except OSError as exc:
                if errors is not None:
                    errors.append(f"{path}: {exc.strerror or exc}")
                continue
            removed += 1
        dirs[:] = [d for d in dirs if (Path(folder) / d).exists()]
    return removed


def atomic_write(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file renamed into place.

    A write that fails (read-only cache, full disk) raises
    :class:`~hclib.downloads.registry.CacheWriteError` with the
    cause and the fix."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.hclib-{os.getpid()}-",
                                        suffix=".part", dir=target.parent)
    except OSError as exc:
        raise _write_error(target, exc) from exc
    temporary = Path(name)
    try:
        _temporary(temporary)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        with _TEMPS_LOCK:
            if _CANCELLED.is_set():
                raise _Cancelled("downloads were cancelled")
            os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise _write_error(target, exc) from exc
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        _done(temporary)


def _write_error(target: Path, exc: OSError) -> CacheWriteError:
    return CacheWriteError(
        f"cannot write {target}: {exc.strerror or exc}. To fix: free space or make "
        f"{target.parent} writable, or set ${CACHE_DIR_ENV} to a writable folder (or "
        f"${DATA_DIR_ENV} to a folder that holds the data)")


def download_verified(url: str, expected: str, what: str, remedy: str) -> bytes:
    """:func:`download_bytes`, refused unless its sha256 is ``expected`` (nothing is saved).

    ``what`` names the file in the message and ``remedy`` says what to do, e.g.
    ``"run `hclib data fetch pan18` again"``."""
    data = download_bytes(url)
    actual = sha256_bytes(data)
    if actual != expected:
        raise DataIntegrityError(
            f"{what} downloaded from {source_shown(url)} has sha256 {actual}, expected {expected}: the "
            f"download was damaged or the source changed. Nothing was saved; {remedy}."
        )
    return data


class DownloadTooLargeError(ValueError):
    """A download brought more bytes than its limit (:data:`MAX_DOWNLOAD_BYTES`)."""


class _CappedSink(io.BytesIO):
    """A memory sink that refuses to hold more than ``limit`` bytes."""

    def __init__(self, url: str, limit: int) -> None:
        super().__init__()
        self.url, self.limit = url, limit

    def write(self, data: Any) -> int:  # type: ignore[override]
        if self.tell() + len(data) > self.limit:
            raise DownloadTooLargeError(
                f"the download from {source_shown(self.url)} is larger than {self.limit:,} "
                "bytes, far more than expected: stopped (is the source or mirror sending "
                "the right file?)")
        return super().write(data)


def download_bytes(url: str, max_bytes: int | None = None) -> bytes:
    """The content at ``url`` (through :func:`~hclib.downloads.registry.source_url`): http(s)
    via pooch, or ``file://``; :class:`DownloadTooLargeError` past ``max_bytes`` (default
    :data:`MAX_DOWNLOAD_BYTES`)."""
    url = source_url(url)
    sink = _CappedSink(url, MAX_DOWNLOAD_BYTES if max_bytes is None else max_bytes)
    if urlparse(url).scheme == "file":
        _copy_file_url(url, sink)
        return sink.getvalue()
    pooch.HTTPDownloader(timeout=60)(url, sink, None)
    return sink.getvalue()


def _copy_file_url(url: str, output_file: str | BinaryIO, pooch_obj: Any = None) -> None:
    """A pooch downloader for ``file://`` URLs (local mirrors; also used by the tests)."""
    source = Path(url2pathname(urlparse(url).path))
    if not source.is_file():
        raise FileNotFoundError(f"no file at {url}")
    if isinstance(output_file, (str, os.PathLike)):
        shutil.copyfile(source, output_file)
    else:
        with source.open("rb") as stream:
            shutil.copyfileobj(stream, output_file)


def _download(url: str, sha256: str | None, target: Path) -> Path:
    """Download ``url`` to ``target`` (atomic); an existing copy is kept if its sha256 (where
    known) verifies, else fetched again."""
    if target.is_file():
        if sha256 is None:
            return target
        try:
            verify_file(target, target.name, sha256, url)
            return target
        except DataIntegrityError:
            target.unlink(missing_ok=True)  # a damaged cached copy is fetched again
    data = download_bytes(url)
    if sha256 is not None and sha256_bytes(data) != sha256.lower():
        raise ValueError(f"the SHA256 hash of the download, {sha256_bytes(data)}, does not "
                         f"match the pinned {sha256}: it was cut short or the source changed")
    atomic_write(target, data)
    return target


def _fetch_archive(key: str, archive: Archive, cache: Path) -> None:
    """Download ``archive``, extract its ``root`` folder, verify it, rename it to ``cache/key``.

    If ``cache/key`` is there already, each listed file of it that is missing or fails its
    sha256 is replaced by the one extracted (a repair); the others are left as they are."""
    if archive.sha256 is None and archive.files is None:
        raise ValueError(f"archive {archive.url} has neither a sha256 nor a per-file list")
    name = PurePosixPath(urlparse(archive.url).path).name or "archive"
    downloads = cache / "_downloads"
    downloaded = _download(archive.url, archive.sha256, downloads / name)
    dest = cache / key
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".extract-hclib-{os.getpid()}-",
                                        dir=dest.parent))
    except OSError as exc:
        raise _write_error(dest, exc) from exc
    try:
        _temporary(staging)
        expected = read_checksum_list(archive.files) if archive.files else None
        count = _extract(downloaded, archive.root, staging, keep=expected)
        if count == 0:
            raise ValueError(f"{downloaded} has no files under {archive.root!r}")
        if expected is not None:
            for path, sha in expected.items():
                extracted = staging / path
                if not extracted.is_file():
                    raise DataIntegrityError(f"{archive.url} lacks {archive.root}/{path}")
                actual = _sha256(extracted)
                if actual != sha:
                    raise DataIntegrityError(
                        f"{path} extracted from {archive.url} has sha256 {actual}, expected {sha}"
                    )
        if dest.is_dir() and expected is not None:
            _repair(dest, staging, expected)
            return
        try:
            staging.replace(dest)
        except OSError:
            if not dest.is_dir():  # else another process extracted it meanwhile
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        _done(staging)
        downloaded.unlink(missing_ok=True)  # never reused: a retry downloads it afresh


def _repair(dest: Path, staging: Path, expected: dict[str, str]) -> None:
    """Move each file of ``staging`` into ``dest`` where ``dest``'s copy is missing or fails
    its sha256 (each move atomic)."""
    for path, sha in expected.items():
        target = dest / path
        if target.is_file() and _sha256(target) == sha:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / path, target)


def _extract(archive: Path, root: str, dest: Path, keep: Iterable[str] | None = None) -> int:
    """Write the files under ``root`` (a glob per component) in ``archive`` into ``dest``."""
    pattern = PurePosixPath(root).parts
    wanted = set(keep) if keep is not None else None
    count = 0
    for name, content in _archive_members(archive):
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if len(parts) <= len(pattern) or ".." in parts or parts[0] == "/":
            continue
        if not all(fnmatch.fnmatchcase(p, q) for p, q in zip(parts, pattern)):
            continue
        inner = parts[len(pattern):]
        if wanted is not None and PurePosixPath(*inner).as_posix() not in wanted:
            continue
        target = dest.joinpath(*inner)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        count += 1
    return count


def _archive_members(archive: Path) -> Iterator[tuple[str, bytes]]:
    """(name, content) of every regular file in a zip or tar archive."""
    with archive.open("rb") as stream:
        is_zip = stream.read(4) == b"PK\x03\x04"
    if is_zip:
        yield from _zip_members(archive)
        return
    with tarfile.open(archive) as tar:
        for member in tar:
            handle = tar.extractfile(member) if member.isfile() else None
            if handle is not None:
                yield member.name, handle.read()


def _zip_members(archive: Path) -> Iterator[tuple[str, bytes]]:
    """Zip members, read through the central directory, or salvaged if the zip is truncated.

    A truncated zip (like the PAN 2018 test collection's public copy) has no central directory,
    so :mod:`zipfile` cannot open it; its complete entries are then read from their local file
    headers, in order, stopping at the first incomplete one.
    """
    try:
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if not info.is_dir():
                    yield info.filename, zf.read(info)
        return
    except zipfile.BadZipFile:
        pass
    yield from _salvage_zip(archive.read_bytes())


_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")


def _salvage_zip(data: bytes) -> Iterator[tuple[str, bytes]]:
    """Complete stored/deflated entries of a zip read sequentially from its local headers."""
    view = memoryview(data)
    pos = 0
    while data.startswith(b"PK\x03\x04", pos) and pos + _LOCAL_HEADER.size <= len(data):
        (_, _, flags, method, _, _, crc, size, _, name_len, extra_len) = _LOCAL_HEADER.unpack_from(
            data, pos
        )
        start = pos + _LOCAL_HEADER.size
        name = bytes(view[start : start + name_len]).decode("utf-8" if flags & 0x800 else "cp437")
        start += name_len + extra_len
        streamed = bool(flags & 0x08)  # sizes and CRC in a data descriptor after the data
        if method == 8:
            content, end = _inflate(view, start, None if streamed else size)
        elif method == 0 and not streamed:
            content, end = bytes(view[start : start + size]), start + size
        else:
            return  # unsupported entry: nothing after it can be located
        if content is None or end > len(data):
            return  # truncated inside this entry
        if streamed:
            if data.startswith(b"PK\x07\x08", end):
                end += 4
            if end + 12 > len(data):
                return
            (crc,) = struct.unpack_from("<I", data, end)
            end += 12
        if zlib.crc32(content) != crc:
            return
        if not name.endswith("/"):
            yield name, content
        pos = end


def _inflate(view: memoryview, start: int, size: int | None) -> tuple[bytes | None, int]:
    """Inflate a raw deflate stream at ``start``; return (content or None if cut short, end)."""
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    stop = len(view) if size is None else min(len(view), start + size)
    chunks: list[bytes] = []
    pos = start
    while pos < stop and not inflater.eof:
        chunk = view[pos : min(stop, pos + (1 << 16))]
        chunks.append(inflater.decompress(chunk))
        pos += len(chunk)
    if not inflater.eof:
        return None, pos
    return b"".join(chunks), pos - len(inflater.unused_data)
