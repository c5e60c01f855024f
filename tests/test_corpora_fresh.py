"""A fresh machine: every dataset downloaded from a ``file://`` mirror laid out as the real sources.

The mirror (``$HCLIB_SOURCE_MIRROR``) is built from the shared data folder: the same bytes at
``<mirror>/<host>/<path>`` of every pinned URL, and raw-style Gutenberg files (header, credits,
footer; one variant per stripping rule, see ``raw_gutenberg.py``) for a small subset of authors.
With ``HCLIB_DATA_DIR`` unset and an empty cache, every loader must return what it returns from
``HCLIB_DATA_DIR``. Three inputs cannot be the real files here, and their pins are replaced for
the test only: the paper's notebook (a notebook holding the same cell is built from the TSV by
undoing the three corrections), the PAN 2018 test zip (rebuilt from the shared files) and the
NLTK zips (served from the shared copies).
"""

from __future__ import annotations

import hashlib
import io
import json
import lzma
import os
import time
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import nltk
import numpy as np
import pandas as pd
import pooch
import pytest
from raw_gutenberg import make_raw

from hclib.cli.command import main
from hclib.corpora import datasets, gutenberg, pan, wordlists
from hclib.downloads import fetch, nltk_data, registry
from hclib.corpora.federalist import load_federalist
from hclib.downloads.fetch import data_file
from hclib.downloads.registry import REGISTRY, DataIntegrityError, DataNotFoundError

SHARED = Path(os.environ.get("HCLIB_DATA_DIR", Path(__file__).resolve().parents[2] / "shared"
                             / "data"))
pytestmark = pytest.mark.skipif(not (SHARED / "gutenberg" / "texts").is_dir(),
                                reason="the shared data folder is not available")

#: A small subset: an rcdm-uga author (20 works; one source path holds a carriage return). The
#: mirror also holds one GITenberg work and one work whose source path holds a "?".
AUTHORS = ["Shaw, Bernard"]
VOCABULARY = 500


def _mirror_path(mirror: Path, url: str) -> Path:
    """Where ``url`` (https) lies in a mirror (percent-encoding undone, as file:// reads it)."""
    parsed = urlparse(url)
    return mirror / parsed.netloc / unquote(parsed.path.lstrip("/"))


def _put(mirror: Path, url: str, data: bytes) -> None:
    target = _mirror_path(mirror, url)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _notebook_from_tsv(tsv: Path) -> bytes:
    """A notebook whose one code cell defines the four lists, with the notebook's three typos."""
    table = pd.read_csv(tsv, sep="\t", keep_default_na=False)
    typos = {v: k for k, v in wordlists.MW_CORRECTIONS.items()}
    lists = {name: [typos.get(w, w) if name.startswith("additional") else w
                    for w in table.loc[table["list"] == name, "word"]]
             for name in wordlists.MW_LISTS.values()}
    source = "".join(f"{var} = {lists[name]!r}\n\n" for var, name in
                     reversed(list(wordlists.MW_LISTS.items())))
    cells = [{"cell_type": "markdown", "source": ["# Federalist"]},
             {"cell_type": "code", "source": source.splitlines(keepends=True)}]
    return json.dumps({"cells": cells, "nbformat": 4}).encode()


def _pan_test_zip() -> bytes:
    """The shared PAN test collection zipped under the uploader's top folder name."""
    root = SHARED / registry.PAN18_TEST
    top = registry.ARCHIVES[registry.PAN18_TEST].root
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(root.rglob("*")):
            if file.is_file():
                archive.write(file, f"{top}/{file.relative_to(root).as_posix()}")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The mirror folder and the test-only pins (notebook, PAN zip)."""
    base = tmp_path_factory.mktemp("mirror")
    for rel, (url, _) in REGISTRY.items():
        if url is not None and (SHARED / rel).is_file():  # the PAN names list may be absent
            _put(base, url, (SHARED / rel).read_bytes())
    notebook = _notebook_from_tsv(SHARED / wordlists.MW_RELPATH)
    _put(base, wordlists.MW_NOTEBOOK_URL, notebook)
    zipped = _pan_test_zip()
    _put(base, registry.ARCHIVES[registry.PAN18_TEST].url, zipped)
    for path in pan.collection_files("train"):
        inner = path.removeprefix(pan.PAN18_TRAIN + "/")
        _put(base, f"{pan._TRAIN_BASE}/{inner}", (SHARED / path).read_bytes())
    manifest = gutenberg.read_manifest()
    extra = [manifest.index[manifest["source_repo"].str.startswith("GITenberg/")][0],
             manifest.index[manifest["source_path"].str.contains("?", regex=False)][0]]
    rows = pd.concat([manifest[manifest["author"].isin(AUTHORS)], manifest.loc[extra]])
    for i, row in enumerate(rows.itertuples()):
        text = lzma.decompress((SHARED / "gutenberg" / row.file).read_bytes()).decode("utf-8")
        _put(base, gutenberg.raw_source_url(row._asdict()), make_raw(text, i))
    for package, kind in nltk_data.NLTK_PACKAGES.items():
        _put(base, f"{nltk_data.NLTK_BASE_URL}/{kind}/{package}.zip",
             (SHARED / "nltk_data" / kind / f"{package}.zip").read_bytes())
    return {"base": base, "notebook_sha": hashlib.sha256(notebook).hexdigest(),
            "zip_sha": hashlib.sha256(zipped).hexdigest(), "rows": rows}


@pytest.fixture
def fresh(mirror: dict, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No HCLIB_DATA_DIR, an empty cache, the mirror, no NLTK data on NLTK's path."""
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", mirror["base"].as_uri())
    monkeypatch.setattr(wordlists, "MW_NOTEBOOK_SHA256", mirror["notebook_sha"])
    archive = registry.ARCHIVES[registry.PAN18_TEST]
    monkeypatch.setitem(registry.ARCHIVES, registry.PAN18_TEST,
                        registry.Archive(archive.url, mirror["zip_sha"], archive.root, archive.files))
    monkeypatch.setattr(nltk.data, "path", [])

    def refuse(self: object, url: str, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"test tried to download {url}")

    monkeypatch.setattr(pooch.HTTPDownloader, "__call__", refuse)
    return tmp_path / "cache"


