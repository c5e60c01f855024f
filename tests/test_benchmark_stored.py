"""The stored side studies of the Gutenberg chapter (hclib.studies.benchmark_stored)."""

from __future__ import annotations

import pandas as pd
import pytest

from hclib.studies import benchmark_stored


def test_stored_tables_are_the_chapters() -> None:
    chars = benchmark_stored.load_results("chars")
    assert list(chars.N) == [3000] and list(chars.method) == ["hc_dagger"]
    assert 0 < chars.loc[0, "mean"] < 1 and 0 < chars.loc[0, "se"] < 0.1
    assert (chars[["count_seconds", "bench_seconds"]] > 0).all(axis=None)
    agreement = benchmark_stored.load_results("agreement")["value"]
    assert {"works", "unchanged", "seconds_exact", "seconds_approximate"} <= set(agreement.index)
    assert agreement["works"] == int(agreement["works"]) > 900
    assert 0 <= agreement["unchanged"] <= 1


def test_write_results_stores_what_load_results_reads(monkeypatch, tmp_path) -> None:
    from hclib.corpora import gutenberg
    from hclib.studies import benchmark

    class Collection:
        labels = ["a", "b"] * 10
        seconds = 1.5

    summary = pd.DataFrame({"method": ["hc_dagger"], "N": [3000], "mean": [0.75],
                            "se": [0.01]})
    monkeypatch.setattr(gutenberg, "load_collection", lambda **kw: Collection())
    monkeypatch.setattr(gutenberg, "char_ngram_collection", lambda *a, **kw: Collection())
    monkeypatch.setattr(benchmark_stored, "run_benchmark",
                        lambda *a, **kw: type("R", (), {"seconds": 2.5})())
    monkeypatch.setattr(benchmark_stored, "summarize", lambda result: summary.copy())
    monkeypatch.setattr(benchmark_stored, "approximation_agreement",
                        lambda *a, **kw: {"works": 20, "unchanged": 0.95})
    assert benchmark.VOCAB_SIZES[-1] == 3000
    written = benchmark_stored.write_results(tmp_path, n_jobs=1)
    chars = benchmark_stored.load_results("chars", tmp_path)
    assert chars.loc[0, "count_seconds"] == 1.5 and chars.loc[0, "bench_seconds"] == 2.5
    pd.testing.assert_frame_equal(chars, written["chars"], check_dtype=False)
    agreement = benchmark_stored.load_results("agreement", tmp_path)["value"]
    assert agreement.to_dict() == {"works": 20.0, "unchanged": 0.95}


def test_load_results_names_the_table() -> None:
    with pytest.raises(ValueError, match="name must be one of"):
        benchmark_stored.load_results("char")
