"""Distances on many random feature subsets: :mod:`hclib.engine.distances` (moved down a
layer so that attribution's outsider score can use them); this name keeps old imports."""

from hclib.engine.distances import DISTANCES, pair_distances, subset_distances, subset_masks

__all__ = ["DISTANCES", "pair_distances", "subset_distances", "subset_masks"]
