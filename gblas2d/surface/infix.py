"""Python's operators on gblas2d objects, with python-graphblas's meanings
(``graphblas/core/infixmethods.py``).

Between two Vectors or two Matrices an operator is element-wise: ``u + v`` is
``ewise_add(plus)``, ``u - v`` is ``ewise_union(minus, False, False)`` and the rest (``*``,
``/``, ``//``, ``**``, ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``) are ``ewise_mult``. With a
scalar it is ``apply`` with the scalar bound, so it keeps the object's structure:
``v + 2`` is ``v.apply(binary.plus, right=2)`` and ``2 - v`` is ``v.apply(binary.minus,
left=2)``. A comparison is thus a lazy expression, never a bool: ``bool(v == w)`` raises, as do
``bool(v)`` and ``np.asarray(v)``; ``v.isequal(w)`` is the test of equality.

``abs(v)``, ``-v`` and ``~v`` (BOOL only) apply ``unary.abs``, ``ainv`` and ``lnot``; ``v % x``
is numpy's remainder (the sign of the divisor), as python-graphblas's ``binary.numpy.mod``.
``u | v`` and ``u & v`` wait for an operator (``monoid.max(u | v)``) and are ``lor``/``land`` on
BOOL operands when computed.

In place, ``v op= x`` is ``v << v op x``, so ``v += 2`` adds 2 to v's entries only; ``+=``,
``|=`` and ``^=`` with a Vector or Matrix accumulate it instead (``v(accum=binary.plus) << w``).

A lazy Vector or Matrix (an expression, ``A.T``, ``u | v``, ``v[indices]``) is computed
(``.new()``, collective) before an operator works on it, as python-graphblas's autocompute
does; a lazy scalar (``A.reduce_scalar()``, ``v[i]``) is computed when it is compared, tested
or converted, so ``A.reduce_scalar() == 47`` compares values.
"""

import numbers

import numpy as np

from ..exceptions import DimensionMismatch, EmptyObject
from ..semirings import binary, semiring, unary
from ..semirings.dtypes import BOOL
from ..semirings.numpy_ops import mod as numpy_mod  # ``%``: python-graphblas's binary.numpy.mod
from .automethods import MatrixAutoMethods, VectorAutoMethods
from .config import computes
from .inputs import type_name

__all__ = ["EwisePair", "InPlace", "Infix", "MatMul", "ScalarLike", "call_op", "ewise_pair",
           "matmul", "numpy_mod"]


def _operand(obj):
    """The Vector or Matrix an operator works on (a lazy one computed), or None for a scalar."""
    compute = getattr(obj, "_infix_operand", None)
    return None if compute is None else compute()


def _literal(obj):
    """The value of a scalar operand: a number, a Scalar, or a lazy scalar (computed)."""
    value = getattr(obj, "value", obj)
    if value is None and obj is not None:
        raise EmptyObject("An empty Scalar cannot be an operand of a Vector or Matrix operator")
    if isinstance(value, (numbers.Number, np.bool_)) or \
            isinstance(value, np.ndarray) and value.ndim == 0:
        return value
    raise TypeError(f"An operand of a Vector or Matrix operator must be a Vector, a Matrix or "
                    f"a scalar, got {type_name(obj)}")


def call_op(left, right, op, kind="mult"):
    """``left op right``: element-wise (``kind`` "add", "union" or "mult") between two objects,
    ``apply`` with the other bound when one of them is a scalar."""
    a, b = _operand(left), _operand(right)
    if a is not None and b is not None:
        if kind == "add":
            return a.ewise_add(b, op)
        if kind == "union":
            return a.ewise_union(b, op, False, False)
        return a.ewise_mult(b, op)
    if a is not None:
        return a.apply(op, right=_literal(right))
    if b is not None:
        return b.apply(op, left=_literal(left))
    raise TypeError(f"{op!r} needs a Vector or Matrix operand")


def _only_bool(expr, symbol, method):
    if expr.dtype != BOOL:
        raise TypeError(f"The infix operator `x {symbol} y` is not supported for {expr.dtype} "
                        f"dtype.  It is only supported for BOOL dtype (it uses {method}).")
    return expr


def _left_operand(obj, symbol):
    """The left side of ``a | b`` or ``a & b`` reached through ``b.__ror__(a)``."""
    operand = _operand(obj)
    if operand is None:
        raise TypeError(f"Bad type for argument `left` of `x {symbol} y`.  Expected type: "
                        f"Vector, Matrix, TransposedMatrix.  Got: {type_name(obj)}")
    return operand


