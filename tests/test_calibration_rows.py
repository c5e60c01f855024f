"""The calibration rows of hclib.attribute in flat folders (hclib.attribution.calibration_rows):
scored without their pseudo-work, so that pieces of one work do not teach the confidence
and outsider models that a text of another work is far."""

from __future__ import annotations

import numpy as np
import pytest

import hclib
from hclib.attribution import calibration_rows
from hclib.attribution.calibration_rows import pseudo_work_groups

from test_works import _works_problem


@pytest.fixture(scope="module")
def flat_problem():
    """Pieces of two works per author known in a flat folder (shared work-specific names
    and word shifts), pieces of a third work to attribute, every author a candidate."""
    return _works_problem(0)


def _run(problem, variant: str, monkeypatch, **options):
    monkeypatch.setattr(calibration_rows, "PSEUDO_WORK_ROWS", variant)
    known, _, unknown, _ = problem
    return hclib.attribute(known, unknown, progress=False, **options)


def test_pseudo_work_groups() -> None:
    labels = ["a", "a", "a", "b", "b", "b"]
    alone = list(range(6))
    assert pseudo_work_groups(labels, alone, None) is None
    assert pseudo_work_groups(labels, alone, [0, 0, 2, 3, 3, 5]) == [
        ("a", "pieces 0"), ("a", "pieces 0"), ("a", "pieces 2"), ("b", "pieces 3"),
        ("b", "pieces 3"), ("b", "pieces 5")]
    # the groups are the pseudo-works already (pieces="group"): nothing to change
    grouped = [("a", "pieces 0"), ("a", "pieces 0"), ("a", "pieces 2"), ("b", "pieces 3"),
               ("b", "pieces 3"), ("b", "pieces 5")]
    assert pseudo_work_groups(labels, grouped, [0, 0, 2, 3, 3, 5]) is None
    # an author left with one pseudo-work would have no row: per text as before
    assert pseudo_work_groups(labels, alone, [0, 0, 0, 3, 3, 5]) is None


def test_flat_folders_no_outsider_share_without_the_sibling_pieces(flat_problem,
                                                                   monkeypatch) -> None:
    _, _, _, truth = flat_problem
    adopted = _run(flat_problem, "Ww-both", monkeypatch)
    per_text = _run(flat_problem, "D0", monkeypatch)
    assert adopted.pieces.found
    real = float((adopted.prediction == truth).mean())
    # the verdicts and the leave-one-out shown stay per text; only the calibration changes
    assert (adopted.prediction == per_text.prediction).all()
    assert adopted.known_table.equals(per_text.known_table)
    assert adopted.accuracy.value == per_text.accuracy.value
    assert adopted.accuracy.value - real > 0.1  # the per-text leave-one-out is optimistic
    # per text, a known piece's rows keep its siblings: every author's own texts look
    # closer than a piece of another work, and texts by candidates read as outsiders
    assert per_text.expected_accuracy.outsiders > 0.2
    assert per_text.expected_accuracy.value < real - 0.1
    # without the pseudo-work: hardly an outsider (the share's posterior mean, never 0:
    # hclib.studies.outsider_share), and the expected accuracy near the real one
    e = adopted.expected_accuracy
    assert e.outsiders <= 0.08
    assert abs(e.value - real) <= 0.1
    assert e.low <= real <= e.high
    # the outsider rows alone without their pseudo-work leave the confidence's leak
    outsider_only = _run(flat_problem, "Ww-outsider", monkeypatch).expected_accuracy
    assert outsider_only.outsiders <= 0.08
    assert outsider_only.value - real > abs(e.value - real)


@pytest.mark.parametrize("options", [{"pieces": "off"}, {"pieces": "group"}, {"groups": True}])
def test_work_folders_and_other_pieces_choices_unchanged(flat_problem, monkeypatch,
                                                         options) -> None:
    if "groups" in options:
        options = {"groups": flat_problem[1]}
    adopted = _run(flat_problem, "Ww-both", monkeypatch, **options)
    before = _run(flat_problem, "D0", monkeypatch, **options)
    for column in ("confidence", "p_outsider"):
        np.testing.assert_array_equal(adopted.verdicts[column].to_numpy(),
                                      before.verdicts[column].to_numpy())
    assert adopted.expected_accuracy == before.expected_accuracy


