"""What a distributed Matrix and Vector share: their masks, the ``w(mask, accum, replace) <<
expr`` syntax, the element-wise methods, ``index in obj``, and calling an op on them; the
Python operators (``u + v``, ``v == 1``, ``v += 2``) come from ``infix.py``.

``apply``, ``select`` and the reduction to one value are written here once: each checks its
arguments (at once, alike on every rank) and makes a lazy expression whose compute step reads
this rank's part through the hooks below.

A subclass supplies:
- ``_local_part()``: this rank's Piece or Block (``with_values`` and ``select`` take arrays
  aligned with its entries);
- ``_local_values()``: its entries' values; ``_local_entries()``: their sorted local keys and
  values; ``_entry_positions()``: their global (rows, columns), a Vector's columns 0 (all in
  host memory);
- ``_device_part()``: this rank's part where a device kernel left it (a Vector's piece), or
  None: an op that takes any module's arrays runs on it there;
- ``_lazy(method, args, dtype, compute, symmetric=False)``: its kind of lazy expression;
- ``_ewise`` (an element-wise expression of two operands of its kind), ``_check_mask`` (is
  this mask's shape the output's?), ``_result_of`` (the expression an object or value given
  to ``<<`` stands for, or None once a value is assigned), ``_write`` (GraphBLAS's write of a
  computed part, and the agreed nvals) and ``_assign`` (``w[index] << value``). ``Updater``,
  what ``w(...)`` returns, calls those, through ``Container._update``: the one route of a
  result into its output.
"""

import numbers

import numpy as np

from ..distributed.grid import collective
from ..distributed.parts import entries_together, fold_to_scalar
from ..exceptions import DimensionMismatch, EmptyObject
from ..semirings import OrderedMonoid, binary, held_as_bitmap, monoid, unary
from ..semirings._arrays import array_module
from . import display as _display
from . import shape as _shape
from .agg import Aggregator, reduction_op
from .automethods import computed
from .expr import (
    Mask,
    ScalarExpression,
    as_mask,
    as_op,
    check_domain,
    check_grids,
    check_options,
    ewise_input_types,
    input_mask_of,
    parse_call,
    select_mask,
)
from .infix import Infix, InPlace, ScalarLike
from .inputs import scalar_dtype, type_name
from .ss import SuiteSparseInfo

__all__ = ["Container", "Updater", "apply_values"]


