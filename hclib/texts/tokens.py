"""Text utilities: tokenisation, word n-grams, count matrices and vocabularies.

These turn raw texts into the word-frequency tables that Higher Criticism
compares (Kipnis, "Higher Criticism for Discriminating Word-Frequency Tables
and Authorship Attribution").

Tokenisation decisions (:func:`tokenize`)
-----------------------------------------
* The text is first put in Unicode NFC form, so that a letter written as a
  base character plus a combining accent counts as one letter.
* A token is a maximal run of Unicode letters (the regex class ``[^\\W\\d_]``,
  i.e. characters with :meth:`str.isalpha`), lower-cased with
  :meth:`str.lower` (``İ`` becomes ``i``). Limitation: combining marks that
  have no precomposed form are not letters, so they split words; scripts
  that use them (e.g. Devanagari vowel signs) are not tokenised sensibly.
* Apostrophes *inside* a word are kept and normalised to the ASCII ``'``:
  ``don't``, ``madison's``; the typographic forms ``’`` (U+2019), ``‘``
  (U+2018) and ``ʼ`` (U+02BC) become ``'``.
* Leading and trailing apostrophes are dropped, since they are usually
  quotation marks: ``'tis`` -> ``tis``, ``authors'`` -> ``authors``.
  Two apostrophes in a row separate (``a''b`` -> ``a``, ``b``).
* Digits and other numeric characters (``²``, ``½``, ``Ⅻ``) are dropped
  and separate tokens: numbers such as ``1787`` or ``3.5`` produce no token,
  and ``1st`` -> ``st``. Roman numerals written with letters (``XII``) are
  ordinary words.
* Every other character (whitespace, punctuation, symbols, underscores)
  separates tokens. Hence hyphenated words split (``well-known`` -> ``well``,
  ``known``) and the Project Gutenberg italics markers in ``_word_`` vanish.

Counting and vocabularies
-------------------------
:func:`count_matrix` takes *tokenised* documents (lists of tokens, or lists of
n-gram strings from :func:`ngrams`) and a vocabulary, and returns a
documents x vocabulary ``int64`` table of counts.

The vocabulary builders :func:`most_frequent` and :func:`union_most_frequent`
break ties deterministically: items are ordered by count, descending, and
then alphabetically (plain Python string order), so the output does not
depend on the order of the documents.
"""

from __future__ import annotations

import heapq
import numbers
import re
import unicodedata
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any
from itertools import chain

import numpy as np
import pandas as pd

from hclib._checks import InputTypeError, check_labels

__all__ = [
    "tokenize",
    "ngrams",
    "count_matrix",
    "most_frequent",
    "choose_vocabulary",
    "group_documents",
    "union_most_frequent",
    "first_n",
]

# Typographic apostrophes mapped to the ASCII one before matching.
# Also map 'İ' (U+0130) to 'i': str.lower() would give 'i' + combining dot
# above (U+0307), the only letter whose lower case is not all letters.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u0130": "i"})

# A run of letters, optionally continued by (apostrophe, run of letters)*.
# Leading/trailing apostrophes are never part of a match. ``[^\W\d_]`` still
# admits numeric characters outside category Nd (e.g. '²', '½', 'Ⅻ'); tokenize
# removes those in a second pass, so tokens consist of letters (str.isalpha).
_TOKEN_RE = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
# The same on an ASCII text, lower-cased first: its letters are a-z, and it has no numerics
# beyond 0-9. Every other character only separates: a blank (_ASCII_BLANKS).
_ASCII_TOKEN_RE = re.compile(r"[a-z]+(?:'[a-z]+)*")
_ASCII_BLANKS = str.maketrans({chr(i): " " for i in range(128)
                               if not (chr(i).islower() or chr(i) == "'")})

_DOCS_HINT = (
    "pass a list of token lists, e.g. [tokenize(t) for t in texts] "
    "(or [ngrams(tokenize(t), 2) for t in texts])"
)


def _normalise(text: str) -> str:
    """NFC-normalise ``text`` and map typographic apostrophes to ``'``."""
    return unicodedata.normalize("NFC", text).translate(_APOSTROPHES)


def _drop_numerics(s: str) -> str:
    """Replace every character that is neither a letter nor ``'`` by a space."""
    return "".join(c if c.isalpha() or c == "'" else " " for c in s)


