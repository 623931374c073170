"""Cuts and expansions (networkx.algorithms.cuts) from indicator vectors and masked products.

With s, t the BOOL indicators of the node sets S and T (the complement of S when T is None)
and A the adjacency (the call's weights, or 1 at every edge), ``x' A y`` is the weight of the
edges from the nodes of x to those of y: ``A plus.first y`` masked to x, summed.
"""

import networkx as nx

import gblas2d as gb

from .structure import degrees

__all__ = ["boundary_expansion", "conductance", "cut_size", "edge_expansion",
           "mixing_expansion", "node_expansion", "normalized_cut_size", "volume"]


def cut_size(G, S, T=None, weight=None):
    """Collective. nx.cut_size: the weight of the edges between S and T, an edge counted once
    as NetworkX's edge boundary does where S and T overlap (b = s .* t)::

        undirected:  s'At - b' triu+(A) b       triu+: strictly above the diagonal
        directed:    s'At + t'As + b'As + b'At - 2 b'Ab         S to T and T to S

    Integers for integer weights, as NetworkX's sum. A DiGraph with T None raises NetworkX's
    TypeError (its second edge boundary iterates T).
    """
    if G.is_directed() and T is None:
        raise TypeError("'NoneType' object is not iterable")
    A = G.adjacency(weight)
    s = _indicator(G, S)
    t = _indicator(G, T) if T is not None else _complement(s)
    b = s.ewise_mult(t, gb.binary.land).new()
    if not G.is_directed():
        # s'At - b' triu+(A) b
        cut = _between(A, s, t)
        if b.nvals:
            cut -= _between(A.select(gb.select.triu, 1).new(), b, b)
        return cut
    # s'At + t'As
    cut = _between(A, s, t) + _between(A, t, s)
    if b.nvals:
        # + b'As + b'At - 2 b'Ab
        cut += _between(A, b, s) + _between(A, b, t) - 2 * _between(A, b, b)
    return cut


def volume(G, S, weight=None):
    """Collective. nx.volume: the sum of the (out-)degrees of S, summed in S's order as
    NetworkX does (a node listed twice counts twice; nodes not in G are skipped)."""
    d = G.to_dict(degrees(G, "out", weight))
    return sum(d[v] for v in G.graph.nbunch_iter(S))


def normalized_cut_size(G, S, T=None, weight=None):
    """Collective. nx.normalized_cut_size: cut(S, T) (1 / vol(S) + 1 / vol(T))."""
    if T is None:
        T = set(G.graph) - set(S)
    return cut_size(G, S, T, weight) * ((1 / volume(G, S, weight)) + (1 / volume(G, T, weight)))


def conductance(G, S, T=None, weight=None):
    """Collective. nx.conductance: cut(S, T) / min(vol(S), vol(T))."""
    if T is None:
        T = set(G.graph) - set(S)
    return cut_size(G, S, T, weight) / min(volume(G, S, weight), volume(G, T, weight))


def edge_expansion(G, S, T=None, weight=None):
    """Collective. nx.edge_expansion: cut(S, T) / min(|S|, |T|)."""
    if T is None:
        T = set(G.graph) - set(S)
    return cut_size(G, S, T, weight) / min(len(S), len(T))


def mixing_expansion(G, S, T=None, weight=None):
    """Collective. nx.mixing_expansion: cut(S, T) / (2 m), m the number of edges::

        m = nvals(A) (directed);  (nvals(A) + nvals(diag(A))) / 2 (undirected: a self loop
        is stored once, every other edge both ways)
    """
    A = G.matrix
    m = A.nvals
    if not G.is_directed():
        m = (m + A.select(gb.select.diag).new().nvals) // 2
    return cut_size(G, S, T, weight) / (2 * m)


def node_expansion(G, S):
    """Collective. nx.node_expansion: |N(S)| / |S|, N(S) the (out-)neighbours of S::

        N = s any.pair A
    """
    for v in S:
        if v not in G.graph:
            raise nx.NetworkXError(f"The node {v} is not in the graph.")
    # N = s any.pair A
    neighbours = _indicator(G, S).vxm(G.matrix, gb.semiring.any_pair[gb.dtypes.BOOL]).new()
    return neighbours.nvals / len(S)


def boundary_expansion(G, S):
    """Collective. nx.boundary_expansion: |B(S)| / |S|, B(S) the (out-)neighbours of S not in
    S (NetworkX's node boundary)::

        B<!s> = s any.pair A
    """
    s = _indicator(G, S)
    # B<!s> = s any.pair A
    boundary = s.vxm(G.matrix, gb.semiring.any_pair[gb.dtypes.BOOL]).new(mask=~s.S)
    return boundary.nvals / len(S)


def _indicator(G, nodes):
    """Collective. The BOOL indicator of the nodes of ``nodes`` that are in G."""
    return G.indicator(dict.fromkeys(v for v in nodes if v in G.graph))


def _complement(s):
    """Collective. The BOOL indicator of the nodes ``s`` leaves out."""
    return gb.Vector.from_scalar(True, s.size, gb.dtypes.BOOL).dup(mask=~s.S)


def _between(A, x, y):
    """Collective. ``x' A y``: the sum of A(i, j) over i in x and j in y, 0 for none."""
    # A plus.first y, masked to x
    out = A.mxv(y, gb.semiring.plus_first[A.dtype]).new(mask=x.S)
    total = out.reduce(gb.monoid.plus).new().value
    return 0 if total is None else total
