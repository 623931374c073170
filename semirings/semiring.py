"""Semirings ``(+).(x)``: the python-graphblas ``semiring`` names gblas2d provides.

``monoid_binaryop`` multiplies with the binary op and adds with the monoid:
``y(i) = (+)_k A(i, k) (x) x(k)``. Every name here is a python-graphblas name (the positional
ones live in its ``semiring.ss``).

>>> from gblas2d.semirings import semiring
>>> semiring.min_plus
semiring.min_plus
>>> semiring.from_string("min.plus[int64]")
semiring.min_plus[INT64]
"""

from . import _registry, binary, monoid
from ._base import Semiring
from .binary import _Pair
from .dtypes import BOOL, INT64
from .numpy_ops import semiring_namespace as numpy  # semiring.numpy.add_hypot, ...
from .numpy_ops import semiring_of as numpy_semiring_of

__all__ = [
    "any_eq", "any_first", "any_firsti", "any_firstj", "any_lor", "any_pair", "any_second",
    "any_secondi", "any_secondj", "band_bor", "bor_band", "bor_bor", "bxor_band", "from_string",
    "land_lor", "lor_first", "lor_land", "lor_pair", "lor_second", "lxor_land", "max_first",
    "max_firsti", "max_firstj", "max_min", "max_pair", "max_plus", "max_second", "max_secondi",
    "max_secondj", "max_times", "min_first", "min_firsti", "min_firstj", "min_max", "min_pair",
    "min_plus", "min_second", "min_secondi", "min_secondj", "min_times", "numpy", "plus_first",
    "plus_firsti", "plus_firstj", "plus_max", "plus_min", "plus_pair", "plus_plus", "plus_second",
    "plus_secondi", "plus_secondj", "plus_times", "register_anonymous", "register_new",
    "times_times"
]

# binary.pair computes in INT64 unless typed. python-graphblas goes further for the monoids with
# no BOOL form: plus_pair[BOOL] (and min_pair, max_pair) still count in INT64, so their pair
# keeps INT64 for BOOL even when typed. It shares binary.pair's name and function.
_pair_counting = _Pair(
    "pair", binary.pair.func, result=lambda t: INT64 if t == BOOL else t, commutative=True
)

# Arithmetic
plus_times = Semiring("plus_times", monoid.plus, binary.times)
plus_pair = Semiring("plus_pair", monoid.plus, _pair_counting)
plus_first = Semiring("plus_first", monoid.plus, binary.first)
plus_second = Semiring("plus_second", monoid.plus, binary.second)
plus_plus = Semiring("plus_plus", monoid.plus, binary.plus)
plus_min = Semiring("plus_min", monoid.plus, binary.min)
plus_max = Semiring("plus_max", monoid.plus, binary.max)
times_times = Semiring("times_times", monoid.times, binary.times)

# Tropical and bottleneck
min_plus = Semiring("min_plus", monoid.min, binary.plus)
min_times = Semiring("min_times", monoid.min, binary.times)
min_first = Semiring("min_first", monoid.min, binary.first)
min_second = Semiring("min_second", monoid.min, binary.second)
min_max = Semiring("min_max", monoid.min, binary.max)
min_pair = Semiring("min_pair", monoid.min, _pair_counting)
max_plus = Semiring("max_plus", monoid.max, binary.plus)
max_times = Semiring("max_times", monoid.max, binary.times)
max_first = Semiring("max_first", monoid.max, binary.first)
max_second = Semiring("max_second", monoid.max, binary.second)
max_min = Semiring("max_min", monoid.max, binary.min)
max_pair = Semiring("max_pair", monoid.max, _pair_counting)

# Reachability: any one value will do
any_pair = Semiring("any_pair", monoid.any, binary.pair)
any_first = Semiring("any_first", monoid.any, binary.first)
any_second = Semiring("any_second", monoid.any, binary.second)
any_lor = Semiring("any_lor", monoid.any, binary.lor)
# With one term per output (a product with a diagonal) it compares entry by entry, e.g.
# A any.eq diag(m) tests every A(i, j) against m(j).
any_eq = Semiring("any_eq", monoid.any, binary.eq)

# Positional: the result is an index (BFS parents, connected-component labels)
any_firsti = Semiring("any_firsti", monoid.any, binary.firsti)
any_firstj = Semiring("any_firstj", monoid.any, binary.firstj)
any_secondi = Semiring("any_secondi", monoid.any, binary.secondi)
any_secondj = Semiring("any_secondj", monoid.any, binary.secondj)
min_firsti = Semiring("min_firsti", monoid.min, binary.firsti)
min_firstj = Semiring("min_firstj", monoid.min, binary.firstj)
min_secondi = Semiring("min_secondi", monoid.min, binary.secondi)
min_secondj = Semiring("min_secondj", monoid.min, binary.secondj)
max_firsti = Semiring("max_firsti", monoid.max, binary.firsti)
max_firstj = Semiring("max_firstj", monoid.max, binary.firstj)
max_secondi = Semiring("max_secondi", monoid.max, binary.secondi)
max_secondj = Semiring("max_secondj", monoid.max, binary.secondj)
plus_firsti = Semiring("plus_firsti", monoid.plus, binary.firsti)
plus_firstj = Semiring("plus_firstj", monoid.plus, binary.firstj)
plus_secondi = Semiring("plus_secondi", monoid.plus, binary.secondi)
plus_secondj = Semiring("plus_secondj", monoid.plus, binary.secondj)

# Boolean
lor_land = Semiring("lor_land", monoid.lor, binary.land)
land_lor = Semiring("land_lor", monoid.land, binary.lor)
lxor_land = Semiring("lxor_land", monoid.lxor, binary.land)
lor_pair = Semiring("lor_pair", monoid.lor, binary.pair)
lor_first = Semiring("lor_first", monoid.lor, binary.first)
lor_second = Semiring("lor_second", monoid.lor, binary.second)

