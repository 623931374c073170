"""``engine(A)``: the names algorithm code uses, of the engine its input belongs to.

An algorithm asks ``engine(A)`` for the namespace of ``A``'s engine (the array-API
``array_namespace`` idiom) and makes every workspace object from it, so the same lines run on
gblas2d objects at any rank count and on python-graphblas objects in one process::

    ns = engine(A)
    q = ns.Vector(bool, A.nrows)
    y = ns.gather(parents, parents)

docs/engine.md lists the members. Both namespaces hold the same names, and each operation has
the same signature and raises the same errors on both (tests/algorithms/test_engine.py):

* the classes and op namespaces: ``Vector``, ``Matrix``, ``Scalar``, ``dtypes``, ``binary``,
  ``unary``, ``monoid``, ``semiring``, ``select``, ``indexunary``, ``agg``, ``io``, and
  ``min_secondi`` (a SuiteSparse extension, under ``semiring.ss`` in python-graphblas);
* ``operator``: a gblas2d op as this engine's op, so a user's op is defined once;
* the operations python-graphblas lacks, computed there by a fallback that reads the operands
  into the process (where python-graphblas keeps them anyway): ``gather``, ``scatter``,
  ``from_vectors``, ``popcount``, ``mxm_indexed``, ``random``, ``random_vector``;
* ``iteration``: the marker of one iteration of a loop for ``gblas2d.trace_all``.
"""

import contextlib
import numbers
from types import SimpleNamespace

import numpy as np

import gblas2d
from gblas2d import exceptions
from gblas2d.surface.random import random_op


def engine(A):
    """The namespace of the engine ``A`` belongs to (module docstring, docs/engine.md).

    Parameters
    ----------
    A : Matrix or Vector
        Of gblas2d or of python-graphblas.

    Returns
    -------
    types.SimpleNamespace
        ``name`` ("gblas2d" or "graphblas") and the members the module docstring lists.

    Raises
    ------
    TypeError
        For any other object.

    Examples
    --------
    >>> import gblas2d as gb
    >>> ns = engine(gb.Vector(int, 3))
    >>> ns.name, ns.Vector is gb.Vector
    ('gblas2d', True)
    """
    if isinstance(A, (gblas2d.Matrix, gblas2d.Vector)):
        return _GBLAS2D
    if type(A).__module__.partition(".")[0] == "graphblas" and hasattr(A, "to_coo"):
        return _graphblas()
    raise TypeError(f"expected a gblas2d or python-graphblas Matrix or Vector, got "
                    f"{type(A).__name__}")


# ---- gblas2d: each member is the engine's own call; these docstrings document the members


def _gblas2d_operator(op):
    """The op ``op`` (a gblas2d op: builtin, or a user's from ``register_anonymous`` /
    ``register_new``) as this engine's op: itself on gblas2d, ``op.to_graphblas()`` on
    python-graphblas, which registers a user's op there from the same function. So an op is
    defined once: ``lexmin = gblas2d.binary.register_anonymous(lambda x, y: ...)``, then
    ``A.ewise_add(B, ns.operator(lexmin))`` on either engine.

    Raises
    ------
    TypeError
        If ``op`` is not a gblas2d op, or python-graphblas has no form of it (an index-aware
        user op, a gblas2d extension such as ``unary.popcount``).
    """
    if not isinstance(op, gblas2d.semirings.Operator):
        raise TypeError(f"operator expects a gblas2d op, got {type(op).__name__}")
    return op


def _gblas2d_gather(v, index):
    """``out[k] = v[index[k]]`` for every entry k of the integer Vector ``index`` (pointer
    jumping: ``gather(p, p)`` is the grandparents). Collective.

    Returns
    -------
    Vector
        Of ``index.size`` and ``v``'s dtype; an entry whose target holds no value is missing.

    Raises
    ------
    TypeError
        If ``index`` is not an integer Vector.
    IndexOutOfBound
        If an index is outside ``[0, v.size)``.
    """
    return v.gather(index).new()


