"""What a distributed Matrix and Vector share: their masks, the ``w(mask, accum, replace) <<
expr`` syntax, the element-wise methods, ``index in obj``, and calling an op on them; the
Python operators (``u + v``, ``v == 1``, ``v += 2``) come from ``_infix.py``.

A subclass supplies the operations themselves: ``_ewise`` (an element-wise expression of two
operands of its kind), ``apply``, ``select``, ``_check_mask`` (is this mask's shape the
output's?), ``_update`` (the collective write of an expression, object or scalar),
``_assign`` (``w[index] << value``) and ``_local_entries`` (this rank's sorted keys and
values). ``Updater``, what ``w(...)`` returns, calls those hooks.
"""

import numpy as np

from ._expr import Mask, check_domain, check_grids, check_options, parse_call
from ._infix import Infix, InPlace, ScalarLike
from ._inputs import scalar_dtype
from .grid import collective
from .semirings import binary, monoid

__all__ = ["Container", "Updater", "apply_values"]


class Container(InPlace):
    """Base of Matrix and Vector (see the module docstring)."""

    @property
    def S(self):
        """The structural mask: every stored entry allows."""
        return Mask(self, structure=True)

    @property
    def V(self):
        """The value mask: every stored entry whose value is nonzero allows."""
        return Mask(self, structure=False)

    # ---- assignment ----
    def __call__(self, *args, mask=None, accum=None, replace=False, input_mask=None, **opts):
        """What stands left of ``<<``: ``w(mask, accum, replace, direction=, exchange=)``."""
        mask, accum, replace = parse_call(args, mask, accum, replace)
        return Updater(self, mask, accum, replace, check_options(opts, input_mask))

    def __lshift__(self, other):
        return self().__lshift__(other)

    def update(self, other):
        """Collective. ``self << other``."""
        return self << other

    # ---- element-wise ----
    def ewise_add(self, other, op=monoid.plus):
        """Union: op where both are present, the one present value elsewhere."""
        return self._ewise(other, op, "add", "ewise_add")

    def ewise_mult(self, other, op=binary.times):
        """Intersection: op where both are present."""
        return self._ewise(other, op, "mult", "ewise_mult")

    def ewise_union(self, other, op, left_default, right_default):
        """Union with defaults standing in for a missing left or right value."""
        return self._ewise(other, op, "union", "ewise_union",
                           getattr(left_default, "value", left_default),
                           getattr(right_default, "value", right_default))

    # ---- comparison ----
    @collective
    def isequal(self, other, *, check_dtype=False):
        """Collective. Same shape, structure and values (and dtype when asked)."""
        return self._same_entries(other, check_dtype, "isequal", np.array_equal)

    @collective
    def isclose(self, other, *, rel_tol=1e-7, abs_tol=0.0, check_dtype=False):
        """Collective. Same shape and structure, values within tolerance."""
        return self._same_entries(other, check_dtype, "isclose", lambda a, b: bool(np.all(
            np.isclose(a, b, rtol=rel_tol, atol=abs_tol, equal_nan=True))))

    def _same_entries(self, other, check_dtype, method, values_match):
        if isinstance(other, Infix) and not isinstance(other, Container):
            # A lazy operand (A.T in A.isequal(A.T), an expression) is computed first, as
            # python-graphblas's autocompute does
            other = other._infix_operand()
        if type(other) is not type(self):
            raise TypeError(f"{method} expects a {type(self).__name__}, got "
                            f"{type(other).__name__}")
        if other.shape != self.shape or other.nvals != self.nvals:
            return False
        if check_dtype and other.dtype != self.dtype:
            return False
        (a_keys, a), (b_keys, b) = self._local_entries(), other._local_entries()
        same = np.array_equal(a_keys, b_keys) and values_match(a, b)
        return bool(self.grid.comm.allreduce(np.array([same], dtype=np.int64), "min")[0])

    # ---- ``i in v``, ``(i, j) in A`` ----
    @collective
    def __contains__(self, index):
        """Collective. Whether an entry is stored at ``index`` (python-graphblas's meaning);
        every rank gets the owner's answer."""
        element = self[index]
        if not isinstance(element, ScalarLike):
            raise TypeError(f"Invalid index to {type(self).__name__} contains: {index!r}.  "
                            "`index in obj` checks whether a value is present at one position: "
                            "give an integer (a Vector) or a 2-tuple of integers (a Matrix).")
        return element.value is not None

    # ---- an op called on the object: ``unary.abs(v)``, ``select.tril(A)`` ----
    def _call_op(self, op, *args, **kwargs):
        if op.kind in ("unary", "indexunary", "binary", "monoid"):
            return self.apply(op, *args, **kwargs)
        if op.kind == "select":
            return self.select(op, *args, **kwargs)
        raise TypeError(f"{op!r} cannot be applied to a {type(self).__name__}")


