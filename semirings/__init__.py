"""The algebra of gblas2d: types, operators, monoids and semirings, with python-graphblas names.

Each kind of op has its own module, filled with plain module-level constants::

    unary       f(x)                     unary.abs, unary.ainv, ...
    binary      f(x, y)                  binary.plus, binary.min, binary.firsti, ...
    monoid      binary op + identity     monoid.plus, monoid.min, monoid.any, ...
    semiring    monoid . binary op       semiring.min_plus, semiring.any_pair, ...
    indexunary  f(x, row, col, thunk)    indexunary.rowindex, indexunary.tril, ...
    select      predicate for select     select.tril, select.valuegt, ...
    op          every unary, binary,     op.abs, op.plus, op.min_plus, ...
                monoid and semiring op

``random`` holds the counter-based hash of (seed, row, col) behind ``indexunary.random_uniform``
and ``indexunary.random_bits``.

``op[dtype]`` fixes an op to one type (``semiring.any_pair[bool]``); strings name ops as in
python-graphblas (``"min.plus[int64]"``, ``"+"``, ``"index<="``). Every op is vectorized over
numpy arrays and knows nothing of MPI, so the engine applies it to each rank's local arrays.

>>> from gblas2d.semirings import semiring, resolve
>>> resolve("semiring", "min.plus") is semiring.min_plus
True
"""

from . import binary, dtypes, indexunary, monoid, op, select, semiring, unary
from ._base import BinaryOp, IndexUnaryOp, Monoid, Operator, Semiring, UnaryOp, folds_to_itself
from ._ordered import OrderedMonoid, held_as_bitmap, reduce_rows
from ._registry import lookup as _lookup

__all__ = [
    "BinaryOp", "IndexUnaryOp", "Monoid", "Operator", "OrderedMonoid", "Semiring", "UnaryOp",
    "binary", "dtypes", "find", "folds_to_itself", "forwarding", "from_string",
    "held_as_bitmap", "indexunary",
    "monoid", "op", "reduce_rows", "resolve", "select", "semiring", "unary",
]

_MODULES = {
    "unary": unary,
    "binary": binary,
    "monoid": monoid,
    "semiring": semiring,
    "indexunary": indexunary,
    "select": select,
}

# What ``resolve`` takes for each kind beyond an op of that kind, for its error message.
_ACCEPTED = {
    "binary": "a BinaryOp, a Monoid",
    "monoid": "a Monoid, a BinaryOp with a monoid",
    "select": "a select op, an IndexUnaryOp",
}


def _module(kind):
    if kind not in _MODULES:
        raise ValueError(f"Unknown op kind: {kind!r}; expected one of {', '.join(_MODULES)}")
    return _MODULES[kind]


def find(kind, name):
    """The builtin or registered op of ``kind`` called exactly ``name``.

    Parameters
    ----------
    kind : {"unary", "binary", "monoid", "semiring", "indexunary", "select"}
    name : str
        The attribute name, as in ``semiring.min_plus``; no symbols, no ``[type]``.

    Returns
    -------
    Operator

    Raises
    ------
    ValueError
        For an unknown kind or name.

    Examples
    --------
    >>> find("monoid", "min")
    monoid.min
    """
    op = _lookup(vars(_module(kind)), kind, name)
    if op is None:
        raise ValueError(f"Unknown {kind}: {name!r}")
    return op


def from_string(kind, string):
    """Parse ``string`` as an op of ``kind``, as python-graphblas's ``<kind>.from_string``.

    Raises
    ------
    ValueError
        For an unknown kind, name or type (``"Unknown semiring string: 'foo.bar'..."``).

    Examples
    --------
    >>> from_string("semiring", "min.plus[int64]")
    semiring.min_plus[INT64]
    """
    return _module(kind).from_string(string)


def resolve(kind, obj):
    """The op of ``kind`` that ``obj`` stands for, where the engine takes an op argument.

    An op of ``kind`` is returned as it is and a string is parsed. As in python-graphblas, a
    Monoid stands for its BinaryOp where a binary op is wanted, a BinaryOp with a monoid
    (``binary.plus``) for that Monoid where a monoid is wanted, and an IndexUnaryOp is a select
    op that keeps the values where it is nonzero.

    Parameters
    ----------
    kind : {"unary", "binary", "monoid", "semiring", "indexunary", "select"}
    obj : Operator or str

    Returns
    -------
    Operator
        Of ``kind``, except an IndexUnaryOp given for ``"select"``.

    Raises
    ------
    ValueError
        For a string that names no op of ``kind``.
    TypeError
        For anything else.

    Examples
    --------
    >>> resolve("monoid", binary.plus[int])
    monoid.plus[INT64]
    """
    module = _module(kind)
    if isinstance(obj, str):
        return module.from_string(obj)
    if isinstance(obj, Operator):
        if obj.kind == kind or (kind == "select" and obj.kind == "indexunary"):
            return obj
        if kind == "binary" and obj.kind == "monoid":
            return obj.binaryop
        if kind == "monoid" and obj.kind == "binary":
            if obj.monoid is None:
                raise TypeError(f"{obj!r} has no monoid; expected a Monoid or a string")
            return obj.monoid  # typed as obj is
    accepted = _ACCEPTED.get(kind, f"a {kind} op")
    raise TypeError(f"Expected {accepted} or a string, got {obj!r} ({type(obj).__name__})")


def forwarding(namespace):
    """``__all__``, ``__getattr__`` and ``__dir__`` for a module that stands at
    python-graphblas's import path (``gblas2d.binary``) for ``namespace``: each name is read
    from it when asked for, so what is registered there later is found too, and ``dir()``
    lists, as python-graphblas's, the ops and what ``__all__`` names, not imports."""
    names = list(namespace.__all__)

    def getattr_(name):
        return getattr(namespace, name)

    def dir_():
        return [name for name in dir(namespace)
                if name in names or isinstance(getattr(namespace, name), Operator)]

    return names, getattr_, dir_