def _gblas2d_scatter(v, index, size=None, op=None):
    """``out[index[k]] (+)= v[k]`` for every entry k of ``v`` that ``index`` has: each value
    sent to a position, values meeting there folded with the monoid ``op`` (default
    ``monoid.any``). Collective.

    Parameters
    ----------
    v, index : Vector
        ``index`` is an integer Vector of ``v``'s size.
    size : int, optional
        The output's size; default ``v.size``.
    op : Monoid, optional

    Raises
    ------
    TypeError
        If ``index`` is not an integer Vector.
    IndexOutOfBound
        If an index is outside ``[0, size)``.
    """
    return v.scatter(index, size, gblas2d.monoid.any if op is None else op).new()


def _gblas2d_from_vectors(rows, columns, values=1.0, dtype=None, *, nrows=None, ncols=None,
                          dup_op=None, name=None):
    """``Matrix.from_vectors``: a Matrix whose entries are ``(rows[k], columns[k], values[k])``
    for each position k of the integer Vectors ``rows`` and ``columns`` (``values`` a Vector
    of the same positions, or one value for all). Collective; each rank sends only its own
    pieces. The signature is ``Matrix.from_vectors``'s."""
    return gblas2d.Matrix.from_vectors(rows, columns, values, dtype, nrows=nrows, ncols=ncols,
                                       dup_op=dup_op, name=name)


def _gblas2d_popcount(M):
    """The number of set bits of each value of the integer Matrix or Vector ``M``, in its
    dtype (``unary.popcount``, SuiteSparse's GxB_POPCOUNT)."""
    return M.apply(gblas2d.unary.popcount).new()


def _gblas2d_mxm_indexed(A, B, monoid, func, dtype):
    """``C(i, j) = (+)_k func(A(i, k), B(k, j), i, k, k, j)``: a product whose multiply also
    sees the entries' global positions (the fused BPT's per-edge random bits).

    Parameters
    ----------
    A, B : Matrix
    monoid : str
        The name of the fold's monoid (``"bor"``, ``"plus"``, ...).
    func : callable(x, y, ia, ja, ib, jb)
        As ``binary.register_anonymous(..., index_aware=True)`` takes it: of scalars, or
        vectorized over arrays.
    dtype : DataType
        The products' type.
    """
    multiply = gblas2d.binary.register_anonymous(func, index_aware=True, result=dtype)
    sr = gblas2d.semiring.register_anonymous(getattr(gblas2d.monoid, monoid), multiply)
    return A.mxm(B, sr).new()


def _gblas2d_random(obj, seed=0, dtype="FP64"):
    """A copy of the Vector or Matrix ``obj`` whose entries hold random values: FP64 uniform
    in [0, 1), or UINT64 of 64 random bits. Each value depends only on ``seed`` and the
    entry's position, so it is the same on both engines and at any rank count.

    Raises
    ------
    TypeError, InvalidValue, DomainMismatch
        For a seed that is not an integer in [0, 2**64), or another dtype.
    """
    return obj.apply(random_op(seed, dtype, "random"), seed).new()


def _gblas2d_random_vector(size, seed=0, dtype="FP64"):
    """A full Vector of ``size`` random values, as ``random`` makes them (``Vector.random``)."""
    random_op(seed, dtype, "random_vector", {"size": size})
    return gblas2d.Vector.random(size, seed, dtype=dtype)


def _gblas2d_iteration(label=None):
    """``with ns.iteration(): ...``: one iteration of a loop, a row of ``gblas2d.trace_all``'s
    table (``gblas2d.iteration``); nothing on python-graphblas, which has no trace."""
    return gblas2d.iteration(label)


