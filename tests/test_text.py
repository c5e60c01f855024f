"""Tests for hclib.texts.tokens: tokenisation, n-grams, count matrices, vocabularies."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hclib.texts.tokens import count_matrix, first_n, most_frequent, ngrams, tokenize, union_most_frequent

# ---------------------------------------------------------------- tokenize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello, World!", ["hello", "world"]),
        ("  spaces\tand\nnewlines  ", ["spaces", "and", "newlines"]),
        ("", []),
        ("... ;;; !!!", []),
        # internal apostrophes kept
        ("Don't stop", ["don't", "stop"]),
        ("MADISON'S paper", ["madison's", "paper"]),
        ("o'clock rock'n'roll", ["o'clock", "rock'n'roll"]),
        # curly / modifier apostrophes normalised to ASCII '
        ("Madison\u2019s", ["madison's"]),
        ("it\u2018s", ["it's"]),
        ("don\u02bct", ["don't"]),
        # leading/trailing apostrophes (quotation marks) dropped
        ("'tis the authors' view", ["tis", "the", "authors", "view"]),
        ("'Quoted' and \u2018curly\u2019", ["quoted", "and", "curly"]),
        ("rock 'n' roll", ["rock", "n", "roll"]),
        ("don''t", ["don", "t"]),
        ("' '' '''", []),
        # numbers and digits dropped
        ("In 1787, No. 10 had 3.5% and 1,000 words", ["in", "no", "had", "and", "words"]),
        ("1st 2nd abc123def", ["st", "nd", "abc", "def"]),
        ("42", []),
        ("x\u00b2 \u00bd cup, Henry \u216b and Henry XII", ["x", "cup", "henry", "and", "henry", "xii"]),
        ("caf\u00e9\u00b2s", ["caf\u00e9", "s"]),
        # hyphens and other punctuation separate
        ("well-known", ["well", "known"]),
        ("self\u2014evident (sic) a/b a.b", ["self", "evident", "sic", "a", "b", "a", "b"]),
        ("e-mail's", ["e", "mail's"]),
        # underscores (Gutenberg italics) separate
        ("_emphasis_ here", ["emphasis", "here"]),
        ("snake_case", ["snake", "case"]),
        # unicode letters
        ("Café NAÏVE Straße", ["café", "naïve", "straße"]),
        ("ΑΘΗΝΑ Москва", ["αθηνα", "москва"]),
        ("日本語 text", ["日本語", "text"]),
        ("\u0130STANBUL \u0130stanbul", ["istanbul", "istanbul"]),
    ],
)
def test_tokenize_cases(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


def test_tokenize_combining_accents_are_composed() -> None:
    decomposed = "e\u0301te\u0301"  # e + combining acute, twice
    assert tokenize(decomposed) == ["\u00e9t\u00e9"]
    assert tokenize(decomposed) == tokenize("\u00e9t\u00e9")


@pytest.mark.parametrize("bad", [None, 3, b"bytes", ["a", "list"]])
def test_tokenize_rejects_non_str(bad: object) -> None:
    with pytest.raises(ValueError, match="text must be a str"):
        tokenize(bad)  # type: ignore[arg-type]


_TOKEN_SHAPE = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


@given(st.text())
@settings(max_examples=300)
def test_tokenize_properties(text: str) -> None:
    toks = tokenize(text)
    for t in toks:
        assert t == t.lower()
        assert " " not in t and "_" not in t
        assert t.replace("'", "").isalpha()
        assert not t.startswith("'") and not t.endswith("'")
    # re-tokenising the space-joined tokens is the identity
    assert tokenize(" ".join(toks)) == toks


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
@example("Rock'n'roll's O'Neill, 'tis a''b 1st_2nd x2y DON'T")
@settings(max_examples=500)
def test_tokenize_of_ascii_text_takes_the_general_path_s_tokens(text: str) -> None:
    """An ASCII text has its own fast path; a non-ASCII word after it (``é``, one more
    token) sends the same text down the general path."""
    assert tokenize(text + " \u00e9") == tokenize(text) + ["\u00e9"]


@given(st.lists(st.from_regex(r"[a-z]+(?:'[a-z]+)?", fullmatch=True), max_size=20))
def test_tokenize_roundtrip_of_clean_words(words: list[str]) -> None:
    assert tokenize(" ".join(words)) == words
    assert tokenize(", ".join(w.upper() for w in words)) == words


# ---------------------------------------------------------------- ngrams


def test_ngrams_basic() -> None:
    toks = ["the", "cat", "sat", "down"]
    assert ngrams(toks, 1) == toks
    assert ngrams(toks, 2) == ["the cat", "cat sat", "sat down"]
    assert ngrams(toks, 3) == ["the cat sat", "cat sat down"]
    assert ngrams(toks, 4) == ["the cat sat down"]
    assert ngrams(toks, 5) == []
    assert ngrams([], 1) == []
    assert ngrams(("a", "b"), 2) == ["a b"]


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, None])
def test_ngrams_bad_n(bad: object) -> None:
    with pytest.raises(ValueError, match="n must be a positive integer"):
        ngrams(["a", "b"], bad)  # type: ignore[arg-type]


def test_ngrams_accepts_numpy_int() -> None:
    assert ngrams(["a", "b", "c"], np.int64(2)) == ["a b", "b c"]


def test_ngrams_rejects_string_tokens() -> None:
    with pytest.raises(ValueError, match="use tokenize"):
        ngrams("some text", 2)


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=12), st.integers(1, 5))
def test_ngrams_properties(toks: list[str], n: int) -> None:
    grams = ngrams(toks, n)
    assert len(grams) == max(0, len(toks) - n + 1)
    for i, g in enumerate(grams):
        assert g.split(" ") == toks[i : i + n]


# ---------------------------------------------------------------- count_matrix


def test_count_matrix_small() -> None:
    docs = [["a", "b", "a", "zzz"], ["c"], ["b", "b", "q"]]
    m = count_matrix(docs, ["a", "b", "c"])
    assert m.dtype == np.int64
    assert m.shape == (3, 3)
    np.testing.assert_array_equal(m, [[2, 1, 0], [0, 0, 1], [0, 2, 0]])


def test_count_matrix_vocabulary_order_and_unseen_items() -> None:
    docs = [["x", "y", "y"]]
    np.testing.assert_array_equal(count_matrix(docs, ["y", "never", "x"]), [[2, 0, 1]])


def test_count_matrix_ngrams() -> None:
    texts = ["The cat sat on the mat.", "On the mat, the cat!"]
    docs = [ngrams(tokenize(t), 2) for t in texts]
    m = count_matrix(docs, ["the cat", "the mat", "cat sat"])
    np.testing.assert_array_equal(m, [[1, 1, 1], [1, 1, 0]])


def test_count_matrix_accepts_tuples_and_no_docs() -> None:
    np.testing.assert_array_equal(count_matrix((("a", "a"),), ("a",)), [[2]])
    empty = count_matrix([], ["a", "b"])
    assert empty.shape == (0, 2) and empty.dtype == np.int64


def test_count_matrix_over_several_chunks_equals_counting_each_document() -> None:
    # 1,300 documents: chunks of 512, 512 and a partial 276 (hclib.texts.tokens._COUNT_ROWS)
    rng = np.random.default_rng(3)
    pool = np.array([f"w{i}" for i in range(40)])
    docs = [list(rng.choice(pool, size=int(rng.integers(1, 60)))) for _ in range(1300)]
    vocab = [f"w{i}" for i in range(0, 40, 2)] + ["never"]  # odd words are not counted
    expected = [[Counter(d)[w] for w in vocab] for d in docs]
    m = count_matrix(docs, vocab)
    assert m.dtype == np.int64
    np.testing.assert_array_equal(m, expected)


_words = st.sampled_from(["the", "of", "and", "to", "a", "in", "upon", "whilst", "don't"])


@given(
    docs=st.lists(st.lists(_words, min_size=1, max_size=30), min_size=1, max_size=8),
    vocab=st.lists(st.sampled_from(["the", "of", "and", "upon", "whilst", "don't", "absent"]),
                   min_size=1, unique=True),
)
@settings(max_examples=200)
def test_count_matrix_matches_counter(docs: list[list[str]], vocab: list[str]) -> None:
    m = count_matrix(docs, vocab)
    assert m.shape == (len(docs), len(vocab))
    assert m.dtype == np.int64
    for i, doc in enumerate(docs):
        c = Counter(doc)
        assert m[i].tolist() == [c[w] for w in vocab]
    vs = set(vocab)
    assert m.sum(axis=1).tolist() == [sum(t in vs for t in doc) for doc in docs]


def test_count_matrix_empty_vocabulary() -> None:
    with pytest.raises(ValueError, match="vocabulary is empty"):
        count_matrix([["a"]], [])


def test_count_matrix_duplicate_vocabulary_named() -> None:
    with pytest.raises(ValueError, match=r"duplicate entries: 'of', 'the'"):
        count_matrix([["a"]], ["the", "of", "a", "the", "of"])


def test_count_matrix_vocabulary_string() -> None:
    with pytest.raises(ValueError, match="vocabulary must be a sequence of strings"):
        count_matrix([["a"]], "abc")


def test_count_matrix_empty_document_named() -> None:
    docs = [["a"], ["b"], ["a"], [], ["b"]]
    with pytest.raises(ValueError, match="document 3 is empty"):
        count_matrix(docs, ["a", "b"])


def test_count_matrix_docs_is_a_string() -> None:
    with pytest.raises(ValueError, match=r"not a single string.*tokenize\(t\) for t in texts"):
        count_matrix("the raw text of a paper", ["the"])


def test_count_matrix_docs_is_list_of_strings() -> None:
    with pytest.raises(ValueError, match=r"document 0 is a string.*tokenize\(t\) for t in texts"):
        count_matrix(["first text", "second text"], ["first"])


def test_count_matrix_later_doc_is_string() -> None:
    with pytest.raises(ValueError, match="document 1 is a string"):
        count_matrix([["a"], "b c"], ["a"])


# ---------------------------------------------------------------- builders


def test_most_frequent_ties_by_count_then_alphabet() -> None:
    docs = [["b", "a", "c", "c"], ["d", "b", "a", "e"]]
    # counts: a=2, b=2, c=2, d=1, e=1
    assert most_frequent(docs, 1) == ["a"]
    assert most_frequent(docs, 3) == ["a", "b", "c"]
    assert most_frequent(docs, 4) == ["a", "b", "c", "d"]
    assert most_frequent(docs, 100) == ["a", "b", "c", "d", "e"]


def test_most_frequent_counts_dominate_alphabet() -> None:
    docs = [["z", "z", "z", "a"], ["y", "y", "a"]]
    assert most_frequent(docs, 3) == ["z", "a", "y"]


def test_most_frequent_independent_of_doc_order() -> None:
    docs = [["x", "y"], ["y", "z"], ["z", "x"], ["w"]]
    assert most_frequent(docs, 3) == most_frequent(docs[::-1], 3) == ["x", "y", "z"]


def test_most_frequent_accepts_generator_and_ngrams() -> None:
    texts = ["the cat the cat", "the dog"]
    assert most_frequent((ngrams(tokenize(t), 2) for t in texts), 1) == ["the cat"]


@given(st.lists(st.lists(st.sampled_from("abcdefg"), max_size=10), max_size=6), st.integers(1, 9))
def test_most_frequent_matches_bruteforce(docs: list[list[str]], n: int) -> None:
    c = Counter(t for d in docs for t in d)
    expected = sorted(c, key=lambda w: (-c[w], w))[:n]
    assert most_frequent(docs, n) == expected


def test_most_frequent_rejects_strings() -> None:
    with pytest.raises(ValueError, match="not a single string"):
        most_frequent("abc", 2)
    with pytest.raises(ValueError, match="document 0 is a string"):
        most_frequent(["a text", "another"], 2)


def test_union_most_frequent_semantics() -> None:
    groups = {
        "hamilton": [["upon", "upon", "upon", "the", "the"], ["upon", "the", "of"]],
        "madison": [["whilst", "whilst", "the"], ["whilst", "the", "of", "of"]],
    }
    # hamilton: upon=4, the=3, of=1; madison: whilst=3, the=2, of=2
    # pooled: the=5, upon=4, whilst=3, of=3
    assert union_most_frequent(groups, 1) == ["upon", "whilst"]
    # madison's top 2 under the tie-break (the=of=2): whilst, of -- not the;
    # "the" enters through hamilton; of/whilst tie on pooled count 3
    assert union_most_frequent(groups, 2) == ["the", "upon", "of", "whilst"]
    assert union_most_frequent(groups, 3) == ["the", "upon", "of", "whilst"]
    assert union_most_frequent({"madison": groups["madison"]}, 2) == ["whilst", "of"]


def test_union_most_frequent_is_not_pooled_top() -> None:
    groups = {"big": [["a"] * 10 + ["b"] * 9], "small": [["c"]]}
    assert most_frequent([d for g in groups.values() for d in g], 1) == ["a"]
    assert union_most_frequent(groups, 1) == ["a", "c"]


@given(
    st.dictionaries(
        st.sampled_from(["A", "B", "C"]),
        st.lists(st.lists(st.sampled_from("abcdef"), max_size=8), max_size=4),
        max_size=3,
    ),
    st.integers(1, 4),
)
def test_union_most_frequent_matches_bruteforce(groups: dict[str, list[list[str]]], n: int) -> None:
    chosen = set()
    for docs in groups.values():
        chosen |= set(most_frequent(docs, n))
    pooled = Counter(t for docs in groups.values() for d in docs for t in d)
    assert union_most_frequent(groups, n) == sorted(chosen, key=lambda w: (-pooled[w], w))


def test_union_most_frequent_bad_input() -> None:
    with pytest.raises(ValueError, match="groups must be a mapping"):
        union_most_frequent([["a"]], 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"groups\['madison'\].*document 0 is a string"):
        union_most_frequent({"madison": ["raw text"]}, 1)


def test_first_n() -> None:
    ranked = ["The", "of", "AND", "the", "to", "Of", "a"]
    assert first_n(ranked, 1) == ["the"]
    assert first_n(ranked, 4) == ["the", "of", "and", "to"]
    assert first_n(ranked, 5) == ["the", "of", "and", "to", "a"]


def test_first_n_normalises_like_tokenize() -> None:
    assert first_n(["Don\u2019t\n", "  ", "don't", "is\n"], 2) == ["don't", "is"]


def test_first_n_too_few_words() -> None:
    with pytest.raises(ValueError, match="only 2 distinct words, fewer than n=3"):
        first_n(["a", "A", "b"], 3)


def test_first_n_bad_input() -> None:
    with pytest.raises(ValueError, match="not a single string"):
        first_n("the of and", 2)
    with pytest.raises(ValueError, match=r"ranked_words\[1\] is not a str"):
        first_n(["the", 3], 2)  # type: ignore[list-item]


@pytest.mark.parametrize("bad", [0, -3, 2.0, "5", False, None])
def test_builders_reject_bad_n(bad: object) -> None:
    for call in (
        lambda: most_frequent([["a"]], bad),  # type: ignore[arg-type]
        lambda: union_most_frequent({"g": [["a"]]}, bad),  # type: ignore[arg-type]
        lambda: first_n(["a"], bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError, match="n must be a positive integer"):
            call()


def test_group_documents_by_label() -> None:
    from hclib.texts.tokens import group_documents

    docs = [["a"], ["b"], ["c"], ["d"]]
    assert group_documents(docs, ["x", "y", "x", "z"]) == {"x": [["a"], ["c"]], "y": [["b"]], "z": [["d"]]}
    assert list(group_documents(docs, ["x", "y", "x", "z"], keep=["z", "x"])) == ["z", "x"]
    with pytest.raises(ValueError, match="one label per document"):
        group_documents(docs, ["x"])
    with pytest.raises(ValueError, match="no documents carry"):
        group_documents(docs, ["x", "y", "x", "z"], keep=["w"])
