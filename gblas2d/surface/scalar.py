"""Scalar: one value (or none), the same on every rank.

Scalars are the results of reductions and the bound values of ``apply``; every operation that
makes one agrees on its value first, so a Scalar is replicated and reading it is local.

Arithmetic on Scalars (``s + 1``, ``s * t``, ``-s``, ``s < 3``, ``s.apply(op)``,
``s.ewise_add(t, op)``) has python-graphblas's meaning: element-wise on one-entry objects, so
``+`` is a union (an empty Scalar plus 1 is 1), ``-`` a union with zero defaults, ``*`` and the
comparisons an intersection (empty if either is). Each builds a lazy ``ScalarExpression``, and
runs as the same operation on one-entry Vectors: collective, like a reduction.
"""

import numbers

import numpy as np

from ..distributed.grid import collective, default_grid
from ..exceptions import EmptyObject
from ..semirings import binary, monoid, unary
from ..semirings.dtypes import BOOL, FP64, lookup_dtype
from .automethods import of_result
from .config import computes
from .container import Target
from .expr import ScalarExpression, as_op
from .infix import EwisePair, ScalarLike, call_op, numpy_mod
from .inputs import type_name
from .matrix_views import MatrixElement
from .vector import Vector
from .vector_views import VectorElement

__all__ = ["Scalar"]

def _lift(x):
    """A one-entry Vector holding the Scalar, lazy scalar or number ``x`` (no entry for an empty
    Scalar), or None for anything else (a Vector or Matrix operand takes its own path)."""
    if isinstance(x, ScalarLike) and not isinstance(x, Scalar):
        x = x.new()
    if isinstance(x, Scalar):
        out = Vector(x.dtype, 1)
        if x.value is not None:
            out[0] = x.value
        return out
    if isinstance(x, (numbers.Number, np.bool_)):
        return Vector.from_coo([0], [x], size=1)
    return None


def _lower(expr, method):
    """The one-entry Vector expression ``expr`` as a lazy Scalar."""
    return ScalarExpression(method, (), expr.dtype, lambda: expr.new()[0].new().value,
                            default_grid())


def _binary(left, right, op, kind="mult"):
    a, b = _lift(left), _lift(right)
    if a is None or b is None:
        return NotImplemented
    return _lower(call_op(a, b, op, kind), op.name)


class _Pairing:
    """``s | t``, ``s & t`` (and reflected) of a Scalar, a lazy scalar or a pair of them."""

    def __or__(self, other):
        return ScalarEwisePair.of(self, other, "add")

    def __ror__(self, other):
        return ScalarEwisePair.of(other, self, "add")

    def __and__(self, other):
        return ScalarEwisePair.of(self, other, "mult")

    def __rand__(self, other):
        return ScalarEwisePair.of(other, self, "mult")


class ScalarEwisePair(_Pairing, ScalarLike):
    """``s | t`` and ``s & t`` of Scalars, lazy scalars or numbers: waiting for an operator
    (``binary.plus(s | t | 0)``), as a Vector pair does (``_infix.EwisePair``, which computes
    it on one-entry Vectors); computed as it stands, ``lor`` / ``land`` of BOOL operands."""

    def __init__(self, pair):
        self._pair = pair

    @classmethod
    def of(cls, left, right, kind):
        symbol = "|" if kind == "add" else "&"
        sides = []
        for name, side in (("left", left), ("right", right)):
            if isinstance(side, ScalarEwisePair):
                if side._pair.kind != kind:
                    raise TypeError(f"`|` and `&` cannot be mixed in one infix expression: "
                                    f"compute a part first, as in op(x {symbol} y).new()")
                sides.append(side._pair)
            else:
                sides.append(_lift(side))
                if sides[-1] is None:
                    raise TypeError(f"Bad type for argument `{name}` of `x {symbol} y`.  "
                                    f"Expected a Scalar or a number.  Got: {type_name(side)}")
        return cls(EwisePair(*sides, kind))

    def _call_op(self, op, *args, **kwargs):
        return _lower(self._pair._call_op(op, *args, **kwargs), op.name)

    def _as_expression(self):
        return _lower(self._pair._as_expression(), "lor" if self._pair.kind == "add" else "land")

    @collective
    def new(self, dtype=None, *, name=None):
        """Collective. The pair computed as it stands (BOOL operands only)."""
        return self._as_expression().new(dtype, name=name)

    @property
    def dtype(self):
        return self._as_expression().dtype

    @property
    def value(self):
        """Collective. The pair computed as it stands (autocompute)."""
        return self._computed("value").value

    def _get_value(self, name):
        return self._computed(name)

    apply = of_result("apply")
    ewise_add = of_result("ewise_add")
    ewise_mult = of_result("ewise_mult")
    ewise_union = of_result("ewise_union")
    get = of_result("get")
    isclose = of_result("isclose")
    isequal = of_result("isequal")


