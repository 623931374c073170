"""What a distributed Matrix and Vector share: their masks, the ``w(mask, accum, replace) <<
expr`` syntax, the element-wise methods, ``index in obj``, and calling an op on them; the
Python operators (``u + v``, ``v == 1``, ``v += 2``) come from ``_infix.py``.

A subclass supplies the operations themselves: ``_ewise`` (an element-wise expression of two
operands of its kind), ``apply``, ``select``, ``_check_mask`` (is this mask's shape the
output's?), ``_update`` (the collective write of an expression, object or scalar) and
``_assign`` (``w[index] << value``). ``Updater``, what ``w(...)`` returns, calls those hooks.
"""

from ._expr import Mask, check_grids, check_options, parse_call
from ._infix import InPlace, ScalarLike
from .grid import collective
from .semirings import binary, monoid

__all__ = ["Container", "Updater"]


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
        check_grids(self.parent.grid, other)
        self.parent.grid.comm.check_replicated("<<", self.parent, self.mask, self.accum,
                                               self.replace, self.opts, other)
        self.parent._update(other, self.mask, self.accum, self.replace, self.opts)
        return self.parent

    def update(self, other):
        return self.__lshift__(other)

    def __getitem__(self, index):
        return _AssignTarget(self, index)

    def __setitem__(self, index, value):
        _AssignTarget(self, index) << value


class _AssignTarget:
    """``w(mask)[index]``: the left side of an assignment."""

    def __init__(self, updater, index):
        self.updater = updater
        self.index = index

    @collective
    def __lshift__(self, value):
        up = self.updater
        up.parent._assign(self.index, value, up.mask, up.accum, up.replace)
        return up.parent
