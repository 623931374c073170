"""What a Matrix hands out that is not a Matrix: its transpose ``A.T`` (a view that products
read in place) and its index expressions ``A[i, :]``, ``A[:, j]`` and ``A[i, j]``.

They read the matrix through its block and offsets and build expressions; ``matrix.py``
defines the Matrix that makes them.
"""

import operator

import numpy as np

from . import _redistribute as redist
from ._expr import MatrixExpression, ScalarExpression, VectorExpression
from ._infix import Infix, ScalarLike
from ._piece import Piece
from .exceptions import IndexOutOfBound, NotImplementedException
from .grid import collective
from .semirings import monoid, semiring
from .vector import Vector

__all__ = ["MatrixElement", "MatrixIndexExpr", "TransposedMatrix"]


class TransposedMatrix(Infix):
    """``A.T``: used directly by mxv/vxm/mxm (no copy) or materialized by ``.new()``. The
    reductions and element reads go to A along the other axis; the other Matrix methods
    (``apply``, ``select``, the element-wise ones, ``isequal``, ``dup``) run on the transpose,
    formed first (a collective: every rank builds the same expressions)."""

    def __init__(self, matrix):
        self._matrix = matrix
        self.dtype = matrix.dtype
        self.grid = matrix.grid

    @property
    def nrows(self):
        return self._matrix.ncols

    @property
    def ncols(self):
        return self._matrix.nrows

    @property
    def shape(self):
        return (self.nrows, self.ncols)

    @property
    def nvals(self):
        return self._matrix.nvals

    @property
    def T(self):
        return self._matrix

    def mxv(self, other, op=semiring.plus_times):
        """``A.T (+).(x) v`` is ``v (+).(x) A``: no transpose is formed."""
        return self._matrix._product_expr(other, op, "vxm", x_first=False)

    def _vxm_expr(self, vector, op):
        return self._matrix._product_expr(vector, op, "mxv", x_first=True)

    def __matmul__(self, other):
        if isinstance(other, Vector):
            return self.mxv(other)
        return self.new().mxm(other)

    def mxm(self, other, op=semiring.plus_times):
        return self.new().mxm(other, op)

    def reduce_rowwise(self, op=monoid.plus):
        return self._matrix.reduce_columnwise(op)

    def reduce_columnwise(self, op=monoid.plus):
        return self._matrix.reduce_rowwise(op)

    def reduce_scalar(self, op=monoid.plus, *, allow_empty=True):
        return self._matrix.reduce_scalar(op, allow_empty=allow_empty)

    def __getitem__(self, index):
        if not isinstance(index, tuple) or len(index) != 2:
            raise TypeError("Index a Matrix with A[i, :], A[:, j] or A[i, j]")
        return self._matrix[index[1], index[0]]

    def __contains__(self, index):
        return (index[1], index[0]) in self._matrix

    def _materialize_expr(self):
        m = self._matrix
        return MatrixExpression("transpose", (m,), m.dtype, m.ncols, m.nrows,
                                lambda mask, opts: m._transpose_entries(), m.grid,
                                symmetric=m._symmetric)

    @collective
    def new(self, dtype=None, *, mask=None, name=None):
        """Collective. The transpose as a new Matrix (entries travel to their new owners)."""
        return self._materialize_expr().new(dtype, mask=mask, name=name)

    @collective
    def to_coo(self, dtype=None, **kw):
        r, c, v = self._matrix.to_coo(dtype)
        order = np.lexsort((r, c))
        return c[order], r[order], v[order]



def _on_transpose(name):
    def method(self, *args, **kwargs):
        return getattr(self.new(), name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Collective. ``Matrix.{name}`` of the transpose, formed first."
    return method


for _name in ("apply", "select", "ewise_add", "ewise_mult", "ewise_union", "isequal",
              "isclose", "dup", "to_dense", "diag"):
    setattr(TransposedMatrix, _name, _on_transpose(_name))

class MatrixIndexExpr(Infix):
    """``A[i, :]``, ``A[:, j]`` (Vector extracts) and ``A[i, j]`` (one element)."""

    def __init__(self, parent, index):
        if not isinstance(index, tuple) or len(index) != 2:
            raise TypeError("Index a Matrix with A[i, :], A[:, j] or A[i, j]")
        self.parent = parent
        self.index = index

    def _as_expression(self):
        a = self.parent
        i, j = self.index
        full = slice(None)
        if isinstance(j, slice) and j == full and np.ndim(i) == 0 and not isinstance(i, slice):
            axis, k, n, size = "row", int(i), a.nrows, a.ncols
        elif isinstance(i, slice) and i == full and np.ndim(j) == 0 and not isinstance(j, slice):
            axis, k, n, size = "col", int(j), a.ncols, a.nrows
        else:
            raise NotImplementedException("Only A[i, :], A[:, j] and A[i, j] are supported")
        if not 0 <= k < n:
            raise IndexOutOfBound(f"index {k} out of range for dimension {n}")

        def compute(mask, opts):
            r, c, v = a._block.global_coo(a._row_lo, a._col_lo)
            hit = (r == k) if axis == "row" else (c == k)
            positions = c[hit] if axis == "row" else r[hit]
            idx, vals = redist.to_owners(a.grid, a.grid.owner(size, positions), positions,
                                         v[hit])
            lo, hi = a.grid.piece(size)
            order = np.argsort(idx, kind="stable")
            return Piece.from_entries(hi - lo, idx[order] - lo, vals[order], a.dtype.np_type)

        return VectorExpression("extract", (a, axis, k), a.dtype, size, compute, a.grid)

    @collective
    def new(self, dtype=None, *, mask=None, name=None):
        """Collective. The extracted row or column."""
        return self._as_expression().new(dtype, mask=mask, name=name)

    @property
    @collective
    def value(self):
        """Collective. The element A[i, j] or None."""
        a = self.parent
        i, j = (operator.index(t) for t in self.index)
        if not (0 <= i < a.nrows and 0 <= j < a.ncols):
            raise IndexOutOfBound(f"index ({i}, {j}) out of range for shape {a.shape}")
        owner = int(a.grid.entry_owner(a.nrows, a.ncols, [i], [j])[0])
        local = None
        if owner == a.grid.rank:
            key = (i - a._row_lo) * a._block.ncols + (j - a._col_lo)
            keys = a._block.keys()
            pos = np.searchsorted(keys, key)
            if pos < len(keys) and keys[pos] == key:
                local = a._block.values[pos].item()
        return a.grid.comm.bcast_object(local, root=owner)


class MatrixElement(ScalarLike, MatrixIndexExpr):
    """``A[i, j]``: one element; comparing, testing or converting it reads its value."""

    @collective
    def new(self, dtype=None, *, name=None):
        """Collective. The element as a Scalar (empty when no entry is stored)."""
        return ScalarExpression.output_class.from_value(self.value, dtype or self.parent.dtype,
                                                        name=name)
