"""The operator classes of the algebra: unary, binary, index-unary and select ops, monoids and
semirings.

Every op is called on arrays: a builtin's function takes whole numpy arrays and returns an
array; a user's function is written on scalars, as python-graphblas takes it, or vectorized
over arrays, and a ``UserFunction`` makes an array kernel of either (``_udf.py``).
``to_graphblas`` gives the same op for python-graphblas's objects. Nothing here knows about MPI
or distribution; the engine calls ``evaluate``/``reduceat`` on the local arrays of each rank.
"""

import numbers

import numpy as np

from ._arrays import array_module
from ._numeric import cast
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
        # {DataType: the op fixed to it}, shared with the typed copies, so that op[t] is always
        # the same object (``unary.abs[float] is unary.abs["FP64"]``, as in python-graphblas).
        self._typed_ops = {}
        # python-graphblas's form of the op once made (to_graphblas), shared likewise
        self._graphblas = [None]

    def _typed_copy(self, dtype):
        typed = object.__new__(type(self))
        typed.__dict__.update(self.__dict__)
        typed.type = dtype
        return typed

    def __getitem__(self, dtype):
        """The op fixed to one type, as ``semiring.any_pair[bool]``: inputs are cast to it."""
        dtype = lookup_dtype(dtype)
        typed = self._typed_ops.get(dtype)
        if typed is None:
            typed = self._typed_ops[dtype] = self._typed_copy(dtype)
        return typed

    def __call__(self, *args, **kwargs):
        """Functional form, ``semiring.min_plus(A @ x)``, ``binary.plus(u | v)``,
        ``unary.abs(v)``, ``binary.minus(2, v)``, ``select.valuegt(v, 0)``: the first operand
        that takes ops decides what it means (a binary op's right operand is bound as
        ``left=``): its ``_call_op`` hook, else its ``select`` for a select op and its ``apply``
        for any other (python-graphblas's protocol; a Scalar). On plain numbers a unary, binary
        or monoid op is computed at once: ``unary.cos(0)`` is ``np.float64(1.0)``
        (python-graphblas gives a lazy Scalar of the same value)."""
        if args and _takes_ops(args[0]):
            return _call_on(args[0], self, *args[1:], **kwargs)
        if len(args) == 2 and _takes_ops(args[1]):
            return _call_on(args[1], self, left=args[0], **kwargs)
        if args and not kwargs and all(_is_number(x) for x in args):
            return self._call_on_numbers(*args)
        raise TypeError(f"Bad type{'s' if len(args) > 1 else ''} when calling {self!r}.  Got "
                        f"{', '.join(type(x).__name__ for x in args) or 'nothing'}.  Expected "
                        f"an infix expression, such as {self!r}(A @ B) or {self!r}(A | B), or an "
                        f"apply with a Vector or Matrix and a scalar, such as {self!r}(A, 1)")

    def _call_on_numbers(self, *args):
        what = ", ".join(type(x).__name__ for x in args)
        raise TypeError(f"Bad types when calling {self!r}.  Got {what}: a {self.kind} op "
                        "needs an infix expression or a Vector or Matrix")

    def to_graphblas(self):
        """The same op for python-graphblas's objects, so that an op is defined once for both
        engines: a builtin is python-graphblas's op of the same name, a user's op is
        registered there from the same function, which python-graphblas compiles with numba
        (``semirings/_graphblas.py``). Made on first use, then kept.

        Raises
        ------
        TypeError
            Where python-graphblas has no such op: a gblas2d extension (``unary.popcount``),
            an index-aware user op, or a vectorized function numba cannot compile on scalars.

        Examples
        --------
        >>> from gblas2d.semirings import binary, monoid
        >>> lesser = binary.register_anonymous(lambda x, y: x if x < y else y, name="lesser")
        >>> lesser.to_graphblas()
        binary.lesser
        >>> monoid.register_anonymous(lesser, 2**63 - 1).to_graphblas()["INT64"].identity
        9223372036854775807
        """
        from ._graphblas import to_graphblas

        return to_graphblas(self)

    def __repr__(self):
        suffix = f"[{self.type.name}]" if self.type is not None else ""
        return f"{self.kind}.{self.name}{suffix}"

    def __reduce__(self):
        return (_lookup_for_pickle, (self.kind, self.name, self.type and self.type.name))


def _takes_ops(obj):
    return hasattr(obj, "_call_op") or hasattr(obj, "apply")


def _call_on(obj, op, *args, **kwargs):
    """``op`` called on ``obj`` (see ``Operator.__call__``)."""
    if hasattr(obj, "_call_op"):
        return obj._call_op(op, *args, **kwargs)
    if op.kind == "select":
        return obj.select(op, *args, **kwargs)
    return obj.apply(op, *args, **kwargs)


def _is_number(x):
    return isinstance(x, (numbers.Number, np.generic)) and not isinstance(x, np.void)


