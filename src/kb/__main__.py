"""``python -m kb`` runs the command line (same as the ``kb`` script)."""

import sys

from kb.cli import main

sys.exit(main())
