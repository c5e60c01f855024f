"""``hclib.attribute(impostors=...)`` (issue 41 items 4 and 6): a pool of texts by
authors who are none of the candidates joins the impostor side of the impostor score
(hclib.attribution.impostors). Its shares against their definition, bad pools, two
candidates with a pool on synthetic problems whose truth is known, the command line."""

from __future__ import annotations

import subprocess
import sys
import os
from pathlib import Path

import numpy as np
import pytest

import hclib
from hclib.attribution import impostors

from test_attribute_trust import authors, text

ROOT = Path(__file__).resolve().parents[1]


def brute_force(space: impostors.ImpostorSpace, d: np.ndarray, best: int, left: int,
                exclude: int, statistic: str) -> tuple[float, float]:
    """The shares (f, b) by their definition with the pool (label ``n_candidates``) among
    the impostors of every kept set; an insider row leaves out each candidate impostor in
    turn (the pool alone when there is one)."""
    valid = space.exclude != exclude
    own = [k for k in np.flatnonzero(valid) if space.label[k] == best]
    imp = [c for c in range(space.n_candidates) if c not in (best, left)
           and np.any(valid & (space.label == c))]
    drops = [[c2 for c2 in imp if c2 != c] for c in imp] if left < 0 and imp else [imp]
    f, b = [], []
    for r in range(d.shape[0]):
        for kept in drops:
            others = [j for j in np.flatnonzero(valid)
                      if space.label[j] in kept or space.label[j] == space.n_candidates]
            fk = [d[r, k] < min(d[r, j] for j in others) for k in own]
            bk = [d[r, k] < min(space.kk[r, k, j] for j in others) for k in own]
            if statistic == "mean":
                f.append(np.mean(fk))
                b.append(np.mean(bk))
            else:
                f.append(min(d[r, k] for k in own) < min(d[r, j] for j in others))
                b.append(any(bk))
    return float(np.mean(f)), float(np.mean(b))


@pytest.mark.parametrize("statistic", ["nearest", "mean"])
@pytest.mark.parametrize("n_candidates", [2, 4])
def test_pool_shares_match_their_definition(statistic: str, n_candidates: int) -> None:
    rng = np.random.default_rng(3)
    vocab = 30
    labels = [c for c in range(n_candidates) for _ in range(3)]
    known = rng.poisson(rng.uniform(0.5, 5, (len(labels), vocab)))
    pool = rng.poisson(rng.uniform(0.5, 5, (4, vocab)))
    groups = list(range(len(labels)))
    space = impostors.impostor_space(known, labels, list(range(n_candidates)),
                                     impostors.exclusion_sets(groups), n_subsets=6,
                                     statistic=statistic, pool=pool)
    assert space.pool == 4 and (space.label == n_candidates).sum() == 4
    q = rng.poisson(rng.uniform(0.5, 5, (3, vocab)))
    d = space.distances(q)
    for best in range(n_candidates):
        for left in [-1, *[c for c in range(n_candidates) if c != best]]:
            got = impostors.impostor_features(space, d, np.full(3, best), np.full(3, left))
            for i in range(3):
                assert got[i] == pytest.approx(
                    brute_force(space, d[:, i], best, left, -1, statistic))
    # a known text's row never meets its own exclusion set; the pool is never excluded
    k = 1
    dk = space.kk[:, [k]]
    got = impostors.impostor_features(space, dk, np.array([labels[k]]), np.array([-1]),
                                      np.array([space.exclude[k]]))
    assert got[0] == pytest.approx(
        brute_force(space, dk[:, 0], labels[k], -1, space.exclude[k], statistic))


def two_candidates(seed: int = 5):
    """Candidates a, b (six known texts each); four texts by each and four by x, who is
    not a candidate, to attribute; a pool of four texts by each of y, z, u, v, w."""
    rates = authors("abxyzuvw", 0)
    rng = np.random.default_rng(seed)
    known = {a: [text(rng, rates[a], 400) for _ in range(6)] for a in "ab"}
    unknown = {f"{a}-{i}": text(rng, rates[a], 400) for i in range(4) for a in "ab"}
    unknown.update({f"out x-{i}": text(rng, rates["x"], 400) for i in range(4)})
    pool = {a: [text(rng, rates[a], 400) for _ in range(4)] for a in "yzuvw"}
    return known, unknown, pool


