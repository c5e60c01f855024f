"""Tests of hclib.corpora.gutenberg: manifest, inclusion rule, boilerplate, exact fast counting, loading."""

from __future__ import annotations

import csv
import hashlib
import lzma
import os
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hclib.corpora import gutenberg, gutenberg_text
from hclib.downloads.registry import DataIntegrityError
from hclib.texts.tokens import count_matrix, tokenize

VOCAB = ["the", "of", "and", "to", "a", "in", "sea", "ship", "king", "love", "war", "night"]


# ------------------------------------------------------------------ a synthetic collection

HEADER = """\ufeffThe Project Gutenberg EBook of {title}, by {author}\r
\r
This eBook is for the use of anyone anywhere at no cost.\r
\r
*** START OF THIS PROJECT GUTENBERG EBOOK {title_upper}\r
SPANNING TWO LINES ***\r
\r
\r
Produced by Somebody Kind and the Online Distributed\r
Proofreading Team\r
\r
"""
FOOTER = """\r
\r
End of the Project Gutenberg EBook of {title}, by {author}\r
\r
*** END OF THIS PROJECT GUTENBERG EBOOK {title_upper} ***\r
licence licence licence gutenberg gutenberg\r
"""


def _text(rng: np.random.Generator, probs: np.ndarray, n: int) -> str:
    words = rng.choice(VOCAB, size=n, p=probs)
    lines = [" ".join(words[i : i + 12]).capitalize() + "." for i in range(0, n, 12)]
    return "\n".join(lines) + "\n"


def make_collection(root: Path, works: list[dict], *, raw: bool = False, seed: int = 0) -> Path:
    """Write ``works`` (author, title, n, [probs]) as a collection folder laid out like the data."""
    rng = np.random.default_rng(seed)
    (root / "texts").mkdir(parents=True, exist_ok=True)
    rows = []
    for i, w in enumerate(works):
        probs = np.asarray(w.get("probs", np.full(len(VOCAB), 1 / len(VOCAB))))
        body = _text(rng, probs / probs.sum(), w["n"])
        text = body
        if raw:
            fmt = dict(title=w["title"], author=w["author"], title_upper=w["title"].upper())
            text = HEADER.format(**fmt) + body.replace("\n", "\r\n") + FOOTER.format(**fmt)
        data = text.encode("utf-8")
        file = f"texts/pg{100 + i}.txt.xz"
        with lzma.open(root / file, "wb") as stream:
            stream.write(data)
        rows.append({
            "file": file, "gutenberg_id": 100 + i, "author": w["author"], "title": w["title"],
            "n_words": len(body.split()), "source_repo": "synthetic", "source_commit": "0",
            "source_path": f"{w['title']}.txt", "in_paper_list": True,
            "pg_boilerplate": "raw" if raw else "stripped", "n_bytes_utf8": len(data),
            "sha256_utf8": hashlib.sha256(data).hexdigest(),
            "work_group": w.get("group", w["title"].lower()),
        })
    pd.DataFrame(rows).to_csv(root / "manifest.csv", index=False, quoting=csv.QUOTE_MINIMAL)
    return root


def _works(spec: dict[str, list[int]]) -> list[dict]:
    return [{"author": a, "title": f"{a} {j}", "n": n}
            for a, sizes in spec.items() for j, n in enumerate(sizes)]


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    # Ann: 3 works long enough; Bob: 3 works but one short (so only 2 qualify); Cy: 4 works.
    return make_collection(tmp_path, _works({
        "Ann": [400, 350, 500], "Bob": [420, 90, 380], "Cy": [300, 310, 320, 330],
    }))


# ------------------------------------------------------------------ the inclusion rule


