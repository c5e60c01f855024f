"""The engine: the formulas computed at scale, exactly, on CPU threads, a GPU or a Dask cluster.

* :mod:`~hclib.engine.bounds`: cheap rigorous bounds on every word's P-value (and their normal
  approximation), so that exact tails are computed only where they matter.
* :mod:`~hclib.engine.exact`: the exact HC of many pairs of tables (:func:`~hclib.engine.exact.hc_pairs`): screen,
  bracket, scan; identical to the formula, not an approximation.
* :mod:`~hclib.engine.measures`: every discrepancy of :mod:`hclib.formulas`, computed in
  batches of pairs.
* :mod:`~hclib.engine.matrix`: the document × author discrepancy matrix, chunked, in worker
  threads or processes (:func:`~hclib.engine.matrix.discrepancy_matrix`,
  :func:`~hclib.engine.matrix.corpus_counts`).
* :mod:`~hclib.engine.arrays`: the same computation in NumPy or CuPy (NVIDIA GPU), with its
  CUDA kernels in ``_cuda``; the compiled CPU kernels are in ``_kernels`` (numba).
* :mod:`~hclib.engine.distributed`: the matrix on a Dask cluster.
* :mod:`~hclib.engine.distances`: distances of pairs of tables on many random feature
  subsets in one batched call (General Impostors).
"""

__all__: list[str] = []  # the modules are the API; hclib's everyday names are at the top
