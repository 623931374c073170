"""An op of gblas2d as python-graphblas's op (``Operator.to_graphblas``): one definition, both
engines.

A builtin is python-graphblas's op of the same name (a SuiteSparse extension, ``min_secondi``,
from its ``ss`` namespace). A user's op is registered there, anonymously, from the same Python
function (``UserFunction.orig_func``), which python-graphblas compiles with numba: a function of
scalars compiles there as here; a vectorized one only where numba can compile it on scalars
(``np.gcd`` can, ``np.where`` cannot). A user's monoid is registered from its binary op's form
and its identity, a user's semiring from its monoid's and its multiply's. A typed op gives the
typed op. python-graphblas is imported here, when an op is first converted.
"""

from ._udf import UserFunction
from .dtypes import lookup_dtype

__all__ = ["to_graphblas"]


def to_graphblas(op):
    """python-graphblas's form of ``op``, made once and shared by its typed copies.

    Raises
    ------
    TypeError
        For an op python-graphblas has no form of: a builtin it lacks (``unary.popcount``),
        an index-aware user multiply (it has no user op that sees positions).
    """
    made = op._graphblas[0]
    if made is None:
        made = op._graphblas[0] = _untyped(op)
    return made if op.type is None else made[op.type.name]


def _untyped(op):
    import graphblas

    namespace = getattr(graphblas, op.kind)
    if _is_builtin(op):
        return _builtin(namespace, op)
    if op.kind == "monoid":
        binaryop = _untyped_form(op.binaryop)
        return namespace.register_anonymous(binaryop, _identities(op, binaryop), op.name)
    if op.kind == "semiring":
        return namespace.register_anonymous(_untyped_form(op.monoid),
                                            _untyped_form(op.binaryop), op.name)
    if getattr(op, "index_aware", False):
        raise TypeError(f"{op!r} sees its operands' positions (index_aware), which no user op "
                        "of python-graphblas does")
    return namespace.register_anonymous(op.func.orig_func, op.name)


def _untyped_form(op):
    """python-graphblas's untyped form of ``op``, typed or not."""
    to_graphblas(op)
    return op._graphblas[0]


def _is_builtin(op):
    """Whether ``op`` (untyped or typed) is of gblas2d's catalogue, not a user's function."""
    if op.kind in ("monoid", "semiring"):
        parts = (op.binaryop,) if op.kind == "monoid" else (op.monoid, op.binaryop)
        return all(_is_builtin(part) for part in parts) and _catalogue_holds(op)
    return not isinstance(op.func, UserFunction)


def _catalogue_holds(op):
    """Whether the catalogue's op of ``op``'s name is ``op`` (or the untyped form of it): a
    monoid a user made of a builtin op under a name of its own is the user's."""
    from . import find

    try:
        found = find(op.kind, op.name)
    except ValueError:
        return False
    return found is op or op.type is not None and found[op.type] is op


def _builtin(namespace, op):
    """python-graphblas's op called ``op.name``: in its ``ss`` namespace for a SuiteSparse
    extension, its ``numpy`` namespace for numpy's names, else at the top."""
    head, _, rest = op.name.partition(".")
    if head == "numpy" and rest:
        found = getattr(namespace.numpy, rest, None)
    else:
        ss = getattr(namespace, "ss", None)
        # the ss names first: python-graphblas warns that its top-level aliases of them go
        found = getattr(ss, op.name) if ss is not None and op.name in dir(ss) else \
            getattr(namespace, op.name, None)
    if found is None:
        raise TypeError(f"python-graphblas has no {op.kind}.{op.name}")
    return found


def _identities(monoid, binaryop):
    """The identity of ``monoid`` for python-graphblas: its value, or, where it depends on the
    type, its value for each type ``binaryop`` (python-graphblas's) was compiled for."""
    identity = monoid._identity
    if not callable(identity):
        return identity
    identities = {}
    for dtype in binaryop.types:
        ours = lookup_dtype(dtype.name)
        try:
            identities[dtype.name] = ours.np_type.type(identity(ours)).item()
        except (TypeError, ValueError):  # a type the identity has no value for
            continue
    return identities
