"""Binary ops ``f(x, y)``: the python-graphblas ``binary`` namespace (its builtin subset).

Both operands are cast to one type first (``dtypes.unify``). Results follow SuiteSparse, which
python-graphblas runs on: on BOOL, ``minus`` is ``lxor`` and ``cdiv`` is ``first``; integer
``cdiv`` truncates toward zero; ``min``/``max`` skip nan like C's ``fmin``/``fmax``; ``truediv``
gives FP64 for bool and integers. ``lor``, ``land``, ``lxor`` and ``lxnor`` read their inputs as
``x != 0``; the first three return 0/1 in the operands' type and ``lxnor`` returns BOOL, as in
python-graphblas (their monoids, defined only for BOOL there, fold in BOOL). An untyped
``pair`` gives INT64 ones, so ``plus_pair`` counts whatever the operands are.

The positional ops (``firsti``, ..., ``secondj1``) return where their operands sit, not what
they hold: ``firsti(A(i, k), v(k))`` is ``i``, ``secondi`` is ``k``.

>>> from gblas2d.semirings import binary
>>> binary.cdiv.evaluate(np.array([-7, 7]), np.array([2, 0]))
array([                 -3, 9223372036854775807])
"""

import numpy as np

from . import _numeric, _registry
from ._base import BinaryOp
from ._udf import UserFunction
from .dtypes import BOOL, INT64
from .numpy_ops import binary_namespace as numpy  # binary.numpy.mod, ...: numpy's names

__all__ = [
    "absfirst", "abssecond", "any", "band", "bor", "bxnor", "bxor", "cdiv", "div", "eq", "first",
    "firsti", "firsti1", "firstj", "firstj1", "floordiv", "fmod", "from_string", "ge", "gt",
    "hypot", "iseq", "isge", "isgt", "isle", "islt", "isne", "land", "le", "lor", "lt", "lxnor",
    "lxor", "max", "min", "minus", "ne", "numpy", "oneb", "pair", "plus", "pow", "rdiv",
    "register_anonymous", "register_new", "rfloordiv", "rminus", "rtruediv", "second", "secondi",
    "secondi1", "secondj", "secondj1", "times", "truediv"
]


class _Pair(BinaryOp):
    """``pair``: ones, in INT64 unless the op is typed, as python-graphblas (which computes an
    untyped ``pair`` as ``pair[INT64]`` whatever the operands; ``pair[FP32]`` gives FP32 ones)."""

    def output_type(self, xtype, ytype):
        return INT64 if self.type is None else super().output_type(xtype, ytype)


def _minus(x, y):
    # SuiteSparse: x - y on BOOL is x xor y (numpy refuses to subtract booleans).
    return x != y if x.dtype.kind == "b" else x - y


first = BinaryOp("first", lambda x, y: x)
second = BinaryOp("second", lambda x, y: y)
pair = _Pair("pair", lambda x, y: np.ones_like(x), commutative=True)
any = BinaryOp("any", lambda x, y: x, commutative=True)
plus = BinaryOp("plus", np.add, commutative=True)
minus = BinaryOp("minus", _minus)
rminus = BinaryOp("rminus", lambda x, y: _minus(y, x))
times = BinaryOp("times", np.multiply, commutative=True)
truediv = BinaryOp("truediv", _numeric.truediv)
cdiv = BinaryOp("cdiv", _numeric.cdiv)
rdiv = BinaryOp("rdiv", lambda x, y: _numeric.cdiv(y, x))
floordiv = BinaryOp("floordiv", np.floor_divide)
pow = BinaryOp("pow", _numeric.power)
min = BinaryOp("min", np.fmin, commutative=True)
max = BinaryOp("max", np.fmax, commutative=True)
eq = BinaryOp("eq", np.equal, commutative=True)
ne = BinaryOp("ne", np.not_equal, commutative=True)
gt = BinaryOp("gt", np.greater)
lt = BinaryOp("lt", np.less)
ge = BinaryOp("ge", np.greater_equal)
le = BinaryOp("le", np.less_equal)
lor = BinaryOp("lor", lambda x, y: ((x != 0) | (y != 0)).astype(x.dtype, copy=False),
                commutative=True)
land = BinaryOp("land", lambda x, y: ((x != 0) & (y != 0)).astype(x.dtype, copy=False),
                 commutative=True)
lxor = BinaryOp("lxor", lambda x, y: ((x != 0) ^ (y != 0)).astype(x.dtype, copy=False),
                 commutative=True)