def _loaders() -> dict[str, object]:
    """Every loader's output on the current settings."""
    collection = gutenberg.load_collection(authors=AUTHORS, vocabulary=VOCABULARY,
                                           min_works=1, min_words=1)
    return {
        "federalist": load_federalist(),
        "common": wordlists.load_common_words(),
        "mw": wordlists.load_mosteller_wallace(),
        "pan-test": pan.load_pan18("test"),
        "pan-train": pan.load_pan18("train"),
        "works": collection.works,
        "counts": collection.counts,
        "paper": {rel: data_file(rel).read_bytes() for rel in REGISTRY
                  if rel.startswith("gutenberg/paper/")},
    }


def _assert_same(a: dict, b: dict) -> None:
    for key in a:
        if isinstance(a[key], pd.DataFrame):
            pd.testing.assert_frame_equal(a[key], b[key], obj=key)
        elif isinstance(a[key], np.ndarray):
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        else:
            assert a[key] == b[key], key


@pytest.fixture(scope="module")
def reference() -> dict:
    """Every loader's output from HCLIB_DATA_DIR."""
    with pytest.MonkeyPatch.context() as m:
        m.setenv("HCLIB_DATA_DIR", str(SHARED))
        return _loaders()


def test_fetch_command_then_every_loader_equals_the_data_dir(
    reference: dict, fresh: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["data", "fetch", "federalist", "wordlists", "pan18", "nltk"]) == 0
    assert main(["data", "fetch", "gutenberg", "--authors", *AUTHORS]) == 0
    assert "gutenberg: 24 files ready" in capsys.readouterr().out  # 4 paper tables + 20 works
    _assert_same(_loaders(), reference)
    # every downloaded Gutenberg text is byte for byte the shipped stripped text
    works = gutenberg.read_manifest()
    works = works[works["author"].isin(AUTHORS)]
    assert len(works) == 20 and works["source_path"].str.contains("\r").sum() == 1
    for file, sha in zip(works["file"], works["sha256_utf8"]):
        assert hashlib.sha256(lzma.decompress((fresh / "gutenberg" / file).read_bytes())
                              ).hexdigest() == sha
    # NLTK: installed in the cache, found by NLTK through the added search path
    for package in nltk_data.NLTK_PACKAGES:
        found = nltk_data.find_resource(package)
        assert found is not None and found.is_relative_to(fresh)
    assert nltk.data.find("corpora/wordnet.zip")

    assert main(["data", "status", "federalist", "pan18", "nltk"]) == 0
    table = capsys.readouterr().out
    assert "cache 1/1" in table and "cache 874/874" in table and "cache 2/2" in table
    assert table.count("yes") == 3


def test_lazy_downloads_on_first_use(reference: dict, fresh: Path, mirror: dict) -> None:
    """Without `hclib data fetch`, the loaders download what they need (only that)."""
    _assert_same(_loaders(), reference)
    texts = list((fresh / "gutenberg" / "texts").iterdir())
    assert len(texts) == 20  # only the chosen author's works
    # a GITenberg work, and a source path with "?" (percent-encoded as %3F in its URL)
    rows = mirror["rows"].iloc[-2:]
    assert rows["source_repo"].iloc[0].startswith("GITenberg/")
    assert "%3F" in gutenberg.raw_source_url(rows.iloc[1])
    paths = fetch.fetch_all([f"gutenberg/{file}" for file in rows["file"]])
    for path, sha in zip(paths, rows["sha256_utf8"]):
        assert hashlib.sha256(lzma.decompress(path.read_bytes())).hexdigest() == sha


