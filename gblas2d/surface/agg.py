"""Aggregators (``gb.agg``): reductions that are more than one monoid, as python-graphblas's.

``A.reduce_rowwise(agg.count)``, ``v.reduce(agg.L2norm)``, ``A.reduce_scalar(agg.varp)``: each
aggregator is a recipe of public operations on the distributed object, so it runs the same on
every rank and costs what those operations cost. Three kinds of recipe:

- a fold: prepare the values (count them, square them, take their absolute value or their
  truth), fold them with a monoid, and finish the result where it must (a square root, a log);
  one element-wise pass and one reduction (a fold along the grid rows or columns, or an
  allreduce);
- a composite: several folds (count, sum, sum of squares) combined entry by entry with
  python-graphblas's own formulas and intermediate types, so the results agree to rounding
  (``varp`` is ``<x2> / n - (<x> / n)**2``, not a two-pass variance);
- a positional recipe: the position of each entry along the reduced axis
  (``indexunary.rowindex``/``colindex``), its min or max, and the entries that match it, found
  by element-wise equality with the reduced Vector broadcast along rows or columns.

Provided: the folds ``sum``, ``prod``, ``min``, ``max``, ``any``, ``all``, ``any_value``,
``bitwise_all``, ``bitwise_any``, ``count``, ``count_nonzero``, ``count_zero``, ``exists``,
``sum_of_squares``, ``sum_of_inverses``, ``L0norm``, ``L1norm``, ``L2norm``, ``Linfnorm``,
``hypot``, ``logaddexp``, ``logaddexp2``; the composites ``mean``, ``peak_to_peak``, ``varp``,
``vars``, ``stdp``, ``stds``, ``geometric_mean``, ``harmonic_mean``, ``root_mean_square``; the
positional ``first``, ``last``, ``first_index``, ``last_index``, ``argmin``, ``argmax`` (the last
four refuse ``Matrix.reduce_scalar``, as python-graphblas's do). The result types are
python-graphblas's, and so are the types refused (``DomainMismatch`` where python-graphblas
raises KeyError): the arithmetic ones take no BOOL, the bitwise ones only unsigned integers. As
there, only the aggregators that are one monoid take ``allow_empty=False``.

python-graphblas 2025.2.0 has the six positional aggregators in ``agg.ss`` and warns
(DeprecationWarning) when they are read from ``agg``; gblas2d has no ``agg.ss``, keeps them in
``agg`` and warns the same way, so code meant for both libraries hears of it.

>>> import gblas2d as gb
>>> v = gb.Vector.from_coo([0, 2, 3], [3.0, -1.0, 2.0], size=5)
>>> v.reduce(gb.agg.varp).new().value
2.8888888888888893
"""

import warnings

import numpy as np

from ..exceptions import DomainMismatch
from ..semirings import binary, indexunary, monoid, resolve, select, unary
from ..semirings.dtypes import BOOL, FP64, INT32, INT64, lookup_dtype
from .expr import ScalarExpression, VectorExpression
from .inputs import type_name

__all__ = ["Aggregator", "L0norm", "L1norm", "L2norm", "Linfnorm", "all", "any", "any_value",
           "bitwise_all", "bitwise_any", "count", "count_nonzero", "count_zero", "exists",
           "from_string", "geometric_mean", "harmonic_mean", "hypot", "logaddexp", "logaddexp2",
           "max", "mean", "min", "peak_to_peak", "prod", "root_mean_square", "stdp", "stds",
           "sum", "sum_of_inverses", "sum_of_squares", "varp", "vars"]

# The reductions to one value; reduce_rowwise and reduce_columnwise give a Vector.
_TO_SCALAR = ("reduce", "reduce_scalar")