def _pair_operand(obj, symbol, kind):
    """The right side of ``a | b`` or ``a & b``: a Vector or Matrix (a lazy one computed), or
    a pair of the same kind, kept for a chain (``binary.plus(u | v | w)``)."""
    if isinstance(obj, EwisePair) and obj.kind == kind:
        return obj
    operand = _operand(obj)
    if operand is None:
        raise TypeError(f"Bad type for argument `right` of `x {symbol} y`.  Expected type: "
                        f"Vector, Matrix, TransposedMatrix (or a lazy one).  Got: "
                        f"{type_name(obj)}")
    return operand


class Infix:
    """The operators of a Vector or Matrix, and of a lazy one (``_infix_operand`` computes
    it). Hashed by identity, as python-graphblas's Vector and Matrix."""

    __hash__ = object.__hash__

    def _infix_operand(self):
        return self.new()

    def __bool__(self):
        raise TypeError(f"__bool__ not defined for objects of type {type(self)}.  Perhaps use "
                        ".nvals attribute instead.")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"{type(self).__name__} can't be directly converted to a numpy array; "
                        "use to_coo() or to_dense() (collective) instead")

    def __eq__(self, other):
        return call_op(self, other, binary.eq)

    def __ne__(self, other):
        return call_op(self, other, binary.ne)

    def __lt__(self, other):
        return call_op(self, other, binary.lt)

    def __le__(self, other):
        return call_op(self, other, binary.le)

    def __gt__(self, other):
        return call_op(self, other, binary.gt)

    def __ge__(self, other):
        return call_op(self, other, binary.ge)

    def __add__(self, other):
        return call_op(self, other, binary.plus, "add")

    def __radd__(self, other):
        return call_op(other, self, binary.plus, "add")

    def __sub__(self, other):
        return call_op(self, other, binary.minus, "union")

    def __rsub__(self, other):
        return call_op(other, self, binary.minus, "union")

    def __mul__(self, other):
        return call_op(self, other, binary.times)

    def __rmul__(self, other):
        return call_op(other, self, binary.times)

    def __truediv__(self, other):
        return call_op(self, other, binary.truediv)

    def __rtruediv__(self, other):
        return call_op(other, self, binary.truediv)

    def __floordiv__(self, other):
        return call_op(self, other, binary.floordiv)

    def __rfloordiv__(self, other):
        return call_op(other, self, binary.floordiv)

    def __pow__(self, other):
        return call_op(self, other, binary.pow)

    def __rpow__(self, other):
        return call_op(other, self, binary.pow)

    def __mod__(self, other):
        return call_op(self, other, numpy_mod)

    def __rmod__(self, other):
        return call_op(other, self, numpy_mod)

    def __divmod__(self, other):
        return self // other, self % other

    def __rdivmod__(self, other):
        return other // self, other % self

    def __xor__(self, other):
        return _only_bool(call_op(self, other, binary.lxor, "add"), "^", "ewise_add")

    def __rxor__(self, other):
        return _only_bool(call_op(other, self, binary.lxor, "add"), "^", "ewise_add")

    def __or__(self, other):
        return ewise_pair(self._infix_operand(), _pair_operand(other, "|", "add"), "add")

    def __and__(self, other):
        return ewise_pair(self._infix_operand(), _pair_operand(other, "&", "mult"), "mult")

    def __ror__(self, other):
        return ewise_pair(_left_operand(other, "|"), self._infix_operand(), "add")

    def __rand__(self, other):
        return ewise_pair(_left_operand(other, "&"), self._infix_operand(), "mult")

    def __abs__(self):
        return self._infix_operand().apply(unary.abs)

    def __neg__(self):
        return self._infix_operand().apply(unary.ainv)

    def __invert__(self):
        operand = self._infix_operand()
        if operand.dtype != BOOL:
            raise TypeError(f"The invert operator, `~`, is not supported for {operand.dtype} "
                            "dtype.  It is only supported for BOOL dtype.")
        return operand.apply(unary.lnot)


