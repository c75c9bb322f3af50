"""``python -m engine``: try the rules from a terminal (see :mod:`engine.cli`)."""

import sys

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main())
