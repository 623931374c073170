"""Index-unary ops ``f(x, row, col, thunk)``: the python-graphblas ``indexunary`` namespace.

``row`` and ``col`` are the global position of each value (for a Vector, ``row`` is the index
and ``col`` is 0); ``thunk`` is one scalar. The index ops return INT64, the predicates BOOL
(the same predicates as select ops are in ``select``). Positional ops read ``thunk`` as INT64,
as the typed GraphBLAS ops do. ``random_uniform`` (FP64 in [0, 1)) and ``random_bits`` (UINT64)
are gblas2d's: they replace each value by a hash of (thunk, row, col), the thunk being the seed.

>>> from gblas2d.semirings import indexunary
>>> indexunary.rowindex.evaluate(np.array([5.0, 7.0]), np.array([0, 3]), np.zeros(2), 10)
array([10, 13])
"""

import numpy as np

from . import _registry
from ._base import IndexUnaryOp
from ._udf import UserFunction, index_unary_arguments
from .dtypes import BOOL, FP64, INT64, UINT64
from .random import RandomOp, hash64, uniform

__all__ = [
    "colgt", "colindex", "colle", "diag", "diagindex", "from_string", "index", "indexgt",
    "indexle", "offdiag", "random_bits", "random_uniform", "register_anonymous", "register_new",
    "rowgt", "rowindex", "rowle", "tril", "triu", "valueeq", "valuege", "valuegt", "valuele",
    "valuelt", "valuene",
]


rowindex = IndexUnaryOp("rowindex", lambda x, row, col, t: row + np.int64(t), result=INT64)
colindex = IndexUnaryOp("colindex", lambda x, row, col, t: col + np.int64(t), result=INT64)
# SuiteSparse: z = j - (i + thunk).
diagindex = IndexUnaryOp("diagindex", lambda x, row, col, t: col - (row + np.int64(t)),
                         result=INT64)
tril = IndexUnaryOp("tril", lambda x, row, col, t: col <= row + np.int64(t), result=BOOL)
triu = IndexUnaryOp("triu", lambda x, row, col, t: col >= row + np.int64(t), result=BOOL)
diag = IndexUnaryOp("diag", lambda x, row, col, t: col == row + np.int64(t), result=BOOL)
offdiag = IndexUnaryOp("offdiag", lambda x, row, col, t: col != row + np.int64(t), result=BOOL)
rowle = IndexUnaryOp("rowle", lambda x, row, col, t: row <= np.int64(t), result=BOOL)
rowgt = IndexUnaryOp("rowgt", lambda x, row, col, t: row > np.int64(t), result=BOOL)
colle = IndexUnaryOp("colle", lambda x, row, col, t: col <= np.int64(t), result=BOOL)
colgt = IndexUnaryOp("colgt", lambda x, row, col, t: col > np.int64(t), result=BOOL)
valueeq = IndexUnaryOp("valueeq", lambda x, row, col, t: x == t, result=BOOL,
                        positions=False)
valuene = IndexUnaryOp("valuene", lambda x, row, col, t: x != t, result=BOOL,
                        positions=False)
valuegt = IndexUnaryOp("valuegt", lambda x, row, col, t: x > t, result=BOOL)
valuege = IndexUnaryOp("valuege", lambda x, row, col, t: x >= t, result=BOOL,
                        positions=False)
valuelt = IndexUnaryOp("valuelt", lambda x, row, col, t: x < t, result=BOOL)
valuele = IndexUnaryOp("valuele", lambda x, row, col, t: x <= t, result=BOOL,
                        positions=False)

# gblas2d extensions: counter-based random values, a hash of (thunk, row, col) whatever x is
# (``random.py``), so the same at any rank count. The thunk is the seed and must be an integer.
random_bits = RandomOp("random_bits", lambda x, row, col, t: hash64(t, row, col),
                       result=UINT64)
random_uniform = RandomOp("random_uniform", lambda x, row, col, t: uniform(hash64(t, row, col)),
                          result=FP64)

# python-graphblas's aliases, clearer for Vectors.
index = rowindex
indexle = rowle
indexgt = rowgt

# python-graphblas reuses its select abbreviations for index-unary strings.
_SYMBOLS = {
    "<": valuelt, ">": valuegt, "<=": valuele, ">=": valuege, "!=": valuene, "==": valueeq,
    "col<=": colle, "col>": colgt, "row<=": rowle, "row>": rowgt, "index<=": indexle,
    "index>": indexgt,
}


def register_new(name, func, *, result=None):
    """Create an index-unary op and add it to this module as ``indexunary.<name>``.

    Parameters
    ----------
    name : str
        A Python identifier not already used in this module.
    func : callable(x, row, col, thunk)
        Of scalars, as python-graphblas takes it (``lambda x, row, col, thunk: x if row < thunk
        else 0``, compiled by numba; ``row`` and ``col`` are UINT64 there, the thunk of the
        values' type), or vectorized: ``x``, ``row`` and ``col`` (INT64) arrays, ``thunk`` a
        scalar, called as it is (``semirings/_udf.py``).
    result : DataType or callable(DataType) -> DataType, optional
        Output type; by default what ``func`` returns.

    Returns
    -------
    IndexUnaryOp

    Examples
    --------
    >>> from gblas2d.semirings import indexunary
    >>> indexunary.register_new("row_mod", lambda x, row, col, thunk: row % thunk)
    indexunary.row_mod
    """
    op = IndexUnaryOp(name, UserFunction(func, name, index_unary_arguments), result=result)
    return _registry.register(globals(), op)


def register_anonymous(func, name=None, *, result=None):
    """Create an index-unary op without adding it to this module (see ``register_new``)."""
    name = _registry.anonymous_name(func, name)
    return IndexUnaryOp(name, UserFunction(func, name, index_unary_arguments), result=result)


def from_string(string):
    """The index-unary op named by ``string``: ``"rowindex"``, ``"tril"``, ``"<="``, ...

    Raises
    ------
    ValueError
        For an unknown name.
    """
    return _registry.from_string(string, globals(), "indexunary", _SYMBOLS, "rowindex")
