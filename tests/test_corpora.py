"""Tests for hclib.corpora (fetch, federalist, pan, wordlists): locating, verifying and downloading data files, and the corpus loaders.

Tests that need the real corpora use $HCLIB_DATA_DIR, or else ``<repo>/../shared/data``, and skip
when neither exists. Nothing here touches the network: downloads come from ``file://`` URLs, and
any HTTP request fails the test.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pooch
import pytest

from hclib.downloads import registry, transfer
from hclib.corpora.federalist import federalist_study_papers, load_federalist, parse_federalist
from hclib.downloads.fetch import data_file
from hclib.downloads.registry import (ARCHIVES, REGISTRY, Archive, DataIntegrityError,
                                      DataNotFoundError)
from hclib.corpora.pan import load_pan18, read_pan18
from hclib.corpora.wordlists import load_common_words, load_mosteller_wallace

FEDERALIST = "federalist/pg1404.txt"
COMMON_WORDS = "wordlists/google-books-common-words.txt"
PAN_TEST = "pan18/pan18-cross-domain-authorship-attribution-test-dataset2-2018-04-20"
PAN_TRAIN = "pan18/pan18-cross-domain-authorship-attribution-training-dataset-2017-12-02"


def _shared_data() -> Path | None:
    env = os.environ.get("HCLIB_DATA_DIR")
    if env:
        return Path(env).resolve()
    default = Path(__file__).resolve().parents[2] / "shared" / "data"
    return default if default.is_dir() else None


SHARED = _shared_data()
needs_data = pytest.mark.skipif(
    SHARED is None,
    reason="real corpora not available: set HCLIB_DATA_DIR or place shared/data beside the repo",
)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test gets an empty cache, and any HTTP(S)/FTP download fails at once."""
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))

    def refuse(self: object, url: str, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"test tried to download {url}")

    monkeypatch.setattr(pooch.HTTPDownloader, "__call__", refuse)
    monkeypatch.setattr(pooch.FTPDownloader, "__call__", refuse)


@pytest.fixture
def real_data(monkeypatch: pytest.MonkeyPatch) -> Path:
    """HCLIB_DATA_DIR pointing at the real corpora."""
    assert SHARED is not None
    monkeypatch.setenv("HCLIB_DATA_DIR", str(SHARED))
    return SHARED


