"""The array-namespace HC path (NumPy here; the same code runs on CuPy)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from hclib.engine import arrays
from hclib.engine import bounds, exact
from hclib.engine.matrix import corpus_counts, discrepancy_matrix
from hclib.formulas.pvalues import allocation_pvalues

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
        exact_p = exact.hc_pairs(x, y, 0.25, variant)
        assert np.max(np.abs(hc - exact_p) / np.maximum(np.abs(exact_p), 1)) < 1e-8


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


def _leave_one_out_case(seed: int = 5):
    """Documents of 3 authors' corpora (members) plus 2 outsiders, with edge columns."""
    x, _ = zipf_pairs(n_pairs=12, n_words=300, seed=seed)
    x[:, 0] = 0                                # a word nobody uses
    x[:3, 1] = 0                               # a word only some documents use
    labels = ["a"] * 4 + ["b"] * 4 + ["c"] * 2 + ["out"] * 2
    _, corpora, _ = corpus_counts(x[:10], labels[:10])
    member = np.array([0] * 4 + [1] * 4 + [2] * 2 + [-1] * 2)
    return x, corpora, member


@pytest.mark.parametrize("variant", ["dagger", "star"])
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.45])
def test_matrix_path_matches_the_engine_matrix(variant, gamma):
    docs, corpora, member = _leave_one_out_case()
    want = discrepancy_matrix(docs, corpora, doc_author=member, gamma=gamma,
                              measure=f"hc_{variant}")
    for batch in (1, 5, None):
        got = arrays.hc_matrix_on(docs, corpora, member, gamma, variant, batch=batch)
        assert got.shape == want.shape
        assert np.max(np.abs(got - want) / np.maximum(np.abs(want), 1)) < 1e-8
    # a member left in its corpus gives a different value: the leave-one-out is applied
    kept = arrays.hc_matrix_on(docs, corpora, None, gamma, variant)
    assert not np.allclose(kept[:10], want[:10])
    assert np.allclose(kept[10:], want[10:], rtol=1e-8, atol=1e-8)


def test_progress_counts_every_document():
    docs, corpora, member = _leave_one_out_case()
    done = []
    arrays.hc_matrix_on(docs, corpora, member, batch=5, progress=done.append)
    assert done == [5, 5, 2]


gpu = pytest.mark.skipif(not arrays.gpu_available(), reason="needs CuPy and an NVIDIA GPU")


@gpu
@pytest.mark.parametrize("variant", ["dagger", "star"])
@pytest.mark.parametrize("gamma", [0.1, 0.25, 0.45])
def test_fused_kernel_equals_the_plain_array_path(variant, gamma):
    for seed in range(3):
        docs, corpora, member = _leave_one_out_case(seed)
        plain = arrays.hc_matrix_on(docs, corpora, member, gamma, variant, "gpu", screen=False)
        fused = arrays.hc_matrix_on(docs, corpora, member, gamma, variant, "gpu")
        assert np.max(np.abs(fused - plain) / np.maximum(np.abs(plain), 1)) < 1e-12
        cpu = discrepancy_matrix(docs, corpora, doc_author=member, gamma=gamma,
                                 measure=f"hc_{variant}")
        assert np.max(np.abs(fused - cpu) / np.maximum(np.abs(cpu), 1)) < 1e-8


@gpu
def test_fused_kernel_on_edge_tables():
    """Sparse, lopsided tables (every document against every corpus) and HC's corner cases."""
    x, y = edge_pairs()
    for variant in ("dagger", "star"):
        want = discrepancy_matrix(x, y, measure=f"hc_{variant}")
        got = arrays.hc_matrix_on(x, y, None, 0.25, variant, "gpu")
        assert np.max(np.abs(got - want) / np.maximum(np.abs(want), 1)) < 1e-8
    same = arrays.hc_matrix_on(y[:3], y[:3], None, 0.25, "dagger", "gpu")
    assert np.allclose(np.diag(same), discrepancy_matrix(y[:3], y[:3]).diagonal())


@gpu
def test_discrepancy_matrix_on_the_gpu_equals_the_cpu_engine():
    docs, corpora, member = _leave_one_out_case(seed=11)
    for measure in ("hc_dagger", "hc_star"):
        cpu = discrepancy_matrix(docs, corpora, doc_author=member, measure=measure)
        gpu_hc = discrepancy_matrix(docs, corpora, doc_author=member, measure=measure,
                                    device="gpu", progress=False)
        assert np.max(np.abs(gpu_hc - cpu) / np.maximum(np.abs(cpu), 1)) < 1e-8
        assert np.array_equal(gpu_hc.argmin(axis=1), cpu.argmin(axis=1))