def test_status_reports_missing_and_damaged(fresh: Path, mirror: dict) -> None:
    table = datasets.status(["federalist", "pan18"])
    assert table["found"].tolist() == ["missing", "missing"]
    data_file("federalist/pg1404.txt")
    cached = fresh / "federalist" / "pg1404.txt"
    cached.write_bytes(cached.read_bytes()[:-10])
    assert datasets.status(["federalist"])["verified"].tolist() == ["NO (1 files)"]
    # ... and the loader fetches a verified copy in place of the damaged one
    assert len(load_federalist()) == 85
    assert datasets.status(["federalist"])["verified"].tolist() == ["yes"]


def test_gutenberg_mismatch_names_work_url_and_hashes(fresh: Path, mirror: dict) -> None:
    row = mirror["rows"][mirror["rows"]["author"] == AUTHORS[0]].iloc[0]
    url = gutenberg.raw_source_url(row)
    source = _mirror_path(mirror["base"], url)
    original = source.read_bytes()
    try:
        middle = len(original) // 2  # inside the body, not the boilerplate
        source.write_bytes(original[:middle] + b"#" + original[middle + 1 :])
        with pytest.raises(DataIntegrityError) as caught:
            data_file(f"gutenberg/{row['file']}")
    finally:
        source.write_bytes(original)
    message = str(caught.value)
    assert row["file"] in message and row["title"] in message and url in message
    assert row["sha256_utf8"] in message and "has sha256 " in message
    assert not (fresh / "gutenberg" / row["file"]).exists()  # nothing partial is kept


def test_truncated_archive_is_not_reused(fresh: Path, mirror: dict) -> None:
    """A download cut short fails its sha256, leaves nothing behind, and a retry succeeds."""
    url = registry.ARCHIVES[registry.PAN18_TEST].url
    source = _mirror_path(mirror["base"], url)
    original = source.read_bytes()
    try:
        source.write_bytes(original[: len(original) // 2])
        with pytest.raises(DataNotFoundError, match="(?i)hash"):
            pan.load_pan18("test")
    finally:
        source.write_bytes(original)
    # no thread fetches the (now whole) archive again behind the caller's back: the archive
    # is fetched once, before the threads (a CI run failed
    # once when each waiting thread could)
    time.sleep(1.0)
    leftovers = [p for p in fresh.rglob("*") if p.is_file()]
    assert leftovers == []
    assert len(pan.load_pan18("test")) == 559


def test_a_damaged_or_removed_pan_test_file_is_repaired(fresh: Path, mirror: dict,
                                                        capsys: pytest.CaptureFixture) -> None:
    """Issue: a damaged or removed file of the extracted PAN 2018 test collection was never
    fetched again ('does not contain it'), and `hclib data status` pointed back to the fetch."""
    files = pan.collection_files("test")
    fetch.fetch_all(files, progress=False)
    damaged, removed = fresh / files[5], fresh / files[10]
    originals = damaged.read_bytes(), removed.read_bytes()
    damaged.write_bytes(originals[0][:-20] + b"#" * 20)
    removed.unlink()
    assert main(["data", "status", "pan18"]) == 1
    assert "run `hclib data fetch pan18`" in capsys.readouterr().out
    assert main(["data", "fetch", "pan18"]) == 0  # the step the status names works
    assert (damaged.read_bytes(), removed.read_bytes()) == originals
    assert main(["data", "status", "pan18"]) == 0
    # the loader repairs too, and a missing listed file is extracted again, not "not contained"
    removed.unlink()
    damaged.write_bytes(b"")
    assert len(pan.load_pan18("test")) == 559
    assert (damaged.read_bytes(), removed.read_bytes()) == originals
    assert not [p for p in fresh.rglob("*") if "hclib-" in p.name]  # no temporaries left
    capsys.readouterr()


def test_unknown_author_is_an_error(fresh: Path) -> None:
    with pytest.raises(ValueError, match=r"authors: \['Nobody'\] not in the manifest"):
        gutenberg.load_collection(authors=["Nobody"])
    with pytest.raises(TypeError, match="authors must be a sequence"):
        gutenberg.load_collection(authors="Twain, Mark")
    assert main(["data", "fetch", "federalist", "--authors", "X"]) == 2
    assert main(["data", "status", "nosuch"]) == 2


def test_mirror_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HCLIB_SOURCE_MIRROR", raising=False)
    assert registry.source_url("https://example.org/a/b.txt") == "https://example.org/a/b.txt"
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", "https://mirror.example.edu/hclib/")
    assert registry.source_url("https://example.org/a/b%3F.txt") == (
        "https://mirror.example.edu/hclib/example.org/a/b%3F.txt")
    assert registry.source_url("file:///x/y") == "file:///x/y"

