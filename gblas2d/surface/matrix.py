"""Distributed sparse Matrix: one 2D block per rank.

Rank (i, j) stores block (i, j): rows of row block i, columns of column block j (see grid.py).
The block (``block.Block``) keeps its entries as CSR with local indices and makes other views
on first use. ``nrows``, ``ncols``, ``dtype`` and ``nvals`` are replicated.
"""

from contextlib import nullcontext

import numpy as np

from ..distributed import redistribute as redist
from ..distributed.grid import collective, default_grid
from ..distributed.matrix import DistMatrix
from ..exceptions import (
    DimensionMismatch,
    DomainMismatch,
    IndexOutOfBound,
    InvalidValue,
    NotImplementedException,
)
from ..semirings import binary, held_as_bitmap, monoid, semiring
from ..semirings.dtypes import FP64, lookup_dtype
from . import build as _build
from . import display as _display
from . import formats as _formats
from . import random as _random
from . import shape as _shape
from .agg import Aggregator, reduction_op
from .automethods import computed
from .container import Container
from .expr import (
    MatrixExpression,
    VectorExpression,
    as_op,
    check_domain,
    check_size,
    mxm_expression,
    mxv_expression,
)
from .indexing import EMPTY, assign
from .infix import ScalarLike, matmul
from .inputs import (
    INDEX_LIMIT,
    FirstOnlyMonoid,
    LengthMismatch,
    agreed_dtype,
    checked,
    dense_fill,
    index_array,
    scalar_dtype,
    type_name,
    values_array,
)
from .matrix_views import TransposedMatrix, index_expr
from .vector import Vector

__all__ = ["Matrix"]

_names = iter(range(10**12))



def _as_one_value(values):
    """``values`` as one broadcast value when every entry holds the same bits, as SuiteSparse
    checks at a build: one pass, and the block holds one value, not an array (a pattern read
    with its ones, a visited set of True). Anything else as it is."""
    if values.strides == (0,) or not values.size or values.itemsize not in (1, 2, 4, 8) or \
            not values.flags.c_contiguous:
        return values
    bits = values.view(f"u{values.itemsize}")
    if (bits == bits[0]).all():
        return np.broadcast_to(values[:1], values.shape)
    return values


def _one_value(grid, values, distributed):
    """Collective when ``distributed``. The one value every entry has, as a 1-array, when the
    input's values are one broadcast value on every rank; else None. Distributed shares are
    each rank's own, so the ranks agree (one small allreduce) that their values are the same."""
    one = values.strides == (0,) and values.size > 0 and values.dtype.kind in "biufc" and \
        values.itemsize <= 16
    if not distributed:
        return values[:1] if one else None
    if one:
        word = np.zeros(16, dtype=np.uint8)
        word[:values.itemsize] = np.ascontiguousarray(values[:1]).view(np.uint8)
        # The value's bytes as four 32-bit lanes and their negations: one "min" allreduce
        # gives the smallest and the largest of each lane, equal where every rank agrees.
        lanes = word.view(np.uint32).astype(np.int64)
        mine = np.concatenate([[0], lanes, -lanes])
    elif values.size:
        mine = np.zeros(9, dtype=np.int64)
        mine[0] = -1  # values of its own: no one value, whatever the others say
    else:
        mine = np.full(9, 1 << 32, dtype=np.int64)
        mine[0] = 0  # an empty share has no say
    low = grid.comm.allreduce(mine, "min")
    if low[0] < 0 or not np.array_equal(low[1:5], -low[5:]):
        return None
    return low[1:5].astype(np.uint32).view(np.uint8)[:values.itemsize].view(values.dtype)


