"""Damaged data: every case found by fault injection raises a clear error naming file and remedy.

Each test builds an ``HCLIB_DATA_DIR`` of copies (links to the shared data, the damaged file a
real copy) and works offline: any HTTP download fails the test.
"""

from __future__ import annotations

import json
import lzma
import os
import shutil
from pathlib import Path

import nltk
import pooch
import pytest

from hclib.texts import cleaning
from hclib.corpora import gutenberg, gutenberg_text, pan, wordlists
from hclib.downloads.registry import DataIntegrityError, DataNotFoundError

SHARED = Path(os.environ.get("HCLIB_DATA_DIR", Path(__file__).resolve().parents[2] / "shared"
                             / "data"))
pytestmark = pytest.mark.skipif(not (SHARED / "gutenberg" / "texts").is_dir(),
                                reason="the shared data folder is not available")
PAN_TEST = pan.PAN18_COLLECTIONS["test"]
PROBLEM = f"{PAN_TEST}/problem00001"


@pytest.fixture
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An HCLIB_DATA_DIR of links to the shared data; :func:`_damage` makes one file a copy."""
    folder = tmp_path / "data"
    for top in ("federalist", "wordlists", "pan18", "gutenberg"):
        shutil.copytree(SHARED / top, folder / top, copy_function=os.symlink)
    monkeypatch.setenv("HCLIB_DATA_DIR", str(folder))
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HCLIB_SOURCE_MIRROR", raising=False)

    def refuse(self: object, url: str, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"test tried to download {url}")

    monkeypatch.setattr(pooch.HTTPDownloader, "__call__", refuse)
    return folder


def _damage(folder: Path, rel: str, change) -> Path:
    """Replace the link ``rel`` by a copy changed by ``change(bytes) -> bytes``."""
    path = folder / rel
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(change(data))
    return path


def _flip(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1 :]


def _assert_names(message: str, path: Path, *remedy: str) -> None:
    assert str(path) in message or path.name in message, message
    for words in remedy:
        assert words in message, message


@pytest.mark.parametrize("change", [_flip, lambda d: b"\n".join(d.split(b"\n")[:126]) + b"\n"],
                         ids=["letter flipped", "cut to 125 of 206 rows"])
def test_mosteller_wallace_damaged(data_dir: Path, change) -> None:
    path = _damage(data_dir, wordlists.MW_RELPATH, change)
    with pytest.raises(DataIntegrityError) as caught:
        wordlists.load_mosteller_wallace()
    _assert_names(str(caught.value), path, "To fix", "hclib data fetch")


@pytest.mark.parametrize("change", [_flip, lambda d: d[: len(d) // 2]], ids=["flipped", "cut"])
def test_pan_text_damaged(data_dir: Path, change) -> None:
    path = _damage(data_dir, f"{PROBLEM}/candidate00003/known00002.txt", change)
    with pytest.raises(DataIntegrityError) as caught:
        pan.load_pan18("test")
    _assert_names(str(caught.value), path, "To fix")


def test_pan_text_listed_in_ground_truth_but_missing(data_dir: Path) -> None:
    (data_dir / PROBLEM / "unknown" / "unknown00042.txt").unlink()
    with pytest.raises(DataNotFoundError) as caught:  # offline: it cannot be downloaded either
        pan.load_pan18("test")
    _assert_names(str(caught.value), Path("unknown00042.txt"), "To fix")
    # a folder read without checksums says which text ground-truth.json lists but lacks
    with pytest.raises(ValueError, match="ground-truth.json lists unknown/unknown00042.txt but "
                                         "the text is missing"):
        pan.read_pan18(data_dir / PAN_TEST)


def test_pan_json_broken(data_dir: Path) -> None:
    path = _damage(data_dir, f"{PROBLEM}/ground-truth.json", lambda d: d[:-40])
    with pytest.raises(DataIntegrityError) as caught:
        pan.load_pan18("test")
    _assert_names(str(caught.value), path, "To fix")
    with pytest.raises(DataIntegrityError, match="is not valid JSON") as caught:
        pan.read_pan18(data_dir / PAN_TEST)  # without checksums: the parse error, named
    _assert_names(str(caught.value), path, "hclib data fetch pan18")
    assert not isinstance(caught.value, json.JSONDecodeError)


def test_pan_json_nested_too_deeply(data_dir: Path) -> None:
    path = _damage(data_dir, f"{PROBLEM}/ground-truth.json", lambda d: b"[" * 100_000)
    with pytest.raises(DataIntegrityError, match="not valid JSON \\(nested too deeply\\)"):
        pan.read_pan18(data_dir / PAN_TEST)  # a RecursionError before
    assert path.is_file()


def test_gutenberg_manifest_cut_mid_row(data_dir: Path, tmp_path: Path) -> None:
    cut = lambda d: d[: len(d) // 2]  # noqa: E731 - ends inside a row
    path = _damage(data_dir, "gutenberg/manifest.csv", cut)
    with pytest.raises(DataIntegrityError) as caught:
        gutenberg.read_manifest()
    _assert_names(str(caught.value), path, "To fix")
    # a collection folder of one's own (no pinned hash): the short last row is named
    own = tmp_path / "own"
    own.mkdir()
    (own / "manifest.csv").write_bytes(path.read_bytes())
    with pytest.raises(DataIntegrityError, match=r"row \d+ has \d+ fields, the header 13"):
        gutenberg.read_manifest(own)


def _first_work(author: str) -> str:
    manifest = gutenberg.read_manifest()
    return manifest.loc[manifest["author"] == author, "file"].iloc[0]


@pytest.mark.parametrize("change", [lambda d: d[: len(d) // 2], _flip],
                         ids=["truncated", "byte flipped"])
def test_gutenberg_xz_damaged(data_dir: Path, change) -> None:
    author = "Russell, Bertrand"
    path = _damage(data_dir, f"gutenberg/{_first_work(author)}", change)
    with pytest.raises(DataIntegrityError) as caught:
        gutenberg.load_collection(authors=[author], vocabulary=["the"], min_works=1,
                                  min_words=1)
    _assert_names(str(caught.value), path, "hclib data fetch gutenberg")
    assert not isinstance(caught.value, (EOFError, lzma.LZMAError))


def _tagger_failure() -> str:
    """The message of the error that loading the POS tagger raises (caches cleared)."""
    cleaning._tagger.cache_clear()
    try:
        with pytest.raises(cleaning.NLTKResourceError) as caught:
            cleaning._tagger()
    finally:
        cleaning._tagger.cache_clear()
    return str(caught.value)


def test_nltk_zip_truncated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    source = SHARED / "nltk_data" / "taggers" / "averaged_perceptron_tagger_eng.zip"
    target = tmp_path / "nltk" / "taggers" / source.name
    target.parent.mkdir(parents=True)
    target.write_bytes(source.read_bytes()[: source.stat().st_size // 2])
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "nltk")])
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    _assert_names(_tagger_failure(), target, "damaged", "hclib data fetch nltk")


def test_missing_nltk_resource_says_which_command_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "empty")])
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", (tmp_path / "empty-mirror").as_uri())
    first_line = _tagger_failure().splitlines()[0]
    assert "averaged_perceptron_tagger_eng" in first_line
    assert "run `hclib data fetch nltk`" in first_line


def test_missing_nltk_resource_is_downloaded_on_first_use(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Like the corpora, a missing tagger is fetched into the cache on first use (through a
    file:// mirror laid out like NLTK's data repository) and then loads."""
    from urllib.parse import urlparse

    from hclib.downloads import nltk_data

    source = Path(os.environ["NLTK_DATA"]) / "taggers" / "averaged_perceptron_tagger_eng.zip"
    url = urlparse(f"{nltk_data.NLTK_BASE_URL}/taggers/averaged_perceptron_tagger_eng.zip")
    mirrored = tmp_path / "mirror" / url.netloc / url.path.lstrip("/")
    mirrored.parent.mkdir(parents=True)
    mirrored.write_bytes(source.read_bytes())
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "empty")])
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", (tmp_path / "mirror").as_uri())
    cleaning._tagger.cache_clear()
    try:
        tagger = cleaning._tagger()
    finally:
        cleaning._tagger.cache_clear()
    assert tagger.tag(["the", "papers"])[0] == ("the", "DT")
    cached = tmp_path / "cache" / "nltk_data" / "taggers" / "averaged_perceptron_tagger_eng.zip"
    assert cached.read_bytes() == source.read_bytes()


def test_strip_boilerplate_rejects_none() -> None:
    with pytest.raises(TypeError, match="text must be a str or bytes, got NoneType"):
        gutenberg_text.strip_boilerplate(None)  # type: ignore[arg-type]


def test_mosteller_wallace_notebook_without_a_typo_is_rejected() -> None:
    cell = "\n".join(f"{var} = ['a']" for var in wordlists.MW_LISTS)
    notebook = json.dumps({"cells": [{"cell_type": "code", "source": [cell]}]}).encode()
    with pytest.raises(ValueError, match="expected the typo 'sarne' once"):
        wordlists.parse_mosteller_wallace(notebook)
    with pytest.raises(ValueError, match="no cell defining"):
        wordlists.parse_mosteller_wallace(json.dumps({"cells": []}).encode())
