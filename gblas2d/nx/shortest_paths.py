"""Shortest path lengths: unweighted by breadth-first search (one source, one target, a pair,
all pairs in batches), weighted by ``algorithms.sssp``, and has_path."""

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg
from gblas2d import exceptions

from .checks import refuse, weight_reason

__all__ = ["all_pairs_shortest_path_length", "has_path", "levels_in_batches",
           "pair_length", "shortest_path_length",
           "single_source_bellman_ford_path_length", "single_source_dijkstra_path_length",
           "single_source_shortest_path_length", "single_target_shortest_path_length"]


def single_source_shortest_path_length(G, source, cutoff=None):
    """Collective. nx.single_source_shortest_path_length from ``algorithms.bfs_levels``."""
    levels = G.to_dict(alg.bfs_levels(G.matrix, G.index_of(source)))
    return levels if cutoff is None else {v: d for v, d in levels.items() if d <= cutoff}


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    """Collective. nx.single_source_bellman_ford_path_length from ``algorithms.sssp``."""
    refuse(weight_reason(weight))
    s = G.index_of(source)
    try:
        return G.to_dict(alg.sssp(G.adjacency(weight), s, "bellman_ford"))
    except alg.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """Collective. nx.single_source_dijkstra_path_length by delta-stepping
    (``algorithms.sssp``); negative weights raise ValueError."""
    refuse(weight_reason(weight))
    s = G.index_of(source)
    try:
        dist = G.to_dict(alg.sssp(G.adjacency(weight), s, "delta_stepping"))
    except exceptions.InvalidValue as exc:
        raise ValueError(f"Contradictory paths found: negative weights? ({exc})") from exc
    return dist if cutoff is None else {v: d for v, d in dist.items() if d <= cutoff}


def single_target_shortest_path_length(G, target, cutoff=None):
    """Collective. nx.single_target_shortest_path_length: the levels of a search from
    ``target`` along the reversed edges (A^T)."""
    levels = G.to_dict(alg.bfs_levels(G.reverse_matrix, G.index_of(target, "Target")))
    return levels if cutoff is None else {v: d for v, d in levels.items() if d <= cutoff}


def all_pairs_shortest_path_length(G, cutoff=None):
    """Collective. nx.all_pairs_shortest_path_length, as an iterator of ``(node, {node:
    length})`` in G's order, computed at the call by ``levels_in_batches``."""
    nodes = G.nodes
    lengths = [{} for _ in nodes]
    for L in levels_in_batches(G.matrix, range(len(G))):
        if cutoff is not None:
            L = L.select(gb.select.valuele, cutoff).new()
        rows, cols, levels = L.to_coo()
        for s, v, d in zip(rows.tolist(), cols.tolist(), levels.tolist(), strict=True):
            lengths[s][nodes[v]] = d
    return iter(list(zip(nodes, lengths, strict=True)))


def levels_in_batches(A, sources):
    """Collective. The BFS levels from ``sources`` (rows of A) along A, ``BATCH`` sources at
    once (``bfs_levels`` with an n x BATCH frontier), as n x n Matrices with row s holding the
    levels from s (each batch's rows, the others empty)."""
    sources = np.asarray(list(sources), np.int64)
    n = A.nrows
    for start in range(0, len(sources), BATCH):
        chunk = sources[start:start + BATCH]
        # L(t, v) = the level of v from chunk[t]
        rows, cols, levels = alg.bfs_levels(A, chunk.tolist()).to_coo()
        yield gb.Matrix.from_coo(chunk[rows], cols, levels, gb.dtypes.INT64, nrows=n, ncols=n)


# sources searched at once: the frontier holds n x BATCH entries
BATCH = 256


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """Collective. nx.shortest_path_length without weights (can_run refuses a weight): a
    length (source and target), a dict (one of them), or all pairs (neither)."""
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    refuse(None if weight is None else "weighted shortest_path_length is not supported")
    if source is None:
        if target is None:
            return all_pairs_shortest_path_length(G)
        # NetworkX searches from target in G.reverse() by single_source_..., hence "Source"
        return G.to_dict(alg.bfs_levels(G.reverse_matrix, G.index_of(target)))
    if target is None:
        return single_source_shortest_path_length(G, source)
    length = pair_length(G, source, target)
    if length is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return length


def has_path(G, source, target):
    """Collective. nx.has_path: whether a search from ``source`` reaches ``target``."""
    return pair_length(G, source, target) is not None


def pair_length(G, source, target):
    """Collective. The level of ``target`` in a search from ``source`` (None: unreached);
    NetworkX's NodeNotFound for a missing one."""
    s = G.index_of(source)
    t = G.index_of(target, "Target")
    return alg.bfs_levels(G.matrix, s).get(t)
