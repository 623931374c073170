"""Name lookup shared by the catalogue modules: parsing op strings and adding user ops.

Each catalogue module (``unary``, ``binary``, ...) is its own namespace: an op is found among the
module's attributes, and ``register_new`` adds a user op as a new module attribute, as
python-graphblas does. The string grammar is python-graphblas's: ``name`` or a symbol, then an
optional ``[type]``, case-insensitive (``"min_plus[INT64]"``, ``"+[int]"``).
"""

from ._base import Operator
from .dtypes import lookup_dtype


def lookup(namespace, kind, name):
    """The op of ``kind`` called ``name`` in ``namespace`` (a module's ``vars``), or None.

    ``"numpy.<name>"`` is read from the module's numpy namespace (``binary.numpy.mod``), as
    python-graphblas's strings read it, except for semirings, whose strings it refuses.
    """
    head, dot, attribute = name.partition(".")
    if dot and head == "numpy" and kind != "semiring" and "numpy" in namespace:
        return getattr(namespace["numpy"], attribute, None)
    op = namespace.get(name)
    if isinstance(op, Operator) and op.kind == kind:
        return op
    return None


def split_type(string, kind, example):
    """Split ``"name[type]"`` into the lower-cased name and the DataType (None if absent).

    Parameters
    ----------
    string : str
    kind : str
        For the error messages: ``"binary"``, ``"semiring"``, ...
    example : str
        A valid string of this kind, quoted in the error messages.

    Returns
    -------
    base : str
    dtype : DataType or None
    """
    if not isinstance(string, str):
        raise TypeError(f"A {kind} string must be a str, not {type(string).__name__}")
    base, *rest = string.lower().strip().split("[")
    # python-graphblas's checks, in its order and words
    problem = ('Contains too many "["' if len(rest) > 1 else
               'Datatype specification does not end with "]"' if rest and
               not rest[0].endswith("]") else
               '"]" not matched by "["' if "]" in base else None)
    if problem:
        raise ValueError(f"Bad {kind} string: {string!r}.  {problem}.  Example usage: "
                         f"{example!r}")
    return base, lookup_dtype(rest[0][:-1]) if rest else None


def from_string(string, namespace, kind, symbols, example):
    """Parse ``string`` against ``namespace`` and the ``symbols`` table (``{"+": plus, ...}``).
    As in python-graphblas, a name the module lacks is looked for in its numpy namespace
    (``"true_divide"`` is ``binary.numpy.true_divide``).

    Raises
    ------
    ValueError
        When no op of ``kind`` has that name or symbol, or the string is malformed.
    """
    base, dtype = split_type(string, kind, example)
    op = symbols.get(base) or lookup(namespace, kind, base) or \
        lookup(namespace, kind, f"numpy.{base}")
    if op is None:
        raise ValueError(f"Unknown {kind} string: {string!r}.  Example usage: {example!r}")
    return op if dtype is None else op[dtype]


def register(namespace, op):
    """Add the user op ``op`` to its module's ``namespace`` (the module's ``globals()``).

    Like python-graphblas, a name that is already defined cannot be reused.

    Returns
    -------
    Operator
        ``op`` itself.
    """
    if not (isinstance(op.name, str) and op.name.isidentifier()) or op.name.startswith("_"):
        raise ValueError(f"Bad {op.kind} name: {op.name!r} (use a Python identifier)")
    if op.name in namespace:
        raise AttributeError(f"{op.kind}.{op.name} is already defined")
    namespace[op.name] = op
    return op


def anonymous_name(func, name):
    """The name of an op that is not registered: ``name``, else the function's own name."""
    return name if name is not None else getattr(func, "__name__", "anonymous")
