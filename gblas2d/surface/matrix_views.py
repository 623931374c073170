"""What a Matrix hands out that is not a Matrix: its transpose ``A.T`` (a view that products
read in place) and its index expressions ``A[rows, cols]``, ``A[i, cols]``, ``A[rows, j]`` and
``A[i, j]``.

They read the matrix through its block and offsets and build expressions (``indexing.py``
does the extract and the assign); ``matrix.py`` defines the Matrix that makes them.
"""

import numpy as np

from ..distributed.grid import collective
from ..semirings import monoid, semiring
from .automethods import MatrixAutoMethods, VectorAutoMethods
from .config import computes
from .container import Assigner
from .expr import (
    Mask,
    MatrixExpression,
    ScalarExpression,
    check_options,
    input_mask_of,
    mxv_expression,
    parse_call,
)
from .indexing import extract, is_one, matrix_index
from .infix import Infix, ScalarLike, matmul
from .inputs import order_of
from .shape import diagonal
from .vector import Vector

__all__ = ["MatrixElement", "MatrixIndexExpr", "TransposedMatrix", "index_expr"]


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
        return mxv_expression(self._matrix, other, op, "vxm", x_first=False)

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def mxm(self, other, op=semiring.plus_times):
        return self.new().mxm(other, op)

    def reduce_rowwise(self, op=monoid.plus):
        return self._matrix.reduce_columnwise(op)

    def reduce_columnwise(self, op=monoid.plus):
        return self._matrix.reduce_rowwise(op)

    def reduce_scalar(self, op=monoid.plus, *, allow_empty=True):
        return self._matrix.reduce_scalar(op, allow_empty=allow_empty)

    def __getitem__(self, index):
        return index_expr(self._matrix, index, transposed=True)

    @collective
    def __contains__(self, index):
        """Collective. Whether A.T stores an entry at ``index``, a (row, column) of A.T."""
        element = self[index]
        if not isinstance(element, MatrixElement):
            raise TypeError(f"Invalid index to Matrix contains: {index!r}.  A 2-tuple of "
                            "integers is expected, e.g. `(0, 1) in A.T`")
        return element.new().value is not None

    @collective
    def __iter__(self):
        """Collective. The (row, column) of each entry of A.T."""
        rows, columns, _ = self.to_coo(values=False)
        return zip(rows.flat, columns.flat, strict=True)

    @property
    def name(self):
        return f"{self._matrix.name}.T"

    ndim = 2

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
    def to_coo(self, dtype=None, *, rows=True, columns=True, values=True, sort=True):
        """Collective. A's entries with rows and columns swapped, in A's order (by A.T's
        column), as python-graphblas's ``A.T.to_coo``."""
        r, c, v = self._matrix.to_coo(dtype, rows=columns, columns=rows, values=values,
                                      sort=sort)
        return c, r, v

    @collective
    def to_edgelist(self, dtype=None, *, values=True, sort=True):
        """Collective. ``(edges, values)`` of A.T, as ``Matrix.to_edgelist``."""
        r, c, v = self.to_coo(dtype, values=values, sort=sort)
        return np.column_stack([r, c]), v

    @collective
    def to_dense(self, fill_value=None, dtype=None):
        """Collective. A's dense array, transposed."""
        return self._matrix.to_dense(fill_value, dtype).T

    @collective
    def to_dicts(self, order="rowwise"):
        """Collective. ``{row: {column: value}}`` of A.T: A's by the other order."""
        flipped = "columnwise" if order_of(order) == "rowwise" else "rowwise"
        return self._matrix.to_dicts(flipped)

    @collective
    def to_csr(self, dtype=None, *, sort=True):
        """Collective. A.T's CSR, which is A's CSC."""
        return self._matrix.to_csc(dtype, sort=sort)

    @collective
    def to_csc(self, dtype=None, *, sort=True):
        """Collective. A.T's CSC, which is A's CSR."""
        return self._matrix.to_csr(dtype, sort=sort)

    @collective
    def to_dcsr(self, dtype=None, *, sort=True):
        """Collective. A.T's DCSR, which is A's DCSC."""
        return self._matrix.to_dcsc(dtype, sort=sort)

    @collective
    def to_dcsc(self, dtype=None, *, sort=True):
        """Collective. A.T's DCSC, which is A's DCSR."""
        return self._matrix.to_dcsr(dtype, sort=sort)

    @collective
    def get(self, row, col, default=None):
        """Collective. The value of A.T at (row, col), A's at (col, row), or ``default``."""
        return self._matrix.get(col, row, default)

    def wait(self, how="materialize"):
        """Nothing to wait for (see ``Matrix.wait``)."""
        self._matrix.wait(how)
        return self

    @collective
    def dup(self, dtype=None, *, clear=False, mask=None, name=None):
        """Collective. A.T as a new Matrix (``clear``: an empty one of its shape)."""
        if clear:
            return type(self._matrix)(self.dtype if dtype is None else dtype, self.nrows,
                                      self.ncols, name=name, grid=self.grid)
        return self.new(dtype, mask=mask, name=name)

    @collective
    def diag(self, k=0, dtype=None, *, name=None):
        """Collective. Diagonal ``k`` of A.T, which is A's diagonal ``-k``: no transpose."""
        return diagonal(self._matrix, k, transposed=True).new(dtype, name=name)



