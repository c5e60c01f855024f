"""Rivals drawn per subset (``rivals_per_subset``) and hclib.studies.verification_picks:
the draw of rivals, the score's order against every rival, the rules read on synthetic
answers whose truth is known, the stored checks, and hclib.verify answering as the
adopted variant."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hclib.studies import verification_picks as picks
from hclib.studies.verification_confirmation import scores
from hclib.studies.verification_sets import build_sets
from hclib.studies.verification_study import ORDER
from hclib.verification.model import pooled_model
from hclib.verification.relative import RelativeConfig
from hclib.verification.verify import verify
from verify_helpers import answers_frame, author, text


def test_rival_picks_draw_that_many_rivals_per_subset_seeded():
    config = RelativeConfig(n_subsets=400, rivals_per_subset=3)
    picked = config.rival_picks(8)
    assert picked.shape == (400, 8) and (picked.sum(axis=1) == 3).all()
    # every rival faces the author's side on about 3/8 of the subsets
    assert np.allclose(picked.mean(axis=0), 3 / 8, atol=0.08)
    assert (picked == config.rival_picks(8)).all()
    assert not (picked == RelativeConfig(n_subsets=400, rivals_per_subset=3,
                                         seed=1).rival_picks(8)).all()
    # all rivals (0, or as many as there are or more): no mask
    assert RelativeConfig().rival_picks(8) is None
    assert config.rival_picks(3) is None and config.rival_picks(2) is None


@pytest.mark.parametrize("bad", [-1, 2.5, True, "10"])
def test_rivals_per_subset_must_be_a_non_negative_integer(bad):
    with pytest.raises(ValueError, match="rivals_per_subset"):
        RelativeConfig(rivals_per_subset=bad)


def test_fewer_rivals_per_subset_never_lower_the_share_score():
    """The nearest of a few rivals is no nearer than the nearest of all: on the same
    subsets the share can only rise; with as many per subset as rivals, nothing moves."""
    rng = np.random.default_rng(3)
    mine = author(rng)
    known = [text(rng, mine) for _ in range(3)]
    questioned = {f"q{k}": text(rng, mine if k < 3 else author(rng)) for k in range(6)}
    pool = {f"a{k}": [text(rng, author(rng)) for _ in range(2)] for k in range(6)}

    def table(rivals: int):
        return verify(known, questioned, impostors=pool, min_tokens=10,
                      calibration="pseudo", rivals_per_subset=rivals).table

    every, few, all_again = table(0), table(2), table(100)
    assert (few["score"] >= every["score"] - 1e-12).all()
    assert (few["score"] > every["score"]).any()
    assert np.allclose(all_again["score"], every["score"])


def test_the_rule_holds_only_with_a_better_ranking_and_few_non_answers():
    name = "guarded"
    spec = picks.CHECKS[name]
    good = answers_frame({picks.SHIPPED: 0.15, spec.variant: 0.2}, ORDER, n=100)
    table, diff = picks.verdict(name, good)
    assert table.loc[spec.variant, "holds"] and not table.loc[picks.SHIPPED, "holds"]
    assert set(diff.set) == set(ORDER)
    worse = answers_frame({picks.SHIPPED: 0.2, spec.variant: 0.1}, ORDER, n=100)
    assert not picks.verdict(name, worse)[0].loc[spec.variant, "holds"]
    # a better ranking that leaves a fifth of the novels unanswered: not held
    mute = good.copy()
    rows = mute.index[mute.variant.eq(spec.variant) & mute.set.eq("novels")]
    mute.loc[rows[::5], "answer"] = 0.5
    assert not picks.verdict(name, mute)[0].loc[spec.variant, "holds"]


def test_the_stored_checks_read_as_reported():
    first, _ = picks.verdict("picks")
    assert not first.loc[picks.PICKS, "holds"]
    assert first.loc[picks.PICKS, "non_answers_novels"] >= 0.2
    assert first.loc[picks.PICKS, "mean_auc"] > first.loc[picks.SHIPPED, "mean_auc"]
    second, _ = picks.verdict("narrow")
    assert second.loc[picks.NARROW, "holds"]
    for name in picks.CHECKS:
        assert len(picks.load(name)) == 3 * 4 * picks.CHECK_N
    # the HC probability answered the third check's own problems
    both = picks.with_hc()
    assert both.groupby("variant").size().eq(4 * picks.CHECK_N).all()
    assert both.variant.nunique() == 4
    # calibrated within chance on three sets of the third check, not on the Federalist
    reliable = picks.reliability()
    assert list(reliable.index[reliable["ece"] > reliable["ece if calibrated (95 %)"]]
                ) == ["Federalist"]
    # train= scored as adopted: Cllr below 1 on every test set of the third check
    trained = scores(pd.read_csv(picks.TRAIN_FILE))
    assert len(trained) == 4 and (trained.cllr < 1).all()


def test_the_third_check_held_and_verify_answers_as_its_variant():
    verdict, _ = picks.verdict("guarded")
    assert verdict.loc[picks.GUARDED, "holds"]
    main = pooled_model("minmax", "words")
    few = pooled_model("minmax", "words", few=True)
    assert main.rivals_per_subset == few.rivals_per_subset == picks.RIVALS_PER_SUBSET
    assert main.min_rivals > 0
    spec = picks.CHECKS["guarded"]
    test = [p for p in build_sets(picks.CHECK_N, 0, sets=("Federalist", "pairs"),
                                  draw=spec.draw) if p.part == "test"]
    test = test[:4] + test[picks.CHECK_N:picks.CHECK_N + 4]
    stored = picks.load("guarded").set_index(["variant", "problem"])["answer"]
    expected = stored.loc[[(picks.GUARDED, p.id) for p in test]].to_numpy()
    assert np.allclose(picks.answer(test, few, main, picks.OPTIONS), expected, atol=1e-5)
    got = [float(verify(p.known, {"q": p.questioned}, impostors=p.pool("words"))
                 .pan_answers().iloc[0]) for p in test]
    assert np.allclose(got, expected, atol=1e-5)


def test_verify_resolves_the_rivals_per_subset_of_the_stored_model():
    """``None`` scores as the stored model of the distance and features was fitted (10
    for min-max on words, 0 for chi2 on words); a bad value fails before any reading."""
    from hclib.verification.verify import stored_rivals

    assert stored_rivals("minmax", "words") == picks.RIVALS_PER_SUBSET
    assert stored_rivals("chi2", "words") == 0
    assert stored_rivals("minmax", "no such features") == 0
    with pytest.raises(ValueError, match="rivals_per_subset"):
        verify(["a b c"], "a b", impostors="no such folder", rivals_per_subset=-1)
