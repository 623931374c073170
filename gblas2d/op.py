"""``gblas2d.op``: the ops of every kind of ``gblas2d.semirings.op``, at python-graphblas's
import path (``from gblas2d.op import plus_times``, ``import gblas2d.op``).

Each name is read from ``gblas2d.semirings.op`` when it is asked for, so what is registered
there later is found here too; ``gb.op`` is this module.
"""

from .semirings import forwarding
from .semirings import op as _namespace

__all__, __getattr__, __dir__ = forwarding(_namespace)
