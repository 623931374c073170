"""``gblas2d.unary``: the unary ops of ``gblas2d.semirings.unary``, at python-graphblas's
import path (``from gblas2d.unary import abs``, ``import gblas2d.unary``).

Each name is read from ``gblas2d.semirings.unary`` when it is asked for, so what is registered
there later is found here too; ``gb.unary`` is this module.
"""

from .semirings import forwarding
from .semirings import unary as _namespace

__all__, __getattr__, __dir__ = forwarding(_namespace)
