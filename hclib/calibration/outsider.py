r"""None of these: the probability that a text's author is none of the candidates.

An attribution's known texts show what an *outsider* looks like: leave one candidate out
and its texts are texts by none of the others. Each known text :math:`i` of author :math:`a`
(scored without its group, and its shorter excerpts likewise) gives two verdicts: an
*insider* one, its best candidate among all of them, and an *outsider* one, its best
candidate among the others (column :math:`a` left out). The features of a verdict, with
:math:`b` the chosen candidate, are

.. math::

    u_1 = \hat r_b, \qquad u_2 = \log(1 + T), \qquad u_3 = \frac{D_b - \mathrm{med}_b}
    {\mathrm{mad}_b}, \qquad u_4 = u_3\, u_2 ,

the rank score of the discrepancy among :math:`b`'s own leave-one-out discrepancies (the
conformal P-value read the other way, :mod:`hclib.calibration.conformal`), the evidence
(tokens inside the vocabulary), and the discrepancy standardised by the median and the
median absolute deviation of :math:`b`'s own leave-one-out discrepancies (:math:`u_3` is
clipped to :math:`\pm 20`; it goes on where the rank stops at 1). The evidence and its
product with :math:`u_3` compare like with like in length: a short text is far from every
corpus, its own author's too. A logistic model (:func:`fit_outsider`, the fit of
:func:`hclib.calibration.fit_confidence` with slopes :math:`\beta_1, \beta_3 \ge 0` and a
smaller ridge, :data:`OUTSIDER_RIDGE`) learns
:math:`q`, the probability of an outsider at even odds (as many outsider verdicts as insider
ones).

The texts to attribute need not be half outsiders. :func:`outsider_posterior` estimates
their share :math:`\pi` by maximum likelihood on the two-component mixture (EM), with one
pseudo-text by a candidate (whoever lists candidates expects their texts to be by one of
them; it also keeps one or two texts from driving the share to 1):

.. math::

    p_i = \frac{\pi\,\ell_i}{\pi\,\ell_i + 1 - \pi}, \quad \ell_i = \frac{q_i}{1 - q_i},
    \qquad \pi = \frac{\sum_i p_i}{n + 1},

iterated from :math:`\pi = 1/2` to the fixed point; :math:`p_i` is the text's
``p_outsider``. Where :math:`q` cannot tell outsiders from insiders (:math:`\ell_i \approx
1`) the share goes to 0: no outsider is assumed without evidence. One text with
:math:`\ell = 9` gets :math:`\pi = 7/16` and :math:`p = 0.875`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .confidence import ConfidenceModel, fit_confidence

__all__ = ["OUTSIDER_FEATURES", "OUTSIDER_RIDGE", "fit_outsider", "outsider_features", "outsider_posterior"]

OUTSIDER_FEATURES: tuple[str, ...] = ("rank score", "evidence", "standardised discrepancy",
                                      "standardised discrepancy × evidence")
_CLIP = 20.0
#: The ridge penalty of :func:`fit_outsider` (that of the confidence is 1).
OUTSIDER_RIDGE = 0.05


def outsider_features(rank_score: ArrayLike, discrepancy: ArrayLike, centre: ArrayLike,
                      spread: ArrayLike, in_vocabulary: ArrayLike) -> np.ndarray:
    r"""The (verdicts × 4) matrix :math:`(u_1, u_2, u_3, u_4)` of the module docstring;
    ``centre`` and ``spread`` are the chosen candidate's median and MAD (one per verdict)."""
    r = np.nan_to_num(np.asarray(rank_score, dtype=np.float64), nan=1.0)
    t = np.log1p(np.asarray(in_vocabulary, dtype=np.float64))
    spread = np.asarray(spread, dtype=np.float64)
    if np.any(~(spread > 0)):
        raise ValueError("spread must be positive (the chosen candidate's MAD)")
    u = (np.asarray(discrepancy, dtype=np.float64) - np.asarray(centre, dtype=np.float64)) \
        / spread
    u = np.clip(np.nan_to_num(u, nan=0.0), -_CLIP, _CLIP)
    return np.column_stack([r, t, u, u * t])


def fit_outsider(u: ArrayLike, outsider: ArrayLike, *, weights: ArrayLike | None = None,
                 ridge: float = OUTSIDER_RIDGE) -> ConfidenceModel:
    """The logistic model of :math:`q` (module docstring): ``predict(u)`` is the probability
    that a verdict of features ``u`` (:func:`outsider_features`) is an outsider's, at even
    odds; a larger rank score or standardised discrepancy never lowers it. The ridge is
    :data:`OUTSIDER_RIDGE`: outsiders are often far from every candidate, the two kinds of
    verdict all but separable, and a ridge of 1 would hold :math:`q` near 0.9 for a text
    three times as far as any known text."""
    return fit_confidence(u, outsider, weights=weights, ridge=ridge,
                          bounds=[(0.0, None), (None, None), (0.0, None), (None, None)])


def outsider_posterior(q: ArrayLike, *, share: float | None = None, pseudo: float = 1.0,
                       iterations: int = 500) -> tuple[np.ndarray, float]:
    r"""``(p, share)``: each text's probability of an outsider author and their estimated share
    :math:`\pi` among the texts, from the even-odds probabilities ``q`` (module docstring;
    ``pseudo`` texts by a candidate), or at a ``share`` given. NaN entries of ``q`` (no verdict) stay
    NaN and do not count."""
    q = np.asarray(q, dtype=np.float64)
    ok = np.isfinite(q)
    odds = np.clip(q[ok], 1e-12, 1 - 1e-12)
    odds = odds / (1 - odds)
    if share is not None:
        if not 0 <= share <= 1:
            raise ValueError(f"share must be in [0, 1], got {share!r}")
        iterations = 0
    else:
        share = 0.5
    for _ in range(iterations):
        post = share * odds / (share * odds + 1 - share)
        new = post.sum() / (odds.size + pseudo)
        if abs(new - share) < 1e-10:
            share = new
            break
        share = new
    p = np.full(q.shape, np.nan)
    p[ok] = share * odds / (share * odds + 1 - share)
    return p, float(share)
