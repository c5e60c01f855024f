"""The short-texts study (hclib.studies.short_texts): its selection rule and stored results."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from hclib.formulas.pvalues import PVALUES
from hclib.formulas.statistics import STATISTICS
from hclib.studies import short_texts as st


def _fake_results(best: tuple[str, str], rng) -> pd.DataFrame:
    rows = []
    for cell in st.RULE_CELLS:
        for pvalue, stat in itertools.product(PVALUES, STATISTICS):
            acc = rng.uniform(0.2, 0.8)
            if (pvalue, stat) == best:
                acc = 0.95
            rows.append(dict(cell=cell, feature="words", pvalue=pvalue, statistic=stat,
                             accuracy=acc, macro_f1=acc, n_texts=10))
        rows.append(dict(cell=cell, feature="words", pvalue="", statistic="cosine_delta",
                         accuracy=1.0, macro_f1=1.0, n_texts=10))
        rows.append(dict(cell=cell, feature="chars:3", pvalue="midp", statistic="fisher",
                         accuracy=1.0, macro_f1=1.0, n_texts=10))
    return pd.DataFrame(rows)


def test_rule_picks_the_best_mean_rank_on_words_only():
    rng = np.random.default_rng(0)
    best, table = st.choose(_fake_results(("gtest", "berk_jones"), rng))
    assert best == ("gtest", "berk_jones")   # baselines and other feature sets do not enter
    assert table.mean_rank.iloc[0] == 1.0 and len(table) == 25
    assert (table.cells == len(st.RULE_CELLS)).all()


def test_rule_breaks_full_ties_in_favour_of_the_paper():
    rows = _fake_results(("ztest", "hc_star"), np.random.default_rng(1))
    rows.loc[rows.pvalue.ne(""), ["accuracy", "macro_f1"]] = 0.5    # every HC config tied
    best, _ = st.choose(rows)
    assert best == st.PAPER


@pytest.mark.parametrize("length", [250, 5000])
def test_null_pvalues_are_coarse_only_for_the_exact_test(length):
    exact = st.null_pvalues(length, "distance", reps=3)
    midp = st.null_pvalues(length, "midp", reps=3)
    assert exact.shape == midp.shape == (3 * st.N_ITEMS,)
    assert np.mean(exact == 1.0) > 0.5 > np.mean(midp == 1.0)
    assert np.all(midp <= exact + 1e-15)


def test_stored_results_cover_every_configuration():
    results = st.load_results()
    words = results[results.feature.eq("words") & results.pvalue.ne("")]
    assert set(words.cell) == set(st.RULE_CELLS)
    assert (words.groupby("cell").size() == len(PVALUES) * len(STATISTICS)).all()
    short = results[results.cell.isin(["pan18", "federalist"]) & results.pvalue.ne("")]
    assert set(short.feature) == set(st.FEATURES)
    assert results.accuracy.between(0, 1).all() and results.macro_f1.between(0, 1).all()


def test_fold_check_has_the_gutenberg_cells_of_two_more_folds():
    folds = st.load_results(st.FOLD_CHECK)
    assert set(folds.fold) == {1, 2}
    assert set(folds.cell) == {"gutenberg"} | {f"gutenberg-{n}" for n in st.LENGTHS}
    hc = folds[folds.pvalue.ne("")]
    assert (hc.groupby(["fold", "cell"]).size() == len(PVALUES) * len(STATISTICS)).all()
