"""``gblas2d.dtypes``: the types of ``gblas2d.semirings.dtypes``, at python-graphblas's
import path (``from gblas2d.dtypes import INT64``, ``import gblas2d.dtypes``).

Each name is read from ``gblas2d.semirings.dtypes`` when it is asked for, so what is registered
there later is found here too; ``gb.dtypes`` is this module.
"""

from .semirings import dtypes as _namespace
from .semirings import forwarding

__all__, __getattr__, __dir__ = forwarding(_namespace)
