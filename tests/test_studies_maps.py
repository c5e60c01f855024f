"""hclib.studies.maps: the stored vocabulary study gives the defaults of hclib.map, the
Gutenberg subset is seeded, and the Federalist map labels every paper."""

from __future__ import annotations

import pytest

from hclib.mapping.build import MAP_ITEMS
from hclib.studies import maps


def test_stored_study_chooses_the_defaults():
    table = maps.load_vocabulary_study()
    assert set(table["subset"]) >= {"chapter", "Federalist", "training 1", "test 5"}
    assert maps.chosen_sizes(table).to_dict() == MAP_ITEMS


def test_gutenberg_subset_is_seeded():
    pytest.importorskip("hclib.corpora.gutenberg")
    try:
        a = maps.gutenberg_texts(n_authors=3, n_works=2, words=500, seed=4)
    except (OSError, ValueError) as exc:  # no data here
        pytest.skip(f"Gutenberg data not available: {exc}")
    b = maps.gutenberg_texts(n_authors=3, n_works=2, words=500, seed=4)
    assert a.equals(b) and len(a) == 6 and a["name"].is_unique
    assert a["text"].str.split().str.len().eq(500).all()
    assert a.groupby("author").size().eq(2).all()
