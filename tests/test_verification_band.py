"""hclib.studies.verification_band: the rule read on synthetic answers whose truth is
known (non-answers, AUC, c@1, Cllr), the refitted models, and the stored check."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hclib.studies import verification_band as band
from hclib.studies.verification_rivals import FEW, all_rivals_model
from hclib.studies.verification_study import ORDER
from verify_helpers import answers_frame


def with_non_answers(frame: pd.DataFrame, variant: str, share: float) -> pd.DataFrame:
    """``share`` of the variant's answers on every set nearest 0.5 set to 0.5."""
    out = frame.copy()
    for s in ORDER:
        rows = out.index[out.variant.eq(variant) & out.set.eq(s)]
        near = (out.loc[rows, "answer"] - 0.5).abs().sort_values().index
        out.loc[near[:int(round(share * len(rows)))], "answer"] = 0.5
    return out


def test_the_capped_band_holds_only_with_fewer_non_answers_and_no_loss():
    base = answers_frame({FEW: 0.15, band.CAPPED: 0.15}, ORDER, n=100)
    good = with_non_answers(with_non_answers(base, FEW, 0.25), band.CAPPED, 0.1)
    v = band.verdict(good)
    assert v.loc[FEW, "non_answers_novels"] == pytest.approx(0.25)
    assert v.loc[band.CAPPED, "non_answers_pairs"] == pytest.approx(0.1)
    assert v.loc[band.CAPPED, "holds"] and not v.loc[FEW, "holds"]
    # as many non-answers as before: not held
    same = with_non_answers(with_non_answers(base, FEW, 0.25), band.CAPPED, 0.25)
    assert not band.verdict(same).loc[band.CAPPED, "holds"]
    # fewer non-answers, but a worse ranking: not held
    worse = answers_frame({FEW: 0.15, band.CAPPED: 0.05}, ORDER, n=100)
    worse = with_non_answers(with_non_answers(worse, FEW, 0.25), band.CAPPED, 0.1)
    assert not band.verdict(worse).loc[band.CAPPED, "holds"]


def test_the_capped_models_keep_the_coefficients_and_narrow_the_band():
    main, few = band.capped_models()
    stored = all_rivals_model()
    assert np.allclose(main.model.coef, stored.model.coef)
    assert main.band <= stored.band and main.min_rivals == stored.min_rivals
    assert few.features == all_rivals_model(few=True).features


def test_the_stored_check_held_and_the_shipped_bands_are_the_capped_ones():
    v = band.verdict()
    assert v.loc[band.CAPPED, "holds"]
    assert v.loc[FEW, "non_answers_novels"] >= 0.2
    assert v.loc[band.CAPPED, ["non_answers_novels", "non_answers_pairs"]].max() < 0.2
    assert len(band.load()) == 2 * 4 * band.CHECK_N
    main, few = band.capped_models()
    assert all_rivals_model().band == main.band
    assert all_rivals_model(few=True).band == few.band
