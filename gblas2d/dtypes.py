"""``gblas2d.dtypes``: the types of ``gblas2d.semirings.dtypes``, at python-graphblas's
import path (``from gblas2d.dtypes import INT64``, ``import gblas2d.dtypes``).

Each name is read from ``gblas2d.semirings.dtypes`` when it is asked for, so what is registered
there later is found here too; ``gb.dtypes`` is this module.
"""

from .semirings import Operator
from .semirings import dtypes as _namespace

__all__ = list(_namespace.__all__)


def __getattr__(name):
    return getattr(_namespace, name)


def __dir__():
    # As python-graphblas's: the ops and what __all__ names, not the module's own imports.
    return [name for name in dir(_namespace)
            if name in __all__ or isinstance(getattr(_namespace, name), Operator)]
