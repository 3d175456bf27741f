"""``python -m minefield.cli``: the ``minefield`` command."""

import sys

from minefield.cli import main

sys.exit(main())
