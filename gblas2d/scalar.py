"""Scalar: one value (or none), the same on every rank.

Scalars are the results of reductions and the bound values of ``apply``; every operation that
makes one agrees on its value first, so a Scalar is replicated and reading it is local.
"""

import numbers

import numpy as np

from ._expr import ScalarExpression
from ._infix import ScalarLike
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
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def is_empty(self):
        return self._value is None

    def clear(self):
        self._value = None

    def get(self, default=None):
        return default if self._value is None else self.value

    def isequal(self, other, *, check_dtype=False):
        """Whether ``other`` (a Scalar, a Python or numpy scalar, or None) holds the same value,
        or is empty too (None stands for empty); the dtypes too with ``check_dtype``, unless
        ``other`` is a literal, whose dtype is only inferred. ``==`` is this test. Local, but
        a lazy scalar (``v.reduce()``, ``v[i]``) is computed first: collective then.

        Examples
        --------
        >>> Scalar.from_value(47).isequal(47.0), Scalar(int).isequal(None)
        (True, True)
        """
        if isinstance(other, ScalarLike):
            other = other.new()
        if not isinstance(other, Scalar):
            if other is None:
                return self._value is None
            if not isinstance(other, (numbers.Number, np.bool_)):
                raise TypeError(f"Scalar.isequal expects a Scalar or a literal scalar, got "
                                f"{type(other).__name__}")
            other = Scalar.from_value(other)
            check_dtype = False
        if check_dtype and self.dtype != other.dtype:
            return False
        if self._value is None or other._value is None:
            return self._value is None and other._value is None
        return bool(self.value == other.value)

    def __eq__(self, other):
        return self.isequal(other)

    # Equal to values of other hashes (47 == Scalar 47.0), so unhashable, as in python-graphblas.
    __hash__ = None

    def __bool__(self):
        """Whether the Scalar holds a truthy value (an empty one is False, as in
        python-graphblas; ``is_empty`` tells emptiness apart)."""
        return self._value is not None and bool(self._value)

    def __array__(self, dtype=None, copy=None):
        return np.array(self.value, dtype=self.dtype.np_type if dtype is None else dtype)

    def __float__(self):
        return float(self.value)

    def __int__(self):
        return int(self.value)

    def __repr__(self):
        return f"<gblas2d.Scalar {self.value!r}, dtype={self.dtype}>"


ScalarExpression.output_class = Scalar