class _Arithmetic(_Pairing):
    """Python's operators and python-graphblas's element-wise methods for a Scalar and a lazy
    scalar (``ScalarExpression`` takes them too)."""

    def __add__(self, other):
        return _binary(self, other, binary.plus, "add")

    def __radd__(self, other):
        return _binary(other, self, binary.plus, "add")

    def __sub__(self, other):
        return _binary(self, other, binary.minus, "union")

    def __rsub__(self, other):
        return _binary(other, self, binary.minus, "union")

    def __mul__(self, other):
        return _binary(self, other, binary.times)

    def __rmul__(self, other):
        return _binary(other, self, binary.times)

    def __truediv__(self, other):
        return _binary(self, other, binary.truediv)

    def __rtruediv__(self, other):
        return _binary(other, self, binary.truediv)

    def __floordiv__(self, other):
        return _binary(self, other, binary.floordiv)

    def __rfloordiv__(self, other):
        return _binary(other, self, binary.floordiv)

    def __pow__(self, other):
        return _binary(self, other, binary.pow)

    def __rpow__(self, other):
        return _binary(other, self, binary.pow)

    def __mod__(self, other):
        return _binary(self, other, numpy_mod)

    def __rmod__(self, other):
        return _binary(other, self, numpy_mod)

    def __lt__(self, other):
        return _binary(self, other, binary.lt)

    def __le__(self, other):
        return _binary(self, other, binary.le)

    def __gt__(self, other):
        return _binary(self, other, binary.gt)

    def __ge__(self, other):
        return _binary(self, other, binary.ge)

    def __xor__(self, other):
        a, b = _lift(self), _lift(other)
        if a is None or b is None or a.dtype != BOOL or b.dtype != BOOL:
            raise TypeError("`x ^ y` is only valid for BOOL scalars")
        return _lower(a.ewise_add(b, binary.lxor), "lxor")

    def __neg__(self):
        return self.apply(unary.ainv)

    def __abs__(self):
        return self.apply(unary.abs)

    def __invert__(self):
        if self.dtype != BOOL:
            raise TypeError(f"The invert operator, `~`, is not supported for {self.dtype} "
                            "dtype.  It is only supported for BOOL dtype.")
        return self.apply(unary.lnot)

    def apply(self, op, right=None, *, left=None):
        """``op`` applied to the value (a unary op, or a binary op with one bound scalar)."""
        return _lower(_lift(self).apply(op, right, left=left), "apply")

    def select(self, op, thunk=None):
        """The value if the select op keeps it, else empty."""
        return _lower(_lift(self).select(op, thunk), "select")

    def ewise_add(self, other, op=monoid.plus):
        return _lower(_lift(self).ewise_add(_operand(other, "ewise_add"), op), "ewise_add")

    def ewise_mult(self, other, op=binary.times):
        return _lower(_lift(self).ewise_mult(_operand(other, "ewise_mult"), op), "ewise_mult")

    def ewise_union(self, other, op, left_default, right_default):
        other = _operand(other, "ewise_union")
        defaults = [_default(d, name) for d, name in ((left_default, "left_default"),
                                                     (right_default, "right_default"))]
        return _lower(_lift(self).ewise_union(other, op, *defaults), "ewise_union")

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0


def _operand(x, method):
    """The other operand of a Scalar's element-wise method, lifted; TypeError for what is not
    a scalar (python-graphblas's wording)."""
    lifted = _lift(x)
    if lifted is None:
        raise TypeError(f"Bad type for argument `other` in Scalar.{method}(...). Expected type: "
                        f"Scalar. Literal scalars also accepted. Got {type_name(x)}")
    return lifted


