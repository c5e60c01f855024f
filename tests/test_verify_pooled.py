"""The pooled probability of hclib.verify and the capped no-decision band: a model of
(score, pseudo log-odds) fitted on labelled problems is calibrated on fresh problems of
known truth; the stored models round-trip with their provenance; the band never leaves
more than MAX_NON_ANSWERS of the training answers unanswered; one known text goes through
the pooled path."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from hclib.verification import model as vm
from hclib.verification.impostors import impostor_pool
from hclib.verification.verify import DEFAULT_DISTANCE, verify

WORDS = ["".join(p) for p in itertools.product("abcdefghij", repeat=2)][:80]


def _problems(rng: np.random.Generator, n: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Synthetic problems: the truth drawn from a known logistic law of the score and the
    pseudo log-odds (both larger for same-author problems)."""
    score = rng.beta(2, 3, n)
    pseudo = rng.normal(0.0, 1.5, n)
    p = 1 / (1 + np.exp(-(-2.0 + 5.0 * score + 0.6 * pseudo)))
    return pd.DataFrame({"score": score, "pseudo_logit": pseudo}), rng.random(n) < p


def test_pooled_model_is_calibrated_on_fresh_problems_of_known_truth():
    rng = np.random.default_rng(0)
    table, truth = _problems(rng, 600)
    model = vm.fit_model(table, truth, features=vm.POOLED_FEATURES)
    assert model.features == tuple(vm.POOLED_FEATURES)
    fresh, fresh_truth = _problems(rng, 20000)
    prob = model.predict(fresh)
    edges = np.quantile(prob, np.linspace(0, 1, 11))
    bins = np.clip(np.searchsorted(edges, prob, side="right") - 1, 0, 9)
    for b in range(10):
        here = bins == b
        assert abs(prob[here].mean() - fresh_truth[here].mean()) < 0.06, b
    # a model that ignores the score is not calibrated within bins: the check can fail
    flat = np.full(prob.size, fresh_truth.mean())
    worst = max(abs(flat[bins == b].mean() - fresh_truth[bins == b].mean())
                for b in range(10))
    assert worst > 0.2


def test_stored_pooled_models_round_trip_with_their_provenance(tmp_path):
    rng = np.random.default_rng(1)
    table, truth = _problems(rng, 200)
    model = vm.fit_model(table, truth, features=vm.POOLED_FEATURES)
    model = vm.VerificationModel(model.model, model.n_same, model.n_different, model.low,
                                 model.high, model.band, model.features,
                                 {"fitted_on": "200 synthetic problems"})
    path = tmp_path / "pooled.json"
    vm.store_pooled({"chi2 words": model}, path)
    back = vm.pooled_model("chi2", "words", path)
    assert back is not None and back.provenance["fitted_on"] == "200 synthetic problems"
    assert np.allclose(back.predict(table), model.predict(table))
    assert back.band == model.band
    assert vm.pooled_model("minmax", "words", path) is None
    # storing another key keeps this one; the few-rivals key is its own model
    vm.store_pooled({"chi2 words" + vm.FEW_KEY: replace(model, band=0.01)}, path)
    assert vm.pooled_model("chi2", "words", path).band == model.band
    assert vm.pooled_model("chi2", "words", path, few=True).band == 0.01


def test_the_stored_models_say_what_they_were_fitted_on():
    assert vm.POOLED_FILE.exists()
    model = vm.pooled_model(DEFAULT_DISTANCE, "words")
    assert model is not None and model.features == tuple(vm.POOLED_FEATURES)
    assert "training parts" in model.provenance["fitted_on"]
    assert model.n_same > 10 and model.n_different > 10