@pytest.fixture
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """HCLIB_DATA_DIR pointing at an empty temporary folder."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("HCLIB_DATA_DIR", str(folder))
    return folder


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ------------------------------------------------------------------ Federalist


@pytest.fixture
def federalist(real_data: Path) -> pd.DataFrame:
    return load_federalist()


@needs_data
def test_federalist_has_85_papers_with_standard_attribution(federalist: pd.DataFrame) -> None:
    assert list(federalist.columns[:4]) == ["doc_id", "author", "title", "text"]
    assert federalist["doc_id"].tolist() == list(range(1, 86))
    first_77 = federalist[federalist["doc_id"] <= 77]["author"].value_counts().to_dict()
    assert first_77 == {"Hamilton": 43, "Madison": 14, "disputed": 12, "Jay": 5, "joint": 3}
    assert federalist["author"].value_counts().to_dict() == {
        "Hamilton": 51, "Madison": 14, "disputed": 12, "Jay": 5, "joint": 3
    }
    by_number = federalist.set_index("doc_id")["author"]
    assert by_number[[49, 50, 55, 58, 62, 63]].eq("disputed").all()
    assert by_number[[18, 19, 20]].eq("joint").all()
    assert by_number[[10, 14, 37, 48]].eq("Madison").all()
    assert by_number[[2, 5, 64]].eq("Jay").all()
    assert by_number[[1, 11, 36, 59, 65, 85]].eq("Hamilton").all()


@needs_data
def test_federalist_texts_have_no_header_signature_or_boilerplate(
    federalist: pd.DataFrame,
) -> None:
    byline = re.compile(r"^\s*(HAMILTON|MADISON|JAY)\b[A-Z ,]*$|^\s*MADISON, with HAMILTON\s*$")
    for number, text in zip(federalist["doc_id"], federalist["text"]):
        assert len(text.split()) > 900, number
        assert not any(byline.match(line) for line in text.splitlines()), number
        for leak in ["To the People of the State of New York", "FEDERALIST No", "PUBLIUS",
                     "Project Gutenberg", "Independent Journal", "(E1)", "(1)"]:
            assert leak not in text, (number, leak)


@needs_data
def test_federalist_texts_start_and_end_where_the_papers_do(federalist: pd.DataFrame) -> None:
    text = federalist.set_index("doc_id")["text"]
    assert text[10].startswith("AMONG the numerous advantages promised by a well constructed Union")
    assert text[1].startswith("AFTER an unequivocal experience of the inefficacy")
    assert _words(text[1]).endswith("the subject of my next address.")
    # No. 11's signature line carries a footnote; No. 37 has no signature at all.
    assert _words(text[11]).endswith("between the old and the new world!")
    assert _words(text[37]).endswith("diminished by delays or by new experiments.")
    # The last paper ends before its footnotes and the Gutenberg licence.
    assert _words(text[85]).endswith("national government in every possible shape.")


@needs_data
def test_federalist_titles_exclude_newspaper_and_date(federalist: pd.DataFrame) -> None:
    title = federalist.set_index("doc_id")["title"]
    assert title[1] == "General Introduction"
    assert title[10] == (
        "The Same Subject Continued (The Union as a Safeguard Against Domestic Faction and "
        "Insurrection)"
    )
    assert title[85] == "Concluding Remarks"
    assert not title.str.contains(r"Journal|Packet|Advertiser|Edition|17\d\d").any()


@needs_data
def test_federalist_edition_variants_are_kept_once(federalist: pd.DataFrame) -> None:
    text = federalist.set_index("doc_id")["text"]
    # No. 70 prints this paragraph twice (two editions): keep it once.
    assert text[70].count("But one of the weightiest objections") == 1
    # No. 77 prints two endings of one sentence: keep the first.
    assert "would produce all the good, without the ill." in _words(text[77])
    assert "good of that of appointment" not in text[77]
    # Nos. 36 and 56: the first of two versions of a paragraph.
    assert "I have now gone through the examination of such of the powers" in _words(text[36])
    assert "so glorious an example to mankind" not in text[36]
    assert "The observations made on the subject of taxation" in _words(text[56])
    assert "With regard to the regulation of the militia" not in text[56]


def _fake_federalist(numbers: list[int]) -> str:
    """A tiny etext in #1404's layout, one paper per number, with Gutenberg markers."""
    papers = [
        f"FEDERALIST No. {n}\r\n\r\nTitle {n} Continued (About\r\nThings)\r\n\r\n"
        f"For the Independent Journal. Saturday, October 27, 1787\r\n\r\nHAMILTON\r\n\r\n"
        f"To the People of the State of New York:\r\n\r\nBody of paper {n}, copy {i}.(1)\r\n\r\n"
        f"PUBLIUS\r\n\r\n1. A footnote.\r\n\r\n\r\n"
        for i, n in enumerate(numbers)
    ]
    return (
        "\ufeffheader\r\n*** START OF THIS PROJECT GUTENBERG EBOOK X ***\r\n"
        + "".join(papers)
        + "*** END OF THIS PROJECT GUTENBERG EBOOK X ***\r\nlicence PUBLIUS\r\n"
    )


def test_parse_federalist_keeps_the_first_copy_of_a_repeated_paper() -> None:
    numbers = [*range(1, 71), 70, *range(71, 86)]
    table = parse_federalist(_fake_federalist(numbers))
    assert table["doc_id"].tolist() == list(range(1, 86))
    paper70 = table.set_index("doc_id").loc[70]
    assert paper70["text"] == "Body of paper 70, copy 69."
    assert paper70["title"] == "Title 70 Continued (About Things)"
    assert paper70["author"] == "Hamilton"


def test_parse_federalist_rejects_missing_papers_and_headers() -> None:
    with pytest.raises(ValueError, match=r"missing \[85\]"):
        parse_federalist(_fake_federalist(list(range(1, 85))))
    broken = _fake_federalist(list(range(1, 86))).replace("HAMILTON\r\n", "", 1)
    with pytest.raises(ValueError, match="No. 1: no author byline"):
        parse_federalist(broken)


# ------------------------------------------------------------------ PAN 2018