_GBLAS2D = SimpleNamespace(
    name="gblas2d", Vector=gblas2d.Vector, Matrix=gblas2d.Matrix, Scalar=gblas2d.Scalar,
    dtypes=gblas2d.dtypes, binary=gblas2d.binary, unary=gblas2d.unary, monoid=gblas2d.monoid,
    semiring=gblas2d.semiring, select=gblas2d.select, indexunary=gblas2d.indexunary,
    agg=gblas2d.agg, io=gblas2d.io, min_secondi=gblas2d.semiring.min_secondi,
    operator=_gblas2d_operator, gather=_gblas2d_gather, scatter=_gblas2d_scatter,
    from_vectors=_gblas2d_from_vectors, popcount=_gblas2d_popcount,
    mxm_indexed=_gblas2d_mxm_indexed, random=_gblas2d_random,
    random_vector=_gblas2d_random_vector, iteration=_gblas2d_iteration,
)


# ---- python-graphblas: the same members, the missing operations as fallbacks


def _graphblas_operator(op):
    """python-graphblas's form of the gblas2d op ``op``: ``op.to_graphblas()`` (see gblas2d's
    ``operator``)."""
    if not isinstance(op, gblas2d.semirings.Operator):
        raise TypeError(f"operator expects a gblas2d op, got {type(op).__name__}")
    return op.to_graphblas()


def _integer_vector(index, what):
    if not hasattr(index, "size") or hasattr(index, "nrows") or index.dtype.np_type.kind \
            not in "iub":
        raise TypeError(f"{what} expects an integer Vector of indices")


def _graphblas_gather(v, index):
    """``gather`` on python-graphblas: an extract by the index Vector's values."""
    _integer_vector(index, "gather")
    positions, targets = index.to_coo()
    targets = targets.astype(np.int64)
    bad = (targets < 0) | (targets >= v.size)
    if bad.any():
        raise exceptions.IndexOutOfBound(f"gather index {int(targets[bad][0])} out of range "
                                         f"for Vector of size {v.size}")
    found = v[targets.astype(np.uint64)].new()
    k, values = found.to_coo()
    return type(v).from_coo(positions[k], values, dtype=v.dtype, size=index.size)


def _graphblas_scatter(v, index, size=None, op=None):
    """``scatter`` on python-graphblas: a ``from_coo`` whose ``dup_op`` is the monoid's op."""
    import graphblas

    _integer_vector(index, "scatter")
    if index.size != v.size:
        raise exceptions.DimensionMismatch(f"index Vector.size (={index.size}) must equal "
                                           f"Vector.size (={v.size}) in scatter")
    size = v.size if size is None else int(size)
    k, values = v.to_coo()
    positions, targets = index.to_coo()
    _, from_v, from_index = np.intersect1d(k, positions, assume_unique=True, return_indices=True)
    targets = targets[from_index].astype(np.int64)
    bad = (targets < 0) | (targets >= size)
    if bad.any():
        raise exceptions.IndexOutOfBound(f"scatter index {int(targets[bad][0])} out of range "
                                         f"for size {size}")
    op = graphblas.monoid.any if op is None else op
    return type(v).from_coo(targets, values[from_v], dtype=v.dtype, size=size,
                            dup_op=op.binaryop)


def _graphblas_from_vectors(rows, columns, values=1.0, dtype=None, *, nrows=None, ncols=None,
                            dup_op=None, name=None):
    """``from_vectors`` on python-graphblas: a ``from_coo`` of the Vectors' values."""
    import graphblas

    at, r = rows.to_coo()
    col_at, c = columns.to_coo()
    vector_values = hasattr(values, "to_coo")
    for vec in (rows, columns):
        if vec.dtype.np_type.kind not in "iu":
            raise exceptions.DomainMismatch(f"row and column indices must be integers, got "
                                            f"{vec.dtype}")
    if vector_values:
        val_at, values = values.to_coo()
        dtype = dtype or values.dtype
    if not np.array_equal(at, col_at) or vector_values and not np.array_equal(at, val_at):
        raise exceptions.InvalidValue("from_vectors: rows, columns (and a values Vector) must "
                                      "hold entries at the same positions")
    return graphblas.Matrix.from_coo(r, c, values, dtype, nrows=nrows, ncols=ncols,
                                     dup_op=dup_op, name=name)