class _Pair(Infix):
    """A lazy infix pair waiting for an operator: ``a | b``, ``a & b`` (``EwisePair``) and ``a
    @ b`` (``MatMul``). ``op(pair)`` computes it with ``op``, a pair inside it with the same
    ``op`` first, as python-graphblas's infix expressions do. Read as it stands (its ``nvals``,
    an operand), it is computed with its default operator (``_as_expression``), under
    autocompute (``config.py``)."""

    _value = None  # the pair computed as it stands, kept (``_automethods``)
    _default = None  # its expression with the default operator, made once (``_standing``)

    def __init__(self, left, right):
        self.left, self.right = left, right

    def _standing(self):
        """The pair as it stands: ``_as_expression()``, made on first use and kept, so that
        reading its dtype and computing it do not each build it (a chain computes its inner
        pairs to build it)."""
        if self._default is None:
            self._default = self._as_expression()
        return self._default

    def _infix_operand(self):
        computes("An operator on an infix expression", type(self))
        return self.new()

    def new(self, *args, **kwargs):
        return self._standing().new(*args, **kwargs)

    @property
    def dtype(self):
        return self._standing().dtype

    @property
    def output_class(self):
        return self._standing().output_class

    @property
    def grid(self):
        return self.left.grid

    @property
    def compute(self):
        return self._standing().compute

    # What python-graphblas's infix expressions tell without computing
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return self.shape[0]

    @property
    def nrows(self):
        return self.shape[0]

    @property
    def ncols(self):
        return self.shape[1]


class EwisePair(_Pair):
    """``a | b`` and ``a & b``: ewise_add / ewise_mult waiting for an operator
    (``monoid.plus(a | b)``, ``binary.minus(a | b, left_default=0, right_default=0)`` for
    ewise_union); computed as they stand, ``lor`` / ``land`` of BOOL operands, and a TypeError
    for other types.

    Pairs chain as in python-graphblas: in ``binary.plus(u | v | w)`` each pair inside is
    computed with the same operator (and defaults) first, ``plus(plus(u | v) | w)``.
    """

    def __init__(self, left, right, kind):
        if right is None:
            raise TypeError(f"Bad type for argument `right` of `x {'|' if kind == 'add' else '&'}"
                            f" y`: it needs a Vector or Matrix (or a lazy one) on each side")
        super().__init__(left, right)
        self.kind = kind

    @property
    def _symbol(self):
        return "|" if self.kind == "add" else "&"

    @property
    def shape(self):
        return self.left.shape

    def __or__(self, other):
        if self.kind != "add":
            return super().__or__(other)
        return ewise_pair(self, _pair_operand(other, "|", "add"), "add")

    def __and__(self, other):
        if self.kind != "mult":
            return super().__and__(other)
        return ewise_pair(self, _pair_operand(other, "&", "mult"), "mult")

    def _in_place(self, symbol):
        raise TypeError(f"In-place `x {symbol}= y` is not supported for a lazy `x {self._symbol} "
                        f"y`: compute it first, w = (x {self._symbol} y).new()")

    def __ior__(self, other):
        self._in_place("|")

    def __iand__(self, other):
        self._in_place("&")

    def __ixor__(self, other):
        self._in_place("^")

    def __imatmul__(self, other):
        self._in_place("@")

    def _call_op(self, op, *args, left_default=None, right_default=None):
        """``op(a | b)``: the element-wise operation with ``op``. With more arguments (``op(a
        | b, 1)``) the pair is computed as it stands and ``op`` applied to the result."""
        if args:
            return self._infix_operand()._call_op(op, *args)
        union = left_default is not None or right_default is not None
        if union and (self.kind != "add" or left_default is None or right_default is None):
            raise TypeError(f"Specifying `left_default` or `right_default` keyword arguments "
                            f"implies performing `ewise_union` operation with infix notation.  "
                            f"There is only one valid way to do this: {op!r}(x | y, "
                            f"left_default=0, right_default=0), where x and y are Vectors or "
                            f"Matrices, and left_default and right_default are scalars.")
        if getattr(op, "kind", None) not in ("binary", "monoid"):
            return self._infix_operand()._call_op(op)
        defaults = {"left_default": left_default, "right_default": right_default} if union \
            else {}
        left, right = (side._call_op(op, **defaults).new() if isinstance(side, EwisePair)
                       else side for side in (self.left, self.right))
        if union:
            return left.ewise_union(right, op, left_default, right_default)
        if self.kind == "add":
            return left.ewise_add(right, op)
        return left.ewise_mult(right, op)

    def _as_expression(self):
        left, right = (side._as_expression().new() if isinstance(side, EwisePair) else side
                       for side in (self.left, self.right))
        if left.dtype != BOOL or right.dtype != BOOL:
            method, op, example = (("ewise_add", "LOR", "plus") if self.kind == "add" else
                                   ("ewise_mult", "LAND", "times"))
            raise TypeError(f"Bad dtypes for `x {self._symbol} y`!  Automatic computation of "
                            f"`x {self._symbol} y` infix expressions is only valid for BOOL "
                            f"dtypes.  The argument dtypes are {left.dtype} and {right.dtype}."
                            f"  When auto-computed for boolean dtypes, `x {self._symbol} y` "
                            f"performs {method} using {op}.  Typical usage is to create an "
                            f"{method} expression such as `monoid.{example}(x {self._symbol} "
                            f"y)`.")
        return EwisePair(left, right, self.kind)._call_op(
            binary.lor if self.kind == "add" else binary.land)


