"""Distributed sparse Vector: one contiguous piece per rank.

Each rank stores its piece as a bitmap: ``_present`` (bool) and ``_values`` over the piece's
positions. ``size``, ``dtype`` and ``nvals`` are replicated and kept current by the collective
operations that produce the vector, so reading them never communicates.
"""

import numpy as np

from . import _redistribute as redist
from ._expr import (
    Mask,
    ScalarExpression,
    Updater,
    VectorExpression,
    _parse_call,
    as_op,
    check_domain,
    check_size,
    ewise_input_types,
)
from .exceptions import EmptyObject, IndexOutOfBound, InvalidValue
from .grid import default_grid
from .semirings import binary, monoid, semiring
from .semirings.dtypes import FP64, lookup_dtype, unify

__all__ = ["Vector"]

_names = iter(range(10**12))


def _scalar_dtype(value):
    return lookup_dtype(np.asarray(value).dtype)


class Vector:
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
        if size < 0:
            raise InvalidValue(f"Vector size must be non-negative, got {size}")
        self._size = size
        self._lo, hi = self.grid.piece(size)
        self._present = np.zeros(hi - self._lo, dtype=bool)
        self._values = np.zeros(hi - self._lo, dtype=self.dtype.np_type)
        self._nvals = 0
        self.name = name or f"v_{next(_names)}"

    # ---- metadata (replicated, no communication) ----
    @property
    def size(self):
        return self._size

    @property
    def shape(self):
        return (self._size,)

    @property
    def nvals(self):
        return self._nvals

    @property
    def S(self):
        return Mask(self, structure=True)

    @property
    def V(self):
        return Mask(self, structure=False)

    def __repr__(self):
        return f"<gblas2d.Vector {self.name}: size={self._size}, nvals={self._nvals}, " \
               f"dtype={self.dtype}>"

    def local_piece(self):
        """(first global index, present bitmap, values) of this rank's piece; no copy."""
        return self._lo, self._present, self._values

    # ---- construction ----
    @classmethod
    def from_coo(cls, indices, values=1.0, dtype=None, *, size=None, dup_op=None, name=None,
                 distributed=False, grid=None):
        """Collective. Build from index/value arrays.

        With ``distributed=False`` every rank passes the same arrays; with ``True`` each rank
        passes its share and entries travel to their owners. Duplicates are combined with
        ``dup_op`` or rejected with InvalidValue. ``size`` defaults to the largest index + 1.
        """
        grid = grid or default_grid()

        def read_input():
            idx = np.asarray(indices).reshape(-1)
            if idx.size and not np.issubdtype(idx.dtype, np.integer):
                raise IndexOutOfBound(f"indices must be integers, got {idx.dtype}")
            return idx.astype(np.int64), np.asarray(values)

        indices, values = _checked(grid, distributed, read_input,
                                   (np.empty(0, np.int64), np.empty(0)))
        if dtype is None and distributed:
            dtype = _agreed_dtype(grid, values, indices.size)
        elif dtype is None:
            dtype = lookup_dtype(values.dtype) if values.dtype != object else FP64
        dtype = lookup_dtype(dtype)
        values = _checked(grid, distributed, lambda: np.broadcast_to(
            values.astype(dtype.np_type), indices.shape), np.empty(0, dtype.np_type))
        if size is None:
            top = indices.max() + 1 if indices.size else 0
            size = int(grid.comm.allreduce(np.array([top]), "max")[0]) if distributed else top
        out = cls(dtype, size, name=name, grid=grid)
        failure = None
        if indices.size and (indices.min() < 0 or indices.max() >= size):
            bad = indices[(indices < 0) | (indices >= size)][0]
            failure = IndexOutOfBound(f"index {bad} out of range for Vector of size {size}")
        if distributed:
            grid.comm.agree(failure)
            owners = grid.owner(size, indices)
            indices, values = redist.to_owners(grid, owners, indices, values)
        elif failure is not None:
            raise failure
        else:
            keep = (indices >= out._lo) & (indices < out._lo + len(out._present))
            indices, values = indices[keep], values[keep]
        out._set_from_entries(indices - out._lo, values, dup_op)
        return out

    def _set_from_entries(self, local_idx, values, dup_op):
        """Collective. Fill the piece from local entries, combining duplicates."""
        failure = None
        try:
            order = np.argsort(local_idx, kind="stable")
            local_idx, values = local_idx[order], values[order]
            dups = np.r_[False, local_idx[1:] == local_idx[:-1]]
            if dups.any():
                if dup_op is None:
                    raise InvalidValue("Duplicate indices found; give dup_op to combine them")
                dup = as_op(dup_op, "binary")
                mon = dup.monoid or _FirstOnlyMonoid(dup)
                local_idx, values = redist.reduce_duplicates(local_idx, values, mon)
        except Exception as exc:  # agreed below
            failure = exc
        self._commit_local(None if failure else (local_idx, values), failure)

    def _commit_local(self, entries, failure):
        """Collective. Replace the piece by sorted unique local entries, agreeing on errors."""
        present = np.zeros_like(self._present)
        values = np.zeros_like(self._values)
        if failure is None:
            idx, vals = entries
            present[idx] = True
            values[idx] = vals
        self._commit(present, values, failure)

    def _commit(self, present, values, failure):
        """Collective. Install a new piece; raise the same error everywhere if any rank failed."""
        local = 0 if failure is not None else int(np.count_nonzero(present))
        total, failed = self.grid.comm.allreduce(
            np.array([local, failure is not None], dtype=np.int64))
        if failed:
            self.grid.comm.agree(failure)
        self._present, self._values, self._nvals = present, values, int(total)

    @classmethod
    def from_dense(cls, values, missing_value=None, *, dtype=None, name=None, grid=None):
        """Collective. Build from a full array given identically on every rank."""
        values = np.asarray(values).reshape(-1)
        keep = np.ones(values.size, bool) if missing_value is None else values != missing_value
        idx = np.flatnonzero(keep)
        return cls.from_coo(idx, values[idx], dtype=dtype or lookup_dtype(values.dtype),
                            size=values.size, name=name, grid=grid)

    @classmethod
    def from_scalar(cls, value, size, dtype=None, *, name=None, grid=None):
        """Collective. A full vector with every entry equal to ``value``."""
        out = cls(dtype or _scalar_dtype(value), size, name=name, grid=grid)
        out << value
        return out

    def dup(self, dtype=None, *, clear=False, mask=None, name=None):
        """Collective. A copy (optionally cast, emptied, or masked)."""
        out = Vector(dtype or self.dtype, self._size, name=name, grid=self.grid)
        if not clear:
            out(mask=mask) << self
        return out

    def clear(self):
        """Remove every entry (local; nvals becomes 0 on every rank)."""
        self._present[:] = False
        self._nvals = 0

    def diag(self, k=0, dtype=None, *, name=None):
        """The square Matrix with this Vector on its ``k``-th diagonal (python-graphblas's
        ``Vector.diag``), of size ``size + |k|``: ``D(i, i + k) = v(i)`` for ``k >= 0`` and
        ``D(i - k, i) = v(i)`` below the diagonal.

        Collective (each entry travels to the owner of its block). Multiplying by ``v.diag()``
        scales or masks the columns of a Matrix by ``v`` in one product.
        """
        from .matrix import Matrix

        k = int(k)
        idx = np.flatnonzero(self._present)
        rows = idx + self._lo + max(-k, 0)
        n = self._size + abs(k)
        return Matrix.from_coo(rows, rows + k, self._values[idx],
                               dtype=self.dtype if dtype is None else dtype, nrows=n, ncols=n,
                               distributed=True, name=name, grid=self.grid)

    # ---- output ----
    def to_coo(self, dtype=None, *, indices=True, values=True, sort=True):
        """Collective. (indices as uint64, values) of every entry, the same on every rank."""
        idx = np.flatnonzero(self._present)
        vals = self._values[idx].astype((lookup_dtype(dtype) if dtype else self.dtype).np_type)
        all_idx = np.concatenate(self.grid.comm.allgatherv(idx + self._lo)).astype(np.uint64)
        all_vals = np.concatenate(self.grid.comm.allgatherv(vals)) if values else None
        return (all_idx if indices else None), all_vals

    def to_dense(self, fill_value=None, dtype=None):
        """Collective. A full numpy array; missing entries are ``fill_value`` (required if any)."""
        if fill_value is None and self._nvals < self._size:
            raise EmptyObject("Vector has missing entries; give fill_value to to_dense")
        dtype = lookup_dtype(dtype) if dtype else self.dtype
        local = np.where(self._present, self._values,
                         fill_value if fill_value is not None else 0).astype(dtype.np_type)
        return np.concatenate(self.grid.comm.allgatherv(local))

    def isequal(self, other, *, check_dtype=False):
        """Collective. Same size, structure and values (and dtype when asked)."""
        if not isinstance(other, Vector):
            raise TypeError("isequal expects a Vector")
        if other._size != self._size or other._nvals != self._nvals:
            return False
        if check_dtype and other.dtype != self.dtype:
            return False
        same = np.array_equal(self._present, other._present) and np.array_equal(
            self._values[self._present], other._values[other._present])
        return bool(self.grid.comm.allreduce(np.array([same], dtype=np.int64), "min")[0])

    def isclose(self, other, *, rel_tol=1e-7, abs_tol=0.0, check_dtype=False):
        """Collective. Same structure and values within tolerance."""
        if other._size != self._size or other._nvals != self._nvals:
            return False
        if check_dtype and other.dtype != self.dtype:
            return False
        a, b = self._values[self._present], other._values[other._present]
        same = np.array_equal(self._present, other._present) and bool(
            np.all(np.isclose(a, b, rtol=rel_tol, atol=abs_tol, equal_nan=True)))
        return bool(self.grid.comm.allreduce(np.array([same], dtype=np.int64), "min")[0])

    # ---- assignment ----
    def __call__(self, *args, mask=None, accum=None, replace=False, input_mask=None, **opts):
        mask, accum, replace = _parse_call(args, mask, accum, replace)
        return Updater(self, mask, accum, replace, opts)

    def __lshift__(self, other):
        return self().__lshift__(other)

    def update(self, other):
        return self << other

    def _check_mask(self, mask):
        if not isinstance(mask.parent, Vector):
            raise TypeError("A Vector output needs a Vector mask")
        check_size("mask", mask.parent.size, self._size, "Mask.size", "Vector.size")

    def _update(self, other, mask, accum, replace, opts):
        """Collective. ``self(mask, accum, replace) << other``."""
        if hasattr(other, "_as_expression"):
            other = other._as_expression()
        if isinstance(other, Vector):
            other = other._identity_expr()
        if not isinstance(other, VectorExpression):
            self._assign(slice(None), other, mask, accum, replace)
            return
        check_size("assignment", other.size, self._size, "input size", "output Vector.size")
        if accum is not None:
            check_domain(accum, self.dtype, other.dtype)
        failure, present, values = None, None, None
        try:
            present, values = other._compute(mask, opts)
            present, values = self._merge(present, values, other.dtype, mask, accum, replace)
        except Exception as exc:  # agreed in _commit
            failure = exc
        self._commit(present, values, failure)

    def _merge(self, t_present, t_values, t_type, mask, accum, replace):
        """Local GraphBLAS write: Z = accum(C, T) or T; C<M, replace> = Z."""
        c_present, c_values = self._present, self._values
        t_values = t_values.astype(self.dtype.np_type, copy=False) if accum is None else t_values
        if accum is None:
            z_present, z_values = t_present, t_values
        else:
            both = c_present & t_present
            z_present = c_present | t_present
            z_values = np.where(t_present, t_values, c_values).astype(self.dtype.np_type)
            z_values[both] = accum.evaluate(c_values[both], t_values[both])
        if mask is None:
            return z_present.copy(), z_values.astype(self.dtype.np_type, copy=True)
        allowed = mask.vector_bitmap()
        keep_old = c_present & ~allowed & (not replace)
        present = (z_present & allowed) | keep_old
        values = np.where(allowed, z_values.astype(self.dtype.np_type, copy=False), c_values)
        return present, values

    def _identity_expr(self):
        snapshot = (self._present.copy(), self._values.copy())
        return VectorExpression("identity", (self,), self.dtype, self._size,
                                lambda mask, opts: snapshot, self.grid)

    def __getitem__(self, index):
        return _VectorIndexExpr(self, index)

    def __setitem__(self, index, value):
        self()[index] << value

    def __delitem__(self, index):
        positions = _positions(self._size, index)
        local = positions[(positions >= self._lo) & (positions < self._lo + len(self._present))]
        present = self._present.copy()
        present[local - self._lo] = False
        self._commit(present, self._values, None)

    def _assign(self, index, value, mask, accum, replace):
        """Collective. GrB_assign: self<mask>(index) = accum(self(index), value)."""
        positions = _positions(self._size, index)
        lo, n_local = self._lo, len(self._present)
        t_present = np.zeros(n_local, dtype=bool)
        if isinstance(value, Vector):
            check_size("assign", value.size, len(positions), "Vector.size", "number of indices")
            t_type = value.dtype
            t_values = np.zeros(n_local, dtype=t_type.np_type)
            src = np.flatnonzero(value._present)
            dest = positions[src + value._lo]
            idx, vals = redist.to_owners(self.grid, self.grid.owner(self._size, dest), dest,
                                         value._values[src])
            t_present[idx - lo] = True
            t_values[idx - lo] = vals
        else:
            value = getattr(value, "value", value)
            if value is None:
                raise EmptyObject("Cannot assign an empty Scalar")
            t_type = _scalar_dtype(value)
            mine = positions[(positions >= lo) & (positions < lo + n_local)] - lo
            t_present[mine] = True
            t_values = np.full(n_local, value, dtype=t_type.np_type)
        if accum is not None:
            check_domain(accum, self.dtype, t_type)
        region = np.zeros(n_local, dtype=bool)
        region[positions[(positions >= lo) & (positions < lo + n_local)] - lo] = True
        # Z keeps C outside the index region; inside it is T, or accum(C, T) with accum (where
        # an accumulated C entry survives even if T has none there).
        c_present, c_values = self._present, self._values
        if accum is None:
            z_present = np.where(region, t_present, c_present)
        else:
            z_present = c_present | (region & t_present)
        z_values = np.where(region & t_present, t_values.astype(self.dtype.np_type), c_values)
        if accum is not None:
            both = region & t_present & c_present
            z_values[both] = accum.evaluate(c_values[both], t_values[both])
        snapshot = (z_present, z_values)
        z = VectorExpression("assign", (self,), self.dtype, self._size,
                             lambda mask, opts: snapshot, self.grid)
        self._update(z, mask, None, replace, {})

    # ---- element-wise ----
    def _ewise(self, other, op, kind, method, left_default=None, right_default=None):
        if not isinstance(other, Vector):
            raise TypeError(f"{method} expects a Vector, got {type(other).__name__}")
        check_size(method, other.size, self._size, "Vector.size", "Vector.size")
        binop = as_op(op, "binary")
        in_types = ewise_input_types(kind, self.dtype, other.dtype, left_default, right_default)
        out_type = check_domain(binop, *in_types)
        a, b = self, other

        def compute(mask, opts):
            ap, bp = a._present, b._present
            av = a._values.astype(in_types[0].np_type, copy=False)
            bv = b._values.astype(in_types[1].np_type, copy=False)
            both = ap & bp
            out = np.zeros(len(ap), dtype=out_type.np_type)
            out[both] = binop.evaluate(av[both], bv[both])
            if kind == "mult":
                return both, out
            only_a, only_b = ap & ~bp, bp & ~ap
            if kind == "union":
                out[only_a] = binop.evaluate(av[only_a], np.full(only_a.sum(), right_default,
                                                                 dtype=bv.dtype))
                out[only_b] = binop.evaluate(np.full(only_b.sum(), left_default, dtype=av.dtype),
                                             bv[only_b])
            else:
                out[only_a] = av[only_a]
                out[only_b] = bv[only_b]
            return ap | bp, out

        def rebind(new_op):
            return a._ewise(b, new_op, kind, method, left_default, right_default)

        return VectorExpression(method, (self, other), out_type, self._size, compute, self.grid,
                                rebind=rebind)

    def ewise_add(self, other, op=monoid.plus):
        """Union: op where both are present, the one present value elsewhere."""
        return self._ewise(other, op, "add", "ewise_add")

    def ewise_mult(self, other, op=binary.times):
        """Intersection: op where both are present."""
        return self._ewise(other, op, "mult", "ewise_mult")

    def ewise_union(self, other, op, left_default, right_default):
        """Union with defaults standing in for a missing left or right value."""
        left_default = getattr(left_default, "value", left_default)
        right_default = getattr(right_default, "value", right_default)
        return self._ewise(other, op, "union", "ewise_union", left_default, right_default)

    def __add__(self, other):
        return self.ewise_union(other, binary.plus, 0, 0)

    def __sub__(self, other):
        return self.ewise_union(other, binary.minus, 0, 0)

    def __mul__(self, other):
        return self.ewise_mult(other, binary.times)

    def __or__(self, other):
        return _InfixVector(self, other, "add")

    def __and__(self, other):
        return _InfixVector(self, other, "mult")

    def __matmul__(self, other):
        return self.vxm(other, semiring.plus_times)

    def __rmatmul__(self, other):
        return other.mxv(self, semiring.plus_times)

    def __iadd__(self, other):
        self(accum=binary.plus) << other
        return self

    # ---- apply, select ----
    def apply(self, op, right=None, *, left=None):
        """Apply f(x), a binary op with a bound scalar (``right=``/``left=``), or an index-unary
        op f(x, i, 0, thunk) to every entry."""
        op = as_op(op, "unary", "indexunary", "binary")
        a = self
        right = getattr(right, "value", right)
        left = getattr(left, "value", left)
        if op.kind == "unary":
            out_type = check_domain(op, self.dtype)

            def values_of(vals, rows):
                return op.evaluate(vals)
        elif op.kind in ("indexunary", "select"):
            thunk = 0 if right is None else right
            out_type = check_domain(op, self.dtype, _scalar_dtype(thunk))

            def values_of(vals, rows):
                return op.evaluate(vals, rows, np.zeros_like(rows), thunk)
        else:
            binop = op
            if (left is None) == (right is None):
                raise TypeError("apply with a binary op needs exactly one of left= or right=")
            bound = right if left is None else left
            out_type = check_domain(binop, self.dtype, _scalar_dtype(bound))

            def values_of(vals, rows):
                s = np.full(len(vals), bound, dtype=_scalar_dtype(bound).np_type)
                return binop.evaluate(vals, s) if left is None else binop.evaluate(s, vals)

        def compute(mask, opts):
            idx = np.flatnonzero(a._present)
            out = np.zeros(len(a._present), dtype=out_type.np_type)
            out[idx] = values_of(a._values[idx], idx + a._lo)
            return a._present.copy(), out

        return VectorExpression("apply", (self, op), out_type, self._size, compute, self.grid)

    def select(self, op, thunk=None):
        """Keep the entries where the select op (value or index predicate) is True."""
        op = as_op(op, "select")
        thunk = getattr(thunk, "value", thunk)
        thunk = 0 if thunk is None else thunk
        check_domain(op, self.dtype, _scalar_dtype(thunk))
        a = self

        def compute(mask, opts):
            idx = np.flatnonzero(a._present)
            keep = op.evaluate(a._values[idx], idx + a._lo, np.zeros_like(idx), thunk)
            present = np.zeros_like(a._present)
            present[idx[keep.astype(bool)]] = True
            return present, a._values.copy()

        return VectorExpression("select", (self, op), self.dtype, self._size, compute, self.grid)

    def _call_op(self, op, *args, **kwargs):
        if op.kind in ("unary", "indexunary", "binary", "monoid"):
            return self.apply(op, *args, **kwargs)
        if op.kind == "select":
            return self.select(op, *args, **kwargs)
        raise TypeError(f"{op!r} cannot be applied to a Vector")

    # ---- reductions ----
    def reduce(self, op=monoid.plus, *, allow_empty=True):
        """Reduce all entries with a monoid to a Scalar expression."""
        mon = as_op(op, "monoid")
        out_type = check_domain(mon, self.dtype)
        a = self

        def compute():
            failure, local = None, None
            try:
                vals = a._values[a._present]
                local = mon.reduce(vals, a.dtype) if len(vals) else None
            except Exception as exc:  # agreed below
                failure = exc
            parts = a.grid.comm.allgather_object((local, None if failure is None else
                                                  (type(failure), str(failure))))
            errors = [p[1] for p in parts if p[1] is not None]
            if errors:
                from .comm import raise_agreed

                raise_agreed(errors, failure)
            vals = [p[0] for p in parts if p[0] is not None]
            if not vals:
                if allow_empty:
                    return None
                return mon.identity(out_type)
            return mon.reduce(np.array(vals, dtype=out_type.np_type))

        return ScalarExpression("reduce", (self, mon), out_type, compute, self.grid)

    # ---- matrix products ----
    def vxm(self, other, op=semiring.plus_times):
        """``self @ A`` over a semiring: y(j) = (+)_k self(k) (x) A(k, j)."""
        return other._vxm_expr(self, op)

    def inner(self, other, op=semiring.plus_times):
        """``(+)_k self(k) (x) other(k)`` as a Scalar expression."""
        sr = as_op(op, "semiring")
        return self.ewise_mult(other, sr.binaryop).new().reduce(sr.monoid)

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
            k = np.flatnonzero(index._present)
            targets = index._values[k].astype(np.int64)
            bad = (targets < 0) | (targets >= a._size)
            failure = IndexOutOfBound(f"gather index {targets[bad][0]} out of range for "
                                      f"Vector of size {a._size}") if bad.any() else None
            a.grid.comm.agree(failure)
            found, vals = redist.fetch(a.grid, a._size, targets, a._lo, a._present, a._values)
            present = np.zeros(len(index._present), dtype=bool)
            values = np.zeros(len(index._present), dtype=a.dtype.np_type)
            present[k[found]] = True
            values[k[found]] = vals[found]
            return present, values

        return VectorExpression("gather", (self, index), self.dtype, index.size, compute,
                                self.grid)

    def scatter(self, index, size=None, op=monoid.any):
        """``out[index[k]] (+)= self[k]``: send each entry to a position, combine with a monoid.

        Collective (one alltoallv). An extension python-graphblas lacks (pointer jumping,
        FastSV hooking, matching). ``size`` defaults to ``self.size``.
        """
        if not isinstance(index, Vector) or index.dtype.np_type.kind not in "iub":
            raise TypeError("scatter expects an integer Vector of indices")
        check_size("scatter", index.size, self._size, "index Vector.size", "Vector.size")
        mon = as_op(op, "monoid")
        size = self._size if size is None else int(size)
        a = self

        def compute(mask, opts):
            k = np.flatnonzero(a._present & index._present)
            dest = index._values[k].astype(np.int64)
            bad = (dest < 0) | (dest >= size)
            failure = IndexOutOfBound(f"scatter index {dest[bad][0]} out of range for size "
                                      f"{size}") if bad.any() else None
            a.grid.comm.agree(failure)
            idx, vals = redist.to_owners(a.grid, a.grid.owner(size, dest), dest, a._values[k])
            lo, hi = a.grid.piece(size)
            idx, vals = redist.reduce_duplicates(*_sorted(idx - lo, vals), mon)
            present = np.zeros(hi - lo, dtype=bool)
            values = np.zeros(hi - lo, dtype=a.dtype.np_type)
            present[idx] = True
            values[idx] = vals
            return present, values

        return VectorExpression("scatter", (self, index), self.dtype, size, compute, self.grid)


