"""``python -m cuarenta_sim``: the same command line as ``cuarenta-sim`` (see :mod:`.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
