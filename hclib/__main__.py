"""``python -m hclib …`` runs the ``hclib`` command."""

import sys

from .cli import main

sys.exit(main())
