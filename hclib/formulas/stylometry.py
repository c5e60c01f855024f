r"""Classical stylometric baselines: Burrows' Delta and Cosine Delta.

Both compare z-scored relative frequencies of a fixed list of words (usually the most frequent
words, "MFW"; the caller chooses them by passing counts over that vocabulary).

For a document with counts :math:`c_w` over the vocabulary :math:`W` the relative frequency is
:math:`f_w = c_w / \sum_{w' \in W} c_{w'}` (the length is the number of vocabulary tokens).
With :math:`\mu_w` and :math:`\sigma_w` the mean and standard deviation (``ddof=1``) of
:math:`f_w` over the **training documents**, a document's z-vector is
:math:`z_w = (f_w - \mu_w)/\sigma_w`, and an author's profile :math:`\bar z^{(a)}` is the mean
z-vector of the author's training documents. Then

* **Burrows' Delta** (Burrows 2002): :math:`\Delta(D, a) = \frac{1}{|W|} \sum_w |z_w(D) -
  \bar z^{(a)}_w|`, the mean absolute difference (Manhattan distance / :math:`|W|`);
* **Cosine Delta** (Smith & Aldridge 2011; Evert et al. 2017):
  :math:`\Delta_{\cos}(D, a) = 1 - \cos\left(z(D), \bar z^{(a)}\right)`.

Smaller is closer; a document is attributed to the author with the smallest Delta.

Choices
-------
* Words whose relative frequency has zero standard deviation over the training documents
  (typically words absent from all of them) cannot be standardised and are **dropped**
  before anything else; if no word is left, ``ValueError``.
* The standardisation uses every training document, also in leave-one-out mode: it does not
  use the labels, only the spread of each word in the training collection (as in Burrows'
  original procedure, where the z-scores are taken over the whole comparison corpus). In
  leave-one-out mode the held-out document is removed from its own author's **profile**.
* Computation is vectorised over (chunk of test documents × authors × words) and streamed in
  chunks of test documents to bound memory.
* :func:`delta_without` refits the z-scores and profiles without a set of training documents
  for each group of test documents (grouped leave-one-out) from running sums: the sums of
  :math:`f_w` and :math:`f_w^2` over all training documents and per author, less those of the
  documents left out. A refit then costs the documents left out, not the whole collection,
  so leave-one-out on :math:`n` texts is linear in :math:`n`, not quadratic.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from hclib._checks import as_counts, check_count_matrices

__all__ = ["delta_scores", "delta_matrix", "delta_without", "zscore_frequencies"]

#: The two Delta variants of :func:`delta_scores`; as attribution methods they are registered
#: in :mod:`hclib.attribution.methods` as ``burrows_delta`` and ``cosine_delta``.
DeltaMethod = Literal["burrows", "cosine"]
_VARIANTS = ("burrows", "cosine")

# float64 elements of one (chunk × authors × words) temporary allowed at once (~64 MB).
_CHUNK_ELEMENTS = 8_000_000


def _relative(counts: np.ndarray, name: str) -> np.ndarray:
    totals = counts.sum(axis=1, keepdims=True)
    if (totals == 0).any():
        i = int(np.flatnonzero(totals[:, 0] == 0)[0])
        raise ValueError(
            f"{name} row {i} has no tokens in the vocabulary: its relative frequencies are undefined"
        )
    return counts / totals


def zscore_frequencies(
    test_counts: ArrayLike, train_counts: ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """z-scored relative frequencies of test and training documents.

    Returns ``(z_test, z_train, kept)``: the z-vectors over the kept words and the boolean mask
    of the vocabulary words kept (those with non-zero standard deviation over the training
    documents). Mean and standard deviation (``ddof=1``) are taken over the training documents.
    """
    test, train = check_count_matrices(test_counts, train_counts, ("test_counts", "train_counts"),
                                       ("test documents", "training documents"))
    if train.shape[0] < 2:
        raise ValueError(
            f"z-scores need at least 2 training documents to estimate a standard deviation, "
            f"got {train.shape[0]}"
        )
    f_train = _relative(train, "train_counts")
    f_test = _relative(test, "test_counts")
    mu = f_train.mean(axis=0)
    sd = f_train.std(axis=0, ddof=1)
    kept = sd > 0
    if not kept.any():
        raise ValueError(
            "every word has zero standard deviation over the training documents: "
            "nothing to standardise"
        )
    z_train = (f_train[:, kept] - mu[kept]) / sd[kept]
    z_test = (f_test[:, kept] - mu[kept]) / sd[kept]
    return z_test, z_train, kept


def _pairwise(z: np.ndarray, profiles: np.ndarray, method: str) -> np.ndarray:
    """Delta of every row of ``z`` to every profile, streamed over chunks of rows."""
    n, k = z.shape
    n_auth = profiles.shape[0]
    out = np.empty((n, n_auth))
    if method == "burrows":
        step = max(1, _CHUNK_ELEMENTS // max(1, n_auth * k))
        for s in range(0, n, step):
            diff = z[s : s + step, None, :] - profiles[None, :, :]
            out[s : s + step] = np.abs(diff).mean(axis=-1)
    else:
        out[:] = 1.0 - _unit(z, "a test document") @ _unit(profiles, "an author profile").T
    return out


def _unit(v: np.ndarray, what: str) -> np.ndarray:
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    # z-vectors have norms of order sqrt(|W|); one at rounding-error level is the zero vector
    # (e.g. the profile of the only author, which is the training mean itself).
    if (norm <= 1e-9 * np.sqrt(v.shape[-1])).any():
        raise ValueError(
            f"{what} has an all-zero z-vector (it equals the training mean on every word): "
            "its cosine is undefined"
        )
    return v / norm


def delta_scores(
    test_counts: ArrayLike,
    train_counts: ArrayLike,
    train_labels: Sequence[Hashable],
    *,
    method: DeltaMethod = "burrows",
    leave_one_out: bool = False,
    own: ArrayLike | None = None,
) -> tuple[list[Hashable], np.ndarray]:
    """Burrows' Delta or Cosine Delta of every test document to every training author.

    Parameters
    ----------
    test_counts, train_counts
        (documents × words) count matrices over the same vocabulary (e.g. the most frequent
        words).
    train_labels
        The author of each training document.
    method
        ``"burrows"`` (mean absolute difference of z-scores) or ``"cosine"`` (1 − cosine).
    leave_one_out
        ``test_counts`` are the training documents themselves (same rows, same order), and each
        is removed from its own author's profile before the comparison. An author with a single
        training document then has no profile left: ``ValueError``.
    own
        The general form of leave-one-out: ``own[i] = j`` says test document ``i`` is training
        document ``j`` (same counts), which is then removed from its author's profile when
        document ``i`` is compared with it; ``-1`` for a test document of no author.
        ``leave_one_out=True`` is ``own = range(len(train_counts))``.

    Returns
    -------
    (authors, deltas)
        The distinct labels in order of first appearance, and the (tests × authors) matrix of
        Delta distances (smaller = closer).

    See the module docstring for the z-scores, dropped zero-variance words and profiles.
    """
    if method not in _VARIANTS:
        raise ValueError(f"unknown Delta method {method!r}; choose one of {_VARIANTS}")
    labels = list(train_labels)
    train = as_counts(train_counts, "train_counts")
    if train.ndim != 2 or len(labels) != train.shape[0]:
        raise ValueError(
            f"{len(labels)} train_labels for train_counts of shape {train.shape}: "
            "give one label per training document"
        )
    if leave_one_out:
        test = as_counts(test_counts, "test_counts")
        if test.shape != train.shape or not np.array_equal(test, train):
            raise ValueError(
                "leave_one_out=True: test_counts must be the training documents themselves "
                f"(same rows in the same order), got shapes {test.shape} and {train.shape} "
                "or different counts"
            )
    z_test, z_train, _ = zscore_frequencies(test_counts, train)
    if leave_one_out:
        own_arr = np.arange(len(labels))
    elif own is None:
        own_arr = np.full(z_test.shape[0], -1)
    else:
        own_arr = np.asarray(own, dtype=np.int64)
        if own_arr.shape != (z_test.shape[0],) or ((own_arr < -1) | (own_arr >= len(labels))).any():
            raise ValueError(f"own must give one training-document index (or -1) per test "
                             f"document ({z_test.shape[0]}), got {own!r}")
    rows = np.flatnonzero(own_arr >= 0)

    authors = list(dict.fromkeys(labels))
    index = {a: i for i, a in enumerate(authors)}
    doc_author = np.array([index[a] for a in labels], dtype=np.int64)
    n_docs = np.bincount(doc_author, minlength=len(authors))
    sums = np.zeros((len(authors), z_train.shape[1]))
    np.add.at(sums, doc_author, z_train)
    profiles = sums / n_docs[:, None]

    own_author = doc_author[own_arr[rows]]
    if (n_docs[own_author] < 2).any():
        lone = authors[int(own_author[np.flatnonzero(n_docs[own_author] < 2)[0]])]
        raise ValueError(
            f"leave-one-out: author {lone!r} has a single training document, so removing "
            "it leaves no profile to compare with"
        )

    out = _pairwise(z_test, profiles, method)
    if rows.size:
        # Each such document against its own author's profile without it (vectorised).
        loo = (sums[own_author] - z_train[own_arr[rows]]) / (n_docs[own_author] - 1)[:, None]
        z = z_test[rows]
        if method == "burrows":
            own_delta = np.abs(z - loo).mean(axis=1)
        else:
            own_delta = 1.0 - np.sum(
                _unit(z, "a test document") * _unit(loo, "a leave-one-out profile"), axis=1
            )
        out[rows, own_author] = own_delta
    return authors, out


def delta_matrix(
    doc_counts: ArrayLike, doc_author: ArrayLike, *, method: DeltaMethod = "burrows"
) -> np.ndarray:
    """Delta of every document to every corpus, in the layout of :func:`hclib.discrepancy_matrix`.

    ``doc_author[i]`` is the corpus (``0 .. n_corpora - 1``) whose training documents include
    document ``i``, or ``-1`` for a document of no corpus (a test document). Training documents
    are compared leave-one-out (removed from their own corpus's profile); test documents with
    the full profiles. The z-scores use the training documents only. Returns the
    (documents × corpora) matrix, column ``a`` being corpus ``a``, so it can be passed to
    :func:`hclib.calibration.relative_ranks` like an HC discrepancy matrix.
    """
    counts = as_counts(doc_counts, "doc_counts")
    member = np.asarray(doc_author)
    if counts.ndim != 2 or member.shape != (counts.shape[0],) or not np.issubdtype(
        member.dtype, np.integer
    ):
        raise ValueError(
            "doc_counts must be (documents × words) and doc_author one integer corpus index per "
            f"document, got shapes {counts.shape} and {member.shape}"
        )
    train = member >= 0
    n_corpora = int(member.max()) + 1 if train.any() else 0
    present = np.unique(member[train])
    if n_corpora == 0 or present.size != n_corpora:
        missing = sorted(set(range(n_corpora)) - set(present.tolist()))
        raise ValueError(
            f"doc_author must name corpora 0 .. k-1, each with training documents; missing {missing}"
            if n_corpora
            else "doc_author has no training documents (every entry is -1)"
        )
    labels = member[train]
    out = np.empty((counts.shape[0], n_corpora))
    authors, loo = delta_scores(
        counts[train], counts[train], labels, method=method, leave_one_out=True
    )
    order = np.array(authors)  # first-appearance order -> corpus index
    out[np.flatnonzero(train)[:, None], order[None, :]] = loo
    if (~train).any():
        _, test = delta_scores(counts[~train], counts[train], labels, method=method)
        out[np.flatnonzero(~train)[:, None], order[None, :]] = test
    return out


def delta_without(
    test_counts: ArrayLike,
    train_counts: ArrayLike,
    train_labels: Sequence[Hashable],
    leave_out: Sequence[tuple[ArrayLike, ArrayLike]],
    *,
    method: DeltaMethod = "burrows",
) -> tuple[list[Hashable], np.ndarray]:
    """:func:`delta_scores` refitted without some training documents, for each group of
    test documents: ``leave_out`` lists pairs ``(tests, dropped)`` of index arrays, and test
    documents ``tests`` are compared with the z-scores and author profiles of the training
    documents outside ``dropped`` (module docstring). The same numbers as calling
    :func:`delta_scores` on ``train_counts[keep]`` for each pair, at the cost of the dropped
    documents only. Returns (authors, deltas) with every author of ``train_labels``, in
    order of first appearance; NaN for a test row no pair names."""
    if method not in _VARIANTS:
        raise ValueError(f"unknown Delta method {method!r}; choose one of {_VARIANTS}")
    test, train = check_count_matrices(test_counts, train_counts,
                                       ("test_counts", "train_counts"),
                                       ("test documents", "training documents"))
    labels = list(train_labels)
    if len(labels) != train.shape[0]:
        raise ValueError(f"{len(labels)} train_labels for {train.shape[0]} training documents")
    authors = list(dict.fromkeys(labels))
    index = {a: i for i, a in enumerate(authors)}
    author = np.array([index[a] for a in labels], dtype=np.int64)
    f_train = _relative(train, "train_counts")
    f_test = _relative(test, "test_counts")
    present = (train > 0).astype(np.int64)
    n_auth, n_words = len(authors), train.shape[1]
    a_sum = np.zeros((n_auth, n_words))
    np.add.at(a_sum, author, f_train)
    a_n = np.bincount(author, minlength=n_auth)
    s1, s2, seen = f_train.sum(axis=0), (f_train ** 2).sum(axis=0), present.sum(axis=0)
    out = np.full((test.shape[0], n_auth), np.nan)
    for tests, dropped in leave_out:
        rows = np.asarray(tests, dtype=np.int64)
        drop = np.asarray(dropped, dtype=np.int64)
        f_drop = f_train[drop]
        n = train.shape[0] - drop.size
        if n < 2:
            raise ValueError("z-scores need at least 2 training documents to estimate a "
                             f"standard deviation, got {n}")
        mu = (s1 - f_drop.sum(axis=0)) / n
        var = np.maximum((s2 - (f_drop ** 2).sum(axis=0)) / n - mu ** 2, 0.0) * n / (n - 1)
        # a word absent from every document kept has no spread (its sums are rounding only)
        kept = (seen - present[drop].sum(axis=0) > 0) & (var > 1e-12 * (mu ** 2 + 1e-300))
        if not kept.any():
            raise ValueError("every word has zero standard deviation over the training "
                             "documents: nothing to standardise")
        sums = a_sum.copy()
        np.subtract.at(sums, author[drop], f_drop)
        counts = a_n - np.bincount(author[drop], minlength=n_auth)
        alive = counts > 0
        sd = np.sqrt(var[kept])
        profiles = (sums[alive][:, kept] / counts[alive, None] - mu[kept]) / sd
        z = (f_test[rows][:, kept] - mu[kept]) / sd
        block = np.full((rows.size, n_auth), np.nan)
        block[:, alive] = _pairwise(z, profiles, method)
        out[rows] = block
    return authors, out
