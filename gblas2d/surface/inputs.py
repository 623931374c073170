"""Reading what a caller passes to a constructor or an index: the type of a Python scalar,
python-graphblas's index forms, an input check that all ranks agree on, the type of distributed
input, and the fold of duplicates by a binary op that has no monoid. Shared by Vector and
Matrix."""

import numbers
import operator

import numpy as np

from ..exceptions import DimensionMismatch, IndexOutOfBound, InvalidValue
from ..semirings.dtypes import FP64, lookup_dtype, unify

__all__ = ["FirstOnlyMonoid", "INDEX_LIMIT", "LengthMismatch", "agreed_dtype", "axis_index",
           "checked", "dense_fill", "index_array", "is_position", "order_of", "scalar_dtype",
           "type_name", "values_array"]


def type_name(obj):
    """The name of ``obj``'s type in an error message: bare for gblas2d's, Python's and
    numpy's own types, named with its package otherwise, so that a python-graphblas Vector
    passed where a gblas2d one is expected does not read "expected a Vector, got Vector"."""
    kind = type(obj)
    package = kind.__module__.partition(".")[0]
    if package in ("gblas2d", "builtins", "numpy"):
        return kind.__name__
    if package == "graphblas":
        return (f"a python-graphblas {kind.__name__} (the two engines' objects do not mix: "
                "make a gblas2d one from its to_coo())")
    return f"{package}.{kind.__name__}"


def scalar_dtype(value):
    """The GraphBLAS type of a Python or numpy scalar."""
    return lookup_dtype(np.asarray(value).dtype)


def is_position(index):
    """Whether ``index`` is one integer position (``v[3]``), not several (a list, a slice, a
    Vector), nor a bool or a float (which python-graphblas rejects as indices)."""
    if isinstance(index, np.ndarray):
        return index.ndim == 0 and index.dtype.kind in "iu"
    return isinstance(index, numbers.Integral) and not isinstance(index, bool)


def axis_index(index, size, *, ranges=False):
    """One position (an int) or an int64 array of positions along an axis of ``size``, from
    python-graphblas's index forms: an int or integer Scalar, a slice, a list or 1-D array.
    As in python-graphblas a negative position counts from the end. With ``ranges`` a slice
    of step 1 stays a ``range``: its positions are never listed."""
    if isinstance(index, slice):
        span = range(*index.indices(size))
        if ranges and span.step == 1:
            return span
        return np.arange(span.start, span.stop, span.step, dtype=np.int64)
    # (a Scalar has a value and no shape; a Mask has a value flag and a parent)
    if hasattr(index, "value") and getattr(index, "shape", ()) == () and \
            not hasattr(index, "parent"):
        if np.dtype(index.dtype.np_type).kind not in "iu":
            raise TypeError(f"An integer is required for indexing, got {index.dtype}")
        index = index.value
    if is_position(index):
        i = operator.index(index)
        j = i + size if i < 0 else i
        if not 0 <= j < size:
            raise IndexOutOfBound(f"Index out of range: index={i}, size={size}")
        return j
    if hasattr(index, "S") or hasattr(index, "parent") or \
            hasattr(index, "ndim") and not isinstance(index, np.ndarray):  # A.T, expressions
        raise TypeError(f"Invalid type for index: {type(index).__name__}; to mask, use "
                        "x.dup(mask=m.S) or x(mask=m.S) << value")
    if isinstance(index, tuple):
        raise TypeError("An index cannot be a tuple; use a slice, a list or an int")
    try:
        positions = np.asarray(index if isinstance(index, np.ndarray) else list(index))
    except TypeError:
        raise TypeError(f"Invalid type for index: {type(index).__name__}") from None
    if positions.ndim != 1:
        raise TypeError(f"Invalid number of dimensions for index: {positions.ndim}")
    if positions.size == 0:
        return positions.astype(np.int64)
    if positions.dtype.kind not in "iu":
        raise TypeError(f"Invalid dtype for index: {positions.dtype}")
    # (not copied when already int64: the engine only reads an index, and keeps no array
    # that could be the caller's: a region is cut from it, see DistVector.region)
    given = positions.astype(np.int64, copy=False)
    # two reductions decide most indexes: none negative, none too large
    lowest, highest = int(given.min()), int(given.max())
    if lowest >= 0 and highest < size:
        return given
    positions = np.where(given < 0, given + size, given)
    bad = (positions < 0) | (positions >= size)
    if bad.any():
        raise IndexOutOfBound(f"Index out of range: index={given[bad][0]}, size={size}")
    return positions


class LengthMismatch(DimensionMismatch, ValueError):
    """Index and value arrays of different lengths: gblas2d's DimensionMismatch, and the
    ValueError python-graphblas raises."""


# The largest dimension GraphBLAS allows (GrB_INDEX_MAX + 1 in SuiteSparse).
INDEX_LIMIT = 2**60


