"""Monoids: an associative, commutative binary op with an identity; how values are folded.

The builtins name the numpy ufunc whose ``reduceat`` folds a segment in one call; a monoid
without one (``bxnor``, user monoids) folds by pairwise halving. On BOOL, numpy's ``add`` and
``multiply`` are ``lor`` and ``land``, and ``min``/``max`` are ``land``/``lor``. The logical
monoids return BOOL on every input type, as python-graphblas's do.

>>> from gblas2d.semirings import monoid
>>> monoid.min.reduceat(np.array([3, 1, 5, 4]), np.array([0, 2]))
array([1, 4])
>>> monoid.min.identity("INT8")
np.int8(127)
"""

import numpy as np

from . import _registry, binary
from ._base import Monoid
from ._ordered import OrderedMonoid
from .dtypes import BOOL
from .numpy_ops import monoid_namespace as numpy  # monoid.numpy.logaddexp, ...: numpy's names

__all__ = [
    "any", "band", "bor", "bxnor", "bxor", "eq", "from_string", "land", "lor", "lxnor", "lxor",
    "max", "min", "numpy", "plus", "register_anonymous", "register_new", "times",
]


def _largest(dtype):
    # Identity of min: +inf for floats, True for BOOL (min is land there), else the type's max.
    kind = dtype.np_type.kind
    return np.inf if kind == "f" else True if kind == "b" else np.iinfo(dtype.np_type).max


def _smallest(dtype):
    # Identity of max: -inf for floats, False for BOOL (max is lor there), else the type's min.
    kind = dtype.np_type.kind
    return -np.inf if kind == "f" else False if kind == "b" else np.iinfo(dtype.np_type).min


def _all_ones(dtype):
    # Identity of band and bxnor: every bit set (-1 for signed types).
    return ~dtype.np_type.type(0)


# Over floats, plus and times fold in index order, as SuiteSparse does (``_ordered.py``).
plus = OrderedMonoid("plus", binary.plus, 0, ufunc=np.add, start=-0.0)
times = OrderedMonoid("times", binary.times, 1, ufunc=np.multiply, start=1.0)
min = Monoid("min", binary.min, _largest, ufunc=np.fmin, terminal=_smallest)
max = Monoid("max", binary.max, _smallest, ufunc=np.fmax, terminal=_largest)
# The logical monoids exist only for BOOL in python-graphblas: their op is fixed to BOOL, so
# lor_land on integers folds in BOOL while binary.lor itself keeps the operands' type.
lor = Monoid("lor", binary.lor[BOOL], False, ufunc=np.logical_or, terminal=True)
land = Monoid("land", binary.land[BOOL], True, ufunc=np.logical_and, terminal=False)
lxor = Monoid("lxor", binary.lxor[BOOL], False, ufunc=np.logical_xor)
# On BOOL, which is all lxnor sees after the cast, == is xnor.
lxnor = Monoid("lxnor", binary.lxnor[BOOL], True, ufunc=np.equal)
# python-graphblas's name for the same monoid on BOOL (GrB_EQ_BOOL_MONOID).
eq = Monoid("eq", binary.lxnor[BOOL], True, ufunc=np.equal)
bor = Monoid("bor", binary.bor, 0, ufunc=np.bitwise_or, terminal=_all_ones)
band = Monoid("band", binary.band, _all_ones, ufunc=np.bitwise_and, terminal=0)
bxor = Monoid("bxor", binary.bxor, 0, ufunc=np.bitwise_xor)
bxnor = Monoid("bxnor", binary.bxnor, _all_ones)
any = Monoid("any", binary.any, 0, any=True)

# The link python-graphblas offers as ``binary.plus.monoid``; ``v.reduce(binary.plus)`` uses it.
binary.plus.monoid = plus
binary.times.monoid = times
binary.min.monoid = min
binary.max.monoid = max
binary.lor.monoid = lor
binary.land.monoid = land
binary.lxor.monoid = lxor
binary.lxnor.monoid = lxnor
binary.bor.monoid = bor
binary.band.monoid = band
binary.bxor.monoid = bxor
binary.bxnor.monoid = bxnor
binary.any.monoid = any

_SYMBOLS = {"+": plus, "*": times, "&": land, "|": lor, "^": lxor}


def _as_binaryop(binaryop):
    return binary.from_string(binaryop) if isinstance(binaryop, str) else binaryop


def register_new(name, binaryop, identity):
    """Create a monoid and add it to this module as ``monoid.<name>``.

    Its segmented reductions fold by pairwise halving with ``binaryop``, so ``binaryop`` must be
    associative and commutative (as GraphBLAS requires of a monoid's op).

    Parameters
    ----------
    name : str
        A Python identifier not already used in this module.
    binaryop : BinaryOp or str
    identity : scalar or callable(DataType) -> scalar

    Returns
    -------
    Monoid

    Examples
    --------
    >>> from gblas2d.semirings import binary, monoid
    >>> gcd = binary.register_new("gcd", np.gcd)
    >>> monoid.register_new("gcd", gcd, 0).reduce(np.array([12, 18, 8]))
    np.int64(2)
    """
    op = Monoid(name, _as_binaryop(binaryop), identity)
    _registry.register(globals(), op)
    # python-graphblas finds binary.X.monoid by the shared name; keep that for user ops too.
    if op.binaryop.name == name and op.binaryop.monoid is None:
        op.binaryop.monoid = op
    return op


def register_anonymous(binaryop, identity, name=None):
    """Create a monoid without adding it to this module (see ``register_new``)."""
    binaryop = _as_binaryop(binaryop)
    return Monoid(name if name is not None else binaryop.name, binaryop, identity)


def from_string(string):
    """The monoid named by ``string``: ``"min"``, ``"min[FP32]"``, ``"+"``, ``"|"``, ...

    Raises
    ------
    ValueError
        For an unknown name.
    """
    return _registry.from_string(string, globals(), "monoid", _SYMBOLS, "+[int]")