@needs_data
def test_pan18_test_collection(real_data: Path) -> None:
    pan = load_pan18("test")
    assert list(pan.columns) == ["problem", "doc_id", "role", "author", "text"]
    assert set(pan["role"]) == {"known", "unknown"}
    known = pan[pan["role"] == "known"]
    unknown = pan[pan["role"] == "unknown"]
    candidates = known.groupby("problem")["author"].nunique().tolist()
    assert candidates == [20, 15, 10, 5]
    assert known.groupby(["problem", "author"]).size().eq(7).all()
    assert unknown.groupby("problem").size().tolist() == [79, 74, 40, 16]
    for problem, group in unknown.groupby("problem"):
        assert set(group["author"]) <= set(known[known["problem"] == problem]["author"])
    doc_id = r"candidate\d{5}/known\d{5}\.txt|unknown/unknown\d{5}\.txt"
    assert pan["doc_id"].str.fullmatch(doc_id).all()
    row = pan[(pan["problem"] == "problem00004") & (pan["doc_id"] == "unknown/unknown00001.txt")]
    assert row["author"].tolist() == ["candidate00002"]
    assert pan["text"].str.strip().str.len().gt(0).all()


@needs_data
def test_pan18_train_collection(real_data: Path) -> None:
    pan = load_pan18("train")
    assert sorted(pan["problem"].unique()) == ["problem00001", "problem00002"]
    known = pan[pan["role"] == "known"]
    assert known.groupby("problem")["author"].nunique().tolist() == [20, 5]
    assert pan[pan["role"] == "unknown"].groupby("problem").size().tolist() == [105, 21]


def test_pan18_unknown_collection_name() -> None:
    with pytest.raises(ValueError, match="unknown PAN 2018 collection 'dev'"):
        load_pan18("dev")


def _fake_pan(root: Path, top: str = PAN_TEST) -> Path:
    """A tiny PAN 2018 collection: one English problem (2 candidates) and one French problem."""
    base = root / top
    problem = base / "problem00001"
    for candidate in ["candidate00001", "candidate00002"]:
        (problem / candidate).mkdir(parents=True)
        for k in (1, 2):
            (problem / candidate / f"known{k:05d}.txt").write_text(f"text {k} by {candidate}")
    (problem / "unknown").mkdir()
    truth = []
    for u, author in [(1, "candidate00002"), (2, "candidate00001")]:
        (problem / "unknown" / f"unknown{u:05d}.txt").write_text(f"unknown text {u}")
        truth.append({"unknown-text": f"unknown{u:05d}.txt", "true-author": author})
    (problem / "ground-truth.json").write_text(json.dumps({"ground_truth": truth}))
    info = {"unknown-folder": "unknown",
            "candidate-authors": [{"author-name": "candidate00001"},
                                  {"author-name": "candidate00002"}]}
    (problem / "problem-info.json").write_text(json.dumps(info))
    collection = [{"problem-name": "problem00001", "language": "en", "encoding": "UTF-8"},
                  {"problem-name": "problem00002", "language": "fr", "encoding": "UTF-8"}]
    (base / "collection-info.json").write_text(json.dumps(collection))
    return problem


def test_pan18_reads_a_well_formed_tree(data_dir: Path) -> None:
    _fake_pan(data_dir)
    pan = read_pan18(data_dir / PAN_TEST)
    assert pan["doc_id"].tolist() == [
        "candidate00001/known00001.txt", "candidate00001/known00002.txt",
        "candidate00002/known00001.txt", "candidate00002/known00002.txt",
        "unknown/unknown00001.txt", "unknown/unknown00002.txt",
    ]
    assert pan["author"].tolist()[-2:] == ["candidate00002", "candidate00001"]
    assert pan["role"].tolist() == ["known"] * 4 + ["unknown"] * 2
    assert set(pan["problem"]) == {"problem00001"}


def _drop_truth(problem: Path) -> None:
    truth = json.loads((problem / "ground-truth.json").read_text())
    truth["ground_truth"] = truth["ground_truth"][:1]
    (problem / "ground-truth.json").write_text(json.dumps(truth))


def _empty_text(problem: Path) -> None:
    (problem / "candidate00002" / "known00002.txt").write_text("  \n")


def _no_known_texts(problem: Path) -> None:
    for path in (problem / "candidate00001").iterdir():
        path.unlink()


def _truth_not_a_candidate(problem: Path) -> None:
    truth = {"ground_truth": [{"unknown-text": f"unknown{u:05d}.txt", "true-author": "nobody"}
                              for u in (1, 2)]}
    (problem / "ground-truth.json").write_text(json.dumps(truth))