def _checked(grid, distributed, read, fallback):
    """Run a local input check. With distributed input only this rank may see a problem, so
    the outcome is agreed (every rank raises the same error); replicated input raises at once."""
    if not distributed:
        return read()
    failure, out = None, fallback
    try:
        out = read()
    except Exception as exc:  # agreed just below
        failure = exc
    grid.comm.agree(failure)
    return out


def _agreed_dtype(grid, values, count):
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


def _sorted(idx, vals):
    order = np.argsort(idx, kind="stable")
    return idx[order], vals[order]


class _FirstOnlyMonoid:
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


def _positions(size, index):
    """Global positions named by an index (int, slice, list/array, or Vector of indices)."""
    if isinstance(index, slice):
        return np.arange(size, dtype=np.int64)[index]
    if isinstance(index, tuple) and len(index) == 1:
        index = index[0]
    if isinstance(index, Vector):
        raise TypeError("Index with a list or array; use Vector.gather for a Vector of indices")
    positions = np.asarray(index)
    if positions.dtype == bool or (positions.size and positions.dtype.kind not in "iu"):
        raise TypeError(f"Indices must be integers, got {positions.dtype}")
    positions = positions.astype(np.int64).reshape(-1)
    bad = (positions < 0) | (positions >= size)
    if bad.any():
        raise IndexOutOfBound(f"index {positions[bad][0]} out of range for size {size}")
    return positions