class Container(InPlace):
    """Base of Matrix and Vector (see the module docstring)."""

    _symmetric = False  # set on a Matrix known to equal its transpose

    def __repr__(self):
        """Its facts and its values, the top-left corner first (``display.py``); local: never
        communicates, so any rank may print it alone."""
        return _display.text_of(self)

    def _repr_html_(self):
        return _display.html_of(self)

    @property
    def S(self):
        """The structural mask: every stored entry allows."""
        return Mask(self, structure=True)

    @property
    def V(self):
        """The value mask: every stored entry whose value is nonzero allows."""
        return Mask(self, structure=False)

    @property
    def ss(self):
        """python-graphblas's SuiteSparse attributes that gblas2d has (``A.ss.is_iso``,
        ``A.ss.iso_value``: collective when read, see ``ss.py``)."""
        return SuiteSparseInfo(self)

    # ---- assignment ----
    def __call__(self, *args, mask=None, accum=None, replace=False, input_mask=None, **opts):
        """What stands left of ``<<``: ``w(mask, accum, replace, direction=, exchange=)``."""
        mask, accum, replace = parse_call(args, mask, accum, replace)
        if accum is not None and accum.type is None and not accum.index_aware:
            # python-graphblas types the accumulator by the output's type alone: T is cast
            # to C's type and accum(C, T) computed in it (a UINT64 C minus 7 wraps)
            accum = accum[self.dtype]
        if input_mask is not None:
            if mask is not None:
                raise TypeError("mask and input_mask arguments cannot both be given")
            input_mask = as_mask(input_mask)
        return Updater(self, mask, accum, replace, check_options(opts), input_mask)

    def __lshift__(self, other):
        return self().__lshift__(other)

    def update(self, other):
        """Collective. ``self << other``."""
        return self << other

    def _update(self, other, mask, accum, replace, opts):
        """Collective. ``self(mask, accum, replace, **opts) << other``: every result reaches
        its output here. The expression computes this rank's part T (a product pushes the
        mask down into its local kernel), this rank writes ``C<M, replace> = accum(C, T)``,
        and the ranks agree on the new nvals (``_write``)."""
        if other is None:
            raise TypeError("Assignment value must be a valid expression type, not None")
        result = self._result_of(other, mask, accum, replace)
        if result is None:
            return
        if accum is not None:
            check_domain(accum, self.dtype, result.dtype)
        self._write(result, result.compute(mask, opts), mask, accum, replace)

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

    # ---- element-wise: the checks once, the local op per kind (``_ewise_local``) ----
    def _ewise(self, other, op, kind, method, left_default=None, right_default=None):
        other = computed(other)
        if isinstance(other, Infix) and not isinstance(other, Container) and \
                other._infix_operand is not None:  # None: a lazy scalar, refused below
            other = other._infix_operand()  # A.T, formed first (collective)
        if isinstance(other, Container) and len(other.shape) != len(self.shape):
            matrix, vector = (self, other) if len(self.shape) == 2 else (other, self)
            return _shape.broadcast(matrix, vector, op, kind, method,
                                    (left_default, right_default), v_first=vector is self)
        if type(other) is not type(self):
            raise TypeError(f"{method} expects a {type(self).__name__}, got "
                            f"{type_name(other)}")
        if other.shape != self.shape:
            name = type(self).__name__
            what = "size" if len(self.shape) == 1 else "shape"
            mine, theirs = (self.shape, other.shape) if what == "shape" else \
                (self.shape[0], other.shape[0])
            raise DimensionMismatch(f"{name}.{what} (={theirs}) must equal {name}.{what} "
                                    f"(={mine}) in {method}")
        binop = as_op(op, "binary")
        defaults = (left_default, right_default)
        in_types = ewise_input_types(kind, self.dtype, other.dtype, *defaults)
        out_type = check_domain(binop, *in_types)
        types = (in_types[0].np_type, in_types[1].np_type)
        a, b = self, other

        def compute(mask, opts):
            return a._ewise_local(b, binop, kind, types, out_type, defaults)

        def rebind(new_op):
            return a._ewise(b, new_op, kind, method, *defaults)

        # op(A, B) at (i, j) and at (j, i) read the same two values when A and B are symmetric.
        return self._lazy(method, (self, other, binop, *defaults), out_type, compute,
                          symmetric=other._symmetric and not binop.index_aware, rebind=rebind)

    # ---- apply, select, reduce to one value: written once, over this rank's part ----
    def apply(self, op, right=None, *, left=None):
        """f(x) of every entry: a unary op, a binary op with a bound scalar (``right=`` or
        ``left=``), or an index-unary op f(x, row, col, thunk) (a Vector's col is 0)."""
        op = as_op(op, "unary", "indexunary", "binary")
        positional = op.kind in ("indexunary", "select") and op.reads_positions
        right, left = bound_value(right, "right"), bound_value(left, "left")
        out_type, values_of = apply_values(op, self.dtype, right, left)
        a = self

        def compute(mask, opts):
            held = None if positional or not _any_arrays(op) else a._device_part()
            if held is not None:
                values = values_of(held.entries()[1], None, None)
                return held.with_values(values.astype(out_type.np_type, copy=False))
            if op.kind == "unary" and held is None and _builtin(op):
                # A builtin unary op maps the values as they are held (a bitmap's whole
                # array, an iso block's one value).
                return a._local_part().mapped(lambda vals: values_of(vals, None, None),
                                              out_type.np_type)
            rows, cols = a._entry_positions() if positional else (None, None)
            values = np.asarray(values_of(a._local_values(), rows, cols))
            # The structure is unchanged: the new part shares it.
            return a._local_part().with_values(values.astype(out_type.np_type, copy=False))

        return self._lazy("apply", (self, op, left, right), out_type, compute,
                          symmetric=not positional and not getattr(op, "index_aware", False))

    def select(self, op, thunk=None):
        """Keep the entries where the select op (a value or position predicate) is True, or
        where a mask allows (``v.select(w.S)``, ``A.select(A > 2)``: a BOOL object's
        values)."""
        a = self
        keep = select_mask(op, thunk, self)
        if keep is not None:
            def by_mask(mask, opts):
                return a._local_part().select(keep.on_rank().allows(a._local_entries()[0]))

            return self._lazy("select", (self, keep), self.dtype, by_mask)
        op = as_op(op, "select")
        thunk = select_thunk(thunk)
        check_domain(op, self.dtype, scalar_dtype(thunk))

        def compute(mask, opts):
            if not op.reads_positions:
                return a._select_values(op, thunk)
            part = a._select_positions(op, thunk)
            if part is not None:
                return part
            keep = op.evaluate(a._local_values(), *a._entry_positions(), thunk)
            return a._local_part().select(np.asarray(keep).astype(bool, copy=False))

        # A value test, or the main diagonal or what is off it, keeps an entry with its mirror.
        mirrored = not op.reads_positions or (op.name in ("diag", "offdiag") and thunk == 0)
        return self._lazy("select", (self, op, thunk), self.dtype, compute, symmetric=mirrored)

    def _device_part(self):
        return None

    def _select_positions(self, op, thunk):
        """This rank's part kept where the position test ``op`` holds, where the container
        has a way of its own; None otherwise."""
        return None

    def _select_values(self, op, thunk):
        """This rank's part, kept where the value test ``op`` holds."""
        keep = op.evaluate(self._local_values(), None, None, thunk)
        return self._local_part().select(np.asarray(keep).astype(bool, copy=False))

    def _reduce_all(self, op, method, allow_empty):
        """(+) of every entry, a Scalar expression: each rank folds its part, the ranks'
        folds are gathered and folded again, in rank order. ``op``: a monoid, or a string
        naming a monoid or an aggregator (``v.reduce("count")``)."""
        op = reduction_op(op)
        if isinstance(op, Aggregator):
            return op.reduce(self, method, allow_empty=allow_empty)
        mon = as_op(op, "monoid")
        out_type = check_domain(mon, self.dtype)
        a = self
        # python-graphblas's order for floats (semirings/_ordered.py), from replicated facts
        in_lanes = isinstance(mon, OrderedMonoid) and not held_as_bitmap(self.shape, self.nvals)

        def compute():
            held = a._device_part() if _any_arrays(mon.binaryop) else None
            if held is not None:
                # a fold that might stop early would wait on the device at every chunk
                return fold_to_scalar(a.grid, held, mon, in_lanes, None, out_type, allow_empty)
            return fold_to_scalar(a.grid, a._local_part(), mon, in_lanes, mon.stop_of(out_type),
                                  out_type, allow_empty)

        return ScalarExpression(method, (self, mon), out_type, compute, self.grid)

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
                            f"{type_name(other)}")
        if other.shape != self.shape or other.nvals != self.nvals:
            return False
        if check_dtype and other.dtype != self.dtype:
            return False
        if self._device_part() is None and other._device_part() is None:
            (a_keys, a), (b_keys, b) = self._local_entries(), other._local_entries()
        else:
            # compared on the device (FastSV's test each round): one bool comes up
            (a_keys, a), (b_keys, b) = entries_together(
                *(c._device_part() or c._local_part() for c in (self, other)))
        same = bool(np.array_equal(a_keys, b_keys)) and bool(values_match(a, b))
        # one world step, where each rank that differs adds one; its sum, the same everywhere,
        # ends the call (FastSV's test of every round)
        return not self.grid.comm.step([int(not same)], final=True)[0]

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
        return element.new().value is not None

    # ---- an op called on the object: ``unary.abs(v)``, ``select.tril(A)`` ----
    def _call_op(self, op, *args, **kwargs):
        if op.kind in ("unary", "indexunary", "binary", "monoid"):
            return self.apply(op, *args, **kwargs)
        if op.kind == "select":
            return self.select(op, *args, **kwargs)
        got = ", ".join(type_name(x) for x in (self, *args))
        raise TypeError(f"Bad type{'s' if args else ''} when calling {op!r}.  Got {got}.  A "
                        f"{op.kind} takes an infix expression, such as: {op!r}(A @ B)")


