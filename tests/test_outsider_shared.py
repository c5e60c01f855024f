"""The outsider model on the words the texts to attribute share (variant GIml+Cs,
hclib.studies.outsider_shared): which words, what changes and what does not, the stored
rule as the module reports it."""

from __future__ import annotations

import numpy as np
import pytest

from hclib.attribution.impostors import shared_columns
from hclib.calibration import outsider
from hclib.studies import outsider_shared
from hclib.studies.switches import switched


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shared_columns_match_a_count_by_hand(seed):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(rng.uniform(0, 1.5, 60), size=(9, 60))
    for shared in (1, 3, 4, 9, 20):
        need = min(shared, counts.shape[0])
        want = [j for j in range(counts.shape[1])
                if sum(counts[i, j] > 0 for i in range(counts.shape[0])) >= need]
        got = shared_columns(counts, shared)
        assert (got is None and len(want) < 2) or got.tolist() == want
    assert shared_columns(counts, 0) is None  # 0: every word
    assert shared_columns(np.eye(3, dtype=int), 2) is None  # fewer than two words
    one = np.array([[0, 2, 1, 0, 5]])  # one text: the words it uses
    assert shared_columns(one, 4).tolist() == [1, 2, 4]


def test_shared_words_need_the_vocabulary_space():
    with pytest.raises(ValueError, match="items must be"):
        outsider.OutsiderVariant(("f", "b"), items=("chars:3",), shared=4)


def test_the_variant_moves_p_outsider_only():
    """GIml+Cs leaves the verdicts and their confidence as they are and builds its
    impostor space on the shared words; the default variant is GIml+C."""
    from hclib.studies.open_set import held_out_runs

    assert outsider.DEFAULT_VARIANT == "GIml+C"
    assert outsider.outsider_variant("GIml+Cs").shared == 4
    assert outsider.outsider_variant().shared == 0
    base = next(held_out_runs(("train",), (0,)))[-1]
    with switched(outsider, "DEFAULT_VARIANT", "GIml+Cs"):
        run = next(held_out_runs(("train",), (0,)))[-1]
    keep = shared_columns(run._counts, 4)
    assert keep is not None and keep.size < len(run.vocabulary)
    assert run.impostors.space.known.shape[1] == keep.size
    assert base.impostors.space.known.shape[1] == len(base.vocabulary)
    assert (run.prediction == base.prediction).all()
    assert np.allclose(run.verdicts["confidence"], base.verdicts["confidence"],
                       equal_nan=True)
    p = run.verdicts["p_outsider"].to_numpy(float)
    assert np.isfinite(p).all() and ((p >= 0) & (p <= 1)).all()
    assert not np.allclose(p, base.verdicts["p_outsider"].to_numpy(float))


def test_stored_rule_as_the_module_reports_it():
    rows = outsider_shared.load()
    assert outsider_shared.adopted(rows) == "GIml+Cs"
    assert rows.loc["GIml+Cs", "fresh AUC all"] > rows.loc["GIml+C", "fresh AUC all"]
    assert round(rows.loc["GIml+Cs", "train AUC all"], 3) == 0.739
    assert round(rows.loc["GIml+Cs", "F1 outsider"], 3) == 0.329
    closed = outsider_shared.closed_set_summary()
    assert round(closed.loc["GIml+Cs", "expected"], 3) == 0.442
    assert round(closed.loc["GIml+C", "real"], 3) == 0.603
    assert (closed["share"] >= 0).all() and closed.loc["GIml+C", "share"] < 1e-6
    assert not outsider_shared.targets(rows)["AUC >= 0.75 both parts"].any()