def test_two_candidates_with_a_pool_flag_an_outsider_and_keep_the_candidates() -> None:
    known, unknown, pool = two_candidates()
    closed = hclib.attribute(known, unknown, progress=False)
    assert closed.outsider_model is None and closed.verdicts["p_outsider"].isna().all()
    res = hclib.attribute(known, unknown, progress=False, impostors=pool)
    assert res.outsider_model is not None
    p = res.verdicts["p_outsider"]
    assert np.isfinite(p).all()
    out = p.index.str.startswith("out")
    assert p[out].min() > 0.5 and p[~out].median() < 0.5
    answer = res.with_reject(0.5, "outsider").prediction
    assert (answer[out] == "<UNK>").all()
    assert (answer[~out] == [n[0] for n in answer.index[~out]]).mean() >= 0.75
    assert set(res.candidates) == {"a", "b"}  # the pool is never a candidate


def test_a_pool_changes_p_outsider_with_five_candidates() -> None:
    """With C >= 3 the pool joins the candidates' impostors (the default, without it, is
    tested in test_attribute_impostors)."""
    rates = authors("abcdexyzuv", 1)
    rng = np.random.default_rng(2)
    known = {a: [text(rng, rates[a], 400) for _ in range(5)] for a in "abcde"}
    unknown = {f"{a}-{i}": text(rng, rates[a], 400) for i in range(2) for a in "abcde"}
    unknown.update({f"out x-{i}": text(rng, rates["x"], 400) for i in range(4)})
    pool = {a: [text(rng, rates[a], 400) for _ in range(3)] for a in "yzuv"}
    base = hclib.attribute(known, unknown, progress=False)
    res = hclib.attribute(known, unknown, progress=False, impostors=pool)
    assert not np.allclose(base.impostors.table, res.impostors.table)
    assert res.impostors.space.pool == 12 and base.impostors.space.pool == 0
    p = res.verdicts["p_outsider"]
    out = p.index.str.startswith("out")
    assert p[out].mean() > p[~out].mean() + 0.3


def test_bad_pools_are_refused() -> None:
    known, unknown, pool = two_candidates()
    with pytest.raises(ValueError, match="impostors is empty"):
        hclib.attribute(known, unknown, progress=False, impostors=[])
    with pytest.raises(ValueError, match="impostors is empty"):
        hclib.attribute(known, unknown, progress=False, impostors={})
    with pytest.raises(ValueError, match="author 'a' is a candidate"):
        hclib.attribute(known, unknown, progress=False, impostors={"a": pool["y"]})
    with pytest.raises(ValueError, match="identical to known text"):
        hclib.attribute(known, unknown, progress=False,
                        impostors={"y": [*pool["y"], known["b"][2]]})
    with pytest.raises(ValueError, match="identical to a text to attribute"):
        hclib.attribute(known, unknown, progress=False, impostors=[unknown["out x-1"]])
    with pytest.raises(ValueError, match="none of the .* vocabulary items"):
        hclib.attribute(known, unknown, progress=False, impostors=["qqq rrr sss"])
    with pytest.raises(ValueError, match="protocol"):
        hclib.attribute(known, unknown, progress=False, impostors=pool["y"],
                        protocol="paper-code")


def test_the_command_line_takes_an_impostors_folder(tmp_path: Path) -> None:
    known, unknown, pool = two_candidates()
    for a, texts in known.items():
        (tmp_path / "known" / a).mkdir(parents=True)
        for i, t in enumerate(texts):
            (tmp_path / "known" / a / f"{i}.txt").write_text(t)
    (tmp_path / "unknown").mkdir()
    for name, t in unknown.items():
        (tmp_path / "unknown" / f"{name}.txt").write_text(t)
    (tmp_path / "pool").mkdir()
    for a, texts in pool.items():
        for i, t in enumerate(texts):
            (tmp_path / "pool" / f"{a}-{i}.txt").write_text(t)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hclib", "attribute",
                               str(tmp_path / "known"), str(tmp_path / "unknown"), "--csv",
                               "--reject", "0.5", "--reject-by", "outsider", *extra],
                              capture_output=True, text=True, env=env, timeout=300)

    done = run("--impostors", str(tmp_path / "pool"))
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    assert sum(r[1] == "<UNK>" for r in rows if r[0].startswith("out")) == 4
    missing = run("--impostors", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "--impostors" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    without = run()  # two candidates, no pool: no outsider model
    assert without.returncode == 2 and "--impostors DIR" in without.stderr
