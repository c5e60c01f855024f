"""Maps of texts: who is close to whom (:func:`~hclib.mapping.build.map`, as ``hclib.map``).

* :mod:`~hclib.mapping.distances`: the symmetric distance matrix of any method of the
  registry, HC† by default, Burrows' Delta and Cosine Delta included;
* :mod:`~hclib.mapping.embedding`: classical MDS of the distances, PCA of z-scored
  frequencies;
* :mod:`~hclib.mapping.consensus`: the majority-rule consensus of trees (stylo's BCT);
* :mod:`~hclib.mapping.agreement`: adjusted Rand index, purity, nearest neighbours;
* :mod:`~hclib.mapping.draw`: the figures; :mod:`~hclib.mapping.result`: :class:`~hclib.mapping.result.TextMap`;
* :mod:`~hclib.mapping.build`: :func:`map`, from texts or a folder to a :class:`~hclib.mapping.result.TextMap`.

The package is named ``mapping`` so that ``hclib.map`` (the function) is not a module.
"""

from .build import map
from .result import TextMap

__all__ = ["TextMap", "map"]