@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        (_drop_truth, "problem00001: no ground-truth entry for unknown/unknown00002.txt"),
        (_empty_text, "problem00001: candidate00002/known00002.txt is empty"),
        (_no_known_texts, "problem00001: candidate candidate00001 has no texts"),
        (_truth_not_a_candidate, "problem00001: ground truth of unknown/unknown00001.txt"),
    ],
)
def test_pan18_malformed_problem(
    data_dir: Path, break_it: Callable[[Path], None], message: str
) -> None:
    break_it(_fake_pan(data_dir))
    with pytest.raises(ValueError, match=re.escape(message)):
        read_pan18(data_dir / PAN_TEST)


# ------------------------------------------------------------------ word lists


@needs_data
def test_common_words(real_data: Path) -> None:
    words = load_common_words()
    assert list(words.columns) == ["rank", "word", "count"]
    assert words["word"].head(3).tolist() == ["the", "of", "and"]
    assert words["rank"].tolist() == list(range(1, len(words) + 1))
    assert len(words) == 97565
    assert words["count"].is_monotonic_decreasing
    assert words["word"].str.fullmatch(r"[a-z]+").all()  # no NaN from words like "NULL"
    assert words["count"].iloc[0] == 53097401461


@needs_data
def test_mosteller_wallace(real_data: Path) -> None:
    words = load_mosteller_wallace()
    assert list(words.columns) == ["word", "list"]
    assert words["list"].value_counts().to_dict() == {
        "function-70": 70, "additional-2": 59, "additional-1": 47, "final-30": 30
    }
    assert {"upon", "whilst", "the"} <= set(words["word"])


# ------------------------------------------------------------------ data_file: lookup and errors


def test_missing_file_without_source_names_file_places_and_remedy(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(REGISTRY, "wordlists/no-source.tsv", (None, None))
    with pytest.raises(DataNotFoundError) as caught:
        data_file("wordlists/no-source.tsv")
    assert isinstance(caught.value, FileNotFoundError)
    message = str(caught.value)
    assert "wordlists/no-source.tsv" in message
    assert str(data_dir / "wordlists" / "no-source.tsv") in message
    assert str(tmp_path / "cache" / "wordlists" / "no-source.tsv") in message
    assert "must be supplied via $HCLIB_DATA_DIR" in message
    assert "set HCLIB_DATA_DIR to a folder laid out like" in message


def test_missing_file_when_download_fails_names_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    url = (tmp_path / "nowhere.txt").as_uri()
    monkeypatch.setitem(REGISTRY, "fake/nowhere.txt", (url, None))
    with pytest.raises(DataNotFoundError) as caught:
        data_file("fake/nowhere.txt")
    message = str(caught.value)
    assert "$HCLIB_DATA_DIR (not set)" in message
    assert str(tmp_path / "cache" / "fake" / "nowhere.txt") in message
    assert f"Downloading it from {url} failed" in message


def test_real_urls_fail_cleanly_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registered https sources go through pooch (refused here) and become DataNotFoundError."""
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    with pytest.raises(DataNotFoundError, match="githubusercontent.com/alonkipnis/HCAuthorship"):
        load_common_words()
    with pytest.raises(DataNotFoundError, match="HiyaToki/Figuratively-Speaking"):
        load_pan18("test")


def test_data_file_rejects_paths_outside_the_data_folder() -> None:
    for bad in ["../secret.txt", "/etc/passwd", "wordlists/../../x", ""]:
        with pytest.raises(ValueError, match="not a relative data path"):
            data_file(bad)


@needs_data
def test_corrupt_file_in_data_dir_is_detected(data_dir: Path) -> None:
    copy = data_dir / COMMON_WORDS
    copy.parent.mkdir(parents=True)
    shutil.copyfile(SHARED / COMMON_WORDS, copy)
    assert data_file(COMMON_WORDS) == copy  # intact copy passes
    with copy.open("r+b") as stream:
        stream.write(b"TEH")
    with pytest.raises(DataIntegrityError) as caught:
        load_common_words()
    message = str(caught.value)
    assert COMMON_WORDS in message and str(copy) in message
    assert REGISTRY[COMMON_WORDS][1] in message  # expected hash
    assert registry._sha256(copy) in message  # actual hash
    assert "To fix" in message


@needs_data
def test_data_dir_checksum_is_computed_once_per_process(
    real_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Path] = []
    original = registry._sha256

    def counting(path: Path) -> str:
        calls.append(path)
        return original(path)

    monkeypatch.setattr(registry, "_VERIFIED", set())
    monkeypatch.setattr(registry, "_sha256", counting)
    for _ in range(3):
        assert data_file(FEDERALIST) == real_data / FEDERALIST
    assert calls == [real_data / FEDERALIST]


# ------------------------------------------------------------------ data_file: downloading


def test_download_of_a_file_is_verified_and_cached(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    source = tmp_path / "mirror" / "words.txt"
    source.parent.mkdir()
    source.write_text("THE\t10\nOF\t5\n")
    monkeypatch.setitem(REGISTRY, "fake/words.txt", (source.as_uri(), pooch.file_hash(str(source))))

    path = data_file("fake/words.txt")
    assert path == tmp_path / "cache" / "fake" / "words.txt"
    assert path.read_text() == "THE\t10\nOF\t5\n"
    source.unlink()  # the cached copy is used from now on
    assert data_file("fake/words.txt") == path

    monkeypatch.setitem(REGISTRY, "fake/other.txt", ((tmp_path / "bad.txt").as_uri(), "0" * 64))
    (tmp_path / "bad.txt").write_text("tampered")
    with pytest.raises(DataNotFoundError, match="(?i)hash"):
        data_file("fake/other.txt")
    assert not (tmp_path / "cache" / "fake" / "other.txt").exists()


@needs_data
def test_loader_downloads_from_registered_source(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """load_common_words through the download path, with the registry's real sha256."""
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    _, sha256 = REGISTRY[COMMON_WORDS]
    monkeypatch.setitem(REGISTRY, COMMON_WORDS, ((SHARED / COMMON_WORDS).as_uri(), sha256))
    words = load_common_words()
    assert words["word"].head(3).tolist() == ["the", "of", "and"]
    assert (tmp_path / "cache" / COMMON_WORDS).is_file()


#: Registered downloads that the shared data folder does not hold (yet): the paper code's list
#: of names (hclib.studies.pan, protocol paper-code), which falls back to a stand-in without it.
NOT_IN_SHARED_DATA = {"wordlists/authattlib-list_of_names.txt"}


@needs_data
def test_registered_hashes_match_the_shared_data(real_data: Path) -> None:
    for relpath, (_, sha256) in REGISTRY.items():
        if sha256 is not None:
            if relpath in NOT_IN_SHARED_DATA and not (real_data / relpath).exists():
                continue
            assert pooch.file_hash(str(real_data / relpath)) == sha256, relpath


def _zip_folder(folder: Path, top: str, extra: dict[str, bytes] | None = None) -> bytes:
    """Zip ``folder`` under the top folder name ``top``, written as a stream (data descriptors)."""

    class Unseekable(io.RawIOBase):
        def __init__(self) -> None:
            self.buffer = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, b: bytes) -> int:  # type: ignore[override]
            self.buffer += b
            return len(b)

    sink = Unseekable()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{top}/", b"")
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.writestr(f"{top}/{path.relative_to(folder).as_posix()}", path.read_bytes())
        for name, content in (extra or {}).items():
            zf.writestr(f"{top}/{name}", content)
    return bytes(sink.buffer)


