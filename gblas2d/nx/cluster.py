"""Triangles, clustering, transitivity and generalized degree."""

from collections import Counter

import networkx as nx

import gblas2d as gb
from gblas2d import algorithms as alg

from .checks import clustering_reason, refuse, square_clustering_reason

__all__ = ["average_clustering", "clustering", "generalized_degree", "square_clustering",
           "transitivity", "triangles"]


def triangles(G, nodes=None):
    """Collective. nx.triangles from ``algorithms.triangles``; ``nodes`` as NetworkX reads it
    (one node: its count; an iterable: a dict of those in G, in its order)."""
    return G.at_nodes(G.to_dict(alg.triangles(G.matrix)), nodes)


def generalized_degree(G, nodes=None):
    """Collective. nx.generalized_degree of an undirected graph: for each node, how many of
    its edges lie on k triangles, for each k (a Counter), self loops left out::

        B = offdiag(A);  T<B> = B plus.pair B      T(v, w): the triangles on the edge v-w

    an edge on no triangle has no entry in T (degree - nvals(T(v, :)) such edges).
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    int64 = gb.dtypes.INT64
    # B = offdiag(A), every value 1
    B = G.matrix.select(gb.select.offdiag).new().apply(gb.unary.one).new(int64)
    # T<B> = B plus.pair B
    T = B.mxm(B, gb.semiring.plus_pair[int64]).new(mask=B.S)
    # degree = B plus.reduce rowwise
    degree = G.to_dict(B.reduce_rowwise(gb.monoid.plus))
    rows, _, counts = T.to_coo()
    keys = G.nodes
    generalized = {v: Counter() for v in keys}
    for i, k in zip(rows.tolist(), counts.tolist(), strict=True):
        generalized[keys[i]][k] += 1
    for v, d in degree.items():
        zeros = d - sum(generalized[v].values())
        if zeros:
            generalized[v][0] = zeros
    return G.at_nodes(generalized, nodes)


def clustering(G, nodes=None, weight=None):
    """Collective. nx.clustering without weights: of an undirected graph from
    ``algorithms.local_clustering_coefficient`` (Graphalytics' LCC, which is NetworkX's on a
    symmetric matrix), of a DiGraph Fagiolo's (``_directed_clustering``); 0, an int, where no
    triangle closes, as NetworkX."""
    refuse(clustering_reason(G, weight))
    if G.is_directed():
        return G.at_nodes(_directed_clustering(G), nodes)
    lcc = G.to_dict(alg.local_clustering_coefficient(G.matrix))
    return G.at_nodes({v: c or 0 for v, c in lcc.items()}, nodes)


def _directed_clustering(G):
    """Collective. Fagiolo's clustering of every node of a DiGraph, NetworkX's integers and
    division, self loops ignored::

        E = pattern(A) without self loops;  S = E + E^T       1 or 2 edges between two nodes
        t = sum_j S(i, j) (S plus.times S)(i, j)              the directed triangles: diag(S^3)
        dt = sum_j S(i, j);  db = (E .* E^T) plus.pair 1      total and reciprocal degrees
        c = t / ((dt (dt - 1) - 2 db) 2)                      0 where t is 0
    """
    int64 = gb.dtypes.INT64
    # E = pattern(A) without self loops
    E = G.matrix.select(gb.select.offdiag).new(int64).apply(gb.unary.one).new()
    ET = E.T.new()
    # S = E + E^T
    S = E.ewise_add(ET, gb.binary.plus).new()
    # t = sum_j S(i, j) (S plus.times S)(i, j)
    SS = S.mxm(S, gb.semiring.plus_times[int64]).new(mask=S.S)
    t = G.to_dict(SS.ewise_mult(S, gb.binary.times).new().reduce_rowwise(gb.monoid.plus))
    # dt = sum_j S(i, j)
    dt = G.to_dict(S.reduce_rowwise(gb.monoid.plus))
    # db = (E .* E^T) plus.pair 1
    db = G.to_dict(E.ewise_mult(ET, gb.binary.pair).new().reduce_rowwise(gb.monoid.plus))
    return {v: 0 if not t.get(v) else t[v] / ((dt[v] * (dt[v] - 1) - 2 * db.get(v, 0)) * 2)
            for v in G.nodes}


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """Collective. nx.average_clustering: NetworkX's sum over ``clustering``, in its order."""
    c = clustering(G, nodes, weight).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def square_clustering(G, nodes=None):
    """Collective. nx.square_clustering of an undirected graph from
    ``algorithms.square_clustering`` (NetworkX's integers and division; 0, an int, where no
    square can close, as NetworkX)."""
    refuse(square_clustering_reason(G))
    c = G.to_dict(alg.square_clustering(alg.Graph(G.matrix, "undirected")))
    return G.at_nodes({v: x or 0 for v, x in c.items()}, nodes)


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

