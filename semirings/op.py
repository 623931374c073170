"""Every unary, binary, monoid and semiring op by name: python-graphblas's ``op`` namespace.

``op.abs`` is ``unary.abs``, ``op.plus`` is ``binary.plus``, ``op.plus_times`` is
``semiring.plus_times``. The ops stay in their own modules; a name is looked up there when it is
read, in python-graphblas's order (unary, binary, monoid, semiring), so an op registered later
(``binary.register_new``) is found here too. As in python-graphblas, index-unary and select ops
are not attributes (``op.tril`` is an AttributeError), but ``from_string`` finds them after the
other kinds.

>>> from gblas2d.semirings import op
>>> op.plus, op.min_plus, op.from_string("tril")
(binary.plus, semiring.min_plus, indexunary.tril)
"""

from . import _registry, binary, indexunary, monoid, select, semiring, unary

__all__ = ["from_string"]

# Where an attribute is looked for, first match wins (python-graphblas's precedence).
_ATTRIBUTE_KINDS = (("unary", unary), ("binary", binary), ("monoid", monoid),
                    ("semiring", semiring))
# The kinds a string is parsed as, in python-graphblas's order.
_STRING_KINDS = (unary, binary, monoid, semiring, indexunary, select)


def __getattr__(name):
    for kind, module in _ATTRIBUTE_KINDS:
        found = _registry.lookup(vars(module), kind, name)
        if found is not None:
            return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    names = {name for kind, module in _ATTRIBUTE_KINDS for name, value in vars(module).items()
             if _registry.lookup(vars(module), kind, name) is value}
    return sorted(names | set(__all__))


def from_string(string):
    """The op named by ``string``, of the first kind that has it: unary, binary, monoid,
    semiring, index-unary, select (``"-"`` is ``unary.ainv``, ``"+"`` ``binary.plus``,
    ``"min.plus"`` ``semiring.min_plus``).

    Raises
    ------
    ValueError
        When no kind has it.
    """
    for module in _STRING_KINDS:
        try:
            return module.from_string(string)
        except (ValueError, TypeError):
            continue
    raise ValueError(f"Unknown op string: {string!r}.  Example usage: 'abs[int]'")