def test_inclusion_mask_rule():
    authors = ["A"] * 3 + ["B"] * 3 + ["C"] * 2
    words = [100, 200, 300, 100, 5, 100, 100, 100]
    mask = gutenberg.inclusion_mask(authors, words, min_works=3, min_words=100)
    # A: all 3 qualify. B: only 2 works of >= 100 words -> excluded entirely. C: only 2 works.
    assert mask.tolist() == [True] * 3 + [False] * 5
    mask = gutenberg.inclusion_mask(authors, words, min_works=2, min_words=100)
    assert mask.tolist() == [True] * 3 + [True, False, True] + [True] * 2


def test_inclusion_mask_length_mismatch():
    with pytest.raises(ValueError, match="word counts"):
        gutenberg.inclusion_mask(["A", "B"], [1], 1, 1)


def test_load_applies_inclusion_rule(small: Path):
    col = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=3, min_words=100)
    assert col.authors == ["Ann", "Cy"]
    assert len(col.works) == 7
    col = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=2, min_words=100)
    assert col.authors == ["Ann", "Bob", "Cy"]
    assert "Bob 1" not in set(col.works["title"])  # the short work is out, the author stays
    assert (col.works["n_words"] >= 100).all()


def test_load_rejects_empty_selection(small: Path):
    with pytest.raises(ValueError, match="no author"):
        gutenberg.load_collection(small, vocabulary=VOCAB, min_works=5, min_words=100)


# ------------------------------------------------------------------ loading


def test_load_counts_match_tokenize(small: Path):
    col = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1,
                                    keep_text=True)
    expected = count_matrix([tokenize(t) for t in col.works["text"]], VOCAB)
    np.testing.assert_array_equal(col.counts, expected)
    assert col.counts.dtype == np.int64
    assert list(col.works.columns[:7]) == ["doc_id", "author", "title", "n_words", "n_tokens",
                                           "work_group", "file"]
    assert col.works["doc_id"].tolist()[:2] == ["pg100", "pg101"]
    assert (col.works["n_tokens"] == [len(tokenize(t)) for t in col.works["text"]]).all()
    assert (col.works["n_words"] == [len(t.split()) for t in col.works["text"]]).all()
    np.testing.assert_array_equal(col.top(3), col.counts[:, :3])
    assert col.root == str(small)


def test_load_parallel_equals_serial(small: Path):
    a = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1)
    b = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1, n_jobs=2)
    np.testing.assert_array_equal(a.counts, b.counts)
    pd.testing.assert_frame_equal(a.works, b.works)


def test_checksum_mismatch_names_the_file(small: Path):
    manifest = pd.read_csv(small / "manifest.csv")
    manifest.loc[1, "sha256_utf8"] = "0" * 64
    manifest.to_csv(small / "manifest.csv", index=False)
    with pytest.raises(DataIntegrityError, match=r"pg101 \(Ann, Ann 1\).*does not match"):
        gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1)
    # verify=False skips the check
    col = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1,
                                    verify=False)
    assert len(col.works) == 10


def test_missing_text_and_manifest_errors(small: Path, tmp_path: Path):
    (small / "texts" / "pg102.txt.xz").unlink()
    with pytest.raises(FileNotFoundError, match="pg102"):
        gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1)
    with pytest.raises(FileNotFoundError, match="manifest.csv"):
        gutenberg.read_manifest(tmp_path / "nowhere")
    bad = tmp_path / "bad"
    bad.mkdir()
    pd.DataFrame({"file": ["a.txt"], "title": ["t"]}).to_csv(bad / "manifest.csv", index=False)
    with pytest.raises(ValueError, match="author"):
        gutenberg.read_manifest(bad)


def test_minimal_manifest_plain_text(tmp_path: Path):
    """Only file/author/title: n_words is measured, doc_id and work_group filled in."""
    texts = {"x1.txt": "The sea, the sea! " * 10, "x2.txt": "Love and war. " * 12,
             "y1.txt": "Night of the king " * 9, "y2.txt": "the ship " * 20}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    pd.DataFrame({
        "file": list(texts), "author": ["X", "X", "Y", "Y"], "title": list("abcd"),
    }).to_csv(tmp_path / "manifest.csv", index=False)
    col = gutenberg.load_collection(tmp_path, vocabulary=VOCAB, min_works=2, min_words=30)
    assert col.works["doc_id"].tolist() == ["x1", "x2", "y1", "y2"]
    assert col.works["work_group"].tolist() == ["x1", "x2", "y1", "y2"]
    assert col.works["n_words"].tolist() == [len(t.split()) for t in texts.values()]
    assert col.counts[0, VOCAB.index("sea")] == 20


