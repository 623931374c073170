"""``A.ss`` and ``v.ss``: what python-graphblas's SuiteSparse-specific attributes give that
client code reads cheaply, on a distributed object.

``is_iso`` and ``iso_value`` say whether one value stands for every entry, so code may skip
value work on a pattern (``if A.ss.is_iso: ...``). Being iso is a property of the whole object:
each rank looks at its own part, where a block whose values are one broadcast value answers at
once and any other part by one pass over its values, and the ranks agree with one small
allgather, so every rank gets the same answer. As in SuiteSparse, an object with no entries is
not iso; unlike SuiteSparse, whose answer depends on how the object was made (an iso flag kept
by some operations), gblas2d answers by the values, so an object whose entries happen to be
equal is iso here and may not be there.

>>> import gblas2d as gb
>>> A = gb.Matrix.from_coo([0, 1], [1, 2], 1.0, nrows=3, ncols=3)
>>> A.ss.is_iso, A.ss.iso_value.value
(True, 1.0)
"""

import numpy as np

from ..distributed.grid import collective
from .expr import ScalarExpression

__all__ = ["SuiteSparseInfo"]


class SuiteSparseInfo:
    """The ``.ss`` attributes of a Vector or Matrix (see the module docstring)."""

    def __init__(self, parent):
        self._parent = parent

    def __repr__(self):
        return f"{self._parent.name}.ss"

    @collective
    def _agreed_iso(self):
        """Collective. (whether the object is iso, its one value or None), the same on every
        rank: one allgather of each rank's (iso, value)."""
        parent = self._parent
        parts = parent.grid.comm.allgather_object(_local_iso(parent._local_values()))
        values = {value for _, value in parts if value is not None}
        iso = all(flag for flag, _ in parts) and len(values) == 1
        return iso, values.pop() if iso else None

    @property
    def is_iso(self):
        """Collective. Whether the object has entries and every entry holds the same value."""
        return self._agreed_iso()[0]

    @property
    def iso_value(self):
        """Collective. The one value of an iso object, as a Scalar of its dtype.

        Raises
        ------
        ValueError
            When the object is not iso (python-graphblas's error and words).
        """
        iso, value = self._agreed_iso()
        if not iso:
            raise ValueError(f"{type(self._parent).__name__} is not iso-valued")
        # the Scalar class, through the expression that builds Scalars (scalar.py imports the
        # containers, which import this module)
        return ScalarExpression.output_class.from_value(value, self._parent.dtype)


def _local_iso(values):
    """(whether this rank's values are all one value, that value as a Python scalar or None
    when the rank holds no entry). A broadcast array (an iso block) is known without reading
    it; any other costs one comparison pass."""
    if len(values) == 0:
        return True, None
    first = values[0]
    if values.strides == (0,) or bool(np.all(values == first)):
        return True, first.item()
    return False, None
