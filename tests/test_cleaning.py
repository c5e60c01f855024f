"""POS-based cleaning: proper names and numbers removed, lemmatisation, NLTK data errors.

Tests that tag text need NLTK's ``averaged_perceptron_tagger_eng`` (and WordNet for the
lemmatiser) on NLTK's search path (``NLTK_DATA``); they skip, saying so, when it is absent. The
error-message tests never need the data: they point NLTK at an empty folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import nltk
import pytest

from hclib.texts import cleaning
from hclib.texts.cleaning import (
    NLTKResourceError,
    clean_texts,
    clean_tokens,
    remove_names_and_numbers,
    tag_text,
    wordnet_pos,
)
from hclib.texts.tokens import tokenize


def _has(*resources: str) -> bool:
    for resource in resources:
        try:
            nltk.data.find(resource)
        except LookupError:
            return False
    return True


needs_tagger = pytest.mark.skipif(
    not _has("taggers/averaged_perceptron_tagger_eng/"),
    reason="NLTK's averaged_perceptron_tagger_eng not found: set NLTK_DATA",
)
needs_wordnet = pytest.mark.skipif(
    not (_has("corpora/wordnet") or _has("corpora/wordnet.zip/wordnet/")),
    reason="NLTK's WordNet not found: set NLTK_DATA",
)


def _shared_data() -> Path | None:
    env = os.environ.get("HCLIB_DATA_DIR")
    if env:
        return Path(env)
    default = Path(__file__).resolve().parents[2] / "shared" / "data"
    return default if default.is_dir() else None


@pytest.fixture
def no_nltk_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """NLTK's search path reduced to an empty folder, with hclib's cached NLTK objects dropped."""
    empty = tmp_path / "nltk_data"
    empty.mkdir()
    monkeypatch.setattr(nltk.data, "path", [str(empty)])
    monkeypatch.setenv("NLTK_DATA", str(empty))
    # first use downloads into the cache: here from an empty mirror, so the download fails
    monkeypatch.setenv("HCLIB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HCLIB_SOURCE_MIRROR", (tmp_path / "empty-mirror").as_uri())
    for cached in (cleaning._tagger, cleaning._lemmatizer, cleaning._lemma):
        cached.cache_clear()
    yield empty
    for cached in (cleaning._tagger, cleaning._lemmatizer, cleaning._lemma):
        cached.cache_clear()


SENTENCE = (
    "In 1787 Alexander Hamilton and James Madison wrote 85 papers for the people of New York; "
    "the citizens don't read them twice."
)


@needs_tagger
def test_names_and_numbers_are_removed() -> None:
    tokens = remove_names_and_numbers(SENTENCE)
    for gone in ("alexander", "hamilton", "james", "madison", "york"):
        assert gone not in tokens
    assert tokens[:2] == ["in", "and"]  # 1787 was never a word token; the names went
    for kept in ("wrote", "papers", "people", "citizens", "don't", "read", "twice"):
        assert kept in tokens
    assert all(t == t.lower() for t in tokens)


@needs_tagger
def test_spelled_out_cardinals_are_removed() -> None:
    tokens = remove_names_and_numbers("The two houses have three hundred members and seven clerks.")
    assert "two" not in tokens and "three" not in tokens and "seven" not in tokens
    assert tokens[:1] == ["the"] and "houses" in tokens and "clerks" in tokens


@needs_tagger
@pytest.mark.parametrize(
    "text",
    [
        SENTENCE,
        "Madison’s well-known _Federalist_ No. 10, 'tis said; don't! 1st, 3.5 and x²y.",
        "ÉCOLE Straße naïve — “quoted” (parenthetical) authors' rock'n'roll a''b",
        "THE UNION of the STATES, by the PEOPLE.",
    ],
)
def test_tokens_follow_hclib_tokenize(text: str) -> None:
    """With nothing removed the tagger's words give exactly tokenize(text)."""
    words = [w for token, _, kind in tag_text(text) if kind == "word" for w in tokenize(token)]
    assert words == tokenize(text)
    assert clean_tokens(text, remove_names_numbers=False) == tokenize(text)
    # Removing tokens only deletes, never changes or reorders, the remaining ones.
    kept = clean_tokens(text, remove_names_numbers=True)
    it = iter(tokenize(text))
    assert all(any(t == u for u in it) for t in kept)