def _graphblas_popcount(M):
    """``popcount`` on python-graphblas, which does not expose GxB_POPCOUNT: numpy's
    ``bitwise_count`` of the values."""
    if hasattr(M, "nrows"):
        rows, cols, values = M.to_coo()
        return type(M).from_coo(rows, cols, np.bitwise_count(values).astype(values.dtype),
                                nrows=M.nrows, ncols=M.ncols)
    indices, values = M.to_coo()
    return type(M).from_coo(indices, np.bitwise_count(values).astype(values.dtype),
                            size=M.size)


def _graphblas_mxm_indexed(A, B, monoid, func, dtype):
    """``mxm_indexed`` on python-graphblas, which has no index-aware user multiply: every
    product formed with numpy (gblas2d's op of ``func``, so either form of it), then the
    products folded per (i, j) with the gblas2d monoid."""
    multiply = gblas2d.binary.register_anonymous(func, index_aware=True, result=dtype.name)
    ar, ac, av = A.to_coo()
    br, bc, bv = B.to_coo()
    ar, ac = ar.astype(np.int64), ac.astype(np.int64)
    starts = np.searchsorted(br, np.arange(B.nrows + 1))
    counts = starts[ac + 1] - starts[ac]
    which = np.repeat(np.arange(len(ac)), counts)
    pos = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + \
        np.repeat(starts[ac], counts)
    i, k, j = ar[which], ac[which], bc[pos].astype(np.int64)
    products = multiply.evaluate(av[which], bv[pos], i, k, k, j)
    keys = i * B.ncols + j
    order = np.argsort(keys, kind="stable")
    keys, products = keys[order], products[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else keys
    values = getattr(gblas2d.monoid, monoid).reduceat(products, first)
    return type(A).from_coo(keys[first] // B.ncols, keys[first] % B.ncols, values,
                            dtype=dtype.name, nrows=A.nrows, ncols=B.ncols)


def _graphblas_random(obj, seed=0, dtype="FP64"):
    """``random`` on python-graphblas: the same values, computed with numpy."""
    op = random_op(seed, dtype, "random")
    if hasattr(obj, "nrows"):
        rows, cols, values = obj.to_coo()
        return type(obj).from_coo(rows, cols, op.evaluate(values, rows, cols, seed),
                                  nrows=obj.nrows, ncols=obj.ncols)
    indices, values = obj.to_coo()
    return type(obj).from_coo(indices, op.evaluate(values, indices, 0 * indices, seed),
                              size=obj.size)


def _graphblas_random_vector(size, seed=0, dtype="FP64"):
    """``random_vector`` on python-graphblas: ``random`` of a full Vector."""
    import graphblas

    random_op(seed, dtype, "random_vector", {"size": size})
    return _graphblas_random(graphblas.Vector.from_scalar(False, size, "BOOL"), seed, dtype)


def _graphblas_iteration(label=None):
    """``iteration`` on python-graphblas: nothing to mark, it has no trace."""
    return contextlib.nullcontext()


_GRAPHBLAS = None


def _graphblas():
    global _GRAPHBLAS
    if _GRAPHBLAS is None:
        import graphblas

        _GRAPHBLAS = SimpleNamespace(
            name="graphblas", Vector=graphblas.Vector, Matrix=graphblas.Matrix,
            Scalar=graphblas.Scalar, dtypes=graphblas.dtypes, binary=graphblas.binary,
            unary=graphblas.unary, monoid=graphblas.monoid, semiring=graphblas.semiring,
            select=graphblas.select, indexunary=graphblas.indexunary, agg=graphblas.agg,
            io=graphblas.io, min_secondi=graphblas.semiring.ss.min_secondi,
            operator=_graphblas_operator, gather=_graphblas_gather,
            scatter=_graphblas_scatter, from_vectors=_graphblas_from_vectors,
            popcount=_graphblas_popcount, mxm_indexed=_graphblas_mxm_indexed,
            random=_graphblas_random, random_vector=_graphblas_random_vector,
            iteration=_graphblas_iteration,
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
