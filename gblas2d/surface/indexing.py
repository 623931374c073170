"""Indexing a Matrix: python-graphblas's index forms, the extract ``A[rows, cols]`` and the
assign ``C(mask)[rows, cols] << value`` with its row, column and sub-mask forms (GrB_extract,
GrB_assign, GxB_subassign).

Indices are given identically on every rank, as the caller's Python objects. An extract reads
only the block rows its index names and sends each entry found to the rank that owns its place
in the result. An assign sends the value's entries (or, for a scalar, computes them) to the
ranks that own their place in C; each rank then writes inside its own block, with no other
collective than the install's.

The four assign forms differ only in where the mask applies (its *scope*) and in the
coordinates it is given in:

================================  =========================  ==============================
form                              mask shape                 scope (where replace acts)
================================  =========================  ==============================
``C(M)[I, J] << B``               C's                        all of C
``C[I, J](M) << B`` (subassign)   ``(len(I), len(J))``       the region I x J
``C(m)[i, J] << v`` (row assign)  ``C.ncols``                row i
``C[i, J](m) << v``               ``len(J)``                 the region {i} x J
================================  =========================  ==============================

(and likewise for columns). Inside the region, C's entries become the value's (combined with
them by ``accum`` when given); outside the region C is unchanged until the mask is applied.
"""

import numpy as np

from ..distributed import indexing as dist_index
from ..distributed.indexing import (
    EMPTY,
    Source,
    extracted,
    is_one,
    sub_entries,
    to_owner_keys,
)
from ..distributed.vector import piece_at_owners
from ..exceptions import DimensionMismatch
from .expr import MatrixExpression, VectorExpression, check_domain
from .inputs import axis_index, scalar_dtype, type_name
from .vector import Vector

__all__ = ["EMPTY", "assign", "extract", "matrix_index"]


def matrix_index(index, shape):
    """(rows, cols) of a Matrix index ``A[rows, cols]``: each an int (one position), a
    ``range`` (a slice of step 1, kept as one so that ``:`` costs nothing) or an int64 array."""
    if not isinstance(index, tuple) or len(index) != 2:
        raise TypeError("Index for Matrix must be a 2-tuple: A[i, j], A[rows, cols], A[i, :]")
    return (axis_index(index[0], shape[0], ranges=True),
            axis_index(index[1], shape[1], ranges=True))


# ---- extract ----
def extract(a, rows, cols, *, transposed=False):
    """``A[rows, cols]`` (or, with ``transposed``, ``A.T[cols, rows]``) as an expression: a
    Matrix for two position arrays, a Vector when one side is a single position."""
    grid = a.grid
    if not is_one(rows) and not is_one(cols):
        m, n = (len(cols), len(rows)) if transposed else (len(rows), len(cols))

        def compute(mask, opts):
            if not transposed:
                return extracted(a.dist, rows, cols)
            k, l, vals = sub_entries(a.dist, rows, cols)
            return to_owner_keys(grid, m, n, l, k, vals)

        return MatrixExpression("extract", (a, rows, cols), a.dtype, m, n, compute, grid)
    size = len(rows) if is_one(cols) else len(cols)

    def compute_vector(mask, opts):
        k, l, vals = sub_entries(a.dist, rows, cols)
        return piece_at_owners(grid, size, k if is_one(cols) else l, vals, a.dtype.np_type)

    return VectorExpression("extract", (a, rows, cols), a.dtype, size, compute_vector, grid)


# ---- assign ----