def _default(x, name):
    """A default of ``ewise_union``: a number or a non-empty Scalar."""
    if isinstance(x, ScalarLike) and not isinstance(x, Scalar):
        x = x.new()
    if isinstance(x, Scalar):
        if x.value is None:
            raise EmptyObject(f"{name} of ewise_union is an empty Scalar")
        return x.value
    if not isinstance(x, (numbers.Number, np.bool_)):
        raise TypeError(f"Bad type for argument `{name}` in ewise_union(...). Expected type: "
                        f"Scalar. Literal scalars also accepted. Got {type_name(x)}")
    return x


class Scalar(_Arithmetic):
    """A typed value that may be empty.

    Examples
    --------
    >>> s = Scalar.from_value(3)
    >>> s.value, s.dtype, s.nvals
    (3, INT64, 1)
    """

    def __init__(self, dtype=FP64, *, is_cscalar=None, name=None):
        # every Scalar here is a C scalar (a local value), so is_cscalar changes nothing
        self.dtype = lookup_dtype(dtype)
        self._value = None
        self.name = name or "s"

    @classmethod
    def from_value(cls, value, dtype=None, *, is_cscalar=None, name=None):
        out = cls(dtype if dtype is not None else np.asarray(value).dtype, name=name)
        out.value = value
        return out

    @property
    def value(self):
        """The value as a Python scalar, or None when empty."""
        return None if self._value is None else self._value.item()

    @value.setter
    def value(self, value):
        self._value = None if value is None else self.dtype.np_type.type(value)

    @property
    def nvals(self):
        return 0 if self._value is None else 1

    # A Scalar holds a local numpy value, as python-graphblas's "C scalar" does.
    is_cscalar = True
    is_grbscalar = False

    @property
    def is_empty(self):
        return self._value is None

    def clear(self):
        self._value = None

    def get(self, default=None):
        return default if self._value is None else self.value

    def dup(self, dtype=None, *, clear=False, is_cscalar=None, name=None):
        """A copy, cast to ``dtype`` if given (emptied with ``clear``); every Scalar here is
        a C scalar, so ``is_cscalar`` changes nothing."""
        out = Scalar(self.dtype if dtype is None else dtype, name=name)
        if not clear and self._value is not None:
            out.value = self.value
        return out

    def wait(self, how="materialize"):
        """Nothing to wait for: the value is there."""
        if how not in ("materialize", "complete"):
            raise ValueError(f'`how` argument must be "materialize" or "complete"; got {how!r}')
        return self

    def __call__(self, *args, accum=None, mask=None, **opts):
        """``s(accum=op) << expr`` or ``s(op) << expr``: the target of an accumulated update (a
        Scalar takes no mask)."""
        for arg in args:
            if getattr(arg, "kind", None) not in ("binary", "monoid") or accum is not None:
                raise TypeError(f"Mask not allowed for Scalars, got {type_name(arg)}: only "
                                "s(accum=op) << value")
            accum = arg
        if mask is not None:
            raise TypeError("Mask not allowed for Scalars: only s(accum=op) << value")
        if opts:
            raise TypeError(f"unknown option(s) {', '.join(map(repr, opts))} of Scalar(...)")
        return _ScalarUpdater(self, accum)

    def __lshift__(self, other):
        """``s << expr``: the value of a lazy scalar (collective), a Scalar or a number, cast
        to this Scalar's type; an empty one empties it."""
        value = _value_of(other)
        if value is None:
            self._value = None
        else:
            self.value = value

    def update(self, other):
        self << other

    def isclose(self, other, *, rel_tol=1e-7, abs_tol=0.0, check_dtype=False):
        """Whether ``other`` holds a value within tolerance, or is empty too."""
        if isinstance(other, ScalarLike) and not isinstance(other, Scalar):
            other = other.new()
        if not isinstance(other, Scalar):
            other = Scalar.from_value(other) if other is not None else Scalar(self.dtype)
            check_dtype = False
        if check_dtype and self.dtype != other.dtype:
            return False
        if self._value is None or other._value is None:
            return self._value is None and other._value is None
        return bool(np.isclose(self.value, other.value, rtol=rel_tol, atol=abs_tol,
                               equal_nan=True))

    def isequal(self, other, *, check_dtype=False):
        """Whether ``other`` (a Scalar, a Python or numpy scalar, or None) holds the same value,
        or is empty too (None stands for empty); the dtypes too with ``check_dtype``, unless
        ``other`` is a literal, whose dtype is only inferred. ``==`` is this test. Local, but
        a lazy scalar (``v.reduce()``, ``v[i]``) is computed first: collective then.

        Examples
        --------
        >>> Scalar.from_value(47).isequal(47.0), Scalar(int).isequal(None)
        (True, True)
        """
        if isinstance(other, ScalarLike):
            other = other.new()
        if not isinstance(other, Scalar):
            if other is None:
                return self._value is None
            if not isinstance(other, (numbers.Number, np.bool_)):
                raise TypeError(f"Scalar.isequal expects a Scalar or a literal scalar, got "
                                f"{type_name(other)}")
            other = Scalar.from_value(other)
            check_dtype = False
        if check_dtype and self.dtype != other.dtype:
            return False
        if self._value is None or other._value is None:
            return self._value is None and other._value is None
        return bool(self.value == other.value)

    def __eq__(self, other):
        return self.isequal(other)

    # Equal to values of other hashes (47 == Scalar 47.0), so unhashable, as in python-graphblas.
    __hash__ = None

    def __bool__(self):
        """Whether the Scalar holds a truthy value (an empty one is False, as in
        python-graphblas; ``is_empty`` tells emptiness apart)."""
        return self._value is not None and bool(self._value)

    def __array__(self, dtype=None, copy=None):
        return np.array(self.value, dtype=self.dtype.np_type if dtype is None else dtype)

    def __float__(self):
        return float(self.value)

    def __int__(self):
        return int(self.value)

    def __complex__(self):
        return complex(self.value)

    def __index__(self):
        if self.dtype.np_type.kind not in "iu":
            raise AttributeError(f"Scalar of dtype {self.dtype} only has __index__ for "
                                 "integral dtypes")
        return int(self.value)

    def __imatmul__(self, other):
        # without it, Python would try ``s = s @ other``, which no Vector or Matrix takes
        raise TypeError("'__imatmul__' not supported for Scalar")

    def __repr__(self):
        return f"<gblas2d.Scalar {self.value!r}, dtype={self.dtype}>"