def index_array(array, name="indices", *, narrow=False):
    """The int64 indices a constructor is given, read as python-graphblas reads them: an array
    of another kind than integers (not empty) is refused, a list is cast (floats truncated,
    an int beyond uint64 is an OverflowError), and an index past the largest dimension is
    InvalidValue (not a negative number wrapped around). ``narrow``: integers of 32 bits or
    fewer are kept as they are (they widen exactly wherever they meet int64), so a large input
    of them is not copied whole."""
    if isinstance(array, np.ndarray):
        if array.size and array.dtype.kind not in "iub":
            raise InvalidValue(f"{name} must be integers, not {array.dtype.name}")
    else:
        given, array = array, np.asarray(array)
        if array.dtype.kind not in "iub":
            # From the Python numbers themselves: [0, 2**64 - 2] would be rounded as floats.
            array = np.array(given, dtype=np.uint64) if array.size else array
    array = array.reshape(-1)
    if array.dtype.kind == "u" and array.size and int(array.max()) >= INDEX_LIMIT:
        raise InvalidValue(f"{name}: {int(array.max())} is larger than the largest dimension "
                           f"({INDEX_LIMIT})")
    if narrow and array.dtype.kind in "iu" and array.dtype.itemsize <= 4:
        return array
    return array.astype(np.int64, copy=False)


def dense_fill(fill_value, dtype, own_type, complete):
    """(fill value, numpy type) of ``to_dense(fill_value, dtype)`` of an object of type
    ``own_type`` (``complete``: with every position stored), as in python-graphblas: the fill
    value's type joins the object's unless ``dtype`` is given or nothing is missing."""
    if fill_value is None and not complete:
        raise TypeError("fill_value must be given in `to_dense` when there are missing values")
    fill = getattr(fill_value, "value", fill_value)
    if dtype is not None or complete or fill is None:
        return fill, lookup_dtype(own_type if dtype is None else dtype).np_type
    try:
        fill_type = getattr(fill_value, "dtype", None) or scalar_dtype(fill)
    except (TypeError, ValueError):
        raise TypeError(f"Bad type for keyword argument `fill_value` in to_dense: "
                        f"{type(fill_value).__name__}.  Literal scalars also accepted.") from None
    return fill, unify(fill_type, own_type).np_type


def order_of(order):
    """``"rowwise"`` or ``"columnwise"`` from python-graphblas's spellings of an order."""
    word = str(order).lower()
    if word in ("c", "row", "rows", "rowwise"):
        return "rowwise"
    if word in ("f", "col", "cols", "column", "columns", "colwise", "columnwise"):
        return "columnwise"
    raise ValueError(f"Bad value for order: {order!r}.  Expected \"rowwise\", "
                     "\"columnwise\", \"rows\", \"columns\", \"C\", or \"F\"")


def checked(grid, distributed, read, fallback):
    """Run a local input check. With distributed input only this rank may see a problem, so
    the outcome is agreed (every rank raises the same error); replicated input raises at once."""
    if not distributed:
        return read()
    out = fallback
    with grid.comm.agreed():
        out = read()
    return out


def values_array(values, dtype):
    """The values of ``from_coo`` as an array, cast by numpy to ``dtype`` if given; Python
    objects that numpy cannot make numbers of are a ValueError (python-graphblas's words).
    Python numbers are read in ``dtype`` at once, as python-graphblas reads them: read first
    as numpy guesses, 2**64 - 2 would become a float and lose its last bits."""
    if dtype is not None and not isinstance(values, np.ndarray) and \
            lookup_dtype(dtype).np_type.kind in "biuf":
        return np.asarray(values, dtype=lookup_dtype(dtype).np_type)
    out = np.asarray(values)
    if out.dtype == object and dtype is not None:
        out = out.astype(lookup_dtype(dtype).np_type)
    if out.dtype == object:
        raise ValueError("object dtype for values is not allowed: give numbers")
    return out


def agreed_dtype(grid, values, count):
    """Collective. The dtype of distributed input: the unified type of the ranks that pass
    entries, so a rank with an empty share does not guess a different type."""
    mine = lookup_dtype(values.dtype).name if count and values.dtype != object else None
    names = [t for t in grid.comm.allgather_object(mine) if t is not None]
    if not names:
        return FP64 if values.dtype == object else lookup_dtype(values.dtype)
    out = lookup_dtype(names[0])
    for name in names[1:]:
        out = unify(out, name)
    return out


class FirstOnlyMonoid:
    """Combine duplicates with a binary op that has no monoid (folded left to right)."""

    def __init__(self, op):
        self.op = op

    def reduceat(self, values, starts):
        ends = np.append(starts[1:], len(values))
        out = values[starts].copy()
        for k in range(1, int((ends - starts).max(initial=1))):
            more = ends - starts > k
            out[more] = self.op.evaluate(out[more], values[starts[more] + k])
        return out
