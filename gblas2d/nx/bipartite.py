"""Bipartite graphs: is_bipartite and color."""

import networkx as nx

from gblas2d import algorithms as alg

from .structure import isolated

__all__ = ["color", "is_bipartite"]


def is_bipartite(G):
    """Collective. nx.is_bipartite from ``algorithms.bipartite_sides`` (edges in either
    direction; a self loop is not bipartite, as NetworkX)."""
    return alg.bipartite_sides(G.matrix) is not None


def color(G):
    """Collective. nx.bipartite.color: 1 on the side of the first node (in G's order) of each
    component, 0 on the other and at isolated nodes, as NetworkX's search colours them;
    NetworkXError when G is not bipartite."""
    side = alg.bipartite_sides(G.matrix)
    if side is None:
        raise nx.NetworkXError("Graph is not bipartite.")
    alone = G.to_set(isolated(G))
    return {v: 0 if v in alone else 1 - s for v, s in G.to_dict(side).items()}
