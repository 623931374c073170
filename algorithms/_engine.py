"""Which engine an algorithm runs on, found from its input, and the input checks they share.

An algorithm asks ``engine(A)`` for the module its input belongs to (the array-API
``array_namespace`` idiom) and builds every workspace object from it, so the same lines run on
gblas2d objects at any rank count and on python-graphblas objects in one process.

Operations python-graphblas lacks get a fallback here: ``gather`` (``out[k] =
v[index[k]]``, an extract by an index array there), ``scatter`` (``out[index[k]] (+)=
v[k]``, a ``from_coo`` with ``dup_op`` there), ``from_vectors`` (a Matrix built from the
entries of distributed Vectors, a ``from_coo`` of their arrays there), ``popcount``
(SuiteSparse has GxB_POPCOUNT but python-graphblas does not expose it), ``mxm_indexed``
(a product whose multiply also sees the entries' global positions; python-graphblas has no
index-aware user multiply), ``random`` (an object's entries replaced by random values,
``apply(indexunary.random_uniform, seed)`` here) and ``random_vector`` (``Vector.random``
here). The random values are the same on both engines: numpy computes the same hash there. The
fallbacks read their operands into the process, which is where python-graphblas keeps them
anyway.
"""

import contextlib
import numbers
from types import SimpleNamespace

import numpy as np

import gblas2d
from gblas2d import exceptions
from gblas2d.surface.random import random_op


def engine(A):
    """The engine ``A`` (a Matrix or Vector) belongs to, as a namespace of the names algorithms
    use: ``Vector``, ``Matrix``, ``dtypes``, ``binary``, ``unary``, ``monoid``, ``semiring``,
    ``select``, ``indexunary``, and the operations python-graphblas lacks (``gather``,
    ``scatter``, ``from_vectors``, ``popcount``, ``mxm_indexed``, ``random``,
    ``random_vector``), and ``iteration``, the marker of one iteration of a loop
    (``with ns.iteration():``; ``gblas2d.iteration``, for ``gblas2d.trace_all``, and a no-op
    on python-graphblas). Raises TypeError for any other object.

    ``random(obj, seed=0, dtype=FP64)`` gives a copy of the Vector or Matrix ``obj`` whose
    entries hold random values: floats uniform in [0, 1) for FP64, 64 random bits for UINT64.
    ``random_vector(size, seed=0, dtype=FP64)`` gives a full Vector of them. Each value depends
    only on the seed and the entry's position, so it is the same on both engines and at any
    rank count. Bad arguments raise the same errors on both engines.

    Examples
    --------
    >>> import gblas2d as gb
    >>> engine(gb.Vector(int, 3)).name
    'gblas2d'
    """
    if isinstance(A, (gblas2d.Matrix, gblas2d.Vector)):
        return _GBLAS2D
    if type(A).__module__.partition(".")[0] == "graphblas" and hasattr(A, "to_coo"):
        return _graphblas()
    raise TypeError(f"expected a gblas2d or python-graphblas Matrix or Vector, got "
                    f"{type(A).__name__}")


def _gblas2d_gather(v, index):
    return v.gather(index).new()


def _gblas2d_scatter(v, index, size, monoid):
    return v.scatter(index, size, monoid).new()


def _gblas2d_from_vectors(rows, columns, value, nrows, ncols, dtype):
    return gblas2d.Matrix.from_vectors(rows, columns, value, dtype, nrows=nrows, ncols=ncols)


def _gblas2d_popcount(M):
    return M.apply(gblas2d.unary.popcount).new()


def _gblas2d_mxm_indexed(A, B, monoid, func, dtype):
    multiply = gblas2d.binary.register_anonymous(func, index_aware=True, result=dtype)
    sr = gblas2d.semiring.register_anonymous(getattr(gblas2d.monoid, monoid), multiply)
    return A.mxm(B, sr).new()


def _gblas2d_random(obj, seed=0, dtype="FP64"):
    return obj.apply(random_op(seed, dtype, "random"), seed).new()


def _gblas2d_random_vector(size, seed=0, dtype="FP64"):
    random_op(seed, dtype, "random_vector", {"size": size})
    return gblas2d.Vector.random(size, seed, dtype=dtype)


