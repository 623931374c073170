"""Select ops: index-unary predicates that decide which values ``select`` keeps.

The same predicates as ``indexunary`` (kind ``"select"``, BOOL result), and the
python-graphblas strings: ``v.select("<=", 3)`` keeps values ``<= 3``, ``v.select("index<=", 1)``
keeps indices ``<= 1``, ``A.select("tril")`` keeps the lower triangle.

>>> from gblas2d.semirings import select
>>> select.from_string("index<=")
select.rowle
"""

from . import _registry, indexunary
from ._base import IndexUnaryOp

__all__ = [
    "colgt", "colle", "diag", "from_string", "indexgt", "indexle", "offdiag",
    "register_anonymous", "register_new", "rowgt", "rowle", "tril", "triu", "valueeq",
    "valuege", "valuegt", "valuele", "valuelt", "valuene",
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
    func : callable(x, row, col, thunk) -> array of bool
        Vectorized: ``x``, ``row`` and ``col`` are arrays, ``thunk`` a scalar; a value is kept
        where the result is True.

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
    return _registry.register(globals(), IndexUnaryOp(name, func, select=True))


def register_anonymous(func, name=None):
    """Create a select op without adding it to this module (see ``register_new``)."""
    return IndexUnaryOp(_registry.anonymous_name(func, name), func, select=True)


def from_string(string):
    """The select op named by ``string``: ``"tril"``, ``"<="``, ``"index<="``, ``"col>"``, ...

    Raises
    ------
    ValueError
        For an unknown name.
    """
    return _registry.from_string(string, globals(), "select", _SYMBOLS, "tril")
