"""Traversal: the bfs_* functions in NetworkX's order, and reachability (descendants,
ancestors, descendants_at_distance)."""

import itertools

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg

__all__ = ["ancestors", "bfs_edges", "bfs_in_order", "bfs_layers", "bfs_predecessors",
           "bfs_successors", "bfs_tree", "descendants", "descendants_at_distance",
           "neighbor_order"]


def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """Collective. nx.bfs_edges in NetworkX's order (``bfs_in_order``), computed at the call
    and returned as an iterator of (parent, child) pairs."""
    layers, parents = bfs_in_order(G, [_bfs_source(G, source)],
                                   neighbor_order(G, reverse, sort_neighbors), depth_limit)
    nodes = G.nodes
    return iter([(nodes[p], nodes[v]) for layer, above in zip(layers[1:], parents, strict=True)
                 for p, v in zip(above.tolist(), layer.tolist(), strict=True)])


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """Collective. nx.bfs_tree: the DiGraph of ``bfs_edges``, built as NetworkX builds it."""
    T = nx.DiGraph()
    T.add_node(source)
    T.add_edges_from(bfs_edges(G, source, reverse, depth_limit, sort_neighbors))
    return T


def bfs_layers(G, sources):
    """Collective. nx.bfs_layers, each layer in NetworkX's order (``bfs_in_order``), computed
    at the call and returned as an iterator of lists.

    The first layer is ``list(set(sources))`` as in NetworkX; the order of a set of str keys
    differs between processes (hash randomization), so under mpiexec every rank takes rank 0's.
    """
    graph = G.graph
    if sources in graph:
        sources = [sources]
    first = list(set(sources))
    for node in first:
        if node not in graph:
            raise nx.NetworkXError(f"The node {node} is not in the graph.")
    if not first:
        return iter([])
    # the set's order of str keys is each process's own: rank 0's for all
    first = G.matrix.grid.comm.bcast_object(first)
    index = G.index
    layers, _ = bfs_in_order(G, [index[v] for v in first], neighbor_order(G, False, None))
    nodes = G.nodes
    return iter([[nodes[v] for v in layer.tolist()] for layer in layers])


def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
    """Collective. nx.bfs_predecessors: the (child, parent) pairs of ``bfs_edges``."""
    return iter([(v, u) for u, v in bfs_edges(G, source, False, depth_limit, sort_neighbors)])


def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
    """Collective. nx.bfs_successors: ``bfs_edges`` grouped by parent, as NetworkX groups them
    (a source without children gives ``(source, [])``)."""
    grouped = [(source, [])]
    for u, v in bfs_edges(G, source, False, depth_limit, sort_neighbors):
        if u != grouped[-1][0]:
            grouped.append((u, []))
        grouped[-1][1].append(v)
    return iter(grouped)


def descendants_at_distance(G, source, distance):
    """Collective. nx.descendants_at_distance: the nodes at level ``distance`` of a
    breadth-first search from ``source``::

        v = bfs_levels(A, s);  v<v == distance>
    """
    if source not in G.graph:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    levels = alg.bfs_levels(G.matrix, G.index[source])
    # v<v == distance>
    return G.to_set(levels.select(gb.select.valueeq, distance).new())


def descendants(G, source):
    """Collective. nx.descendants: the nodes ``source`` reaches, itself left out
    (``bfs_levels`` of A, levels above 0)."""
    return _reached(G, G.matrix, source)


def ancestors(G, source):
    """Collective. nx.ancestors: the nodes that reach ``source`` (``bfs_levels`` of A^T)."""
    return _reached(G, G.reverse_matrix, source)


def _reached(G, A, source):
    """Collective. The nodes a search along A reaches from ``source``, levels above 0."""
    levels = alg.bfs_levels(A, _bfs_source(G, source))
    # v<v > 0>
    return G.to_set(levels.select(gb.select.valuegt, 0).new())


def _bfs_source(G, source):
    """The row of ``source``, or NetworkX's error for a missing one."""
    if source not in G.graph:
        kind = "digraph" if G.is_directed() else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    return G.index[source]


def neighbor_order(G, reverse, sort_neighbors):
    """Collective. O(u, v) = the place of v in the order NetworkX's BFS visits u's neighbours:
    ``G[u]`` (its predecessors with ``reverse`` in a DiGraph), passed through ``sort_neighbors``
    when given; a node listed twice keeps its first place. Rank r reads nodes r, r + P, ...;
    an error there (in ``sort_neighbors``) is raised on every rank."""
    graph = G.graph
    neighbors = graph.pred if reverse and graph.is_directed() else graph.adj
    index, n, grid = G.index, len(G), G.matrix.grid
    rows, cols, places = [], [], []
    with grid.comm.agreed():
        for u in itertools.islice(graph, grid.rank, None, grid.nprocs):
            listed = iter(neighbors[u])
            if sort_neighbors is not None:
                listed = sort_neighbors(listed)
            for place, v in enumerate(listed):
                rows.append(index[u])
                cols.append(index[v])
                places.append(place)
    return gb.Matrix.from_coo(np.array(rows, np.int64), np.array(cols, np.int64),
                              np.array(places, np.int64), gb.dtypes.INT64, nrows=n, ncols=n,
                              dup_op=gb.binary.min, distributed=True, grid=grid)


def bfs_in_order(G, first, O, depth_limit=None):
    """Collective. The layers of a breadth-first search from the rows ``first`` (in order),
    each in the order NetworkX's queue reaches it, and each later layer's parents.

    NetworkX visits a layer in order and each vertex's neighbours in the order of O, so a new
    vertex v comes after every vertex whose first parent comes earlier in the layer, and after
    the earlier neighbours of the same parent: the key p(u) * n + O(u, v), least over the
    parents u, orders the next layer. This is ``bfs_parents`` with that key in place of the
    parent's id::

        q(u)      = p(u) * n          p(u): u's place in the current layer
        k<!seen>  = q min.plus O      the least key of each newly reached vertex
        layer'    = the reached vertices by k;  parent = layer[k // n]
        seen<k>   = true

    ``depth_limit`` (None: n) bounds the layers after the first, as in NetworkX.
    """
    n = len(G)
    limit = n if depth_limit is None else depth_limit
    int64 = gb.dtypes.INT64
    layer = np.asarray(first, np.int64)
    layers, parents = [layer], []
    # seen = the first layer
    seen = gb.Vector.from_coo(layer, True, gb.dtypes.BOOL, size=n)
    depth = 0
    while depth < limit:
        # q(layer[p]) = p * n
        q = gb.Vector.from_coo(layer, np.arange(len(layer), dtype=np.int64) * n, int64, size=n)
        # k<!seen> = q min.plus O
        key = gb.Vector(int64, n)
        key(~seen.S, replace=True) << q.vxm(O, gb.semiring.min_plus)
        reached, keys = key.to_coo()
        if len(reached) == 0:
            break
        order = np.argsort(keys)
        parents.append(layer[keys[order] // n])
        layer = reached[order].astype(np.int64)
        layers.append(layer)
        # seen<k> = true
        seen(key.S) << True
        depth += 1
    return layers, parents