def test_raw_texts_are_stripped(tmp_path: Path):
    """pg_boilerplate != 'stripped': header, credits and licence are removed before counting."""
    works = _works({"Ann": [200, 210], "Bob": [220, 230]})
    raw = make_collection(tmp_path / "raw", works, raw=True, seed=3)
    clean = make_collection(tmp_path / "clean", works, raw=False, seed=3)
    vocab = [*VOCAB, "gutenberg", "licence", "produced", "ebook", "proofreading"]
    a = gutenberg.load_collection(raw, vocabulary=vocab, min_works=2, min_words=100,
                                  keep_text=True)
    b = gutenberg.load_collection(clean, vocabulary=vocab, min_works=2, min_words=100,
                                  keep_text=True)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert a.counts[:, len(VOCAB):].sum() == 0
    assert a.works["n_words"].tolist() == b.works["n_words"].tolist()
    assert [t.strip() for t in a.works["text"]] == [t.strip() for t in b.works["text"]]


def test_raw_texts_inclusion_uses_stripped_length(tmp_path: Path):
    """The manifest's n_words may count the raw file; the rule uses the stripped text's length."""
    root = make_collection(tmp_path, _works({"Ann": [120, 95], "Bob": [130, 140]}), raw=True)
    manifest = pd.read_csv(root / "manifest.csv")
    manifest["n_words"] += 60  # as if counted with the boilerplate
    manifest.to_csv(root / "manifest.csv", index=False)
    col = gutenberg.load_collection(root, vocabulary=VOCAB, min_works=2, min_words=100)
    assert col.authors == ["Bob"]


# ------------------------------------------------------------------ boilerplate


def test_strip_boilerplate_markers():
    text = "\n".join([
        "The Project Gutenberg EBook of Something",
        "*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*",
        "more header",
        "***START OF THE PROJECT GUTENBERG EBOOK SOMETHING***",
        "",
        "E-text prepared by A. Person",
        "",
        "Note: Project Gutenberg also has an HTML version of this",
        "file which includes the original illustrations.",
        "",
        "CHAPTER I",
        "It was a dark night.",
        "",
        "End of Project Gutenberg's Something",
        "*** END OF THE PROJECT GUTENBERG EBOOK SOMETHING ***",
        "licence",
    ])
    assert gutenberg_text.strip_boilerplate(text) == "CHAPTER I\nIt was a dark night.\n"


def test_strip_boilerplate_without_markers_keeps_text():
    assert gutenberg_text.strip_boilerplate("\ufeffJust a text.\r\nTwo lines.\r\n") == (
        "Just a text.\nTwo lines.\n"
    )
    # a credit paragraph at the very top is still dropped
    assert gutenberg_text.strip_boilerplate("Produced by X.\n\nBody.") == "Body.\n"


def test_strip_boilerplate_start_only_in_header_window():
    body = ["line"] * 1600
    late = [*body, "*** START OF THIS PROJECT GUTENBERG EBOOK X ***", "tail"]
    assert gutenberg_text.strip_boilerplate("\n".join(late)).startswith("line\nline")
    early = ["head", "*** START OF THIS PROJECT GUTENBERG EBOOK X ***", *body]
    assert not gutenberg_text.strip_boilerplate("\n".join(early)).startswith("head")


def test_strip_boilerplate_keeps_at_most_four_credit_paragraphs():
    credits = ["Produced by A.", "Produced by B.", "Produced by C.", "Produced by D.",
               "Produced by E."]
    text = "*** START OF THIS PROJECT GUTENBERG EBOOK X ***\n\n" + "\n\n".join(credits + ["Body"])
    assert gutenberg_text.strip_boilerplate(text) == "Produced by E.\n\nBody\n"


