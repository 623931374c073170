"""``python -m gblas2d`` (and the ``gblas2d`` command): see ``gblas2d.cli``."""

import sys

from .cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
