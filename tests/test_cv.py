"""Within-corpus variation of words: r(w|D), CV(w|C), rank profiles and bootstrap intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hclib import hc_discrepancy
from hclib.studies.cv import (
    SHIFT,
    PairSample,
    bootstrap_mean,
    coefficient_of_variation,
    compare_below_above,
    corpus_moments,
    frequency_strata,
    leave_one_out_cv,
    poisson_cv,
    rank_profile,
    sample_pairs,
    stabilized_counts,
    tag_share,
)


def synthetic_collection(seed: int = 0, n_authors: int = 4, docs_per_author: int = 6,
                         n_words: int = 120, length: int = 4000):
    """Poisson-like documents: each author a Zipf profile with its own perturbation."""
    rng = np.random.default_rng(seed)
    base = 1 / np.arange(1, n_words + 1)
    rows, labels = [], []
    for a in range(n_authors):
        profile = base * rng.lognormal(0, 0.3, n_words)
        profile /= profile.sum()
        for _ in range(docs_per_author):
            rows.append(rng.multinomial(length, profile))
            labels.append(a)
    return np.array(rows), np.array(labels)


# ------------------------------------------------------------------ r(w|D) and CV by hand


def test_transform_by_hand() -> None:
    counts = np.array([[3, 0, 1], [0, 2, 2]])
    r = stabilized_counts(counts)
    # |D| = 4 for both rows
    expected = 2 * np.sqrt((np.array([[3, 0, 1], [0, 2, 2]]) + 0.25) / 4)
    assert np.allclose(r, expected, rtol=0, atol=1e-15)
    assert r[0, 1] == pytest.approx(2 * math.sqrt(0.25 / 4)) == pytest.approx(0.5)
    assert SHIFT == 0.25
    # explicit lengths |D| (all tokens, not only the vocabulary's)
    r_len = stabilized_counts(counts, lengths=[16, 9])
    assert r_len[1, 1] == pytest.approx(2 * math.sqrt(2.25 / 9)) == pytest.approx(1.0)


def test_r_is_never_zero() -> None:
    counts = np.array([[0, 5], [0, 7], [0, 1]])
    r = stabilized_counts(counts)
    assert (r[:, 0] > 0).all()
    assert np.allclose(r[:, 0], 1 / np.sqrt(counts.sum(axis=1)))


def test_cv_by_hand() -> None:
    counts = np.array([[1, 3], [3, 1], [2, 2]])  # |D| = 4
    cv = coefficient_of_variation(counts)
    r0 = [2 * math.sqrt((c + 0.25) / 4) for c in (1, 3, 2)]
    mu = sum(r0) / 3
    sd = math.sqrt(sum((v - mu) ** 2 for v in r0) / 2)       # sample variance: divisor n - 1
    assert cv[0] == pytest.approx(sd / mu, rel=1e-12)
    assert cv[1] == pytest.approx(sd / mu, rel=1e-12)          # the same values, permuted
    cv_pop = coefficient_of_variation(counts, ddof=0)
    assert cv_pop[0] == pytest.approx(sd * math.sqrt(2 / 3) / mu, rel=1e-12)
    mu_, var_ = corpus_moments(stabilized_counts(counts))
    assert mu_[0] == pytest.approx(mu) and var_[0] == pytest.approx(sd**2)


def test_cv_zero_for_constant_rates_and_equal_lengths() -> None:
    counts = np.array([[10, 30, 60], [10, 30, 60], [10, 30, 60]])
    assert np.allclose(coefficient_of_variation(counts), 0.0)


def test_cv_of_absent_word_reflects_lengths_only() -> None:
    counts = np.array([[0, 100], [0, 400], [0, 900]])
    inv = 1 / np.sqrt([100, 400, 900])
    assert coefficient_of_variation(counts)[0] == pytest.approx(inv.std(ddof=1) / inv.mean())


def test_cv_invariant_under_common_length_scaling_and_document_order() -> None:
    counts, _ = synthetic_collection(seed=1)
    docs = counts[:6]
    lengths = docs.sum(axis=1) * 1.0
    cv = coefficient_of_variation(docs, lengths)
    assert np.allclose(coefficient_of_variation(docs, 7.5 * lengths), cv, rtol=1e-12)
    perm = np.random.default_rng(0).permutation(6)
    assert np.allclose(coefficient_of_variation(docs[perm]), cv, rtol=1e-12)


def test_cv_not_invariant_when_counts_scale_but_converges() -> None:
    # Scaling counts and lengths together changes CV only through the +1/4, whose weight
    # vanishes: CV tends to the CV of sqrt(relative frequency).
    counts = np.array([[1, 9], [2, 8], [4, 6]])
    cv1 = coefficient_of_variation(counts)
    big = coefficient_of_variation(counts * 10_000)
    limit = np.sqrt(counts / 10).std(axis=0, ddof=1) / np.sqrt(counts / 10).mean(axis=0)
    assert not np.allclose(cv1, big)
    assert np.allclose(big, limit, rtol=1e-4)


def test_poisson_variance_of_r_is_one_over_length() -> None:
    rng = np.random.default_rng(3)
    length, mu = 50_000, 0.002
    n = rng.poisson(mu * length, size=(4000, 1))
    r = stabilized_counts(n, lengths=np.full(4000, length))
    assert r.mean() == pytest.approx(2 * math.sqrt(mu), rel=0.01)
    assert r.var(ddof=1) * length == pytest.approx(1.0, abs=0.06)


# ------------------------------------------------------------------ leave-one-out


def test_leave_one_out_matches_direct_removal() -> None:
    counts, _ = synthetic_collection(seed=2)
    docs = counts[:6]
    r = stabilized_counts(docs)
    loo = leave_one_out_cv(r)
    for i in range(6):
        rest = np.delete(r, i, axis=0)
        direct = rest.std(axis=0, ddof=1) / rest.mean(axis=0)
        assert np.allclose(loo[i], direct, rtol=1e-10, atol=1e-14)
        assert not np.allclose(loo[i], coefficient_of_variation(docs))


def test_rank_profile_leaves_the_document_out_of_its_corpus() -> None:
    counts, labels = synthetic_collection(seed=4)
    pairs = PairSample(doc=np.array([0, 0]), corpus=np.array([0, 1]),
                       concordant=np.array([True, False]))
    prof = rank_profile(counts, labels, pairs, seed=0)
    # concordant: corpus 0 without document 0, for the test ...
    corpus0 = counts[1:6].sum(axis=0)
    expected = hc_discrepancy(counts[0], corpus0)
    assert prof.hc[0] == pytest.approx(expected.hc)
    assert prof.istar[0] == expected.istar and prof.n_below[0] == expected.mask.sum()
    assert np.array_equal(np.sort(prof.pvalues[0]), np.sort(expected.pvalues))
    # ... and for the CV: CV at each rank is that of the reduced corpus
    cv_reduced = coefficient_of_variation(counts[1:6])
    assert np.allclose(prof.cv[0], cv_reduced[prof.words[0]])
    # discordant: the full corpus of author 1
    assert prof.hc[1] == pytest.approx(hc_discrepancy(counts[0], counts[6:12].sum(axis=0)).hc)
    assert np.allclose(prof.cv[1], coefficient_of_variation(counts[6:12])[prof.words[1]])
    # below / above: the mean CV of the words inside / outside W†
    mask = expected.mask
    assert prof.below[0] == pytest.approx(cv_reduced[mask].mean())
    assert prof.above[0] == pytest.approx(cv_reduced[~mask].mean())
    # P-values sorted, rows are permutations of the vocabulary
    assert (np.diff(prof.pvalues, axis=1) >= 0).all()
    assert (np.sort(prof.words, axis=1) == np.arange(counts.shape[1])).all()


def test_rank_profile_is_reproducible_and_averages() -> None:
    counts, labels = synthetic_collection(seed=5)
    pairs = sample_pairs(labels, 12, seed=3)
    a = rank_profile(counts, labels, pairs, seed=1)
    b = rank_profile(counts, labels, pairs, seed=1)
    assert np.array_equal(a.cv, b.cv) and np.array_equal(a.words, b.words)
    assert np.allclose(a.mean("all"), a.cv.mean(axis=0))
    assert np.allclose(a.mean("concordant"), a.cv[pairs.concordant].mean(axis=0))
    with pytest.raises(ValueError, match="which"):
        a.mean("both")


def test_sample_pairs() -> None:
    labels = np.repeat(np.arange(5), [8, 3, 2, 6, 4])
    pairs = sample_pairs(labels, 30, seed=11)
    assert len(pairs) == 30
    assert np.array_equal(pairs.concordant, np.tile([True, False], 15))
    assert np.array_equal(labels[pairs.doc] == pairs.corpus, pairs.concordant)
    assert np.array_equal(pairs.doc[::2], pairs.doc[1::2])
    assert np.unique(pairs.doc).size == 15                     # without replacement
    assert not np.isin(pairs.doc, np.flatnonzero(labels == 2)).any()  # author with 2 docs
    again = sample_pairs(labels, 30, seed=11)
    assert np.array_equal(again.doc, pairs.doc) and np.array_equal(again.corpus, pairs.corpus)
    # the discordant corpus is uniform over the other authors
    many = sample_pairs(np.repeat(np.arange(3), 400), 1200, seed=0)
    disc = ~many.concordant
    assert np.all(np.bincount(many.corpus[disc], minlength=3) > 150)


# ------------------------------------------------------------------ bad input


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="no sample variance"):
        coefficient_of_variation([[1, 2, 3]])
    coefficient_of_variation([[1, 2, 3]], ddof=0)              # fine: population variance
    with pytest.raises(ValueError, match="empty document"):
        coefficient_of_variation([[1, 2], [0, 0]])
    with pytest.raises(ValueError, match="lengths has shape"):
        stabilized_counts([[1, 2], [3, 4]], lengths=[5, 6, 7])
    with pytest.raises(ValueError, match="smaller than"):
        stabilized_counts([[1, 2], [3, 4]], lengths=[2, 10])
    with pytest.raises(ValueError, match="negative"):
        stabilized_counts([[1, -2]])
    with pytest.raises(ValueError, match="ddof"):
        coefficient_of_variation([[1, 2], [3, 4]], ddof=2)
    with pytest.raises(ValueError, match="leave-one-out"):
        leave_one_out_cv(stabilized_counts([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="documents on axis 0"):
        corpus_moments([1.0, 2.0])
    counts, labels = synthetic_collection(seed=6)
    with pytest.raises(ValueError, match="entries for"):
        rank_profile(counts, labels[:-1], sample_pairs(labels, 4))
    with pytest.raises(ValueError, match="concordant"):
        rank_profile(counts, labels, PairSample(np.array([0]), np.array([1]), np.array([True])))
    with pytest.raises(ValueError, match="even"):
        sample_pairs(labels, 5)
    with pytest.raises(ValueError, match="two authors"):
        sample_pairs(np.zeros(10, dtype=int), 4)
    with pytest.raises(ValueError, match="only"):
        sample_pairs(labels, 2 * (labels.size + 1))
    prof = rank_profile(counts, labels, sample_pairs(labels, 4))
    with pytest.raises(ValueError, match="one integer class per word"):
        compare_below_above(prof, strata=np.zeros(3, dtype=int))


# ------------------------------------------------------------------ bootstrap


def test_bootstrap_reproducible_and_cluster_aware() -> None:
    rng = np.random.default_rng(0)
    v = rng.normal(size=200)
    a = bootstrap_mean(v, seed=5, n_boot=1000)
    b = bootstrap_mean(v, seed=5, n_boot=1000)
    assert a == b and a.low < a.estimate < a.high
    assert a.estimate == pytest.approx(v.mean())
    # strongly clustered values: the cluster bootstrap is wider than the naive one
    clusters = np.repeat(np.arange(10), 20)
    w = np.repeat(rng.normal(size=10), 20) + 0.1 * rng.normal(size=200)
    naive = bootstrap_mean(w, n_boot=1000, seed=1)
    clustered = bootstrap_mean(w, clusters=clusters, n_boot=1000, seed=1)
    assert clustered.high - clustered.low > 3 * (naive.high - naive.low)
    with pytest.raises(ValueError, match="one label per value"):
        bootstrap_mean(w, clusters=clusters[:-1])
    with pytest.raises(ValueError, match="at least two"):
        bootstrap_mean([1.0])
    with pytest.raises(ValueError, match="level"):
        bootstrap_mean(w, level=1.5)
    with pytest.raises(ValueError, match="two clusters"):
        bootstrap_mean(w, clusters=np.zeros(200))


def test_bootstrap_covers_the_truth() -> None:
    rng = np.random.default_rng(2024)
    truth, hits, trials = 1.0, 0, 200
    for t in range(trials):
        sample = rng.exponential(truth, size=60)
        ci = bootstrap_mean(sample, n_boot=400, seed=t)
        hits += ci.low <= truth <= ci.high
    assert 0.88 <= hits / trials <= 0.99


# ------------------------------------------------------------------ below vs above


def test_compare_below_above_and_frequency_matching() -> None:
    counts, labels = synthetic_collection(seed=7, n_authors=5, docs_per_author=5)
    prof = rank_profile(counts, labels, sample_pairs(labels, 20, seed=2), seed=2)
    table = compare_below_above(prof, n_boot=500, seed=0)
    assert list(table.index) == ["all", "concordant", "discordant"]
    assert table.loc["all", "n"] == 20
    assert table.loc["all", "difference"] == pytest.approx((prof.below - prof.above).mean())
    for name in ("below", "above", "difference"):
        assert (table[f"{name} low"] <= table[name]).all()
        assert (table[name] <= table[f"{name} high"]).all()
    # one stratum: matching changes nothing
    one = compare_below_above(prof, strata=np.zeros(counts.shape[1], dtype=int), n_boot=500)
    assert np.allclose(one["difference"], table["difference"])
    strata = frequency_strata(counts, 4)
    assert np.bincount(strata).tolist() == [30, 30, 30, 30]
    assert strata[np.argmax(counts.sum(axis=0))] == 3 and strata[np.argmin(counts.sum(axis=0))] == 0


# ------------------------------------------------------------------ names and numbers


def test_tag_share() -> None:
    pytest.importorskip("nltk")
    texts = ["John met Mary in London. They saw two ships and one boat. John smiled."]
    share, seen = tag_share(texts, ["john", "two", "ships", "absent"])
    assert seen.tolist() == [2, 1, 1, 0]
    assert share[0] == 1.0 and share[1] == 1.0 and share[2] == 0.0 and np.isnan(share[3])
    with pytest.raises(ValueError, match="distinct"):
        tag_share(texts, ["a", "a"])


# ------------------------------------------------------------------ Poisson reference


def test_poisson_cv_reference() -> None:
    rng = np.random.default_rng(8)
    lengths = rng.integers(2_000, 6_000, size=30)
    rates = np.array([0.05, 0.01, 0.0001, 0.0])
    counts = rng.poisson(np.outer(lengths, rates))
    counts = np.column_stack([counts, lengths - counts.sum(axis=1)])  # rows sum to |D|
    ref = poisson_cv(counts, n_sim=300, seed=1)
    assert np.array_equal(ref, poisson_cv(counts, n_sim=300, seed=1))
    # frequent words: CV ≈ 1 / (2 sqrt(λ)) at the mean length
    lam = rates[:2] * lengths.mean()
    assert np.allclose(ref[:2], 1 / (2 * np.sqrt(lam)), rtol=0.1)
    # rare words: CV below 1 / (2 sqrt(λ)), down to that of 1/sqrt(|D|) for an absent word
    floor = (1 / np.sqrt(lengths)).std(ddof=1) / (1 / np.sqrt(lengths)).mean()
    assert ref[2] < 0.7 / (2 * np.sqrt(rates[2] * lengths.mean()))   # λ ≈ 0.4: below the formula
    assert ref[3] == pytest.approx(floor, rel=1e-12)                  # absent word: the floor
    # Poisson data have a CV close to their Poisson reference
    observed = coefficient_of_variation(counts)
    assert np.allclose(observed[:2], ref[:2], rtol=0.35)
    assert ref.shape == (5,)
    with pytest.raises(ValueError, match="n_sim"):
        poisson_cv(counts, n_sim=0)


def test_dispersion_index_matches_pearson_per_group_by_brute_force() -> None:
    from hclib.studies.cv import dispersion_index

    rng = np.random.default_rng(11)
    counts = rng.poisson(5, size=(9, 6))
    counts[:, 5] = 0
    counts[0, 5] = 40                                    # one bursty word
    groups = ["a"] * 4 + ["b"] * 5
    got = dispersion_index(counts, groups)
    for w in range(6):
        chi2 = 0.0
        for g in ("a", "b"):
            rows = [d for d in range(9) if groups[d] == g]
            rate = counts[rows, w].sum() / counts[rows].sum()
            for d in rows:
                e = counts[d].sum() * rate
                chi2 += 0.0 if e == 0 else (counts[d, w] - e) ** 2 / e
        assert got[w] == pytest.approx(chi2 / 7, rel=1e-12)
    assert got[5] > 3 * np.median(got[:5])          # the bursty word stands out


def test_dispersion_index_rejects_bad_groups() -> None:
    from hclib.studies.cv import dispersion_index

    with pytest.raises(ValueError, match="one label per document"):
        dispersion_index(np.ones((3, 2), int), ["a", "b"])
    with pytest.raises(ValueError, match="no degree of freedom"):
        dispersion_index(np.ones((2, 2), int), ["a", "b"])
