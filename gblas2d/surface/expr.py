"""Lazy expressions, masks and the ``w(mask, accum, replace) << expr`` syntax.

An expression records its shape and result type when it is built (so shape and type errors are
raised at once, identically on every rank) and computes only when it is assigned with ``<<`` or
``.new()``. Computation yields this rank's local part of the result; the output object then
applies accumulator, mask and replace locally and agrees on success and ``nvals`` with one
allreduce, so an error on one rank is raised on all of them and the output is left unchanged.
"""

import numpy as np

from ..distributed.grid import collective
from ..distributed.products import MatMat, MatVec, ProductMask
from ..exceptions import DimensionMismatch, DomainMismatch, InvalidValue
from ..semirings import _base, binary, from_string, unary
from ..semirings.dtypes import BOOL, lookup_dtype, unify
from .automethods import MatrixAutoMethods, VectorAutoMethods, computed
from .config import computes
from .infix import Infix, ScalarLike
from .inputs import type_name

__all__ = ["Mask", "Replace", "VectorExpression", "MatrixExpression", "ScalarExpression",
           "mxm_expression", "mxv_expression", "replace"]


class Replace:
    """The ``replace`` flag when passed positionally: ``w(mask, replace) << expr``."""

    def __repr__(self):
        return "replace"


replace = Replace()


class Mask:
    """``v.S`` (structure), ``v.V`` (value) and their complements ``~v.S``, ``~v.V``.

    Each mask allows a set of positions: the stored entries of ``parent`` (``S``) or those
    whose value is nonzero (``V``), or every other position when complemented. Masks combine
    as python-graphblas's do, into a new structural mask over a new BOOL object: ``m1 & m2``
    allows where both allow, ``m1 | m2`` where either does. The object holds the smaller
    side: a complemented result (``~a.S & ~b.S``, ``~a.S | b.S``) stores the positions it
    refuses, never the rest of the index space.

    >>> import gblas2d as gb
    >>> u = gb.Vector.from_coo([0, 1], [True, False], size=4)
    >>> w = gb.Vector.from_coo([1, 2], [True, True], size=4)
    >>> (u.S & w.S).new().to_coo()[0].tolist(), (u.V | w.V).new().to_coo()[0].tolist()
    ([1], [0, 1, 2])
    """

    def __init__(self, parent, structure, complement=False):
        self.parent = parent
        self.structure = structure
        self.complement = complement

    @property
    def value(self):
        """Whether this is a value mask (``v.V``, ``~v.V``), python-graphblas's flag."""
        return not self.structure

    @property
    def name(self):
        """``"v.S"``, ``"~v.V"``, ...: the parent's name and the mask's kind."""
        return repr(self)

    def __invert__(self):
        return Mask(self.parent, self.structure, not self.complement)

    def __bool__(self):
        raise TypeError(f"__bool__ not defined for a mask ({self!r}); use it as w(mask) << ...")

    def __eq__(self, other):
        raise TypeError(f"__eq__ not defined for a mask ({self!r}); compare the objects with "
                        "isequal")

    __hash__ = object.__hash__

    def __repr__(self):
        kind = "S" if self.structure else "V"
        return f"{'~' if self.complement else ''}{self.parent.name}.{kind}"

    # ---- mask algebra ----
    def _positions(self):
        """Collective. The positions this mask names before any complement, True in a new
        BOOL object of the parent's kind (O(parent's entries))."""
        named = Mask(self.parent, self.structure)
        return self.parent.apply(unary.one).new(BOOL, mask=named)

    @collective
    def __and__(self, other):
        """Collective. The mask that allows where both allow (``other``: a Mask, or a BOOL
        Vector or Matrix as its value mask)."""
        other = as_mask(other)
        if self.complement and other.complement:
            # ~B1 & ~B2 = ~(B1 | B2)
            return Mask(_union(self, other), structure=True, complement=True)
        # B & m: the positions of B that m allows
        named, rest = (other, self) if self.complement else (self, other)
        return Mask(named._positions().dup(mask=rest), structure=True)

    __rand__ = __and__

    @collective
    def __or__(self, other):
        """Collective. The mask that allows where either allows."""
        other = as_mask(other)
        if not (self.complement or other.complement):
            return Mask(_union(self, other), structure=True)
        # ~B | m = ~(the positions of B that m refuses)
        named, rest = (self, other) if self.complement else (other, self)
        return Mask(named._positions().dup(mask=~rest), structure=True, complement=True)

    __ror__ = __or__

    @collective
    def new(self, dtype=None, *, complement=False, mask=None, name=None):
        """Collective. A new object, True (in ``dtype``, BOOL by default) where this mask (and
        ``mask``, when given) allows, empty elsewhere; ``complement=True`` swaps the two.
        Like python-graphblas's: ``C(m) << expr`` writes where ``m.new()`` has entries.
        A result true outside a set of positions fills the rest of the index space."""
        dtype = BOOL if dtype is None else dtype
        combined = self if mask is None else self & mask
        allowed = Mask(combined._positions(), structure=True,
                       complement=combined.complement != complement)
        if not allowed.complement:
            return allowed.parent.dup(dtype, name=name)
        out = type(self.parent)(dtype, *self.parent.shape, name=name, grid=self.parent.grid)
        out(allowed) << True
        return out

    def dist(self):
        """This mask as the 2D layer's products read it (``products.ProductMask``)."""
        return ProductMask(self.parent.dist, self.structure, self.complement)

    def local(self):
        """This rank's part of a Vector mask, as a ``PieceMask`` (O(1) for a structural mask,
        O(entries) for a value mask)."""
        return self.dist().local()

    def block_mask(self):
        """This rank's part of a Matrix mask, aligned with the output's block."""
        return self.dist().block_mask()

    def on_rank(self):
        """This rank's part of the mask: ``local()`` of a Vector's, ``block_mask()`` of a
        Matrix's; either ``allows`` the keys of its container's ``_local_entries``."""
        return self.local() if len(self.parent.shape) == 1 else self.block_mask()