class Matrix(Container):
    """A distributed sparse matrix.

    Parameters
    ----------
    dtype : dtype-like, default FP64
    nrows, ncols : int
    name : str, optional
    grid : Grid, optional (the default grid)

    Examples
    --------
    >>> A = Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3)
    >>> A.nvals, A.shape
    (2, (3, 3))
    """

    def __init__(self, dtype=FP64, nrows=0, ncols=0, *, name=None, grid=None):
        self.grid = grid or default_grid()
        self.dtype = lookup_dtype(dtype)
        nrows, ncols = int(nrows), int(ncols)
        if not (0 <= nrows <= INDEX_LIMIT and 0 <= ncols <= INDEX_LIMIT):
            raise InvalidValue(f"Matrix dimensions must be in [0, 2**60], got {nrows}x{ncols}")
        self.grid.comm.check_replicated("Matrix", str(self.dtype), nrows, ncols)
        # everything distributed about it: the block, where it starts, nvals, the write
        self._d = DistMatrix(self.grid, nrows, ncols, self.dtype)
        self.name = name or f"M_{next(_names)}"

    # ---- metadata ----
    @property
    def nrows(self):
        return self._d.nrows

    @property
    def ncols(self):
        return self._d.ncols

    @property
    def shape(self):
        return (self._d.nrows, self._d.ncols)

    @property
    def nvals(self):
        return self._d.nvals

    @property
    def dist(self):
        """The 2D layer's matrix behind this one (``distributed.matrix.DistMatrix``)."""
        return self._d

    @property
    def _symmetric(self):
        return self._d.is_symmetric

    @property
    def T(self):
        return TransposedMatrix(self)

    @collective
    def layout(self, *, png=None):
        """Collective. Which rank holds which block and how many entries, as text: the grid,
        the row and column ranges of its blocks, each rank's entries, and the balance.

        Parameters
        ----------
        png : str or path-like, optional
            Also draw it as a heat map into this PNG file: the R x C grid of blocks colored by
            each rank's entries, every cell labelled with its rank and count, the axes with the
            blocks' row and column ranges, the balance (max / mean) in the title. Only rank 0
            writes the file; every rank returns the same text. Needs matplotlib
            (``pip install 'gblas2d[plot]'``; ImportError on every rank without it).

        Examples
        --------
        >>> A = Matrix.from_coo([0, 1], [1, 0], 1.0, nrows=2, ncols=2, name="A")
        >>> print(A.layout())
        A: 2 x 2, 2 entries on a 1x1 grid
                   cols 0..1
        rows 0..1  rank 0: 2
        balance (max / mean entries a rank) 1.00
        """
        return _display.layout(self, png)

    # ---- this rank's part: what the products, the exchange and the backends read ----
    @property
    def block(self):
        """This rank's ``Block`` (local CSR of rows of row block i, columns of column block j);
        read-only: blocks never change, an operation installs a new one."""
        return self._d.block

    @property
    def row_offset(self):
        """Global index of this rank's first block row."""
        return self._d.row_offset

    @property
    def col_offset(self):
        """Global index of this rank's first block column."""
        return self._d.col_offset

    @property
    def is_symmetric(self):
        """Whether this matrix is known to equal its transpose (False: not known). A matrix
        from a symmetric generator or file is, and so are ``apply``, value selects and
        element-wise results of such matrices; any write forgets it."""
        return self._d.is_symmetric

    def mark_symmetric(self):
        """Declare that this matrix equals its transpose, which the caller guarantees (the
        generators and readers do for symmetric input). ``A.T`` then moves no entries. Local:
        every rank calls it, or none."""
        self._d.mark_symmetric()

    def local_block(self):
        """(first global row, first global column, local rows, local cols, values); no copy.
        A matrix whose entries share one value (a pattern) holds it once: its values are then
        a read-only broadcast array."""
        d = self._d
        return d.row_offset, d.col_offset, d.block.rows, d.block.cols, d.block.values

    # ---- construction ----
    @classmethod
    @collective
    def from_coo(cls, rows, columns, values=1.0, dtype=None, *, nrows=None, ncols=None,
                 dup_op=None, name=None, distributed=False, grid=None):
        """Collective. Build from COO arrays.

        With ``distributed=False`` every rank passes the same arrays (each keeps its block's
        entries, no communication); with ``True`` each rank passes its share and entries travel
        to their owners. Duplicates are combined with ``dup_op`` or rejected (InvalidValue).
        """
        grid = grid or default_grid()

        def read_input():
            r = index_array(rows, "row indices", narrow=True)
            c = index_array(columns, "column indices", narrow=True)
            for arr, given, what in ((r, nrows, "row"), (c, ncols, "column")):
                if given is None and not arr.size and not distributed:
                    raise InvalidValue(f"No {what} indices provided. Unable to infer "
                                      f"n{what[:3]}s.")
            v = values_array(values, dtype)
            if r.shape != c.shape or v.ndim and len(v) != r.size:
                raise LengthMismatch(f"`rows` and `columns` and `values` lengths must match: "
                                     f"{r.size}, {c.size}, {len(v) if v.ndim else 1}")
            return r, c, v

        empty = np.empty(0, np.int64)
        rows, columns, values = checked(grid, distributed, read_input,
                                         (empty, empty, np.empty(0)))
        if not distributed:
            grid.comm.check_replicated("Matrix.from_coo", rows, columns, values, dtype, nrows,
                                       ncols)
        if values.ndim == 0 and dup_op is None:
            dup_op = binary.any  # one value for all: repeats are one entry
        if dtype is None and distributed:
            dtype = agreed_dtype(grid, values, rows.size)
        dtype = lookup_dtype(dtype if dtype is not None else values.dtype)
        values = checked(grid, distributed, lambda: np.broadcast_to(
            values.astype(dtype.np_type, copy=False), rows.shape), np.empty(0, dtype.np_type))
        values = _as_one_value(values)
        dims = [nrows, ncols]
        for k, (given, arr) in enumerate(((nrows, rows), (ncols, columns))):
            if given is None:
                top = int(arr.max()) + 1 if arr.size else 0
                dims[k] = int(grid.comm.allreduce(np.array([top]), "max")[0]) if distributed \
                    else top
        nrows, ncols = dims
        out = cls(dtype, nrows, ncols, name=name, grid=grid)
        # Distributed input: only this rank may see a bad index, so the outcome is agreed.
        with grid.comm.agreed() if distributed else nullcontext():
            for arr, n, what in ((rows, nrows, "row"), (columns, ncols, "column")):
                if arr.size and (arr.min() < 0 or arr.max() >= n):
                    bad = arr[(arr < 0) | (arr >= n)][0]
                    raise IndexOutOfBound(f"{what} index {bad} out of range for Matrix of "
                                          f"shape {nrows}x{ncols}")
        # One value for every entry (a pattern) stays one value: it does not travel with the
        # entries, and no array of it is made on the way (8 bytes an entry).
        iso = _one_value(grid, values, distributed) if grid.nprocs > 1 else None
        carried = () if iso is not None else (values,)
        # Each entry's key in its block, made a chunk at a time: with the input given alike
        # everywhere each rank keeps its own; else they travel to their owners.
        place = redist.to_blocks if distributed else redist.own_blocks
        keys, *got = place(grid, nrows, ncols, rows, columns, *carried)
        rows = columns = carried = None
        values = np.broadcast_to(iso, keys.shape) if iso is not None else got[0]
        entries = [keys, values]
        keys = values = got = None
        out._set_from_entries(entries, dup_op)
        return out

    @classmethod
    @collective
    def from_vectors(cls, rows, columns, values=1.0, dtype=None, *, nrows=None, ncols=None,
                     dup_op=None, name=None):
        """Collective. Build from distributed Vectors: the entries of ``rows`` and ``columns``
        at one position k (and of ``values`` there, when it is a Vector) give one entry
        (row, column, value), as SuiteSparse's ``GxB_Matrix_build_Vector`` does.

        Each rank sends only its own pieces to the entries' owners, so no rank ever holds a
        whole vector (``from_coo`` with replicated input would). ``rows`` and ``columns`` must
        hold entries at the same positions; an extension python-graphblas lacks.

        Examples
        --------
        >>> import gblas2d as gb
        >>> f = gb.Vector.from_coo([0, 1, 2], [2, 2, 0])
        >>> u = f.apply(gb.indexunary.rowindex, 0).new()
        >>> gb.Matrix.from_vectors(u, f, 1, nrows=3, ncols=3).to_coo()[1].tolist()
        [2, 2, 0]
        """
        vectors = [rows, columns] + ([values] if hasattr(values, "local_piece") else [])
        for v in vectors:
            if not isinstance(v, Vector):
                raise TypeError(f"from_vectors expects Vectors, got {type_name(v)}")
            check_size("from_vectors", v.size, rows.size, "Vector.size", "rows.size")
        for v in (rows, columns):
            if v.dtype.np_type.kind not in "iu":
                raise DomainMismatch(f"row and column indices must be integers, got {v.dtype}")
        grid = rows.grid
        _, at, r = rows.local_piece()
        _, col_at, c = columns.local_piece()
        vals = values
        if isinstance(values, Vector):
            _, val_at, vals = values.local_piece()
            dtype = dtype or values.dtype
        with grid.comm.agreed():
            if not np.array_equal(at, col_at) or (isinstance(values, Vector) and
                                                  not np.array_equal(at, val_at)):
                raise InvalidValue("from_vectors: rows, columns (and a values Vector) must "
                                   "hold entries at the same positions")
        return cls.from_coo(r, c, vals, dtype, nrows=nrows, ncols=ncols, dup_op=dup_op,
                            name=name, distributed=True, grid=grid)

    def _set_from_entries(self, entries, dup_op):
        """Collective. Fill the block from local entry keys and values (``entries``, a list
        this method empties: ``DistMatrix.fill``), duplicates combined with ``dup_op``."""
        dup = None if dup_op is None else as_op(dup_op, "binary")
        self._d.fill(entries, dup, None if dup is None else dup.monoid or FirstOnlyMonoid(dup))

    @classmethod
    @collective
    def from_dense(cls, values, missing_value=None, *, dtype=None, name=None, grid=None):
        """Collective. Build from a 2D array given identically on every rank."""
        values = np.asarray(values)
        if values.ndim == 0:
            raise TypeError("Matrix.from_dense needs an array; for one value everywhere use "
                            "Matrix.from_scalar")
        if values.ndim != 2:
            raise ValueError(f"A 2d array is required to create a dense Matrix; the array must "
                             f"be 2d, got shape {values.shape}")
        keep = np.ones(values.shape, bool) if missing_value is None else values != missing_value
        r, c = np.nonzero(keep)
        return cls.from_coo(r, c, values[r, c], dtype=dtype or values.dtype,
                            nrows=values.shape[0], ncols=values.shape[1], name=name, grid=grid)

    @classmethod
    @collective
    def from_scalar(cls, value, nrows, ncols, dtype=None, *, name=None, grid=None):
        """Collective. Every position holds ``value``; each rank builds its own block, nothing
        travels."""
        value = getattr(value, "value", value)
        out = cls(dtype or scalar_dtype(value), nrows, ncols, name=name, grid=grid)
        out._d.fill_value(value)
        return out

    @collective
    def dup(self, dtype=None, *, clear=False, mask=None, name=None):
        """Collective. A copy (optionally cast, emptied or masked)."""
        out = Matrix(dtype or self.dtype, self.nrows, self.ncols, name=name, grid=self.grid)
        if not clear:
            out(mask=mask) << self
        return out

    def clear(self):
        """Remove every entry."""
        self._d.clear()

    # ---- output ----
    @collective
    def to_coo(self, dtype=None, *, rows=True, columns=True, values=True, sort=True):
        """Collective. (rows, columns as uint64, values), sorted by (row, column), on every rank."""
        d = self._d
        r, c, v = d.block.global_coo(d.row_offset, d.col_offset)
        comm = self.grid.comm
        all_r = np.concatenate(comm.allgatherv(r))
        all_c = np.concatenate(comm.allgatherv(c))
        all_v = np.concatenate(comm.allgatherv(v.astype(
            (lookup_dtype(dtype) if dtype else self.dtype).np_type))) if values else None
        if sort:
            order = np.lexsort((all_c, all_r))
            all_r, all_c = all_r[order], all_c[order]
            all_v = None if all_v is None else all_v[order]
        return (all_r.astype(np.uint64) if rows else None,
                all_c.astype(np.uint64) if columns else None, all_v if values else None)

    @collective
    def to_dense(self, fill_value=None, dtype=None):
        """Collective. A full 2D numpy array (``fill_value`` required if entries are missing,
        its type joining the Matrix's unless ``dtype`` is given)."""
        fill, np_type = dense_fill(fill_value, dtype, self.dtype,
                                   self.nvals == self.nrows * self.ncols)
        r, c, v = self.to_coo(dtype)
        out = np.full(self.shape, 0 if fill is None else fill, dtype=np_type)
        out[r.astype(np.int64), c.astype(np.int64)] = v
        return out

    # ---- the hooks of Container's operations (``container.py``) ----
    def _local_entries(self):
        return self._d.block.keys(), self._d.block.values

    def _local_part(self):
        return self._d.block

    def _local_values(self):
        return self._d.block.values

    def _entry_positions(self):
        d = self._d
        return d.block.rows + d.row_offset, d.block.cols + d.col_offset

    def _lazy(self, method, args, dtype, compute, *, symmetric=False, rebind=None):
        return MatrixExpression(method, args, dtype, self.nrows, self.ncols, compute,
                                self.grid, rebind=rebind,
                                symmetric=self._d.is_symmetric and symmetric)

    # ---- assignment ----
    def _check_mask(self, mask):
        if isinstance(mask.parent, Vector):
            return  # for a row or column assign, C(m)[i, J]: checked there (indexing.py)
        if not isinstance(mask.parent, Matrix):
            raise TypeError(f"Mask object must be type Matrix, got {type(mask.parent).__name__}")
        if mask.parent.shape != self.shape:
            raise DimensionMismatch(f"Mask.shape (={mask.parent.shape}) must equal "
                                    f"Matrix.shape (={self.shape})")

    def _result_of(self, other, mask, accum, replace):
        """The expression whose result ``self(mask, accum, replace) << other`` writes, its
        shape checked; None when ``other`` is a scalar, assigned here."""
        if mask is not None and isinstance(mask.parent, Vector):
            raise TypeError("Mask object must be type Matrix; a Vector mask goes with a row or "
                            "column assign, C(m)[i, :] << v")
        if hasattr(other, "_as_expression"):
            other = other._as_expression()
        if isinstance(other, TransposedMatrix):
            other = other._materialize_expr()
        if isinstance(other, Matrix):
            other = other._identity_expr()
        if not isinstance(other, MatrixExpression):
            self._assign_scalar(other, mask, accum, replace)
            return None
        if other.shape != self.shape:
            raise DimensionMismatch(f"input shape (={other.shape}) must equal output "
                                    f"Matrix.shape (={self.shape})")
        return other

    def _write(self, result, t, mask, accum, replace):
        """Collective. ``C<M, replace> = accum(C, T)`` with this rank's block ``t`` of the
        result (a Block, or keys and values), then the agreed nvals (``DistMatrix.write``)."""
        self._d.write(t, None if mask is None else mask.block_mask(), accum, replace,
                      symmetric=result.symmetric)

    def _identity_expr(self):
        # Blocks never change, so the expression holds this one, not a copy of its arrays.
        snapshot = self._d.block
        return MatrixExpression("identity", (self,), self.dtype, self.nrows, self.ncols,
                                lambda mask, opts: snapshot, self.grid,
                                symmetric=self._d.is_symmetric)

    def _assign_scalar(self, value, mask, accum, replace):
        """``A(mask) << scalar``: the scalar at every position the (structural) mask allows."""
        value = getattr(value, "value", value)
        if mask is None or mask.complement:
            raise NotImplementedException("Assigning a scalar to a Matrix needs a "
                                          "non-complemented mask")
        t_type = scalar_dtype(value)
        if accum is not None:
            check_domain(accum, self.dtype, t_type)
        if not replace:
            # T is the scalar at every position the mask allows, so the write sets those
            # positions and leaves the rest (a visited set's ``V(F.S) << True``): pending.
            self._d.set_under(mask.block_mask(), value, t_type.np_type, accum)
            return
        keys = mask.block_mask().keys()
        snapshot = (keys, np.full(len(keys), value, dtype=t_type.np_type))
        expr = MatrixExpression("assign", (self,), t_type, self.nrows, self.ncols,
                                lambda mask, opts: snapshot, self.grid)
        self._update(expr, mask, accum, replace, {})

    def __getitem__(self, index):
        return index_expr(self, index)

    def __setitem__(self, index, value):
        self()[index] << value

    def _assign(self, index, value, mask, accum, replace):
        """Collective. ``C(mask, accum, replace)[rows, cols] << value``: GrB_assign, with the
        row and column forms (``indexing.py``)."""
        assign(self, index, value, mask, accum, replace)

    def _subassign(self, index, value, mask, accum, replace):
        """Collective. ``C[rows, cols](mask, accum, replace) << value``: GxB_subassign, whose
        mask has the region's shape (``indexing.py``)."""
        assign(self, index, value, mask, accum, replace, submask=True)

    @collective
    def __delitem__(self, index):
        """Collective. Remove the entries stored at ``index``: one element (``del A[i, j]``),
        a row, a column or a submatrix."""
        self.grid.comm.check_replicated("del", self, index)
        assign(self, index, EMPTY, None, None, False)

    @collective
    def get(self, row, col, default=None):
        """Collective. The value at (row, col), or ``default`` when none is stored."""
        element = self[row, col]
        if not isinstance(element, ScalarLike):
            raise ValueError("Bad row, col arguments in Matrix.get(...).  Indices should get a "
                             "single element, which will be extracted as a Python scalar.")
        value = element.new().value
        return default if value is None else value

    @property
    def ndim(self):
        return 2

    def wait(self, how="materialize"):
        """Merge the writes of a few entries left pending (``Block.upserted``) into this rank's
        storage, as python-graphblas's ``wait`` finishes pending work. Local: the entries are
        the same before and after."""
        if how not in ("materialize", "complete"):
            raise ValueError(f'`how` argument must be "materialize" or "complete"; got {how!r}')
        self._d.block.settle()
        return self

    @collective
    def __iter__(self):
        """Collective. The (row, column) of each stored entry, by row (``list(A)``, as in
        python-graphblas); ``(i, j) in A`` tests one position."""
        rows, columns, _ = self.to_coo(values=False)
        return zip(rows.flat, columns.flat, strict=True)

    # ---- element-wise ----
    def _ewise_local(self, other, binop, kind, types, out_type, defaults):
        return self._d.ewise(other._d, binop, kind, types, out_type, defaults)

    def __matmul__(self, other):
        """``A @ v`` (``mxv``) or ``A @ B`` (``mxm``), lazy: over plus_times, or
        ``semiring.min_plus(A @ B)``."""
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def _select_values(self, op, thunk):
        return self._d.select_values(op, thunk)

    def _select_positions(self, op, thunk):
        return self._d.select_positions(op, thunk)

    # ---- reductions ----
    def _reduce_axis(self, op, axis):
        mon = as_op(op, "monoid")
        out_type = check_domain(mon, self.dtype)
        a = self
        n = self.nrows if axis == "row" else self.ncols

        def compute(mask, opts):
            return a._d.reduced(axis, mon, out_type, bitmap=axis == "row" and held_as_bitmap(
                a.shape, a.nvals))

        name = "reduce_rowwise" if axis == "row" else "reduce_columnwise"
        return VectorExpression(name, (self, mon), out_type, n, compute, self.grid)

    def reduce_rowwise(self, op=monoid.plus):
        """Collective when computed. w(i) = (+)_j A(i, j); a fold along row_comm. ``op``: a
        monoid or an aggregator (``gb.agg``), or a string naming one (``"count"``)."""
        op = reduction_op(op)
        if isinstance(op, Aggregator):
            return op.reduce(self, "reduce_rowwise")
        return self._reduce_axis(op, "row")

    def reduce_columnwise(self, op=monoid.plus):
        """Collective when computed. w(j) = (+)_i A(i, j); a fold along col_comm."""
        op = reduction_op(op)
        if isinstance(op, Aggregator):
            return op.reduce(self, "reduce_columnwise")
        return self._reduce_axis(op, "col")

    def reduce_scalar(self, op=monoid.plus, *, allow_empty=True):
        """Collective when computed. (+) of every entry, as a Scalar expression."""
        if isinstance(op, Aggregator):
            return op.reduce(self, "reduce_scalar", allow_empty=allow_empty)
        return self._reduce_all(op, "reduce_scalar", allow_empty)

    # ---- products ----
    def mxv(self, other, op=semiring.plus_times):
        """``A (+).(x) v``: y(i) = (+)_k A(i, k) (x) v(k). The engine picks push or pull."""
        return mxv_expression(self, other, op, "mxv", x_first=False)

    def mxm(self, other, op=semiring.plus_times):
        """``A (+).(x) B``: C(i, j) = (+)_k A(i, k) (x) B(k, j), by gathering B's rows for a
        tall and skinny B or by SUMMA stages for square operands (``distributed/products.py``)."""
        if isinstance(other, TransposedMatrix):
            other = other.new()
        return mxm_expression(self, other, op)

    def _transpose_entries(self):
        """Collective. This rank's block of A^T, a Block (``DistMatrix.transposed_block``)."""
        return self._d.transposed_block()

    # ---- shape (shape.py) ----
    def kronecker(self, other, op=binary.times):
        """``C(ia*mB + ib, ja*nB + jb) = A(ia, ja) op B(ib, jb)``; ``op`` a BinaryOp or Monoid.
        Collective when computed: B's blocks pass round the ranks, one a stage."""
        other = computed(other)
        if isinstance(other, TransposedMatrix):
            other = other.new()  # formed first (collective), as the element-wise methods do
        return _shape.kronecker(self, other, op)

    @collective
    def diag(self, k=0, dtype=None, *, name=None):
        """Collective. Diagonal ``k`` as a new Vector: ``d(i) = A(i, i + k)`` (``A(i - k, i)``
        for ``k < 0``), as python-graphblas's ``Matrix.diag``."""
        return _shape.diagonal(self, k).new(dtype, name=name)

    def power(self, n, op=semiring.plus_times):
        """``A^n`` over a semiring by repeated squaring; n = 0 gives the multiply's identity
        on the diagonal. Collective when computed."""
        return _shape.power(self, n, op)

    @collective
    def resize(self, nrows, ncols):
        """Collective. Change the shape in place: entries outside it are dropped, the others
        move to their owners under the new shape."""
        nrows, ncols = _shape.dimension(nrows, "nrows"), _shape.dimension(ncols, "ncols")
        self._d.resized(nrows, ncols, _shape.resized_block(self, nrows, ncols))

    @collective
    def build(self, rows, columns, values, *, dup_op=None, clear=False, nrows=None,
              ncols=None):
        """Collective. ``from_coo``'s entries into this Matrix, which must be empty
        (``clear=True`` empties it first; ``nrows``, ``ncols`` resize it)."""
        shape = None if nrows is None and ncols is None else \
            (self.nrows if nrows is None else nrows, self.ncols if ncols is None else ncols)
        _build.build(self, (rows, columns, values), dup_op, clear, shape)

    @collective
    def setdiag(self, values, k=0, *, mask=None, accum=None):
        """Collective. ``A(i, i + k) = values(i)``: a scalar, a Vector or an array of the
        diagonal's length (``build.py``)."""
        _build.setdiag(self, values, k, mask, accum)

    def reposition(self, row_offset, column_offset, *, nrows=None, ncols=None):
        """``C(i + row_offset, j + column_offset) = A(i, j)`` in a Matrix of ``nrows`` x
        ``ncols`` (A's shape by default), entries moved outside dropped: a lazy expression,
        collective when computed (one alltoallv)."""
        return _shape.reposition(self, (row_offset, column_offset), (
            self.nrows if nrows is None else nrows, self.ncols if ncols is None else ncols))

    # CSR, CSC, DCSR, DCSC, nested dicts and edge lists in and out, whole on every rank
    # (formats.py)
    from_coo_chunks = classmethod(_formats.from_coo_chunks)
    from_csr = classmethod(_formats.from_csr)
    from_csc = classmethod(_formats.from_csc)
    from_dcsr = classmethod(_formats.from_dcsr)
    from_dcsc = classmethod(_formats.from_dcsc)
    from_dicts = classmethod(_formats.from_dicts)
    from_edgelist = classmethod(_formats.from_edgelist)
    to_csr, to_csc = _formats.to_csr, _formats.to_csc
    to_dcsr, to_dcsc = _formats.to_dcsr, _formats.to_dcsc
    to_dicts, to_edgelist = _formats.to_dicts, _formats.to_edgelist
    # full of random values the same at any rank count (random.py)
    random = classmethod(_random.matrix_random)


MatrixExpression.output_class = Matrix
