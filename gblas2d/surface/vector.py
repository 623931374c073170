"""Distributed sparse Vector: one contiguous piece per rank.

Each rank stores its piece as a ``Piece`` (``local/piece.py``): sorted entries while it is sparse, a
bitmap once it is dense, so an operation on k entries costs O(k) locally. ``size``, ``dtype``
and ``nvals`` are replicated and kept current by the collective operations that produce the
vector, so reading them never communicates.
"""

from contextlib import nullcontext

import numpy as np

from ..distributed import redistribute as redist
from ..distributed import vector as dist_vector
from ..distributed.grid import collective, default_grid
from ..distributed.vector import DistVector
from ..exceptions import IndexOutOfBound, InvalidValue
from ..semirings import binary, monoid, semiring
from ..semirings import select as builtin_select
from ..semirings.dtypes import FP64, lookup_dtype
from . import build as _build
from . import random as _random
from . import shape as _shape
from .agg import Aggregator
from .automethods import computed
from .container import Container
from .expr import (
    MatrixExpression,
    ScalarExpression,
    VectorExpression,
    as_op,
    check_domain,
    check_size,
    mxv_expression,
)
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
from .vector_views import VectorElement, VectorExtract, one_position, positions_of

__all__ = ["Vector"]

_names = iter(range(10**12))


