"""The share of outsiders at its posterior mean (hclib.calibration.outsider_posterior,
estimate="mean"; hclib.studies.outsider_share)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.special import betaln

from hclib.calibration.outsider import outsider_posterior


def _enumerated(q: np.ndarray, pseudo: float) -> np.ndarray:
    """P(text i is an outsider's | q) summed over every labelling of the texts, the
    share integrated out in closed form: P(z) ∝ B(1 + k, 1 + pseudo + n - k) Π ℓ_i^z_i."""
    odds = q / (1 - q)
    n = q.size
    num, den = np.zeros(n), 0.0
    for z in itertools.product((0, 1), repeat=n):
        z = np.array(z)
        k = int(z.sum())
        w = np.exp(betaln(1 + k, 1 + pseudo + n - k) + np.sum(z * np.log(odds)))
        num, den = num + w * z, den + w
    return num / den


@pytest.mark.parametrize("n", [1, 2, 5, 9])
@pytest.mark.parametrize("pseudo", [0.0, 1.0, 3.0])
def test_the_mean_is_the_exact_posterior(n: int, pseudo: float) -> None:
    q = np.random.default_rng(n).uniform(0.005, 0.995, n)
    p, share = outsider_posterior(q, estimate="mean", pseudo=pseudo)
    assert p == pytest.approx(_enumerated(q, pseudo), abs=1e-6)
    assert share == pytest.approx(p.mean())


def test_the_mean_against_mpmath_with_many_texts() -> None:
    mpmath = pytest.importorskip("mpmath")
    q = np.random.default_rng(3).uniform(0.01, 0.3, 400)  # a sharp posterior near 0
    odds = [mpmath.mpf(x) / (1 - mpmath.mpf(x)) for x in q]

    def likelihood(pi):
        out = 1 - pi
        for o in odds:
            out *= pi * o + 1 - pi
        return out

    z = mpmath.quad(likelihood, [0, 0.001, 0.01, 0.05, 1])
    first = mpmath.quad(lambda pi: likelihood(pi) * pi * odds[0] / (pi * odds[0] + 1 - pi),
                        [0, 0.001, 0.01, 0.05, 1])
    p, _ = outsider_posterior(q, estimate="mean")
    assert p[0] == pytest.approx(float(first / z), rel=1e-4)  # 2,001 nodes


def test_the_mean_is_calibrated_where_the_truth_is_known() -> None:
    """Problems drawn from the model's own prior (share ~ Beta(1, 2), each text an
    outsider's with that chance, q the exact even-odds probability of its score): the
    texts whose p is in a bin are outsiders' at the bin's mean p; the mode is not."""
    rng = np.random.default_rng(11)
    p_mean, p_mode, truth = [], [], []
    for _ in range(1500):
        n = int(rng.choice([2, 4, 8]))
        share = rng.beta(1, 2)
        out = rng.random(n) < share
        score = rng.normal(np.where(out, 0.75, -0.75), 1.0)
        q = 1 / (1 + np.exp(-1.5 * score))  # N(0.75, 1) against N(-0.75, 1)
        p_mean.append(outsider_posterior(q, estimate="mean")[0])
        p_mode.append(outsider_posterior(q, estimate="mode")[0])
        truth.append(out)
    p_mean, p_mode = np.concatenate(p_mean), np.concatenate(p_mode)
    truth = np.concatenate(truth).astype(float)
    edges = [1e-6, 0.1, 0.3, 0.5, 0.7]
    for p, calibrated in ((p_mean, True), (p_mode, False)):
        bins = np.digitize(p, edges)
        gaps = [abs(truth[bins == b].mean() - p[bins == b].mean())
                for b in range(len(edges) + 1) if (bins == b).sum() > 100]
        assert bool(max(gaps) < 0.04) is calibrated
    # the mode's failure: p under 1e-6 for texts of which more than a tenth are outsiders'
    low = p_mode < 1e-6
    assert low.sum() > 500 and truth[low].mean() > 0.1
    assert np.mean((p_mean - truth) ** 2) < np.mean((p_mode - truth) ** 2)


def test_the_mean_needs_evidence_to_move() -> None:
    q = np.full(4, 0.5)  # no evidence: the prior's mean, 1/3
    assert outsider_posterior(q, estimate="mean")[0] == pytest.approx(np.full(4, 1 / 3),
                                                                       abs=1e-6)
    assert outsider_posterior(q, estimate="mean", pseudo=0)[0] == pytest.approx(
        np.full(4, 0.5), abs=1e-6)
    many = outsider_posterior(np.full(3000, 0.02), estimate="mean")[1]
    assert 0 < many < 0.001  # thousands of clear insiders: a share near 0, never exactly
    p, share = outsider_posterior(np.array([np.nan, 0.9, 0.1]), estimate="mean")
    assert np.isnan(p[0]) and share == pytest.approx(np.nanmean(p))
    assert np.isnan(outsider_posterior(np.array([np.nan]), estimate="mean")[1])
    with pytest.raises(ValueError, match="estimate must be one of"):
        outsider_posterior(q, estimate="median")


def test_scores_and_conditions_read_the_rows() -> None:
    from hclib.studies.outsider_share import conditions, scores
    rows = []
    for s in ("pan", "small", "folds"):
        for problem in range(3):
            truth = ["a", "b", "<UNK>", "a"] if s != "folds" else ["a", "b", "a", "b"]
            rows.append(pd.DataFrame({
                "set": s, "problem": f"{s} {problem}", "text": list("wxyz"),
                "q": [0.2, 0.3, 0.45, 0.1], "confidence": [0.9, 0.8, 0.6, 0.95],
                "status": "attributed", "author": ["a", "b", "a", "a"], "truth": truth,
                "candidates": "a|b"}))
    table = pd.concat(rows, ignore_index=True)
    mode, mean = scores(table, "mode"), scores(table, "mean")
    assert list(mean.index) == ["pan", "small", "folds"]
    # by hand for the mean: p of each text, its Brier against the truth
    p = outsider_posterior(np.array([0.2, 0.3, 0.45, 0.1]), estimate="mean")[0]
    out = np.array([0, 0, 1, 0])
    assert mean.loc["pan", "brier"] == pytest.approx(np.mean((p - out) ** 2))
    expected = np.mean(np.array([0.9, 0.8, 0.6, 0.95]) * (1 - p))
    assert mean.loc["pan", "expected error"] == pytest.approx(100 * abs(expected - 0.75))
    assert mode.loc["folds", "largest share"] < 1e-6 < mean.loc["folds", "largest share"]
    held = conditions(table)
    assert held["1 Brier lower on pan and small"]
    assert not held["3 share at most 5 % in every fold"]  # 4 texts: the share is ~ 0.1


def test_share_draws_follow_the_posterior() -> None:
    """The draws' mean is the posterior mean of the share (closed form for one text,
    Beta(1, 2) prior: p(π | q) ∝ (1 - π)(π ℓ + 1 - π)); seeded; NaN without a q."""
    from hclib.calibration.outsider import share_draws
    q = np.array([0.8, np.nan])
    ell = 4.0
    # ∫ π (1 - π)(1 + π (ℓ - 1)) dπ / ∫ (1 - π)(1 + π (ℓ - 1)) dπ
    num = 1 / 6 + (ell - 1) / 12
    den = 1 / 2 + (ell - 1) / 6
    draws = share_draws(q, 20000, seed=1)
    assert draws.mean() == pytest.approx(num / den, abs=0.005)
    assert np.array_equal(draws, share_draws(q, 20000, seed=1))
    assert np.isnan(share_draws(np.array([np.nan]), 3)).all()


def test_the_share_in_the_interval_widens_it_only(monkeypatch) -> None:
    """trust.SHARE_IN_INTERVAL moves the expected accuracy's interval, not its value."""
    import hclib
    from hclib.attribution import trust
    from test_attribute_trust import four_authors
    texts = four_authors(seed=5, per_author=8)
    known = {a: t[:8] for a, t in texts.items()}
    unknown = {f"{a}-{i}": t for a, ts in texts.items() for i, t in enumerate(ts[8:])}
    res = hclib.attribute(known, unknown, vocabulary=50, min_tokens=20, progress=False)
    assert res.outsider_model is not None
    monkeypatch.setattr(trust, "SHARE_IN_INTERVAL", False)
    independent = trust.expected(res)
    monkeypatch.setattr(trust, "SHARE_IN_INTERVAL", True)
    drawn = trust.expected(res)
    assert drawn.value == independent.value
    # these texts show their share is near 0: drawn from its posterior, the same interval
    assert (drawn.low, drawn.high) == (independent.low, independent.high)
    # a share drawn near 1 (every refit): the texts' outsiders at it, the interval reaches
    # far lower (its top still holds the value, as every interval does)
    from hclib.calibration import outsider
    monkeypatch.setattr(outsider, "share_draws", lambda q, size, seed=0: np.full(size, 0.99))
    high_share = trust.expected(res)
    assert high_share.value == independent.value
    assert high_share.low < independent.low - 0.3


