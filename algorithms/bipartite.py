"""Two-colouring: the sides of a bipartite graph by breadth-first search from every component.

Edges are read in both directions (S is the pattern of A + A^T). A graph is bipartite when its
vertices split in two sides with no edge inside a side; in each connected component the sides
are then the even and the odd distances from any one vertex. One search from the smallest
vertex of every component at once gives every distance, and one product checks the edges::

    f = connected_components(S)              the smallest vertex of each component
    q = 1<f == i>;  side<q> = 0              the roots, on side 0
    repeat until q is empty (level = 1, 2, ...):
        q<!side> = q any.pair S              the next level of every component's search
        side<q> = level mod 2
    s = 1 - 2 side                           +1 and -1
    same - across = s' S s                   (s_i s_j = +1 for an edge within a side)
    same = (nvals(S) + s' S s) / 2           bipartite when 0

A self loop is an edge within a side, so a graph with one is not bipartite (NetworkX's rule).

Reference: LAGraph's LAGr_BreadthFirstSearch (the level-synchronous search); the two-colouring
by parity of BFS levels is the textbook test (Kleinberg and Tardos, "Algorithm Design", 3.4).

Cost: the connected components (FastSV), then per level one masked ``vxm`` (O(edges leaving
the frontier), O(n/R + n/C) words per rank for a dense frontier) and one masked assign; one
``mxv`` and one reduction for the check.
"""

from ._engine import engine
from .connected_components import connected_components
from .graph import as_graph

__all__ = ["bipartite_sides"]


def bipartite_sides(A):
    """The side (0 or 1) of every vertex of ``A`` in a two-colouring, or None when the graph
    is not bipartite. Edges are undirected (A + A^T); the smallest vertex of each component
    is on side 0, so an isolated vertex is too.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; only its pattern is used. A self loop makes it not bipartite.

    Returns
    -------
    Vector (INT64) with 0 or 1 for every vertex, or None.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 2], [1, 2, 3], nrows=5, ncols=5)
    >>> bipartite_sides(A).to_dense()
    array([0, 1, 0, 1, 0])
    >>> bipartite_sides(gb.Matrix.from_coo([0, 1, 2], [1, 2, 0], nrows=3, ncols=3)) is None
    True
    """
    G = as_graph(A, "bipartite_sides")
    A, ns = G.A, engine(G.A)
    n, int64 = A.nrows, ns.dtypes.INT64
    # S = pattern(A + A^T)
    S = A.ewise_add(G.AT, ns.binary.any).new(ns.dtypes.BOOL)
    # f = the smallest vertex of each component
    f = connected_components(G)
    # q = 1<f == i>
    roots = f.ewise_mult(f.apply(ns.indexunary.rowindex).new(), ns.binary.eq).new()
    q = roots.select(ns.select.valueeq, True).new()
    # side<q> = 0
    side = ns.Vector(int64, n)
    side(q.S) << 0
    for level in range(1, n):
        # q<!side> = q any.pair S
        q(~side.S, replace=True) << q.vxm(S, ns.semiring.any_pair)
        if q.nvals == 0:
            break
        # side<q> = level mod 2
        side(q.S) << level % 2
    # s = 1 - 2 side
    s = side.apply(ns.binary.times, right=-2).new()
    s << s.apply(ns.binary.plus, right=1)
    # s' S s
    Ss = S.mxv(s, ns.semiring.plus_second[int64]).new()
    sSs = Ss.ewise_mult(s, ns.binary.times).new().reduce(ns.monoid.plus).new().value or 0
    # same = (nvals(S) + s' S s) / 2
    same = (S.nvals + int(sSs)) // 2
    return side if same == 0 else None