class Aggregator:
    """A named reduction recipe (see the module docstring), python-graphblas's ``Aggregator``.

    Parameters
    ----------
    name : str
    recipe : callable(obj, method, allow_empty) -> lazy Vector or Scalar
        ``method`` is ``reduce`` (``obj`` a Vector), ``reduce_rowwise``, ``reduce_columnwise``
        or ``reduce_scalar``; collective.
    accepts : callable(DataType) -> bool, optional
        The input types; the others raise DomainMismatch. Every type by default.
    result : callable(DataType) -> DataType, optional
        The result type when the recipe's own must be cast to it (``varp`` of FP32 is FP32,
        computed in FP64).
    monoid_only : bool
        One monoid, as ``sum``: ``allow_empty=False`` gives its identity for no entries.
    to_scalar : bool
        Whether ``Matrix.reduce_scalar`` may use it.
    composite, finalize, types
        python-graphblas's way to make one of others, instead of ``recipe``:
        ``Aggregator("silly", composite=[agg.varp, agg.stdp], finalize=lambda x, y, opts:
        binary.times(x & y), types=[agg.varp])`` reduces by each part, then ``finalize``
        makes the result of theirs (``opts`` is ``{}``); ``types``' first entry, an aggregator
        or a type, gives the result type.
    """

    def __init__(self, name, recipe=None, *, accepts=None, result=None, monoid_only=False,
                 to_scalar=True, composite=None, finalize=None, types=None):
        if (recipe is None) == (composite is None) or (composite is None) != (finalize is None):
            raise TypeError("An Aggregator takes a recipe, or composite= with finalize=")
        if composite is not None:
            recipe = _composite(composite, lambda *parts: finalize(*parts, {}))
            if types and result is None:
                first = types[0]
                if isinstance(first, Aggregator):
                    result = first._result
                else:
                    fixed = lookup_dtype(first)

                    def result(_):
                        return fixed
        self.name = name
        self._recipe = recipe
        self._accepts = accepts
        self._result = result
        self._monoid_only = monoid_only
        self._to_scalar = to_scalar
        self._typed = {}

    def __repr__(self):
        return f"agg.{self.name}"

    def __getitem__(self, dtype):
        """``agg.sum[FP64]``: the aggregator over the input cast to ``dtype``, its result in
        ``dtype`` (``agg.count[INT16]`` counts in INT16), as python-graphblas's typed ones."""
        dtype = lookup_dtype(dtype)
        if dtype not in self._typed:
            base = self

            def recipe(obj, method, allow_empty):
                cast = obj if obj.dtype == dtype else obj.dup(dtype)
                return base.reduce(cast, method, allow_empty=allow_empty)

            self._typed[dtype] = Aggregator(f"{self.name}[{dtype}]", recipe,
                                            result=lambda _: dtype, monoid_only=True,
                                            to_scalar=self._to_scalar)
        return self._typed[dtype]

    def __call__(self, obj, *, rowwise=False, columnwise=False):
        """``agg.sum(A)`` is ``A.reduce_scalar(agg.sum)``, ``agg.sum(A, rowwise=True)``
        ``A.reduce_rowwise(agg.sum)``, ``agg.sum(v)`` ``v.reduce(agg.sum)``: collective when
        computed, as those are."""
        if hasattr(obj, "reduce_rowwise"):
            if rowwise and columnwise:
                raise ValueError("rowwise and columnwise arguments cannot both be True")
            if rowwise:
                return obj.reduce_rowwise(self)
            return obj.reduce_columnwise(self) if columnwise else obj.reduce_scalar(self)
        if hasattr(obj, "reduce"):
            if rowwise or columnwise:
                raise ValueError("rowwise and columnwise arguments should not be used with "
                                 "Vector input")
            return obj.reduce(self)
        raise TypeError(f"Bad type when calling {self!r}: expected a Vector or a Matrix, got "
                        f"{type_name(obj)}; {self!r}(A) is A.reduce_scalar({self!r})")

    def reduce(self, obj, method, *, allow_empty=True):
        """Collective. ``obj.<method>(self)``: ``method`` is ``reduce``, ``reduce_rowwise``,
        ``reduce_columnwise`` or ``reduce_scalar``. A lazy Vector or Scalar; what it is computed
        from (a prepared copy, the parts of a composite) is computed now."""
        if self._accepts is not None and not self._accepts(obj.dtype):
            raise DomainMismatch(f"agg.{self.name} does not work with {obj.dtype}")
        if method == "reduce_scalar" and not self._to_scalar:
            raise ValueError(f"Aggregator {self.name} may not be used with Matrix.reduce_scalar.")
        if not allow_empty and not self._monoid_only:
            raise ValueError("allow_empty=False not allowed when using Aggregators")
        result = self._recipe(obj, method, allow_empty)
        dtype = None if self._result is None else self._result(obj.dtype)
        if dtype is None or result.dtype == dtype:
            return result
        # cast as python-graphblas's last assignment into a result of that type does
        return result.new().apply(unary.identity[dtype])


