"""Betweenness centrality by Brandes' algorithm, many sources at once.

The betweenness of v is the sum over sources s and targets t (s != v != t) of
sigma_st(v) / sigma_st, the fraction of the shortest s-t paths that pass through v. Brandes
sums it source by source as the dependency delta_s(v) = sum_{w: v -> w on a shortest path}
sigma_sv / sigma_sw * (1 + delta_s(w)). Here a batch of k sources runs at once, each source a
column t of n x k matrices: F_d holds sigma (the number of shortest paths) of the vertices d
hops from s_t, P every vertex reached so far, and B = 1 + delta::

    F_0 = P = [e_s1 ... e_sk]
    forward, until F_d is empty:
        F_d<!P> = A^T plus.second F_{d-1}      paths one hop longer, to vertices not yet seen
        P<F_d> = F_d                           P += F_d (they are disjoint)
    B<P> = 1
    backward, for d = D, D-1, ..., 2:
        W = B ./ F_d                           (1 + delta) / sigma on level d
        W<F_{d-1}> = A plus.second W           summed back along the edges to level d-1
        T = W .* F_{d-1}                       what level d adds to delta on level d-1
        B<T> = B + T
    c += sum_t (B - 1)                          the batch's dependencies, a row reduction

Edge betweenness (``edge_betweenness_centrality``) sums, over the same walk back, the share of
each edge v -> w with w on level d: sigma_sv / sigma_sw * (1 + delta_s(w)), for every source at
once and down to level 1 (the edges leaving the sources count)::

        C<A> += F_{d-1} plus.times W^T          C(v, w) += sum_t F_{d-1}(v, t) W(w, t)

P and B grow through the structure of the new entries rather than with ``accum=plus`` (the
same result): in gblas2d an accumulating write merges all of its target, at every level.

Sources run in batches of ``batch_size`` columns. The result is the sum of the dependencies of
the given sources (all vertices by default), counting each ordered pair (s, t) once;
``directed=False`` halves it, as networkx does for an undirected graph, where a symmetric A
finds every path from both ends.

References: U. Brandes, "A faster algorithm for betweenness centrality", J. Math. Sociology
25(2), 2001; A. Buluc, J. R. Gilbert, "The Combinatorial BLAS", IJHPCA 2011 (the batched
formulation); LAGraph's LAGr_Betweenness.

Cost per level and batch: forward, one masked tall-skinny product (O(edges leaving the
frontier columns), O(nnz(F_d)/C) words per rank) and one masked assign; backward, one masked
product (as large) and three element-wise operations. Memory: the levels F_d, O(nnz(P)) in
all, for a batch of k sources at most n * k entries. Edge betweenness adds one masked product
per level (n x k by k x n, kept to the edges of A) and the n x n result, at most nvals(A).
"""


import numpy as np

from ._engine import check_count, check_sources, engine
from .graph import as_graph

__all__ = ["betweenness_centrality", "edge_betweenness_centrality"]


def betweenness_centrality(A, sources=None, *, batch_size=64, directed=True):
    """Betweenness of every vertex of ``A`` (``A[i, j]``: edge i -> j), unweighted, not
    normalized, over the shortest paths from ``sources``.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph (whose cached transpose it uses)
        Square adjacency matrix; only its pattern is used (self loops change nothing).
    sources : None, int or sequence of int
        The sources whose dependencies are summed; None (every vertex) gives the exact
        betweenness. A repeated source counts as often as it is given.
    batch_size : int
        How many sources search at once (the columns of the frontier matrices).
    directed : bool
        False halves the result: networkx's convention for an undirected graph (a symmetric A).

    Returns
    -------
    Vector (FP64) with a value for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], nrows=3, ncols=3)
    >>> betweenness_centrality(A, directed=False).to_dense()
    array([0., 1., 0.])
    """
    G, ns, sources, batch_size = _checked(A, sources, batch_size, "betweenness_centrality")
    A, n = G.A, G.A.nrows
    # c = 0
    c = ns.Vector.from_scalar(0.0, n, ns.dtypes.FP64)
    # A^T, formed once (kept on the Graph): the forward product reads A by columns
    AT = G.AT
    for first in range(0, len(sources), int(batch_size)):
        _add_batch(ns, A, AT, sources[first:first + int(batch_size)], c)
    if not directed:
        # c = c / 2
        c << c.apply(ns.binary.truediv, right=2.0)
    return c