def test_band_leaves_at_most_the_cap_unanswered():
    rng = np.random.default_rng(2)
    n = 200
    truth = rng.random(n) < 0.5
    # half the problems near 0.5 and mostly on the wrong side (answering them lowers
    # c@1), the rest confident and right
    unsure = rng.random(n) < 0.5
    side = np.where(rng.random(n) < 0.7, ~truth, truth)
    near = 0.5 + np.where(side, 1, -1) * rng.uniform(0.01, 0.2, n)
    cv = np.where(unsure, near, np.where(truth, 0.9, 0.1))
    free = vm.choose_band(truth, cv, cap=1.0)
    capped = vm.choose_band(truth, cv)
    share = [np.mean(np.abs(cv - 0.5) <= b) for b in (free, capped)]
    assert share[0] > vm.MAX_NON_ANSWERS  # c@1 alone leaves a whole class unanswered
    assert share[1] <= vm.MAX_NON_ANSWERS
    # the capped band abstains where the model is least sure
    out = np.abs(cv - 0.5) <= capped
    if out.any():
        assert np.abs(cv[out] - 0.5).max() <= np.abs(cv[~out] - 0.5).min()
    with pytest.raises(ValueError, match="max_non_answers"):
        vm.fit_model(pd.DataFrame({"score": cv, "pseudo_logit": cv}), truth,
                     features=vm.POOLED_FEATURES, max_non_answers=1.5)


@pytest.fixture(scope="module")
def pool():
    rng = np.random.default_rng(7)
    texts = []
    for _ in range(40):  # 40 authors: as many rivals as the pooled model's problems
        p = np.exp(rng.normal(0, 0.5, len(WORDS))) / np.arange(1, len(WORDS) + 1)
        texts.append(" ".join(rng.choice(WORDS, 1200, p=p / p.sum())))
    return impostor_pool(texts)


def test_one_known_text_through_the_pooled_path(pool):
    rng = np.random.default_rng(3)
    p = np.exp(rng.normal(0, 0.5, len(WORDS))) / np.arange(1, len(WORDS) + 1)
    p /= p.sum()
    known = " ".join(rng.choice(WORDS, 900, p=p))
    questioned = " ".join(rng.choice(WORDS, 600, p=p))
    pooled = verify([known], questioned, impostors=pool, min_tokens=10,
                    calibration="pooled")
    pseudo = verify([known], questioned, impostors=pool, min_tokens=10,
                    calibration="pseudo")
    prob = pooled.table["probability"].iloc[0]
    assert pooled.split and np.isfinite(prob) and 0 < prob < 1
    assert not pooled.trained and "training parts" in pooled.fitted_on
    assert "training parts" in " ".join(pooled.summary_lines())
    assert pseudo.fitted_on == "" and prob != pseudo.table["probability"].iloc[0]
    expected = vm.pooled_model(DEFAULT_DISTANCE, "words").predict(pooled.table)[0]
    assert np.isclose(prob, expected)
    with pytest.raises(ValueError, match="calibration"):
        verify([known], questioned, impostors=pool, min_tokens=10, calibration="pooled",
               n_subsets=20)
    with pytest.raises(ValueError, match="calibration"):
        verify([known], questioned, impostors=pool, min_tokens=10, calibration="other")


def test_pooled_model_leaves_problems_with_fewer_rivals_to_the_few_rivals_model():
    """A score against few impostors is higher for that alone: the pooled model answers
    only problems with as many rivals as its training problems had; the others get the
    stored model of few-rival problems (hclib.studies.verification_rivals), which reads
    the number of rivals, not the problem's pseudo-problems."""
    model = vm.pooled_model(DEFAULT_DISTANCE, "words")
    few_model = vm.pooled_model(DEFAULT_DISTANCE, "words", few=True)
    assert model is not None and model.min_rivals > 8
    assert few_model is not None and "log_rivals" in few_model.features
    rng = np.random.default_rng(4)
    texts = []
    for _ in range(8):
        p = np.exp(rng.normal(0, 0.5, len(WORDS))) / np.arange(1, len(WORDS) + 1)
        texts.append(" ".join(rng.choice(WORDS, 1200, p=p / p.sum())))
    few = impostor_pool(texts)
    p = np.exp(rng.normal(0, 0.5, len(WORDS))) / np.arange(1, len(WORDS) + 1)
    known = [" ".join(rng.choice(WORDS, 900, p=p / p.sum())) for _ in range(3)]
    other = np.exp(rng.normal(0, 0.5, len(WORDS))) / np.arange(1, len(WORDS) + 1)
    questioned = " ".join(rng.choice(WORDS, 800, p=other / other.sum()))
    res = verify(known, questioned, impostors=few, min_tokens=10)
    pseudo = verify(known, questioned, impostors=few, min_tokens=10,
                    calibration="pseudo")
    row = res.table.iloc[0]
    assert row["rivals"] < model.min_rivals
    assert row["calibration"] == "pooled, few rivals" and row["band"] == few_model.band
    assert row["probability"] == pytest.approx(few_model.predict(res.table)[0])
    assert row["probability"] != pseudo.table["probability"].iloc[0]
    assert row["log_rivals"] == pytest.approx(np.log(row["rivals"]))
    assert "few-rival problems" in res.summary()
    # the table's model on the same row would have answered: the guard is what changed it
    assert np.isnan(model.predict(res.table)[0])
    unguarded = vm.VerificationModel(model.model, model.n_same, model.n_different,
                                     model.low, model.high, model.band, model.features)
    assert np.isfinite(unguarded.predict(res.table)[0])


