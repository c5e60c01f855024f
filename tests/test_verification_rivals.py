"""hclib.studies.verification_rivals: the few-rival twins, the rule's stored check (it
held: the model is what hclib.verify now uses), and hclib.verify answering as the
variant that was checked."""

from __future__ import annotations

import numpy as np
import pytest

from hclib.studies import verification_rivals as rivals
from hclib.studies.verification_followups import SHIPPED, stored_training
from hclib.studies.verification_sets import build_sets


@pytest.fixture(scope="module")
def training():
    return stored_training()


def test_twins_keep_the_texts_and_face_two_or_three_other_authors(training):
    chosen = [p for p in training if p.set in ("essays", "novels")][::20]
    for p, twin in zip(chosen, rivals.twins(chosen)):
        assert twin.id == p.id + " few" and twin.known == p.known
        assert twin.questioned == p.questioned and twin.same == p.same
        authors = set(twin.impostors.authors)
        source = "Gutenberg" if p.set == "novels" else "PAN"
        assert len(authors) == rivals.TWIN_AUTHORS[source]
        assert not authors & {p.author, p.questioned_author}
        assert len(twin.impostors) < len(p.impostors)


def test_the_stored_check_held_on_the_federalist_alone():
    verdict, diff = rivals.verdict()
    assert verdict.loc[rivals.FEW, "holds"]
    assert verdict.loc[rivals.FEW, "mean_auc"] > verdict.loc[rivals.FEW, "shipped"]
    assert verdict.loc[rivals.FEW, "worst_cllr"] < 1
    shipped = diff[diff.against.eq(SHIPPED)].set_index("set")
    assert shipped.loc["Federalist", "clear"] and shipped.loc["Federalist", "difference"] > 0
    # the other sets' problems all face enough rivals: their answers did not change
    assert (shipped.drop("Federalist")["difference"] == 0).all()
    assert len(rivals.load()) == 3 * 4 * rivals.CHECK_N


def test_the_few_rivals_model_answers_where_the_pseudo_problems_did():
    """With its stored models (before verification_picks; the bands narrowed by
    verification_band), as hclib.verify answered until then: the Federalist's few-rival
    problems (fewer rivals than the pooled model's training problems) get the few-rivals
    model's answer, not the pseudo-problems'."""
    test = [p for p in build_sets(20, 0, sets=("Federalist",), draw=rivals.CHECK_DRAW)
            if p.part == "test"][:6]
    few, main = rivals.all_rivals_model(few=True), rivals.all_rivals_model()
    assert few.rivals_per_subset == main.rivals_per_subset == 0
    table = rivals.relative_table(test)
    expected = rivals.answer(test, few, main)
    prob = few.predict(table)
    plain = (table["reason"].fillna("").eq("") & table["rivals"].lt(main.min_rivals)
             ).to_numpy()
    assert plain.sum() >= 2
    assert np.allclose(expected[plain],
                       np.where(np.abs(prob - 0.5) <= few.band, 0.5, prob)[plain])
    before = rivals.answer(test, None)
    assert not np.allclose(before, expected)


def test_answer_reproduces_the_stored_check_with_the_band_of_its_time():
    """The shipped default's band has since narrowed (verification_band): the check's
    answers, before and with the few-rivals model, are reproduced with the band then."""
    test = [p for p in build_sets(rivals.CHECK_N, 0, sets=("Federalist",),
                                  draw=rivals.CHECK_DRAW) if p.part == "test"][:8]
    stored = rivals.load().set_index(["variant", "problem"])["answer"]
    ids = [p.id for p in test]
    few = rivals.all_rivals_model(few=True)
    for name, model in ((SHIPPED, None), (rivals.FEW, few)):
        expected = stored.loc[[(name, i) for i in ids]].to_numpy()
        assert np.allclose(rivals.answer(test, model), expected, atol=1e-5)
