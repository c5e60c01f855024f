"""hclib.studies.verification_short_whole: the two rules' stored checks read as the
module reports them, and each verdict follows its rule."""

import pandas as pd

from hclib.studies import verification_short_whole as sw
from hclib.studies.verification_picks import SHIPPED


def test_neither_rule_held_for_the_reasons_reported():
    first, _ = sw.verdict()
    assert not first.holds.any()
    assert first.loc[sw.SHORT, "non_answers_novels"] >= 0.2
    assert first.loc[sw.SHORT, "mean_auc"] > first.loc[SHIPPED, "mean_auc"]
    second, diff = sw.verdict(bands=True)
    assert not second.holds.any()
    assert second.loc[sw.SHORT_BANDS, "pairs_auc"] < second.loc[SHIPPED, "pairs_auc"]
    assert second.loc[sw.SHORT_BANDS, "non_answers_novels"] < 0.2
    assert set(diff.set) == {"essays", "Federalist", "novels", "pairs"}


def test_the_verdict_holds_when_the_variant_meets_every_condition():
    """The same answers with the variant's pairs answers made the truth: the rule then
    holds (so the verdict can say yes)."""
    frame = sw.load(bands=True)
    better = frame.copy()
    mine = better.variant.eq(sw.SHORT_BANDS) & better.set.eq("pairs")
    better.loc[mine, "answer"] = better.loc[mine, "same"].map({True: 0.9, False: 0.1})
    table, _ = sw.verdict(better, bands=True)
    assert table.loc[sw.SHORT_BANDS, "holds"]
    assert isinstance(table, pd.DataFrame)


def test_the_default_on_three_fresh_draws_is_read_from_the_three_checks():
    """600 problems per set, the HC probability joined on the same problems; each
    difference is the AUC table's."""
    from hclib.studies.verification_study import BASELINE, REPLACED

    table, diff = sw.fresh_draws()
    assert set(diff.set) == {"essays", "Federalist", "novels", "pairs"}
    assert set(diff.against) == {BASELINE, REPLACED}
    assert (diff.low <= diff.difference).all() and (diff.difference <= diff.high).all()
    by = diff.set_index(["against", "set"])
    assert by.loc[(BASELINE, "essays"), "clear"]
    assert not by.loc[(BASELINE, "pairs"), "clear"]
    auc = table["auc"]
    for (other, s), row in by.iterrows():
        assert abs(auc[SHIPPED, s] - auc[other, s] - row.difference) < 1e-9
