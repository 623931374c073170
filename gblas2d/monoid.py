"""``gblas2d.monoid``: the monoids of ``gblas2d.semirings.monoid``, at python-graphblas's
import path (``from gblas2d.monoid import min``, ``import gblas2d.monoid``).

Each name is read from ``gblas2d.semirings.monoid`` when it is asked for, so what is registered
there later is found here too; ``gb.monoid`` is this module.
"""

from .semirings import forwarding
from .semirings import monoid as _namespace

__all__, __getattr__, __dir__ = forwarding(_namespace)
