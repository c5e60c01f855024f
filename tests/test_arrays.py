"""The array-namespace HC path (NumPy here; the same code runs on CuPy)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from hclib import arrays, engine
from hclib.matrix import corpus_counts, discrepancy_matrix
from hclib.pvalues import allocation_pvalues

from test_engine import edge_pairs, zipf_pairs


@pytest.mark.parametrize("make", [zipf_pairs, edge_pairs])
def test_numpy_path_matches_the_exact_engine(make):
    x, y = make()
    from scipy import special
    got = arrays._allocation_pvalues(np, special, x, y)
    want = allocation_pvalues(x, y)
    big = want > 1e-200
    assert np.all(np.abs(got[big] / want[big] - 1) < 1e-8)
    assert np.all(got[~big] < 1e-190)
    for variant in ("dagger", "star"):
        hc = arrays.hc_pairs_on(x, y, 0.25, variant)
        exact = engine.hc_pairs(x, y, 0.25, variant)
        assert np.max(np.abs(hc - exact) / np.maximum(np.abs(exact), 1)) < 1e-8


def test_degenerate_tables_give_the_engine_values():
    x = np.array([[5, 0, 0, 3], [0, 0, 0, 7], [2, 2, 2, 2]])
    y = np.array([[0, 4, 0, 3], [1, 0, 0, 0], [2, 2, 2, 2]])
    want = allocation_pvalues(x, y)
    from scipy import special
    assert np.allclose(arrays._allocation_pvalues(np, special, x, y), want, rtol=1e-8, atol=0)


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy is installed")
def test_gpu_without_cupy_is_a_clear_error():
    x, y = zipf_pairs(n_pairs=4, n_words=100)
    with pytest.raises(ValueError, match=r"pip install hclib\[gpu\]"):
        arrays.hc_pairs_on(x, y, device="gpu")
    _, corpora, _ = corpus_counts(y, ["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="CuPy"):
        discrepancy_matrix(x, corpora, device="gpu")


def test_unknown_device_and_measure():
    x, y = zipf_pairs(n_pairs=4, n_words=100)
    _, corpora, _ = corpus_counts(y, ["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="device must be one of"):
        discrepancy_matrix(x, corpora, device="tpu")
    with pytest.raises(ValueError, match="exact HC measures only"):
        discrepancy_matrix(x, corpora, measure="g2", device="gpu")
