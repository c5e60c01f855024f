"""The ``hclib`` command: ``hclib attribute``, ``hclib pan`` and ``hclib data``.

* :mod:`~hclib.cli.command`: the parser, ``main`` and the rules every sub-command shares
  (exit 2 and one line on a user's mistake).
* :mod:`~hclib.cli.attribute`: ``hclib attribute`` and ``hclib pan``.
* :mod:`~hclib.cli.data`: ``hclib data fetch`` and ``hclib data status``.
"""

__all__: list[str] = []  # the modules are the API; hclib's everyday names are at the top
