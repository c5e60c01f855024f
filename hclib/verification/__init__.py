"""Verification: did this author write it? A P-value, a calibrated probability and the words.

* :mod:`hclib.verification.verify`: :func:`~hclib.verification.verify.verify` (one
  author's known texts against one or many questioned texts: the impostor-relative score,
  the same-author probability fitted on pseudo-problems or on labelled problems,
  :func:`~hclib.verification.verify.fit_verifier`, the full-conformal P-value, and a
  decision with a "no decision" band and a reason);
* :mod:`hclib.verification.relative` (the impostor-relative score, General Impostors over
  random feature subsets, its pseudo-problems and the pool's kind),
  :mod:`hclib.verification.general_impostors` (Koppel and Winter's General Impostors, the
  baseline, reported beside),
  :mod:`hclib.verification.distances` (distances on many feature subsets in one batched
  call), :mod:`hclib.verification.pvalue` (the full-conformal P-value),
  :mod:`hclib.verification.model` (the probability: pseudo-problems or ``train=``) and
  :mod:`hclib.verification.copies` (pool texts by the known author);
* :mod:`hclib.verification.batch`: a dataset answered together (``hclib verify --pan``),
  the answers reordered by their mean rank with General Impostors' share;
* :mod:`hclib.verification.inputs`: what it reads (``known`` and ``questioned`` under one
  rule; an author's works as folders);
* :mod:`hclib.verification.impostors`: the texts by other authors that calibrate the
  probability (:class:`~hclib.verification.impostors.ImpostorPool`; the default pool of
  Gutenberg excerpts, :func:`~hclib.verification.impostors.gutenberg_pool`);
* :mod:`hclib.verification.result`: the answer
  (:class:`~hclib.verification.result.Verification`, its table, PAN answers and
  :meth:`~hclib.verification.result.Verification.explain`, the words behind it);
* :mod:`hclib.verification.pan_formats`: PAN's verification datasets (2013–2015 problem
  folders, 2020–2021 ``pairs.jsonl``), their truth and answers files.
"""

# ``verify`` here is the function (``from hclib.verification import verify``), not the module
# of the same name: importing the function binds the package's attribute ``verify`` to it,
# over the submodule that the import system bound first. The module stays importable by its
# full name (``from hclib.verification.verify import fit_verifier``; it is in ``sys.modules``).
from .verify import fit_verifier, verify  # noqa: E402  (after the docstring, on purpose)
from .result import Verification  # noqa: E402

__all__ = ["Verification", "fit_verifier", "verify"]
