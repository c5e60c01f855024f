"""Compatibility shim: the Gutenberg collection now lives in :mod:`hclib.corpora.gutenberg`.

``from hclib import gutenberg`` keeps working: this module *is* that module (the lead removes
this shim later).
"""

import sys

from .corpora import gutenberg as _gutenberg

sys.modules[__name__] = _gutenberg
