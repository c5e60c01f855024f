r"""Simulated P-values and word-frequency tables for the book's experiments.

Two null/alternative generators, both seeded through a :class:`numpy.random.Generator`:

* :func:`rare_weak_pvalues` — the sparse normal mixture of Donoho and Jin (2004), the model
  under which Higher Criticism was designed: :math:`N` one-sided tests whose z-scores are
  :math:`Z_j = \mu B_j + \varepsilon_j` with :math:`B_j \sim \mathrm{Bernoulli}(\epsilon)` and
  :math:`\varepsilon_j \sim N(0, 1)` independent, and P-values :math:`\pi_j = \bar\Phi(Z_j)`.
  With :math:`\epsilon = 0` (or :math:`\mu = 0`) the P-values are i.i.d. uniform.
* :func:`sprinkle` — the random-relabelling null behind the binomial allocation model (Kipnis,
  Section 1.2): the occurrences of the two tables are pooled and table 1 receives a uniformly
  random subset of :math:`T_1` of them (a multivariate hypergeometric draw), table 2 the rest.
  Every word's count in table 1 is then hypergeometric, close to the
  :math:`\mathrm{Bin}(n, p)` of the allocation model when the tables are large compared with
  the word's count :math:`n`.

And two generators of whole corpora, :func:`zipf_corpus` (counts) and
:func:`zipf_author_texts` (texts): documents of several authors whose word frequencies are
Zipf-like and differ a little from author to author (for benchmarks, demonstrations of the
engine and the synthetic problems of the attribution tests and studies).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from hclib._checks import (MAX_TABLE_TOTAL, InputTypeError, check_positive_int, check_real,
                      check_table_pair)

__all__ = ["rare_weak_pvalues", "sprinkle", "zipf_author_texts", "zipf_corpus"]

RandomState = np.random.Generator | int | None


def _generator(rng: RandomState) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        if rng is not None and rng < 0:
            raise ValueError(f"rng must be a non-negative integer seed, got {rng!r}")
        return np.random.default_rng(rng)
    raise InputTypeError(f"rng must be a numpy Generator, an integer seed or None, got {rng!r}")


def _shape(n: int, reps: int | None, name: str) -> tuple[int, ...]:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    if reps is None:
        return (int(n),)
    if isinstance(reps, bool) or not isinstance(reps, numbers.Integral) or reps < 1:
        raise ValueError(f"reps must be a positive integer or None, got {reps!r}")
    return (int(reps), int(n))


def _int_range(bounds: tuple[int, int], name: str, high: int | None = None) -> tuple[int, int]:
    """A range ``(low, high)`` of integers with ``1 <= low <= high`` (``<= high`` if given)."""
    try:
        low, top = bounds
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be a range (low, high) of two integers, "
                             f"got {bounds!r}") from None
    low = check_positive_int(low, f"{name}[0]")
    top = check_positive_int(top, f"{name}[1]")
    if not low <= top or (high is not None and top > high):
        limit = "" if high is None else f" <= {high:,}"
        raise ValueError(f"{name} must be a range (low, high) with 1 <= low <= high{limit}, "
                         f"got {bounds}")
    return low, top


def rare_weak_pvalues(
    n_tests: int,
    eps: float,
    mu: float,
    *,
    reps: int | None = None,
    rng: RandomState = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""One-sided normal P-values from the rare/weak mixture.

    Each of the ``n_tests`` tests is non-null independently with probability ``eps``; a
    non-null test has z-score :math:`N(\mu, 1)`, a null one :math:`N(0, 1)`, and the P-value is
    the upper tail :math:`\bar\Phi(Z)` (``scipy.stats.norm.sf``, accurate far into the tail).

    Returns ``(pvalues, nonnull)``, both of shape ``(n_tests,)``, or ``(reps, n_tests)`` when
    ``reps`` is given; ``nonnull`` is the boolean mask of the non-null tests.
    """
    shape = _shape(n_tests, reps, "n_tests")
    eps = check_real(eps, "eps")
    mu = check_real(mu, "mu")
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"eps must be a fraction in [0, 1], got {eps!r}")
    gen = _generator(rng)
    nonnull = gen.random(shape) < eps
    z = gen.standard_normal(shape) + mu * nonnull
    return stats.norm.sf(z), nonnull


