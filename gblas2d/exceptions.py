"""Exceptions, named as python-graphblas names them (``graphblas.exceptions``).

Where python-graphblas raises a builtin exception instead, gblas2d's class is also that builtin,
so that code written for python-graphblas catches it: ``IndexOutOfBound`` is an IndexError,
``InvalidValue`` a ValueError.

Every rank raises the same exception with the same message: checks that can differ between
ranks are agreed through ``gblas2d.comm`` before anything is raised.
"""

__all__ = [
    "ConvergenceFailure", "DimensionMismatch", "DomainMismatch", "EmptyObject",
    "GraphblasException", "IndexOutOfBound", "InvalidIndex", "InvalidObject", "InvalidValue",
    "NotImplementedException", "OutOfMemory", "OutputNotEmpty", "UdfParseError",
]


class GraphblasException(Exception):
    """Base of every gblas2d error."""


class DimensionMismatch(GraphblasException):
    """Shapes of operands do not agree."""


class DomainMismatch(GraphblasException):
    """An operator cannot be applied to the operands' types."""


class EmptyObject(GraphblasException):
    """A value was asked of an object that holds none."""


class IndexOutOfBound(GraphblasException, IndexError):
    """An index lies outside the object's dimensions. Also an IndexError: python-graphblas
    raises IndexError where it checks positions itself (``A[5, 0] = 1`` on a 3 x 3 matrix)."""


class InvalidIndex(GraphblasException):
    """An index is not usable (wrong kind, or duplicated where that is not allowed)."""


class InvalidObject(GraphblasException):
    """An object is in an unusable state."""


class InvalidValue(GraphblasException, ValueError):
    """An argument has a value the operation cannot take (e.g. duplicates without dup_op).
    Also a ValueError: python-graphblas raises ValueError for such arguments (``from_coo``
    with duplicate indices and no ``dup_op``: "Duplicate indices found")."""


class NotImplementedException(GraphblasException):
    """The combination of arguments is valid GraphBLAS but not implemented here."""


class OutOfMemory(GraphblasException, MemoryError):
    """An object's storage does not fit in this rank's memory. Also a MemoryError, as numpy
    raises."""


class OutputNotEmpty(GraphblasException):
    """The output must be empty for this operation."""


class UdfParseError(GraphblasException):
    """A user-defined function could not be used."""


class ConvergenceFailure(GraphblasException):
    """An iterative algorithm reached its iteration cap without meeting its tolerance."""
