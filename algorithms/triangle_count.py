"""Triangle counting in an undirected graph: the total, and the triangles through each vertex.

A is symmetric; S is its pattern without the diagonal (self loops are ignored), L and U its
strictly lower and upper triangles (``select("tril", -1)``, ``select("triu", 1)``; L = U^T).
``plus.pair`` counts the paths i - k - j of a product, and the structural mask keeps only the
pairs (i, j) that are edges, so each kept path closes a triangle. The six methods of LAGraph's
LAGr_TriangleCount give the same count::

    burkhardt     C<S> = S plus.pair S      ntri = sum(C) / 6   every triangle, 6 orientations
    cohen         C<S> = L plus.pair U      ntri = sum(C) / 2   k smaller than i and j
    sandia_ll     C<L> = L plus.pair L      ntri = sum(C)       i > k > j: once per triangle
    sandia_uu     C<U> = U plus.pair U      ntri = sum(C)       i < k < j
    sandia_lut    C<L> = L plus.pair U^T    ntri = sum(C)       i > k > j (L U^T = L L, by dots)
    sandia_ult    C<U> = U plus.pair L^T    ntri = sum(C)       i < k < j (U L^T = U U, by dots)

Per vertex, ``T<S> = S plus.pair S`` holds the common neighbours of the two ends of every
edge, and a triangle through v is seen from both of its edges at v: t(v) = sum_j T(v, j) / 2.

Presort (LAGraph's rule): the Sandia methods do less work when each edge is held by the end of
lower degree, because a hub's row of L (or U) then holds only its few neighbours of higher
degree. When n > 2000, nvals/n >= 10 and the mean degree exceeds 3 times the median of 2000
sampled degrees, L and U are taken in degree order, ascending for sandia_ll and sandia_lut,
descending for sandia_uu and sandia_ult, ties by vertex id::

    key = d * n + i        (-d * n + i descending): distinct keys in the sorted order
    K = S any.second diag(key)                      K(i, j) = key(j)
    L = K^T > K,  U = K^T < K                       the edges (i, j) with key(j) < key(i), > key(i)

This is L of the sorted matrix P S P^T with the labels put back: the same count and the same
work per vertex, without moving any row. (LAGraph permutes A; on a 2D grid that would put
every hub in the last block row, the imbalance ``gblas2d run --relabel`` exists to undo.)
LAGraph samples the mean too; the exact mean, nvals/n, costs nothing here.

References: LAGraph's LAGr_TriangleCount and LAGr_SampleDegree; P. Burkhardt, "Graphing
trillions of triangles", Inf. Vis. 16(3), 2017; J. Cohen, "Graph twiddling in a MapReduce
world", CiSE 11(4), 2009; M. Wolf, M. Deveci, J. Berry, S. Hammond, S. Rajamanickam, "Fast
linear algebra-based triangle counting with KokkosKernels", HPEC 2017.

Cost: one masked mxm, whose work grows with the paths i - k - j it forms (about sum_k d(k)^2
for burkhardt, fewer with triangular operands, fewer still in degree order on a skewed graph),
one reduction, and the symmetry check (one transpose: an all-to-all of O(nnz/P) words). On
gblas2d at several ranks the product runs as SUMMA stages (O(nnz/R + nnz/C) words per rank),
each inside the rank's block of the mask, so only counts inside the mask are formed and
nothing is folded. The Sandia ``^T`` operand is a transpose on gblas2d; SuiteSparse reads it
in place for dot products. The presort adds one mxv, a 2000-entry
extract, one mxv and one mxm with a diagonal for the keys, and one transpose.
"""

import numpy as np

from gblas2d import exceptions

from ._engine import engine
from .graph import as_graph

__all__ = ["triangle_count", "triangles"]

METHODS = ("burkhardt", "cohen", "sandia_ll", "sandia_uu", "sandia_lut", "sandia_ult")
# the degree order each Sandia method prefers (LAGraph's): 1 ascending, -1 descending
ORDER = {"sandia_ll": 1, "sandia_lut": 1, "sandia_uu": -1, "sandia_ult": -1}
# LAGraph's presort rule: sort when n > SAMPLES, nvals >= MIN_MEAN_DEGREE * n and the mean
# degree exceeds SKEW times the median of SAMPLES sampled degrees
SAMPLES = 2000
MIN_MEAN_DEGREE = 10
SKEW = 3