def sprinkle(
    x: ArrayLike, y: ArrayLike, *, reps: int | None = None, rng: RandomState = None
) -> tuple[np.ndarray, np.ndarray]:
    """Random relabelling of the word occurrences of two tables.

    ``x`` and ``y`` are count tables over the same vocabulary (1-D). The :math:`T_1 + T_2`
    occurrences are pooled and a uniformly random subset of :math:`T_1` of them is labelled
    "table 1": the simulated ``x`` is a multivariate hypergeometric draw from the pooled table
    and the simulated ``y`` is the pooled table minus it. Table sizes and the pooled counts of
    every word are preserved exactly.

    Returns ``(x_sim, y_sim)`` of shape ``(N,)``, or ``(reps, N)`` when ``reps`` is given.
    """
    x, y = check_table_pair(x, y)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"sprinkle takes two 1-D tables, got shapes {x.shape} and {y.shape}")
    shape = _shape(x.shape[-1], reps, "the vocabulary size")
    gen = _generator(rng)
    pooled = x + y
    size = None if reps is None else shape[0]
    x_sim = gen.multivariate_hypergeometric(pooled, int(x.sum()), size=size).astype(np.int64)
    return x_sim, pooled - x_sim


def zipf_corpus(
    n_authors: int,
    n_words: int,
    *,
    docs_per_author: tuple[int, int] = (10, 30),
    doc_words: tuple[int, int] = (10_000, 100_000),
    exponent: float = 1.07,
    author_noise: float = 0.3,
    rng: RandomState = None,
) -> tuple[np.ndarray, list[str]]:
    r"""Seeded (documents × words) counts of ``n_authors`` authors, and their labels.

    Word frequencies are Zipf-like, :math:`q_w \propto \mathrm{rank}^{-\text{exponent}}`,
    multiplied per author by lognormal noise (:math:`\sigma` = ``author_noise``) and renormalised.
    Each author has a uniformly drawn number of documents in ``docs_per_author`` (inclusive), each
    a multinomial draw of a uniformly drawn length in ``doc_words`` (inclusive).
    """
    n_authors = check_positive_int(n_authors, "n_authors")
    n_words = check_positive_int(n_words, "n_words")
    docs_per_author = _int_range(docs_per_author, "docs_per_author")
    doc_words = _int_range(doc_words, "doc_words", high=MAX_TABLE_TOTAL)
    exponent = check_real(exponent, "exponent")
    author_noise = check_real(author_noise, "author_noise", low=0.0)
    gen = _generator(rng)
    base = 1.0 / np.arange(1, n_words + 1) ** exponent
    base /= base.sum()
    docs: list[np.ndarray] = []
    labels: list[str] = []
    for a in range(n_authors):
        q = base * gen.lognormal(0.0, author_noise, n_words)
        q /= q.sum()
        for _ in range(int(gen.integers(docs_per_author[0], docs_per_author[1] + 1))):
            length = int(gen.integers(doc_words[0], doc_words[1] + 1))
            docs.append(gen.multinomial(length, q))
            labels.append(f"author{a}")
    return np.array(docs, dtype=np.int64), labels


def zipf_author_texts(authors: Sequence[str], vocabulary: Sequence[str], n_texts: int,
                      length: int, *, spread: float = 0.5, rng: RandomState = None
                      ) -> dict[str, list[str]]:
    r"""Seeded texts of each of ``authors``: ``n_texts`` texts of ``length`` words each,
    every word drawn from ``vocabulary`` with the author's rates :math:`q_w \propto
    e^{\varepsilon_w} / \mathrm{rank}(w)`, :math:`\varepsilon_w \sim N(0,`
    ``spread`` :math:`^2)` drawn once per author (a multinomial text, words joined by
    spaces)."""
    words = list(vocabulary)
    if not words or not all(isinstance(w, str) and w and not w.isspace() for w in words):
        raise ValueError("vocabulary must be a non-empty sequence of non-blank words")
    n_texts = check_positive_int(n_texts, "n_texts")
    length = check_positive_int(length, "length")
    spread = check_real(spread, "spread", low=0.0)
    gen = _generator(rng)
    base = 1 / np.arange(1, len(words) + 1)
    texts = {}
    for a in authors:
        q = base * np.exp(gen.normal(0, spread, len(words)))
        q /= q.sum()
        texts[a] = [" ".join(gen.choice(words, size=length, p=q)) for _ in range(n_texts)]
    return texts
