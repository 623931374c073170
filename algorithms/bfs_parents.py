"""Breadth-first search parents: a BFS tree, each reached vertex pointing at its parent.

The frontier carries vertices, and the product's multiply returns the index of the frontier
vertex an edge comes from (``secondi``); the ``min`` monoid picks the smallest candidate parent,
so the tree is the same whatever the engine, the rank count or the direction::

    q_{k+1}<!p> = q_k min.secondi A     a parent in the frontier for each newly reached vertex
    p<q_{k+1}>  = q_{k+1}

until the frontier is empty; the source is its own parent. The engine chooses push or pull at
every level (Beamer's rule) and ``gblas2d.trace()`` records it. Several sources run as a batch
with an n x k frontier matrix (``F<!P> = A^T min.secondi F``).

On python-graphblas the positional semiring is SuiteSparse's ``semiring.ss.min_secondi``.

Reference: S. Beamer, K. Asanovic, D. Patterson, "Direction-optimizing breadth-first search",
SC 2012; the Graph 500 benchmark specification (parent-tree output).

Cost per level: one masked product (as in bfs_levels) and one local masked assign.
"""

from ._engine import check_sources, engine
from .graph import as_graph

__all__ = ["bfs_parents"]


def bfs_parents(A, source):
    """Parents of a breadth-first search tree along the out-edges of ``A``.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph (whose cached transpose it uses)
        Square adjacency matrix (``A[i, j]``: edge i -> j); only its pattern is used.
    source : int or sequence of int
        One root, or several to search from at once.

    Returns
    -------
    Vector (INT64) of parents, ``p[source] == source``, unreached vertices missing; among
    several candidate parents the smallest vertex id. For several sources a Matrix of shape
    ``(len(source), n)`` whose row t is the tree rooted at ``source[t]``.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 0, 1, 2], [1, 2, 3, 3], nrows=4, ncols=4)
    >>> bfs_parents(A, 0).to_coo()[1]
    array([0, 0, 0, 1])
    """
    G = as_graph(A, "bfs_parents")
    A, ns = G.A, engine(G.A)
    sources, batch = check_sources(A, source)
    if batch:
        return _parents_batch(ns, G, sources)
    return _parents_one(ns, A, int(sources[0]))


def _parents_one(ns, A, s):
    n = A.nrows
    # p = q = s * e_s
    p = ns.Vector(ns.dtypes.INT64, n)
    p[s] = s
    q = p.dup()
    for _ in range(1, n):
        with ns.iteration():
            # q<!p> = q min.secondi A
            q(~p.S, replace=True) << q.vxm(A, ns.min_secondi)
            if q.nvals == 0:
                break
            # p<q> = q
            p(q.S) << q
    return p


def _parents_batch(ns, G, sources):
    n, k = G.nvertices, len(sources)
    # P = F with F(s_t, t) = s_t
    P = ns.Matrix.from_coo(sources, range(k), sources, dtype=ns.dtypes.INT64, nrows=n, ncols=k)
    F = P.dup()
    # A^T, formed once (kept on the Graph): the batch product reads A by columns
    AT = G.AT
    for _ in range(1, n):
        with ns.iteration():
            # F<!P> = A^T min.secondi F
            F(~P.S, replace=True) << AT.mxm(F, ns.min_secondi)
            if F.nvals == 0:
                break
            # P<F> = F
            P(F.S) << F
    return P.T.new()
