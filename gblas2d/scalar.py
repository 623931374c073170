"""Scalar: one value (or none), the same on every rank.

Scalars are the results of reductions and the bound values of ``apply``; every operation that
makes one agrees on its value first, so a Scalar is replicated and reading it is local.
"""

import numpy as np

from ._expr import ScalarExpression
from .exceptions import EmptyObject
from .semirings.dtypes import FP64, lookup_dtype

__all__ = ["Scalar"]


class Scalar:
    """A typed value that may be empty.

    Examples
    --------
    >>> s = Scalar.from_value(3)
    >>> s.value, s.dtype, s.nvals
    (3, INT64, 1)
    """

    def __init__(self, dtype=FP64, *, name=None):
        self.dtype = lookup_dtype(dtype)
        self._value = None
        self.name = name or "s"

    @classmethod
    def from_value(cls, value, dtype=None, *, name=None):
        out = cls(dtype if dtype is not None else np.asarray(value).dtype, name=name)
        out.value = value
        return out

    @property
    def value(self):
        """The value as a Python scalar, or None when empty."""
        return None if self._value is None else self._value.item()

    @value.setter
    def value(self, value):
        self._value = None if value is None else self.dtype.np_type.type(value)

    @property
    def nvals(self):
        return 0 if self._value is None else 1

    @property
    def is_empty(self):
        return self._value is None

    def clear(self):
        self._value = None

    def get(self, default=None):
        return default if self._value is None else self.value

    def __bool__(self):
        if self._value is None:
            raise EmptyObject("An empty Scalar has no truth value")
        return bool(self._value)

    def __eq__(self, other):
        other = other.value if isinstance(other, Scalar) else other
        return self.value == other

    def __hash__(self):
        return hash(self.value)

    def __float__(self):
        return float(self.value)

    def __int__(self):
        return int(self.value)

    def __repr__(self):
        return f"<gblas2d.Scalar {self.value!r}, dtype={self.dtype}>"


ScalarExpression.output_class = Scalar