def triangle_count(A, method="sandia_lut", *, presort=None):
    """The number of triangles of the undirected graph ``A``.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Symmetric adjacency matrix; only its pattern is used and self loops are ignored.
    method : {"sandia_lut", "sandia_ult", "sandia_ll", "sandia_uu", "cohen", "burkhardt"}
        LAGraph's names; every method gives the same count.
    presort : bool or None
        Take L and U in degree order (True), in vertex order (False), or by LAGraph's rule
        (None). Only the Sandia methods take a presort.

    Returns
    -------
    int, the same on every rank.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2, 2, 0], [1, 0, 2, 1, 0, 2], 1, nrows=3, ncols=3)
    >>> triangle_count(A)
    1
    """
    G = as_graph(A, "triangle_count")
    A, ns = G.A, engine(G.A)
    if method not in METHODS:
        raise exceptions.InvalidValue(f"method must be one of {METHODS}, got {method!r}")
    if presort not in (None, True, False):
        raise exceptions.InvalidValue(f"presort must be True, False or None, got {presort!r}")
    if presort and method not in ORDER:
        raise exceptions.InvalidValue(f"presort applies to the sandia methods only, not to "
                                      f"{method!r}")
    S = _symmetric_pattern(ns, A, "triangle_count")
    plus_pair = ns.semiring.plus_pair[ns.dtypes.INT64]
    if method == "burkhardt":
        # C<S> = S plus.pair S
        C = S.mxm(S, plus_pair).new(mask=S.S)
        return _total(ns, C) // 6
    if presort is None:
        presort = method in ORDER and _skewed(ns, S)
    L, U = _lower_upper(ns, S, ORDER[method] if presort else 0)
    if method == "cohen":
        # C<S> = L plus.pair U
        C = L.mxm(U, plus_pair).new(mask=S.S)
        return _total(ns, C) // 2
    if method == "sandia_ll":
        # C<L> = L plus.pair L
        C = L.mxm(L, plus_pair).new(mask=L.S)
    elif method == "sandia_uu":
        # C<U> = U plus.pair U
        C = U.mxm(U, plus_pair).new(mask=U.S)
    elif method == "sandia_lut":
        # C<L> = L plus.pair U^T
        C = L.mxm(U.T, plus_pair).new(mask=L.S)
    else:
        # C<U> = U plus.pair L^T
        C = U.mxm(L.T, plus_pair).new(mask=U.S)
    return _total(ns, C)


def triangles(A):
    """The number of triangles through each vertex of the undirected graph ``A``
    (``networkx.triangles``).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Symmetric adjacency matrix; only its pattern is used and self loops are ignored.

    Returns
    -------
    Vector (INT64) with a count for every vertex; their sum is three times the triangle count.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2, 2, 0], [1, 0, 2, 1, 0, 2], 1, nrows=4, ncols=4)
    >>> triangles(A).to_dense()
    array([1, 1, 1, 0])
    """
    G = as_graph(A, "triangles")
    A, ns = G.A, engine(G.A)
    S = _symmetric_pattern(ns, A, "triangles")
    int64 = ns.dtypes.INT64
    # T<S> = S plus.pair S
    T = S.mxm(S, ns.semiring.plus_pair[int64]).new(mask=S.S)
    # h = sum_j T(v, j) / 2, exact for even sums (floordiv is a numba UDF in python-graphblas)
    h = T.reduce_rowwise(ns.monoid.plus).new().apply(ns.binary.truediv, right=2).new(int64)
    # t = 0, t += h
    t = ns.Vector.from_scalar(0, S.nrows, int64)
    t(accum=ns.binary.plus) << h
    return t


def _symmetric_pattern(ns, A, what):
    """S = pattern(A) without the diagonal, as BOOL; InvalidValue unless S = S^T (``what``
    names the algorithm). Collective on gblas2d objects."""
    S = A.select(ns.select.offdiag).new(ns.dtypes.BOOL)
    # the entries of S whose mirror S(j, i) is there too
    mirrored = S.T.new(mask=S.S).nvals
    if mirrored != S.nvals:
        raise exceptions.InvalidValue(
            f"{what} needs a symmetric Matrix (an undirected graph): {S.nvals - mirrored} of "
            f"its {S.nvals} off-diagonal entries have no mirror entry")
    return S


def _total(ns, C):
    # sum(C), 0 when C is empty
    return int(C.reduce_scalar(ns.monoid.plus).new().value or 0)


def _skewed(ns, S):
    """LAGraph's presort rule: a large, dense enough graph whose mean degree exceeds SKEW times
    the median of SAMPLES degrees sampled with replacement, seeded by n as in LAGraph (whose
    generator differs, so its sample does too)."""
    n = S.nrows
    if n <= SAMPLES or S.nvals < MIN_MEAN_DEGREE * n:
        return False
    # d = S plus.pair 1
    d = S.mxv(ns.Vector.from_scalar(1, n, ns.dtypes.INT64), ns.semiring.plus_pair).new()
    sample = np.random.default_rng(n).integers(0, n, SAMPLES)
    # the median of the sample, the upper one of the middle two as in LAGraph
    median = np.sort(d[sample].new().to_dense(0))[SAMPLES // 2]
    return S.nvals / n > SKEW * median


def _lower_upper(ns, S, order):
    """(L, U): S's edges (i, j) with key(j) < key(i) and with key(j) > key(i), in vertex order
    (``order`` 0: tril and triu) or by degree, ascending (1) or descending (-1), then id."""
    if order == 0:
        return S.select(ns.select.tril, -1).new(), S.select(ns.select.triu, 1).new()
    n = S.nrows
    int64 = ns.dtypes.INT64
    # key = order * d * n + i
    key = ns.Vector.from_scalar(0, n, int64).apply(ns.indexunary.rowindex, 0).new()
    key(accum=ns.binary.plus) << S.mxv(ns.Vector.from_scalar(order * n, n, int64),
                                       ns.semiring.plus_second)
    # K(i, j) = key(j)
    K = S.mxm(key.diag(), ns.semiring.any_second).new()
    # KT(i, j) = key(i)
    KT = K.T.new()
    # L = KT > K, U = KT < K
    L = KT.ewise_mult(K, ns.binary.gt).new().select(ns.select.valueeq, True).new()
    U = KT.ewise_mult(K, ns.binary.lt).new().select(ns.select.valueeq, True).new()
    return L, U
