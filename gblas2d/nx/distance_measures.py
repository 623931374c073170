"""Distance measures from all the unweighted distances at once: eccentricity and what it gives
(diameter, radius, center, periphery), barycenter, average_shortest_path_length,
wiener_index and the efficiencies.

Each reads the levels L of searches from every node, ``levels_in_batches`` (256 sources a
product), and reduces each batch's rows before the next batch is searched::

    far(s)     = L(s, :) max.reduce           the eccentricity of s
    total(s)   = L(s, :) plus.reduce          the sum of its distances
    reached(s) = L(s, :) plus.pair 1          the nodes s reaches, itself included
    inverse(s) = offdiag(L)(s, :) minv, plus.reduce      the sum of 1 / d

so one batch of distances (256 rows) is held at a time. can_run refuses weights, and the
distances or eccentricities a caller passes (``sp``, ``e``).
"""

import networkx as nx

import gblas2d as gb
from gblas2d import algorithms as alg

from .checks import distance_reason, refuse
from .components import is_connected, is_strongly_connected
from .shortest_paths import levels_in_batches, pair_length

__all__ = ["average_shortest_path_length", "barycenter", "center", "diameter", "eccentricity",
           "efficiency", "global_efficiency", "local_efficiency", "periphery", "radius",
           "wiener_index"]


def eccentricity(G, v=None, sp=None, weight=None):
    """Collective. nx.eccentricity without weights or ``sp`` (can_run refuses them): the
    largest level of a search from each node of ``v`` (all nodes for None); NetworkXError where
    a search misses a node, in NetworkX's words."""
    refuse(distance_reason("eccentricity", {"weight": weight, "sp": sp}))
    nodes = list(G.graph.nbunch_iter(v))
    far, _, reached = _reductions(G, sorted({G.index[u] for u in nodes}))
    for u in nodes:
        if reached[u] != len(G):
            raise nx.NetworkXError(_infinite(G))
    if v in G.graph:
        return far[v]
    return {u: far[u] for u in nodes}


def diameter(G, e=None, usebounds=False, weight=None):
    """Collective. nx.diameter: the largest eccentricity (``usebounds`` gives the same
    answer, so every eccentricity is computed)."""
    refuse(distance_reason("diameter", {"weight": weight, "e": e}))
    return max(_all_eccentricities(G, usebounds).values())


def radius(G, e=None, usebounds=False, weight=None):
    """Collective. nx.radius: the smallest eccentricity."""
    refuse(distance_reason("radius", {"weight": weight, "e": e}))
    return min(_all_eccentricities(G, usebounds).values())


def periphery(G, e=None, usebounds=False, weight=None):
    """Collective. nx.periphery: the nodes of the largest eccentricity, in G's order."""
    refuse(distance_reason("periphery", {"weight": weight, "e": e}))
    ecc = _all_eccentricities(G, usebounds)
    largest = max(ecc.values())
    return [v for v in G.nodes if ecc[v] == largest]


def center(G, e=None, usebounds=False, weight=None):
    """Collective. nx.center: the nodes of the smallest eccentricity, in G's order (what
    NetworkX's tree center gives a tree too)."""
    refuse(distance_reason("center", {"weight": weight, "e": e}))
    if len(G) == 0 and not G.is_directed() and not usebounds:
        # NetworkX asks nx.is_tree first
        raise nx.NetworkXPointlessConcept("G has no nodes.")
    ecc = _all_eccentricities(G, usebounds)
    smallest = min(ecc.values())
    return [v for v in G.nodes if ecc[v] == smallest]


def _all_eccentricities(G, usebounds):
    """Collective. ``{node: eccentricity}`` (empty for the null graph, whose max() and min()
    raise ValueError, as NetworkX's); NetworkX's error for a graph a search does not cover
    (its bounding method's words when ``usebounds`` applies)."""
    if usebounds and not G.is_directed():
        if len(G) == 0:
            # NetworkX's bounding method starts from max(degrees)
            raise ValueError("max() arg is an empty sequence")
        far, _, reached = _reductions(G, range(len(G)))
        if min(reached.values()) != len(G):
            raise nx.NetworkXError("Cannot compute metric because graph is not connected.")
        return far
    return eccentricity(G)


def barycenter(G, weight=None, attr=None, sp=None):
    """Collective. nx.barycenter without weights, ``attr`` or ``sp`` (can_run refuses them):
    the nodes of the least sum of distances, in G's order; NetworkXNoPath for a graph a
    search does not cover. For a tree NetworkX walks from its first node to the centroid, so
    of two the one nearer that node comes first (a search from it decides)."""
    refuse(distance_reason("barycenter", {"weight": weight, "attr": attr, "sp": sp}))
    n = len(G)
    if n == 0 and not G.is_directed():
        raise nx.NetworkXPointlessConcept("G has no nodes.")
    _, total, reached = _reductions(G, range(n))
    if n and min(reached.values()) < n:
        raise nx.NetworkXNoPath(f"Input graph {G.graph} is disconnected, so every induced "
                                "subgraph has infinite barycentricity.")
    smallest = min(total.values(), default=None)
    least = [v for v in G.nodes if total[v] == smallest]
    if len(least) == 2 and _is_tree(G):
        levels = G.to_dict(alg.bfs_levels(G.matrix, 0))
        least.sort(key=levels.get)
    return least


