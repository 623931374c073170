"""Breadth-first search levels: the number of hops from a source to every reachable vertex.

With the frontier q_0 = e_s and the levels v found so far, each level is two operations::

    q_{k+1}<!v> = q_k any.pair A       the out-neighbours of the frontier not yet visited
    v<q_{k+1}>  = k + 1

until the frontier is empty. The product is masked by the complement of the visited set, so the
engine may push (each frontier vertex scatters along its out-edges) or pull (each unvisited vertex
looks for an in-neighbour in the frontier); gblas2d chooses by Beamer's rule at every level and
``gblas2d.trace()`` records the choice, the frontier size and the bytes moved per grid group.

Several sources run at once as a batch: the frontier becomes an n x k matrix F and each level is
``F<!V> = A^T any.pair F``, one tall-and-skinny product instead of k vector products.

Reference: S. Beamer, K. Asanovic, D. Patterson, "Direction-optimizing breadth-first search",
SC 2012; LAGraph's LAGr_BreadthFirstSearch.

Cost per level: one masked product, O(edges leaving the frontier) pushing or O(edges entering the
unvisited vertices) pulling, and O(n/R + n/C) words per rank for a dense frontier; one local
masked assign.
"""

from ._engine import check_sources, engine
from .graph import as_graph

__all__ = ["bfs_levels"]


def bfs_levels(A, source):
    """Levels of a breadth-first search along the out-edges of ``A`` (``A[i, j]``: edge i -> j).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph (whose cached transpose it uses)
        Square adjacency matrix; only its pattern is used.
    source : int or sequence of int
        One source, or several to search from at once.

    Returns
    -------
    Vector (INT64) of levels, the source at 0 and unreached vertices missing; for several
    sources a Matrix of shape ``(len(source), n)`` whose row t holds the levels from
    ``source[t]``.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1], [1, 2], nrows=4, ncols=4)
    >>> bfs_levels(A, 0).to_coo()[1]
    array([0, 1, 2])
    """
    G = as_graph(A, "bfs_levels")
    A, ns = G.A, engine(G.A)
    sources, batch = check_sources(A, source)
    if batch:
        return _levels_batch(ns, G, sources)
    return _levels_one(ns, A, int(sources[0]))


def _levels_one(ns, A, s):
    n = A.nrows
    # v = e_s * 0, q = e_s
    v = ns.Vector(ns.dtypes.INT64, n)
    v[s] = 0
    q = ns.Vector(ns.dtypes.BOOL, n)
    q[s] = True
    for level in range(1, n):
        with ns.iteration():
            # q<!v> = q any.pair A
            q(~v.S, replace=True) << q.vxm(A, ns.semiring.any_pair)
            if q.nvals == 0:
                break
            # v<q> = level
            v(q.S) << level
    return v


def _levels_batch(ns, G, sources):
    n, k = G.nvertices, len(sources)
    # F(s_t, t) = true, V<F> = 0
    F = ns.Matrix.from_coo(sources, range(k), True, dtype=ns.dtypes.BOOL, nrows=n, ncols=k)
    V = ns.Matrix(ns.dtypes.INT64, n, k)
    V(F.S) << 0
    # A^T, formed once (kept on the Graph): the batch product reads A by columns
    AT = G.AT
    for level in range(1, n):
        with ns.iteration():
            # F<!V> = A^T any.pair F
            F(~V.S, replace=True) << AT.mxm(F, ns.semiring.any_pair)
            if F.nvals == 0:
                break
            # V<F> = level
            V(F.S) << level
    return V.T.new()
