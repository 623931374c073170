"""Approximate maximum-weight matching: locally dominant edges, matched in rounds.

An edge is locally dominant when no edge next to it, at either end, is heavier. Matching every
locally dominant edge whose ends are both free, and repeating on what is left, gives a matching
of at least half the optimum weight: each edge of an optimum matching is blocked by a matched
edge at least as heavy, and a matched edge blocks at most two (Preis; Manne and Bisseling).
W is the symmetric graph (heavier direction kept, self loops and non-positive weights dropped);
``f`` holds the free vertices, each valued by its own id::

    repeat until no free vertex has a free neighbour:
        m<f> = W max.first f                   the heaviest edge from each free vertex to a free one
        C = select(W any.eq diag(m))           edges (u, v) that are v's heaviest
        D = C and C^T                          ... and u's: dominant, with both ends free
        p = D min.second f                     each vertex points along its dominant edge to the
                                               smallest id (the deterministic tie-break)
        matched = p(p) == (0, 1, ..., n-1)     mutual pointers
        mate<matched> = p;  f<!matched> = f

The tie-break keeps every round productive: among the heaviest remaining edges, the smallest
vertex incident to one of them and its smallest such neighbour point at each other. Results are
the same at every rank count and on python-graphblas.

References: R. Preis, "Linear time 1/2-approximation algorithm for maximum weighted matching in
general graphs", STACS 1999; F. Manne, R. H. Bisseling, "A parallel approximation algorithm for
the weighted maximum matching problem", PPAM 2007; HPCGraph's matching (../shared/papers/ 000_).

Cost per round: one dense mxv and one product with a diagonal (O(nnz(W)/P) work,
O(n/R + n/C) words per rank), one transpose (an all-to-all of the candidate edges), one sparse
mxv over the dominant edges, one gather.
"""

from ._engine import engine
from .graph import as_graph

__all__ = ["max_weight_matching"]


def max_weight_matching(A):
    """A matching of at least half the maximum weight, by locally dominant edges.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph (whose cached transpose it uses)
        Square, real weights; directions are ignored (``A[u, v]`` and ``A[v, u]`` are one edge
        weighing the larger). Self loops and edges of weight <= 0 are never matched.

    Returns
    -------
    Vector (INT64) ``mate``: ``mate[u] = v`` and ``mate[v] = u`` for every matched edge;
    unmatched vertices are missing.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 2], [1, 2, 3], [1.0, 5.0, 1.0], nrows=4, ncols=4)
    >>> max_weight_matching(A).to_coo()
    (array([1, 2], dtype=uint64), array([2, 1]))
    """
    G = as_graph(A, "max_weight_matching")
    A, ns = G.A, engine(G.A)
    n = A.nrows
    dtype = ns.dtypes.INT64 if A.dtype == ns.dtypes.BOOL else A.dtype
    # W = max(A, A^T) without self loops and non-positive weights
    W = A.ewise_add(G.AT, ns.binary.max).new(dtype)
    W = W.select(ns.select.offdiag).new().select(ns.select.valuegt, 0).new()
    # f = (0, 1, ..., n-1): every vertex free, valued by its id
    ids = ns.Vector.from_scalar(0, n, ns.dtypes.INT64).apply(ns.indexunary.rowindex, 0).new()
    f = ids.dup()
    mate = ns.Vector(ns.dtypes.INT64, n)
    while True:
        # m<f> = W max.first f
        m = ns.Vector(dtype, n)
        m(f.S) << W.mxv(f, ns.semiring.max_first)
        if not m.nvals:
            return mate
        # C = select(W any.eq diag(m)): the edges that are their column end's heaviest
        C = W.mxm(m.diag(), ns.semiring.any_eq).new().select(ns.select.valueeq, True).new()
        # D = C and C^T
        D = C.ewise_mult(C.T.new(), ns.binary.land).new()
        # p = D min.second f
        p = D.mxv(f, ns.semiring.min_second).new()
        # matched = p(p) == ids
        back = ns.gather(p, p)
        matched = back.ewise_mult(ids, ns.binary.eq).new().select(ns.select.valueeq, True).new()
        # mate<matched> = p;  f<!matched> = f
        mate(matched.S) << p
        f(~matched.S, replace=True) << f
