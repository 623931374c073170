"""Triangles, clustering and transitivity."""

import gblas2d as gb
from gblas2d import algorithms as alg

from .checks import clustering_reason, refuse

__all__ = ["average_clustering", "clustering", "transitivity", "triangles"]


def triangles(G, nodes=None):
    """Collective. nx.triangles from ``algorithms.triangles``; ``nodes`` as NetworkX reads it
    (one node: its count; an iterable: a dict of those in G, in its order)."""
    return G.at_nodes(G.to_dict(alg.triangles(G.matrix)), nodes)


def clustering(G, nodes=None, weight=None):
    """Collective. nx.clustering of an undirected graph without weights, from
    ``algorithms.local_clustering_coefficient`` (Graphalytics' LCC, which is NetworkX's on a
    symmetric matrix); 0, an int, where no triangle closes, as NetworkX."""
    refuse(clustering_reason(G, weight))
    lcc = G.to_dict(alg.local_clustering_coefficient(G.matrix))
    return G.at_nodes({v: c or 0 for v, c in lcc.items()}, nodes)


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """Collective. nx.average_clustering: NetworkX's sum over ``clustering``, in its order."""
    c = clustering(G, nodes, weight).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    """Collective. nx.transitivity, self loops ignored::

        closed = sum(C), C<E> = E plus.pair E     the paths v -> w -> u closed by v -> u
        triads = sum d .* (d - 1), d = E plus.pair 1
        transitivity = closed / triads             (0 when closed is 0)

    E is the pattern of A without the diagonal. For an undirected graph closed is 6 times
    ``algorithms.triangle_count``, which counts each triangle once and is used instead.
    """
    if len(G) == 0:
        return 0
    A, int64 = G.matrix, gb.dtypes.INT64
    plus_pair = gb.semiring.plus_pair[int64]
    # E = pattern(A) without self loops
    E = A.select(gb.select.offdiag).new(gb.dtypes.BOOL)
    if G.is_directed():
        # closed = sum(C), C<E> = E plus.pair E
        closed = E.mxm(E, plus_pair).new(mask=E.S).reduce_scalar().new().value or 0
    else:
        closed = 6 * alg.triangle_count(A)
    # d = E plus.pair 1
    d = E.mxv(gb.Vector.from_scalar(1, len(G), int64), plus_pair).new()
    # triads = sum d .* (d - 1)
    triads = d.ewise_mult(d.apply(gb.binary.minus, right=1).new(), gb.binary.times).new() \
        .reduce().value
    return 0 if closed == 0 else int(closed) / int(triads)