def test_a_decision_within_the_seed_band_of_a_stored_model_is_weak(pool):
    """weak = a decision with |P - 0.5| at most seed_band(s), s the stored model's seed
    noise; a weak decision is counted, named among the caveats and explained in the
    notes; the model's s round-trips, and an unmeasured s marks nothing."""
    from dataclasses import replace as replaced

    rng = np.random.default_rng(5)
    p = np.exp(rng.normal(0, 0.5, len(WORDS))) / np.arange(1, len(WORDS) + 1)
    p /= p.sum()
    known = [" ".join(rng.choice(WORDS, 900, p=p)) for _ in range(3)]
    questioned = {f"q{k}": " ".join(rng.choice(WORDS, 600, p=p)) for k in range(3)}
    res = verify(known, questioned, impostors=pool, min_tokens=10)
    main = vm.pooled_model(DEFAULT_DISTANCE, "words")
    assert main is not None and np.isfinite(main.seed_sd_logit) and main.seed_subsets
    table = res.table
    assert set(table.calibration) == {"pooled"}
    decided = table.decision.isin(["same author", "different author"])
    near = (table.probability - 0.5).abs() <= vm.seed_band(main.seed_sd_logit)
    assert table.weak.equals(decided & near)
    assert list(table.columns).index("weak") == list(table.columns).index("p_value") + 1
    assert res.weak_decisions == int(table.weak.sum())
    shown = replaced(res, table=table.assign(weak=[True, False, False]))
    assert shown.weak_decisions == 1
    rows = shown.render().splitlines()[1:]
    assert "yes" in rows[0] and "yes" not in rows[1] + rows[2] and "False" not in rows[1]
    assert any(line.startswith("WEAK: 1 decision") for line in shown.caveats())
    assert any("may reverse them" in line for line in shown.notes())
    assert not any(line.startswith("WEAK") for line in
                   replaced(res, table=table.assign(weak=False)).caveats())
    pseudo = verify(known, questioned, impostors=pool, min_tokens=10,
                    calibration="pseudo")
    assert not pseudo.table.weak.any()  # no seed noise measured: nothing marked


def test_the_flip_chance_is_a_half_at_even_odds_and_falls_away_from_it():
    p = np.array([0.5, 0.55, 0.7, 0.95, np.nan])
    f = vm.flip_chance(p, 0.12)
    assert f[0] == pytest.approx(0.5) and np.all(np.diff(f[:4]) < 0) and np.isnan(f[4])
    assert np.allclose(vm.flip_chance(1 - p[:4], 0.12), f[:4])
    assert np.isnan(vm.flip_chance(np.array([0.7]), float("nan"))).all()
    # at the seed band's edge the flip chance is Phi(-z)
    edge = 0.5 + vm.seed_band(0.12)
    assert vm.flip_chance(np.array([edge]), 0.12)[0] == pytest.approx(0.05, abs=1e-3)
    model = replace(vm.pooled_model(DEFAULT_DISTANCE, "words"), seed_sd_logit=0.2,
                    seed_subsets=100)
    assert vm._from_json(vm._to_json(model)).seed_sd_logit == 0.2
    unmeasured = replace(model, seed_sd_logit=float("nan"))
    assert np.isnan(vm._from_json(vm._to_json(unmeasured)).seed_sd_logit)