def _values_of(args):
    """Plain numbers as one-element arrays of their numpy type (a Python int is INT64)."""
    return [np.asarray(x).reshape(1) for x in args]


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
        """The op on the values ``x`` (numpy's or cupy's: ``_arrays``)."""
        t = self.input_type(lookup_dtype(x.dtype))
        with np.errstate(all="ignore"):
            out = self.func(x.astype(t.np_type, copy=False))
        return array_module(x).asarray(out).astype(self.output_type(t).np_type, copy=False)

    def __call__(self, operand, **kwargs):
        """``unary.abs(v)``: applied to a Vector, Matrix, lazy one or number (one operand)."""
        return super().__call__(operand, **kwargs)

    def _call_on_numbers(self, x):
        return self.evaluate(*_values_of([x]))[0]


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
        # {(fixed type, x's dtype, y's dtype): (input, output numpy types)}, for ``evaluate``
        self._types = {}
        # The untyped op's monoid, set by the catalogue (``binary.plus.monoid = monoid.plus``)
        # when this op has an identity; shared with the typed copies.
        self._monoid = [None]

    @property
    def monoid(self):
        """The monoid of this op, typed as the op is (``binary.plus[INT64].monoid`` is
        ``monoid.plus[INT64]``), or None."""
        untyped = self._monoid[0]
        return untyped if untyped is None or self.type is None else untyped[self.type]

    @monoid.setter
    def monoid(self, monoid):
        self._monoid[0] = monoid

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
        """Products of ``x`` and ``y`` (same length; numpy's or cupy's arrays: ``_arrays``);
        index arrays only for index-aware ops."""
        # The input and output types of these operands, worked out once per pair of types:
        # the lookups cost more than the op on a write's few entries.
        key = (self.type, x.dtype, y.dtype)
        types = self._types.get(key)
        if types is None:
            t = self.input_type(lookup_dtype(x.dtype), lookup_dtype(y.dtype))
            types = self._types[key] = (t.np_type, self.output_type(t, t).np_type)
        in_type, out_type = types
        # (a typed op casts its operands as SuiteSparse does: floats into integers saturate)
        if x.dtype != in_type:
            x = cast(x, in_type)
        if y.dtype != in_type:
            y = cast(y, in_type)
        with np.errstate(all="ignore"):
            out = self.func(x, y, ia, ja, ib, jb) if self.index_aware else self.func(x, y)
        xp = array_module(x)
        out = xp.asarray(out)
        if out.shape != x.shape:
            out = xp.full(x.shape, out)
        return out.astype(out_type, copy=False)

    def _call_on_numbers(self, *args):
        if len(args) != 2:
            return super()._call_on_numbers(*args)
        x, y = _values_of(args)
        positions = [np.zeros(1, dtype=np.int64)] * 4 if self.index_aware else []
        return self.evaluate(x, y, *positions)[0]


# Builtin monoids whose fold of a value with itself gives the value back.
_IDEMPOTENT = frozenset(("any", "min", "max", "lor", "land", "bor", "band"))