# ---- input and result types ----
def _numeric(dtype):
    return dtype != BOOL


def _unsigned(dtype):
    return dtype.np_type.kind == "u"


def _ratio(dtype):
    # python-graphblas's type for a mean or a variance: truediv's, FP32 for FP32, else FP64
    return binary.truediv.output_type(dtype, dtype)


def _index(dtype):
    # python-graphblas types argmin by its min_firsti semiring, which has an INT32 form
    return INT32 if dtype == INT32 else INT64


# ---- folds: prepare, one monoid, finish ----
def _fold(mon, prepare=None, finish=None):
    def recipe(obj, method, allow_empty):
        values = obj if prepare is None else prepare(obj)
        kwargs = {} if allow_empty else {"allow_empty": False}
        result = getattr(values, method)(mon, **kwargs)
        return result if finish is None else finish(result.new())

    return recipe


def _cast(dtype):
    return lambda obj: obj.dup(dtype)


def _same_type(op, thunk):
    # op(x, thunk) in x's own type: python-graphblas counts in the input type
    return lambda obj: obj.apply(op, right=thunk).new(obj.dtype)


def _ones(obj):
    return obj.apply(unary.one).new(INT64)


def _pow(exponent):
    # x ** exponent in the type of x and the exponent together: INT64 for integers and 2
    # (FP64 for UINT64 and the floats), FP64 for -1.0, as python-graphblas's plus_pow semiring
    return lambda obj: obj.apply(binary.pow, right=exponent).new()


def _exp(base):
    # base ** x, as python-graphblas's plus_pow semiring with its operands switched: in INT64
    # for an integer base and integer x (2 ** -1 is 0 there too), else in FP64
    return lambda obj: obj.apply(binary.pow, left=base).new()


def _then(op):
    return lambda result: result.apply(op)


def _count_entries(obj, method, allow_empty):
    """agg.count: a Vector's or a Matrix's nvals (replicated, nothing computed), or each row's
    or column's entries, a difference of the block's pointers folded along the grid row or
    column: O(rows of the block) where a fold of ones would cost O(entries)."""
    if method in _TO_SCALAR:
        return _fold(monoid.plus, _ones)(obj, method, allow_empty) if obj.nvals == 0 else \
            ScalarExpression(method, (obj, count), INT64, lambda: obj.nvals, obj.grid)
    axis = "row" if method == "reduce_rowwise" else "col"
    n = obj.nrows if axis == "row" else obj.ncols

    def compute(mask, opts):
        return obj.dist.counted(axis)

    return VectorExpression(method, (obj, count), INT64, n, compute, obj.grid)


