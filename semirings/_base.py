"""The operator classes of the algebra: unary, binary, index-unary and select ops, monoids and
semirings.

Every op is vectorized: its function takes whole numpy arrays and returns an array, so a
user-defined op is a plain Python function over arrays (no numba, no per-element calls).
Nothing here knows about MPI or distribution; the engine calls ``evaluate``/``reduceat`` on the
local arrays of each rank.
"""

import numpy as np

from .dtypes import BOOL, INT64, lookup_dtype, unify

__all__ = ["BinaryOp", "IndexUnaryOp", "Monoid", "Operator", "Semiring", "UnaryOp"]


_probed = {}


def _probe_type(func, *types):
    """The dtype ``func`` returns for inputs of ``types`` (run once on tiny arrays of ones, then
    remembered: every evaluate asks)."""
    key = (func, *(lookup_dtype(t) for t in types))
    found = _probed.get(key)
    if found is None:
        args = [np.ones(1, dtype=t.np_type) for t in key[1:]]
        with np.errstate(all="ignore"):
            found = _probed[key] = lookup_dtype(np.asarray(func(*args)).dtype)
    return found


class Operator:
    """Base of all ops: a name, a kind, and optionally a fixed type (``op[INT64]``)."""

    kind = "operator"

    def __init__(self, name):
        self.name = name
        self.type = None

    def _typed_copy(self, dtype):
        typed = object.__new__(type(self))
        typed.__dict__.update(self.__dict__)
        typed.type = lookup_dtype(dtype)
        return typed

    def __getitem__(self, dtype):
        """The op fixed to one type, as ``semiring.any_pair[bool]``: inputs are cast to it."""
        return self._typed_copy(dtype)

    def __call__(self, *args, **kwargs):
        """Functional form, ``semiring.min_plus(A @ x)``: the argument decides what it means."""
        hook = getattr(args[0], "_call_op", None) if args else None
        if hook is None:
            what = type(args[0]).__name__ if args else "nothing"
            raise TypeError(f"{self!r} cannot be called on {what}")
        return hook(self, *args[1:], **kwargs)

    def __repr__(self):
        suffix = f"[{self.type.name}]" if self.type is not None else ""
        return f"{self.kind}.{self.name}{suffix}"

    def __reduce__(self):
        return (_lookup_for_pickle, (self.kind, self.name, self.type and self.type.name))


def _lookup_for_pickle(kind, name, type_name):
    from . import find

    op = find(kind, name)
    return op[type_name] if type_name else op


class UnaryOp(Operator):
    """``f(x)`` applied to every stored value.

    Parameters
    ----------
    name : str
    func : callable(array) -> array
    result : DataType or callable(DataType) -> DataType, optional
        Output type; by default whatever ``func`` returns for the input type.
    """

    kind = "unary"

    def __init__(self, name, func, *, result=None):
        super().__init__(name)
        self.func = func
        self._result = result

    def input_type(self, dtype):
        return self.type if self.type is not None else lookup_dtype(dtype)

    def output_type(self, dtype):
        t = self.input_type(dtype)
        if self._result is None:
            return _probe_type(self.func, t)
        return self._result(t) if callable(self._result) else lookup_dtype(self._result)

    def evaluate(self, x):
        t = self.input_type(lookup_dtype(x.dtype))
        with np.errstate(all="ignore"):
            out = self.func(x.astype(t.np_type, copy=False))
        return np.asarray(out).astype(self.output_type(t).np_type, copy=False)


class BinaryOp(Operator):
    """``f(x, y)`` on pairs of values; the multiply of a semiring and the op of a monoid.

    Parameters
    ----------
    name : str
    func : callable(x, y) -> array, or callable(x, y, ia, ja, ib, jb) -> array when
        ``index_aware``: ``(ia, ja)`` are the global row and column of ``x`` and ``(ib, jb)``
        those of ``y`` (GraphBLAS positional ops: ``firsti`` is ``ia``, ``secondi`` is ``ib``).
        In ``A.mxv(v)`` the first operand is ``A(i, k)`` and the second ``v(k)`` at ``(k, 0)``;
        in ``v.vxm(A)`` the first is ``v(k)`` at ``(0, k)`` and the second ``A(k, j)``.
    result : DataType or callable(DataType) -> DataType, optional
        Output type given the (unified) input type; by default probed from ``func``.
    index_aware : bool
    commutative : bool
    """

    kind = "binary"

    def __init__(self, name, func, *, result=None, index_aware=False, commutative=False):
        super().__init__(name)
        self.func = func
        self._result = result
        self.index_aware = index_aware
        self.commutative = commutative
        self.monoid = None  # set by the catalogue when this op has an identity

    def input_type(self, xtype, ytype):
        return self.type if self.type is not None else unify(xtype, ytype)

    def output_type(self, xtype, ytype):
        t = self.input_type(xtype, ytype)
        if self._result is not None:
            return self._result(t) if callable(self._result) else lookup_dtype(self._result)
        if self.index_aware:
            return INT64
        return _probe_type(self.func, t, t)

    def evaluate(self, x, y, ia=None, ja=None, ib=None, jb=None):
        """Products of ``x`` and ``y`` (same length); index arrays only for index-aware ops."""
        t = self.input_type(lookup_dtype(x.dtype), lookup_dtype(y.dtype))
        x = x.astype(t.np_type, copy=False)
        y = y.astype(t.np_type, copy=False)
        with np.errstate(all="ignore"):
            out = self.func(x, y, ia, ja, ib, jb) if self.index_aware else self.func(x, y)
        out = np.asarray(out)
        if out.shape != x.shape:
            out = np.full(x.shape, out)
        return out.astype(self.output_type(t, t).np_type, copy=False)