def folds_to_itself(monoid):
    """Whether ``monoid`` is a builtin one, typed or not, with ``x (+) x = x`` for every x
    (any, min, max, lor, land, bor, band): repeats of a value fold to that value."""
    if monoid.name not in _IDEMPOTENT:
        return False
    from . import binary  # (here: binary's ops are made of this module's classes)

    builtin = getattr(binary, monoid.name, None)
    return builtin is not None and monoid.binaryop.func is builtin.func


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
    terminal : scalar or callable(DataType) -> scalar, optional
        A value no further value changes once the fold reaches it (``lor``'s True, ``min``'s
        smallest): a reduction may stop there, as SuiteSparse's terminal monoids do.
    """

    kind = "monoid"

    def __init__(self, name, binaryop, identity, *, ufunc=None, any=False, terminal=None):
        super().__init__(name)
        self.binaryop = binaryop
        self._identity = identity
        self.ufunc = ufunc
        self.is_any = any
        self._terminal = terminal
        self._outputs = {}

    def _typed_copy(self, dtype):
        typed = super()._typed_copy(dtype)
        # An op fixed to one type stays so: monoid.lor[INT8] folds in BOOL, as binary.lor[BOOL]
        # (python-graphblas gives monoid.lor[BOOL] for it).
        if self.binaryop.type is None:
            typed.binaryop = self.binaryop[dtype]
        return typed

    @property
    def identity(self):
        """The identity. Of a typed monoid, python-graphblas's value: ``monoid.plus[INT64]
        .identity == 0``, ``monoid.min[FP32].identity == inf`` (a Python int or float; True or
        False for BOOL). Called with a type, on any monoid, it is ``identity_of(dtype)``, the
        form the engine uses (``monoid.identity(dtype)`` stays for earlier gblas2d code)."""
        if self.type is None:
            return self.identity_of
        return identity_value(self.identity_of(self.type))

    def identity_of(self, dtype):
        """The identity as a numpy scalar of ``dtype``; a typed monoid's is of its output type
        whatever ``dtype`` is (``monoid.lor[INT8]`` folds, and starts, in BOOL)."""
        t = self._fold_type(dtype)
        value = self._identity(t) if callable(self._identity) else self._identity
        return t.np_type.type(value)

    def _fold_type(self, dtype):
        """The type a fold of ``dtype`` values runs in: ``dtype``, or a typed monoid's output
        type whatever ``dtype`` is."""
        return lookup_dtype(dtype) if self.type is None else self.output_type(self.type)

    def stop_of(self, dtype):
        """A test of a running fold in ``dtype`` that is true once no further value can change
        it (any value for ``any``, the terminal for the others), or None when nothing stops
        this monoid's folds early."""
        if self.is_any:
            return lambda acc: True
        if self._terminal is None:
            return None
        t = self._fold_type(dtype)
        value = self._terminal(t) if callable(self._terminal) else self._terminal
        terminal = t.np_type.type(value)
        return lambda acc: acc == terminal

    def _call_on_numbers(self, *args):
        return self.binaryop._call_on_numbers(*args)

    def output_type(self, dtype):
        # remembered by type: a small reduction asks four times, and each answer costs more
        # than the fold of a few values (a typed copy shares the dict: its type is in the key)
        key = (self.type, dtype)
        found = self._outputs.get(key)
        if found is None:
            found = self._outputs[key] = self.binaryop.output_type(dtype, dtype)
        return found

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
        if self.ufunc is not None and type(values) is np.ndarray:
            with np.errstate(all="ignore"):
                return self.ufunc.reduceat(values, starts).astype(t.np_type, copy=False)
        return self._reduceat_pairwise(values, starts)

    def _reduceat_pairwise(self, values, starts):
        """Halve every segment at once: the second half of each combined into its first while
        any segment is long, O(len(values)) in all. On either module's arrays (a device's
        ufuncs have no ``reduceat``): each position knows its segment, with no ``repeat`` by
        counts, which cupy lacks."""
        xp = array_module(values)
        n = len(values)
        lengths = xp.diff(xp.concatenate([starts, xp.full(1, n, dtype=starts.dtype)]))
        segment = xp.zeros(n, dtype=np.int64)
        segment[starts[1:]] = 1
        segment = xp.cumsum(segment)
        work = values.copy()
        live = xp.arange(n)  # the positions still holding a partial fold
        while int(lengths.max()) > 1:
            half = (lengths + 1) // 2
            seg = segment[live]
            offset = live - starts[seg]
            pairs = live[offset < (lengths - half)[seg]]
            work[pairs] = self.combine(work[pairs], work[pairs + half[segment[pairs]]])
            live = live[offset < half[seg]]
            lengths = half
        return work[starts]

    def reduce(self, values, dtype=None):
        """Reduce all of ``values`` to one numpy scalar (the identity when empty); a device's
        values (``_arrays``) to a 0-d array there."""
        dtype = lookup_dtype(values.dtype if dtype is None else dtype)
        if len(values) == 0:
            return self.identity_of(self.output_type(dtype))
        return self.reduceat(values, array_module(values).zeros(1, dtype=np.int64))[0]


def identity_value(scalar):
    """A typed monoid's identity: ``scalar`` (a numpy scalar) as a Python int or float that
    can also be called, ``identity(dtype)``, to give the numpy scalar back.

    Both forms of ``monoid.identity`` meet here: python-graphblas reads it as a value
    (``monoid.plus[INT64].identity == 0``), and gblas2d code written before typed monoids
    called it with a type (``mon.identity(out_type)``; the engine now calls ``identity_of``).
    A BOOL identity is an int that shows as True or False (bool cannot be subclassed).
    Arithmetic on it gives plain ints and floats; it pickles as one.
    """
    return (_FloatIdentity if scalar.dtype.kind == "f" else _IntIdentity)(scalar)


class _CallableIdentity:
    """What ``identity_value`` adds to an int or a float (see there)."""

    def __call__(self, dtype=None):
        # A typed monoid's identity is of its own type, whatever type is asked for.
        return self._scalar

    def __reduce__(self):
        return type(self._scalar.item()), (self._scalar.item(),)


class _IntIdentity(_CallableIdentity, int):
    def __new__(cls, scalar):
        out = super().__new__(cls, scalar.item())
        out._scalar = scalar
        return out

    def __repr__(self):
        return repr(self._scalar.item())


class _FloatIdentity(_CallableIdentity, float):
    def __new__(cls, scalar):
        out = super().__new__(cls, scalar.item())
        out._scalar = scalar
        return out


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

    def __call__(self, operand, thunk=None, **kwargs):
        """``indexunary.rowindex(A, 1)``, ``select.tril(A, thunk=1)``: ``apply`` (``select``
        for a select op) with the thunk."""
        return super().__call__(operand, *(() if thunk is None else (thunk,)), **kwargs)

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
        xp = array_module(x)
        out = xp.asarray(out)
        if out.shape != x.shape:
            out = xp.full(x.shape, out)
        return out.astype(self.output_type(t, thunk_type).np_type, copy=False)

