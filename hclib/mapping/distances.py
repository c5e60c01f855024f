r"""The pairwise distance matrix of a map: every text against every other text.

Any method of the registry (:data:`hclib.attribution.methods.METHODS`) that compares two texts
gives a distance:

* the corpus measures (HC† ``hc_dagger``, HC* ``hc_star``, ``fisher``, ``hc_midp``, ``hc_ztest``,
  ``hc_gtest``, the power divergences ``g2``, ``cressie_read``, ``chi2`` and the raw-count
  ``cosine``) compare the two word-frequency tables directly, :math:`d_{ij} = d(D_i, D_j)`;
* Burrows' Delta and Cosine Delta compare z-scored relative frequencies, the mean and standard
  deviation (``ddof=1``) of each item taken over the texts of the map (as R stylo does):
  :math:`\Delta_{ij} = \frac1{|W|}\sum_w |z_{iw} - z_{jw}|` and
  :math:`1 - \cos(z_i, z_j)`.

**Symmetry.** Every one of these is symmetric in its two tables. For the HC measures: the
binomial-allocation P-value of word :math:`w`, :math:`\pi(w|D_i, D_j)`, tests
:math:`x_w \sim \mathrm{Bin}(x_w + y_w, T_i/(T_i + T_j))`, and the same test read from the other
table (:math:`y_w \sim \mathrm{Bin}(x_w + y_w, T_j/(T_i + T_j))`) has the same two-sided
P-value, so HC of the pair does not depend on the order
(:func:`hclib.formulas.discrepancy.hc_discrepancy`). Each unordered pair :math:`i < j` is
therefore computed once and mirrored: the matrix is exactly symmetric, its diagonal is 0 by
definition. ``knn_cosine`` is a vote, not a distance: it is refused (its distance is
``cosine``).

**Zero floor.** HC† (and HC*) is a test statistic, not a metric: it is negative when no word of
the pair is more extreme than chance would make it, i.e. when the pair shows no evidence of
a difference. A map needs distances of at least 0 (SciPy's trees refuse negative heights), so
by default (``clip=True``) such a pair is put at distance 0: every pair without evidence of a
difference is equally close. :func:`hclib.map` reports how many pairs this concerns.

The pairs are computed in chunks by the engine's batched measures
(:mod:`hclib.engine.measures`) in ``n_jobs`` threads (its compiled kernels release the GIL),
with a tqdm progress bar once a run takes more than 2 seconds.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import ArrayLike
from tqdm import tqdm

from hclib._checks import InputTypeError, as_counts, check_gamma, check_positive_int
from hclib.attribution.methods import Method, get

__all__ = ["DELTA_METHODS", "PAIR_CELLS", "check_method", "pairwise_distances"]

#: The Delta methods of the registry and their variant in :mod:`hclib.formulas.stylometry`.
DELTA_METHODS: dict[str, str] = {"burrows_delta": "burrows", "cosine_delta": "cosine"}
#: Pairs × words gathered in one chunk (about 32 MB of int64 per table side).
PAIR_CELLS = 4_000_000


def check_method(method: str | Method) -> Method:
    """The registry method of a map: any but ``knn_cosine`` (a vote, not a distance)."""
    m = get(method)
    if not m.corpus and m.name not in DELTA_METHODS:
        raise ValueError(f"method {m.name!r} is a vote among neighbours, not a distance between "
                         "two texts: use 'cosine' (its distance), 'hc_dagger', 'burrows_delta' "
                         "or another method of hclib.attribution.methods.METHODS")
    return m


def _n_jobs(n_jobs: int | None) -> int:
    return os.cpu_count() or 1 if n_jobs is None else check_positive_int(n_jobs, "n_jobs")


def pairwise_distances(
    counts: ArrayLike,
    method: str | Method = "hc_dagger",
    *,
    gamma: float = 0.25,
    n_jobs: int | None = None,
    progress: bool | None = None,
    clip: bool = True,
) -> np.ndarray:
    """The symmetric (texts × texts) distance matrix of ``counts`` (texts × items) by
    ``method`` (module docstring), diagonal 0, negative values set to 0 with ``clip``.

    ``n_jobs`` threads (``None``: every core) compute the pairs; the result does not depend
    on it. ``progress``: ``None`` shows a bar once the run takes more than 2 seconds.
    """
    m = check_method(method)
    x = as_counts(counts, "counts")
    if x.ndim != 2:
        raise ValueError(f"counts must be a (texts × items) matrix, got shape {x.shape}")
    n = x.shape[0]
    if n < 2:
        raise ValueError(f"a distance matrix needs at least 2 texts, got {n}")
    empty = np.flatnonzero(x.sum(axis=1) == 0)
    if empty.size:
        raise ValueError(f"text {int(empty[0])} has no item of the vocabulary: its distance "
                         "to the others is undefined")
    jobs = _n_jobs(n_jobs)
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise InputTypeError(f"progress must be True, False or None, got {progress!r}")
    if m.name in DELTA_METHODS:
        return _delta_distances(x, DELTA_METHODS[m.name])  # never negative
    f = m.pair(check_gamma(gamma), False, checked=False)  # counts checked above
    rows, cols = np.triu_indices(n, 1)
    step = max(1, PAIR_CELLS // x.shape[1])
    out = np.zeros((n, n))
    values = np.empty(rows.size)

    def run(start: int) -> int:
        stop = min(start + step, rows.size)
        values[start:stop] = f(x[rows[start:stop]], x[cols[start:stop]])
        return stop - start

    starts = range(0, rows.size, step)
    with tqdm(total=rows.size, unit="pair", desc=f"{m.name} distances",
              delay=0 if progress else 2.0, disable=progress is False) as bar:
        if jobs == 1 or len(starts) == 1:
            for start in starts:
                bar.update(run(start))
        else:
            with ThreadPoolExecutor(max_workers=min(jobs, len(starts))) as pool:
                for done in pool.map(run, starts):
                    bar.update(done)
    if clip:
        np.maximum(values, 0.0, out=values)
    out[rows, cols] = values
    out[cols, rows] = values
    return out


def _delta_distances(x: np.ndarray, variant: str) -> np.ndarray:
    """Burrows' Delta or Cosine Delta between the texts, z-scores over the texts themselves."""
    from scipy.spatial.distance import pdist, squareform

    from hclib.formulas.stylometry import zscore_frequencies

    _, z, _ = zscore_frequencies(x, x)
    if variant == "burrows":
        d = pdist(z, "cityblock") / z.shape[1]
    else:
        norms = np.linalg.norm(z, axis=1)
        if (norms <= 1e-9 * np.sqrt(z.shape[1])).any():
            i = int(np.flatnonzero(norms <= 1e-9 * np.sqrt(z.shape[1]))[0])
            raise ValueError(f"text {i} has an all-zero z-vector (it equals the mean on every "
                             "item): its Cosine Delta is undefined")
        d = pdist(z, "cosine")
    return squareform(d)