def _check_n(n: object, name: str = "n") -> int:
    """Return ``n`` as an int if it is a positive integer, else raise ValueError."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def _check_docs(docs: object, where: str = "docs") -> None:
    """Reject a plain string passed where a collection of token lists is expected."""
    if isinstance(docs, str):
        raise ValueError(
            f"{where} must be a collection of tokenised documents, not a single "
            f"string; {_DOCS_HINT}"
        )


def _check_doc(doc: object, i: int, where: str = "docs") -> None:
    """Reject a document that is a string rather than a sequence of tokens."""
    if isinstance(doc, str):
        raise ValueError(
            f"{where} must be a list of token lists, but document {i} is a string "
            f"(got a list of strings?); {_DOCS_HINT}"
        )


def _pooled_counts(docs: Iterable[Sequence[str]], where: str = "docs") -> Counter[str]:
    """Counts of every item over all documents pooled."""
    _check_docs(docs, where)
    counts: Counter[str] = Counter()
    for i, doc in enumerate(docs):
        _check_doc(doc, i, where)
        counts.update(doc)
    bad = [w for w in counts if not isinstance(w, str)]
    if bad:
        raise TypeError(f"{where} must hold string tokens (lists of str), but one of them is "
                        f"{type(bad[0]).__name__} {bad[0]!r}")
    return counts


def _top(counts: Mapping[str, int], n: int) -> list[str]:
    """The ``n`` items with largest count; ties broken alphabetically."""
    return [w for w, _ in heapq.nsmallest(n, counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lower-cased word tokens (see the module docstring).

    >>> tokenize("Madison’s well-known _Federalist_ No. 10, 'tis said; don't!")
    ["madison's", 'well', 'known', 'federalist', 'no', 'tis', 'said', "don't"]
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    text = _normalise(text)
    if text.isascii():  # the same tokens, 5x faster (below)
        return _ascii_tokens(text)
    out: list[str] = []
    for m in _TOKEN_RE.findall(text):
        if m.replace("'", "").isalpha():
            out.append(m.lower())
        else:  # rare: contains a non-decimal numeric such as '²', '½', 'Ⅻ'
            out.extend(t.lower() for t in _TOKEN_RE.findall(_drop_numerics(m)))
    return out


def _ascii_tokens(text: str) -> list[str]:
    """:func:`tokenize` of an ASCII text: blanks for every character but a-z and ``'``,
    split, and :data:`_ASCII_TOKEN_RE` only on the pieces with an apostrophe."""
    blanked = text.lower().translate(_ASCII_BLANKS)
    pieces = blanked.split()
    if "'" not in blanked:
        return pieces
    return [t for p in pieces for t in ((p,) if "'" not in p else _ASCII_TOKEN_RE.findall(p))]


def ngrams(tokens: Sequence[str], n: int) -> list[str]:
    """Word n-grams of ``tokens``, each joined by a single space.

    ``n == 1`` returns the tokens themselves; fewer than ``n`` tokens give ``[]``.

    >>> ngrams(["a", "b", "c"], 2)
    ['a b', 'b c']
    """
    n = _check_n(n)
    if isinstance(tokens, str):
        raise ValueError("tokens must be a sequence of tokens, not a string; use tokenize(text) first")
    toks = list(tokens)
    if n == 1:
        return toks
    return [" ".join(toks[i : i + n]) for i in range(len(toks) - n + 1)]


#: Documents per chunk of :func:`count_matrix`.
_COUNT_ROWS = 512


def count_matrix(docs: Sequence[Sequence[str]], vocabulary: Sequence[str]) -> np.ndarray:
    """Counts of each vocabulary item in each document.

    Returns an ``int64`` array of shape ``(len(docs), len(vocabulary))`` whose
    entry ``[i, j]`` is the number of times ``vocabulary[j]`` occurs in
    ``docs[i]``. Items not in the vocabulary are ignored. ``docs`` must be
    tokenised (a sequence of token / n-gram lists); every document must be
    non-empty and the vocabulary non-empty and free of duplicates.
    """
    _check_docs(docs)
    if isinstance(vocabulary, str):
        raise ValueError("vocabulary must be a sequence of strings, not a single string")
    vocab = list(vocabulary)
    if not vocab:
        raise ValueError("vocabulary is empty")
    dup = sorted(w for w, c in Counter(vocab).items() if c > 1)
    if dup:
        raise ValueError(f"vocabulary has duplicate entries: {', '.join(map(repr, dup))}")

    doc_list = list(docs)
    lengths = np.empty(len(doc_list), dtype=np.int64)
    for i, doc in enumerate(doc_list):
        _check_doc(doc, i)
        lengths[i] = len(doc)
        if lengths[i] == 0:
            raise ValueError(f"document {i} is empty")

    n_docs, n_vocab = len(doc_list), len(vocab)
    index = pd.Index(vocab, dtype=object)
    counts = np.zeros((n_docs, n_vocab), dtype=np.int64)
    for start in range(0, n_docs, _COUNT_ROWS):  # the temporaries stay a few MB
        part, size = doc_list[start:start + _COUNT_ROWS], lengths[start:start + _COUNT_ROWS]
        cols = index.get_indexer(np.fromiter(chain.from_iterable(part), dtype=object,
                                             count=int(size.sum())))
        rows = np.repeat(np.arange(len(part), dtype=np.int64), size)
        keep = cols >= 0
        counts[start:start + len(part)] = np.bincount(
            rows[keep] * n_vocab + cols[keep], minlength=len(part) * n_vocab
        ).reshape(len(part), n_vocab)
    return counts


def most_frequent(docs: Iterable[Sequence[str]], n: int) -> list[str]:
    """The ``n`` most frequent items over all documents pooled.

    Ordered by pooled count descending, ties alphabetically. If there are
    fewer than ``n`` distinct items, all of them are returned.
    """
    n = _check_n(n)
    return _top(_pooled_counts(docs), n)


def choose_vocabulary(vocabulary: Any, docs: Sequence[Sequence[str]], default: int
                      ) -> list[str]:
    """The vocabulary a tool compares over: ``None`` -> the ``default`` most frequent items of
    ``docs``, a number ``n`` -> the ``n`` most frequent (:func:`most_frequent`), a list of
    items -> that list without repeats. At least two items."""
    if vocabulary is None or (isinstance(vocabulary, (int, np.integer))
                              and not isinstance(vocabulary, bool)):
        n = default if vocabulary is None else int(vocabulary)
        if n < 2:
            raise ValueError(f"vocabulary must be at least 2 items, got {n}")
        return most_frequent(docs, n)
    if isinstance(vocabulary, str) or not isinstance(vocabulary, Sequence):
        raise TypeError("vocabulary must be a number of most frequent items or a list of items, "
                        f"got {type(vocabulary).__name__}")
    vocab = list(dict.fromkeys(vocabulary))
    if len(vocab) < 2 or not all(isinstance(w, str) for w in vocab):
        raise ValueError("vocabulary must list at least two distinct items (strings)")
    return vocab


def group_documents(
    docs: Sequence[Sequence[str]], labels: Sequence[Hashable], keep: Iterable[Hashable] | None = None
) -> dict[Hashable, list[Sequence[str]]]:
    """Tokenised documents grouped by label, e.g. by author, for :func:`union_most_frequent`.

    Groups appear in order of first appearance, or in the order of ``keep`` (only those labels).
    """
    _check_docs(docs)
    labels = check_labels(labels, len(docs))
    if isinstance(keep, (str, bytes)):
        raise InputTypeError(f"keep must be a collection of labels, not a single string {keep!r}")
    order = list(dict.fromkeys(labels)) if keep is None else list(keep)
    groups: dict[Hashable, list[Sequence[str]]] = {label: [] for label in order}
    for doc, label in zip(docs, labels):
        if label in groups:
            groups[label].append(doc)
    empty = [label for label, members in groups.items() if not members]
    if empty:
        raise ValueError(f"no documents carry the label(s) {empty}")
    return groups


def union_most_frequent(groups: Mapping[str, Iterable[Sequence[str]]], n: int) -> list[str]:
    """Union over groups of each group's ``n`` most frequent items.

    ``groups`` maps a group name (e.g. an author) to that group's tokenised
    documents. Each group's top ``n`` is chosen with the same tie-breaking as
    :func:`most_frequent`; the union is ordered by count pooled over all
    groups, descending, ties alphabetically.
    """
    n = _check_n(n)
    if not isinstance(groups, Mapping):
        raise ValueError(
            f"groups must be a mapping from group name to tokenised documents, "
            f"got {type(groups).__name__}"
        )
    pooled: Counter[str] = Counter()
    chosen: set[str] = set()
    for name, docs in groups.items():
        counts = _pooled_counts(docs, where=f"groups[{name!r}]")
        chosen.update(_top(counts, n))
        pooled.update(counts)
    return sorted(chosen, key=lambda w: (-pooled[w], w))


def first_n(ranked_words: Sequence[str], n: int) -> list[str]:
    """The first ``n`` distinct words of a ranked word list, lower-cased.

    Words are stripped of surrounding whitespace, lower-cased and given the
    same apostrophe normalisation as :func:`tokenize`; blank entries are
    skipped and later duplicates dropped (the first occurrence keeps its
    rank). Raises ValueError if fewer than ``n`` distinct words are available.
    """
    n = _check_n(n)
    if isinstance(ranked_words, str):
        raise ValueError("ranked_words must be a sequence of words, not a single string")
    out: dict[str, None] = {}
    for i, w in enumerate(ranked_words):
        if not isinstance(w, str):
            raise ValueError(f"ranked_words[{i}] is not a str: {w!r}")
        w = _normalise(w).strip().lower()
        if w:
            out.setdefault(w, None)
            if len(out) == n:
                return list(out)
    raise ValueError(f"ranked_words has only {len(out)} distinct words, fewer than n={n}")