def _on_transpose(name):
    def method(self, *args, **kwargs):
        return getattr(self.new(), name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Collective. ``Matrix.{name}`` of the transpose, formed first."
    return method


for _name in ("apply", "select", "ewise_add", "ewise_mult", "ewise_union", "isequal",
              "isclose", "kronecker", "power", "reposition"):
    setattr(TransposedMatrix, _name, _on_transpose(_name))

class MatrixIndexExpr(Infix):
    """``A[rows, cols]``: a submatrix, ``A[i, cols]`` and ``A[rows, j]``: Vectors, and
    ``A[i, j]``: one element (``indexing.py``). Extracted by ``.new()`` or ``<<``; the target
    of ``A[rows, cols] << value`` and of the sub-mask form ``A[rows, cols](mask) << value``.
    ``A.T[...]`` is made with ``transposed``: the positions are A's, the result is A's
    transpose's."""

    def __init__(self, parent, index, *, transposed=False, resolved=None):
        self.parent = parent
        self.index = index
        self.transposed = transposed
        shape = parent.shape[::-1] if transposed else parent.shape
        rows, cols = resolved or matrix_index(index, shape)
        self.rows, self.cols = (cols, rows) if transposed else (rows, cols)

    @property
    def dtype(self):
        return self.parent.dtype

    @property
    def grid(self):
        return self.parent.grid

    def _as_expression(self):
        if is_one(self.rows) and is_one(self.cols):
            raise TypeError("A[i, j] is a scalar; use .value or .new()")
        return extract(self.parent, self.rows, self.cols, transposed=self.transposed)

    @property
    def shape(self):
        return self._as_expression().shape

    @collective
    def new(self, dtype=None, *, mask=None, input_mask=None, name=None):
        """Collective. The extracted submatrix, row or column; ``input_mask`` is a mask on
        the input (A, or a Vector along the extracted row or column) instead of the result."""
        if input_mask is not None:
            if mask is not None:
                raise TypeError("mask and input_mask arguments cannot both be given")
            mask = input_mask_of(self, input_mask)
        return self._as_expression().new(dtype, mask=mask, name=name)

    @collective
    def mask_of_input(self, input_mask):
        """Collective. The result's mask that ``input_mask`` (a Mask on the input) makes: its
        part at the extracted positions."""
        if is_one(self.rows) and is_one(self.cols):
            raise ValueError("input_mask is not allowed when extracting one element")
        source = input_mask.parent
        # in the input's own frame: A.T's rows and columns for A.T[...]
        rows, cols = (self.cols, self.rows) if self.transposed else (self.rows, self.cols)
        nrows, ncols = self.parent.shape[::-1] if self.transposed else self.parent.shape
        if len(source.shape) == 2:
            if source.shape != (nrows, ncols):
                raise ValueError(f"Shape of `input_mask` does not match shape of input: "
                                 f"{source.shape} and {(nrows, ncols)}")
            part = extract(source, rows, cols).new()
        else:
            if not is_one(rows) and not is_one(cols):
                raise TypeError("Got Vector `input_mask` when extracting a submatrix from a "
                                "Matrix")
            # A row runs along the columns, a column along the rows.
            along, length, what = (cols, ncols, "ncols") if is_one(rows) else \
                (rows, nrows, "nrows")
            if source.size != length:
                raise ValueError(f"Size of `input_mask` Vector does not match {what} of "
                                 f"Matrix: {source.size} and {length}")
            part = source[np.asarray(along)].new()
        return Mask(part, input_mask.structure, input_mask.complement)

    def __call__(self, *args, mask=None, accum=None, replace=False, **opts):
        """``A[rows, cols](mask, accum, replace)``: the target of a sub-mask assign, whose mask
        has the region's shape (GxB_subassign)."""
        if self.transposed:
            raise TypeError("'TransposedMatrix' object is not callable: A.T[...](...) cannot "
                            "be assigned; assign to A")
        mask, accum, replace = parse_call(args, mask, accum, replace)
        check_options(opts)
        return Assigner(self.parent, self.index, mask, accum, replace, submask=True)

    def __lshift__(self, value):
        if self.transposed:
            raise TypeError("'TransposedMatrix' object does not support item assignment: "
                            "assign to A, not to its transpose A.T")
        return Assigner(self.parent, self.index) << value

    def update(self, value):
        return self << value


class MatrixElement(ScalarLike, MatrixIndexExpr):
    """``A[i, j]``: one element; comparing, testing or converting it reads its value."""

    @property
    def value(self):
        """Collective. The element A[i, j] or None (autocompute)."""
        computes("value", type(self))
        return self._read()

    @collective
    def _read(self):
        a = self.parent
        i, j = int(self.rows), int(self.cols)
        # compared in the bcast's opening step: ranks that read different elements would
        # each wait for another root
        a.grid.comm.check_replicated("A[i, j]", a, i, j)
        owner = int(a.grid.entry_owner(a.nrows, a.ncols, [i], [j])[0])
        local = None
        if owner == a.grid.rank:
            key = (i - a.row_offset) * a.block.ncols + (j - a.col_offset)
            keys = a.block.keys()
            pos = np.searchsorted(keys, key)
            if pos < len(keys) and keys[pos] == key:
                local = a.block.values[pos].item()
        # the owner's value, the same on every rank: the call ends there
        return a.grid.comm.bcast_object(local, root=owner, final=True)

    @collective
    def new(self, dtype=None, *, input_mask=None, name=None):
        """Collective. The element as a Scalar (empty when no entry is stored)."""
        if input_mask is not None:
            raise ValueError("input_mask is not allowed when extracting one element")
        return ScalarExpression.output_class.from_value(self._read(), dtype or self.parent.dtype,
                                                        name=name)


class _SubmatrixExpr(MatrixAutoMethods, MatrixIndexExpr):
    """``A[rows, cols]``: a lazy Matrix; reading ``nvals``, ``isequal``, ... extracts it."""

    @property
    def output_class(self):
        return type(self.parent)

    @property
    def nrows(self):
        return self.shape[0]

    @property
    def ncols(self):
        return self.shape[1]


class _RowColumnExpr(VectorAutoMethods, MatrixIndexExpr):
    """``A[i, cols]`` or ``A[rows, j]``: a lazy Vector; reading ``nvals``, ... extracts it."""

    output_class = Vector

    @property
    def size(self):
        return self.shape[0]


def index_expr(matrix, index, *, transposed=False):
    """``A[index]`` (``A.T[index]`` with ``transposed``): the element, the row or column, or
    the submatrix that ``index`` names."""
    rows, cols = matrix_index(index, matrix.shape[::-1] if transposed else matrix.shape)
    one_position = is_one(rows) + is_one(cols)
    cls = (_SubmatrixExpr, _RowColumnExpr, MatrixElement)[one_position]
    return cls(matrix, index, transposed=transposed, resolved=(rows, cols))