def test_excerpt_shares_follow_the_variant() -> None:
    """E0 draws from EXCERPT_SHARES whatever the texts to attribute; E-match takes the
    length of a text to attribute over the known text's, clipped to [1/32, 1]; E-mix
    matches every second excerpt and draws the others as E0 does (one seed)."""
    from hclib.attribution.calibration_rows import excerpt_shares
    from hclib.attribution.options import EXCERPT_SHARES
    known = np.full(400, 1000.0)
    targets = np.array([0, 100, 250, 5, 4000])
    e0 = excerpt_shares(known, targets, np.random.default_rng(3), "E0")
    assert set(e0) <= set(EXCERPT_SHARES) and len(set(e0)) == len(EXCERPT_SHARES)
    assert np.array_equal(e0, excerpt_shares(known, np.zeros(0), np.random.default_rng(3),
                                             "E0"))
    match = excerpt_shares(known, targets, np.random.default_rng(3), "E-match")
    assert set(match) == {0.1, 0.25, 1 / 32, 1.0}  # 5 / 1000 and 4000 / 1000 clipped
    assert not np.isin(0.0, match)  # an empty text to attribute is no target
    counts = {s: int((match == s).sum()) for s in set(match)}
    assert min(counts.values()) > 60  # each of the four targets drawn about 100 times
    # per known text: the share is target / its own length
    lengths = np.array([200.0, 400.0, 800.0, 1600.0] * 100)
    one = excerpt_shares(lengths, np.array([100]), np.random.default_rng(0), "E-match")
    assert np.allclose(one, np.clip(100 / lengths, 1 / 32, 1))
    mix = excerpt_shares(known, targets, np.random.default_rng(3), "E-mix")
    assert np.array_equal(mix[::2], e0[::2])
    assert set(mix[1::2]) == {0.1, 0.25, 1 / 32, 1.0}
    # no text to attribute with a length: E0 under every variant
    for variant in ("E-match", "E-mix"):
        assert np.array_equal(excerpt_shares(known, np.zeros(3), np.random.default_rng(3),
                                             variant), e0)
    with pytest.raises(ValueError, match="variant"):
        excerpt_shares(known, targets, np.random.default_rng(3), "E1")


def test_the_lengths_of_the_texts_to_attribute_reach_the_excerpts(flat_problem,
                                                                  monkeypatch) -> None:
    """attribute() passes the in-vocabulary lengths of the texts to attribute, and the
    known texts' own, to excerpt_shares; under E-match the excerpts are thinned to them."""
    seen = []
    original = calibration_rows.excerpt_shares

    def spy(known_lengths, targets, rng, variant=None):
        shares = original(known_lengths, targets, rng, variant)
        seen.append((np.array(known_lengths), np.array(targets), shares))
        return shares

    monkeypatch.setattr(calibration_rows, "excerpt_shares", spy)
    monkeypatch.setattr(calibration_rows, "EXCERPT_LENGTHS", "E-match")
    known, _, unknown, _ = flat_problem
    res = hclib.attribute(known, unknown, progress=False)
    assert seen
    lengths = res.tokens["in_vocabulary"].to_numpy(dtype=float)
    known_lengths = res.known_tokens["in_vocabulary"].to_numpy(dtype=float)
    for k, targets, shares in seen:
        assert np.array_equal(np.sort(targets), np.sort(lengths))
        assert set(k) <= set(known_lengths)
        ok = np.isclose(shares[:, None],
                        np.clip(lengths[None, :] / k[:, None], 1 / 32, 1)).any(axis=1)
        assert ok.all()


def test_e_add_keeps_e0s_excerpts_and_adds_matched_ones(flat_problem, monkeypatch) -> None:
    """Under E-add the excerpt rows are E0's, bit for bit, followed by as many more thinned
    to the lengths of the texts to attribute (the thirteenth rule's variant); E0's shares
    are what excerpt_shares gives under E-add."""
    from hclib.attribution.calibration_rows import excerpt_shares
    known_lengths = np.full(50, 1000.0)
    targets = np.array([100, 250])
    assert np.array_equal(excerpt_shares(known_lengths, targets, np.random.default_rng(3),
                                         "E-add"),
                          excerpt_shares(known_lengths, targets, np.random.default_rng(3),
                                         "E0"))
    seen = {}
    original = calibration_rows.excerpt_verdicts

    def spy(*args, **kwargs):
        out = original(*args, **kwargs)
        seen.setdefault(calibration_rows.EXCERPT_LENGTHS, out[0])
        return out

    monkeypatch.setattr(calibration_rows, "excerpt_verdicts", spy)
    known, _, unknown, _ = flat_problem
    for variant in ("E0", "E-add"):
        monkeypatch.setattr(calibration_rows, "EXCERPT_LENGTHS", variant)
        res = hclib.attribute(known, unknown, progress=False)
    e0, add = seen["E0"], seen["E-add"]
    n = len(e0)
    assert len(add) == 2 * n
    for column in ("in_vocabulary", "_source", "true", "author"):
        assert add[column].iloc[:n].tolist() == e0[column].tolist()
    # the added excerpts: at the lengths of the texts to attribute, unless their known
    # text is shorter
    lengths = res.tokens["in_vocabulary"].to_numpy(dtype=float)
    assert np.median(add["in_vocabulary"].iloc[n:]) <= lengths.max() * 1.2
