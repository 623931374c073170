"""``gblas2d.semiring``: the semirings of ``gblas2d.semirings.semiring``, at python-graphblas's
import path (``from gblas2d.semiring import min_plus``, ``import gblas2d.semiring``).

Each name is read from ``gblas2d.semirings.semiring`` when it is asked for, so what is registered
there later is found here too; ``gb.semiring`` is this module.
"""

from .semirings import forwarding
from .semirings import semiring as _namespace

__all__, __getattr__, __dir__ = forwarding(_namespace)