sum = Aggregator("sum", _fold(monoid.plus), accepts=_numeric, monoid_only=True)
prod = Aggregator("prod", _fold(monoid.times), monoid_only=True)
min = Aggregator("min", _fold(monoid.min), monoid_only=True)
max = Aggregator("max", _fold(monoid.max), monoid_only=True)
any = Aggregator("any", _fold(monoid.lor, _cast(BOOL)), monoid_only=True)
all = Aggregator("all", _fold(monoid.land, _cast(BOOL)), monoid_only=True)
any_value = Aggregator("any_value", _fold(monoid.any), monoid_only=True)
bitwise_all = Aggregator("bitwise_all", _fold(monoid.band), accepts=_unsigned, monoid_only=True)
bitwise_any = Aggregator("bitwise_any", _fold(monoid.bor), accepts=_unsigned, monoid_only=True)
count = Aggregator("count", _count_entries)
count_nonzero = Aggregator("count_nonzero", _fold(monoid.plus, _same_type(binary.ne, 0)),
                           accepts=_numeric)
count_zero = Aggregator("count_zero", _fold(monoid.plus, _same_type(binary.eq, 0)),
                        accepts=_numeric)
exists = Aggregator("exists", _fold(monoid.any, _ones))
sum_of_squares = Aggregator("sum_of_squares", _fold(monoid.plus, _pow(2)), accepts=_numeric)
sum_of_inverses = Aggregator("sum_of_inverses", _fold(monoid.plus, _pow(-1.0)),
                             accepts=_numeric)
hypot = Aggregator("hypot", _fold(monoid.plus, _pow(2), _then(unary.sqrt)), accepts=_numeric)
logaddexp = Aggregator("logaddexp", _fold(monoid.plus, _exp(np.e), _then(unary.log)),
                       accepts=_numeric)
logaddexp2 = Aggregator("logaddexp2", _fold(monoid.plus, _exp(2), _then(unary.log2)),
                        accepts=_numeric)
L0norm = count_nonzero
L1norm = Aggregator("L1norm", _fold(monoid.plus, lambda obj: obj.apply(unary.abs).new()),
                    accepts=_numeric)
L2norm = hypot
Linfnorm = Aggregator("Linfnorm", _fold(monoid.max, lambda obj: obj.apply(unary.abs).new()))


# ---- composites: several folds, combined entry by entry ----
def _held(result, grid):
    """The computed ``result``; a Scalar as a one-entry Vector (none if it is empty), as
    python-graphblas holds one, so a formula is the same element-wise code for both."""
    out = result.new()
    if hasattr(out, "local_piece"):
        return out
    held = VectorExpression.output_class(out.dtype, 1, grid=grid)
    if out.value is not None:
        held[0] = out.value
    return held


def _count_by_type(obj, method, allow_empty):
    # python-graphblas's composites count each row or column in the input's own type (INT64
    # for BOOL): an FP32 mean divides in FP32 there, and an INT8 count wraps past 127. They
    # count a Vector or a whole Matrix in INT64.
    counts = count.reduce(obj, method)
    if method in _TO_SCALAR or obj.dtype == BOOL:
        return counts
    return counts.new().apply(unary.identity[obj.dtype])


# count, as a part of a composite
_count = Aggregator("count", _count_by_type)


def _composite(parts, formula):
    def recipe(obj, method, allow_empty):
        values = [_held(part.reduce(obj, method), obj.grid) for part in parts]
        out = formula(*values)
        return out.new().reduce(monoid.any) if method in _TO_SCALAR else out

    return recipe


def _mean(c, x):
    # <x> / n
    return x.ewise_mult(c, binary.truediv)


def _peak_to_peak(hi, lo):
    # max - min
    return hi.ewise_mult(lo, binary.minus)


def _varp(c, x, x2):
    # <x2> / n
    left = x2.ewise_mult(c, binary.truediv).new()
    # (<x> / n) ** 2, the square kept in the type of the quotient (python-graphblas assigns
    # each updated operand back into itself, here and in _vars)
    right = x.ewise_mult(c, binary.truediv).new()
    right = right.apply(binary.pow, right=2).new(right.dtype)
    # <x2> / n - (<x> / n) ** 2
    return left.ewise_mult(right, binary.minus)