def edge_betweenness_centrality(A, sources=None, *, batch_size=64, directed=True):
    """Edge betweenness of every edge of ``A`` (``A[i, j]``: edge i -> j), unweighted, not
    normalized, over the shortest paths from ``sources``: for each source s and target t, the
    fraction of the shortest s-t paths that use the edge, summed.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters are those of ``betweenness_centrality``; ``directed=False`` (a symmetric A)
    gives each edge the mean of its two directions, C(i, j) = C(j, i): networkx's value for
    the Graph, where a path counts half from each end.

    Returns
    -------
    Matrix (FP64) with an entry at every edge of A a shortest path uses (none on self loops).

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], nrows=3, ncols=3)
    >>> edge_betweenness_centrality(A, directed=False).to_coo()[2]
    array([2., 2., 2., 2.])
    """
    G, ns, sources, batch_size = _checked(A, sources, batch_size,
                                          "edge_betweenness_centrality")
    A, n = G.A, G.A.nrows
    # C = 0 (n x n); c = 0, the vertices' betweenness the same walk gives
    C = ns.Matrix(ns.dtypes.FP64, n, n)
    c = ns.Vector.from_scalar(0.0, n, ns.dtypes.FP64)
    for first in range(0, len(sources), int(batch_size)):
        _add_batch(ns, A, G.AT, sources[first:first + int(batch_size)], c, C)
    if not directed:
        # C = (C + C^T) / 2
        C = C.ewise_add(C.T.new(), ns.binary.plus).new()
        C << C.apply(ns.binary.truediv, right=2.0)
    return C


def _checked(A, sources, batch_size, name):
    """The graph, its engine namespace, the sources (every vertex when None) and the batch
    size, checked."""
    G = as_graph(A, name)
    if sources is None:
        sources = np.arange(G.A.nrows, dtype=np.int64)
    else:
        sources, _ = check_sources(G.A, sources)
    return G, engine(G.A), sources, check_count(batch_size, "batch_size", 1,
                                                "a positive integer")


def _add_batch(ns, A, AT, batch, c, C=None):
    """c += the dependencies of the sources in ``batch``, and C += the edges' shares when C
    is given (both updated in place)."""
    n, k = A.nrows, len(batch)
    # F_0 = P = [e_s1 ... e_sk], sigma_s(s) = 1
    F = ns.Matrix.from_coo(batch, range(k), 1.0, dtype=ns.dtypes.FP64, nrows=n, ncols=k)
    P = F.dup()
    levels = [F]
    while True:
        # F_d<!P> = A^T plus.second F_{d-1}
        F = AT.mxm(F, ns.semiring.plus_second).new(ns.dtypes.FP64, mask=~P.S)
        if F.nvals == 0:
            break
        levels.append(F)
        # P<F_d> = F_d, that is P += F_d
        P(F.S) << F
    # B<P> = 1 (B = 1 + delta); D, the dependencies themselves: B - 1 at the end would lose
    # the low bits of a small delta to the 1
    B = P.apply(ns.unary.one).new()
    D = ns.Matrix(ns.dtypes.FP64, n, k)
    # the edges leaving the sources (level 1) count; the sources' own dependency does not
    for d in range(len(levels) - 1, 0 if C is not None else 1, -1):
        # W = B ./ F_d
        W = B.ewise_mult(levels[d], ns.binary.truediv).new()
        if C is not None:
            # C<A> += F_{d-1} plus.times W^T
            C(A.S, accum=ns.binary.plus) << levels[d - 1].mxm(W.T, ns.semiring.plus_times)
            if d == 1:
                break
        # W<F_{d-1}> = A plus.second W
        W = A.mxm(W, ns.semiring.plus_second).new(ns.dtypes.FP64, mask=levels[d - 1].S)
        # T = W .* F_{d-1}
        T = W.ewise_mult(levels[d - 1], ns.binary.times).new()
        # B<T> = B + T; D<T> = T (a vertex sits at one level a source: T is its delta)
        B(T.S) << B.ewise_mult(T, ns.binary.plus)
        D(T.S) << T
    # c += sum_t D(:, t)
    c(accum=ns.binary.plus) << D.reduce_rowwise(ns.monoid.plus)