class Vector(Container):
    """A distributed sparse vector.

    Parameters
    ----------
    dtype : dtype-like, default FP64
    size : int
    name : str, optional
    grid : Grid, optional (the default grid)

    Examples
    --------
    >>> v = Vector.from_coo([0, 3], [1.0, 2.0], size=5)
    >>> v.nvals, v.size
    (2, 5)
    """

    def __init__(self, dtype=FP64, size=0, *, name=None, grid=None):
        self.grid = grid or default_grid()
        self.dtype = lookup_dtype(dtype)
        size = int(size)
        if not 0 <= size <= INDEX_LIMIT:
            raise InvalidValue(f"Vector size must be in [0, 2**60], got {size}")
        self.grid.comm.check_replicated("Vector", str(self.dtype), size)
        # everything distributed about it: the piece, where it starts, nvals, the write
        self._d = DistVector(self.grid, size, self.dtype)
        self.name = name or f"v_{next(_names)}"

    # ---- metadata (replicated, no communication) ----
    @property
    def size(self):
        return self._d.size

    @property
    def shape(self):
        return (self._d.size,)

    @property
    def nvals(self):
        return self._d.nvals

    # ---- this rank's part: what the products, the exchange and the masks read ----
    @property
    def piece(self):
        """This rank's ``Piece`` (sparse or bitmap) where it is: in host memory, or on the
        device whose kernel made it (``Piece.xp``); read it, do not change it."""
        return self._d.piece

    def host_piece(self):
        """This rank's piece in host memory, for what reads it with numpy or sends it: the
        piece, or the copy up of one a device kernel left there (``Piece.on_host``)."""
        return self._d.host_piece()

    @property
    def offset(self):
        """Global index of this rank's first position."""
        return self._d.offset

    @property
    def dist(self):
        """The 2D layer's vector behind this one (``distributed.vector.DistVector``)."""
        return self._d

    def local_piece(self):
        """(first global index, sorted local positions, values) of this rank's entries.

        O(local nvals); no copy while the piece is sparse."""
        return (self._d.offset, *self.host_piece().entries())

    # ---- construction ----
    @classmethod
    @collective
    def from_coo(cls, indices, values=1.0, dtype=None, *, size=None, dup_op=None, name=None,
                 distributed=False, grid=None):
        """Collective. Build from index/value arrays.

        With ``distributed=False`` every rank passes the same arrays; with ``True`` each rank
        passes its share and entries travel to their owners. Duplicates are combined with
        ``dup_op`` or rejected with InvalidValue (a ValueError); one scalar value is every
        entry's, and its duplicates are one entry, as in python-graphblas. ``size`` defaults to
        the largest index + 1.
        """
        grid = grid or default_grid()

        def read_input():
            idx = index_array(indices)
            if size is None and not idx.size and not distributed:
                raise InvalidValue("No indices provided. Unable to infer size.")
            vals = values_array(values, dtype)
            if vals.ndim and len(vals) != idx.size:
                raise LengthMismatch(f"`indices` and `values` lengths must match: {idx.size} "
                                     f"!= {len(vals)}")
            return idx, vals

        indices, values = checked(grid, distributed, read_input,
                                   (np.empty(0, np.int64), np.empty(0)))
        if not distributed:
            grid.comm.check_replicated("Vector.from_coo", indices, values, dtype, size)
        if values.ndim == 0 and dup_op is None:
            dup_op = binary.any  # one value for all: repeats are one entry
        if dtype is None and distributed:
            dtype = agreed_dtype(grid, values, indices.size)
        elif dtype is None:
            dtype = lookup_dtype(values.dtype) if values.dtype != object else FP64
        dtype = lookup_dtype(dtype)
        values = checked(grid, distributed, lambda: np.broadcast_to(
            values.astype(dtype.np_type), indices.shape), np.empty(0, dtype.np_type))
        if size is None:
            top = indices.max() + 1 if indices.size else 0
            size = int(grid.comm.allreduce(np.array([top]), "max")[0]) if distributed else top
        out = cls(dtype, size, name=name, grid=grid)
        # Distributed input: only this rank may see a bad index, so the outcome is agreed.
        with grid.comm.agreed() if distributed else nullcontext():
            if indices.size and (indices.min() < 0 or indices.max() >= size):
                bad = indices[(indices < 0) | (indices >= size)][0]
                raise IndexOutOfBound(f"index {bad} out of range for Vector of size {size}")
        if distributed:
            owners = grid.owner(size, indices)
            indices, values = redist.to_owners(grid, owners, indices, values)
        else:
            lo = out.offset
            keep = (indices >= lo) & (indices < lo + out._d.local_size)
            indices, values = indices[keep], values[keep]
        dup = None if dup_op is None else as_op(dup_op, "binary")
        out._d.fill(indices - out.offset, values,
                    None if dup is None else dup.monoid or FirstOnlyMonoid(dup))
        return out

    @classmethod
    @collective
    def from_dense(cls, values, missing_value=None, *, dtype=None, name=None, grid=None):
        """Collective. Build from a full array given identically on every rank."""
        values = np.asarray(values)
        if values.ndim == 0:
            raise TypeError("Vector.from_dense needs an array; for one value everywhere use "
                            "Vector.from_scalar")
        if values.ndim != 1:
            raise ValueError(f"Vector.from_dense: the array must be 1d, got shape "
                             f"{values.shape}")
        keep = np.ones(values.size, bool) if missing_value is None else values != missing_value
        idx = np.flatnonzero(keep)
        return cls.from_coo(idx, values[idx], dtype=dtype or lookup_dtype(values.dtype),
                            size=values.size, name=name, grid=grid)

    @classmethod
    @collective
    def from_dict(cls, d, dtype=None, *, size=None, name=None, grid=None):
        """Collective. From ``{index: value}`` given identically on every rank."""
        return cls.from_coo(np.array(list(d), dtype=np.int64), np.array(list(d.values())),
                            dtype=dtype, size=(max(d) + 1 if d else 0) if size is None else size,
                            name=name, grid=grid)

    @collective
    def to_dict(self):
        """Collective. ``{index: value}`` on every rank: the whole vector, gathered."""
        idx, values = self.to_coo()
        return dict(zip(idx.tolist(), values.tolist(), strict=True))

    @property
    def ndim(self):
        return 1

    def wait(self, how="materialize"):
        """Nothing to wait for: every operation has completed when its call returns."""
        if how not in ("materialize", "complete"):
            raise ValueError(f'`how` argument must be "materialize" or "complete"; got {how!r}')
        return self

    @classmethod
    @collective
    def from_pairs(cls, pairs, dtype=None, *, size=None, dup_op=None, name=None, grid=None):
        """Collective. From (index, value) pairs given identically on every rank."""
        if isinstance(pairs, np.ndarray):
            raise TypeError("pairs as NumPy array is not supported; use `Vector.from_coo` "
                            "instead")
        pairs = [tuple(p) for p in pairs]
        if any(len(p) != 2 for p in pairs):
            raise ValueError("Each item in the pairs must have two elements (for index and "
                             f"value); got {next(len(p) for p in pairs if len(p) != 2)}")
        return cls.from_coo([p[0] for p in pairs], [p[1] for p in pairs], dtype=dtype,
                            size=size, dup_op=dup_op, name=name, grid=grid)

    @collective
    def get(self, index, default=None):
        """Collective. The value at ``index``, or ``default`` when none is stored."""
        element = self[index]
        if not isinstance(element, ScalarLike):
            raise ValueError("Bad index in Vector.get(...).  A single index should be given, "
                             "and the result will be a Python scalar.")
        value = element.new().value
        return default if value is None else value

    @classmethod
    @collective
    def from_scalar(cls, value, size, dtype=None, *, name=None, grid=None):
        """Collective. A full vector with every entry equal to ``value``."""
        out = cls(dtype or scalar_dtype(value), size, name=name, grid=grid)
        out << value
        return out

    # full of random values the same at any rank count (random.py)
    random = classmethod(_random.vector_random)

    @collective
    def dup(self, dtype=None, *, clear=False, mask=None, name=None):
        """Collective. A copy (optionally cast, emptied, or masked)."""
        out = Vector(dtype or self.dtype, self._d.size, name=name, grid=self.grid)
        if not clear:
            out(mask=mask) << self
        return out

    def clear(self):
        """Remove every entry (local; nvals becomes 0 on every rank)."""
        self._d.clear()

    def diag(self, k=0, dtype=None, *, name=None):
        """The square Matrix with this Vector on its ``k``-th diagonal (python-graphblas's
        ``Vector.diag``), of size ``size + |k|``: ``D(i, i + k) = v(i)`` for ``k >= 0`` and
        ``D(i - k, i) = v(i)`` below the diagonal.

        Collective (each entry travels to the owner of its block). Multiplying by ``v.diag()``
        scales or masks the columns of a Matrix by ``v`` in one product.
        """
        k = int(k)
        idx, vals = self.host_piece().entries()
        rows = idx + self._d.offset + max(-k, 0)
        n = self._d.size + abs(k)
        # The Matrix class, known here as the class of matrix results (no import cycle).
        matrix_class = MatrixExpression.output_class
        return matrix_class.from_coo(rows, rows + k, vals,
                                     dtype=self.dtype if dtype is None else dtype, nrows=n,
                                     ncols=n, distributed=True, name=name, grid=self.grid)

    # ---- output ----
    @collective
    def to_coo(self, dtype=None, *, indices=True, values=True, sort=True):
        """Collective. (indices as uint64, values) of every entry, the same on every rank."""
        idx, vals = self.host_piece().entries()
        vals = vals.astype((lookup_dtype(dtype) if dtype else self.dtype).np_type)
        all_idx = np.concatenate(self.grid.comm.allgatherv(idx + self._d.offset)).astype(np.uint64)
        all_vals = np.concatenate(self.grid.comm.allgatherv(vals)) if values else None
        return (all_idx if indices else None), all_vals

    @collective
    def to_dense(self, fill_value=None, dtype=None):
        """Collective. A full numpy array; missing entries are ``fill_value`` (required if any),
        whose type joins the Vector's unless ``dtype`` is given."""
        fill, np_type = dense_fill(fill_value, dtype, self.dtype, self._d.nvals == self._d.size)
        local = np.full(self._d.local_size, 0 if fill is None else fill, dtype=np_type)
        idx, vals = self.host_piece().entries()
        local[idx] = vals
        return np.concatenate(self.grid.comm.allgatherv(local))

    # ---- the hooks of Container's operations (``container.py``) ----
    def _local_entries(self):
        return self.host_piece().entries()

    def _local_part(self):
        return self.host_piece()

    def _device_part(self):
        return None if self._d.piece.xp is np else self._d.piece

    def _local_values(self):
        return self.host_piece().entries()[1]

    def _entry_positions(self):
        idx = self.host_piece().entries()[0]
        return idx + self._d.offset, np.zeros_like(idx)

    def _lazy(self, method, args, dtype, compute, *, symmetric=False, rebind=None):
        # a Vector has no symmetry to keep
        return VectorExpression(method, args, dtype, self._d.size, compute, self.grid,
                                rebind=rebind)

    # ---- assignment ----
    def _check_mask(self, mask):
        if not isinstance(mask.parent, Vector):
            raise TypeError(f"Mask object must be type Vector, got {type(mask.parent).__name__}")
        check_size("mask", mask.parent.size, self._d.size, "Mask.size", "Vector.size")

    def _result_of(self, other, mask, accum, replace):
        """The expression whose result ``self(mask, accum, replace) << other`` writes, its
        size checked; None when ``other`` is a value, assigned here as ``self[:]``."""
        if hasattr(other, "_as_expression"):
            other = other._as_expression()
        if isinstance(other, Vector):
            other = other._identity_expr()
        if not isinstance(other, VectorExpression):
            self._assign(slice(None), other, mask, accum, replace)
            return None
        check_size("assignment", other.size, self._d.size, "input size", "output Vector.size")
        return other

    def _write(self, result, t, mask, accum, replace):
        """Collective. ``C<M, replace> = accum(C, T)`` with this rank's piece ``t`` of the
        result, then the agreed nvals."""
        self._d.write(t, None if mask is None else mask.local(), accum, replace,
                      t_masked=result.masks_result, borrowed=result.borrows)

    def _select_positions(self, op, thunk):
        return self._d.select_positions(op, thunk)

    def _select_values(self, op, thunk):
        if getattr(builtin_select, op.name, None) is op:
            # A builtin comparison takes any value: a bitmap is tested over whole arrays.
            return self._d.piece.kept(lambda values: op.evaluate(values, None, None, thunk))
        return super()._select_values(op, thunk)

    def _identity_expr(self):
        # Written at once (``_result_of``): the write reads this Vector's piece as it stands,
        # and copies only what the output would keep of it (``d(q.S) << q`` patches d from q
        # with no copy of q).
        return VectorExpression("identity", (self,), self.dtype, self._d.size,
                                lambda mask, opts: self._d.piece, self.grid, borrows=True)

    def __getitem__(self, index):
        return (VectorElement if one_position(index) else VectorExtract)(self, index)

    @collective
    def __iter__(self):
        """Collective. The indices of the stored entries, ascending (``list(v)``, as in
        python-graphblas); ``i in v`` tests one index."""
        return self.to_coo(values=False)[0].flat

    def __setitem__(self, index, value):
        self()[index] << value

    @collective
    def __delitem__(self, index):
        self.grid.comm.check_replicated("del", self, index)
        self._d.delete(positions_of(self._d.size, index))

    def _subassign(self, index, value, mask, accum, replace):
        """Collective. ``w[index](mask) << value``: GxB_subassign, whose mask has the index's
        length and whose replace acts inside the region only. It is GrB_assign under a mask
        that bars the region's positions the sub-mask does not allow and nothing else."""
        if not isinstance(mask.parent, Vector):
            raise TypeError(f"Mask object must be type Vector, got "
                            f"{type(mask.parent).__name__}: the sub-mask of w[index](mask)")
        if one_position(index):
            raise TypeError("Single element assign does not accept a submask")
        positions = positions_of(self._d.size, index)
        check_size("mask", mask.parent.size, len(positions), "Mask.size", "number of indices")
        barred = self._d.sub_mask(positions, mask.parent.dist, mask.structure, mask.complement)
        self._assign(index, value, _Barred(barred), accum, replace)

    def _assign(self, index, value, mask, accum, replace):
        """Collective. GrB_assign: self<mask>(index) = accum(self(index), value)."""
        whole = isinstance(index, slice) and index == slice(None)
        positions = None if whole else positions_of(self._d.size, index)
        region = None if whole else self._d.region(positions)
        local_mask = None if mask is None else mask.local()
        if not isinstance(value, ScalarLike) and hasattr(value, "_as_expression"):
            value = value._as_expression()  # v[1:4], u & w
        if isinstance(value, VectorExpression):
            value = value.new()
        if isinstance(value, (list, tuple, np.ndarray)):
            value = _array_value(value, index, self._d.size if whole else len(positions),
                                 self.grid)
        if isinstance(value, Vector):
            positions = np.arange(self._d.size, dtype=np.int64) if whole else positions
            check_size("assign", value.size, len(positions), "Vector.size", "number of indices")
            t_type = value.dtype
            t = self._d.moved_in(value.dist, positions)
        else:
            value = getattr(value, "value", value)
            try:
                # An empty Scalar deletes the entries it is assigned to.
                t_type = self.dtype if value is None else scalar_dtype(value)
            except (TypeError, ValueError):
                raise TypeError(f"Bad type for argument `value` in Vector assign: "
                                f"{type_name(value)}") from None
            t = self._d.scalar_piece(value, t_type, region, local_mask)
        if accum is not None:
            check_domain(accum, self.dtype, t_type)
        t_masked = whole and not isinstance(value, Vector) and mask is not None and \
            not mask.complement
        self._d.assign(t, region, local_mask, accum, replace, t_masked=t_masked)

    # ---- element-wise ----
    def _ewise_local(self, other, binop, kind, types, out_type, defaults):
        return self._d.ewise(other._d, binop, kind, types, out_type, defaults)

    def __matmul__(self, other):
        """``v @ A`` (``vxm``) or ``v @ w`` (the inner product), lazy: over plus_times, or
        ``semiring.min_plus(v @ A)``."""
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    # ---- reductions ----
    def reduce(self, op=monoid.plus, *, allow_empty=True):
        """Reduce all entries with a monoid (or an aggregator, ``gb.agg``) to a Scalar
        expression."""
        if isinstance(op, Aggregator):
            return op.reduce(self, "reduce", allow_empty=allow_empty)
        return self._reduce_all(op, "reduce", allow_empty)

    # ---- matrix products ----
    def vxm(self, other, op=semiring.plus_times):
        """``self @ A`` over a semiring: y(j) = (+)_k self(k) (x) A(k, j)."""
        return mxv_expression(other, self, op, "vxm", x_first=True)

    def inner(self, other, op=semiring.plus_times):
        """``(+)_k self(k) (x) other(k)`` as a Scalar expression (``v @ w``); collective when
        computed."""
        sr = as_op(op, "semiring")
        other = computed(other)
        if not isinstance(other, Vector):
            raise TypeError(f"Bad type for argument `other` in Vector.inner(...): expected a "
                            f"Vector, got {type_name(other)}")
        products = self.ewise_mult(other, sr.binaryop)  # shapes and types checked at once
        out_type = check_domain(sr.monoid, products.dtype)
        return ScalarExpression("inner", (self, other, sr), out_type,
                                lambda: products.new().reduce(sr.monoid).new().value,
                                self.grid, rebind=lambda new_op: self.inner(other, new_op))

    # ---- gather / scatter by a distributed index vector (extensions) ----
    def gather(self, index):
        """``out[k] = self[index[k]]`` for every entry of the integer Vector ``index``.

        Collective (request/response alltoallv). An extension python-graphblas lacks: 2D graph
        codes use it for pointer jumping (FastSV) and matching. Entries of ``index`` that point
        at missing values give missing results.
        """
        if not isinstance(index, Vector) or index.dtype.np_type.kind not in "iub":
            raise TypeError("gather expects an integer Vector of indices")
        a = self

        def compute(mask, opts):
            return dist_vector.gather(a.dist, index.dist)

        return VectorExpression("gather", (self, index), self.dtype, index.size, compute,
                                self.grid)

    def scatter(self, index, size=None, op=monoid.any):
        """``out[index[k]] (+)= self[k]``: send each entry to a position, combine with a monoid.

        Collective (one alltoallv). An extension python-graphblas lacks (pointer jumping,
        FastSV hooking, matching). ``size`` defaults to ``self.size``.
        """
        if not isinstance(index, Vector) or index.dtype.np_type.kind not in "iub":
            raise TypeError("scatter expects an integer Vector of indices")
        check_size("scatter", index.size, self._d.size, "index Vector.size", "Vector.size")
        mon = as_op(op, "monoid")
        size = self._d.size if size is None else int(size)
        a = self

        def compute(mask, opts):
            return dist_vector.scatter(a.dist, index.dist, size, mon)

        return VectorExpression("scatter", (self, index, mon), self.dtype, size, compute,
                                self.grid)

    # ---- shape (shape.py) ----
    def outer(self, other, op=binary.times):
        """``C(i, j) = self(i) op other(j)``; ``op`` a BinaryOp or Monoid. Collective when
        computed: each block gathers only its rows' and columns' entries."""
        return _shape.outer(self, other, op)

    @collective
    def build(self, indices, values, *, dup_op=None, clear=False, size=None):
        """Collective. ``from_coo``'s entries into this Vector, which must be empty
        (``clear=True`` empties it first; ``size`` resizes it)."""
        _build.build(self, (indices, values), dup_op, clear, None if size is None else (size,))

    def reposition(self, offset, *, size=None):
        """``w(i + offset) = v(i)`` in a Vector of ``size`` (v's by default), entries moved
        outside dropped: a lazy expression, collective when computed (one alltoallv)."""
        return _shape.reposition(self, (offset,), (self._d.size if size is None else size,))

    @collective
    def resize(self, size):
        """Collective. Change the size in place: entries at ``size`` and beyond are dropped,
        the others move to their owners under the new size."""
        size = _shape.dimension(size, "size")
        self._d.resized(size, _shape.resized_piece(self, size))


def _array_value(value, index, n, grid):
    """A list or array assigned to ``v[index]`` (``n`` positions), as a Vector."""
    if one_position(index):
        raise TypeError("A list or array cannot be assigned to one element v[i]")
    array = np.asarray(value)
    if array.shape != (n,):
        raise ValueError(f"shape mismatch: value array of shape {array.shape} could not be "
                         f"broadcast to indexing result of shape ({n},)")
    if array.dtype == object:
        raise TypeError("Bad type for argument `value`: an array of Python objects")
    return Vector.from_dense(array, grid=grid)


class _Barred:
    """A sub-mask moved to the output's positions (``DistVector.sub_mask``): a mask that bars
    some positions and allows every other."""

    complement = True

    def __init__(self, local_mask):
        self.local_mask = local_mask

    def local(self):
        return self.local_mask


VectorExpression.output_class = Vector
