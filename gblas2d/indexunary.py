"""``gblas2d.indexunary``: the index-unary ops of ``gblas2d.semirings.indexunary``, at
python-graphblas's import path (``from gblas2d.indexunary import rowindex``,
``import gblas2d.indexunary``).

Each name is read from ``gblas2d.semirings.indexunary`` when it is asked for, so what is
registered there later is found here too; ``gb.indexunary`` is this module.
"""

from .semirings import forwarding
from .semirings import indexunary as _namespace

__all__, __getattr__, __dir__ = forwarding(_namespace)
