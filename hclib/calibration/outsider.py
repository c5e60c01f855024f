r"""None of these: the probability that a text's author is none of the candidates.

The score is *relative* (issue 41): is the text closer to its best candidate than to the
other candidates, the impostors? A discrepancy grows with the text's length (Fisher's sums
over the words), and so does its distance to every candidate alike; the shape of the row
does not. For a row :math:`d_1, \dots, d_C` of the (texts × candidates) table, sorted
:math:`d_{(1)} \le d_{(2)} \le \dots`, with :math:`\bar d_{-1}` and :math:`s_{-1}` the mean
and standard deviation of the others :math:`d_{(2)}, \dots`, the features
(:func:`relative_features`) are

.. math::

    g = \frac{d_{(2)} - d_{(1)}}{\bar d_{-1} - d_{(1)}}, \quad
    \rho = \frac{d_{(1)}}{d_{(2)}}, \quad
    z = \frac{\bar d_{-1} - d_{(1)}}{s_{-1}}\ (\text{clipped to } [0, 20]), \quad
    \ell = \log\frac{d_{(1)}}{\bar d_{-1}},

grouped in the variants of :data:`OUTSIDER_VARIANTS` (chosen by the rule of
:mod:`hclib.studies.open_set`). None of them holds the length; :math:`g` and :math:`z` are
ratios of differences of the row, so a row scaled and shifted (a longer text, farther from
every candidate alike) keeps them. Measured, not only argued: a whole novel is still read
as further out than the 3,000-word pieces the model was calibrated on
(:mod:`hclib.studies.your_texts`), because a whole work differs from the candidates more in
its own words than a piece does.

The variants GI, GIw, GIm (and each with C's :math:`g, z`: GI+C, GIw+C, GIm+C) add the
impostor score of :mod:`hclib.attribution.impostors`, General Impostors among the
candidates: :math:`f` and :math:`b`, the shares of random halves of the vocabulary on which
the text is nearer its best candidate's known texts than every other candidate's (forward)
and they nearer it (backward), every text at one length. Those features need the texts'
counts, not the row; :func:`relative_features` leaves them NaN and
:func:`hclib.attribute` fills them in (:data:`IMPOSTOR_FEATURES`). The default,
:data:`DEFAULT_VARIANT`, is GIml+C: GIm+C, :math:`(f, b, g, z)` with the shares averaged
over the best candidate's texts and a long text to attribute read in windows, with the
lengths matched (a shorter text's backward thresholds among the known texts thinned to its
length bucket, :attr:`OutsiderVariant.matched`). Issue 41's rules chose it: those of
:mod:`hclib.studies.open_set` GIm+C over C, :math:`(g, z)`; the eighth, of
:mod:`hclib.studies.outsider_length`, GIml+C over GIm+C. The variants GIc, GIc+C,
GIc4+C and GIwc+C (the sixth rule of :mod:`hclib.studies.open_set`, not adopted) are GIm
and GIm+C with the impostor space on character 3- or 4-grams of the raw texts, or on the
words and 3-grams concatenated (:attr:`OutsiderVariant.items`,
:mod:`hclib.attribution.impostor_items`).

An attribution's known texts show what an *outsider* looks like: leave one candidate out
and its texts are texts by none of the others. Each known text :math:`i` of author :math:`a`
(scored without its group, and its shorter excerpts likewise, so at the lengths of the
known texts and below) gives an *insider* row, all candidates, and an *outsider* row,
column :math:`a` left out. A logistic model (:func:`fit_outsider`, the fit of
:func:`hclib.calibration.fit_confidence` with free slopes and a ridge of
:data:`~hclib.calibration.outsider.OUTSIDER_RIDGE`) learns :math:`q`, the probability of an
outsider at even odds.

The texts to attribute need not be half outsiders. :func:`outsider_posterior` treats
them as a two-component mixture with an unknown share :math:`\pi` of outsiders, under the
prior :math:`\mathrm{Beta}(1, 2)`: a uniform share and one pseudo-text by a candidate
(whoever lists candidates expects their texts to be by one of them; it also keeps one or
two texts from driving the share to 1). Each text's ``p_outsider`` is its posterior
probability, the share integrated out:

.. math::

    p_i = \int_0^1 \frac{\pi\,\ell_i}{\pi\,\ell_i + 1 - \pi}\, p(\pi \mid q)\, d\pi,
    \quad \ell_i = \frac{q_i}{1 - q_i}, \qquad
    p(\pi \mid q) \propto (1 - \pi) \prod_j (\pi\,\ell_j + 1 - \pi),

and the estimated share of outsiders is their mean. Where :math:`q` cannot tell outsiders
from insiders (:math:`\ell_i \approx 1`) and the texts are few, the share stays near the
prior's mean, 1/3, and the expected accuracy says so; a share near 0 needs evidence.
Before the rules of :mod:`hclib.studies.outsider_share`, :math:`p_i` was taken at the
posterior mode of the share (EM, ``estimate="mode"``), which is 0 whenever
:math:`\sum_i (\ell_i - 1) \le 1` (the slope of the log posterior at :math:`\pi = 0`),
and then every ``p_outsider`` was 0 (3e-12 for a real outsider of even-odds probability
0.17 among four texts).

With two candidates an outsider row has one column and no impostor: no model,
unless ``hclib.attribute(impostors=...)`` gives a pool of other authors' texts (then the
impostor shares alone, the row's shape features set to 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .confidence import ConfidenceModel, fit_confidence

__all__ = ["DEFAULT_VARIANT", "IMPOSTOR_FEATURES", "OUTSIDER_RIDGE", "OUTSIDER_VARIANTS",
           "OutsiderVariant", "SHARE_ESTIMATE", "SHARE_ESTIMATES",
           "fit_outsider", "share_draws", "length_features", "outsider_posterior",
           "outsider_variant", "relative_features"]


@dataclass(frozen=True)
class OutsiderVariant:
    """One variant of the outsider model (module docstring): its ``features`` and how
    :func:`hclib.attribute` computes the impostor ones among them."""

    #: The model's features, in order (of :func:`relative_features` and
    #: :data:`IMPOSTOR_FEATURES`).
    features: tuple[str, ...]
    #: A long text to attribute is read in contiguous windows
    #: (:func:`hclib.attribution.impostors.windows`) instead of one thinned bag.
    windowed: bool = False
    #: The impostor shares are means over the best candidate's texts
    #: (``statistic="mean"`` of :func:`hclib.attribution.impostors.impostor_space`).
    mean_shares: bool = False
    #: What the impostor space counts (:mod:`hclib.attribution.impostor_items`), blocks
    #: concatenated: ``"vocabulary"`` the attribution's vocabulary, ``"chars:n"`` the
    #: character n-grams of the raw texts.
    items: tuple[str, ...] = ("vocabulary",)
    #: A text shorter than the space's length is compared with the known texts thinned
    #: to its length bucket (:mod:`hclib.studies.outsider_length`).
    matched: bool = False
    #: The evidence :math:`t = \log(1 + T)` is a feature, clipped to the range of the
    #: calibration rows (:func:`length_features`).
    with_length: bool = False
    #: The model also calibrates on whole works scored without themselves.
    learns_works: bool = False
    #: The impostor shares times the centred evidence, :math:`f \tilde t` and
    #: :math:`b \tilde t`, are features too (:func:`length_features`).
    length_slopes: bool = False
    #: The impostor space counts only the words that at least ``min(shared, n)`` of the
    #: ``n`` texts to attribute use (0: every word of the vocabulary;
    #: :func:`hclib.attribution.impostors.shared_columns`,
    #: :mod:`hclib.studies.outsider_shared`).
    shared: int = 0

    def __post_init__(self) -> None:
        if self.shared and self.items != ("vocabulary",):
            raise ValueError(f"shared={self.shared} keeps words of the attribution's "
                             f"vocabulary; items must be ('vocabulary',), got {self.items}")

    @property
    def uses_impostors(self) -> bool:
        """True when some feature is an impostor share (:data:`IMPOSTOR_FEATURES`)."""
        return any(f in IMPOSTOR_FEATURES for f in self.features)


#: The features that are not read from the discrepancy row (the forward and backward
#: shares of the impostor score (:mod:`hclib.attribution.impostors`), NaN here and filled
#: in by the attribution).
IMPOSTOR_FEATURES: tuple[str, ...] = ("f", "b")
_GZ = ("g", "z")
_GI = ("f", "b")
_GIM = dict(windowed=True, mean_shares=True)  # GIm: windows, mean shares
#: Every variant compared by the rules of :mod:`hclib.studies.open_set`,
#: :mod:`hclib.studies.flat_folders`, :mod:`hclib.studies.outsider_length`,
#: :mod:`hclib.studies.outsider_margin` and :mod:`hclib.studies.outsider_shared`.
OUTSIDER_VARIANTS: dict[str, OutsiderVariant] = {
    "A": OutsiderVariant(("g",)), "B": OutsiderVariant(("g", "rho")),
    "C": OutsiderVariant(_GZ), "D": OutsiderVariant(("g", "rho", "z")),
    "E": OutsiderVariant(("ell",)), "F": OutsiderVariant(("ell", "log rho")),
    "G": OutsiderVariant(_GZ, with_length=True, learns_works=True),
    "GI": OutsiderVariant(_GI), "GI+C": OutsiderVariant(_GI + _GZ),
    "GIw": OutsiderVariant(_GI, windowed=True),
    "GIw+C": OutsiderVariant(_GI + _GZ, windowed=True),
    "GIm": OutsiderVariant(_GI, **_GIM), "GIm+C": OutsiderVariant(_GI + _GZ, **_GIM),
    "GIc": OutsiderVariant(_GI, items=("chars:3",), **_GIM),
    "GIc+C": OutsiderVariant(_GI + _GZ, items=("chars:3",), **_GIM),
    "GIc4+C": OutsiderVariant(_GI + _GZ, items=("chars:4",), **_GIM),
    "GIwc+C": OutsiderVariant(_GI + _GZ, items=("vocabulary", "chars:3"), **_GIM),
    "GIm+C+L": OutsiderVariant(_GI + _GZ, with_length=True, **_GIM),
    "GIm+C×L": OutsiderVariant(_GI + _GZ, with_length=True, length_slopes=True, **_GIM),
    "GIml+C": OutsiderVariant(_GI + _GZ, matched=True, **_GIM),
    "GIml+D": OutsiderVariant(_GI + ("g", "rho", "z"), matched=True, **_GIM),
    "GIml+CE": OutsiderVariant(_GI + _GZ + ("ell",), matched=True, **_GIM),
    "GIml+Cs": OutsiderVariant(_GI + _GZ, matched=True, shared=4, **_GIM)}
#: The variant chosen by the rules of :mod:`hclib.studies.open_set`, fixed before its runs.
DEFAULT_VARIANT = "GIml+C"
_CLIP = 20.0
#: The ridge penalty of :func:`fit_outsider` (that of the confidence is 1).
OUTSIDER_RIDGE = 0.05


def _checked(variant: str) -> str:
    """``variant`` (default: :data:`DEFAULT_VARIANT`), ValueError for an unknown name."""
    variant = variant or DEFAULT_VARIANT
    if variant not in OUTSIDER_VARIANTS:
        raise ValueError(f"outsider variant must be one of {list(OUTSIDER_VARIANTS)}, "
                         f"got {variant!r}")
    return variant


def outsider_variant(variant: str = "") -> OutsiderVariant:
    """The :class:`OutsiderVariant` named ``variant`` (default: :data:`DEFAULT_VARIANT`,
    read at the call); ValueError for an unknown name."""
    return OUTSIDER_VARIANTS[_checked(variant)]


def relative_features(d: ArrayLike, variant: str = "") -> np.ndarray:
    """The (rows × features) matrix of ``variant`` (module docstring) of a discrepancy
    table at one candidate fewer than its columns: a row with every column finite gets the
    mean of its features with each other candidate but its best left out in turn, a row
    with one column non-finite (an outsider row: its author left out) its features as it
    is; so both see :math:`C - 1` candidates. A row with fewer than two candidates left
    gets NaN. ``variant``: :data:`~hclib.calibration.outsider.DEFAULT_VARIANT` by default
    (read at the call)."""
    variant = _checked(variant)
    d = np.atleast_2d(np.asarray(d, dtype=np.float64))
    d = np.where(np.isfinite(d), d, np.nan)
    full = np.isfinite(d).all(axis=1)
    out = _row_features(d, variant)
    if d.shape[1] < 3:  # at C - 1 one candidate: nothing to compare it with
        out[full] = np.nan
    elif full.any():
        part = d[full]
        best = np.nanargmin(part, axis=1)
        total = np.zeros((part.shape[0], out.shape[1]))
        for j in range(d.shape[1]):
            less = part.copy()
            less[:, j] = np.nan
            f = _row_features(less, variant)
            total += np.where((best == j)[:, None], 0.0, f)
        out[full] = total / max(d.shape[1] - 1, 1)
    return out


def _row_features(d: np.ndarray, variant: str) -> np.ndarray:
    """:func:`relative_features` of each row as it is (NaN: a candidate left out)."""
    d = np.where(np.isfinite(d), d, np.nan)
    s = np.sort(d, axis=1)  # NaN last
    n = np.isfinite(d).sum(axis=1)
    names = OUTSIDER_VARIANTS[variant].features
    out = np.full((d.shape[0], len(names)), np.nan)
    ok = n >= 2
    if not ok.any():
        return out
    s, n = s[ok], n[ok]
    d1, d2 = s[:, 0], s[:, 1]
    rest = s[:, 1:]
    mean = np.nanmean(rest, axis=1)
    sd = np.where(n > 2, np.nanstd(rest, axis=1), 0.0)  # one other: no spread
    tiny = 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        cols = {"g": (d2 - d1) / np.maximum(mean - d1, tiny),
                "rho": d1 / np.maximum(d2, tiny),
                "z": np.clip((mean - d1) / np.maximum(sd, tiny), 0.0, _CLIP),
                "ell": np.log(np.maximum(d1, tiny) / np.maximum(mean, tiny)),
                "log rho": np.log(np.maximum(d1, tiny) / np.maximum(d2, tiny)),
                "f": np.full(d1.shape, np.nan), "b": np.full(d1.shape, np.nan)}
    out[ok] = np.column_stack([cols[c] for c in names])
    return out


def length_features(u: ArrayLike, tokens: ArrayLike, span: tuple[float, float],
                    variant: str = "") -> np.ndarray:
    r"""``u`` (rows × the features of ``variant``, default :data:`DEFAULT_VARIANT`) with
    the evidence :math:`t = \log(1 + T)` of ``tokens`` :math:`T`, clipped to ``span``
    (the calibration rows' range), and, where it has length slopes
    (:attr:`OutsiderVariant.length_slopes`), each impostor share
    times :math:`\tilde t = t - (t_- + t_+)/2`."""
    v = outsider_variant(variant)
    u = np.atleast_2d(np.asarray(u, dtype=np.float64))
    t = np.clip(np.log1p(np.asarray(tokens, dtype=np.float64)), *span)
    cols = [u, t[:, None]]
    if v.length_slopes:
        names = v.features
        centred = t - (span[0] + span[1]) / 2
        cols += [u[:, [names.index(f)]] * centred[:, None] for f in IMPOSTOR_FEATURES]
    return np.hstack(cols)


def fit_outsider(u: ArrayLike, outsider: ArrayLike, *, weights: ArrayLike | None = None,
                 ridge: float = OUTSIDER_RIDGE, start: ArrayLike | None = None
                 ) -> ConfidenceModel:
    """The logistic model of :math:`q` (module docstring): ``predict(u)`` is the probability
    that a verdict of features ``u`` (:func:`relative_features`) is an outsider's, at even
    odds; the slopes are free, the ridge is
    :data:`~hclib.calibration.outsider.OUTSIDER_RIDGE`."""
    u = np.atleast_2d(np.asarray(u, dtype=np.float64))
    return fit_confidence(u, outsider, weights=weights, ridge=ridge, start=start,
                          bounds=[(None, None)] * u.shape[1], evidence=False)


#: The estimates of the share that :func:`outsider_posterior` offers, ``"mode"`` (each
#: text's probability at the posterior mode of the share, EM) and ``"mean"`` (averaged
#: over the share's posterior; :mod:`hclib.studies.outsider_share`).
SHARE_ESTIMATES: tuple[str, ...] = ("mode", "mean")
#: The estimate :func:`outsider_posterior` uses unless told (``"mean"`` since the second
#: rule of :mod:`hclib.studies.outsider_share`).
SHARE_ESTIMATE = "mean"
#: Nodes of the quadrature over the share (Chebyshev, dense near 0 and 1).
_NODES = 2001


def _share_posterior(odds: np.ndarray, pseudo: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Nodes :math:`\pi_g` on (0, 1) and the normalised weights of the share's posterior
    :math:`p(\pi \mid q) \propto (1 - \pi)^{\text{pseudo}} \prod_j (\pi \ell_j + 1 - \pi)`
    there (the midpoint rule in :math:`\theta`, :math:`\pi = (1 - \cos\theta)/2`)."""
    theta = (np.arange(_NODES) + 0.5) * np.pi / _NODES
    pi = (1 - np.cos(theta)) / 2
    log_w = np.log(np.sin(theta)) + pseudo * np.log1p(-pi)
    for start in range(0, odds.size, 256):  # (texts × nodes) in blocks
        block = odds[start:start + 256, None]
        log_w += np.log1p(pi[None, :] * (block - 1)).sum(axis=0)
    w = np.exp(log_w - log_w.max())
    return pi, w / w.sum()


def share_draws(q: ArrayLike, size: int, *, pseudo: float = 1.0, seed: int = 0
                ) -> np.ndarray:
    r"""``size`` draws of the share of outsiders :math:`\pi` from its posterior
    :math:`p(\pi \mid q)` (module docstring) on the quadrature's nodes
    (``numpy.random.default_rng(seed)``); NaN entries of ``q`` do not count, and with none
    left the draws are NaN."""
    q = np.asarray(q, dtype=np.float64)
    q = q[np.isfinite(q)]
    if not q.size:
        return np.full(int(size), np.nan)
    pi, w = _share_posterior(_odds(q), pseudo)
    return np.random.default_rng(seed).choice(pi, size=int(size), p=w)


def _odds(q: np.ndarray) -> np.ndarray:
    q = np.clip(q, 1e-12, 1 - 1e-12)
    return q / (1 - q)


def _at_share(odds: np.ndarray, share: float) -> np.ndarray:
    return share * odds / (share * odds + 1 - share)


def _mode(odds: np.ndarray, pseudo: float, iterations: int) -> float:
    r"""EM's :math:`\pi`, the posterior mode of the share (module docstring)."""
    share = 0.5
    for _ in range(iterations):
        new = _at_share(odds, share).sum() / (odds.size + pseudo)
        if abs(new - share) < 1e-10:
            return float(new)
        share = new
    return float(share)


def outsider_posterior(q: ArrayLike, *, share: float | None = None,
                       among: ArrayLike | None = None, pseudo: float = 1.0,
                       iterations: int = 500, estimate: str = ""
                       ) -> tuple[np.ndarray, float]:
    r"""``(p, share)``: each text's probability of an outsider author and their estimated
    share among the texts, the mean of their ``p``, from the even-odds probabilities ``q``
    (module docstring; ``pseudo`` texts by a candidate), or at a ``share`` given.
    ``estimate`` (default :data:`~hclib.calibration.outsider.SHARE_ESTIMATE`, read at
    the call): ``"mode"``, :math:`p_i` at the posterior mode of the share (EM's
    :math:`\pi`); ``"mean"``,
    :math:`p_i = \int \pi \ell_i / (\pi \ell_i + 1 - \pi)\, p(\pi \mid q)\, d\pi`
    under the prior :math:`\mathrm{Beta}(1, 1 + \text{pseudo})`. ``among``: the
    :math:`q` of the texts whose share is estimated, when not ``q``'s own (``q``'s rows
    then get their probability under it and do not count in it; the share returned is
    theirs). NaN entries (no verdict) stay NaN and do not count."""
    estimate = estimate or SHARE_ESTIMATE
    if estimate not in SHARE_ESTIMATES:
        raise ValueError(f"estimate must be one of {list(SHARE_ESTIMATES)}, got "
                         f"{estimate!r}")
    q = np.asarray(q, dtype=np.float64)
    ok = np.isfinite(q)
    p = np.full(q.shape, np.nan)
    if share is not None:
        if not 0 <= share <= 1:
            raise ValueError(f"share must be in [0, 1], got {share!r}")
        p[ok] = _at_share(_odds(q[ok]), share)
        return p, float(share)
    ref = q[ok] if among is None else np.asarray(among, dtype=np.float64)
    ref = _odds(ref[np.isfinite(ref)])
    if not ref.size:
        return p, float("nan")
    todo = ref if among is None else np.concatenate([ref, _odds(q[ok])])
    if estimate == "mean":
        pi, w = _share_posterior(ref, pseudo)
        post = pi[None, :] * todo[:, None]
        both = (post / (post + 1 - pi[None, :])) @ w
    else:
        both = _at_share(todo, _mode(ref, pseudo, iterations))
    if ok.any():
        p[ok] = both[-int(ok.sum()):]
    return p, float(both[:ref.size].mean())
