"""The full-conformal P-value of hclib.verify: valid under every registered corpus method and
unequal lengths (fresh same-author texts: P(p <= alpha) <= alpha within a binomial bound),
small for another author, independent of the impostors, and a known text given back is
never "different author"."""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pytest
from scipy import stats

from hclib.attribution.methods import METHODS, get
from hclib.verification.impostors import impostor_pool
from hclib.verification.pvalue import conformal_pvalue
from hclib.verification.verify import _measure, verify

V = 60
CORPUS_METHODS = [name for name, m in METHODS.items() if m.corpus]
KNOWN_LENGTHS = [250, 500, 900, 1600]  # unequal, and the questioned text's differs again


def author(rng: np.random.Generator, spread: float = 0.5) -> np.ndarray:
    p = np.exp(rng.normal(0.0, spread, V)) / np.arange(1, V + 1)
    return p / p.sum()


def codes(rng: np.random.Generator, p: np.ndarray, n: int) -> np.ndarray:
    return rng.choice(V, size=n, p=p).astype(np.int64)


def upper(alpha: float, n: int) -> float:
    """The largest share of n draws with P(success) = alpha that a binomial test at
    level 0.001 does not call too large."""
    return float(stats.binom.ppf(0.999, n, alpha)) / n


@pytest.mark.parametrize("method", CORPUS_METHODS)
def test_pvalue_is_valid_under_every_method_and_unequal_lengths(method):
    rng = np.random.default_rng(zlib.crc32(method.encode()))  # the same in every process
    measure = _measure(get(method))
    n_draws = 200
    same, other = [], []
    for i in range(n_draws):
        a = author(rng)
        known = [codes(rng, a, n) for n in KNOWN_LENGTHS]
        q_len = (150, 3000)[i % 2]  # shorter and longer than every known text
        same.append(conformal_pvalue(codes(rng, a, q_len), known, measure, None)[0])
        if i < 40:
            other.append(conformal_pvalue(codes(rng, author(rng), q_len), known, measure,
                                          None)[0])
    same = np.array(same)
    # n = 4 known texts: p takes the values k/5; P(p <= 1/5) = 1/5 under exchangeability
    assert np.mean(same <= 0.2) <= upper(0.2, n_draws)
    assert np.mean(same <= 0.6) <= upper(0.6, n_draws)
    assert np.mean(np.array(other) <= 0.2) >= 0.6  # power: another author is the farthest


def test_one_known_text_pvalue_uses_halves_and_is_valid():
    rng = np.random.default_rng(1)
    measure = _measure(get("hc_dagger"))
    ps = []
    for _ in range(200):
        a = author(rng)
        p, length, alpha = conformal_pvalue(codes(rng, a, 700), [codes(rng, a, 1600)],
                                            measure, None)
        assert alpha.size == 3 and length == 700
        ps.append(p)
    ps = np.array(ps)
    assert set(np.round(ps, 6)) <= {round(1 / 3, 6), round(2 / 3, 6), 1.0}
    assert np.mean(ps <= 1 / 3) <= upper(1 / 3, ps.size)


def test_pvalue_does_not_depend_on_the_impostors_and_a_copy_is_never_different():
    rng = np.random.default_rng(4)
    words = ["".join(p) for p in itertools.product("abcdefgh", repeat=2)][:V]

    def text(p: np.ndarray, n: int) -> str:
        return " ".join(words[i] for i in codes(rng, p, n))

    a = author(rng)
    known = [text(a, 600) for _ in range(4)]
    questioned = {"fresh": text(a, 500), "copy": known[1]}
    pools = [impostor_pool([text(author(rng), 900) for _ in range(k)]) for k in (6, 25)]
    results = [verify(known, questioned, impostors=pool, min_tokens=10) for pool in pools]
    assert (results[0].p_value == results[1].p_value).all()
    for res in results:
        assert res.p_value["copy"] >= 0.4  # ties with its own copy at least
        assert res.decision["copy"] != "different author"