def test_the_stored_runs_give_the_rules_verdicts() -> None:
    """The three rules read from their stored rows (hclib.studies.outsider_share): the
    first holds for the mean, the second chooses it, the third holds; a few of the
    numbers quoted in the module docstring."""
    from hclib.studies import outsider_share as study
    first = study.load()
    assert all(study.conditions(first).values())
    mode, mean = study.scores(first, "mode"), study.scores(first, "mean")
    assert mode.loc["small", "brier"] == pytest.approx(0.205, abs=5e-4)
    assert mean.loc["small", "brier"] == pytest.approx(0.177, abs=5e-4)
    second = study.load_second()
    assert study.second_choice(second) == "mean"
    table = study.second_scores(second)
    assert table.loc["mean", "score"] == pytest.approx(14.9, abs=0.05)
    assert table.loc["mode", "score"] == pytest.approx(17.3, abs=0.05)
    third = pd.read_csv(study.THIRD_RESULTS)
    assert all(study.interval_conditions(third).values())
    holds = study.interval_scores(third)
    assert holds.loc["small3 + pan3", "holds, drawn"] == pytest.approx(0.891, abs=5e-4)
    ceilings = study.load_ceilings()
    assert (ceilings.loc["mean", "p_outsider vs all"]
            > ceilings.loc["mode", "p_outsider vs all"] + 0.04).all()
