"""Core numbers: the largest k such that a vertex belongs to the k-core, the largest subgraph in
which every vertex has degree at least k.

Peeling finds them level by level. At level k every vertex of degree at most k left is peeled
(its core number is k), which lowers its neighbours' degrees, so peeling repeats until every
vertex left has degree above k; the next level is the smallest degree left. With S the
multiplicity of the edges between two vertices (self loops ignored) and d their degrees::

    d = S plus 1                            the degree of every vertex, 0 for none
    k = 0
    repeat until d is empty:
        k = max(k, min(d))
        repeat until p is empty:
            p = d<d <= k>                   the vertices peeled at level k
            core<p> = k;  d<!p>
            d -= S plus.first p             one less per edge to a peeled vertex

For an undirected graph (a Graph of kind "undirected", A symmetric) S is the pattern of A, an
edge stored both ways counting once. Otherwise a vertex's degree is its in- plus out-degree,
NetworkX's degree of a DiGraph: S = pattern(A) + pattern(A)^T, where an edge both ways counts
twice.

References: V. Batagelj, M. Zaversnik, "An O(m) algorithm for cores decomposition of
networks", 2003; LAGraph's LAGraph_KCore_All (experimental), which peels the same way.

Cost per peeling step: one masked mxv (O(edges of the peeled vertices) work, O(n/R + n/C)
words per rank for a dense p) and O(n/P) element-wise work with a select; one min-reduction
per level. The number of steps is the number of distinct peeling waves, at most n.
"""

from ._engine import engine
from .graph import as_graph

__all__ = ["core_number"]


def core_number(A):
    """Core number of every vertex.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; only its off-diagonal pattern is used. A bare Matrix is a
        directed graph (degree = in + out); give an undirected graph as
        ``Graph(A, "undirected")`` with each edge stored both ways.

    Returns
    -------
    Vector (INT64) with a core number for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> from gblas2d.algorithms import Graph
    >>> rows, cols = [0, 1, 1, 2, 2, 0, 2, 3], [1, 0, 2, 1, 0, 2, 3, 2]
    >>> A = gb.Matrix.from_coo(rows, cols, 1, nrows=5, ncols=5)
    >>> core_number(Graph(A, "undirected")).to_dense()  # a triangle, a pendant, an isolate
    array([2, 2, 2, 1, 0])
    """
    G = as_graph(A, "core_number")
    ns = engine(G.A)
    int64 = ns.dtypes.INT64
    S, d = peeling_start(G, ns)
    core = ns.Vector(int64, G.A.nrows)
    k = 0
    while d.nvals:
        with ns.iteration():
            # k = max(k, min(d))
            k = max(k, int(d.reduce(ns.monoid.min).value))
            # p = d<d <= k>
            p = d.select(ns.select.valuele, k).new()
            while p.nvals:
                # core<p> = k, d<!p>
                core(p.S) << k
                d = d.dup(mask=~p.S)
                # d -= S plus.first p
                d(accum=ns.binary.minus) << S.mxv(p, ns.semiring.plus_first[int64]).new(mask=d.S)
                p = d.select(ns.select.valuele, k).new()
    return core


def peeling_start(G, ns):
    """What a peeling by degree starts from (``core_number``, ``onion_layers``): S, the
    pattern of G without self loops as INT64 ones (with its transpose added for a directed
    G: in- and out-edges), and d, every vertex's degree in S (0 for one of no edge)."""
    int64 = ns.dtypes.INT64
    # P = pattern(A) without self loops, 1 at every entry
    P = G.A.select(ns.select.offdiag).new().apply(ns.unary.one).new(int64)
    # S = P (undirected) or P + P^T (in- and out-edges)
    S = P if G.kind == "undirected" else P.ewise_add(P.T.new(), ns.binary.plus).new()
    # d = S plus 1, 0 for a vertex of no edge
    d = ns.Vector.from_scalar(0, G.A.nrows, int64)
    d(accum=ns.binary.plus) << S.reduce_rowwise(ns.monoid.plus)
    return S, d
