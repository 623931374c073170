"""Degree assortativity: average_neighbor_degree and average_degree_connectivity.

Both are one product of the neighbour matrix with the target degrees, over the (weighted)
source degrees: with N the edges from a node to its neighbours (A for successors, A^T for
predecessors; the call's weights or 1) and t the unweighted target degrees,

    s = N plus.times t          the (weighted) sum of the neighbours' degrees
"""

import networkx as nx

import gblas2d as gb

from .structure import degrees

__all__ = ["average_degree_connectivity", "average_neighbor_degree"]

DIRECTIONS = ("in", "out", "in+out")


def average_neighbor_degree(G, source="out", target="out", nodes=None, weight=None):
    """Collective. nx.average_neighbor_degree: ``s / d``, d the weighted source degree (0.0
    where it is 0); for source "in+out" N = A + A^T (successors and predecessors both)."""
    if G.is_directed():
        for name, value in (("source", source), ("target", target)):
            if value not in DIRECTIONS:
                raise nx.NetworkXError(
                    f"{name} argument {value} must be 'in', 'out' or 'in+out'")
    elif source != "out" or target != "out":
        raise nx.NetworkXError(
            "source and target arguments are only supported for directed graphs")
    t = degrees(G, target)
    sides = [side for side in ("out", "in") if side in source] if G.is_directed() else ["out"]
    Ns = [_neighbours(G, side, weight) for side in sides]
    # s = N plus.times t
    total = gb.Vector.from_scalar(0, len(G), Ns[0].dtype)
    for N in Ns:
        total(accum=gb.binary.plus) << N.mxv(t, gb.semiring.plus_times[N.dtype])
    total = G.to_dict(total)
    d = G.to_dict(degrees(G, source, weight))
    return {v: 0.0 if d[v] == 0 else total[v] / d[v] for v in _sources(G, nodes)}


def average_degree_connectivity(G, source="in+out", target="in+out", nodes=None, weight=None):
    """Collective. nx.average_degree_connectivity: for each unweighted source degree k, the
    sum of s over the nodes of degree k over the sum of their weighted degrees (summed in G's
    order, as NetworkX). N = A^T for source "in", A otherwise (NetworkX's neighbours of a
    DiGraph for "in+out" are its successors)."""
    if G.is_directed():
        if source not in DIRECTIONS:
            raise nx.NetworkXError('source must be one of "in", "out", or "in+out"')
        if target not in DIRECTIONS:
            raise nx.NetworkXError('target must be one of "in", "out", or "in+out"')
    elif source != "in+out" or target != "in+out":
        raise nx.NetworkXError(
            "source and target arguments are only supported for directed graphs")
    else:
        # an undirected graph's degree: the row sums (and the diagonal again)
        source = target = "out"
    N = _neighbours(G, "in" if source == "in" else "out", weight)
    # s = N plus.times t
    s = G.to_dict(N.mxv(degrees(G, target), gb.semiring.plus_times[N.dtype]))
    k = G.to_dict(degrees(G, source))
    d = G.to_dict(degrees(G, source, weight))
    sums, norms = {}, {}
    for v in [nodes] if nodes in G.graph else _sources(G, nodes):
        sums[k[v]] = sums.get(k[v], 0) + s.get(v, 0)
        norms[k[v]] = norms.get(k[v], 0) + d[v]
    return {key: total if norms[key] == 0 else total / norms[key] for key, total in sums.items()}


def _neighbours(G, side, weight):
    """Collective. N: A (successors) or A^T (predecessors, "in"), valued by the edge
    attribute ``weight`` (1 at every edge for None)."""
    A = G.adjacency(weight)
    return A.T.new() if side == "in" and G.is_directed() else A


def _sources(G, nodes):
    """The nodes NetworkX's degree view iterates: every node, or those of ``nodes`` in G."""
    return G.nodes if nodes is None else G.graph.nbunch_iter(nodes)