def bound_value(x, name):
    """The value of ``apply``'s ``left``/``right``: a number, a Scalar (an empty one is an
    EmptyObject error: it has nothing to bind) or a lazy scalar (computed)."""
    if x is None or not hasattr(x, "value"):
        return x
    if x.value is None:
        raise EmptyObject(f"`{name}` of apply is an empty Scalar: there is no value to bind")
    return x.value


def select_thunk(thunk):
    """The value ``select``'s op is given: a number, a Scalar's value, 0 for none."""
    thunk = getattr(thunk, "value", thunk)
    if thunk is None:
        return 0
    if not isinstance(thunk, (numbers.Number, np.generic)):
        raise TypeError(f"Bad type for keyword argument `thunk=` in select: expected a scalar, "
                        f"got {type_name(thunk)}")
    return thunk


def _builtin(op):
    """Whether ``op`` is an op of the builtin unary or binary catalogue."""
    catalogue = {"unary": unary, "binary": binary}.get(op.kind)
    builtin = getattr(catalogue, op.name, None) if catalogue is not None else None
    return builtin is not None and builtin.func is op.func


def _any_arrays(op):
    """Whether ``op``'s function takes any array module's arrays: an op of the builtin
    catalogue, or a user function marked ``any_arrays`` (the fused BPT's)."""
    return _builtin(op) or getattr(op.func, "any_arrays", False)


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
        s = array_module(vals).full(len(vals), bound, dtype=bound_type.np_type)
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
                        f"{type_name(value)}.") from None


