"""The impostor score of "none of these" (hclib.attribution.impostors, issue 41): its
shares against their definition, the exclusion sets, the windows of a long text, and the
outsider variants that use it on synthetic problems whose truth is known."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import hclib
from hclib.attribution import impostors
from hclib.calibration import outsider

from test_attribute_trust import WORDS, authors, outsider_problem, text


def brute_force(space: impostors.ImpostorSpace, d: np.ndarray, best: int, left: int,
                exclude: int, statistic: str = "nearest", kk: np.ndarray | None = None
                ) -> tuple[float, float]:
    """The shares (f, b) by their definition, one subset and one impostor left out at a
    time (``kk``: the backward thresholds' distances, default the space's)."""
    kk = space.kk if kk is None else kk
    valid = space.exclude != exclude
    own = [k for k in np.flatnonzero(valid) if space.label[k] == best]
    imp = [c for c in range(space.n_candidates) if c not in (best, left)
           and np.any(valid & (space.label == c))]
    drops = [[c2 for c2 in imp if c2 != c] for c in imp] if left < 0 else [imp]
    f, b = [], []
    for r in range(d.shape[0]):
        for kept in drops:
            others = [j for j in np.flatnonzero(valid) if space.label[j] in kept]
            if statistic == "mean":
                f.append(np.mean([d[r, k] < min(d[r, j] for j in others) for k in own]))
                b.append(np.mean([d[r, k] < min(kk[r, k, j] for j in others)
                                  for k in own]))
                continue
            f.append(min(d[r, k] for k in own) < min(d[r, j] for j in others))
            b.append(any(d[r, k] < min(kk[r, k, j] for j in others) for k in own))
    return float(np.mean(f)), float(np.mean(b))


@pytest.mark.parametrize("statistic", ["nearest", "mean"])
def test_shares_match_their_definition(statistic: str) -> None:
    rng = np.random.default_rng(0)
    n_cand, per = 4, 3
    counts = rng.poisson(5.0, (n_cand * per, 30))
    labels = [f"a{i // per}" for i in range(n_cand * per)]
    cands = [f"a{i}" for i in range(n_cand)]
    exclude = impostors.exclusion_sets(list(range(len(labels))), None)
    space = impostors.impostor_space(counts, labels, cands, exclude, n_subsets=7,
                                     statistic=statistic)
    q = rng.poisson(5.0, (3, 30))
    d = space.distances(q)
    for best, left in ((0, -1), (2, -1), (1, 3)):
        got = impostors.impostor_features(space, d, np.full(3, best), np.full(3, left))
        for i in range(3):
            assert got[i] == pytest.approx(brute_force(space, d[:, i], best, left, -1,
                                                       statistic))
    # a known text as the row: its own exclusion set is never compared
    rows = np.array([1, 4])
    got = impostors.impostor_features(space, space.kk[:, rows, :], np.array([0, 1]),
                                      None, exclude[rows])
    for i, k in enumerate(rows):
        assert got[i] == pytest.approx(brute_force(space, space.kk[:, k], [0, 1][i], -1,
                                                   exclude[k], statistic))
    # two candidates: no impostor once one is left out, none to leave out otherwise
    two = impostors.impostor_space(counts[:6], labels[:6], cands[:2], exclude[:6], 5)
    assert np.isnan(impostors.impostor_features(two, two.distances(q), np.zeros(3))).all()


def test_exclusion_sets_join_groups_and_works() -> None:
    ex = impostors.exclusion_sets(["g1", "g1", "g2", "g3", "g4"], [0, 1, 1, 3, 4])
    assert ex[0] == ex[1] == ex[2] and len({ex[0], ex[3], ex[4]}) == 3
    alone = impostors.exclusion_sets(list(range(4)))
    assert len(set(alone)) == 4


def test_windows_are_contiguous_pieces_of_the_length() -> None:
    index = {w: j for j, w in enumerate(WORDS[:10])}
    tokens = [WORDS[i % 20] for i in range(1000)]  # half of them in the vocabulary
    win = impostors.windows(tokens, index, 100)
    assert win.shape == (3, 10) and (win.sum(axis=1) == 100).all()
    assert impostors.windows(tokens, index, 300) is None  # under two lengths: one bag
    assert impostors.thin(np.array([[500, 500], [3, 4]]), 100, 0).sum(axis=1)[1] == 7


def test_matched_lengths_compare_like_lengths() -> None:
    """Under matched lengths a text shorter than the space's length L is thinned to the
    bucket nearest its length in log scale, and its backward thresholds are the known
    texts' distances to the known texts thinned to that bucket (by their definition)."""
    rng = np.random.default_rng(1)
    counts = rng.poisson(8.0, (9, 40))
    labels = [f"a{i // 3}" for i in range(9)]
    exclude = impostors.exclusion_sets(list(range(9)))
    plain = impostors.impostor_space(counts, labels, ["a0", "a1", "a2"], exclude, 5,
                                     statistic="mean")
    space = replace(plain, matched=True)
    L = space.length
    assert list(plain.bucket_of([L, L // 8, 3])) == [0, 0, 0]
    assert list(space.bucket_of([2 * L, L, 0.8 * L, 0.6 * L, L / 8, 1])) == \
        [0, 0, 0, 1, 3, impostors.MAX_BUCKET]
    assert space.kk_at(0) is space.kk
    m = 2
    short = impostors.thin(space.known, space.bucket_length(m), space.seed + 100 + m)
    want = np.array([[[1 - np.minimum(fa, fb)[mask].sum() / (fa[mask].sum() + fb[mask].sum()
                                                          - np.minimum(fa, fb)[mask].sum())
                       if i != j else np.inf for j, fb in enumerate(
                           short / short.sum(axis=1, keepdims=True))]
                      for i, fa in enumerate(space.known / space.known.sum(
                          axis=1, keepdims=True))] for mask in space.masks.astype(bool)])
    assert space.kk_at(m) == pytest.approx(want, rel=1e-5)
    assert space.kk_at(m) is space.kk_at(m)  # computed once
    q = rng.poisson(8.0 / 4, (2, 40))  # about L / 4
    rows = space.distances_of(q)
    assert list(rows.buckets) == list(space.bucket_of(q.sum(axis=1)))
    at = np.arange(2)
    for b in np.unique(rows.buckets):
        sel = at[rows.buckets == b]
        got = impostors.impostor_features(space, rows(sel), np.zeros(sel.size, int),
                                          kk=space.kk_at(int(b)))
        for i, k in enumerate(sel):
            assert got[i] == pytest.approx(brute_force(
                space, rows(sel)[:, i], 0, -1, -1, "mean", space.kk_at(int(b))))
    whole = impostors.features_in_blocks(space, rows, 2, np.zeros(2, int))
    assert whole == pytest.approx(np.vstack([impostors.impostor_features(
        space, rows(np.array([i])), np.zeros(1, int), kk=space.kk_at(int(b)))
        for i, b in enumerate(rows.buckets)]))


def test_matched_lengths_lift_a_short_insiders_backward_share(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Texts of an eighth of the known texts' length, all by candidates: without matched
    lengths a short text is far from every known text for its length alone and its
    backward share sinks; with them it is compared with known texts of its length."""
    rates = authors("abcde", 6)
    rng = np.random.default_rng(6)
    known = {a: [text(rng, rates[a], 800) for _ in range(6)] for a in "abcde"}
    unknown = {f"{a} {i}": text(rng, rates[a], 100) for a in "abcde" for i in range(6)}
    shares = {}
    for variant in ("GIm+C", "GIml+C"):
        monkeypatch.setattr(outsider, "DEFAULT_VARIANT", variant)
        res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
        shares[variant] = np.nanmean(res.impostors.table, axis=0)
    (f0, b0), (f1, b1) = shares["GIm+C"], shares["GIml+C"]
    assert b1 > b0 + 0.1, shares
    assert abs(f1 - f0) < 0.1, shares


@pytest.fixture(params=["GI", "GIw", "GIm", "GIml+C"])
def variant(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(outsider, "DEFAULT_VARIANT", request.param)
    return request.param


@pytest.mark.parametrize("n_out", [0, 5, 15])
def test_impostor_share_of_outsiders_is_recovered(variant: str, n_out: int) -> None:
    """0, 1/4 and 1/2 of the texts by authors who are not candidates: the estimated share
    is within 0.2 of the truth, and the outsiders' texts get the larger ``p_outsider``."""
    known, unknown = outsider_problem(n_out)
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    assert res.impostors is not None
    v = res.verdicts
    share = res.expected_accuracy.outsiders
    assert abs(share - n_out / (n_out + 15)) < 0.2, share
    if n_out:
        out = v.index.str.startswith("out")
        assert v["p_outsider"][out].mean() > v["p_outsider"][~out].mean() + 0.3


def test_impostor_score_keeps_a_long_text_and_flags_an_outsider(variant: str) -> None:
    """Texts of 20 times the known texts' length: a candidate's are kept (``p_outsider``
    below 1/2), the outsiders' above every candidate's and above 1/2 on average, among
    texts of which a third are outsiders'."""
    rates = authors("abcdexy", 3)
    rng = np.random.default_rng(4)
    known = {a: [text(rng, rates[a], 400) for _ in range(6)] for a in "abcde"}
    unknown = {f"{a} {i}": text(rng, rates[a], 400) for a in "abcdexy" for i in range(2)}
    unknown.update({f"{a} long": text(rng, rates[a], 8000) for a in "abcdexy"})
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    p = res.verdicts["p_outsider"]
    long_in = p[[f"{a} long" for a in "abcde"]]
    long_out = p[[f"{a} long" for a in "xy"]]
    assert (long_in < 0.5).all(), long_in
    assert long_out.min() > long_in.max() and long_out.mean() > 0.5, long_out


def test_no_impostor_score_with_two_candidates(variant: str) -> None:
    rates = authors("ab", 1)
    rng = np.random.default_rng(2)
    known = {a: [text(rng, rates[a], 300) for _ in range(4)] for a in "ab"}
    res = hclib.attribute(known, [text(rng, rates["a"], 300)], vocabulary=60,
                          progress=False)
    assert res.impostors is None and res.outsider_model is None
    assert np.isnan(res.verdicts["p_outsider"]).all()


def test_a_capped_space_scores_every_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond MAX_TEXTS known texts the space keeps a seeded sample of each candidate's
    texts; the known texts outside it are measured against it, and every verdict still gets
    its shares, which still tell the outsiders (memory grows with the sample, not with all
    the known texts)."""
    monkeypatch.setattr(impostors, "MAX_TEXTS", 15)
    known, unknown = outsider_problem(10)
    res = hclib.attribute(known, unknown, vocabulary=60, progress=False)
    space = res.impostors.space
    assert len(space.known) == 15 and np.bincount(space.label).tolist() == [3] * 5
    assert space.kk.shape == (impostors.SUBSETS, 15, 15)
    assert np.isfinite(res.impostors.table).all() and np.isfinite(res.impostors.known).all()
    v = res.verdicts
    out = v.index.str.startswith("out")
    assert v["p_outsider"][out].mean() > v["p_outsider"][~out].mean() + 0.3
