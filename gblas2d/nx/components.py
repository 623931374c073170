"""Connected, weakly and strongly connected components."""

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg

__all__ = ["components", "connected_components", "is_connected", "is_semiconnected",
           "is_strongly_connected", "is_weakly_connected", "node_connected_component",
           "number_connected_components", "number_strongly_connected_components",
           "number_weakly_connected_components", "one_component", "strongly_connected_components",
           "weakly_connected_components"]


def components(G, labels=None):
    """Collective. The components of ``G`` (weak ones for a DiGraph, or those ``labels`` gives)
    as lists of node keys, ordered by their first node in ``G``'s node order (NetworkX's order
    for the connected and weak components)."""
    if labels is None:
        labels = alg.connected_components(G.matrix)
    indices, labels = labels.to_coo()
    if len(labels) == 0:
        return []
    order = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[order])) + 1
    nodes = G.nodes
    return [[nodes[i] for i in part.tolist()] for part in np.split(indices[order], bounds)]


def connected_components(G):
    """Collective. nx.connected_components from ``algorithms.connected_components``."""
    return (set(part) for part in components(G))


def number_connected_components(G):
    """Collective. nx.number_connected_components."""
    return len(components(G))


def is_connected(G):
    """Collective. nx.is_connected; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return len(components(G)) == 1


def weakly_connected_components(G):
    """Collective. nx.weakly_connected_components: the components of the symmetrized graph."""
    return (set(part) for part in components(G))


def number_weakly_connected_components(G):
    """Collective. nx.number_weakly_connected_components."""
    return len(components(G))


def is_weakly_connected(G):
    """Collective. nx.is_weakly_connected; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(
            "Connectivity is undefined for the null graph.")
    return len(components(G)) == 1


def node_connected_component(G, n):
    """Collective. nx.node_connected_component: the nodes ``algorithms.bfs_levels`` reaches
    from n (KeyError for a node not in G, as NetworkX)."""
    return G.to_set(alg.bfs_levels(G.matrix, G.index[n]))


def strongly_connected_components(G):
    """Collective. nx.strongly_connected_components from
    ``algorithms.strongly_connected_components``, in an order of Tarjan's kind (what
    nx.condensation numbers its nodes by): each component after every one it reaches. The
    components nothing reaches (the condensation's sources) come as Tarjan's depth-first
    search from G's nodes in order finishes them: by their first node in G's order, each right
    after the components it reaches that no earlier one does. nx's drawing of a DiGraph
    (write_network_text) starts from the sources in this order."""
    labels = alg.strongly_connected_components(G.matrix)
    parts = components(G, labels)
    K, comps = _condensation(G, labels)
    depth = _depth_below(K, comps)
    first = _first_source(K, comps)
    index = G.index

    def tarjan(part):
        label = index[part[0]]  # a component's label is its first vertex
        return first[label], depth[label]

    return (set(part) for part in sorted(parts, key=tarjan))


def _condensation(G, labels):
    """Collective. The condensation of ``G`` by ``labels`` (each vertex labelled by its
    component's smallest vertex) as an n x n Matrix over the labels, and the Vector of the
    labels::

        L(i, label(i)) = 1;  K = offdiag(L^T any.pair A any.pair L)"""
    n, grid = len(G), G.matrix.grid
    rows, comp = labels.to_coo()
    # rank r gives vertices r, r + P, ...
    share = slice(grid.rank, None, grid.nprocs)
    L = gb.Matrix.from_coo(rows[share], comp[share], True, gb.dtypes.BOOL, nrows=n, ncols=n,
                           distributed=True, grid=grid)
    any_pair = gb.semiring.any_pair[gb.dtypes.BOOL]
    K = L.T.new().mxm(G.matrix.mxm(L, any_pair).new(), any_pair).new() \
        .select(gb.select.offdiag).new()
    return K, gb.Vector.from_coo(np.unique(comp), True, gb.dtypes.BOOL, size=n)


def _depth_below(K, comps):
    """Collective. The length of the longest path from each component of the condensation
    ``K`` to a sink, by peeling the sinks::

        r = the components;  repeat until r is empty:
            s = r<!(K any.pair r)>                                      no edge into r
            depth<s> = k;  r<!s>

    as an array indexed by component label."""
    any_pair = gb.semiring.any_pair[gb.dtypes.BOOL]
    remaining = comps
    depth = np.zeros(K.nrows, np.int64)
    level = 0
    while remaining.nvals:
        # s = r<!(K any.pair r)>
        above = K.mxv(remaining, any_pair).new(mask=remaining.S)
        sinks = remaining.dup(mask=~above.S)
        depth[sinks.to_coo()[0]] = level
        remaining = remaining.dup(mask=above.S)
        level += 1
    return depth


def _first_source(K, comps):
    """Collective. For each component of the condensation ``K``, the first (smallest) label of
    the sources that reach it, as an array indexed by component label::

        o<comps without an edge into them> = their labels
        repeat:  o = min(o, o min.first K)  until it stays"""
    into = K.reduce_columnwise(gb.monoid.any[gb.dtypes.BOOL]).new()
    sources = comps.dup(mask=~into.S).apply(gb.indexunary.index).new(gb.dtypes.INT64)
    owner = sources
    while True:
        reached = owner.vxm(K, gb.semiring.min_first[gb.dtypes.INT64]).new()
        updated = owner.ewise_add(reached, gb.binary.min).new()
        if updated.isequal(owner):
            break
        owner = updated
    first = np.zeros(K.nrows, np.int64)
    at, value = owner.to_coo()
    first[at] = value
    return first


def is_semiconnected(G):
    """Collective. nx.is_semiconnected of a DiGraph: whether the condensation has a path
    through every component, i.e. the longest path to a sink (``_depth_below``) has as many
    components as there are."""
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    labels = alg.strongly_connected_components(G.matrix)
    count = len(np.unique(labels.to_coo()[1]))
    return int(_depth_below(*_condensation(G, labels)).max()) == count - 1


def number_strongly_connected_components(G):
    """Collective. nx.number_strongly_connected_components."""
    return len(components(G, alg.strongly_connected_components(G.matrix)))


def is_strongly_connected(G):
    """Collective. nx.is_strongly_connected; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return one_component(alg.strongly_connected_components(G.matrix))


def one_component(labels):
    """Collective. Whether every vertex has the label 0 (of the component of vertex 0)."""
    return labels.reduce(gb.monoid.max).new().value == 0