def _union(m1, m2):
    """Collective. The positions either mask names before any complement, True in a new BOOL
    object."""
    return m1._positions().ewise_add(m2._positions(), binary.lor).new()


def parse_call(args, mask, accum, replace_flag):
    """Sort positional ``w(...)`` arguments by type: a Mask, an accumulator op, ``replace``
    (python-graphblas's errors and wording)."""
    for arg in args:
        if isinstance(arg, Mask):
            if mask is not None:
                raise TypeError("Got multiple values for argument 'mask'")
            mask = arg
        elif isinstance(arg, Replace):
            replace_flag = True
        elif isinstance(arg, (_base.BinaryOp, _base.Monoid, str)) or \
                isinstance(arg, type(abs)) and arg in _BUILTIN_OPS:  # w("+"), w(max) << ...
            if accum is not None:
                raise TypeError("Got multiple values for argument 'accum'")
            accum = arg
        elif hasattr(type(arg), "V"):  # a Vector or Matrix, or a lazy one
            if mask is not None:
                raise TypeError("Got multiple values for argument 'mask'")
            mask = arg
        elif isinstance(arg, _base.Operator):
            raise TypeError(f"Expected type: BinaryOp, Monoid for accum; got {arg.kind} "
                            f"{arg.name}")
        else:
            raise TypeError(f"Invalid positional argument to w(...): {arg!r}")
    if mask is not None and not isinstance(mask, Mask):
        mask = _bool_mask(mask)
    if accum is not None:
        accum = as_op(accum, "binary")
    if replace_flag and mask is None:
        raise TypeError("'replace' argument may only be True if a mask is provided")
    return mask, accum, bool(replace_flag)


def as_mask(obj):
    """``obj`` as a Mask: a Mask, or a BOOL Vector or Matrix (its value mask)."""
    return obj if isinstance(obj, Mask) else _bool_mask(obj)


def input_mask_of(expr, input_mask):
    """The output mask that ``input_mask=`` (a mask on an extract's input) makes for ``expr``,
    an extract (``v[I]``, ``A[I, J]``, ``A[i, J]``, ...); python-graphblas takes it for
    extracts only."""
    mask_of_input = getattr(expr, "mask_of_input", None)
    if mask_of_input is None:
        raise TypeError("`input_mask` argument may only be used for extract")
    return mask_of_input(as_mask(input_mask))


def _bool_mask(obj):
    """A BOOL Vector or Matrix (or a lazy one, computed) given as a mask: its value mask, as
    python-graphblas takes it (``A(A < 3) << B``); anything else is refused."""
    if not hasattr(type(obj), "V"):
        raise TypeError(f"Invalid mask: must be v.S, v.V, ~v.S or ~v.V, got "
                        f"{type_name(obj)}")
    if obj.dtype != BOOL:
        raise TypeError(f"Mask must be boolean objects (got {obj.dtype}) or indicate values "
                        "(M.V) or structure (M.S)")
    return obj.V


def select_mask(op, thunk, target):
    """The Mask of ``target.select(op)`` when ``op`` is a mask (``w.S``) or a BOOL Vector or
    Matrix (or a lazy one) rather than a select op, else None (python-graphblas's rule)."""
    if not (isinstance(op, Mask) or hasattr(type(op), "V")):
        return None
    if thunk is not None:
        raise TypeError("thunk argument not None when calling select with mask or boolean object")
    if isinstance(op, (VectorAutoMethods, MatrixAutoMethods)):
        op = op.new()  # ``v.select(v > 2)``: python-graphblas reads it as select.value(v > 2)
    mask = op if isinstance(op, Mask) else _bool_mask(op)
    if mask.parent.shape != target.shape:
        raise TypeError(f"The mask of {type_name(target)}.select must be a "
                        f"{type_name(target)} of shape {target.shape}, got "
                        f"{type(mask.parent).__name__} of shape {mask.parent.shape}")
    check_grids(target.grid, mask.parent)
    return mask