# Bitwise
bor_band = Semiring("bor_band", monoid.bor, binary.band)
bor_bor = Semiring("bor_bor", monoid.bor, binary.bor)
band_bor = Semiring("band_bor", monoid.band, binary.bor)
bxor_band = Semiring("bxor_band", monoid.bxor, binary.band)

# The rest of python-graphblas's named semirings (all but plus_rpow, whose numba rpow wraps
# integers around, with the ones above), each a monoid and a binary op of these modules:
# {monoid: binary ops}.
_CATALOGUE = {
    "any": "cdiv firsti1 firstj1 floordiv ge gt iseq isge isgt isle islt isne land le lt lxor "
           "max min minus ne plus rdiv rfloordiv rminus rtruediv secondi1 secondj1 times "
           "truediv",
    "band": "band bxnor bxor",
    "bor": "bxnor bxor",
    "bxnor": "band bor bxnor bxor",
    "bxor": "bor bxnor bxor",
    "eq": "eq first ge gt land le lor lt lxor ne pair second",
    "land": "eq first ge gt land le lt lxor ne pair second",
    "lor": "eq ge gt le lor lt lxor ne",
    "lxnor": "lor",
    "lxor": "eq first ge gt le lor lt lxor ne pair second",
    "max": "absfirst abssecond cdiv firsti1 firstj1 floordiv iseq isge isgt isle islt isne "
           "land lor lxor max minus rdiv rfloordiv rminus rtruediv secondi1 secondj1 truediv",
    "min": "cdiv firsti1 firstj1 floordiv iseq isge isgt isle islt isne land lor lxor min "
           "minus rdiv rfloordiv rminus rtruediv secondi1 secondj1 truediv",
    "plus": "absfirst abssecond cdiv firsti1 firstj1 floordiv iseq isge isgt isle islt isne "
            "land lor lxor minus pow rdiv rfloordiv rminus rtruediv secondi1 secondj1 truediv",
    "times": "cdiv first firsti firsti1 firstj firstj1 floordiv iseq isge isgt isle islt isne "
             "land lor lxor max min minus pair plus rdiv rfloordiv rminus rtruediv second "
             "secondi secondi1 secondj secondj1 truediv",
}
for _add, _ops in _CATALOGUE.items():
    for _multiply in _ops.split():
        _name = f"{_add}_{_multiply}"
        globals()[_name] = Semiring(_name, getattr(monoid, _add), getattr(binary, _multiply))
        __all__.append(_name)

_EXAMPLE = "min.+[int]"


def _parts(add, multiply):
    # The (Monoid, BinaryOp) pair, parsing either part given as a string.
    add = monoid.from_string(add) if isinstance(add, str) else add
    multiply = binary.from_string(multiply) if isinstance(multiply, str) else multiply
    return add, multiply


def register_new(name, monoid, binaryop):
    """Create a semiring and add it to this module as ``semiring.<name>``.

    Parameters
    ----------
    name : str
        A Python identifier not already used in this module.
    monoid : Monoid or str
        The addition.
    binaryop : BinaryOp or str
        The multiplication.

    Returns
    -------
    Semiring

    Examples
    --------
    >>> from gblas2d.semirings import monoid, semiring
    >>> semiring.register_new("max_minus", monoid.max, "minus")
    semiring.max_minus
    """
    return _registry.register(globals(), Semiring(name, *_parts(monoid, binaryop)))


def register_anonymous(monoid, binaryop, name=None):
    """Create a semiring without adding it to this module (see ``register_new``)."""
    add, multiply = _parts(monoid, binaryop)
    return Semiring(name or f"{add.name}_{multiply.name}", add, multiply)


def from_string(string):
    """The semiring named by ``string``.

    Accepts a name (``"min_plus"``) or ``"monoid.binaryop"`` in any spelling the two parts
    accept (``"min.plus"``, ``"min.+"``), each with an optional ``[type]`` at the end
    (``"min_plus[INT64]"``, ``"min.plus[int64]"``). As in python-graphblas, a name this module
    lacks is looked for in ``semiring.numpy`` (``"add_hypot"``), parts joined there give that
    semiring (``"min.%"``), and a monoid and binary op that no named semiring combines give an
    anonymous semiring.

    Raises
    ------
    ValueError
        For an unknown name or an unknown part ("Bad semiring string" when it is neither a name
        nor two parts, as python-graphblas).
    """
    base, dtype = _registry.split_type(string, "semiring", _EXAMPLE)
    op = _registry.lookup(globals(), "semiring", base) or getattr(numpy, base, None)
    if op is None and base.count(".") != 1:
        raise ValueError(f"Bad semiring string: {string!r}.  Not a semiring name, and the "
                         f'monoid and binaryop should be separated by exactly one period, ".".  '
                         f"Example usage: {_EXAMPLE!r}")
    if op is None:
        try:
            op = _from_parts(*base.split("."))
        except ValueError as exc:
            raise ValueError(
                f"Unknown semiring string: {string!r}.  Example usage: {_EXAMPLE!r}"
            ) from exc
    return op if dtype is None else op[dtype]


def _from_parts(monoid_name, binaryop_name):
    # The named semiring built from these parts, else semiring.numpy's, else an anonymous one.
    # The binary op matches by name because plus_pair's pair is a variant of binary.pair.
    add, multiply = _parts(monoid_name, binaryop_name)
    named = _registry.lookup(globals(), "semiring", f"{add.name}_{multiply.name}")
    if named is not None and named.monoid is add and named.binaryop.name == multiply.name:
        return named
    return numpy_semiring_of(add, multiply) or register_anonymous(add, multiply)
