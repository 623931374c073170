"""Square clustering: the share of the possible squares (4-cycles) through each vertex that close.

For an undirected graph (a symmetric A; self loops ignored), with E the pattern of A without
the diagonal, d the degrees and P the common neighbours of two vertices, the squares u - v - w - x
through v and the pairs that could close one are counted by products (Lind, Gonzalez and
Herrmann's coefficient, in the form networkx 3.6 computes)::

    d = E plus.pair 1                         degrees
    P = offdiag(E plus.pair E)                P(v, x) = |N(v) & N(x)|, x != v
    tri = (P .* E) plus.reduce rows           2 x the triangles through v
    sq = (P .* (P - 1)) plus.reduce rows / 2  the squares through v (each counted once)
    deg = (d - 1) .* (E plus.times d)         sum over the neighbours u of v of d(u) (d(v) - 1)
    potential = deg - d .* (d - 1) - tri - sq
    c = sq ./ potential                       0 where potential <= 0

Every quantity is an integer, so the result is exactly networkx's division.

References: P. G. Lind, M. C. Gonzalez, H. J. Herrmann, "Cycles and clustering in bipartite
networks", Phys. Rev. E 72, 2005; P. Zhang et al., "Clustering coefficient and community
structure of bipartite networks", Physica A 387, 2008; networkx's ``square_clustering`` (after
arXiv:2007.11111, "sigma_4" and "sigma_12").

Cost: one unmasked ``mxm`` for P, whose size is the number of vertex pairs two hops apart
(about sum_u d(u)^2 work and entries: memory grows with the square of the hub degrees), one
``mxv``, element-wise work on P and row reductions.
"""

from ._engine import engine
from .graph import as_graph

__all__ = ["square_clustering"]


def square_clustering(A):
    """The square clustering coefficient of every vertex of the undirected graph ``A``.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square symmetric adjacency matrix (each edge both ways); only its pattern is used and
        self loops are ignored.

    Returns
    -------
    Vector (FP64) with a coefficient in [0, 1] for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 2, 3, 1, 2, 3, 0], [1, 2, 3, 0, 0, 1, 2, 3],
    ...                        nrows=4, ncols=4)
    >>> square_clustering(A).to_dense()
    array([1., 1., 1., 1.])
    """
    G = as_graph(A, "square_clustering")
    A, ns = G.A, engine(G.A)
    n, int64 = A.nrows, ns.dtypes.INT64
    plus_pair = ns.semiring.plus_pair[int64]
    # E = pattern(A) without self loops
    E = A.select(ns.select.offdiag).new(ns.dtypes.BOOL)
    # d = E plus.pair 1
    d = ns.Vector.from_scalar(0, n, int64)
    d(accum=ns.binary.plus) << E.mxv(ns.Vector.from_scalar(1, n, int64), plus_pair)
    # P = offdiag(E plus.pair E)
    P = E.mxm(E, plus_pair).new().select(ns.select.offdiag).new()
    # tri = (P .* E) plus.reduce rows
    tri = _dense(ns, P.ewise_mult(E, ns.binary.first).new().reduce_rowwise(ns.monoid.plus), n)
    # sq = (P .* (P - 1)) plus.reduce rows / 2
    pairs = P.ewise_mult(P.apply(ns.binary.minus, right=1).new(), ns.binary.times).new()
    sq = _dense(ns, pairs.reduce_rowwise(ns.monoid.plus), n)
    sq << sq.apply(ns.binary.floordiv, right=2)
    # deg = (d - 1) .* (E plus.times d)
    dm1 = d.apply(ns.binary.minus, right=1).new()
    deg = _dense(ns, E.mxv(d, ns.semiring.plus_second[int64]), n)
    deg << deg.ewise_mult(dm1, ns.binary.times)
    # potential = deg - d .* (d - 1) - tri - sq
    potential = deg.ewise_mult(d.ewise_mult(dm1, ns.binary.times).new(), ns.binary.minus).new()
    potential << potential.ewise_mult(tri, ns.binary.minus)
    potential << potential.ewise_mult(sq, ns.binary.minus)
    # c = sq ./ potential where potential > 0, else 0
    positive = potential.select(ns.select.valuegt, 0).new()
    c = ns.Vector.from_scalar(0.0, n, ns.dtypes.FP64)
    c(positive.S) << sq.ewise_mult(positive, ns.binary.truediv)
    return c


def _dense(ns, expr, n):
    """The INT64 Vector of the Vector expression ``expr``, 0 where it has no entry."""
    s = ns.Vector.from_scalar(0, n, ns.dtypes.INT64)
    s(accum=ns.binary.plus) << expr
    return s
