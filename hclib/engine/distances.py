r"""Distances between count tables on many random feature subsets at once.

The impostor-relative scores (:mod:`hclib.verification.relative`, and the outsider score
of :mod:`hclib.attribution.impostors`) ask, for every one of :math:`R` random subsets
:math:`S_r` of the vocabulary, which of two texts lies nearer a third.
:func:`subset_distances` computes :math:`d_r(x_p, y_p)` for a list of table pairs
:math:`p` and every subset :math:`r` in one batched call, from a boolean *mask matrix*
:math:`M` (:math:`R \times V`, :func:`subset_masks`):

* **additive distances** are a matrix product of the mask with per-feature terms
  :math:`t_{pw}`: :math:`D_{rp} = \sum_w M_{rw} t_{pw}`. The power divergences
  (``chi2``, ``g2``, ``cressie_read``) use the terms of
  :func:`hclib.formulas.discrepancy.power_divergence` and divide by the subset's degrees of
  freedom :math:`N'_r - 1` (:math:`N'_r`: features of :math:`S_r` used by either table);
  ``fisher`` is :math:`-2\sum_{w \in S_r} \log \pi_w`;
* ``cosine`` (of raw counts) is :math:`1 - \frac{M(x \odot y)}{\sqrt{M x^2 \cdot M y^2}}`;
* ``minmax`` (Ruzicka, the similarity of General Impostors, Koppel and Winter 2014) on
  relative frequencies :math:`a = x/T_x`, :math:`b = y/T_y`:
  :math:`1 - \frac{M \min(a, b)}{M \max(a, b)}`;
* HC† and HC* (``hc_dagger``, ``hc_star``, and the registry's ``hc_midp``, ``hc_ztest``,
  ``hc_gtest``): the P-values of every feature are computed once per pair and sorted once;
  on subset :math:`r` the P-values outside :math:`S_r` are set to 1, so the subset's sorted
  P-values are the sorted list with those entries skipped: their rank is a cumulative sum
  of the permuted mask, and HC (:mod:`hclib.formulas.hc`, :math:`N = |S_r|`) is one
  vectorised maximum.

The totals :math:`T_x, T_y` of a pair are those of the whole vocabulary, on every subset
(the texts' lengths do not change with the features looked at). With the full mask
(:math:`R = 1`, every feature) each distance equals the registry's measure of the same
name (:mod:`hclib.engine.measures`), except ``minmax``, which is not in the registry.
"""

from __future__ import annotations

import numpy as np

from hclib.formulas.discrepancy import _cressie_read_psi
from hclib.formulas.hc import n_candidates
from hclib.formulas.pvalues import pvalues_given_totals

__all__ = ["DISTANCES", "pair_distances", "subset_distances", "subset_masks"]

_LAMBDA = {"g2": 0.0, "cressie_read": 2.0 / 3.0, "chi2": 1.0}
_HC = {"hc_dagger": ("dagger", "distance"), "hc_star": ("star", "distance"),
       "hc_midp": ("dagger", "midp"), "hc_ztest": ("dagger", "ztest"),
       "hc_gtest": ("dagger", "gtest")}
#: The distances :func:`subset_distances` computes.
DISTANCES: tuple[str, ...] = ("minmax", "cosine", "fisher", *_LAMBDA, *_HC)
_CELLS = 4_000_000  # cells (subsets x pairs x features) of one block of the HC scan


def subset_masks(n_features: int, n_subsets: int, share: float = 0.5, seed: int = 0
                 ) -> np.ndarray:
    """``n_subsets`` random subsets of ``round(share * n_features)`` features each (at least
    two), as a boolean (subsets × features) matrix; seeded."""
    if n_features < 2:
        raise ValueError(f"feature subsets need at least 2 features, got {n_features}")
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1], got {share!r}")
    size = min(n_features, max(2, int(round(share * n_features))))
    rng = np.random.default_rng(seed)
    keys = rng.random((n_subsets, n_features))
    ranks = np.argsort(np.argsort(keys, axis=1), axis=1)
    return ranks < size


def subset_distances(x: np.ndarray, y: np.ndarray, masks: np.ndarray, distance: str,
                     gamma: float = 0.25) -> np.ndarray:
    """(subsets × pairs) distances of the rows of the count tables ``x`` and ``y`` (pairs ×
    features, int64), feature subsets ``masks`` (subsets × features, bool); see the module
    docstring. A pair with nothing to compare on a subset (an empty table) gets ``inf``."""
    if distance not in DISTANCES:
        raise ValueError(f"unknown distance {distance!r}; choose one of {list(DISTANCES)}")
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    m = np.asarray(masks, dtype=bool)
    if x.shape != y.shape or x.ndim != 2 or m.ndim != 2 or m.shape[1] != x.shape[1]:
        raise ValueError(f"x, y must be (pairs × features) of one shape and masks (subsets × "
                         f"features), got {x.shape}, {y.shape}, {m.shape}")
    mf = m.astype(np.float64)
    tx = x.sum(axis=1, keepdims=True).astype(np.float64)
    ty = y.sum(axis=1, keepdims=True).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if distance == "minmax":
            a, b = x / np.maximum(tx, 1), y / np.maximum(ty, 1)
            out = 1.0 - (mf @ np.minimum(a, b).T) / (mf @ np.maximum(a, b).T)
        elif distance == "cosine":
            xf, yf = x.astype(np.float64), y.astype(np.float64)
            out = 1.0 - (mf @ (xf * yf).T) / np.sqrt((mf @ (xf * xf).T) * (mf @ (yf * yf).T))
        elif distance in _LAMBDA:
            out = (mf @ _pd_terms(x, y, tx, ty, _LAMBDA[distance]).T) / (
                mf @ ((x + y) > 0).T.astype(np.float64) - 1.0)
            out[~np.isfinite(out) | (out < 0)] = np.inf
        elif distance == "fisher":
            logs = pvalues_given_totals(x, y, tx.astype(np.int64), ty.astype(np.int64),
                                        "distance", transform=_log)
            out = -2.0 * (mf @ logs.T)
        else:
            variant, pvalue = _HC[distance]
            pv = pvalues_given_totals(x, y, tx.astype(np.int64), ty.astype(np.int64), pvalue)
            out = _subset_hc(pv, m, gamma, variant)
    out = np.asarray(out, dtype=np.float64)
    out[~np.isfinite(out)] = np.inf
    return out


