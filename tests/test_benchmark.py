"""Tests of hclib.studies.benchmark: folds, the benchmark on synthetic corpora, summaries and tests."""

from __future__ import annotations


import types

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from hclib.studies import benchmark as ev
from hclib.studies import benchmark_analysis as analysis
from hclib.studies import published
from hclib.engine.matrix import corpus_counts, discrepancy_matrix

CHEAP = ["g2", "cressie_read", "chi2", "cosine", "knn_cosine"]


def synthetic(n_authors: int = 4, works: int = 6, n_words: int = 80, length: int = 4000,
              boost: float = 3.0, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Works of authors who each use their own 8 words ``boost`` times more often.

    Columns are ranked by overall frequency (a Zipf base), as a common-word list would be.
    """
    rng = np.random.default_rng(seed)
    base = 1.0 / np.arange(1, n_words + 1)
    counts, labels = [], []
    for a in range(n_authors):
        p = base.copy()
        p[10 + 8 * a : 18 + 8 * a] *= boost
        p /= p.sum()
        counts.append(rng.multinomial(length, p, size=works))
        labels += [f"author {a}"] * works
    return np.vstack(counts), np.asarray(labels, dtype=object)


# ------------------------------------------------------------------ folds


def test_stratified_folds_balanced_and_stratified():
    labels = np.repeat(["a", "b", "c", "d"], [10, 12, 15, 20])
    folds = ev.stratified_folds(labels, 10, seed=3)
    sizes = np.bincount(folds, minlength=10)
    assert sizes.max() - sizes.min() <= 1
    for author in "abcd":
        per_fold = np.bincount(folds[labels == author], minlength=10)
        assert per_fold.min() >= 1  # every author (>= 10 works) is tested in every fold
        assert per_fold.max() - per_fold.min() <= 1
    for f in range(10):
        assert set(labels[folds != f]) == set("abcd")  # and always keeps training works


def test_stratified_folds_seeded():
    labels = np.repeat(["a", "b", "c"], 11)
    a = ev.stratified_folds(labels, 5, seed=7)
    assert np.array_equal(a, ev.stratified_folds(labels, 5, seed=7))
    assert not np.array_equal(a, ev.stratified_folds(labels, 5, seed=8))


def test_stratified_folds_few_works_keep_training():
    labels = np.repeat(["a", "b", "c"], [2, 3, 11])
    folds = ev.stratified_folds(labels, 10, seed=0)
    for f in range(10):
        assert set(labels[folds != f]) == {"a", "b", "c"}
    with pytest.raises(ValueError, match="single work"):
        ev.stratified_folds(["a", "a", "b"], 2)


def test_stratified_folds_groups_stay_together():
    labels = np.repeat(["a", "b"], 12)
    groups = [f"{lab}{i // 3}" for i, lab in enumerate(labels)]  # volumes of 4 books per author
    folds = ev.stratified_folds(labels, 4, seed=1, groups=groups)
    frame = pd.DataFrame({"g": groups, "f": folds})
    assert (frame.groupby("g")["f"].nunique() == 1).all()
    with pytest.raises(ValueError, match="single group"):
        ev.stratified_folds(labels, 4, groups=[lab for lab in labels])
    with pytest.raises(ValueError, match="n_folds"):
        ev.stratified_folds(labels, 1)


# ------------------------------------------------------------------ the vote


def test_knn_vote_majority_and_ties():
    labels = ["a", "b", "b", "a", "c"]
    d = np.array([
        [0.1, 0.2, 0.3, 0.4, 0.5],   # a, b, b, a, c -> a and b tie 2-2; a is nearest
        [0.5, 0.1, 0.2, 0.4, 0.05],  # c, b, b, a, a -> b and a tie 2-2; b is nearer
        [0.9, 0.1, 0.2, 0.8, 0.05],  # k=3: c, b, b -> b by majority
    ])
    assert ev.knn_vote(d, labels, 5).tolist() == ["a", "b", "b"]
    assert ev.knn_vote(d, labels, 3).tolist()[2] == "b"
    assert ev.knn_vote(d, labels, 1).tolist() == ["a", "c", "c"]
    assert ev.knn_vote(d, labels, 50).tolist() == ["a", "b", "b"]  # k > neighbours: all of them
    with pytest.raises(ValueError):
        ev.knn_vote(d[:, :3], labels)


# ------------------------------------------------------------------ the benchmark


@pytest.fixture(scope="module")
def separated():
    return synthetic()


@pytest.fixture(scope="module")
def result(separated):
    counts, labels = separated
    return ev.run_benchmark(counts, labels, vocab_sizes=(30, 80), n_folds=3, seed=0,
                            methods=["hc_dagger", "hc_star", *CHEAP], progress=False)


def test_benchmark_known_answer(result):
    """Well-separated authors: every method attributes every work correctly."""
    assert set(result.accuracy["method"]) == {"hc_dagger", "hc_star", *CHEAP}
    assert len(result.accuracy) == 7 * 2 * 3
    assert (result.accuracy["accuracy"] == 1.0).all()
    assert (result.accuracy.groupby(["method", "N"])["n_test"].sum() == 24).all()
    assert result.predictions["correct"].all()
    assert set(result.timing.columns) == {"method", "N", "fold", "seconds"}


def test_benchmark_attributes_to_training_corpus(separated):
    """Each prediction is the argmin of the discrepancy to the training-corpus sums."""
    counts, labels = synthetic(boost=1.25, length=1500, seed=5)  # hard enough to make errors
    res = ev.run_benchmark(counts, labels, vocab_sizes=(40,), n_folds=3, seed=2,
                           methods=["hc_dagger", "chi2"], progress=False)
    assert res.accuracy["accuracy"].min() < 1.0
    for method in ("hc_dagger", "chi2"):
        for f in range(3):
            test, train = res.folds == f, res.folds != f
            authors, corpora, _ = corpus_counts(counts[train][:, :40], labels[train].tolist())
            d = discrepancy_matrix(counts[test][:, :40], corpora, measure=method)
            expected = np.asarray(authors, dtype=object)[d.argmin(axis=1)]
            got = res.predictions.query("method == @method and fold == @f")
            assert got["predicted"].tolist() == expected.tolist()
            assert got["work"].tolist() == np.flatnonzero(test).tolist()


def test_vocabulary_prefixes_reuse_one_table(separated):
    """Results at N equal a run on the table of the first N words alone."""
    counts, labels = separated
    full = ev.run_benchmark(counts, labels, vocab_sizes=(20, 80), n_folds=3, methods=CHEAP,
                            progress=False)
    small = ev.run_benchmark(counts[:, :20], labels, vocab_sizes=(20,), n_folds=3,
                             methods=CHEAP, progress=False)
    pd.testing.assert_frame_equal(full.accuracy.query("N == 20").reset_index(drop=True),
                                  small.accuracy)


def test_benchmark_seeded(separated):
    counts, labels = synthetic(boost=1.3, length=1500, seed=9)
    a = ev.run_benchmark(counts, labels, vocab_sizes=(40,), n_folds=3, seed=4, methods=CHEAP,
                         progress=False)
    b = ev.run_benchmark(counts, labels, vocab_sizes=(40,), n_folds=3, seed=4, methods=CHEAP,
                         progress=False)
    pd.testing.assert_frame_equal(a.accuracy, b.accuracy)
    assert np.array_equal(a.folds, ev.stratified_folds(labels, 3, seed=4))


def test_benchmark_parallel_equals_serial(separated):
    counts, labels = synthetic(boost=1.3, length=1500, seed=9)
    kwargs = dict(vocab_sizes=(20, 40), n_folds=3, methods=["hc_dagger", *CHEAP], progress=False)
    a = ev.run_benchmark(counts, labels, **kwargs)
    b = ev.run_benchmark(counts, labels, n_jobs=2, **kwargs)
    pd.testing.assert_frame_equal(a.accuracy, b.accuracy)
    pd.testing.assert_frame_equal(a.predictions, b.predictions)


def test_benchmark_on_dask_client(separated):
    distributed = pytest.importorskip("dask.distributed")
    counts, labels = synthetic(boost=1.3, length=1500, seed=9)
    kwargs = dict(vocab_sizes=(20, 40), n_folds=3, methods=["hc_dagger", "g2", "knn_cosine"],
                  progress=False)
    a = ev.run_benchmark(counts, labels, **kwargs)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        b = ev.run_benchmark(counts, labels, client=client, **kwargs)
    pd.testing.assert_frame_equal(a.accuracy, b.accuracy)


def test_benchmark_collection_and_groups(separated):
    counts, labels = separated
    works = pd.DataFrame({"author": labels, "work_group": [f"{a}-{i // 2}"
                                                           for i, a in enumerate(labels)]})
    collection = types.SimpleNamespace(counts=counts, labels=labels, works=works)
    res = ev.run_benchmark(collection, vocab_sizes=(30,), n_folds=3, methods=["g2"],
                           groups="work_group", progress=False)
    frame = pd.DataFrame({"g": works["work_group"], "f": res.folds})
    assert (frame.groupby("g")["f"].nunique() == 1).all()
    with pytest.raises(ValueError, match="names no column"):
        ev.run_benchmark(collection, vocab_sizes=(30,), methods=["g2"], groups="series")


def test_benchmark_validation(separated):
    counts, labels = separated
    with pytest.raises(ValueError, match="vocab_sizes"):
        ev.run_benchmark(counts, labels, vocab_sizes=(500,), methods=["g2"])
    with pytest.raises(ValueError, match="unknown method"):
        ev.run_benchmark(counts, labels, methods=["hc"])
    with pytest.raises(ValueError, match="one label per work"):
        ev.run_benchmark(counts, labels[:-1], methods=["g2"])
    with pytest.raises(ValueError, match="no training works"):
        ev.run_benchmark(counts, labels, vocab_sizes=(30,), methods=["g2"],
                         folds=(labels == "author 0").astype(int))
    with pytest.raises(ValueError, match="Collection"):
        ev.run_benchmark(counts, methods=["g2"])


# ------------------------------------------------------------------ the Delta methods


def test_delta_methods_match_delta_scores():
    """The Delta methods attribute each test work as hclib.formulas.stylometry.delta_scores does."""
    from hclib.formulas.stylometry import delta_scores

    counts, labels = synthetic(boost=1.25, length=1500, seed=5)  # hard enough to make errors
    res = ev.run_benchmark(counts, labels, vocab_sizes=(40,), n_folds=3, seed=2,
                           methods=["burrows_delta", "cosine_delta"], progress=False)
    assert res.accuracy["accuracy"].min() < 1.0
    for method, name in (("burrows_delta", "burrows"), ("cosine_delta", "cosine")):
        for f in range(3):
            test, train = res.folds == f, res.folds != f
            authors, scores = delta_scores(counts[test][:, :40], counts[train][:, :40],
                                           labels[train].tolist(), method=name,
                                           leave_one_out=False)
            expected = np.asarray(list(authors), dtype=object)[np.argmin(scores, axis=1)]
            got = res.predictions.query("method == @method and fold == @f")
            assert got["predicted"].tolist() == expected.tolist()


def test_real_delta_methods_on_known_answer(separated):
    counts, labels = separated
    res = ev.run_benchmark(counts, labels, vocab_sizes=(80,), n_folds=3,
                           methods=["burrows_delta", "cosine_delta"], progress=False)
    assert (res.accuracy["accuracy"] >= 0.9).all()


# ------------------------------------------------------------------ summaries and tests


def _toy_accuracy() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for n in (10, 20):
        for method, mu in (("hc_dagger", 0.8), ("chi2", 0.7), ("cosine", 0.79)):
            for f, a in enumerate(rng.normal(mu, 0.02, size=10)):
                rows.append((method, n, f, a))
    return pd.DataFrame(rows, columns=["method", "N", "fold", "accuracy"])


def test_summarize():
    acc = _toy_accuracy()
    out = analysis.summarize(acc)
    assert out["method"].tolist()[:2] == ["hc_dagger", "hc_dagger"]  # paper order
    row = out.query("method == 'chi2' and N == 20").iloc[0]
    sample = acc.query("method == 'chi2' and N == 20")["accuracy"]
    assert row["mean"] == pytest.approx(sample.mean())
    assert row["std"] == pytest.approx(sample.std(ddof=1))
    assert row["se"] == pytest.approx(sample.std(ddof=1) / np.sqrt(10))
    assert row["n_folds"] == 10


def test_welch_tests_wiring():
    acc = _toy_accuracy()
    out = analysis.welch_tests(acc)
    assert len(out) == 4 and "hc_dagger" not in set(out["method"])
    for _, row in out.iterrows():
        a = acc.query("method == 'hc_dagger' and N == @row.N").sort_values("fold")["accuracy"]
        b = acc.query("method == @row.method and N == @row.N").sort_values("fold")["accuracy"]
        res = stats.ttest_ind(a, b, equal_var=False)
        assert row["t"] == pytest.approx(res.statistic)
        assert row["p_value"] == pytest.approx(res.pvalue)
        if hasattr(res, "df"):
            assert row["df"] == pytest.approx(res.df)
        assert row["difference"] == pytest.approx(a.mean() - b.mean())
    chi2 = out.query("method == 'chi2'")
    assert chi2["significant"].all() and (chi2["difference"] > 0).all()
    with pytest.raises(ValueError, match="reference"):
        analysis.welch_tests(acc, reference="g2")


def test_accuracy_vs_candidates(result, separated):
    _, labels = separated
    out = analysis.accuracy_vs_candidates(result, [2, 4], methods=["hc_dagger", "g2"], repetitions=3,
                                    seed=1)
    assert len(out) == 2 * 2 * 3
    assert (out["accuracy"] == 1.0).all()
    assert (out.query("k == 2")["n_test"] == 12).all()
    assert (out.query("k == 4")["n_test"] == 24).all()
    again = analysis.accuracy_vs_candidates(result, [2, 4], methods=["hc_dagger", "g2"],
                                      repetitions=3, seed=1)
    pd.testing.assert_frame_equal(out, again)
    with pytest.raises(ValueError, match="between 2"):
        analysis.accuracy_vs_candidates(result, [5])
    with pytest.raises(ValueError, match="not run"):
        analysis.accuracy_vs_candidates(result, [2], methods=["burrows_delta"])


def test_accuracy_vs_candidates_all_authors_is_full_accuracy():
    counts, labels = synthetic(boost=1.25, length=1500, seed=5)
    res = ev.run_benchmark(counts, labels, vocab_sizes=(40,), n_folds=3, seed=2,
                           methods=["hc_dagger", "knn_cosine"], progress=False)
    out = analysis.accuracy_vs_candidates(res, [4], repetitions=1)
    pooled = res.accuracy.groupby("method")["n_correct"].sum() / len(labels)
    for _, row in out.iterrows():
        assert row["accuracy"] == pytest.approx(pooled[row["method"]])
    # fewer candidates can only make attribution easier here, on average
    small = analysis.accuracy_vs_candidates(res, [2], repetitions=20, seed=0)
    assert small.groupby("method")["accuracy"].mean().min() >= pooled.min()


def test_paper_table_and_results_agree():
    """The printed table is the paper's all_results.csv rounded, but for three misprints."""
    table = published.paper_table()
    assert len(table) == 21 and set(table["N"]) == {250, 1000, 3000}
    try:
        csv = published.paper_results()
    except Exception as exc:  # noqa: BLE001 - data not available
        pytest.skip(f"paper results not available: {exc}")
    both = table.merge(csv, on=["method", "N"], suffixes=("_table", "_csv"))
    assert len(both) == 21
    assert (abs(both["accuracy_table"] - both["accuracy_csv"]) <= 0.0005).all()
    # the bracketed numbers are the folds' standard deviation (2 significant digits) ...
    misprinted = both[abs(both["bracket"] - both["std"]) > 0.00006]
    assert set(zip(misprinted["method"], misprinted["N"])) == {
        ("cosine", 250), ("g2", 1000), ("knn_cosine", 250)}


def test_hc_dagger_diagnostics_explain_where_dagger_equals_star():
    from hclib.formulas.hc import higher_criticism
    from hclib.formulas.pvalues import allocation_pvalues

    counts, labels = synthetic(n_authors=3, works=4, boost=4.0, length=20000, seed=2)
    _, corpora, _ = corpus_counts(counts, labels.tolist())
    docs = np.vstack([synthetic(n_authors=3, works=2, boost=4.0, length=length, seed=3)[0]
                      for length in (20000, 1000)])
    diag = analysis.hc_dagger_diagnostics(docs, corpora)
    assert diag.no_rank_qualifies.shape == (12, 3)
    assert diag.no_rank_qualifies.any() and not diag.no_rank_qualifies.all()
    pv = allocation_pvalues(docs[:, None, :], corpora[None, :, :])
    dagger = higher_criticism(pv, variant="dagger").hc
    star = higher_criticism(pv, variant="star").hc
    np.testing.assert_array_equal(dagger[diag.equal], star[diag.equal])
    assert (~diag.equal).any() and diag.star_rank_qualifies.any()
    assert (dagger[~diag.equal] < star[~diag.equal]).all()
    with pytest.raises(ValueError):
        analysis.hc_dagger_diagnostics(docs, corpora[:, :10])


def test_rank_on_training_takes_each_folds_most_frequent_training_columns() -> None:
    from hclib.attribution.methods import get

    rng = np.random.default_rng(11)
    labels = np.repeat(np.array(["a", "b", "c", "d"], dtype=object), 10)
    big = rng.poisson(rng.uniform(20, 60, 20), (40, 20))
    tiny = rng.integers(0, 2, (40, 9))
    counts = np.hstack([big, tiny, np.full((40, 1), 5)])  # the last column: total 200
    folds = ev.stratified_folds(labels, 5, seed=1)
    result = ev.run_benchmark(counts, labels, vocab_sizes=(10,), methods=["g2"],
                                     folds=folds, rank_on_training=True)
    moved = 0
    for f in range(5):
        pooled = counts[folds != f].sum(axis=0)
        cols = np.sort(np.argsort(-pooled, kind="stable")[:10])
        moved += not np.array_equal(cols, np.arange(10))
        want = get("g2").score(counts[folds == f][:, cols], counts[folds != f][:, cols],
                               labels[folds != f].tolist())
        np.testing.assert_array_equal(result.scores["g2", 10, f].scores, want)
    assert moved  # the training ranking is not the collection's column order
    with pytest.raises(ValueError, match="count more columns"):
        ev.run_benchmark(counts, labels, vocab_sizes=(21,), methods=["g2"],
                                folds=folds, rank_on_training=True)
