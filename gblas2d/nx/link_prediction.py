"""Link prediction: jaccard_coefficient, adamic_adar_index, resource_allocation_index and
preferential_attachment from ``algorithms.link_prediction``."""

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg

__all__ = ["adamic_adar_index", "jaccard_coefficient", "preferential_attachment",
           "resource_allocation_index"]


def jaccard_coefficient(G, ebunch=None):
    """Collective. nx.jaccard_coefficient."""
    return _predict(G, ebunch, "jaccard")


def adamic_adar_index(G, ebunch=None):
    """Collective. nx.adamic_adar_index."""
    return _predict(G, ebunch, "adamic_adar")


def resource_allocation_index(G, ebunch=None):
    """Collective. nx.resource_allocation_index."""
    return _predict(G, ebunch, "resource_allocation")


def preferential_attachment(G, ebunch=None):
    """Collective. nx.preferential_attachment; the degrees NetworkX's (a self loop twice)."""
    return _predict(G, ebunch, "preferential_attachment")


def _predict(G, ebunch, method):
    """Collective. ``(u, v, score)`` for the pairs of ``ebunch`` (None: every non-edge, in
    ``nx.non_edges``' order, rank 0's under mpiexec as it follows a set's), computed at the
    call as one masked product on their pattern; NetworkX's errors for a directed graph and a
    missing node."""
    graph = G.graph
    if graph.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if ebunch is None:
        pairs = G.matrix.grid.comm.bcast_object(
            list(nx.non_edges(graph)) if G.matrix.grid.rank == 0 else None)
    else:
        pairs = list(ebunch)
        for u, v in pairs:
            for w in (u, v):
                if w not in graph:
                    raise nx.NodeNotFound(f"Node {w} not in G.")
    if not pairs:
        return iter([])
    index, n = G.index, len(G)
    rows = np.array([index[u] for u, _ in pairs], np.int64)
    cols = np.array([index[v] for _, v in pairs], np.int64)
    M = gb.Matrix.from_coo(rows, cols, True, gb.dtypes.BOOL, nrows=n, ncols=n,
                           dup_op=gb.binary.any)
    found, wanted, scores = alg.link_prediction(G.matrix, M, method).to_coo()
    score = dict(zip(zip(found.tolist(), wanted.tolist(), strict=True), scores.tolist(),
                     strict=True))
    return iter([(u, v, score[r, c])
                 for (u, v), r, c in zip(pairs, rows.tolist(), cols.tolist(), strict=True)])