def _use_archive(monkeypatch: pytest.MonkeyPatch, key: str, archive: Path, root: str,
                 files: str | None = None) -> None:
    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setitem(
        ARCHIVES, key, Archive(archive.as_uri(), pooch.file_hash(str(archive)), root, files)
    )


@pytest.mark.parametrize("streamed", [False, True])
def test_pan_archive_download_renames_top_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, streamed: bool
) -> None:
    top = "renamed-by-uploader"
    _fake_pan(tmp_path / "src", top=top)
    archive = tmp_path / "pan.zip"
    if streamed:
        archive.write_bytes(_zip_folder(tmp_path / "src" / top, top))
    else:
        shutil.make_archive(str(archive.with_suffix("")), "zip", tmp_path / "src")
    _use_archive(monkeypatch, PAN_TEST, archive, top)

    pan = read_pan18(data_file(PAN_TEST))
    assert len(pan) == 6
    assert (tmp_path / "cache" / PAN_TEST / "collection-info.json").is_file()
    assert not list((tmp_path / "cache" / "_downloads").iterdir())  # archive removed after use
    archive.unlink()  # extracted folder is reused, no second download
    assert read_pan18(data_file(PAN_TEST)).equals(pan)


def test_github_tarball_with_commit_named_top_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    name = "pan18-cross-domain-authorship-attribution-training-dataset-2017-12-02"
    _fake_pan(tmp_path / "repo-0123abc", top=name)
    (tmp_path / "repo-0123abc" / "README.md").write_text("not part of the dataset")
    archive = tmp_path / "0123abc.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tmp_path / "repo-0123abc", arcname="repo-0123abc")
    _use_archive(monkeypatch, PAN_TRAIN, archive, f"*/{name}")

    pan = read_pan18(data_file(PAN_TRAIN))
    assert len(pan) == 6
    assert not (tmp_path / "cache" / "pan18" / "README.md").exists()
    with pytest.raises(DataNotFoundError, match="does not contain it"):
        data_file(f"{PAN_TRAIN}/problem00009/problem-info.json")


