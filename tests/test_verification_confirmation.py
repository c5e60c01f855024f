"""hclib.studies.verification_confirmation: the paired AUC differences and the rule's
verdict on synthetic answers whose truth is known."""

from __future__ import annotations

import numpy as np
import pandas as pd

from hclib.calibration import metrics
from hclib.studies import verification_confirmation as conf
from hclib.studies.verification_study import BASELINE, ORDER, REPLACED
from verify_helpers import answers_frame


def frame(seed: int = 0, n: int = 60, strong: str = conf.DEFAULT) -> pd.DataFrame:
    """Answers of three variants on ``n`` problems per set: ``strong`` separates the two
    kinds well, the others barely."""
    return answers_frame({v: 0.35 if v == strong else 0.02
                          for v in (conf.DEFAULT, BASELINE, REPLACED)}, ORDER, n, seed)


def test_differences_are_paired_auc_differences_with_intervals():
    f = frame()
    d = conf.differences(f)
    assert len(d) == 2 * len(ORDER)
    for r in d.itertuples():
        g = f[f.set.eq(r.set)].pivot(index="problem", columns="variant", values="answer")
        t = f[f.set.eq(r.set)].drop_duplicates("problem").set_index("problem")["same"]
        t = t.loc[g.index].to_numpy(bool)
        want = metrics.auc(t, g[conf.DEFAULT]) - metrics.auc(t, g[r.against])
        assert np.isclose(r.difference, want)
        assert r.low <= r.difference <= r.high
    assert d.clear.all() and (d.difference > 0).all()  # a strong default, clearly ahead


def test_targets_met_only_where_the_default_leads():
    assert conf.targets(frame()).met.all()
    worse = conf.targets(frame(strong=BASELINE))
    assert not worse.met.any()
    # the same answers, the baseline strong: intervals below 0
    d = conf.differences(frame(strong=BASELINE))
    assert (d[d.against.eq(BASELINE)].high < 0).all()


def test_difference_table_reads_the_differences():
    d = conf.differences(frame())
    table = conf.difference_table(d)
    assert list(table.columns) == list(ORDER)
    assert set(table.index) == {BASELINE, REPLACED}
    r = d.iloc[0]
    assert table.loc[r.against, r.set] == (f"{r.difference:+.3f} ({r.low:+.3f} to "
                                            f"{r.high:+.3f})")


def test_auc_table_has_each_set_and_the_mean():
    f = frame()
    table = conf.auc_table(f)
    for s in ORDER:
        g = f[f.set.eq(s) & f.variant.eq(BASELINE)]
        assert np.isclose(table.loc[BASELINE, s], metrics.auc(g.same, g.answer))
    assert list(table.columns) == [*ORDER, "mean"]
    assert np.allclose(table["mean"], table[list(ORDER)].mean(axis=1))