def _vars(c, x, x2):
    # <x> ** 2 / (n * (n - 1)), divided by n and then by n - 1
    x = x.apply(binary.pow, right=2).new(x.dtype)
    right = x.ewise_mult(c, binary.truediv).new()
    c = c.apply(binary.minus, right=1).new(c.dtype)
    right = right.ewise_mult(c, binary.truediv).new(right.dtype)
    # <x2> / (n - 1) - <x> ** 2 / (n * (n - 1))
    left = x2.ewise_mult(c, binary.truediv).new()
    return left.ewise_mult(right, binary.minus)


def _stdp(c, x, x2):
    return _varp(c, x, x2).new().apply(unary.sqrt)


def _stds(c, x, x2):
    return _vars(c, x, x2).new().apply(unary.sqrt)


def _geometric_mean(c, x):
    # <prod x> ** (1 / n)
    inverse = c.apply(unary.minv[FP64]).new()
    return x.ewise_mult(inverse, binary.pow)


def _harmonic_mean(c, inverses):
    # n / <1 / x>
    return c.ewise_mult(inverses, binary.truediv)


def _root_mean_square(c, x2):
    # (<x2> / n) ** 0.5
    return x2.ewise_mult(c, binary.truediv).new().apply(unary.sqrt)


# A composite refuses what its parts refuse, when they are computed: python-graphblas's
# composites take every type (harmonic_mean no BOOL), so allow_empty=False on a BOOL mean is a
# ValueError there before its sum refuses BOOL.
mean = Aggregator("mean", _composite([_count, sum], _mean), result=_ratio)
peak_to_peak = Aggregator("peak_to_peak", _composite([max, min], _peak_to_peak))
varp = Aggregator("varp", _composite([_count, sum, sum_of_squares], _varp), result=_ratio)
vars = Aggregator("vars", _composite([_count, sum, sum_of_squares], _vars), result=_ratio)
stdp = Aggregator("stdp", _composite([_count, sum, sum_of_squares], _stdp), result=_ratio)
stds = Aggregator("stds", _composite([_count, sum, sum_of_squares], _stds), result=_ratio)
geometric_mean = Aggregator("geometric_mean", _composite([_count, prod], _geometric_mean),
                            result=_ratio)
harmonic_mean = Aggregator("harmonic_mean", _composite([_count, sum_of_inverses], _harmonic_mean),
                           accepts=_numeric)
root_mean_square = Aggregator("root_mean_square",
                              _composite([_count, sum_of_squares], _root_mean_square),
                              result=_ratio)


# ---- positional: where the entries sit along the reduced axis ----
def _positions(obj, method):
    """P(i, j) = j for ``reduce_rowwise``, else the row (the index of a Vector)."""
    op = indexunary.colindex if method == "reduce_rowwise" else indexunary.rowindex
    return obj.apply(op).new()


def _equal_to(obj, reduced, method):
    """The entries of ``obj`` equal to ``reduced``: its own row's value, its column's, or the
    one value of a Vector's reduction."""
    if method == "reduce":
        return obj.select(select.valueeq, reduced).new()
    if method == "reduce_rowwise":
        # E(i, j) = r(i) == A(i, j)
        equal = reduced.ewise_mult(obj, binary.eq).new()
    else:
        # E(i, j) = A(i, j) == r(j)
        equal = obj.ewise_mult(reduced, binary.eq).new()
    return obj.dup(mask=equal.V)


def _end_index(mon):
    """first_index (``monoid.min``) or last_index (``monoid.max``): k = min (max) of P."""
    def recipe(obj, method, allow_empty):
        return getattr(_positions(obj, method), method)(mon)

    return recipe


def _end_value(mon):
    """first (``monoid.min``) or last (``monoid.max``): the entry at the end index."""
    def recipe(obj, method, allow_empty):
        if method == "reduce_scalar":
            # row-major order, as python-graphblas: the end of each row, then of those
            return recipe(recipe(obj, "reduce_rowwise", allow_empty).new(), "reduce",
                          allow_empty)
        positions = _positions(obj, method)
        end = getattr(positions, method)(mon).new()
        # the one entry (per row or column) at the end index
        at_end = obj.dup(mask=_equal_to(positions, end, method).S)
        return getattr(at_end, method)(monoid.any)

    return recipe