class MatMul(_Pair):
    """``a @ b``: ``vxm``, ``mxv``, ``mxm`` or the inner product waiting for a semiring
    (``semiring.min_plus(v @ A)``); computed as it stands over ``plus_times``. In a chain,
    ``semiring.plus_plus(v @ (v @ D))`` computes the inner pair over ``plus_plus`` too."""

    @property
    def shape(self):
        return self.left.shape[:-1] + self.right.shape[1:]

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def _call_op(self, op, *args, **kwargs):
        """``sr(a @ b)``: the product over the semiring ``sr``."""
        if args or kwargs:
            raise TypeError(f"Bad types when calling {op!r}.  Got {type(self).__name__} and "
                            f"more: a semiring takes one infix expression, such as {op!r}(A @ B)")
        if getattr(op, "kind", None) != "semiring":
            raise TypeError(f"Bad type when calling {op!r}: `a @ b` takes a semiring")
        left, right = (side._call_op(op).new() if isinstance(side, MatMul) else side
                       for side in (self.left, self.right))
        if len(left.shape) == 1:
            return left.inner(right, op) if len(right.shape) == 1 else left.vxm(right, op)
        return left.mxv(right, op) if len(right.shape) == 1 else left.mxm(right, op)

    def _as_expression(self):
        return self._call_op(semiring.plus_times)


class InPlace(Infix):
    """The in-place operators of a Vector or Matrix. Collective: each is an assignment."""

    def _infix_operand(self):
        return self

    def _in_place(self, other, op, kind="mult", *, accumulate=False, symbol=None):
        """``self op= other``. With ``accumulate``, a Vector or Matrix of self's kind is
        accumulated, ``self(accum=op) << other``; otherwise ``self << self op other``, so a
        scalar meets self's entries only. ``symbol``: an op defined for BOOL alone."""
        if accumulate and len(getattr(other, "shape", ())) == len(self.shape):
            # a Vector or Matrix, or a lazy one: accumulated as it is, not computed first
            if symbol is not None and other.dtype != BOOL:
                raise TypeError(f"The infix operator `x {symbol}= y` is not supported for "
                                f"{other.dtype} dtype.  It is only supported for BOOL dtype.")
            self(accum=op) << other
            return self
        operand = _operand(other)
        expr = call_op(self, other if operand is None else operand, op, kind)
        if symbol is not None:
            _only_bool(expr, f"{symbol}=", "ewise_add" if kind == "add" else "ewise_mult")
        self << expr
        return self

    def __iadd__(self, other):
        return self._in_place(other, binary.plus, "add", accumulate=True)

    def __isub__(self, other):
        return self._in_place(other, binary.minus, "union")

    def __imul__(self, other):
        return self._in_place(other, binary.times)

    def __itruediv__(self, other):
        return self._in_place(other, binary.truediv)

    def __ifloordiv__(self, other):
        return self._in_place(other, binary.floordiv)

    def __ipow__(self, other):
        return self._in_place(other, binary.pow)

    def __imod__(self, other):
        return self._in_place(other, numpy_mod)

    def __ior__(self, other):
        return self._in_place(other, binary.lor, "add", accumulate=True, symbol="|")

    def __iand__(self, other):
        return self._in_place(other, binary.land, symbol="&")

    def __ixor__(self, other):
        return self._in_place(other, binary.lxor, "add", accumulate=True, symbol="^")

    def __imatmul__(self, other):
        self << self @ other
        return self


