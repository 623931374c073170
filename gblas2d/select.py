"""``gblas2d.select``: the select ops of ``gblas2d.semirings.select``, at python-graphblas's
import path (``from gblas2d.select import tril``, ``import gblas2d.select``).

Each name is read from ``gblas2d.semirings.select`` when it is asked for, so what is registered
there later is found here too; ``gb.select`` is this module.
"""

from .semirings import Operator
from .semirings import select as _namespace

__all__ = list(_namespace.__all__)


def __getattr__(name):
    return getattr(_namespace, name)


def __dir__():
    # As python-graphblas's: the ops and what __all__ names, not the module's own imports.
    return [name for name in dir(_namespace)
            if name in __all__ or isinstance(getattr(_namespace, name), Operator)]
