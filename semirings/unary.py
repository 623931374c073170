"""Unary ops ``f(x)``: the python-graphblas ``unary`` namespace (its builtin subset).

Each op is a vectorized numpy function; SuiteSparse conventions numpy lacks live in
``_numeric``. The float ops (``sqrt``, ``exp``, ``floor``, ...) turn bool and integers into FP32
(1- and 2-byte types) or FP64 first, as python-graphblas does.

>>> from gblas2d.semirings import unary
>>> unary.ainv.evaluate(np.array([1, -2]))
array([-1,  2])
"""

import numpy as np

from . import _numeric, _registry
from ._base import UnaryOp
from ._udf import UserFunction
from .numpy_ops import unary_namespace as numpy  # unary.numpy.square, ...: numpy's names

__all__ = [
    "abs", "acos", "acosh", "ainv", "asin", "asinh", "atan", "atanh", "bnot", "cbrt", "ceil",
    "cos", "cosh", "exp", "exp2", "expm1", "floor", "from_string", "identity", "isfinite",
    "isinf", "isnan", "lnot", "log", "log1p", "log2", "log10", "minv", "numpy", "one", "popcount",
    "register_anonymous", "register_new", "round", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
]


def _ainv(x):
    # SuiteSparse: -x on BOOL is x (numpy refuses to negate booleans).
    return x if x.dtype.kind == "b" else np.negative(x)


def _minv(x):
    # 1 / x with GraphBLAS division: integers truncate and 1 / 0 saturates.
    return _numeric.cdiv(np.ones_like(x), x)


def _popcount(x):
    # Set bits of each integer, in x's own type (SuiteSparse's GxB_POPCOUNT): counts bits of
    # bitmask sets such as the colors of fused_bpt. Signed values count their two's-complement
    # bits, as in C.
    if x.dtype.kind not in "iu":
        raise TypeError(f"popcount needs an integer type, got {x.dtype}")
    return np.bitwise_count(x).astype(x.dtype, copy=False)


def _lnot(x):
    # !(x != 0) in x's own type, as GxB_LNOT on every type.
    return np.logical_not(x).astype(x.dtype, copy=False)


def _float_op(name, ufunc):
    # numpy's float function, computed as SuiteSparse does in FP32 or FP64 (_numeric.as_float)
    return UnaryOp(name, lambda x: ufunc(_numeric.as_float(x)))


identity = UnaryOp("identity", lambda x: x)
ainv = UnaryOp("ainv", _ainv)
minv = UnaryOp("minv", _minv)
abs = UnaryOp("abs", np.abs)
lnot = UnaryOp("lnot", _lnot)
bnot = UnaryOp("bnot", np.invert)
popcount = UnaryOp("popcount", _popcount)
one = UnaryOp("one", np.ones_like)
sqrt = UnaryOp("sqrt", lambda x: np.sqrt(_numeric.as_float(x)))
exp = UnaryOp("exp", lambda x: np.exp(_numeric.as_float(x)))
log = UnaryOp("log", lambda x: np.log(_numeric.as_float(x)))
log2 = UnaryOp("log2", lambda x: np.log2(_numeric.as_float(x)))
floor = UnaryOp("floor", lambda x: np.floor(_numeric.as_float(x)))
ceil = UnaryOp("ceil", lambda x: np.ceil(_numeric.as_float(x)))
round = UnaryOp("round", _numeric.round_half_away)
trunc = UnaryOp("trunc", lambda x: np.trunc(_numeric.as_float(x)))
# The rest of numpy's float functions that SuiteSparse has
sin = _float_op("sin", np.sin)
cos = _float_op("cos", np.cos)
tan = _float_op("tan", np.tan)
asin = _float_op("asin", np.arcsin)
acos = _float_op("acos", np.arccos)
atan = _float_op("atan", np.arctan)
sinh = _float_op("sinh", np.sinh)
cosh = _float_op("cosh", np.cosh)
tanh = _float_op("tanh", np.tanh)
asinh = _float_op("asinh", np.arcsinh)
acosh = _float_op("acosh", np.arccosh)
atanh = _float_op("atanh", np.arctanh)
exp2 = _float_op("exp2", np.exp2)
expm1 = _float_op("expm1", np.expm1)
log10 = _float_op("log10", np.log10)
log1p = _float_op("log1p", np.log1p)
cbrt = _float_op("cbrt", np.cbrt)
isnan = UnaryOp("isnan", np.isnan)
isinf = UnaryOp("isinf", np.isinf)
isfinite = UnaryOp("isfinite", np.isfinite)

_SYMBOLS = {"-": ainv, "~": lnot}


def register_new(name, func, *, result=None):
    """Create a unary op and add it to this module as ``unary.<name>``.

    Parameters
    ----------
    name : str
        A Python identifier not already used in this module.
    func : callable(x)
        Of a scalar, as python-graphblas takes it (``lambda x: x if x > 0 else 0``, compiled by
        numba), or vectorized over all values at once, called as it is
        (``semirings/_udf.py``).
    result : DataType or callable(DataType) -> DataType, optional
        Output type; by default whatever ``func`` returns.

    Returns
    -------
    UnaryOp

    Examples
    --------
    >>> from gblas2d.semirings import unary
    >>> plus_one = unary.register_new("plus_one", lambda x: x + 1)
    >>> unary.plus_one is plus_one
    True
    """
    op = UnaryOp(name, UserFunction(func, name), result=result)
    return _registry.register(globals(), op)


def register_anonymous(func, name=None, *, result=None):
    """Create a unary op without adding it to this module (see ``register_new``).

    An anonymous op cannot be found by name, so it does not survive pickling.
    """
    name = _registry.anonymous_name(func, name)
    return UnaryOp(name, UserFunction(func, name), result=result)


def from_string(string):
    """The unary op named by ``string``: ``"abs"``, ``"abs[INT64]"``, ``"-"`` (ainv), ``"~"``.

    Raises
    ------
    ValueError
        For an unknown name.
    """
    return _registry.from_string(string, globals(), "unary", _SYMBOLS, "abs[int]")
