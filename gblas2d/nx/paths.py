"""Unweighted shortest paths as node lists, and the predecessors of a search.

NetworkX builds each path from the first parent its queue finds, so the paths here come from
the breadth-first search in NetworkX's order (``traversal.bfs_in_order``: each vertex of a
layer with its first parent), walked back layer by layer: the same paths, in the same dict
order. ``predecessor`` keeps every parent one level up::

    a = levels + 1
    X = diag(a) plus.first A,  Y = A plus.second diag(a)      X(u, w) = a(u), Y(u, w) = a(w)
    P = (Y - X)<Y - X == 1>                                    the edges one level down
"""

import networkx as nx
import numpy as np

import gblas2d as gb

from .shortest_paths import pair_length
from .traversal import bfs_in_order, neighbor_order

__all__ = ["all_pairs_shortest_path", "bidirectional_shortest_path", "predecessor",
           "single_source_shortest_path", "single_target_shortest_path"]


def single_source_shortest_path(G, source, cutoff=None):
    """Collective. nx.single_source_shortest_path: ``{node: path}`` from ``source``, NetworkX's
    paths in its order."""
    if source not in G.graph:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return _paths(G, source, neighbor_order(G, False, None), cutoff, reverse=False)


def single_target_shortest_path(G, target, cutoff=None):
    """Collective. nx.single_target_shortest_path: ``{node: path}`` to ``target``, from the
    search along the reversed edges (a DiGraph's predecessors, as NetworkX)."""
    if target not in G.graph:
        raise nx.NodeNotFound(f"Target {target} not in G")
    return _paths(G, target, neighbor_order(G, True, None), cutoff, reverse=True)


def all_pairs_shortest_path(G, cutoff=None):
    """Collective. nx.all_pairs_shortest_path: ``(node, single_source_shortest_path)`` in G's
    order, one search a source (the neighbour order formed once), computed at the call."""
    O = neighbor_order(G, False, None)
    return iter([(v, _paths(G, v, O, cutoff, reverse=False)) for v in G.nodes])


def bidirectional_shortest_path(G, source, target):
    """Collective. nx.bidirectional_shortest_path: a shortest path from ``source`` to
    ``target`` (NetworkXNoPath where there is none): NetworkX's single-source path, which may
    be another than the one its search from both ends meets on where several are shortest."""
    length = pair_length(G, source, target)
    if length is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    paths = _paths(G, source, neighbor_order(G, False, None), length, reverse=False)
    return paths[target]


def _paths(G, root, O, cutoff, reverse):
    """Collective. ``{node: path}`` of the search in NetworkX's order from ``root`` along O,
    ``cutoff`` layers at most: each path its first parent's, one node longer (prepended for
    paths to ``root``)."""
    layers, parents = bfs_in_order(G, [G.index[root]], O, cutoff)
    nodes = G.nodes
    paths = {root: [root]}
    for layer, above in zip(layers[1:], parents, strict=True):
        for p, v in zip(above.tolist(), layer.tolist(), strict=True):
            u, w = nodes[p], nodes[v]
            paths[w] = [w] + paths[u] if reverse else paths[u] + [w]
    return paths


def predecessor(G, source, target=None, cutoff=None, return_seen=None):
    """Collective. nx.predecessor: ``{node: [its parents one level up]}`` in NetworkX's order
    (the nodes as its search reaches them, each list in the order of the layer above), levels
    up to ``cutoff`` (0 or None: all); with ``target`` its list only, and with
    ``return_seen`` the levels too."""
    if source not in G.graph:
        raise nx.NodeNotFound(f"Source {source} not in G")
    layers, _ = bfs_in_order(G, [G.index[source]], neighbor_order(G, False, None),
                             cutoff or None)
    order = np.concatenate(layers)
    n, int64 = len(G), gb.dtypes.INT64
    place = np.empty(n, np.int64)
    place[order] = np.arange(len(order))
    depth = np.concatenate([np.full(len(layer), k, np.int64) for k, layer in enumerate(layers)])
    # D = diag(a), a = levels + 1
    D = gb.Vector.from_coo(order, depth + 1, int64, size=n).diag()
    A = G.matrix
    # X = D plus.first A;  Y = A plus.second D
    X = D.mxm(A, gb.semiring.plus_first[int64]).new()
    Y = A.mxm(D, gb.semiring.plus_second[int64]).new()
    # P = (Y - X)<Y - X == 1>
    P = Y.ewise_mult(X, gb.binary.minus).new().select(gb.select.valueeq, 1).new()
    rows, cols, _ = P.to_coo()
    nodes = G.nodes
    pred = {nodes[v]: [] for v in order.tolist()}
    for k in np.lexsort((place[rows], place[cols])).tolist():
        pred[nodes[cols[k]]].append(nodes[rows[k]])
    if target is not None:
        if target not in pred:
            return ([], -1) if return_seen else []
        level = int(depth[place[G.index[target]]])
        return (pred[target], level) if return_seen else pred[target]
    if return_seen:
        return pred, {nodes[v]: int(d) for v, d in zip(order.tolist(), depth, strict=True)}
    return pred
