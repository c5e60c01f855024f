"""The method's formulas: per-word P-values, Higher Criticism, the discrepancies.

Everything here is a formula of Kipnis' paper (or a standard one beside it), written for
clarity and checked against brute force and mpmath; nothing here depends on the rest of
``hclib`` except its input checks.

* :mod:`~hclib.formulas.pvalues`: the binomial-allocation P-value of every word, one module
  per formula (:mod:`~hclib.formulas.pvalues.exact`: the paper's exact two-sided P-value and
  the 2019 code's; :mod:`~hclib.formulas.pvalues.alternatives`: mid-P, z-test, G-test).
* :mod:`~hclib.formulas.hc`: Higher Criticism of a set of P-values (HC, HC*, HC†) and the
  threshold :math:`t^*`.
* :mod:`~hclib.formulas.statistics`: the other statistics of P-values (HC with Beta
  standardisation, Berk–Jones, Fisher's :math:`-2\\sum\\log\\pi`).
* :mod:`~hclib.formulas.discrepancy`: the HC discrepancy of two word-frequency tables and the
  baselines (cosine, power divergence).
* :mod:`~hclib.formulas.stylometry`: Burrows' and Cosine Delta.
* :mod:`~hclib.formulas.simulate`: seeded simulations of word-frequency tables.
"""

__all__: list[str] = []  # the modules are the API; hclib's everyday names are at the top
