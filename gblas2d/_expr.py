"""Lazy expressions, masks and the ``w(mask, accum, replace) << expr`` syntax.

An expression records its shape and result type when it is built (so shape and type errors are
raised at once, identically on every rank) and computes only when it is assigned with ``<<`` or
``.new()``. Computation yields this rank's local part of the result; the output object then
applies accumulator, mask and replace locally and agrees on success and ``nvals`` with one
allreduce, so an error on one rank is raised on all of them and the output is left unchanged.
"""

import numpy as np

from ._block import BlockMask
from ._infix import Infix, ScalarLike
from ._piece import PieceMask
from .exceptions import DimensionMismatch, DomainMismatch, InvalidValue, NotImplementedException
from .grid import collective
from .semirings import _base, from_string
from .semirings.dtypes import lookup_dtype, unify

__all__ = ["Mask", "Replace", "VectorExpression", "MatrixExpression", "ScalarExpression",
           "replace"]


class Replace:
    """The ``replace`` flag when passed positionally: ``w(mask, replace) << expr``."""

    def __repr__(self):
        return "replace"


replace = Replace()


class Mask:
    """``v.S`` (structure), ``v.V`` (value) and their complements ``~v.S``, ``~v.V``."""

    def __init__(self, parent, structure, complement=False):
        self.parent = parent
        self.structure = structure
        self.complement = complement

    def __invert__(self):
        return Mask(self.parent, self.structure, not self.complement)

    def __repr__(self):
        kind = "S" if self.structure else "V"
        return f"{'~' if self.complement else ''}{self.parent.name}.{kind}"

    def local(self):
        """This rank's part of a Vector mask, as a ``PieceMask`` (O(1) for a structural mask,
        O(entries) for a value mask)."""
        return PieceMask(self.parent.piece, self.structure, self.complement)

    def block_mask(self):
        """This rank's part of a Matrix mask, aligned with the output's block."""
        return BlockMask(self.parent.block, self.structure, self.complement)


def parse_call(args, mask, accum, replace_flag):
    """Sort positional ``w(...)`` arguments by type: a Mask, an accumulator op, ``replace``."""
    for arg in args:
        if isinstance(arg, Mask):
            if mask is not None:
                raise TypeError("mask given twice")
            mask = arg
        elif isinstance(arg, Replace):
            replace_flag = True
        elif isinstance(arg, (_base.BinaryOp, _base.Monoid)):
            if accum is not None:
                raise TypeError("accum given twice")
            accum = arg
        elif hasattr(arg, "S") and hasattr(arg, "V"):
            raise TypeError("Use v.S or v.V (or their complements) as a mask, not the object")
        else:
            raise TypeError(f"Unexpected positional argument to w(...): {arg!r}")
    if mask is not None and not isinstance(mask, Mask):
        raise TypeError(f"mask must be v.S, v.V, ~v.S or ~v.V, got {type(mask).__name__}")
    if accum is not None:
        accum = as_op(accum, "binary")
    if replace_flag and mask is None:
        raise ValueError("replace=True requires a mask")
    return mask, accum, bool(replace_flag)


# The engine's options of ``w(...)`` and ``expr.new(...)``, and the values each takes.
OPTIONS = {"direction": ("push", "pull"), "exchange": ("dense", "sparse"),
           "scheme": ("gather", "summa")}


def check_options(opts, input_mask=None):
    """The options of ``w(...)``, checked: an unknown one is an error, not ignored."""
    if input_mask is not None:
        raise NotImplementedException(
            "input_mask= is not supported: mask the input instead, as in "
            "w << v.dup(mask=M.S)[index]")
    unknown = sorted(set(opts) - set(OPTIONS))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(map(repr, unknown))}: the options are "
                        f"{', '.join(f'{key}=' for key in OPTIONS)}")
    for key, value in opts.items():
        if value is not None and value not in OPTIONS[key]:
            raise InvalidValue(f"{key} must be one of {OPTIONS[key]}, got {value!r}")
    return dict(opts)


def check_grids(grid, *operands):
    """Raise at once, the same on every rank, unless every operand that lives on a grid lives
    on ``grid`` (or one that distributes alike)."""
    for obj in operands:
        other = getattr(obj, "grid", None)
        if other is not None and not grid.same_as(other):
            where = other.describe() if other.shape != grid.shape else \
                f"{other.describe()} over another communicator"
            raise InvalidValue(f"{type(obj).__name__} {getattr(obj, 'name', '')!s} lives on "
                               f"{where}, not on {grid.describe()}: the operands of one "
                               "operation must share a grid")