class Target:
    """The left side of ``<<`` (``w(...)``, ``w(mask)[index]``, ``w[index](mask)``): not a
    value, so neither true nor equal to anything, as in python-graphblas."""

    __hash__ = object.__hash__

    def __bool__(self):
        raise TypeError(f"__bool__ not defined for objects of type {type(self)}: the left "
                        "side of <<")

    def __eq__(self, other):
        raise TypeError(f"__eq__ not defined for objects of type {type(self)}: the left side "
                        "of <<")


class Updater(Target):
    """What ``w(mask=..., accum=..., replace=...)`` returns: the target of ``<<`` and ``[]``."""

    def __init__(self, parent, mask=None, accum=None, replace=False, opts=None,
                 input_mask=None):
        self.parent = parent
        self.mask = mask
        self.input_mask = input_mask  # an extract's mask on its input (``input_mask_of``)
        self.accum = accum
        self.replace = replace
        self.opts = opts or {}
        if mask is not None:
            check_grids(parent.grid, mask.parent)
            parent._check_mask(mask)

    @collective
    def __lshift__(self, other):
        """Collective. Assign ``other`` (an expression, a Vector/Matrix, or a scalar)."""
        if isinstance(other, Target):
            raise TypeError(f"Assignment value must be a valid expression type, not "
                            f"{type_name(other)}, the left side of another <<: write "
                            "w(...) << expr")
        check_grids(self.parent.grid, other)
        mask = self.mask
        if self.input_mask is not None:
            mask = input_mask_of(other, self.input_mask)
            self.parent._check_mask(mask)
        self.parent.grid.comm.check_arguments(
            "<<", output=self.parent, mask=mask, accum=self.accum, replace=self.replace,
            options=self.opts, value=other)
        self.parent._update(other, mask, self.accum, self.replace, self.opts)
        return self.parent

    def update(self, other):
        return self.__lshift__(other)

    def __getitem__(self, index):
        if self.input_mask is not None:
            raise TypeError("`input_mask` argument may only be used for extract")
        return Assigner(self.parent, index, self.mask, self.accum, self.replace)

    def __setitem__(self, index, value):
        self[index] << value


class Assigner(Target):
    """The left side of an assignment to part of ``w``: ``w(mask)[index]`` (GrB_assign: the
    mask is w's) or, with ``submask``, ``w[index](mask)`` (GxB_subassign: the mask has the
    region's shape), python-graphblas's Assigner."""

    def __init__(self, parent, index, mask=None, accum=None, replace=False, *, submask=False):
        self.parent, self.index = parent, index
        self.mask, self.accum, self.replace = mask, accum, replace
        self.submask = submask and mask is not None

    @collective
    def __lshift__(self, value):
        """Collective. Assign ``value`` (a scalar, Vector or Matrix) to the indexed part."""
        if isinstance(value, Target):
            raise TypeError(f"Bad type for argument `value`: {type_name(value)} is the "
                            "left side of <<, not a value")
        self.parent.grid.comm.check_replicated(
            "assign", output=self.parent, index=self.index, value=value, mask=self.mask,
            accum=self.accum, replace=self.replace, submask=self.submask)
        if self.submask:
            self.parent._subassign(self.index, value, self.mask, self.accum, self.replace)
        else:
            self.parent._assign(self.index, value, self.mask, self.accum, self.replace)
        return self.parent

    def update(self, value):
        return self << value
