"""Random values that are the same at any rank count: ``Vector.random`` and ``Matrix.random``
(full objects), and ``random_op``, the checks they share with the algorithms' engine namespace
(``algorithms/_engine.py``, which makes the same values on python-graphblas objects).

The values come from the algebra's counter-based hash (``semirings/random.py``). Each rank
hashes (seed, row, col) for its own positions only, so nothing travels, a rank holds only its
own part, and the values are the same at any rank count, on any grid shape and on either
engine. On an object that already exists, ``obj.apply(indexunary.random_uniform, seed)``
puts random values on its entries and leaves out the positions that have none.
"""

import numbers

from ..distributed.grid import collective
from ..exceptions import DomainMismatch, InvalidValue
from ..semirings import indexunary
from ..semirings.dtypes import BOOL, FP64, lookup_dtype
from .inputs import INDEX_LIMIT, type_name

__all__ = ["matrix_random", "random_op", "vector_random"]

# what each dtype of random values is made by
_OPS = {"FP64": indexunary.random_uniform, "UINT64": indexunary.random_bits}


def random_op(seed, dtype, what, dims=None):
    """The index-unary op that makes random values of ``dtype``, once ``seed``, ``dtype`` and
    the dimensions ``dims`` ({name: value}, for a new object) are checked. ``what`` names the
    call in the messages.

    Raises
    ------
    TypeError
        If ``seed`` or a dimension is not an integer.
    InvalidValue
        If ``seed`` is outside [0, 2**64) or a dimension outside [0, 2**60].
    DomainMismatch
        If ``dtype`` (a gblas2d, python-graphblas or numpy dtype, or a name) is neither FP64
        nor UINT64.
    """
    for arg, value in {"seed": seed, **(dims or {})}.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{what}: {arg} must be an integer, got {type_name(value)}")
    if not 0 <= seed < 2**64:
        raise InvalidValue(f"{what}: seed (={seed}) must be in [0, 2**64)")
    for arg, value in (dims or {}).items():
        if not 0 <= value <= INDEX_LIMIT:
            raise InvalidValue(f"{what}: {arg} (={value}) must be in [0, 2**60]")
    # python-graphblas's dtypes are found by their name ("FP64")
    dtype = lookup_dtype(dtype if isinstance(dtype, type) else getattr(dtype, "name", dtype))
    if dtype.name not in _OPS:
        raise DomainMismatch(f"{what} makes FP64 (uniform in [0, 1)) or UINT64 (64 random "
                             f"bits) values, got dtype {dtype}")
    return _OPS[dtype.name]


def _full(cls, dims, seed, dtype, name, grid):
    """A full ``cls`` of dimensions ``dims`` ({name: value}) holding random values."""
    op = random_op(seed, dtype, f"{cls.__name__}.random", dims)
    # A BOOL pattern is the cheapest full object to apply the op to: its values are unread.
    full = cls.from_scalar(False, *dims.values(), BOOL, grid=grid)
    return full.apply(op, int(seed)).new(name=name)


@collective
def vector_random(cls, size, seed=0, *, dtype=FP64, name=None, grid=None):
    """Collective. A full Vector of random values that depend only on ``seed`` and the index.
    Each rank computes only its own piece, and the values are the same at any rank count, on
    any grid shape and, through ``gblas2d.algorithms.engine``, on python-graphblas.

    Parameters
    ----------
    size : int
    seed : int
        In [0, 2**64).
    dtype : FP64 (the default) or UINT64
        FP64 gives floats uniform in [0, 1) and UINT64 gives 64 random bits.
    name : str, optional
    grid : Grid, optional

    Returns
    -------
    Vector
        Entry i is ``indexunary.random_uniform`` (or ``random_bits``) at position (i, 0) with
        thunk ``seed``, so ``w.apply(indexunary.random_uniform, seed)`` gives the same values
        on the entries of a sparse ``w``.

    Raises
    ------
    TypeError
        If ``size`` or ``seed`` is not an integer.
    InvalidValue
        If ``size`` is outside [0, 2**60] or ``seed`` outside [0, 2**64).
    DomainMismatch
        If ``dtype`` is another dtype.

    Examples
    --------
    >>> v = Vector.random(100_000, seed=1)
    >>> round(v.reduce().new().value / v.size, 2)
    0.5
    """
    return _full(cls, {"size": size}, seed, dtype, name, grid)


@collective
def matrix_random(cls, nrows, ncols, seed=0, *, dtype=FP64, name=None, grid=None):
    """Collective. A full Matrix of random values that depend only on ``seed`` and the position
    (row, col). Each rank computes only its own block. The arguments and errors are
    ``Vector.random``'s. Entry (i, j) is ``indexunary.random_uniform`` (or ``random_bits``)
    there, so ``A.apply(indexunary.random_uniform, seed)`` gives the same values on the
    entries of a sparse ``A``.

    Examples
    --------
    >>> A = Matrix.random(3, 4, seed=1, dtype="UINT64")
    >>> A.nvals, A.dtype.name
    (12, 'UINT64')
    """
    return _full(cls, {"nrows": nrows, "ncols": ncols}, seed, dtype, name, grid)