def test_strip_boilerplate_on_a_real_gutenberg_file():
    """The Federalist Papers (etext #1404, with its header and licence), if the data is here."""
    try:
        from hclib.downloads.fetch import data_file

        path = data_file("federalist/pg1404.txt")
    except Exception as exc:  # noqa: BLE001 - data not available on this machine
        pytest.skip(f"Federalist text not available: {exc}")
    raw = path.read_text(encoding="utf-8")
    text = gutenberg_text.strip_boilerplate(raw)
    assert text.startswith("THE FEDERALIST PAPERS")
    assert "gutenberg" not in text.lower()
    assert "Produced by" not in text[:500]
    assert text.rstrip().endswith('"The Rise of Arts and Sciences."')


# ------------------------------------------------------------------ exact fast counting

TRICKY = [
    "Madison’s well-known _Federalist_ No. 10, 'tis said; don't!",
    "authors' a''b 'quoted' rock'n'roll o'clock ''",
    "Émile Zola — naïve café; ÆSOP's fables; straße STRASSE",
    "e\u0301te\u0301 (decomposed accents) and I\u0307stanbul and İstanbul",
    "x²y ½ Ⅻ 1st 2nd 3.5 1787 H2O",
    "a=\u0338b <\u0338 > \u0338c",
    "non\u00a0breaking\u2003spaces\u200bzero-width",
    "tab\tseparated\r\nwindows\rold-mac\x0bvertical\x1cfile-sep",
    "Ⅷ ⅷ ß ǅ ﬁnance ﬀ",
    "Москва и Санкт-Петербург; Ἀθῆναι; 東京",
    "ʼapostrophe modifier ʼ and ‘single’ quotes",
    "",
    "   ",
    "'''",
]


@pytest.mark.parametrize("text", TRICKY)
def test_word_counts_equals_tokenize(text: str):
    assert gutenberg_text.word_counts(text) == Counter(tokenize(text))
    assert gutenberg_text.word_counts(text.encode("utf-8")) == Counter(tokenize(text))


_ALPHABET = st.sampled_from(list(
    "aBzZ' \n\t.,;-_0123456789²½Ⅻ’‘ʼİıéÉßﬁ"
    "\u0301\u0307\u0338=<>\u00a0Жж東ǅ\x1c\u2028"
))


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=60).map("".join))
def test_word_counts_equals_tokenize_property(text: str):
    assert gutenberg_text.word_counts(text) == Counter(tokenize(text))


def test_ascii_separators_never_compose_into_letters():
    """Why word_counts may split at ASCII separators: NFC never joins across them into a letter.

    For every code point whose canonical decomposition involves an ASCII character, that
    character is the first one, and when it is a separator (not a letter or apostrophe) the
    composed character is not a letter either.
    """
    letter = re.compile(r"[^\W\d_]")
    ascii_separator = {chr(c) for c in range(128) if not (chr(c).isalpha() or chr(c) == "'")}
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if 0xD800 <= code <= 0xDFFF:
            continue
        nfd = unicodedata.normalize("NFD", ch)
        if len(nfd) < 2:
            continue
        assert not any(c < "\x80" for c in nfd[1:]), f"U+{code:04X} decomposes with ASCII inside"
        if nfd[0] in ascii_separator:
            assert not letter.match(unicodedata.normalize("NFC", ch)), f"U+{code:04X}"


def test_count_vector():
    v = gutenberg_text.count_vector("The king and the sea; the KING.", ["the", "king", "war"])
    assert v.tolist() == [3, 2, 0]