class ScalarLike:
    """A lazy scalar (``A.reduce_scalar()``, ``v[i]``): comparing, testing or converting it
    computes it (``.new()``, collective) and reads the Scalar, under autocompute
    (``config.py``). Unhashable, as a Scalar."""

    _infix_operand = None  # a scalar operand of the Vector and Matrix operators
    __hash__ = None

    def _computed(self, what):
        computes(what, type(self))
        return self.new()

    def __eq__(self, other):
        return self._computed("__eq__") == other

    def __ne__(self, other):
        return self._computed("__ne__") != other

    def __bool__(self):
        return bool(self._computed("__bool__"))

    def __float__(self):
        return float(self._computed("__float__"))

    def __int__(self):
        return int(self._computed("__int__"))

    def __index__(self):
        return self._computed("__index__").__index__()

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._computed("__array__"), dtype=dtype)

    # What python-graphblas's ScalarExpression and ScalarMatMulExpr read of their result:
    # ``v.reduce().get(0)``, ``(u @ v).get(0.0)``, ``A.reduce_scalar().is_empty``.
    def get(self, default=None):
        """Collective (computes). The value, or ``default`` when the result is empty."""
        return self._computed("get").get(default)

    @property
    def is_empty(self):
        """Collective (computes). Whether the result has no value."""
        return self._computed("is_empty").is_empty

    @property
    def nvals(self):
        """Collective (computes). 1, or 0 when the result is empty."""
        return self._computed("nvals").nvals

    def isequal(self, other, *, check_dtype=False):
        """Collective (computes). ``Scalar.isequal`` of the result."""
        return self._computed("isequal").isequal(other, check_dtype=check_dtype)

    def isclose(self, other, *, rel_tol=1e-7, abs_tol=0.0, check_dtype=False):
        """Collective (computes). ``Scalar.isclose`` of the result."""
        return self._computed("isclose").isclose(other, rel_tol=rel_tol, abs_tol=abs_tol,
                                                 check_dtype=check_dtype)

    def dup(self, dtype=None, *, name=None):
        """Collective (computes). The result as a new Scalar, cast to ``dtype`` if given."""
        return self._computed("dup").dup(dtype, name=name)


class VectorEwisePair(EwisePair, VectorAutoMethods):
    """A pair of Vectors: reads as the Vector it computes to."""


class MatrixEwisePair(EwisePair, MatrixAutoMethods):
    """A pair of Matrices: reads as the Matrix it computes to."""


class ScalarMatMul(ScalarLike, MatMul):
    """``u @ v``: reads as the Scalar it computes to."""

    @property
    def value(self):
        return self._computed("value").value


class VectorMatMul(MatMul, VectorAutoMethods):
    """``v @ A``, ``A @ v``: reads as the Vector it computes to."""


class MatrixMatMul(MatMul, MatrixAutoMethods):
    """``A @ B``: reads as the Matrix it computes to."""


def ewise_pair(left, right, kind):
    """``left | right`` (``kind`` "add") or ``left & right`` ("mult"), lazy."""
    if right is not None:
        # the shapes are checked here, as python-graphblas does; a Vector meets a Matrix
        # along its rows (``v | A``: v(i) with A(i, j)) or its columns (``A | v``)
        meet = (left.shape, right.shape) if len(left.shape) == len(right.shape) else \
            (left.shape[-1:], right.shape[:1])
        if meet[0] != meet[1]:
            raise DimensionMismatch(f"The shapes of `x {'|' if kind == 'add' else '&'} y` "
                                    f"differ: {left.shape} and {right.shape}")
    return (VectorEwisePair, MatrixEwisePair)[len(left.shape) - 1](left, right, kind)


def matmul(left, right):
    """``left @ right``, lazy; the shapes are checked here, as python-graphblas does."""
    for name, side in (("left", left), ("right", right)):
        if len(getattr(side, "shape", ())) not in (1, 2):
            raise TypeError(f"Bad type for argument `{name}` of `x @ y`: expected a Vector or a "
                            f"Matrix, got {type_name(side)}")
    inner = left.shape[-1], right.shape[0]
    if inner[0] != inner[1]:
        raise DimensionMismatch(f"The inner dimensions of `x @ y` differ: {left.shape} @ "
                                f"{right.shape}")
    ndim = len(left.shape) + len(right.shape) - 2
    return (ScalarMatMul, VectorMatMul, MatrixMatMul)[ndim](left, right)
