"""hclib.studies.verification: the General-Impostors baseline tells authors apart on synthetic
texts, the ROC, Tippett and reliability helpers are right on small cases, the rule chooses
by mean AUC, and run() gives one row per questioned text."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pandas as pd
import pytest

from hclib.calibration import metrics
from hclib.studies import verification as vs
from hclib.verification.impostors import impostor_pool

WORDS = ["".join(p) for p in itertools.product("abcdefghij", repeat=2)][:80]


def author(rng: np.random.Generator) -> np.ndarray:
    p = 1.0 / np.arange(1, len(WORDS) + 1) * np.exp(rng.normal(0.0, 0.6, len(WORDS)))
    return p / p.sum()


def text(rng: np.random.Generator, p: np.ndarray, n: int = 800) -> str:
    return " ".join(rng.choice(WORDS, size=n, p=p))


@pytest.fixture(scope="module")
def world():
    rng = np.random.default_rng(3)
    authors = [author(rng) for _ in range(12)]
    pool = impostor_pool({f"a{i}": [text(rng, authors[i], 1500)] for i in range(2, 12)})
    known = [text(rng, authors[0]) for _ in range(4)]
    same = [text(rng, authors[0]) for _ in range(3)]
    other = [text(rng, authors[1]) for _ in range(3)]
    return pool, known, same, other


def test_general_impostors_scores_the_author_above_another(world):
    pool, known, same, other = world
    s = vs.general_impostors(known, same + other, pool, words=60, iterations=50)
    assert s.shape == (6,) and ((s >= 0) & (s <= 1)).all()
    assert s[:3].min() > s[3:].max()
    again = vs.general_impostors(known, same + other, pool, words=60, iterations=50)
    assert np.array_equal(s, again)  # seeded


def test_minmax_similarity():
    a = np.array([[0.5, 0.5, 0.0]])
    b = np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0], [0.25, 0.5, 0.25]])
    assert np.allclose(vs._minmax(a, b), [[1.0, 0.0, 0.75 / 1.25]])


def test_roc_ends_and_auc():
    same = np.array([1, 1, 0, 0, 1, 0], bool)
    score = np.array([0.9, 0.8, 0.7, 0.1, 0.4, 0.5])
    fpr, tpr = vs.roc(same, score)
    assert (fpr[0], tpr[0]) == (0, 0) and (fpr[-1], tpr[-1]) == (1, 1)
    assert np.isclose(np.trapezoid(tpr, fpr), metrics.auc(same, score))


def test_tippett_curves_are_shares_from_one():
    curves = vs.tippett([True, True, False], [0.9, 0.5, 0.1])
    x, share = curves["same author"]
    assert np.allclose(x, [0.0, np.log10(9)]) and np.allclose(share, [1.0, 0.5])
    assert np.allclose(curves["different author"][0], [-np.log10(9)])


def test_reliability_and_floor():
    table = vs.reliability([True, False, True, True], [0.9, 0.1, 0.7, 0.95], bins=5)
    assert table["problems"].sum() == 4
    assert table.loc["0.8–1.0", "share same author"] == 1.0
    assert np.allclose(vs.pvalue_floor(np.array([4, 19])), [0.2, 0.05])


def test_choose_follows_the_rule():
    rows = {("A", "x"): {"auc": 0.9, "cllr_min": 0.5}, ("A", "y"): {"auc": 0.8,
                                                                   "cllr_min": 0.1},
            ("B", "x"): {"auc": 0.6, "cllr_min": 0.5}, ("B", "y"): {"auc": 0.7,
                                                                   "cllr_min": 0.1}}
    table = pd.DataFrame(rows).T
    table.index.names = ["set", "variant"]
    chosen, ranking = vs.choose(table)
    assert chosen == "y" and list(ranking.index) == ["y", "x"]  # tie on AUC: Cllr_min


def test_run_and_scores_on_a_synthetic_group(world):
    pool, known, same, other = world
    questioned = {f"q{i}": t for i, t in enumerate(same + other)}
    truth = dict(zip(questioned, [True] * 3 + [False] * 3))
    group = vs.Group("synthetic", "a0", known, questioned, truth, pool)
    frame = vs.run([group], vocabulary=60)
    assert len(frame) == 6 and frame["same"].tolist() == [True] * 3 + [False] * 3
    assert frame["p_value"].between(0, 1).all() and (frame["known texts"] == 4).all()
    table = vs.score_table(frame)
    assert list(table.index.get_level_values("variant")) == list(vs.VARIANTS)
    assert (table["problems"] == 6).all()
    fewer = vs.run([group], n_known=2, n_impostors=4, vocabulary=60, baseline=False)
    assert (fewer["known texts"] == 2).all() and (fewer["impostors"] == 4).all()
    assert fewer["General Impostors"].isna().all()


def test_subset_pool_and_middle(world):
    pool = world[0]
    sub = vs.subset_pool(pool, 3, seed=1)
    assert len(sub) == 3 and set(sub.names) <= set(pool.names)
    assert vs.subset_pool(pool, None) is pool
    assert vs.middle("a b c d e f", 2) == "c d"


def test_calibration_sweep_rows(world):
    pool, known, same, other = world
    questioned = {f"q{i}": t for i, t in enumerate(same + other)}
    group = vs.Group("synthetic", "a0", known, questioned,
                     dict(zip(questioned, [True] * 3 + [False] * 3)), pool)
    base = vs.run([group], vocabulary=60)
    sweep = vs.calibration_sweep([group], n_known=(2,), n_impostors=(4,), base=base,
                                 vocabulary=60)
    assert sweep["varied"].tolist() == ["none (all)", "known texts", "impostors"]
    assert sweep["known texts"].tolist() == [4, 2, 4]
    assert sweep["impostors"].tolist() == [10, 10, 4]
    assert sweep["AUC"].between(0, 1).all()
    assert (sweep["smallest P-value"] > 0).all()


needs_data = pytest.mark.skipif(not os.environ.get("HCLIB_DATA_DIR"),
                                reason="HCLIB_DATA_DIR not set")


@needs_data
def test_federalist_groups_keep_questioned_texts_out_of_the_impostors():
    groups = vs.federalist_groups()
    assert len(groups) == 15 and sum(len(g.questioned) for g in groups) == 24
    pool = groups[0].impostors
    assert len(pool) == 5 + 41
    held = groups[-1].questioned
    assert not any(t for g in groups for t in g.known if t in held.values())
    coded = impostor_pool(list(held.values()))
    lexicon = list(coded.lexicon)
    inside = {tuple(np.asarray(pool.lexicon)[c[:50]].tolist()) for c in pool.codes}
    assert not {tuple(np.asarray(lexicon)[c[:50]].tolist()) for c in coded.codes} & inside
    checks = vs.disputed_groups()
    assert set(checks) == {"against Madison", "against Hamilton", "Hamilton held out"}
    assert len(checks["Hamilton held out"].known) == 41


@needs_data
def test_pan_groups_are_balanced_and_impostors_come_from_other_problems():
    groups = vs.pan_groups(candidates=2, per_side=1, n_impostors=10)
    assert len(groups) == 8
    for g in groups:
        assert len(g.known) == 7 and sum(g.same.values()) * 2 == len(g.same)
        problem = g.author.split()[0]
        assert len(g.impostors) == 10
        assert not any(a.startswith(problem) for a in g.impostors.authors)
