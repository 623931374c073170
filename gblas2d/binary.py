"""``gblas2d.binary``: the binary ops of ``gblas2d.semirings.binary``, at python-graphblas's
import path (``from gblas2d.binary import plus``, ``import gblas2d.binary``).

Each name is read from ``gblas2d.semirings.binary`` when it is asked for, so what is registered
there later is found here too; ``gb.binary`` is this module.
"""

from .semirings import binary as _namespace
from .semirings import forwarding

__all__, __getattr__, __dir__ = forwarding(_namespace)
