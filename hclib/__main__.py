"""``python -m hclib …`` runs the ``hclib`` command."""

import sys

from hclib.cli.command import main

sys.exit(main())
