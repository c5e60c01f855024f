r"""None of these: the probability that a text's author is none of the candidates.

An attribution's known texts show what an *outsider* looks like: leave one candidate out
and its texts are texts by none of the others. Each known text :math:`i` of author :math:`a`
(scored without its group, and its shorter excerpts likewise) gives two verdicts: an
*insider* one, its best candidate among all of them, and an *outsider* one, its best
candidate among the others (column :math:`a` left out).

A discrepancy grows with the length of the text (Fisher's sums over the words), and within
an author's texts the length moves it more than the author does, so a raw discrepancy or
its rank cannot tell an outsider. :func:`length_fit` compares like with like in length: on
the leave-one-out discrepancies of every candidate's own known texts it fits

.. math::

    D_i = \alpha_{a(i)} + \beta_1 T_i + \beta_2 \log(1 + T_i) + \varepsilon_i

(an intercept per candidate, slopes shared; :math:`T` the tokens inside the vocabulary), and
a verdict's *residual* is :math:`e = D_b - \alpha_b - \beta_1 T - \beta_2 \log(1 + T)` for its
chosen candidate :math:`b`. Its features are

.. math::

    u_1 = \hat r_b(e), \qquad u_2 = \log(1 + T), \qquad u_3 = e / s_b, \qquad u_4 = u_3 u_2,

the share of :math:`b`'s own texts whose residual is at most :math:`e` (the conformal
P-value at matched length, read the other way), the evidence, and the residual over
:math:`s_b`, the median absolute residual of :math:`b`'s own texts (clipped to
:math:`\pm 20`: it goes on where the rank stops at 1). A logistic model
(:func:`fit_outsider`, the fit of :func:`hclib.calibration.fit_confidence` with slopes
:math:`\beta_1, \beta_3 \ge 0` and a smaller ridge,
:data:`~hclib.calibration.outsider.OUTSIDER_RIDGE`) learns :math:`q`, the probability of an
outsider at even odds (as many outsider verdicts as insider ones).

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

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .confidence import ConfidenceModel, fit_confidence

__all__ = ["OUTSIDER_FEATURES", "OUTSIDER_RIDGE", "LengthFit", "fit_outsider", "length_fit",
           "outsider_posterior"]

OUTSIDER_FEATURES: tuple[str, ...] = ("rank of the residual", "evidence", "residual",
                                      "residual × evidence")
_CLIP = 20.0
#: The ridge penalty of :func:`fit_outsider` (that of the confidence is 1).
OUTSIDER_RIDGE = 0.05


@dataclass(frozen=True)
class LengthFit:
    r""":func:`length_fit`: each candidate's intercept, the shared slopes on :math:`T` and
    :math:`\log(1 + T)`, and each candidate's own residuals (sorted) and their scale."""

    intercept: dict[Hashable, float]
    slopes: np.ndarray
    residuals: dict[Hashable, np.ndarray]
    scale: dict[Hashable, float]

    def residual(self, discrepancy: ArrayLike, tokens: ArrayLike,
                 author: Sequence[Hashable]) -> np.ndarray:
        t = np.asarray(tokens, dtype=np.float64)
        d = np.asarray(discrepancy, dtype=np.float64)
        alpha = np.array([self.intercept[a] for a in author], dtype=np.float64)
        return d - alpha - self.slopes[0] * t - self.slopes[1] * np.log1p(t)

    def features(self, discrepancy: ArrayLike, tokens: ArrayLike,
                 author: Sequence[Hashable]) -> np.ndarray:
        """The (verdicts × 4) matrix :math:`(u_1, u_2, u_3, u_4)` of the module docstring."""
        e = np.nan_to_num(self.residual(discrepancy, tokens, author), nan=0.0)
        who = np.asarray(author, dtype=object)
        rank, scale = np.zeros(e.size), np.ones(e.size)
        for a in dict.fromkeys(author):
            mine = who == a
            ref = self.residuals[a]
            rank[mine] = np.searchsorted(ref, e[mine], side="right") / max(ref.size, 1)
            scale[mine] = self.scale[a]
        u = np.clip(e / scale, -_CLIP, _CLIP)
        t = np.log1p(np.asarray(tokens, dtype=np.float64))
        return np.column_stack([rank, t, u, u * t]).reshape(len(e), 4)


def length_fit(discrepancy: ArrayLike, tokens: ArrayLike, author: Sequence[Hashable]
               ) -> LengthFit:
    r"""Fit :math:`D = \alpha_a + \beta_1 T + \beta_2 \log(1 + T)` by least squares on the
    candidates' own leave-one-out discrepancies (module docstring); the slopes are 0 where
    the lengths do not vary enough to fit them."""
    d = np.asarray(discrepancy, dtype=np.float64)
    t = np.asarray(tokens, dtype=np.float64)
    author = list(author)
    if d.shape != t.shape or d.ndim != 1 or d.size != len(author) or not d.size:
        raise ValueError("length_fit needs one discrepancy, one length and one author per "
                         "known text, and at least one text")
    if not np.isfinite(d).all():
        raise ValueError("the known texts' discrepancies must be finite")
    names = list(dict.fromkeys(author))
    index = {a: j for j, a in enumerate(names)}
    code = np.array([index[a] for a in author])
    per = np.bincount(code, minlength=len(names)).astype(np.float64)

    def within(v: np.ndarray) -> np.ndarray:  # v less its candidate's mean
        return v - (np.bincount(code, v, len(names)) / per)[code]

    slopes = np.zeros(2)
    if d.size > len(names) + 2 and np.ptp(np.log1p(t)) > 0.05:
        # the slopes of the fit with an intercept per candidate, by Frisch-Waugh-Lovell:
        # the within-candidate deviations regressed on each other (no dummy columns)
        x = np.column_stack([within(t), within(np.log1p(t))])
        slopes = np.linalg.lstsq(x, within(d), rcond=None)[0]
    rest = d - slopes[0] * t - slopes[1] * np.log1p(t)
    intercept, residuals, scale = {}, {}, {}
    for j, a in enumerate(names):
        mine = rest[code == j]
        intercept[a] = float(np.mean(mine))
        residuals[a] = np.sort(mine - intercept[a])
        mad = float(np.median(np.abs(residuals[a])))
        scale[a] = mad if mad > 0 else (float(np.std(mine)) or 1.0)
    floor = float(np.median(list(scale.values())))  # a candidate of one or two texts
    scale = {a: max(v, 0.25 * floor) for a, v in scale.items()}
    return LengthFit(intercept, slopes, residuals, scale)


def fit_outsider(u: ArrayLike, outsider: ArrayLike, *, weights: ArrayLike | None = None,
                 ridge: float = OUTSIDER_RIDGE, start: ArrayLike | None = None
                 ) -> ConfidenceModel:
    """The logistic model of :math:`q` (module docstring): ``predict(u)`` is the probability
    that a verdict of features ``u`` (:meth:`LengthFit.features`) is an outsider's, at even
    odds; a larger rank or residual never lowers it. The ridge is
    :data:`~hclib.calibration.outsider.OUTSIDER_RIDGE`: outsiders are often far from every
    candidate, the two kinds of verdict all but separable, and a ridge of 1 would hold
    :math:`q` near 0.9 for a text three times as far as any known text."""
    return fit_confidence(u, outsider, weights=weights, ridge=ridge, start=start,
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