def apply_values(op, dtype, right, left):
    """What ``apply`` computes, for either container: the result type and ``values_of(vals,
    rows, cols)`` (global positions, which only index-unary ops read) for a unary op, an
    index-unary op with its thunk (``right``), or a binary op with one bound scalar (the
    caller has taken a Scalar's value). A wrong combination is a TypeError in
    python-graphblas's words."""
    if op.kind in ("indexunary", "select"):
        if left is not None:
            raise TypeError(f"Do not pass `left` when applying IndexUnaryOp {op!r}; its thunk "
                            "is `right`")
        thunk = 0 if right is None else right
        return check_domain(op, dtype, _bound_type(thunk, "right")), \
            lambda vals, rows, cols: op.evaluate(vals, rows, cols, thunk)
    if op.kind == "unary":
        if left is not None or right is not None:
            raise TypeError(f"Bad type for argument `op` in apply(..., "
                            f"{'left' if right is None else 'right'}=...).\n    - Expected "
                            f"type: BinaryOp (a bound scalar needs one).\n    - Got: UnaryOp "
                            f"({op!r}).")
        return check_domain(op, dtype), lambda vals, rows, cols: op.evaluate(vals)
    if left is not None and right is not None:
        raise TypeError(f"Cannot provide both `left` and `right` to apply (got left={left!r}, "
                        f"right={right!r}): a BinaryOp binds one scalar")
    if left is None and right is None:
        raise TypeError(f"Bad type when calling {op!r} (apply) with no scalar to bind.\n    - "
                        f"Expected type: UnaryOp, or a BinaryOp with left= or right= (as in "
                        f"{op!r}(v, 1)).\n    - Got: BinaryOp ({op!r}).")
    bound = right if left is None else left
    bound_type = _bound_type(bound, "right" if left is None else "left")

    def values_of(vals, rows, cols):
        s = np.full(len(vals), bound, dtype=bound_type.np_type)
        return op.evaluate(vals, s) if left is None else op.evaluate(s, vals)

    return check_domain(op, dtype, bound_type), values_of


def _bound_type(value, keyword):
    """The type of the scalar ``apply`` binds, or python-graphblas's TypeError for what is no
    scalar (a Vector given as ``right=``)."""
    try:
        return scalar_dtype(value)
    except (TypeError, ValueError):
        raise TypeError(f"Bad type for keyword argument `{keyword}=` in apply(...).\n    - "
                        f"Expected type: Scalar.  Literal scalars also accepted.\n    - Got: "
                        f"{type(value).__name__}.") from None


class Updater:
    """What ``w(mask=..., accum=..., replace=...)`` returns: the target of ``<<`` and ``[]``."""

    def __init__(self, parent, mask=None, accum=None, replace=False, opts=None):
        self.parent = parent
        self.mask = mask
        self.accum = accum
        self.replace = replace
        self.opts = opts or {}
        if mask is not None:
            check_grids(parent.grid, mask.parent)
            parent._check_mask(mask)

    @collective
    def __lshift__(self, other):
        """Collective. Assign ``other`` (an expression, a Vector/Matrix, or a scalar)."""
        if isinstance(other, Updater):
            raise TypeError("Assignment value must be a valid expression type, not an "
                            "Updater (w(...)): write w(...) << expr")
        check_grids(self.parent.grid, other)
        self.parent.grid.comm.check_replicated("<<", self.parent, self.mask, self.accum,
                                               self.replace, self.opts, other)
        self.parent._update(other, self.mask, self.accum, self.replace, self.opts)
        return self.parent

    def update(self, other):
        return self.__lshift__(other)

    def __getitem__(self, index):
        return Assigner(self, index)

    def __setitem__(self, index, value):
        Assigner(self, index) << value


class Assigner:
    """``w(mask)[index]``: the left side of an assignment."""

    def __init__(self, updater, index):
        self.updater = updater
        self.index = index

    @collective
    def __lshift__(self, value):
        if isinstance(value, Updater):
            raise TypeError("Bad type for argument `value`: an Updater (w(...)) is the left "
                            "side of <<, not a value")
        up = self.updater
        up.parent._assign(self.index, value, up.mask, up.accum, up.replace)
        return up.parent
