"""Select ops: index-unary predicates that decide which values ``select`` keeps.

The same predicates as ``indexunary`` (kind ``"select"``, BOOL result), and the
python-graphblas strings: ``v.select("<=", 3)`` keeps values ``<= 3``, ``v.select("index<=", 1)``
keeps indices ``<= 1``, ``A.select("tril")`` keeps the lower triangle.

>>> from gblas2d.semirings import select
>>> select.from_string("index<=")
select.rowle

``select.value(A > 0)``, ``select.row(A <= 5)``, ``select.column(A < 2)`` and
``select.index(v >= 3)`` read a comparison of a Vector or Matrix with a scalar as the select it
describes (``select.valuegt(A, 0)``, ``select.rowle(A, 5)``, ``select.colle(A, 1)``,
``select.indexgt(v, 2)``), as python-graphblas's do.
"""

from . import _registry, indexunary
from ._base import IndexUnaryOp
from ._udf import UserFunction, index_unary_arguments

__all__ = [
    "colgt", "colle", "column", "diag", "from_string", "index", "indexgt", "indexle", "offdiag",
    "register_anonymous", "register_new", "row", "rowgt", "rowle", "tril", "triu", "value",
    "valueeq", "valuege", "valuegt", "valuele", "valuelt", "valuene",
]

tril = IndexUnaryOp("tril", indexunary.tril.func, select=True)
triu = IndexUnaryOp("triu", indexunary.triu.func, select=True)
diag = IndexUnaryOp("diag", indexunary.diag.func, select=True)
offdiag = IndexUnaryOp("offdiag", indexunary.offdiag.func, select=True)
rowle = IndexUnaryOp("rowle", indexunary.rowle.func, select=True)
rowgt = IndexUnaryOp("rowgt", indexunary.rowgt.func, select=True)
colle = IndexUnaryOp("colle", indexunary.colle.func, select=True)
colgt = IndexUnaryOp("colgt", indexunary.colgt.func, select=True)
valueeq = IndexUnaryOp("valueeq", indexunary.valueeq.func, select=True,
                       positions=False)
valuene = IndexUnaryOp("valuene", indexunary.valuene.func, select=True,
                       positions=False)
valuegt = IndexUnaryOp("valuegt", indexunary.valuegt.func, select=True,
                       positions=False)
valuege = IndexUnaryOp("valuege", indexunary.valuege.func, select=True,
                       positions=False)
valuelt = IndexUnaryOp("valuelt", indexunary.valuelt.func, select=True,
                       positions=False)
valuele = IndexUnaryOp("valuele", indexunary.valuele.func, select=True,
                       positions=False)

# python-graphblas's aliases, clearer for Vectors.
indexle = rowle
indexgt = rowgt

# python-graphblas's select string table; names such as "tril" resolve as themselves.
_SYMBOLS = {
    "<": valuelt, ">": valuegt, "<=": valuele, ">=": valuege, "!=": valuene, "==": valueeq,
    "col<=": colle, "col>": colgt, "row<=": rowle, "row>": rowgt, "index<=": indexle,
    "index>": indexgt,
}


def register_new(name, func):
    """Create a select op and add it to this module as ``select.<name>``.

    Parameters
    ----------
    name : str
        A Python identifier not already used in this module.
    func : callable(x, row, col, thunk) -> bool
        Of scalars, as python-graphblas takes it (compiled by numba; ``row`` and ``col`` UINT64,
        the thunk of the values' type), or vectorized: ``x``, ``row`` and ``col`` (INT64)
        arrays, ``thunk`` a scalar (``semirings/_udf.py``); a value is kept where the result is
        True.

    Returns
    -------
    IndexUnaryOp
        Of kind ``"select"``.

    Examples
    --------
    >>> from gblas2d.semirings import select
    >>> select.register_new("upper_left", lambda x, row, col, thunk: row + col <= thunk)
    select.upper_left
    """
    op = IndexUnaryOp(name, UserFunction(func, name, index_unary_arguments), select=True)
    return _registry.register(globals(), op)


def register_anonymous(func, name=None):
    """Create a select op without adding it to this module (see ``register_new``)."""
    name = _registry.anonymous_name(func, name)
    return IndexUnaryOp(name, UserFunction(func, name, index_unary_arguments), select=True)


def from_string(string):
    """The select op named by ``string``: ``"tril"``, ``"<="``, ``"index<="``, ``"col>"``, ...

    Raises
    ------
    ValueError
        For an unknown name.
    """
    return _registry.from_string(string, globals(), "select", _SYMBOLS, "tril")


# The select op each comparison stands for, by what it compares: {(prefix, comparison): op}.
# Positions have only <= and > (GraphBLAS's rowle, rowgt, ...): x < k is x <= k - 1 and
# x >= k is x > k - 1, as python-graphblas rewrites them.
_BY_COMPARISON = {
    ("value", "lt"): valuelt, ("value", "le"): valuele, ("value", "gt"): valuegt,
    ("value", "ge"): valuege, ("value", "eq"): valueeq, ("value", "ne"): valuene,
    ("row", "le"): rowle, ("row", "gt"): rowgt, ("col", "le"): colle, ("col", "gt"): colgt,
    ("index", "le"): indexle, ("index", "gt"): indexgt,
}
# A scalar bound on the left, k < x, is x > k.
_MIRRORED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def _from_comparison(expr, callname, prefix):
    """Select from ``expr``, the lazy comparison of an object with a scalar (``A <= 5``), with
    the ``prefix`` op it names: ``select.rowle(A, 5)`` for ``row(A <= 5)``."""
    args = getattr(expr, "args", ())
    op = args[1] if getattr(expr, "method_name", None) == "apply" and len(args) == 4 else None
    if getattr(op, "kind", None) != "binary" or op.name not in _MIRRORED:
        raise TypeError(f"Expected ScalarExpression, VectorExpression, or MatrixExpression "
                        f"comparing a Vector or Matrix with a scalar; found "
                        f"{type(expr).__name__}\nTypical usage: select.{callname}(x <= 5)")
    obj, _, left, right = args
    name, thunk = (op.name, right) if left is None else (_MIRRORED[op.name], left)
    if (prefix, name) not in _BY_COMPARISON and name in ("lt", "ge"):
        # Convert to a Python int first: k - 1 must not wrap around in an unsigned type.
        name, thunk = ("le" if name == "lt" else "gt"), int(thunk) - 1
    if (prefix, name) not in _BY_COMPARISON:
        raise ValueError(f"Unknown or unregistered select method: {prefix}{name} (select."
                         f"{callname} takes <, <=, > and >=)")
    return _BY_COMPARISON[prefix, name](obj, thunk)


def value(expr):
    """Select by comparing values, ``select.value(A > 0)``: ``select.valuegt(A, 0)``.

    Parameters
    ----------
    expr : VectorExpression or MatrixExpression
        A comparison (``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``) of a Vector or Matrix with a
        scalar.

    Returns
    -------
    VectorExpression or MatrixExpression
        The select, lazy as any expression.
    """
    return _from_comparison(expr, "value", "value")


def row(expr):
    """Select by row index, ``select.row(A <= 5)``: ``select.rowle(A, 5)`` (see ``value``)."""
    return _from_comparison(expr, "row", "row")


def column(expr):
    """Select by column index, ``select.column(A < 2)``: ``select.colle(A, 1)`` (see
    ``value``)."""
    return _from_comparison(expr, "column", "col")


def index(expr):
    """Select by Vector index, ``select.index(v >= 3)``: ``select.indexgt(v, 2)`` (see
    ``value``)."""
    return _from_comparison(expr, "index", "index")
