"""``gblas2d.select``: the select ops of ``gblas2d.semirings.select``, at python-graphblas's
import path (``from gblas2d.select import tril``, ``import gblas2d.select``).

Each name is read from ``gblas2d.semirings.select`` when it is asked for, so what is registered
there later is found here too; ``gb.select`` is this module.
"""

from .semirings import forwarding
from .semirings import select as _namespace

__all__, __getattr__, __dir__ = forwarding(_namespace)