class _VectorIndexExpr:
    """``v[index]``: extract (``.new()``, ``.value``) or the target of an assignment."""

    def __init__(self, parent, index):
        self.parent = parent
        self.index = index

    def _is_element(self):
        return np.ndim(self.index) == 0 and not isinstance(self.index, slice)

    def _as_expression(self):
        if self._is_element():
            raise TypeError("v[i] is a scalar; use .value or .new()")
        v = self.parent
        positions = _positions(v.size, self.index)
        out_size = len(positions)

        def compute(mask, opts):
            lo, hi = v.grid.piece(out_size)
            found, vals = redist.fetch(v.grid, v.size, positions[lo:hi], v._lo, v._present,
                                       v._values)
            values = np.zeros(hi - lo, dtype=v.dtype.np_type)
            values[found] = vals[found]
            return found, values

        return VectorExpression("extract", (v,), v.dtype, out_size, compute, v.grid)

    def new(self, dtype=None, *, mask=None, name=None):
        """Collective. The extracted Vector (or Scalar for one element)."""
        if self._is_element():
            from .scalar import Scalar

            out = Scalar(dtype or self.parent.dtype, name=name)
            value = self.value
            if value is not None:
                out.value = value
            return out
        return self._as_expression().new(dtype, mask=mask, name=name)

    @property
    def value(self):
        """Collective. The element's value, or None if it is missing."""
        v = self.parent
        i = int(self.index)
        if not 0 <= i < v.size:
            raise IndexOutOfBound(f"index {i} out of range for size {v.size}")
        owner = int(v.grid.owner(v.size, [i])[0])
        local = None
        if owner == v.grid.rank and v._present[i - v._lo]:
            local = v._values[i - v._lo].item()
        return v.grid.comm.bcast_object(local, root=owner)

    def __lshift__(self, value):
        self.parent._assign(self.index, value, None, None, False)
        return self.parent

    @property
    def size(self):
        return len(_positions(self.parent.size, self.index))


class _InfixVector:
    """``a | b`` and ``a & b``: ewise_add / ewise_mult placeholders awaiting an operator."""

    def __init__(self, left, right, kind):
        self.left, self.right, self.kind = left, right, kind

    def _call_op(self, op):
        if self.kind == "add":
            return self.left.ewise_add(self.right, op)
        return self.left.ewise_mult(self.right, op)

    def _as_expression(self):
        if self.left.dtype != "BOOL" or self.right.dtype != "BOOL":
            raise TypeError(f"`x {'|' if self.kind == 'add' else '&'} y` is only valid for BOOL "
                            "vectors; use an operator, e.g. monoid.plus(x | y)")
        return self._call_op(binary.lor if self.kind == "add" else binary.land)

    def new(self, *args, **kwargs):
        return self._as_expression().new(*args, **kwargs)

    @property
    def _compute(self):
        return self._as_expression()._compute