lxnor = BinaryOp("lxnor", lambda x, y: (x != 0) == (y != 0), result=BOOL, commutative=True)
bor = BinaryOp("bor", np.bitwise_or, commutative=True)
band = BinaryOp("band", np.bitwise_and, commutative=True)
bxor = BinaryOp("bxor", np.bitwise_xor, commutative=True)
bxnor = BinaryOp("bxnor", lambda x, y: np.invert(np.bitwise_xor(x, y)), commutative=True)
firsti = BinaryOp("firsti", lambda x, y, ia, ja, ib, jb: ia, index_aware=True)
firsti1 = BinaryOp("firsti1", lambda x, y, ia, ja, ib, jb: ia + 1, index_aware=True)
firstj = BinaryOp("firstj", lambda x, y, ia, ja, ib, jb: ja, index_aware=True)
firstj1 = BinaryOp("firstj1", lambda x, y, ia, ja, ib, jb: ja + 1, index_aware=True)
secondi = BinaryOp("secondi", lambda x, y, ia, ja, ib, jb: ib, index_aware=True)
secondi1 = BinaryOp("secondi1", lambda x, y, ia, ja, ib, jb: ib + 1, index_aware=True)
secondj = BinaryOp("secondj", lambda x, y, ia, ja, ib, jb: jb, index_aware=True)
secondj1 = BinaryOp("secondj1", lambda x, y, ia, ja, ib, jb: jb + 1, index_aware=True)

# The "is" comparisons give 1 or 0 in the operands' type (SuiteSparse's GxB_ISEQ, ...), so
# they can be summed: plus_iseq counts the equal pairs.
iseq = BinaryOp("iseq", lambda x, y: np.equal(x, y).astype(x.dtype, copy=False), commutative=True)
isne = BinaryOp("isne", lambda x, y: np.not_equal(x, y).astype(x.dtype, copy=False),
                commutative=True)
isgt = BinaryOp("isgt", lambda x, y: np.greater(x, y).astype(x.dtype, copy=False))
islt = BinaryOp("islt", lambda x, y: np.less(x, y).astype(x.dtype, copy=False))
isge = BinaryOp("isge", lambda x, y: np.greater_equal(x, y).astype(x.dtype, copy=False))
isle = BinaryOp("isle", lambda x, y: np.less_equal(x, y).astype(x.dtype, copy=False))
absfirst = BinaryOp("absfirst", lambda x, y: np.abs(x))
abssecond = BinaryOp("abssecond", lambda x, y: np.abs(y))
rtruediv = BinaryOp("rtruediv", lambda x, y: _numeric.truediv(y, x))
rfloordiv = BinaryOp("rfloordiv", lambda x, y: np.floor_divide(y, x))
# SuiteSparse's float functions: computed in the float type of the operands (as_float)
fmod = BinaryOp("fmod", lambda x, y: np.fmod(_numeric.as_float(x), _numeric.as_float(y)))
hypot = BinaryOp("hypot", lambda x, y: np.hypot(_numeric.as_float(x), _numeric.as_float(y)),
                 commutative=True)

# Aliases under the GraphBLAS C names (python-graphblas spells them pair and cdiv).
oneb = pair
div = cdiv

_SYMBOLS = {
    "<": lt, ">": gt, "<=": le, ">=": ge, "!=": ne, "==": eq, "+": plus, "-": minus, "*": times,
    "/": truediv, "//": floordiv, "**": pow, "&": land, "|": lor, "^": lxor, "%": numpy.mod,
}


def register_new(name, func, *, result=None, index_aware=False):
    """Create a binary op and add it to this module as ``binary.<name>``.

    Parameters
    ----------
    name : str
        A Python identifier not already used in this module.
    func : callable(x, y), or callable(x, y, ia, ja, ib, jb) when ``index_aware``
        Of scalars, as python-graphblas takes it (``lambda x, y: x if x < y else y``, compiled
        by numba), or vectorized over whole arrays, called as it is (``semirings/_udf.py``);
        ``ia, ja, ib, jb`` are the operands' global positions (see ``BinaryOp``).
    result : DataType or callable(DataType) -> DataType, optional
        Output type; by default what ``func`` returns (INT64 when ``index_aware``).
    index_aware : bool

    Returns
    -------
    BinaryOp

    Examples
    --------
    >>> from gblas2d.semirings import binary
    >>> absdiff = binary.register_new("absdiff", lambda x, y: np.abs(x - y))
    >>> binary.from_string("absdiff") is absdiff
    True
    >>> lesser = binary.register_new("lesser", lambda x, y: x if x < y else y)
    >>> lesser.evaluate(np.array([3, 1]), np.array([2, 7]))
    array([2, 1])
    """
    op = BinaryOp(name, UserFunction(func, name), result=result, index_aware=index_aware)
    return _registry.register(globals(), op)


def register_anonymous(func, name=None, *, result=None, index_aware=False):
    """Create a binary op without adding it to this module (see ``register_new``).

    An anonymous op cannot be found by name, so it does not survive pickling.
    """
    name = _registry.anonymous_name(func, name)
    return BinaryOp(name, UserFunction(func, name), result=result, index_aware=index_aware)


def from_string(string):
    """The binary op named by ``string``: ``"plus"``, ``"plus[FP64]"``, ``"+"``, ``"//"``, ...

    Raises
    ------
    ValueError
        For an unknown name.
    """
    return _registry.from_string(string, globals(), "binary", _SYMBOLS, "+[int]")