class _Expression:
    """Common part of lazy expressions: ``new``, functional rebinding, repr.

    ``output_class`` is the class ``new`` builds. The module that defines that class sets it
    (``VectorExpression.output_class = Vector``), so this module imports none of them.
    """

    output_class = None

    def __init__(self, method, args, dtype, compute, grid, *, rebind=None):
        check_grids(grid, *args)
        self.method_name = method
        self.args = args
        self.dtype = lookup_dtype(dtype)
        grid.comm.check_replicated(method, self.dtype, *args)
        self._compute = compute
        self._rebind = rebind
        self.grid = grid

    def _call_op(self, op, *args, **kwargs):
        if self._rebind is None or args or kwargs:
            raise TypeError(f"An operator cannot be applied to a {self.method_name} expression")
        return self._rebind(op)

    def __repr__(self):
        return f"<{type(self).__name__} {self.method_name}, dtype={self.dtype}>"

    def __lshift__(self, other):
        raise TypeError("Expressions are not assignable; assign to a Vector or Matrix")


class VectorExpression(Infix, _Expression):
    """A lazy Vector result; ``compute(mask, opts)`` returns this rank's ``Piece``."""

    def __init__(self, method, args, dtype, size, compute, grid, **kw):
        super().__init__(method, args, dtype, compute, grid, **kw)
        self.size = size

    @property
    def shape(self):
        return (self.size,)

    @collective
    def new(self, dtype=None, *, mask=None, name=None, **opts):
        """Collective. Compute into a new Vector."""
        out = self.output_class(self.dtype if dtype is None else dtype, self.size, name=name,
                                grid=self.grid)
        out(mask=mask, **opts) << self
        return out


class MatrixExpression(Infix, _Expression):
    """A lazy Matrix result; ``compute(mask, opts)`` returns this rank's local block COO."""

    def __init__(self, method, args, dtype, nrows, ncols, compute, grid, *, symmetric=False,
                 **kw):
        super().__init__(method, args, dtype, compute, grid, **kw)
        self.nrows = nrows
        self.ncols = ncols
        # Known to equal its own transpose: a matrix that takes it whole knows it too.
        self.symmetric = symmetric

    @property
    def shape(self):
        return (self.nrows, self.ncols)

    @collective
    def new(self, dtype=None, *, mask=None, name=None, **opts):
        """Collective. Compute into a new Matrix."""
        out = self.output_class(self.dtype if dtype is None else dtype, self.nrows, self.ncols,
                                name=name, grid=self.grid)
        out(mask=mask, **opts) << self
        return out


class ScalarExpression(ScalarLike, _Expression):
    """A lazy reduction to one value; ``compute()`` returns the value or None (empty)."""

    @collective
    def new(self, dtype=None, *, name=None):
        """Collective. Compute into a new Scalar."""
        value = self._compute()
        out = self.output_class(self.dtype if dtype is None else dtype, name=name)
        if value is not None:
            out.value = value
        return out

    @property
    @collective
    def value(self):
        """Collective. The reduced value (None when empty)."""
        return self.new().value


def check_size(what, a, b, a_name, b_name):
    if a != b:
        raise DimensionMismatch(f"{a_name} (={a}) must equal {b_name} (={b}) in {what}")


def check_domain(op, *types):
    """The op's output type for these input types, or DomainMismatch (same on every rank)."""
    try:
        return op.output_type(*types)
    except (TypeError, ValueError) as exc:
        names = ", ".join(str(lookup_dtype(t)) for t in types)
        raise DomainMismatch(f"{op!r} cannot be applied to {names}: {exc}") from exc


def as_op(obj, *kinds):
    """Resolve ``obj`` (an op or a string such as ``"min.plus"``) to an op of one of ``kinds``.

    A Monoid stands for its BinaryOp where a binary op is wanted, and a BinaryOp with a monoid
    stands for that Monoid where a monoid is wanted, as in python-graphblas.
    """
    if isinstance(obj, str):
        for kind in kinds:
            try:
                return from_string(kind, obj)
            except ValueError:
                continue
        raise ValueError(f"Unknown {' or '.join(kinds)} string: {obj!r}")
    if isinstance(obj, _base.Operator):
        if obj.kind in kinds:
            return obj
        if obj.kind == "monoid" and "binary" in kinds:
            return obj.binaryop
        if obj.kind == "binary" and "monoid" in kinds and obj.monoid is not None:
            return obj.monoid if obj.type is None else obj.monoid[obj.type]
    raise TypeError(f"Expected a {' or '.join(kinds)} operator, got {obj!r}")


def ewise_input_types(kind, a_type, b_type, left_default=None, right_default=None):
    """The types an element-wise op's operands are cast to. For ewise_union, as in
    python-graphblas, the defaults' types join the operands' (``u - v`` with Python int
    defaults on UINT8 operands computes in INT64)."""
    if kind != "union":
        return a_type, b_type
    t = unify(unify(a_type, b_type), unify(lookup_dtype(np.asarray(left_default).dtype),
                                           lookup_dtype(np.asarray(right_default).dtype)))
    return t, t