def pair_distances(texts: np.ndarray, first: np.ndarray, second: np.ndarray,
                   masks: np.ndarray, distance: str, gamma: float = 0.25) -> np.ndarray:
    """(subsets × pairs) distances of the pairs ``(texts[first[p]], texts[second[p]])``, as
    :func:`subset_distances`; for ``minmax`` and ``cosine`` the per-text sums are taken
    once per text (one mask product per pair instead of two or three), in float32 (relative
    error about 1e-7: these distances are only compared with one another)."""
    texts = np.asarray(texts, dtype=np.int64)
    first, second = np.asarray(first), np.asarray(second)
    if distance not in ("minmax", "cosine"):
        return subset_distances(texts[first], texts[second], masks, distance, gamma)
    mf = np.asarray(masks, dtype=np.float32)  # sums of <= V terms: float32 is plenty
    if distance == "minmax":
        freq = (texts / np.maximum(texts.sum(axis=1, keepdims=True), 1)).astype(np.float32)
        own = mf @ freq.T  # (subsets × texts)
        common = mf @ np.minimum(freq[first], freq[second]).T
        with np.errstate(divide="ignore", invalid="ignore"):
            out = 1.0 - common / (own[:, first] + own[:, second] - common)
    else:
        tf = texts.astype(np.float32)
        own = mf @ (tf * tf).T
        with np.errstate(divide="ignore", invalid="ignore"):
            out = 1.0 - (mf @ (tf[first] * tf[second]).T) / np.sqrt(own[:, first]
                                                                    * own[:, second])
    out = out.astype(np.float64)
    out[~np.isfinite(out)] = np.inf
    return out


def _log(p: np.ndarray) -> np.ndarray:
    return np.log(np.clip(p, 1e-300, 1.0))


def _pd_terms(x: np.ndarray, y: np.ndarray, tx: np.ndarray, ty: np.ndarray, lam: float
              ) -> np.ndarray:
    """Per-feature terms of the power divergence :math:`\\mathrm{PD}_\\lambda` (summing
    them over every feature gives :math:`\\mathrm{PD}_\\lambda`)."""
    n = x + y
    nf = np.maximum(n, 1).astype(np.float64)
    dev = x * ty - y * tx
    if lam == 1.0:
        return dev * dev / (nf * tx * ty)
    total = tx + ty
    terms = np.zeros(x.shape)
    for obs, tf, sign in ((x, tx, 1.0), (y, ty, -1.0)):
        expected = tf * nf
        delta = sign * dev / expected
        psi, _ = _cressie_read_psi(delta, lam, (obs == 0) & (n > 0))
        terms += psi * expected / total
    return terms


def _subset_hc(pv: np.ndarray, masks: np.ndarray, gamma: float, variant: str) -> np.ndarray:
    r"""HC of the P-values ``pv`` (pairs × features) on every subset of ``masks``: the
    P-values sorted once per pair, each subset's ranks the cumulative sum of the mask in
    that order, :math:`z_i = \sqrt{N}(i/N - \pi_{(i)})/\sqrt{(i/N)(1 - i/N)}` over
    :math:`i \le \lfloor\gamma_0 N\rfloor` (HC†: :math:`\pi_{(i)} \ge 1/N`, else HC*)."""
    n_sub = masks.sum(axis=1)  # N of each subset
    k = np.array([n_candidates(int(n), gamma) for n in n_sub])
    order = np.argsort(pv, axis=1, kind="stable")
    spv = np.take_along_axis(pv, order, axis=1)
    out = np.empty((masks.shape[0], pv.shape[0]))
    n = n_sub.astype(np.float64)[:, None, None]
    kk = k[:, None, None]
    step = max(1, _CELLS // max(masks.shape[0] * pv.shape[1], 1))
    for start in range(0, pv.shape[0], step):
        o = order[start:start + step]
        s = spv[start:start + step]
        mo = masks[:, o]  # (subsets, pairs, features) in each pair's sorted order
        rank = np.cumsum(mo, axis=2)
        # the scan stops where every subset has counted its k ranks
        reach = int(np.max(np.argmax(rank >= kk, axis=2))) + 1
        mo, rank, s = mo[:, :, :reach], rank[:, :, :reach], s[None, :, :reach]
        use = mo & (rank <= kk)
        u = rank / n
        with np.errstate(invalid="ignore", divide="ignore"):
            z = np.sqrt(n) * (u - s) / np.sqrt(u * (1.0 - u))
        z = np.where(use, z, -np.inf)
        star = z.max(axis=2)
        if variant == "dagger":
            dag = np.where(s >= 1.0 / n, z, -np.inf).max(axis=2)
            out[:, start:start + step] = np.where(np.isfinite(dag), dag, star)
        else:
            out[:, start:start + step] = star
    return out