def _check_value(c, rows, cols, value):
    """The value made ready (a Matrix, ``A.T``, a Vector or a Python scalar) and its type,
    or the python-graphblas error for its kind and shape."""
    if value is EMPTY:
        return value, c.dtype
    if hasattr(value, "_as_expression"):
        value = value._as_expression()
    shape = tuple(len(x) for x in (rows, cols) if not is_one(x))
    if hasattr(value, "compute"):
        value = value.new()
    elif isinstance(value, (list, tuple, np.ndarray)):
        value = _from_dense(c, value, shape, rows, cols)
    if hasattr(value, "nrows") or hasattr(value, "size"):
        got = value.shape if hasattr(value, "nrows") else (value.size,)
        if len(got) != len(shape):
            want = {0: "a scalar", 1: "a scalar or Vector", 2: "a scalar or Matrix"}[len(shape)]
            raise TypeError(f"Bad type for argument `value`: assigning to "
                            f"C{_show(rows, cols)} takes {want}, got {type_name(value)}")
        if got != shape:
            raise DimensionMismatch(f"value shape (={got}) must equal the shape of the "
                                    f"indexed region (={shape})")
        return value, value.dtype
    value = getattr(value, "value", value)
    if value is None:
        return EMPTY, c.dtype  # an empty Scalar: the region's entries go (unless accum)
    if not np.isscalar(value) or isinstance(value, (str, bytes)):
        raise TypeError(f"Bad type for argument `value`: cannot assign a "
                        f"{type_name(value)} to C{_show(rows, cols)}")
    return value, scalar_dtype(value)


def _from_dense(c, values, shape, rows, cols):
    """Collective. A list or array assigned to a region of ``shape``, as a Matrix or Vector."""
    if not shape:
        raise TypeError(f"Bad type for argument `value`: a list or array cannot be assigned "
                        f"to one element C{_show(rows, cols)}")
    array = np.asarray(values)
    if array.shape != shape:
        raise ValueError(f"shape mismatch: value array of shape {array.shape} could not be "
                         f"broadcast to indexing result of shape {shape}")
    if array.dtype == object:
        raise TypeError("Bad type for argument `value`: an array of Python objects")
    return (type(c) if array.ndim == 2 else Vector).from_dense(array, grid=c.grid)


def _show(rows, cols):
    return "[" + ", ".join("i" if is_one(x) else "I" for x in (rows, cols)) + "]"


def _check_mask(c, rows, cols, mask, submask):
    """The scope of the mask (row and column positions, None meaning all), or the error."""
    if mask is None:
        return None
    vector_mask = hasattr(mask.parent, "size") and not hasattr(mask.parent, "nrows")
    one = is_one(rows) or is_one(cols)
    if submask:
        want = tuple(len(x) for x in (rows, cols) if not is_one(x))
        if vector_mask and len(want) != 1:
            raise TypeError(f"Unable to use Vector mask on "
                            f"{'Matrix' if want else 'single element'} assignment to a Matrix")
        if not want:
            raise TypeError("Single element assign does not accept a submask")
        if vector_mask != (len(want) == 1):
            raise TypeError("Indices for subassign imply Vector submask, but got Matrix mask "
                            "instead")
        if mask.parent.shape != want:
            raise DimensionMismatch(f"Mask.shape (={mask.parent.shape}) must equal the shape "
                                    f"of the indexed region (={want})")
        return rows, cols
    if not vector_mask:
        return None, None
    if not one or (is_one(rows) and is_one(cols)):
        raise TypeError("A Vector mask goes with a row or column assign, C(m)[i, J] << v")
    if is_one(rows):
        if mask.parent.size != c.ncols:
            raise DimensionMismatch(f"Mask.size (={mask.parent.size}) must equal "
                                    f"Matrix.ncols (={c.ncols})")
        return rows, None
    if mask.parent.size != c.nrows:
        raise DimensionMismatch(f"Mask.size (={mask.parent.size}) must equal "
                                f"Matrix.nrows (={c.nrows})")
    return None, cols


def assign(c, index, value, mask, accum, replace, *, submask=False):
    """Collective. ``C(mask)[rows, cols] << value`` (or, with ``submask``, ``C[rows,
    cols](mask) << value``) with ``accum`` and ``replace``, GrB_assign's semantics."""
    rows, cols = matrix_index(index, c.shape)
    value, t_type = _check_value(c, rows, cols, value)
    scope = _check_mask(c, rows, cols, mask, submask)
    if accum is not None:
        check_domain(accum, c.dtype, t_type)
    if value is not EMPTY and not np.isscalar(value):
        # a Matrix or a Vector, or A.T read through A's blocks
        value = Source(value.dist, False) if hasattr(value, "dist") else \
            Source(value.T.dist, True)
    dist_index.assign(c.dist, rows, cols, value, t_type, None if mask is None else mask.dist(),
                      scope, accum, replace)
