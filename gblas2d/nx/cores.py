"""Cores and trusses: core_number, k_core, k_shell, k_crust, k_corona and k_truss."""

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg

from .checks import k_reason, refuse
from .graph import Gblas2dGraph, convert_to_nx

__all__ = ["core_number", "k_core", "k_corona", "k_crust", "k_shell", "k_truss", "onion_layers"]


def k_truss(G, k):
    """Collective. nx.k_truss from ``algorithms.k_truss``, as NetworkX returns it: G's subgraph
    (attributes kept) of the truss's edges and the nodes they touch. For k <= 2 every edge is
    in the truss. Self loops raise NetworkXNotImplemented, as in NetworkX."""
    refuse(k_reason(k))
    A = G.matrix
    _no_self_loops(A)
    truss = alg.k_truss(A, k) if k >= 3 else A
    return convert_to_nx(Gblas2dGraph(G.graph, truss, subgraph=True))


def _no_self_loops(A):
    """Collective. NetworkX's NetworkXNotImplemented for a graph with self loops."""
    if A.select(gb.select.diag).new().nvals:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")


def onion_layers(G):
    """Collective. nx.onion_layers of an undirected graph from ``algorithms.onion_layers``;
    self loops raise NetworkXNotImplemented, as in NetworkX."""
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if G.matrix.select(gb.select.diag).new().nvals:
        raise nx.NetworkXNotImplemented(
            "Input graph contains self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    return G.to_dict(alg.onion_layers(alg.Graph(G.matrix, "undirected")))


def core_number(G):
    """Collective. nx.core_number from ``algorithms.core_number`` (a DiGraph's degree is
    in + out, as NetworkX's); self loops raise NetworkXNotImplemented, as in NetworkX."""
    return _cores(G)


def _cores(G):
    """Collective. ``core_number`` under a name the k_* functions' ``core_number`` argument
    does not hide."""
    A = G.matrix
    _no_self_loops(A)
    return G.to_dict(alg.core_number(A if G.is_directed() else alg.Graph(A, "undirected")))


def _core_subgraph(G, keep, k, core):
    """NetworkX's ``_core_subgraph``: G's subgraph (attributes kept) of the nodes ``keep``
    accepts, with the core numbers computed here unless given, and k their largest by
    default."""
    if core is None:
        core = _cores(G)
    if k is None:
        k = max(core.values())
    return G.graph.subgraph([v for v in core if keep(v, k, core)]).copy()


def k_core(G, k=None, core_number=None):
    """Collective. nx.k_core: the nodes of core number at least k."""
    return _core_subgraph(G, lambda v, k, c: c[v] >= k, k, core_number)


def k_shell(G, k=None, core_number=None):
    """Collective. nx.k_shell: the nodes of core number k."""
    return _core_subgraph(G, lambda v, k, c: c[v] == k, k, core_number)


def k_crust(G, k=None, core_number=None):
    """Collective. nx.k_crust: the nodes of core number at most k (by default one less than
    the largest)."""
    core = _cores(G) if core_number is None else core_number
    if k is None:
        k = max(core.values()) - 1
    return _core_subgraph(G, lambda v, k, c: c[v] <= k, k, core)


def k_corona(G, k, core_number=None):
    """Collective. nx.k_corona: the nodes of core number k with exactly k neighbours (G[v],
    the successors in a DiGraph) of core number at least k::

        h = 1 at the nodes of core number >= k
        t = A plus.pair h                    each node's neighbours in the k-core
    """
    core = _cores(G) if core_number is None else core_number
    index, n = G.index, len(G)
    # h = 1 at the nodes of core number >= k
    high = np.array([index[v] for v, c in core.items() if c >= k], np.int64)
    h = gb.Vector.from_coo(high, True, gb.dtypes.BOOL, size=n)
    # t = A plus.pair h
    inside = G.to_dict(G.matrix.mxv(h, gb.semiring.plus_pair[gb.dtypes.INT64]))
    return _core_subgraph(G, lambda v, k, c: c[v] == k and inside.get(v, 0) == k, k, core)