class Monoid(Operator):
    """An associative binary op with an identity; how partial results are folded.

    Parameters
    ----------
    name : str
    binaryop : BinaryOp
    identity : scalar or callable(DataType) -> scalar
    ufunc : numpy ufunc, optional
        When given, segmented reductions use ``ufunc.reduceat`` (fast); otherwise they fall back
        to pairwise halving with ``binaryop``.
    any : bool
        The ``any`` monoid: a reduction may return any one of the values (the first is taken).
    """

    kind = "monoid"

    def __init__(self, name, binaryop, identity, *, ufunc=None, any=False):
        super().__init__(name)
        self.binaryop = binaryop
        self._identity = identity
        self.ufunc = ufunc
        self.is_any = any

    def _typed_copy(self, dtype):
        typed = super()._typed_copy(dtype)
        typed.binaryop = self.binaryop[dtype]
        return typed

    def identity(self, dtype):
        """The identity as a numpy scalar of ``dtype``."""
        t = lookup_dtype(self.type if self.type is not None else dtype)
        value = self._identity(t) if callable(self._identity) else self._identity
        return t.np_type.type(value)

    def output_type(self, dtype):
        return self.binaryop.output_type(dtype, dtype)

    def combine(self, x, y):
        """Element-wise ``x (+) y``."""
        return self.binaryop.evaluate(x, y)

    def reduceat(self, values, starts):
        """Reduce each segment ``values[starts[k]:starts[k+1]]``; segments are non-empty."""
        t = self.output_type(lookup_dtype(values.dtype))
        values = values.astype(t.np_type, copy=False)
        if len(starts) == 0:
            return values[:0]
        if self.is_any:
            return values[starts]
        if self.ufunc is not None:
            with np.errstate(all="ignore"):
                return self.ufunc.reduceat(values, starts).astype(t.np_type, copy=False)
        return self._reduceat_pairwise(values, starts)

    def _reduceat_pairwise(self, values, starts):
        # Halve every segment at once: combine element s with s + half while any segment is long.
        ends = np.append(starts[1:], len(values))
        lengths = ends - starts
        work = values.copy()
        while lengths.max() > 1:
            half = (lengths + 1) // 2
            rest = lengths - half
            seg = np.repeat(np.arange(len(starts)), rest)
            offs = np.arange(rest.sum()) - np.repeat(np.cumsum(rest) - rest, rest)
            left = starts[seg] + offs
            work[left] = self.combine(work[left], work[left + half[seg]])
            lengths = half
        return work[starts]

    def reduce(self, values, dtype=None):
        """Reduce all of ``values`` to one numpy scalar (the identity when empty)."""
        dtype = lookup_dtype(values.dtype if dtype is None else dtype)
        if len(values) == 0:
            return self.identity(self.output_type(dtype))
        return self.reduceat(values, np.zeros(1, dtype=np.int64))[0]


class Semiring(Operator):
    """``(+).(x)``: a monoid that adds and a binary op that multiplies."""

    kind = "semiring"

    def __init__(self, name, monoid, binaryop):
        super().__init__(name)
        self.monoid = monoid
        self.binaryop = binaryop

    def _typed_copy(self, dtype):
        typed = super()._typed_copy(dtype)
        typed.binaryop = self.binaryop[dtype]
        typed.monoid = self.monoid[typed.binaryop.output_type(dtype, dtype)]
        return typed

    def output_type(self, xtype, ytype):
        return self.monoid.output_type(self.binaryop.output_type(xtype, ytype))


class IndexUnaryOp(Operator):
    """``f(x, row, col, thunk)`` with the global position of each value.

    For a Vector, ``row`` is the index and ``col`` is 0. Select ops are IndexUnaryOps whose
    result is BOOL (``kind="select"``): the value is kept where it is True.
    """

    kind = "indexunary"

    def __init__(self, name, func, *, result=None, select=False, positions=True):
        super().__init__(name)
        self.func = func
        # Whether func reads row and col: an op on values alone may be given None for them,
        # so a Matrix need not expand its CSR into the row of every entry.
        self.reads_positions = positions
        self._result = BOOL if select else result
        if select:
            self.kind = "select"

    def input_type(self, dtype):
        return self.type if self.type is not None else lookup_dtype(dtype)

    def output_type(self, dtype, thunk_type=INT64):
        t = self.input_type(dtype)
        if self._result is not None:
            return self._result(t) if callable(self._result) else lookup_dtype(self._result)
        one = np.ones(1, dtype=np.int64)
        thunk = lookup_dtype(thunk_type).np_type.type(1)
        with np.errstate(all="ignore"):
            out = self.func(np.ones(1, dtype=t.np_type), one, one, thunk)
        return lookup_dtype(np.asarray(out).dtype)

    def evaluate(self, x, row, col, thunk):
        t = self.input_type(lookup_dtype(x.dtype))
        thunk_type = lookup_dtype(np.asarray(thunk).dtype)
        with np.errstate(all="ignore"):
            out = self.func(x.astype(t.np_type, copy=False), row, col, thunk)
        out = np.asarray(out)
        if out.shape != x.shape:
            out = np.full(x.shape, out)
        return out.astype(self.output_type(t, thunk_type).np_type, copy=False)

