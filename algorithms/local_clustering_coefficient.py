"""Local clustering coefficient (LCC) of every vertex, with the LDBC Graphalytics definition.

The neighbours N(v) of v are its in- and out-neighbours, d(v) = |N(v)|, and e(v) counts the
directed edges u -> w between two neighbours of v::

    lcc(v) = e(v) / (d(v) (d(v) - 1))           0 when d(v) < 2

An undirected graph, given as a symmetric matrix, holds each edge u - w both ways, so e(v) is
twice the triangles through v and this is the undirected definition 2 t(v) / (d(v) (d(v) - 1))
(``networkx.clustering``). One formula serves both, as in the Graphalytics reference, which
also takes a directed graph's neighbours from both directions. (networkx's directed clustering
is Fagiolo's: it counts directed triangles over d_tot (d_tot - 1) - 2 d_recip, another number.)

With E the pattern of A without the diagonal (self loops are ignored) and S = E + E^T::

    d = S plus.pair 1                      the neighbours of each vertex, in or out
    T<S> = S plus.pair E                   T(v, w) = |{u in N(v) : u -> w}| for w in N(v)
    e = sum_w T(v, w)                      the edges among the neighbours of v
    lcc = 0;  lcc<e> = e ./ (d .* (d - 1))

Where e(v) > 0, v has two distinct neighbours, so the division is by a positive number.

References: LDBC Graphalytics benchmark specification, "Local clustering coefficient" (LCC),
and its reference implementation; D. J. Watts, S. H. Strogatz, "Collective dynamics of
'small-world' networks", Nature 393, 1998; LAGraph's LAGraph_lcc.

Cost: one transpose and one ewise_add for S (an all-to-all of O(nnz/P) words), one dense mxv
(O(n/R + n/C) words per rank), one masked mxm, whose work grows with the paths v - u -> w it
forms (about sum_u d(u) d_out(u)), its fold, one row reduction and O(n/P) element-wise work.
On gblas2d at several ranks the mxm runs as SUMMA stages (O(nnz/R + nnz/C) words per rank),
each inside the rank's block of the mask: no partial count is folded.
"""

from ._engine import engine
from .graph import as_graph

__all__ = ["local_clustering_coefficient"]


def local_clustering_coefficient(A):
    """The LDBC Graphalytics local clustering coefficient of every vertex of ``A``
    (``A[i, j]``: edge i -> j; a symmetric ``A`` is an undirected graph).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; only its pattern is used and self loops are ignored.

    Returns
    -------
    Vector (FP64) with a coefficient in [0, 1] for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 2, 0], [1, 2, 0, 3], 1, nrows=4, ncols=4)
    >>> local_clustering_coefficient(A).to_dense()
    array([0.16666667, 0.5       , 0.5       , 0.        ])
    """
    G = as_graph(A, "local_clustering_coefficient")
    A, ns = G.A, engine(G.A)
    n = A.nrows
    fp64 = ns.dtypes.FP64
    # E = pattern(A) without self loops
    E = A.select(ns.select.offdiag).new(ns.dtypes.BOOL)
    # S = E + E^T
    S = E.ewise_add(E.T.new(), ns.binary.any).new()
    # d = S plus.pair 1
    d = S.mxv(ns.Vector.from_scalar(1.0, n, fp64), ns.semiring.plus_pair).new()
    # T<S> = S plus.pair E
    T = S.mxm(E, ns.semiring.plus_pair[ns.dtypes.INT64]).new(mask=S.S)
    # e = sum_w T(v, w)
    e = T.reduce_rowwise(ns.monoid.plus).new()
    # pairs = d .* (d - 1)
    pairs = d.ewise_mult(d.apply(ns.binary.minus, right=1.0).new(), ns.binary.times).new()
    # lcc = 0, lcc<e> = e ./ pairs
    lcc = ns.Vector.from_scalar(0.0, n, fp64)
    lcc(e.S) << e.ewise_mult(pairs, ns.binary.truediv)
    return lcc