# The engine's options of ``w(...)`` and ``expr.new(...)``, and the values each takes.
OPTIONS = {"direction": ("push", "pull"), "exchange": ("dense", "sparse"),
           "scheme": ("gather", "summa", "gather_left")}


def check_options(opts):
    """The options of ``w(...)``, checked: an unknown one is an error, not ignored."""
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
            raise InvalidValue(f"{type_name(obj)} {getattr(obj, 'name', '')!s} lives on "
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
        grid.comm.check_arguments(method, self.dtype, *args)
        self.compute = compute
        self._rebind = rebind
        self.grid = grid

    def _call_op(self, op, *args, **kwargs):
        on_values = getattr(op, "kind", None) in ("unary", "indexunary", "select")
        if self._rebind is not None and not args and not kwargs and not on_values:
            return self._rebind(op)  # binary.minus(u - v): the element-wise op with another op
        if (args or on_values) and isinstance(self, (VectorAutoMethods, MatrixAutoMethods)):
            # unary.abs(u + v), binary.floordiv(-A, 3): applied to the result (autocompute)
            return self._get_value(f"{op!r}(expression)")._call_op(op, *args, **kwargs)
        raise TypeError(f"An operator cannot be applied to the expression of {self.method_name}")

    def __repr__(self):
        return f"<{type(self).__name__} {self.method_name}, dtype={self.dtype}>"

    def __lshift__(self, other):
        raise TypeError("Expressions are not assignable; assign to a Vector or Matrix")


class VectorExpression(VectorAutoMethods, Infix, _Expression):
    """A lazy Vector result; ``compute(mask, opts)`` returns this rank's ``Piece``. Reading
    what a Vector has (``nvals``, ``isequal``, ``to_coo``, ...) computes it (``_automethods``)."""

    def __init__(self, method, args, dtype, size, compute, grid, *, masks_result=False,
                 borrows=False, **kw):
        super().__init__(method, args, dtype, compute, grid, **kw)
        self.size = size
        # whether compute's piece holds only what the output's mask allows (a product's)
        self.masks_result = masks_result
        # whether compute's piece is another Vector's own, which the output may read but
        # not keep
        self.borrows = borrows

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


class MatrixExpression(MatrixAutoMethods, Infix, _Expression):
    """A lazy Matrix result; ``compute(mask, opts)`` returns this rank's local block COO.
    Reading what a Matrix has (``nvals``, ``isequal``, ``T``, ...) computes it."""

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
        value = self.compute()
        out = self.output_class(self.dtype if dtype is None else dtype, name=name)
        if value is not None:
            out.value = value
        return out

    @property
    def value(self):
        """Collective. The reduced value (None when empty; autocompute)."""
        computes("value", type(self))
        return self.new().value

    @collective
    def wait(self, how="materialize"):
        """Collective. The computed Scalar (python-graphblas's autocompute)."""
        return self.new().wait(how)


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


# python-graphblas's class name of each kind of op, for the messages of ``as_op``
_OPCLASS = {"unary": "UnaryOp", "binary": "BinaryOp", "monoid": "Monoid", "semiring": "Semiring",
            "indexunary": "IndexUnaryOp", "select": "SelectOp"}
# Python's builtins that python-graphblas takes for ops (``v.ewise_mult(w, min)``)
_BUILTIN_OPS = {abs: "unary.abs", max: "binary.max", min: "binary.min"}
# What python-graphblas adds to the message when ``apply`` gets an op it cannot take
_ACCEPTS = {("unary", "indexunary", "binary"): "apply only accepts UnaryOp with no scalars or "
            "BinaryOp with `left` or `right` scalar or IndexUnaryOp with `right` thunk."}


def as_op(obj, *kinds):
    """Resolve ``obj`` (an op, a string such as ``"min.plus"``, or Python's ``abs``, ``min`` or
    ``max``) to an op of one of ``kinds``.

    As in python-graphblas, a Monoid stands for its BinaryOp where a binary op is wanted, a
    BinaryOp with a monoid for that Monoid where a monoid is wanted, a select op is an
    index-unary op (``apply`` computes its BOOL result), and an index-unary op with a BOOL
    result is a select op. Anything else is a TypeError in python-graphblas's words
    (``Expected type: BinaryOp, Monoid``).
    """
    if isinstance(obj, str):
        for kind in kinds:
            try:
                return from_string(kind, obj)
            except ValueError:
                continue
        raise ValueError(f"Unknown {' or '.join(kinds)} string: {obj!r}")
    if isinstance(obj, type(abs)) and obj in _BUILTIN_OPS:  # a builtin function
        obj = from_string(*_BUILTIN_OPS[obj].split("."))
    kind = obj.kind if isinstance(obj, _base.Operator) else None
    if kind in kinds:
        return obj
    if kind == "monoid" and "binary" in kinds:
        return obj.binaryop
    if kind == "binary" and "monoid" in kinds and obj.monoid is not None:
        return obj.monoid
    if kind == "select" and "indexunary" in kinds:
        return obj
    if kind == "indexunary" and "select" in kinds:
        if obj.output_type(lookup_dtype("INT64")) != lookup_dtype("BOOL"):
            raise ValueError(f"SelectOp must have BOOL return type; {obj!r} does not")
        return obj
    expected = [_OPCLASS[k] for k in kinds] + (["Monoid"] if "binary" in kinds else [])
    got = f"{_OPCLASS[kind]} ({obj!r})" if kind in _OPCLASS else type_name(obj)
    hint = ""
    if kind == "semiring":
        hint = "".join(f"\nYou may do `{obj.name}.{part}` to get the {opclass}."
                       for part, opclass in (("binaryop", "BinaryOp"), ("monoid", "Monoid"))
                       if opclass in expected)
    elif kind == "binary" and "monoid" in kinds:
        hint = f"\nThe BinaryOp {obj.name} is not known to be part of a Monoid."
    note = f"\n{_ACCEPTS[kinds]}" if kinds in _ACCEPTS else ""
    raise TypeError(f"Bad type for argument `op`.\n    - Expected type: "
                    f"{', '.join(dict.fromkeys(expected))}.\n    - Got: {got}.{note}{hint}")


def ewise_input_types(kind, a_type, b_type, left_default=None, right_default=None):
    """The types an element-wise op's operands are cast to. For ewise_union, as in
    python-graphblas, the defaults' types join the operands' (``u - v`` with Python int
    defaults on UINT8 operands computes in INT64)."""
    if kind != "union":
        return a_type, b_type
    for what, default in (("left_default", left_default), ("right_default", right_default)):
        if getattr(default, "shape", ()) != ():
            raise TypeError(f"Bad type for argument `{what}` in ewise_union: expected a "
                            f"Scalar, got {type_name(default)}.  Literal scalars also "
                            "accepted.")
    t = unify(unify(a_type, b_type), unify(lookup_dtype(np.asarray(left_default).dtype),
                                           lookup_dtype(np.asarray(right_default).dtype)))
    return t, t


def mxv_expression(A, x, op, orient, x_first):
    """The product ``A (+).(x) x`` ("mxv", outputs are rows) or ``x (+).(x) A`` ("vxm",
    outputs are columns) as an expression over the product value (``MatVec``); ``x_first``
    says whether x is the multiply's first operand. ``A`` may be a transposed view: the same
    product over the stored matrix, the other way round. Shapes and types are checked here,
    at once."""
    matrix = MatrixExpression.output_class
    A, x = computed(A), computed(x)
    if not isinstance(A, matrix) and isinstance(getattr(A, "T", None), matrix):
        A, orient = A.T, "vxm" if orient == "mxv" else "mxv"
    if not isinstance(A, matrix):
        raise TypeError(f"Bad type for argument `other` in Vector.vxm(...): expected a "
                        f"Matrix, got {type_name(A)}")
    if not hasattr(x, "local_piece"):
        raise TypeError(f"Bad type for argument `other` in {orient}(...): expected a Vector, "
                        f"got {type_name(x)}")
    sr = as_op(op, "semiring")
    product = MatVec(A.dist, x.dist, sr, orient, x_first, check_domain)

    def rebind(new_op):
        return mxv_expression(A, x, new_op, orient, x_first)

    return VectorExpression(orient, (A, x, sr), product.out_type, product.size,
                            product_compute(product), A.grid, rebind=rebind,
                            masks_result=product.masks_result)


def mxm_expression(A, B, op):
    """``A (+).(x) B`` as an expression over the product value (``MatMat``), checked at
    once."""
    B = computed(B)
    if not hasattr(B, "local_block"):
        raise TypeError(f"Bad type for argument `other` in Matrix.mxm(...): expected a "
                        f"Matrix, got {type_name(B)}")
    product = MatMat(A.dist, B.dist, as_op(op, "semiring"), check_domain)

    def rebind(new_op):
        return mxm_expression(A, B, new_op)

    return MatrixExpression("mxm", (A, B, product.semiring), product.out_type, *product.shape,
                            product_compute(product), A.grid, rebind=rebind)


def product_compute(product):
    """The compute step of an expression over a product value: the output's Mask handed to
    the product as the 2D layer reads it."""

    def compute(mask, opts):
        return product.compute(None if mask is None else mask.dist(), opts)

    return compute
