"""PAN 2018 pipeline (hclib.studies.pan): official scores, vocabulary, HC attribution, SVM baseline."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from hclib.studies import pan
from hclib.studies import scores
from hclib.texts import protocols
from hclib.corpora import pan as pan_data
from hclib.studies.scores import UNK

# ------------------------------------------------------------------ scores

# Three true authors a, b, c; c is never predicted, "d" is not a true author, one <UNK> answer.
TRUTH = ["a", "a", "b", "b", "c"]
ANSWERS = ["a", UNK, "a", "b", "d"]


def test_macro_f1_hand_computed() -> None:
    # a: TP 1, FP 1 (text 3), FN 1 (text 2)  -> 2/(2+1+1) = 1/2
    # b: TP 1, FP 0, FN 1 (text 3)            -> 2/(2+0+1) = 2/3
    # c: TP 0, never predicted                 -> 0
    # <UNK> and "d" are wrong answers and the F1 of no author.
    assert scores.macro_f1(TRUTH, ANSWERS) == pytest.approx((1 / 2 + 2 / 3 + 0) / 3)
    assert scores.accuracy(TRUTH, ANSWERS) == pytest.approx(2 / 5)
    assert scores.pan_scores(TRUTH, ANSWERS) == {
        "macro_f1": pytest.approx(7 / 18),
        "accuracy": pytest.approx(0.4),
    }


def test_macro_f1_matches_the_official_evaluator_rule() -> None:
    # pan18-cdaa-evaluator: sklearn's f1_score over the labels present in the ground truth.
    rng = np.random.default_rng(3)
    authors = np.array([f"candidate{i:05d}" for i in range(1, 8)] + [UNK], dtype=object)
    for _ in range(20):
        truth = rng.choice(authors[:-1], size=30)
        answers = rng.choice(authors, size=30)
        expected = f1_score(truth, answers, labels=sorted(set(truth)), average="macro",
                            zero_division=0)
        assert scores.macro_f1(truth, answers) == pytest.approx(expected)


def test_open_set_truth_has_pan_2019_semantics() -> None:
    # truth: a a <UNK> <UNK> b ; answers: a <UNK> <UNK> a b
    truth = ["a", "a", UNK, UNK, "b"]
    answers = ["a", UNK, UNK, "a", "b"]
    # a: TP 1, FP 1 (text 4), FN 1 (text 2) -> 1/2; b: TP 1 -> 1; <UNK> is no class of the mean.
    assert scores.macro_f1(truth, answers) == pytest.approx((1 / 2 + 1) / 2)
    # accuracy: texts 1, 3 (<UNK> for <UNK>) and 5 are right
    assert scores.accuracy(truth, answers) == pytest.approx(3 / 5)
    assert scores.macro_f1(truth, answers, candidates=["a", "b"]) == pytest.approx(0.75)


def test_open_set_macro_f1_matches_the_pan19_evaluator_rule() -> None:
    # pan19-cdaa-evaluator: f1_score over the ground-truth labels with <UNK> removed.
    rng = np.random.default_rng(4)
    authors = np.array(["c1", "c2", "c3", "c4", UNK], dtype=object)
    for _ in range(20):
        truth = rng.choice(authors, size=25)
        answers = rng.choice(authors, size=25)
        labels = sorted(set(truth) - {UNK})
        expected = f1_score(truth, answers, labels=labels, average="macro", zero_division=0)
        assert scores.macro_f1(truth, answers) == pytest.approx(expected)
        assert scores.accuracy(truth, answers) == pytest.approx(np.mean(truth == answers))


def test_perfect_and_all_unknown_answers() -> None:
    assert scores.macro_f1(TRUTH, TRUTH) == 1.0
    assert scores.macro_f1(TRUTH, [UNK] * 5) == 0.0
    assert scores.accuracy(TRUTH, [UNK] * 5) == 0.0


@pytest.mark.parametrize(
    ("truth", "answers", "kwargs", "message"),
    [
        ([], [], {}, "non-empty"),
        (TRUTH, ANSWERS[:4], {}, "4 answers for 5"),
        ([UNK, UNK], ["a", UNK], {}, "macro-F1 over the candidate authors is undefined"),
        (TRUTH, ANSWERS, {"candidates": ["a", "b"]}, r"\['c'\] are not among the candidates"),
    ],
)
def test_scores_reject_bad_input(truth, answers, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        scores.macro_f1(truth, answers, problem="problem00009", **kwargs)
    with pytest.raises(ValueError, match="problem00009"):
        scores.macro_f1(truth, answers, problem="problem00009", **kwargs)


def test_score_collection_per_problem() -> None:
    answers = pd.DataFrame({
        "problem": ["p2"] * 5 + ["p1"] * 2,
        "author": TRUTH + ["x", "y"],
        "guess": ANSWERS + ["x", "y"],
    })
    scores = pan.score_collection(answers, "guess")
    assert list(scores.index) == ["p1", "p2"]
    assert scores.loc["p1"].tolist() == [1.0, 1.0]
    assert scores.loc["p2", "macro_f1"] == pytest.approx(7 / 18)
    with pytest.raises(ValueError, match="no answer column 'nope'"):
        pan.score_collection(answers, "nope")


# ------------------------------------------------------------------ vocabulary


def test_ngram_items() -> None:
    assert pan.ngram_items(["a", "b", "c"]) == ["a", "b", "c", "a b", "b c", "a b c"]
    assert pan.ngram_items(["a", "b"], orders=(2,)) == ["a b"]
    with pytest.raises(ValueError, match="at least one"):
        pan.ngram_items(["a"], orders=())


def test_vocabulary_pools_orders_and_breaks_ties_alphabetically() -> None:
    known = [["the", "cat", "the", "cat"], ["the", "dog"]]
    # counts: the 3, cat 2, "the cat" 2, "cat the" 1, dog 1, "the dog" 1, trigrams 1 each
    vocab = pan.ngram_vocabulary(known, n_words=4)
    assert vocab == ["the", "cat", "the cat", "cat the"]
    assert pan.ngram_vocabulary(known[::-1], n_words=4) == vocab  # order of texts is irrelevant
    assert pan.ngram_vocabulary(known, n_words=2, orders=(2,)) == ["the cat", "cat the"]
    with pytest.raises(ValueError, match="no known texts"):
        pan.ngram_vocabulary([], 10)


# ------------------------------------------------------------------ HC attribution


def _synthetic_problem(seed: int = 0, n_known: int = 5, n_unknown: int = 4, length: int = 800):
    """Three authors over 300 words; each over-uses its own 15 words 4-fold."""
    rng = np.random.default_rng(seed)
    # letters only, so that tokenize() keeps them: "qaa", "qab", ...
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = np.array([f"q{x}{y}" for x in letters for y in letters][:300])
    base = 1.0 / np.arange(1, 301)
    authors = ["ann", "bob", "cy"]
    probs = {}
    for k, a in enumerate(authors):
        p = base.copy()
        p[30 + 15 * k : 45 + 15 * k] *= 4
        probs[a] = p / p.sum()

    def text(a: str) -> list[str]:
        return list(rng.choice(words, size=length, p=probs[a]))

    known = [(a, text(a)) for a in authors for _ in range(n_known)]
    unknown = [(a, text(a)) for a in authors for _ in range(n_unknown)]
    return known, unknown


def test_hc_attribute_finds_the_planted_author() -> None:
    known, unknown = _synthetic_problem()
    result = pan.hc_attribute([t for _, t in known], [a for a, _ in known],
                              [t for _, t in unknown], n_words=300, orders=(1,),
                              candidates=["cy", "bob", "ann"])
    truth = [a for a, _ in unknown]
    assert result.candidates == ["cy", "bob", "ann"]
    assert result.discrepancies.shape == (12, 3)
    assert list(result.by_min) == truth
    assert scores.accuracy(truth, result.by_rank) >= 0.75
    # the min rule is the argmin of the returned matrix, in candidate order
    assert list(result.by_min) == [result.candidates[j] for j in result.discrepancies.argmin(1)]


def test_hc_vocabulary_comes_from_known_texts_only() -> None:
    known = [["a", "b"] * 20, ["a", "b"] * 10, ["b", "c"] * 20, ["b", "c"] * 15]
    unknown = [["zzz"] * 50 + ["a", "b"]]
    result = pan.hc_attribute(known, ["x", "x", "y", "y"], unknown, n_words=50)
    assert "zzz" not in result.vocabulary
    assert set(result.vocabulary) == {"a", "b", "c", "a b", "b a", "b c", "c b",
                                      "a b a", "b a b", "b c b", "c b c"}


@pytest.mark.parametrize(
    ("known", "authors", "unknown", "kwargs", "message"),
    [
        ([["a"]], ["x"], [], {}, "needs known and unknown texts"),
        ([], [], [["a"]], {}, "needs known and unknown texts"),
        ([["a"], ["b"]], ["x"], [["a"]], {}, "1 authors for 2 known texts"),
        ([["a"], ["b"]], ["x", "y"], [["a"]], {"candidates": ["x", "y", "z"]},
         r"\['z'\] have no known texts"),
        ([["a"], ["b"]], ["x", "y"], [["a"]], {"candidates": ["x"]}, "non-candidate"),
        ([["a"], ["b"], ["c"]], ["x", "x", "y"], [["a"]], {}, r"\['y'\] have a single known"),
        ([["a"], ["b"], ["c"], ["d"]], ["x", "x", "y", "y"], [[]], {},
         "unknown text 0 has no word n-grams"),
    ],
)
def test_hc_attribute_rejects_bad_problems(known, authors, unknown, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message) as err:
        pan.hc_attribute(known, authors, unknown, problem="problem00042", **kwargs)
    assert "problem00042" in str(err.value)


def test_token_cache_reuses_texts() -> None:
    cache = protocols.TokenCache()
    first = cache(["One two.", "three"], remove_names_numbers=False, lemmatize=False)
    again = cache(["three", "One two."], remove_names_numbers=False, lemmatize=False)
    assert first == [["one", "two"], ["three"]] and again == first[::-1]
    assert (cache.misses, cache.hits, len(cache)) == (2, 2, 2)


def test_problem_parts_and_collections() -> None:
    known, unknown = _synthetic_problem(seed=1, n_known=4, n_unknown=2, length=400)
    rows = [("p1", f"k{i}", "known", a, " ".join(t)) for i, (a, t) in enumerate(known)]
    rows += [("p1", f"u{i}", "unknown", a, " ".join(t)) for i, (a, t) in enumerate(unknown)]
    collection = pd.DataFrame(rows, columns=["problem", "doc_id", "role", "author", "text"])
    details: dict = {}
    answers = pan.attribute_collection(collection, remove_names_numbers=False, lemmatize=False,
                                       n_words=300, orders=(1,), details=details)
    assert list(answers.columns) == ["problem", "doc_id", "author", "hc_min", "hc_rank"]
    assert (answers.hc_min == answers.author).all()
    assert list(details) == ["p1"] and (details["p1"].by_min == answers.hc_min).all()
    assert details["p1"].discrepancies.shape == (len(answers), len(details["p1"].candidates))
    with pytest.raises(ValueError, match="p9: no such problem"):
        pan_data.problem_parts(collection, "p9")
    with pytest.raises(ValueError, match="p1: a problem needs known and unknown"):
        pan_data.problem_parts(collection[collection.role == "known"], "p1")


# ------------------------------------------------------------------ SVM baseline


def test_char_vocabulary_threshold_and_order() -> None:
    assert pan._char_vocabulary(["abab", "ab"], 2, 2) == ["ab"]  # ab ×3, ba ×1
    assert pan._char_vocabulary(["abab", "ab"], 2, 1) == ["ab", "ba"]


def _char_texts(rng: np.random.Generator, marker: str, k: int) -> list[str]:
    filler = ["the", "and", "of", "a", "to", "in"]
    return [" ".join(rng.choice(filler + [marker] * 2, size=120)) for _ in range(k)]


def test_char_baseline_learns_character_markers() -> None:
    rng = np.random.default_rng(7)
    markers = {"ann": "xyzzy", "bob": "quux", "cy": "vvvw"}
    known = {a: _char_texts(rng, m, 4) for a, m in markers.items()}
    unknown = {a: _char_texts(rng, m, 2) for a, m in markers.items()}
    k_texts = [t for a in markers for t in known[a]]
    k_authors = [a for a in markers for _ in known[a]]
    u_texts = [t for a in markers for t in unknown[a]]
    truth = [a for a in markers for _ in unknown[a]]
    answers = pan.char_ngram_baseline(k_texts, k_authors, u_texts)
    assert list(answers) == truth
    again = pan.char_ngram_baseline(k_texts, k_authors, u_texts)
    assert list(again) == list(answers)  # seeded
    # A reject threshold of 1 (the largest possible gap) leaves every text unattributed.
    rejected = pan.char_ngram_baseline(k_texts, k_authors, u_texts, reject_threshold=1.0)
    assert set(rejected) == {UNK}


def test_char_probabilities_are_the_baselines() -> None:
    """PAN 2019's open-set baseline before its threshold: rows of probabilities over the
    candidates, their argmax the answers at threshold 0, an outsider's gap the smallest."""
    rng = np.random.default_rng(11)
    markers = {"ann": "xyzzy", "bob": "quux", "cy": "vvvw"}
    k_texts = [t for m in markers.values() for t in _char_texts(rng, m, 4)]
    k_authors = [a for a in markers for _ in range(4)]
    u_texts = [t for m in markers.values() for t in _char_texts(rng, m, 2)]
    u_texts += _char_texts(rng, "jjkq", 1)  # an outsider's marker
    classes, proba = pan.char_ngram_probabilities(k_texts, k_authors, u_texts)
    assert list(classes) == sorted(markers) and proba.shape == (7, 3)
    assert np.allclose(proba.sum(axis=1), 1) and (proba >= 0).all()
    answers = pan.char_ngram_baseline(k_texts, k_authors, u_texts, reject_threshold=0.0)
    assert list(answers) == list(classes[proba.argmax(axis=1)])
    assert list(answers[:6]) == [a for a in markers for _ in range(2)]
    top = -np.sort(-proba, axis=1)
    gap = top[:, 0] - top[:, 1]
    assert gap[6] < gap[:6].min()
    with pytest.raises(ValueError, match="p3: a text is empty"):
        pan.char_ngram_probabilities(["abcabc", ""], ["x", "y"], ["abc"], problem="p3")


def test_char_baseline_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="p3: the baseline needs at least two candidates"):
        pan.char_ngram_baseline(["abcabc"] * 2, ["x", "x"], ["abc"], problem="p3")
    with pytest.raises(ValueError, match="p3: a problem needs known and unknown"):
        pan.char_ngram_baseline(["abc"], ["x"], [], problem="p3")
    with pytest.raises(ValueError, match="p3: a text is empty"):
        pan.char_ngram_baseline(["abcabc", ""], ["x", "y"], ["abc"], problem="p3")
    with pytest.raises(ValueError, match="no character 3-gram occurs 5 times"):
        pan.char_ngram_baseline(["abc", "def"], ["x", "y"], ["abc"], problem="p3")