def _is_tree(G):
    """Collective. Whether the connected undirected ``G`` has n - 1 edges: (nvals(A) +
    nvals(diag(A))) / 2, a self loop stored once."""
    if G.is_directed():
        return False
    A = G.matrix
    return A.nvals + A.select(gb.select.diag).new().nvals == 2 * (len(G) - 1)


def average_shortest_path_length(G, weight=None, method=None):
    """Collective. nx.average_shortest_path_length without weights (can_run refuses them):
    the sum of every distance over n (n - 1)."""
    refuse(distance_reason("average_shortest_path_length", {"weight": weight}))
    if method is None:
        method = "unweighted"
    if method not in ("unweighted", "dijkstra", "bellman-ford", "floyd-warshall",
                      "floyd-warshall-numpy"):
        raise ValueError(f"method not supported: {method}")
    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept("the null graph has no paths, thus there is no "
                                          "average shortest path length")
    if n == 1:
        return 0
    if not _covered(G):
        connected = "strongly connected" if G.is_directed() else "connected"
        raise nx.NetworkXError(f"Graph is not {connected}.")
    _, total, _ = _reductions(G, range(n))
    return sum(total.values()) / (n * (n - 1))


def wiener_index(G, weight=None):
    """Collective. nx.wiener_index without weights (can_run refuses them): the sum of every
    distance (halved for an undirected graph), inf where a search does not cover the graph."""
    refuse(distance_reason("wiener_index", {"weight": weight}))
    if not _covered(G):
        return float("inf")
    _, total, _ = _reductions(G, range(len(G)))
    grand = sum(total.values())
    return grand if G.is_directed() else grand / 2


def _covered(G):
    """Collective. NetworkX's test before summing: (strongly) connected."""
    return is_strongly_connected(G) if G.is_directed() else is_connected(G)


def efficiency(G, u, v):
    """Collective. nx.efficiency: 1 / the level of ``v`` in a search from ``u`` (0 where it
    is not reached)."""
    _undirected_only(G)
    length = pair_length(G, u, v)
    return 0 if length is None else 1 / length


def global_efficiency(G):
    """Collective. nx.global_efficiency: the sum of 1 / d over every ordered pair, over
    n (n - 1)."""
    _undirected_only(G)
    n = len(G)
    if n * (n - 1) == 0:
        return 0
    return _inverse_sum(G.matrix, range(n)) / (n * (n - 1))


def local_efficiency(G):
    """Collective. nx.local_efficiency: the mean over the nodes v of the global efficiency of
    the subgraph on v's neighbours, each from searches in that subgraph::

        N(v) = e_v any.pair A;  S = D plus.pair A plus.pair D, D = diag(N(v))
    """
    _undirected_only(G)
    n = len(G)
    if n == 0:
        raise ZeroDivisionError("division by zero")
    A = G.matrix
    any_pair = gb.semiring.any_pair[gb.dtypes.BOOL]
    plus_pair = gb.semiring.plus_pair[gb.dtypes.INT64]
    local = 0
    for i in range(n):
        # N(v) = e_v any.pair A (v itself too where it has a self loop, as G[v])
        e = gb.Vector.from_coo([i], True, gb.dtypes.BOOL, size=n)
        inside, _ = e.vxm(A, any_pair).new().to_coo()
        k = len(inside)
        if k < 2:
            continue
        # S = D plus.pair A plus.pair D, D = diag(N(v))
        D = gb.Vector.from_coo(inside, 1, gb.dtypes.INT64, size=n).diag()
        S = D.mxm(A, plus_pair).new().mxm(D, plus_pair).new()
        local += _inverse_sum(S, inside.tolist()) / (k * (k - 1))
    return local / n


def _inverse_sum(A, sources):
    """Collective. The sum of 1 / d over the pairs (s, t), s in ``sources``, t != s reached
    along A::

        inverse = offdiag(L) minv, plus.reduce
    """
    fp64 = gb.dtypes.FP64
    grand = 0.0
    for L in levels_in_batches(A, sources):
        # R = 1 / L off the diagonal (d = 0 only there)
        R = L.select(gb.select.offdiag).new(fp64).apply(gb.unary.minv).new()
        grand += R.reduce_scalar(gb.monoid.plus).new().value or 0.0
    return grand


def _reductions(G, rows):
    """Collective. For searches along A from ``rows``: ``far``, ``total`` and ``reached``
    (``{node: value}``, as in the module docstring)."""
    far, total, reached = {}, {}, {}
    for L in levels_in_batches(G.matrix, rows):
        # far = L max.reduce rowwise; total = L plus.reduce rowwise
        far.update(G.to_dict(L.reduce_rowwise(gb.monoid.max)))
        total.update(G.to_dict(L.reduce_rowwise(gb.monoid.plus)))
        # reached = L plus.pair 1
        ones = gb.Vector.from_scalar(1, L.ncols, gb.dtypes.INT64)
        reached.update(G.to_dict(L.mxv(ones, gb.semiring.plus_pair[gb.dtypes.INT64])))
    return far, total, reached


def _infinite(G):
    if G.is_directed():
        return "Found infinite path length because the digraph is not strongly connected"
    return "Found infinite path length because the graph is not connected"


def _undirected_only(G):
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