_GBLAS2D = SimpleNamespace(
    name="gblas2d", Vector=gblas2d.Vector, Matrix=gblas2d.Matrix, binary=gblas2d.binary,
    dtypes=gblas2d.dtypes, indexunary=gblas2d.indexunary, monoid=gblas2d.monoid,
    select=gblas2d.select, semiring=gblas2d.semiring, unary=gblas2d.unary,
    min_secondi=gblas2d.semiring.min_secondi, gather=_gblas2d_gather, scatter=_gblas2d_scatter,
    from_vectors=_gblas2d_from_vectors, popcount=_gblas2d_popcount,
    mxm_indexed=_gblas2d_mxm_indexed, random=_gblas2d_random,
    random_vector=_gblas2d_random_vector, iteration=gblas2d.iteration,
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


def _graphblas_from_vectors(rows, columns, value, nrows, ncols, dtype):
    import graphblas

    return graphblas.Matrix.from_coo(rows.to_coo()[1], columns.to_coo()[1], value,
                                     dtype=dtype, nrows=nrows, ncols=ncols)


def _graphblas_popcount(M):
    rows, cols, values = M.to_coo()
    return type(M).from_coo(rows, cols, np.bitwise_count(values).astype(values.dtype),
                            nrows=M.nrows, ncols=M.ncols)


def _graphblas_mxm_indexed(A, B, monoid, func, dtype):
    """``C(i, j) = (+)_k func(A(i, k), B(k, j), i, k, k, j)`` evaluated with numpy: every
    product is formed, then products are folded per (i, j) with the gblas2d monoid."""
    ar, ac, av = A.to_coo()
    br, bc, bv = B.to_coo()
    ar, ac = ar.astype(np.int64), ac.astype(np.int64)
    starts = np.searchsorted(br, np.arange(B.nrows + 1))
    counts = starts[ac + 1] - starts[ac]
    which = np.repeat(np.arange(len(ac)), counts)
    pos = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + \
        np.repeat(starts[ac], counts)
    i, k, j = ar[which], ac[which], bc[pos].astype(np.int64)
    products = np.asarray(func(av[which], bv[pos], i, k, k, j)).astype(dtype.np_type)
    keys = i * B.ncols + j
    order = np.argsort(keys, kind="stable")
    keys, products = keys[order], products[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else keys
    values = getattr(gblas2d.monoid, monoid).reduceat(products, first)
    return type(A).from_coo(keys[first] // B.ncols, keys[first] % B.ncols, values,
                            dtype=dtype.name, nrows=A.nrows, ncols=B.ncols)


def _graphblas_random(obj, seed=0, dtype="FP64"):
    op = random_op(seed, dtype, "random")
    if hasattr(obj, "nrows"):
        rows, cols, values = obj.to_coo()
        return type(obj).from_coo(rows, cols, op.evaluate(values, rows, cols, seed),
                                  nrows=obj.nrows, ncols=obj.ncols)
    indices, values = obj.to_coo()
    return type(obj).from_coo(indices, op.evaluate(values, indices, 0 * indices, seed),
                              size=obj.size)


def _graphblas_random_vector(size, seed=0, dtype="FP64"):
    import graphblas

    random_op(seed, dtype, "random_vector", {"size": size})
    return _graphblas_random(graphblas.Vector.from_scalar(False, size, "BOOL"), seed, dtype)


def _graphblas_iteration(label=None):
    # python-graphblas has no trace to mark
    return contextlib.nullcontext()


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
            scatter=_graphblas_scatter, from_vectors=_graphblas_from_vectors,
            popcount=_graphblas_popcount,
            mxm_indexed=_graphblas_mxm_indexed, random=_graphblas_random,
            random_vector=_graphblas_random_vector, iteration=_graphblas_iteration,
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


def check_count(value, name, minimum, rule):
    """``value`` as an int after checking it is an integer (TypeError) of at least ``minimum``
    (InvalidValue saying ``name (=value) must be {rule}``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise exceptions.InvalidValue(f"{name} (={value}) must be {rule}")
    return int(value)


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
