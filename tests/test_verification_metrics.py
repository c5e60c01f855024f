"""PAN's authorship-verification measures (hclib.calibration.metrics) against the official
formulas: hand-made cases worked out in the comments, and seeded random cases against
brute-force implementations written here independently (pair counting, loops, min–max PAV)
and against scikit-learn where it is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hclib.calibration import metrics as m

# The hand-made case of most tests: 3 same-author problems, 3 different-author ones.
#   p:      0.9  0.6  0.5  0.5  0.3  0.7
#   truth:  1    1    1    0    0    0
#   answer: TP   TP   --   --   TN   FP       (0.5 = non-answer)
TRUTH = [1, 1, 1, 0, 0, 0]
PROB = [0.9, 0.6, 0.5, 0.5, 0.3, 0.7]


def test_auc_by_hand():
    # pairs (same, different) ordered right: 0.9 beats 0.5, 0.3, 0.7 -> 3; 0.6 beats 0.5, 0.3
    # and loses to 0.7 -> 2; 0.5 ties 0.5 (1/2), beats 0.3, loses to 0.7 -> 1.5.
    # AUC = (3 + 2 + 1.5) / (3 * 3) = 6.5 / 9
    assert m.auc(TRUTH, PROB) == pytest.approx(6.5 / 9)
    assert m.auc([1, 0], [0.8, 0.2]) == 1.0
    assert m.auc([1, 0], [0.2, 0.8]) == 0.0
    assert m.auc([1, 0, 1, 0], [0.5] * 4) == 0.5  # all tied: every pair 1/2


def test_c_at_1_by_hand():
    # n = 6, right answers n_c = 3 (0.9, 0.6, 0.3), non-answers n_u = 2:
    # c@1 = (3 + 2 * 3/6) / 6 = 4/6
    assert m.c_at_1(TRUTH, PROB) == pytest.approx(4 / 6)
    # no non-answers: plain accuracy, 3 of 4 right
    assert m.c_at_1([1, 0, 1, 0], [0.9, 0.1, 0.2, 0.4]) == pytest.approx(0.75)
    # every problem unanswered: n_c = 0, c@1 = 0
    assert m.c_at_1([1, 0], [0.5, 0.5]) == 0.0


def test_auc_c_at_1_by_hand():
    # PAN 2014: 6.5/9 * 4/6 = 26/54
    assert m.auc_c_at_1(TRUTH, PROB) == pytest.approx(26 / 54)


def test_f1_drops_the_non_answers():
    # answered: TP = 2 (0.9, 0.6), FP = 1 (0.7), FN = 0, the two 0.5s dropped:
    # F1 = 2*2 / (2*2 + 1 + 0) = 4/5
    assert m.f1(TRUTH, PROB) == pytest.approx(0.8)
    # a false negative: TP = 1, FP = 0, FN = 1 -> 2 / (2 + 0 + 1)
    assert m.f1([1, 1, 0], [0.9, 0.1, 0.2]) == pytest.approx(2 / 3)
    # nothing said "same", nothing to find: 0/0 -> 0
    assert m.f1([0, 0], [0.1, 0.5]) == 0.0


def test_f_05_u_counts_non_answers_as_false_negatives():
    # TP = 2, FN = 0, n_u = 2, FP = 1:
    # F0.5u = 1.25*2 / (1.25*2 + 0.25*(0 + 2) + 1) = 2.5 / 4
    assert m.f_05_u(TRUTH, PROB) == pytest.approx(0.625)
    # TP = 1, FN = 1, n_u = 1, FP = 1: 1.25 / (1.25 + 0.25*2 + 1) = 1.25 / 2.75
    assert m.f_05_u([1, 1, 1, 0], [0.8, 0.3, 0.5, 0.9]) == pytest.approx(1.25 / 2.75)
    # only right "different" answers: 0/0 -> 0
    assert m.f_05_u([0, 0], [0.1, 0.2]) == 0.0


def test_brier_complement_by_hand():
    # squared errors 0.01, 0.16, 0.25, 0.25, 0.09, 0.49 sum to 1.25:
    # 1 - 1.25/6 = 19/24
    assert m.brier(TRUTH, PROB) == pytest.approx(19 / 24)
    assert m.brier([1, 0], [1.0, 0.0]) == 1.0
    assert m.brier([1, 0], [0.0, 1.0]) == 0.0


def test_overall_is_the_mean_of_five():
    # (13/18 + 2/3 + 4/5 + 5/8 + 19/24) / 5 = (260 + 240 + 288 + 225 + 285) / 360 / 5
    #                                        = 1298 / 1800
    assert m.overall(TRUTH, PROB) == pytest.approx(1298 / 1800)


def test_cllr_by_hand():
    # truth 1, 1, 0, 0 and p = 0.8, 1/3, 0.2, 0.5, so LR = p/(1-p) = 4, 1/2, 1/4, 1:
    # same:      log2(1 + 1/4) = log2 1.25,  log2(1 + 2) = log2 3
    # different: log2(1 + 1/4) = log2 1.25,  log2(1 + 1) = 1
    # Cllr = 1/2 [(log2 1.25 + log2 3)/2 + (log2 1.25 + 1)/2] = 0.807205...
    expected = 0.5 * ((math.log2(1.25) + math.log2(3)) / 2 + (math.log2(1.25) + 1) / 2)
    assert m.cllr([1, 1, 0, 0], [0.8, 1 / 3, 0.2, 0.5]) == pytest.approx(expected)
    assert expected == pytest.approx(0.807205, abs=1e-6)
    # no information (p = 0.5 throughout) costs exactly 1 bit
    assert m.cllr([1, 0, 0], [0.5, 0.5, 0.5]) == pytest.approx(1.0)
    # perfect and certain: 0 (clipped at 1e-15: cost -log2(1 - 1e-15), below 1e-14)
    assert m.cllr([1, 0], [1.0, 0.0]) == pytest.approx(0.0, abs=1e-14)


def test_cllr_epsilon_for_certain_wrong_answers():
    # p = 0 for a same-author problem: clipped to 1e-15, cost -log2(1e-15) = 15 log2 10;
    # the different-author p = 0 costs -log2(1 - 1e-15) ~ 0. Cllr = 1/2 (49.83 + 0)
    assert m.cllr([1, 0], [0.0, 0.0]) == pytest.approx(0.5 * 15 * math.log2(10))
    assert m.cllr([1, 0], [0.0, 0.0], eps=0.0) == math.inf
    assert m.cllr([1, 0], [1.0, 0.0], eps=0.0) == 0.0
    assert m.cllr([1, 0], [0.0, 0.0], eps=0.01) == pytest.approx(
        0.5 * (-math.log2(0.01) - math.log2(0.99)))
    with pytest.raises(ValueError, match="eps"):
        m.cllr([1, 0], [0.2, 0.3], eps=0.5)


def test_cllr_min_by_hand_balanced():
    # sorted by p: 0.2 (diff), 1/3 (same), 0.5 (diff), 0.8 (same): truth 0, 1, 0, 1.
    # PAV pools the violating pair (1, 0) -> 0, 1/2, 1/2, 1; N_s = N_d = 2, so
    # LR = P/(1-P) = 0, 1, 1, inf. Same: 1/3 -> log2 2 = 1, 0.8 -> 0; mean 1/2.
    # Different: 0.2 -> log2 1 = 0, 0.5 -> 1; mean 1/2. Cllr_min = 1/2 (1/2 + 1/2) = 1/2
    assert m.cllr_min([1, 1, 0, 0], [0.8, 1 / 3, 0.2, 0.5]) == pytest.approx(0.5)


def test_cllr_min_by_hand_with_the_prior_correction():
    # p 0.1 0.2 0.3 0.4 0.6 with truth 0 1 0 0 1: PAV 0, [1, 0, 0] -> 1/3, 1.
    # N_s = 2, N_d = 3: in the middle block LR = (1/3)/(2/3) * 3/2 = 3/4.
    # Same:      0.2 -> log2(1 + 4/3) = log2(7/3), 0.6 -> 0;  mean log2(7/3)/2
    # Different: 0.1 -> 0, 0.3 and 0.4 -> log2(1 + 3/4) = log2(7/4); mean 2 log2(7/4)/3
    # Cllr_min = 1/2 [log2(7/3)/2 + 2 log2(7/4)/3] = 0.574716...
    expected = 0.5 * (math.log2(7 / 3) / 2 + 2 * math.log2(7 / 4) / 3)
    assert m.cllr_min([0, 1, 0, 0, 1], [0.1, 0.2, 0.3, 0.4, 0.6]) == pytest.approx(expected)
    assert expected == pytest.approx(0.574716, abs=1e-6)


def test_cllr_min_edge_cases():
    # separated: 0; all tied: one block at the prior, LR = 1 everywhere, 1 bit
    assert m.cllr_min([0, 0, 1], [0.1, 0.2, 0.3]) == 0.0
    assert m.cllr_min([0, 1, 1], [0.4, 0.4, 0.4]) == pytest.approx(1.0)
    # reversed order: PAV pools everything, again 1 bit
    assert m.cllr_min([1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4]) == pytest.approx(1.0)
    # ties: a tied (same, different) pair is pooled even when "same" sorts first
    assert m.cllr_min([1, 0, 0, 1], [0.3, 0.3, 0.1, 0.9]) == m.cllr_min(
        [0, 1, 0, 1], [0.3, 0.3, 0.1, 0.9])


def test_pool_adjacent_violators_by_hand():
    # 1, 3, 2 -> (3 + 2)/2 pooled: 1, 2.5, 2.5
    assert m.pool_adjacent_violators([1, 3, 2]).tolist() == [1, 2.5, 2.5]
    # 1, 3, 2, 0: 3, 2, 0 pool to 5/3, still above 1: 1, 5/3, 5/3, 5/3
    assert m.pool_adjacent_violators([1, 3, 2, 0]) == pytest.approx([1, 5 / 3, 5 / 3, 5 / 3])
    # 2, 3, 2, 0: 5/3 falls below 2, so everything pools: 7/4
    assert m.pool_adjacent_violators([2, 3, 2, 0]).tolist() == [1.75] * 4
    # weights: (3*1 + 2*3) / 4 = 9/4
    assert m.pool_adjacent_violators([1, 3, 2], [1, 1, 3]).tolist() == [1, 2.25, 2.25]
    assert m.pool_adjacent_violators([]).tolist() == []


def test_ece_by_hand():
    # bins of width 0.1: 0.12 and 0.18 in bin 1 (mean p 0.15, share same 1/2: 0.35);
    # 0.5, 0.5 in bin 5 (0.5 against 1/2: 0); 0.9 and 1.0 in bin 9 (0.95 against 1: 0.05).
    # ECE = (2*0.35 + 2*0 + 2*0.05)/6 = 0.8/6
    truth = [0, 1, 1, 0, 1, 1]
    prob = [0.12, 0.18, 0.5, 0.5, 0.9, 1.0]
    assert m.ece(truth, prob) == pytest.approx(0.8 / 6)
    # two bins: [0, 0.5) holds 0.12, 0.18 (0.35 off), [0.5, 1] the rest
    # (mean p 0.725 against share 3/4: 0.025); (2*0.35 + 4*0.025)/6 = 0.8/6 again
    assert m.ece(truth, prob, bins=2) == pytest.approx(0.8 / 6)
    with pytest.raises(ValueError, match="bins"):
        m.ece(truth, prob, bins=0)


def test_verification_scores_names_every_measure():
    scores = m.verification_scores(TRUTH, PROB)
    assert list(scores) == ["auc", "c_at_1", "auc_c_at_1", "f1", "f_05_u", "brier",
                            "overall", "cllr", "cllr_min", "ece"]
    assert all(type(v) is float for v in scores.values())
    for name in ("auc", "c_at_1", "auc_c_at_1", "f1", "f_05_u", "brier", "overall", "cllr",
                 "cllr_min", "ece"):
        assert scores[name] == pytest.approx(getattr(m, name)(TRUTH, PROB)), name
    assert scores["overall"] == pytest.approx(1298 / 1800)


def test_the_calibration_package_lists_the_module():
    import hclib.calibration as calibration
    from hclib.calibration import metrics

    assert metrics is m
    assert "hclib.calibration.metrics" in calibration.__doc__


@pytest.mark.parametrize("truth, prob, error, match", [
    ([1, 0], [0.5], ValueError, "1 probabilities for 2 truths"),
    ([], [], ValueError, "empty"),
    ([[1, 0]], [[0.2, 0.3]], ValueError, "1-D"),
    ([1, 2], [0.2, 0.3], ValueError, "binary"),
    ([1, np.nan], [0.2, 0.3], ValueError, "binary"),
    (["a", "b"], [0.2, 0.3], TypeError, "truth must be numeric"),
    ([1, 0], ["0.2", "0.3"], TypeError, "probability must be numeric"),
    ([1, 0], [True, False], TypeError, "booleans"),
    ([1, 0], [0.2, 1.5], ValueError, r"in \[0, 1\], got 1.5 at index 1"),
    ([1, 0], [-0.1, 0.3], ValueError, r"in \[0, 1\]"),
    ([1, 0], [np.nan, 0.3], ValueError, "finite"),
    ([1, 0], [0.2, np.inf], ValueError, "finite"),
])
def test_bad_input_is_named(truth, prob, error, match):
    for name in ("auc", "c_at_1", "f1", "f_05_u", "brier", "cllr", "cllr_min", "ece",
                 "verification_scores"):
        with pytest.raises(error, match=match):
            getattr(m, name)(truth, prob)


def test_one_class_is_refused_where_undefined():
    for name in ("auc", "auc_c_at_1", "overall", "cllr", "cllr_min", "verification_scores"):
        with pytest.raises(ValueError, match="both same- and different-author"):
            getattr(m, name)([1, 1, 1], [0.9, 0.4, 0.5])
    # the others are defined: c@1 = (1 + 1*1/3)/3, F1 = 2/(2 + 0 + 1), Brier 1 - 0.62/3
    assert m.c_at_1([1, 1, 1], [0.9, 0.4, 0.5]) == pytest.approx(4 / 9)
    assert m.f1([True, True, True], [0.9, 0.4, 0.5]) == pytest.approx(2 / 3)
    assert m.brier([1, 1, 1], [0.9, 0.4, 0.5]) == pytest.approx(1 - 0.62 / 3)


# ---- seeded random cases against independent brute force -------------------------------

def _random_cases(count: int = 25):
    rng = np.random.default_rng(20240607)
    for k in range(count):
        n = int(rng.integers(2, 40))
        truth = rng.random(n) < rng.uniform(0.2, 0.8)
        truth[0], truth[1] = True, False  # both classes
        prob = rng.random(n)
        if k % 2:  # coarse values: many ties and non-answers
            prob = np.round(prob * 4) / 4
        yield truth, prob


def _auc_by_pairs(truth, prob):
    same, diff = prob[truth], prob[~truth]
    wins = sum(1.0 if s > d else 0.5 if s == d else 0.0 for s in same for d in diff)
    return wins / (len(same) * len(diff))


def _decisions_by_loop(truth, prob):
    tp = fp = fn = tn = nu = 0
    for y, p in zip(truth.tolist(), prob.tolist()):
        if p == 0.5:
            nu += 1
        elif p > 0.5:
            tp, fp = tp + y, fp + (not y)
        else:
            fn, tn = fn + y, tn + (not y)
    return tp, fp, fn, tn, nu


def _pav_min_max(values, weights):
    """Isotonic regression by the min–max formula v_i = max_{j<=i} min_{k>=i} mean(j..k)."""
    n = len(values)
    out = []
    for i in range(n):
        out.append(max(min(np.dot(values[j:k + 1], weights[j:k + 1]) / weights[j:k + 1].sum()
                           for k in range(i, n)) for j in range(i + 1)))
    return np.array(out)


def _cllr_min_brute(truth, prob):
    levels = np.unique(prob)
    same = np.array([truth[prob == v].sum() for v in levels], dtype=float)
    size = np.array([(prob == v).sum() for v in levels], dtype=float)
    post = _pav_min_max(same / size, size)
    n_s, n_d = truth.sum(), (~truth).sum()
    total_s = total_d = 0.0
    for y, p in zip(truth, prob):
        q = post[np.searchsorted(levels, p)]
        lr = q / (1 - q) * n_d / n_s if q < 1 else math.inf
        if y:
            total_s += math.log2(1 + 1 / lr)
        else:
            total_d += math.log2(1 + lr)
    return 0.5 * (total_s / n_s + total_d / n_d)


def test_random_cases_against_brute_force():
    for truth, prob in _random_cases():
        n = len(truth)
        tp, fp, fn, tn, nu = _decisions_by_loop(truth, prob)
        assert m.auc(truth, prob) == pytest.approx(_auc_by_pairs(truth, prob))
        assert m.c_at_1(truth, prob) == pytest.approx((tp + tn + nu * (tp + tn) / n) / n)
        assert m.f1(truth, prob) == pytest.approx(2 * tp / (2 * tp + fp + fn)
                                                  if 2 * tp + fp + fn else 0.0)
        denom = 1.25 * tp + 0.25 * (fn + nu) + fp
        assert m.f_05_u(truth, prob) == pytest.approx(1.25 * tp / denom if denom else 0.0)
        assert m.brier(truth, prob) == pytest.approx(
            1 - sum((p - y) ** 2 for y, p in zip(truth, prob)) / n)
        lr = np.clip(prob, 1e-15, 1 - 1e-15) / (1 - np.clip(prob, 1e-15, 1 - 1e-15))
        assert m.cllr(truth, prob) == pytest.approx(0.5 * (
            np.mean(np.log2(1 + 1 / lr[truth])) + np.mean(np.log2(1 + lr[~truth]))))
        assert m.cllr_min(truth, prob) == pytest.approx(_cllr_min_brute(truth, prob))
        counts = {}
        for y, p in zip(truth, prob):
            b = min(int(p * 10), 9)
            counts.setdefault(b, []).append((p, y))
        assert m.ece(truth, prob) == pytest.approx(sum(
            len(v) / n * abs(np.mean([p for p, _ in v]) - np.mean([y for _, y in v]))
            for v in counts.values()))


def test_random_pav_against_min_max():
    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(1, 25))
        values = np.round(rng.normal(size=n), 1)
        weights = rng.uniform(0.1, 3.0, size=n)
        fitted = m.pool_adjacent_violators(values, weights)
        assert np.all(np.diff(fitted) >= -1e-12)
        np.testing.assert_allclose(fitted, _pav_min_max(values, weights), atol=1e-12)


def test_cllr_min_is_a_floor_and_ignores_monotone_maps():
    rng = np.random.default_rng(11)
    for truth, prob in _random_cases():
        best = m.cllr_min(truth, prob)
        assert best <= 1.0 + 1e-12
        assert best <= m.cllr(truth, prob) + 1e-12
        # a strictly increasing map keeps the order, so Cllr_min, and may not beat it
        mapped = prob ** 3 * 0.6 + 0.2
        assert m.cllr_min(truth, mapped) == pytest.approx(best)
        for _ in range(5):
            a, b = rng.uniform(0.2, 5.0), rng.normal()
            logit = np.log(np.clip(prob, 1e-9, 1 - 1e-9) / (1 - np.clip(prob, 1e-9, 1 - 1e-9)))
            calibrated = 1 / (1 + np.exp(-(a * logit + b)))
            assert m.cllr(truth, calibrated) >= best - 1e-12


def test_random_cases_against_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    isotonic = pytest.importorskip("sklearn.isotonic")
    for truth, prob in _random_cases():
        assert m.auc(truth, prob) == pytest.approx(metrics.roc_auc_score(truth, prob))
        assert m.brier(truth, prob) == pytest.approx(
            1 - metrics.brier_score_loss(truth, prob))
        answered = prob != 0.5
        if answered.any():
            assert m.f1(truth, prob) == pytest.approx(metrics.f1_score(
                truth[answered], prob[answered] > 0.5, zero_division=0.0))
        # scikit-learn's isotonic regression pools tied x as well
        post = isotonic.IsotonicRegression().fit_transform(prob, truth.astype(float))
        n_s, n_d = truth.sum(), (~truth).sum()
        with np.errstate(divide="ignore"):
            lr = post / (1 - post) * n_d / n_s
            expected = 0.5 * (np.mean(np.log2(1 + 1 / lr[truth]))
                              + np.mean(np.log2(1 + lr[~truth])))
        assert m.cllr_min(truth, prob) == pytest.approx(expected)