@needs_tagger
def test_tag_text_keeps_case_and_punctuation() -> None:
    tagged = tag_text("Hamilton wrote 85 papers.")
    assert [t for t, _, _ in tagged] == ["Hamilton", "wrote", "85", "papers", "."]
    assert [k for _, _, k in tagged] == ["word", "word", "number", "word", "punct"]
    assert dict((t, tag) for t, tag, _ in tagged)["Hamilton"] == "NNP"
    assert dict((t, tag) for t, tag, _ in tagged)["85"] == "CD"


@needs_tagger
def test_capitals_are_not_mistaken_for_names() -> None:
    """Gutenberg's small capitals (THE, NECESSARY AND PROPER) are common words, not names."""
    tokens = remove_names_and_numbers("THE powers NECESSARY AND PROPER are granted by the LAW.")
    assert tokens[:2] == ["the", "powers"]
    assert {"necessary", "and", "proper", "law"} <= set(tokens)


@needs_tagger
def test_empty_results_raise() -> None:
    with pytest.raises(ValueError, match="no word tokens"):
        remove_names_and_numbers("")
    with pytest.raises(ValueError, match="after removing proper names and numbers"):
        remove_names_and_numbers("1787, 1788: 85.")
    with pytest.raises(ValueError, match="no word tokens"):
        clean_tokens("12 34", remove_names_numbers=False)
    with pytest.raises(ValueError, match="text 1"):
        clean_texts(["the people", "42"])
    with pytest.raises(ValueError, match="must be a str"):
        clean_tokens(["a", "list"])  # type: ignore[arg-type]


@needs_tagger
@needs_wordnet
def test_lemmatize_uses_the_tagged_part_of_speech() -> None:
    tokens = clean_tokens("The states were making better laws.", lemmatize=True)
    assert tokens == ["the", "state", "be", "make", "good", "law"]
    # names are still removed when lemmatising, and kept when asked to
    assert "madison" not in clean_tokens("Madison wrote papers.", lemmatize=True)
    assert clean_tokens("Madison wrote papers.", remove_names_numbers=False, lemmatize=True) == [
        "madison",
        "write",
        "paper",
    ]


def test_wordnet_pos_mapping() -> None:
    assert [wordnet_pos(t) for t in ("JJ", "JJR", "VBD", "VB", "RB", "RBS", "NN", "NNS", "IN")] == [
        "a", "a", "v", "v", "r", "r", "n", "n", "n"
    ]


def test_missing_tagger_error_names_resource_paths_and_download(no_nltk_data: Path) -> None:
    with pytest.raises(NLTKResourceError) as info:
        remove_names_and_numbers("Some text.")
    message = str(info.value)
    assert "taggers/averaged_perceptron_tagger_eng" in message
    assert str(no_nltk_data) in message  # the folder searched, and NLTK_DATA's value
    assert "nltk.download('averaged_perceptron_tagger_eng')" in message
    assert isinstance(info.value, LookupError)


def test_missing_wordnet_error(no_nltk_data: Path) -> None:
    with pytest.raises(NLTKResourceError) as info:
        cleaning._lemmatizer()
    message = str(info.value)
    assert "corpora/wordnet" in message and "nltk.download('wordnet')" in message
    assert str(no_nltk_data) in message


@needs_tagger
@pytest.mark.skipif(_shared_data() is None, reason="Federalist text not available: set HCLIB_DATA_DIR")
def test_federalist_cleans_fast_and_removes_a_few_percent() -> None:
    from hclib.corpora import load_federalist

    fed = load_federalist()
    texts = list(fed.text[fed.doc_id <= 77])
    start = time.perf_counter()
    cleaned = clean_texts(texts)
    elapsed = time.perf_counter() - start
    assert elapsed < 60, f"cleaning the 77 papers took {elapsed:.1f} s"
    total = sum(len(tokenize(t)) for t in texts)
    kept = sum(len(t) for t in cleaned)
    assert 0.95 < kept / total < 0.995  # names and numbers are a few percent of the words
    pooled = {w for doc in cleaned for w in doc}
    assert "hamilton" not in pooled and "pennsylvania" not in pooled
    assert {"the", "of", "upon", "whilst", "government"} <= pooled


def test_clean_tagged_equals_clean_tokens_for_every_option():
    """One tagging serves every option set: clean_tagged(tag_text(t)) == clean_tokens(t)."""
    from hclib.texts.cleaning import clean_tagged, tag_text

    text = "Mr. Hamilton wrote 85 papers in 1788; the Senate was running the States."
    tagged = tag_text(text)
    for remove in (True, False):
        for lemma in (True, False):
            if remove or lemma:
                assert clean_tagged(tagged, remove, lemma) == clean_tokens(text, remove, lemma)