def _arg(mon):
    """argmin (``monoid.min``) or argmax (``monoid.max``): the first index of the extreme
    value, python-graphblas's rule for ties."""
    first_index = _end_index(monoid.min)

    def recipe(obj, method, allow_empty):
        extreme = getattr(obj, method)(mon).new()
        return first_index(_equal_to(obj, extreme, method), method, allow_empty)

    return recipe


# python-graphblas 2025.2.0 reads these from agg.ss and warns when they are read from agg
_DEPRECATED = {
    "first": Aggregator("first", _end_value(monoid.min)),
    "last": Aggregator("last", _end_value(monoid.max)),
    "first_index": Aggregator("first_index", _end_index(monoid.min), to_scalar=False),
    "last_index": Aggregator("last_index", _end_index(monoid.max), to_scalar=False),
    "argmin": Aggregator("argmin", _arg(monoid.min), result=_index, to_scalar=False),
    "argmax": Aggregator("argmax", _arg(monoid.max), result=_index, to_scalar=False),
}


def __getattr__(name):
    if name in _DEPRECATED:
        warnings.warn(f"`gb.agg.{name}` is deprecated in python-graphblas, which has it as "
                      f"`gb.agg.ss.{name}` (specific to SuiteSparse:GraphBLAS); gblas2d has no "
                      f"`gb.agg.ss` and keeps `gb.agg.{name}`.", DeprecationWarning,
                      stacklevel=2)
        return _DEPRECATED[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(globals().keys() | _DEPRECATED.keys())


# python-graphblas's symbols for the aggregators that are one monoid
_SYMBOLS = {"+": "sum", "*": "prod", "&": "all", "|": "any"}


def from_string(string):
    """The aggregator named by ``string`` (lower-cased, as python-graphblas): ``"mean"``,
    ``"count"``, ``"ss.argmin"`` (python-graphblas's path to the positional ones), or a symbol
    ``"+"``, ``"*"``, ``"&"``, ``"|"`` (sum, prod, all, any).

    Raises
    ------
    ValueError
        For an unknown name. A ``[type]`` suffix gives the typed aggregator (``"sum[int]"``).

    Examples
    --------
    >>> from_string("|")
    agg.any
    """
    name, _, typed = string.lower().strip().partition("[")
    name = _SYMBOLS.get(name.strip(), name.strip())
    if name.startswith("ss.") and name[3:] in _DEPRECATED:
        # python-graphblas's own path to them, agg.ss.<name>, which warns of nothing
        found = _DEPRECATED[name[3:]]
    else:
        found = __getattr__(name) if name in _DEPRECATED else globals().get(name)
    if not isinstance(found, Aggregator) or (typed and not typed.endswith("]")):
        raise ValueError(f"Unknown agg string: {string!r}.  Example usage: 'sum[int]'")
    return found[typed[:-1].strip()] if typed else found


def reduction_op(op):
    """What a reduction's ``op`` stands for, read as python-graphblas reads it: an op or an
    Aggregator as it is; a string names a monoid (``"plus"``, ``"+"``, ``"min[int64]"``), else
    a binary op (which the reduction then refuses: it has no monoid), else an aggregator
    (``"count"``, ``"mean"``, ``"sum[int]"``, ``"ss.argmin"``).

    Raises
    ------
    ValueError
        When the string names none of them (python-graphblas's message).
    """
    if not isinstance(op, str):
        return op
    for kind in ("monoid", "binary"):
        try:
            return resolve(kind, op)
        except ValueError:
            continue
    try:
        return from_string(op)
    except ValueError:
        raise ValueError(f"Unknown binary or aggregator string: {op!r}.  Example usage: "
                         "'+[int]'") from None