def test_word_counts_on_shipped_texts():
    """Identical counts to tokenize on a few real works of the shipped collection."""
    try:
        manifest = gutenberg.read_manifest()
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"Gutenberg collection not available: {exc}")
    from hclib.downloads.fetch import data_file

    # an English original and three translations (Dumas, Tolstoy, Zola), all with non-ASCII text
    picks = [0] + [int(manifest.index[manifest["author"].str.startswith(a)][0])
                   for a in ("Dumas", "Tolstoy", "Zola")]
    for file in manifest["file"].iloc[picks]:
        with lzma.open(data_file(f"gutenberg/{file}"), "rt", encoding="utf-8") as stream:
            text = stream.read()
        assert gutenberg_text.word_counts(text) == Counter(tokenize(text)), file


# ------------------------------------------------------------------ the shipped collection


@pytest.mark.skipif(not os.environ.get("HCLIB_DATA_DIR"), reason="HCLIB_DATA_DIR not set")
def test_shipped_manifest_matches_source_md():
    manifest = gutenberg.read_manifest()
    assert len(manifest) == 990
    assert manifest["author"].nunique() == 55
    assert int(manifest["n_words"].sum()) == 74_132_055
    assert gutenberg.inclusion_mask(manifest["author"], manifest["n_words"]).all()
    assert (manifest["pg_boilerplate"] == "stripped").all()


def test_collection_subset_and_author_table(small: Path):
    col = gutenberg.load_collection(small, vocabulary=VOCAB, min_works=1, min_words=1)
    sub = col.subset(col.labels == "Cy")
    assert sub.authors == ["Cy"] and sub.counts.shape == (4, len(VOCAB))
    table = col.author_table()
    assert table.set_index("author").loc["Bob", "works"] == 3
    with pytest.raises(ValueError, match="between 1 and"):
        col.top(100)


def test_vocabulary_argument_validation(small: Path):
    with pytest.raises(ValueError, match="not a str"):
        gutenberg.load_collection(small, vocabulary="the")
    with pytest.raises(ValueError, match="distinct"):
        gutenberg.load_collection(small, vocabulary=["the", "the"])


def test_stripped_texts_are_not_stripped_again(tmp_path: Path):
    """pg_boilerplate == 'stripped' without n_words: words are measured, the text kept as is."""
    texts = {"a.txt": "Produced by the sea.\n\nThe king " * 20, "b.txt": "the war " * 30}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    pd.DataFrame({"file": list(texts), "author": ["A", "A"], "title": ["a", "b"],
                  "pg_boilerplate": ["stripped", "stripped"]}).to_csv(
        tmp_path / "manifest.csv", index=False)
    col = gutenberg.load_collection(tmp_path, vocabulary=["produced", "the"], min_works=2,
                                    min_words=10)
    assert col.counts[0].tolist() == [20, 40]
    assert col.works["n_words"].tolist() == [len(t.split()) for t in texts.values()]


def test_read_text_returns_the_counted_text(tmp_path: Path):
    """read_text gives back the (stripped) text of a work, as load_collection read it."""
    works = _works({"Ann": [200, 210], "Bob": [220, 230]})
    raw = make_collection(tmp_path / "raw", works, raw=True, seed=3)
    col = gutenberg.load_collection(raw, vocabulary=VOCAB, min_works=2, min_words=100,
                                    keep_text=True)
    for doc_id, text in zip(col.works["doc_id"], col.works["text"]):
        assert gutenberg.read_text(col, doc_id) == text
        assert "Project Gutenberg" not in text
    with pytest.raises(ValueError, match="no work"):
        gutenberg.read_text(col, "pg999")


def test_project_manifest_without_data_dir_is_the_packaged_copy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    from hclib.downloads.fetch import data_file
    from hclib.downloads.registry import package_file

    monkeypatch.delenv("HCLIB_DATA_DIR", raising=False)
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    packaged = package_file("gutenberg-manifest.csv")
    assert data_file("gutenberg/manifest.csv").read_bytes() == packaged.read_bytes()
    manifest = gutenberg.read_manifest()
    assert len(manifest) == 990 and manifest["source_path"].str.contains("\r").sum() == 24
