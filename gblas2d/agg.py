"""Aggregators (``gb.agg``): reductions that are more than one monoid, as python-graphblas's.

``A.reduce_rowwise(agg.count)``, ``v.reduce(agg.L2norm)``, ``A.reduce_scalar(agg.mean)``: each
aggregator prepares the values (counts them, squares them, takes their absolute value or
their truth), folds them with a monoid, and finishes the result where it must (a square root,
a division by the count). Every step is a public operation on the distributed object, so an
aggregator costs what those operations cost: one element-wise pass, one reduction (a fold
along the grid rows or columns, or an allreduce), and for ``mean`` a second reduction.

Provided: ``sum``, ``prod``, ``min``, ``max``, ``any``, ``all``, ``any_value``, ``count``,
``count_nonzero``, ``count_zero``, ``exists``, ``sum_of_squares``, ``L0norm``, ``L1norm``,
``L2norm``, ``Linfnorm``, ``hypot``, ``mean``; the result types are python-graphblas's, and
so are the types refused: the arithmetic ones take no BOOL (``DomainMismatch``).
"""

from .exceptions import DomainMismatch
from .semirings import binary, monoid, unary
from .semirings.dtypes import BOOL, FP64, INT64

__all__ = ["Aggregator", "L0norm", "L1norm", "L2norm", "Linfnorm", "all", "any", "any_value",
           "count", "count_nonzero", "count_zero", "exists", "hypot", "max", "mean", "min",
           "prod", "sum", "sum_of_squares"]


class Aggregator:
    """A reduction: ``prepare`` (object -> object with the values to fold, or None to fold the
    values as they are), ``monoid``, and ``finish`` (the reduced expression -> the result
    expression, or None)."""

    def __init__(self, name, monoid, prepare=None, finish=None, *, numeric=True):
        self.name = name
        self.monoid = monoid
        self._prepare = prepare
        self._finish = finish
        self._numeric = numeric

    def __repr__(self):
        return f"agg.{self.name}"

    def reduce(self, obj, method, **kwargs):
        """Collective. ``obj.<method>(self)``: ``method`` is ``reduce``, ``reduce_rowwise``,
        ``reduce_columnwise`` or ``reduce_scalar``."""
        if self._numeric and obj.dtype == BOOL:
            raise DomainMismatch(f"agg.{self.name} does not take BOOL values")
        values = obj if self._prepare is None else self._prepare(obj)
        result = getattr(values, method)(self.monoid, **kwargs)
        return result if self._finish is None else self._finish(result, obj, method)


def _cast(dtype):
    return lambda obj: obj.dup(dtype)


def _same_type(op, thunk):
    # op(x, thunk) in x's own type: python-graphblas counts in the input type
    return lambda obj: obj.apply(op, right=thunk).new(obj.dtype)


def _squares(obj):
    return obj.ewise_mult(obj, binary.times).new()


def _sqrt(result, obj, method):
    # a lazy scalar takes apply itself; a row or column reduction is computed first
    return (result if hasattr(result, "apply") else result.new()).apply(unary.sqrt)


def _mean(result, obj, method):
    counts = getattr(obj.apply(unary.one).new(INT64), method)(monoid.plus)
    if method in ("reduce", "reduce_scalar"):
        return result / counts
    return result.new().ewise_mult(counts.new(), binary.truediv)


sum = Aggregator("sum", monoid.plus)
prod = Aggregator("prod", monoid.times, numeric=False)
min = Aggregator("min", monoid.min, numeric=False)
max = Aggregator("max", monoid.max, numeric=False)
any = Aggregator("any", monoid.lor, _cast(BOOL), numeric=False)
all = Aggregator("all", monoid.land, _cast(BOOL), numeric=False)
any_value = Aggregator("any_value", monoid.any, numeric=False)
count = Aggregator("count", monoid.plus, lambda obj: obj.apply(unary.one).new(INT64),
                   numeric=False)
count_nonzero = Aggregator("count_nonzero", monoid.plus, _same_type(binary.ne, 0))
count_zero = Aggregator("count_zero", monoid.plus, _same_type(binary.eq, 0))
exists = Aggregator("exists", monoid.any, lambda obj: obj.apply(unary.one).new(INT64),
                    numeric=False)
sum_of_squares = Aggregator("sum_of_squares", monoid.plus, _squares)
L0norm = Aggregator("L0norm", monoid.plus, _same_type(binary.ne, 0))
L1norm = Aggregator("L1norm", monoid.plus, lambda obj: obj.apply(unary.abs).new())
L2norm = Aggregator("L2norm", monoid.plus, lambda obj: _squares(obj.dup(FP64)), _sqrt)
hypot = Aggregator("hypot", monoid.plus, lambda obj: _squares(obj.dup(FP64)), _sqrt)
Linfnorm = Aggregator("Linfnorm", monoid.max, lambda obj: obj.apply(unary.abs).new(),
                      numeric=False)
mean = Aggregator("mean", monoid.plus, _cast(FP64), _mean)
