"""hclib.studies.verification: the General-Impostors baseline tells authors apart on synthetic
texts, the ROC, Tippett and reliability helpers are right on small cases, and run() gives one
row per questioned text."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pandas as pd
import pytest

from hclib.calibration import metrics
from hclib.studies import verification as vs
from hclib.verification.general_impostors import minmax_similarity
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


def test_general_impostors_one_known_text_with_its_own_topic():
    """One short known text whose topic words (planted, a tenth of it, in no other text)
    over a large Zipfian vocabulary: its author's other texts score high, and above
    another author's. The vocabulary drawn from the known text alone held those words and
    none of a questioned text's own: cut to it, a questioned text looked like the
    impostors, and the same-author scores fell to 0.01-0.34 here (the stored study's
    baseline was 0 in 270 of its 280 answers)."""
    rng = np.random.default_rng(5)
    lexicon = np.array(["".join(w) for w in itertools.product("abcdefghijklmnop", repeat=3)]
                       [:3000])
    topic = ["".join(w) for w in itertools.product("qrstuvwxyz", repeat=4)][:12]

    def zipf() -> np.ndarray:
        p = 1.0 / np.arange(1, lexicon.size + 1) * np.exp(rng.normal(0, 0.8, lexicon.size))
        return p / p.sum()

    def doc(p: np.ndarray, topical: bool = False) -> str:
        w = rng.choice(lexicon, size=800, p=p)
        if topical:
            w[rng.choice(800, 80, replace=False)] = rng.choice(topic, 80)
        return " ".join(w)

    authors = [zipf() for _ in range(14)]
    pool = impostor_pool({f"a{i}": [doc(authors[i])] for i in range(2, 14)})
    same = [doc(authors[0]) for _ in range(4)]
    other = [doc(authors[1]) for _ in range(4)]
    s = vs.general_impostors([doc(authors[0], topical=True)], same + other, pool)
    assert s[:4].min() > s[4:].max()
    assert s[:4].mean() > 0.5


def test_minmax_similarity():
    a = np.array([[0.5, 0.5, 0.0]])
    b = np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0], [0.25, 0.5, 0.25]])
    assert np.allclose(minmax_similarity(a, b), [[1.0, 0.0, 0.75 / 1.25]])


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


def test_run_on_a_synthetic_group(world):
    pool, known, same, other = world
    questioned = {f"q{i}": t for i, t in enumerate(same + other)}
    truth = dict(zip(questioned, [True] * 3 + [False] * 3))
    group = vs.Group("synthetic", "a0", known, questioned, truth, pool)
    frame = vs.run([group], vocabulary=60)
    assert len(frame) == 6 and frame["same"].tolist() == [True] * 3 + [False] * 3
    assert frame["p_value"].between(0, 1).all() and (frame["known texts"] == 4).all()
    assert metrics.auc(frame["same"], frame["answer"]) > 0.5
    assert frame["General Impostors"].between(0, 1).all()
    fewer = vs.run([group], n_impostors=4, vocabulary=60, baseline=False)
    assert (fewer["impostors"] == 4).all() and fewer["General Impostors"].isna().all()


def test_subset_pool_and_middle(world):
    pool = world[0]
    sub = vs.subset_pool(pool, 3, seed=1)
    assert len(sub) == 3 and set(sub.names) <= set(pool.names)
    assert vs.subset_pool(pool, None) is pool
    assert vs.middle("a b c d e f", 2) == "c d"


needs_data = pytest.mark.skipif(not os.environ.get("HCLIB_DATA_DIR"),
                                reason="HCLIB_DATA_DIR not set")


@needs_data
def test_disputed_groups_keep_held_out_papers_out():
    checks = vs.disputed_groups()
    assert set(checks) == {"against Madison", "against Hamilton", "Hamilton held out"}
    held = checks["Hamilton held out"]
    assert len(held.known) == 41 and len(held.questioned) == 10
    assert not set(held.questioned.values()) & set(held.known)
    assert len(checks["against Madison"].questioned) == 12