def _value_of(x):
    """The value of a Scalar, lazy scalar (computed: collective) or number; None if empty."""
    if isinstance(x, ScalarLike) and not isinstance(x, Scalar):
        x = x.new()
    return x.value if isinstance(x, Scalar) else x


class _ScalarUpdater(Target):
    """``s(accum=op)``: ``<<`` combines the new value with the held one by ``op``; an empty
    side leaves the other."""

    def __init__(self, scalar, accum):
        self.scalar = scalar
        self.accum = None if accum is None else as_op(accum, "binary")

    def __lshift__(self, other):
        if self.accum is not None and isinstance(other, (VectorElement, MatrixElement)):
            # ``s(accum=op) << v[i]``: python-graphblas reads v[i] here only under autocompute
            computes("Accumulating an element", type(other))
        s, value = self.scalar, _value_of(other)
        if self.accum is None or value is None or s.value is None:
            if value is not None or self.accum is None:
                s << value
            return s
        # As python-graphblas does, the value is cast to s's type and combined in it.
        dtype = s.dtype.np_type
        combined = self.accum.evaluate(np.array([s.value], dtype), np.array([value], dtype))[0]
        s.value = combined.item()
        return s

    def update(self, other):
        return self << other

    def _no_index(self, *args):
        raise TypeError("Indexing not supported for Scalars")

    __getitem__ = __setitem__ = __delitem__ = _no_index


ScalarExpression.output_class = Scalar
# A lazy scalar takes the same operators, methods and properties (``(s + 1) * 2``,
# ``v.reduce().apply(op)``, ``v.reduce().ndim``).
for _name, _method in vars(_Arithmetic).items():
    if (callable(_method) or isinstance(_method, property)) and _name != "__doc__":
        setattr(ScalarExpression, _name, _method)