def test_archive_without_the_expected_folder_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_pan(tmp_path / "src", top="some-other-name")
    archive = tmp_path / "pan.zip"
    shutil.make_archive(str(archive.with_suffix("")), "zip", tmp_path / "src")
    _use_archive(monkeypatch, PAN_TEST, archive, "expected-name")
    with pytest.raises(DataNotFoundError, match="no files under 'expected-name'"):
        data_file(PAN_TEST)
    assert not (tmp_path / "cache" / PAN_TEST).exists()


@needs_data
def test_truncated_pan_test_zip_is_salvaged(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Like the public copy: a zip cut off partway through a later problem, top folder renamed."""
    top = "pan18-cross-domain-authorship-attribution-test-dataset"
    later = {f"problem00009/candidate00001/known{k:05d}.txt": os.urandom(3000) for k in range(1, 8)}
    content = _zip_folder(SHARED / PAN_TEST, top, extra=later)
    archive = tmp_path / "pan18-test.zip"
    cut = content.index(b"problem00009/candidate00001/known00004.txt") + 1000
    archive.write_bytes(content[:cut])  # cut inside the data of problem00009's 4th text
    with pytest.raises(zipfile.BadZipFile):
        zipfile.ZipFile(archive)
    _use_archive(monkeypatch, PAN_TEST, archive, top, files="pan18-test-files.tsv")

    downloaded = load_pan18("test")
    monkeypatch.setenv("HCLIB_DATA_DIR", str(SHARED))
    pd.testing.assert_frame_equal(downloaded, load_pan18("test"))
    # the salvaged entries of problem00009 are read, but only the listed (verified) files kept
    assert not (tmp_path / "cache" / PAN_TEST / "problem00009").exists()
    assert sorted(p.name for p in (tmp_path / "cache" / PAN_TEST).iterdir()) == [
        "collection-info.json", "problem00001", "problem00002", "problem00003", "problem00004"]


@pytest.mark.parametrize(
    ("compression", "streamed"),
    [(zipfile.ZIP_STORED, False), (zipfile.ZIP_DEFLATED, False), (zipfile.ZIP_DEFLATED, True)],
)
def test_salvage_of_a_truncated_zip_keeps_complete_entries(
    tmp_path: Path, compression: int, streamed: bool
) -> None:
    """Stored or deflated entries, sizes in the local header or in a trailing data descriptor."""
    files = {f"f{i}.txt": os.urandom(2000) + b"x" * 3000 for i in range(4)}
    if streamed:
        (tmp_path / "src").mkdir()
        for name, content in files.items():
            (tmp_path / "src" / name).write_bytes(content)
        whole = _zip_folder(tmp_path / "src", "top")
    else:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=compression) as zf:
            for name, content in files.items():
                zf.writestr(f"top/{name}", content)
        whole = buffer.getvalue()
    expected = {f"top/{name}": content for name, content in files.items()}
    cut = whole.index(b"top/f2.txt") + 100  # inside the third file's data
    assert dict(transfer._salvage_zip(whole[:cut])) == {
        name: expected[name] for name in ["top/f0.txt", "top/f1.txt"]
    }
    assert dict(transfer._salvage_zip(whole[: whole.index(b"PK\x01\x02")])) == expected


def test_federalist_study_papers() -> None:
    if not (Path(os.environ.get("HCLIB_DATA_DIR", "/nonexistent")) / "federalist" / "pg1404.txt").exists():
        pytest.skip("Federalist data not available (set HCLIB_DATA_DIR)")
    papers = federalist_study_papers()
    assert papers.author.value_counts().to_dict() == {"Hamilton": 43, "Madison": 14, "disputed": 12}
    assert papers.doc_id.max() <= 77 and list(papers.index) == list(range(69))
    with pytest.raises(ValueError, match="unknown Federalist author"):
        federalist_study_papers(["Hamilton", "Hamiltonn"])
