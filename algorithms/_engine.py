"""Which engine an algorithm runs on, found from its input, and the input checks they share.

An algorithm asks ``engine(A)`` for the module its input belongs to (the array-API
``array_namespace`` idiom) and builds every workspace object from it, so the same lines run on
gblas2d objects at any rank count and on python-graphblas objects in one process.

Two operations python-graphblas lacks get a fallback here: ``gather`` (``out[k] =
v[index[k]]``, an extract by an index array there) and ``scatter`` (``out[index[k]] (+)=
v[k]``, a ``from_coo`` with ``dup_op`` there). Both fallbacks read the index vector into the
process, which is what python-graphblas does anyway.
"""

import numbers
from types import SimpleNamespace

import numpy as np

import gblas2d
from gblas2d import exceptions


def engine(A):
    """The engine ``A`` (a Matrix or Vector) belongs to, as a namespace of the names algorithms
    use. Raises TypeError for any other object.
    """
    if isinstance(A, (gblas2d.Matrix, gblas2d.Vector)):
        return _GBLAS2D
    if type(A).__module__.partition(".")[0] == "graphblas" and hasattr(A, "to_coo"):
        return _graphblas()
    raise TypeError(f"expected a gblas2d or python-graphblas Matrix, got {type(A).__name__}")


def _gblas2d_gather(v, index):
    return v.gather(index).new()


def _gblas2d_scatter(v, index, size, monoid):
    return v.scatter(index, size, monoid).new()


_GBLAS2D = SimpleNamespace(
    name="gblas2d", Vector=gblas2d.Vector, Matrix=gblas2d.Matrix, binary=gblas2d.binary,
    dtypes=gblas2d.dtypes, indexunary=gblas2d.indexunary, monoid=gblas2d.monoid,
    select=gblas2d.select, semiring=gblas2d.semiring, unary=gblas2d.unary,
    min_secondi=gblas2d.semiring.min_secondi, gather=_gblas2d_gather, scatter=_gblas2d_scatter,
)


def _graphblas_gather(v, index):
    positions, targets = index.to_coo()
    if len(targets) and (targets.min() < 0 or targets.max() >= v.size):
        raise exceptions.IndexOutOfBound(f"gather index out of range for Vector of size "
                                         f"{v.size}")
    found = v[targets.astype(np.uint64)].new()
    k, values = found.to_coo()
    return type(v).from_coo(positions[k], values, dtype=v.dtype, size=index.size)


def _graphblas_scatter(v, index, size, monoid):
    k, values = v.to_coo()
    positions, targets = index.to_coo()
    _, from_v, from_index = np.intersect1d(k, positions, assume_unique=True, return_indices=True)
    targets = targets[from_index]
    if len(targets) and (targets.min() < 0 or targets.max() >= size):
        raise exceptions.IndexOutOfBound(f"scatter index out of range for size {size}")
    return type(v).from_coo(targets, values[from_v], dtype=v.dtype, size=size,
                            dup_op=monoid.binaryop)


_GRAPHBLAS = None


def _graphblas():
    global _GRAPHBLAS
    if _GRAPHBLAS is None:
        import graphblas

        _GRAPHBLAS = SimpleNamespace(
            name="graphblas", Vector=graphblas.Vector, Matrix=graphblas.Matrix,
            binary=graphblas.binary, dtypes=graphblas.dtypes,
            indexunary=graphblas.indexunary, monoid=graphblas.monoid,
            select=graphblas.select, semiring=graphblas.semiring, unary=graphblas.unary,
            min_secondi=graphblas.semiring.ss.min_secondi, gather=_graphblas_gather,
            scatter=_graphblas_scatter,
        )
    return _GRAPHBLAS


def check_square(A, what):
    """Raise TypeError unless ``A`` is a Matrix (not a Vector), DimensionMismatch unless it is
    square (``what`` names the algorithm)."""
    if not hasattr(A, "nrows"):
        raise TypeError(f"{what} needs a Matrix, got {type(A).__name__}")
    if A.nrows != A.ncols:
        raise exceptions.DimensionMismatch(
            f"{what} needs a square Matrix, got Matrix.nrows (={A.nrows}) and Matrix.ncols "
            f"(={A.ncols})")


def check_vertex(A, vertex, what="source"):
    """``vertex`` as an int after checking it is an integer in ``[0, A.nrows)``."""
    if isinstance(vertex, bool) or not isinstance(vertex, numbers.Integral):
        raise TypeError(f"{what} must be an integer vertex id, got {type(vertex).__name__}")
    if not 0 <= vertex < A.nrows:
        raise exceptions.IndexOutOfBound(
            f"{what} (={vertex}) out of range for a graph of {A.nrows} vertices")
    return int(vertex)


def check_sources(A, source):
    """``(sources, batch)``: the source vertices as an int64 array, and whether several were
    asked for (a sequence, even of length one) rather than one integer."""
    if isinstance(source, numbers.Integral) and not isinstance(source, bool):
        return np.array([check_vertex(A, source)], dtype=np.int64), False
    try:
        given = list(source)
    except TypeError:
        raise TypeError(f"source must be an integer vertex id or a sequence of them, got "
                        f"{type(source).__name__}") from None
    if not given:
        raise exceptions.InvalidValue("source must name at least one vertex")
    return np.array([check_vertex(A, s) for s in given], dtype=np.int64), True
