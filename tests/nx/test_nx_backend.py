"""The NetworkX backend "gblas2d" (gblas2d/nx/) against NetworkX's own answers.

Each dispatched function runs on a few graphs (karate with its weights, a random graph with
string node keys, a DiGraph with dangling nodes, a weighted graph, self loops) with
``backend="gblas2d"`` and must equal NetworkX: floats within 1e-12 (betweenness, Dijkstra) or
NetworkX's pagerank tolerance; integers, sets, the BFS's lists in their order, clustering's
divisions and k_truss's graphs (attributes and neighbour order included) exactly; dicts keyed by
the original node keys. A few of NetworkX's own test classes run against the backend, and an
mpiexec script at 2 and 4 ranks checks that every rank gets the same answer.
"""

import functools
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

B = "gblas2d"


@pytest.fixture(autouse=True)
def no_conversion_cache():
    """Convert afresh at every call: a cached conversion makes NetworkX warn, and warnings
    are errors here."""
    before = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False
    yield
    nx.config.cache_converted_graphs = before


def named(G):
    """``G`` with string node keys in a shuffled node order."""
    keys = list(G)
    random.Random(1).shuffle(keys)
    H = G.__class__()
    H.add_nodes_from(f"v{k}" for k in keys)
    H.add_edges_from((f"v{u}", f"v{v}", d) for u, v, d in G.edges(data=True))
    return H


def weighted_digraph():
    G = nx.gnp_random_graph(40, 0.08, seed=7, directed=True)
    rng = random.Random(3)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.choice([0.5, 1.0, 2.5, 4.0])
    G.add_nodes_from([40, 41])          # isolated, hence dangling
    return G


def weighted_graph():
    G = nx.gnm_random_graph(30, 60, seed=5)
    for k, (u, v) in enumerate(G.edges):
        G[u][v]["cost"] = 1 + k % 4
    return G


UNDIRECTED = {
    "karate": nx.karate_club_graph,
    "random-named": lambda: named(nx.gnp_random_graph(40, 0.06, seed=2)),
    "weighted": weighted_graph,
    "two-paths": lambda: nx.disjoint_union(nx.path_graph(4), nx.path_graph(["a", "b", "c"])),
}
DIRECTED = {
    "weighted-digraph": weighted_digraph,
    "named-digraph": lambda: named(nx.gnp_random_graph(30, 0.07, seed=4, directed=True)),
}
ALL = {**UNDIRECTED, **DIRECTED}


def close(got, want, tol):
    assert list(got) == list(want) or set(got) == set(want)
    assert all(abs(got[v] - want[v]) <= tol for v in want), \
        max(abs(got[v] - want[v]) for v in want)


@pytest.mark.parametrize("graph", ALL)
@pytest.mark.parametrize("kw", [{}, {"weight": None}, {"alpha": 0.6, "tol": 1e-10}])
def test_pagerank(graph, kw):
    G = ALL[graph]()
    want = nx.pagerank(G, **kw)
    # NetworkX stops at an L1 change below N * tol: each value is that close to its own
    close(nx.pagerank(G, backend=B, **kw), want, len(G) * kw.get("tol", 1e-6))


def test_pagerank_reaches_networkx_at_tight_tol():
    G = weighted_digraph()
    close(nx.pagerank(G, backend=B, tol=1e-13, max_iter=500),
          nx.pagerank(G, tol=1e-13, max_iter=500), 1e-10)


def test_pagerank_not_converging_raises_networkx_error():
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(nx.karate_club_graph(), backend=B, max_iter=2)


@pytest.mark.parametrize("graph", ALL)
def test_shortest_path_lengths(graph):
    G = ALL[graph]()
    source = next(iter(G))
    for cutoff in (None, 2):
        assert nx.single_source_shortest_path_length(G, source, cutoff, backend=B) == \
            nx.single_source_shortest_path_length(G, source, cutoff)
    weight = "cost" if graph == "weighted" else "weight"
    assert nx.single_source_bellman_ford_path_length(G, source, weight, backend=B) == \
        nx.single_source_bellman_ford_path_length(G, source, weight)
    for cutoff in (None, 3):
        got = nx.single_source_dijkstra_path_length(G, source, cutoff, weight, backend=B)
        want = nx.single_source_dijkstra_path_length(G, source, cutoff, weight)
        close(got, want, 1e-12)


def test_missing_source_and_negative_cycle_raise_networkx_errors():
    G = nx.path_graph(["x", "y", "z"])
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, "w", backend=B)
    G["x"]["y"]["weight"] = -1
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, "x", backend=B)


@pytest.mark.parametrize("graph", UNDIRECTED)
def test_connected_components(graph):
    G = ALL[graph]()
    assert list(nx.connected_components(G, backend=B)) == list(nx.connected_components(G))
    assert nx.number_connected_components(G, backend=B) == nx.number_connected_components(G)
    assert nx.is_connected(G, backend=B) == nx.is_connected(G)
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(nx.Graph(), backend=B)


@pytest.mark.parametrize("graph", DIRECTED)
def test_weakly_connected_components(graph):
    G = ALL[graph]()
    assert list(nx.weakly_connected_components(G, backend=B)) == \
        list(nx.weakly_connected_components(G))
    assert nx.number_weakly_connected_components(G, backend=B) == \
        nx.number_weakly_connected_components(G)
    assert nx.is_weakly_connected(G, backend=B) == nx.is_weakly_connected(G)


@pytest.mark.parametrize("graph", ALL)
@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("k", [None, 1, 7])
def test_betweenness_centrality(graph, normalized, k):
    G = ALL[graph]()
    kw = {"normalized": normalized, "k": k, "seed": 11}
    got, want = nx.betweenness_centrality(G, backend=B, **kw), nx.betweenness_centrality(G, **kw)
    assert list(got) == list(want)
    # k=1 leaves the source's value undefined (nan) in NetworkX too
    assert all(abs(got[v] - want[v]) <= 1e-12 or (got[v] != got[v] and want[v] != want[v])
               for v in want)


@pytest.mark.parametrize("sizes", [(3, 3), (2, 4), (5, 7)])
def test_betweenness_of_complete_bipartite_graphs_is_exact(sizes):
    """Each dependency is summed as itself, not as (1 + delta) - 1, which lost its last bits:
    NetworkX's exact values (what its bipartite betweenness tests compare with ==)."""
    G = nx.complete_bipartite_graph(*sizes)
    for normalized in (False, True):
        assert nx.betweenness_centrality(G, normalized=normalized, backend=B) == \
            nx.betweenness_centrality(G, normalized=normalized)


def looped():
    """Karate with self loops on three nodes and an isolated node."""
    G = nx.karate_club_graph()
    G.add_edges_from([(0, 0), (5, 5), (33, 33)])
    G.add_node(34)
    return G


@pytest.mark.parametrize("graph", ALL)
def test_bfs_in_networkx_order(graph):
    G = ALL[graph]()
    source, other = list(G)[0], list(G)[-1]
    for kw in ({}, {"reverse": True}, {"sort_neighbors": sorted}, {"depth_limit": 2},
               {"reverse": True, "sort_neighbors": functools.partial(sorted, reverse=True)}):
        assert list(nx.bfs_edges(G, source, backend=B, **kw)) == \
            list(nx.bfs_edges(G, source, **kw)), kw
        got, want = nx.bfs_tree(G, source, backend=B, **kw), nx.bfs_tree(G, source, **kw)
        assert list(got.edges) == list(want.edges) and list(got) == list(want), kw
    for sources in (source, [source, other], [other, source, other]):
        assert list(nx.bfs_layers(G, sources, backend=B)) == list(nx.bfs_layers(G, sources))


def test_bfs_missing_source_raises_networkx_error():
    G = nx.path_graph(["x", "y"])
    for call in (lambda: nx.bfs_edges(G, "w", backend=B), lambda: nx.bfs_tree(G, "w", backend=B),
                 lambda: next(nx.bfs_layers(G, ["x", "w"], backend=B))):
        with pytest.raises(nx.NetworkXError, match="The node w is not in the graph"):
            call()
    assert list(nx.bfs_layers(G, [], backend=B)) == []


CLUSTERED = {**UNDIRECTED, "self-loops": looped}


@pytest.mark.parametrize("graph", CLUSTERED)
def test_triangles_and_clustering(graph):
    G = CLUSTERED[graph]()
    some = [list(G)[3], list(G)[1], "missing"]
    assert nx.triangles(G, backend=B) == nx.triangles(G)
    assert nx.triangles(G, some, backend=B) == nx.triangles(G, some)
    assert nx.triangles(G, some[0], backend=B) == nx.triangles(G, some[0])
    for nodes in (None, some, some[0]):
        assert nx.clustering(G, nodes, backend=B) == nx.clustering(G, nodes)
    # the same divisions of the same integers, and NetworkX's int 0 where nothing closes
    got, want = nx.clustering(G, backend=B), nx.clustering(G)
    assert [type(c) for c in got.values()] == [type(c) for c in want.values()]
    for kw in ({}, {"count_zeros": False}, {"nodes": some[:2]}):
        if "count_zeros" in kw and not any(nx.triangles(G).values()):
            # no nonzero coefficient to average: NetworkX divides by zero, and so do we
            with pytest.raises(ZeroDivisionError):
                nx.average_clustering(G, backend=B, **kw)
            continue
        assert nx.average_clustering(G, backend=B, **kw) == nx.average_clustering(G, **kw)
    assert nx.transitivity(G, backend=B) == nx.transitivity(G)


@pytest.mark.parametrize("graph", DIRECTED)
def test_directed_transitivity(graph):
    G = ALL[graph]()
    G.add_edge(*list(G)[:2])
    G.add_edge(list(G)[1], list(G)[1])
    assert nx.transitivity(G, backend=B) == nx.transitivity(G)


@pytest.mark.parametrize("graph", UNDIRECTED)
def test_k_truss_is_networkx_subgraph(graph):
    """Nodes, neighbours in order, and every attribute, as NetworkX's copy of G."""
    G = ALL[graph]()
    G.graph["name"] = graph
    G.nodes[list(G)[0]]["color"] = "red"
    for k in range(-1, 8):
        got, want = nx.k_truss(G, k, backend=B), nx.k_truss(G, k)
        assert type(got) is type(want) and got.graph == want.graph and list(got) == list(want)
        assert [(v, list(got._adj[v].items())) for v in got] == \
            [(v, list(want._adj[v].items())) for v in want], k
        assert got._node == want._node


def test_k_truss_refuses_self_loops():
    with pytest.raises(nx.NetworkXNotImplemented, match="Input graph has self loops"):
        nx.k_truss(looped(), 3, backend=B)


@pytest.mark.parametrize("graph", {**CLUSTERED, **DIRECTED})
def test_degree_centrality(graph):
    G = {**CLUSTERED, **DIRECTED}[graph]()
    assert nx.degree_centrality(G, backend=B) == nx.degree_centrality(G)
    if G.is_directed():
        G.add_edge(list(G)[2], list(G)[2])
        assert nx.degree_centrality(G, backend=B) == nx.degree_centrality(G)
        assert nx.in_degree_centrality(G, backend=B) == nx.in_degree_centrality(G)
        assert nx.out_degree_centrality(G, backend=B) == nx.out_degree_centrality(G)
    for H in (nx.Graph(), nx.empty_graph(["a"])):
        assert nx.degree_centrality(H, backend=B) == nx.degree_centrality(H)


@pytest.mark.parametrize("graph", DIRECTED)
def test_strongly_connected_components(graph):
    G = ALL[graph]()
    got = list(nx.strongly_connected_components(G, backend=B))
    assert sorted(map(sorted, got)) == sorted(map(sorted, nx.strongly_connected_components(G)))
    # sinks first, as Tarjan's order: nothing a component reaches comes after it
    place = {v: k for k, part in enumerate(got) for v in part}
    assert all(place[u] >= place[v] for u, v in G.edges)
    assert nx.number_strongly_connected_components(G, backend=B) == len(got) > 1
    assert not nx.is_strongly_connected(G, backend=B)
    assert nx.is_strongly_connected(nx.cycle_graph(5, create_using=nx.DiGraph), backend=B)
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_strongly_connected(nx.DiGraph(), backend=B)


@pytest.mark.parametrize("seed", range(6))
def test_strongly_connected_sources_come_in_tarjans_order(seed):
    """The components nothing reaches come in the order NetworkX's Tarjan search finishes
    them (what its write_network_text draws from), on random DiGraphs whose node order is not
    sorted; every component still comes after those it reaches."""
    rng = np.random.default_rng(seed)
    n = 40
    G = nx.DiGraph()
    G.add_nodes_from(rng.permutation(n).tolist())
    G.add_edges_from(rng.integers(0, n, (60, 2)).tolist())
    got = list(nx.strongly_connected_components(G, backend=B))
    want = list(nx.strongly_connected_components(G))
    assert sorted(map(sorted, got)) == sorted(map(sorted, want))
    place = {v: k for k, part in enumerate(got) for v in part}
    assert all(place[u] >= place[v] for u, v in G.edges)

    def sources(parts):
        C = nx.condensation(G, parts)
        return [sorted(parts[c]) for c in C if C.in_degree[c] == 0]

    assert len(sources(want)) > 3
    assert sources(got) == sources(want)


def same_graph(got, want):
    assert list(got) == list(want) and list(got.edges(data=True)) == list(want.edges(data=True))


@pytest.mark.parametrize("graph", ALL)
def test_cores(graph):
    G = ALL[graph]()
    assert nx.core_number(G, backend=B) == nx.core_number(G)
    top = max(nx.core_number(G).values())
    for k in (None, 1, top):
        for f in (nx.k_core, nx.k_shell, nx.k_crust):
            same_graph(f(G, k, backend=B), f(G, k))
    for k in range(top + 1):
        same_graph(nx.k_corona(G, k, backend=B), nx.k_corona(G, k))
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        nx.core_number(looped(), backend=B)


@pytest.mark.parametrize("graph", ["karate", "weighted-digraph", "named-digraph"])
def test_hits_katz_eigenvector(graph):
    G = ALL[graph]()
    # HITS: NetworkX's ARPACK to 1e-10 against power iteration to 1e-12
    got, want = nx.hits(G, 1000, 1e-12, backend=B), nx.hits(G, 1000, 1e-10)
    close(got[0], want[0], 1e-7)
    close(got[1], want[1], 1e-7)
    # the same iterations as NetworkX: agreement to rounding
    for kw in ({}, {"weight": "weight", "alpha": 0.01}, {"normalized": False}):
        close(nx.katz_centrality(G, backend=B, **kw), nx.katz_centrality(G, **kw), 1e-12)
    close(nx.eigenvector_centrality(G, max_iter=1000, backend=B),
          nx.eigenvector_centrality(G, max_iter=1000), 1e-12)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.eigenvector_centrality(G, max_iter=1, backend=B)


def test_numpy_forms_against_exact_solutions():
    """Within 1e-9 of NetworkX's dense solve and ARPACK (the iterations run to 1e-13)."""
    G = nx.karate_club_graph()
    close(nx.katz_centrality_numpy(G, 0.1, backend=B), nx.katz_centrality_numpy(G, 0.1), 1e-9)
    beta = {v: 1 + v % 3 for v in reversed(list(G))}
    got = nx.katz_centrality_numpy(G, 0.01, beta, weight="weight", backend=B)
    assert list(got) == list(beta)  # NetworkX's order: beta's keys
    close(got, nx.katz_centrality_numpy(G, 0.01, beta, weight="weight"), 1e-9)
    close(nx.eigenvector_centrality_numpy(G, backend=B), nx.eigenvector_centrality_numpy(G), 1e-9)
    with pytest.raises(nx.AmbiguousSolution):
        nx.eigenvector_centrality_numpy(ALL["two-paths"](), backend=B)
    with pytest.raises(NotImplementedError, match="raised NotImplementedError"):
        nx.katz_centrality_numpy(G, 1.0, backend=B)  # alpha above 1 / spectral radius


@pytest.mark.parametrize("graph", UNDIRECTED)
def test_maximal_independent_set(graph):
    G = ALL[graph]()
    some = nx.maximal_independent_set(G, seed=3)[:3]  # independent, as it must be
    for nodes in (None, some):
        got = nx.maximal_independent_set(G, nodes, backend=B)
        assert len(got) == len(set(got)) and set(nodes or []) <= set(got)
        assert G.subgraph(got).number_of_edges() == 0
        assert nx.is_dominating_set(G, got)
    with pytest.raises(nx.NetworkXUnfeasible, match="not an independent set"):
        nx.maximal_independent_set(G, list(G.edges)[0], backend=B)
    with pytest.raises(nx.NetworkXUnfeasible, match="not a subset"):
        nx.maximal_independent_set(G, ["missing"], backend=B)


@pytest.mark.parametrize("graph", ALL)
def test_traversal_and_reachability(graph):
    G = ALL[graph]()
    source, last = next(iter(G)), list(G)[-1]
    for f in (nx.bfs_predecessors, nx.bfs_successors):
        for depth in (None, 1):
            assert list(f(G, source, depth, backend=B)) == list(f(G, source, depth))
    for distance in (0, 1, 2, 9):
        assert nx.descendants_at_distance(G, source, distance, backend=B) == \
            nx.descendants_at_distance(G, source, distance)
    assert nx.descendants(G, source, backend=B) == nx.descendants(G, source)
    assert nx.ancestors(G, source, backend=B) == nx.ancestors(G, source)
    assert nx.has_path(G, source, last, backend=B) == nx.has_path(G, source, last)
    assert nx.single_target_shortest_path_length(G, last, backend=B) == \
        nx.single_target_shortest_path_length(G, last)
    assert nx.shortest_path_length(G, target=last, backend=B) == \
        nx.shortest_path_length(G, target=last)
    assert dict(nx.all_pairs_shortest_path_length(G, 2, backend=B)) == \
        dict(nx.all_pairs_shortest_path_length(G, 2))
    assert dict(nx.shortest_path_length(G, backend=B)) == dict(nx.shortest_path_length(G))


def test_pair_length_and_missing_nodes_raise_networkx_errors():
    G = nx.disjoint_union(nx.path_graph(4), nx.path_graph(2))
    assert nx.shortest_path_length(G, 0, 3, backend=B) == 3
    with pytest.raises(nx.NetworkXNoPath, match="No path between 0 and 4"):
        nx.shortest_path_length(G, 0, 4, backend=B)
    with pytest.raises(nx.NodeNotFound, match="Target 9 is not in G"):
        nx.has_path(G, 0, 9, backend=B)
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the graph"):
        nx.descendants(G, 9, backend=B)


@pytest.mark.parametrize("graph", UNDIRECTED)
def test_link_prediction(graph):
    G = UNDIRECTED[graph]()
    nodes = list(G)
    ebunch = [(nodes[0], v) for v in nodes[1:12]] + [(nodes[3], nodes[3])]
    for f in (nx.jaccard_coefficient, nx.adamic_adar_index, nx.resource_allocation_index,
              nx.preferential_attachment):
        for pairs in (None, ebunch):
            if f is nx.adamic_adar_index and pairs is not None:
                pairs = pairs[:-1]     # a self pair's leaf neighbour divides by log(1)
            got, want = list(f(G, pairs, backend=B)), list(f(G, pairs))
            assert [(u, v) for u, v, _ in got] == [(u, v) for u, v, _ in want]
            assert all(abs(a[2] - b[2]) <= 1e-12 for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("graph", ALL)
def test_isolates_reciprocity_dominating(graph):
    G = ALL[graph]()
    G.add_node("lonely")
    assert list(nx.isolates(G, backend=B)) == list(nx.isolates(G))
    assert nx.number_of_isolates(G, backend=B) == nx.number_of_isolates(G)
    assert [nx.is_isolate(G, v, backend=B) for v in G] == [nx.is_isolate(G, v) for v in G]
    if G.is_directed():
        assert nx.overall_reciprocity(G, backend=B) == nx.overall_reciprocity(G)
        some = [v for v in G if G.degree(v)][:8]
        assert nx.reciprocity(G, some, backend=B) == nx.reciprocity(G, some)
        with pytest.raises(nx.NetworkXError, match="isolated nodes"):
            nx.reciprocity(G, "lonely", backend=B)
    else:
        for start in (None, next(iter(G))):
            D = nx.dominating_set(G, start, backend=B)
            assert nx.is_dominating_set(G, D) and (start is None or start in D)
    half = list(G)[::2]
    assert nx.is_dominating_set(G, half, backend=B) == nx.is_dominating_set(G, half)


@pytest.mark.parametrize("graph", {**CLUSTERED, **DIRECTED})
def test_bipartite_square_clustering_edge_betweenness(graph):
    G = {**CLUSTERED, **DIRECTED}[graph]()
    for H in (G, nx.grid_2d_graph(3, 4), nx.DiGraph([(0, 1), (2, 1), (3, 4)])):
        assert nx.is_bipartite(H, backend=B) == nx.is_bipartite(H)
        if nx.is_bipartite(H):
            assert nx.bipartite.color(H, backend=B) == nx.bipartite.color(H)
    if G.is_directed():
        G.add_edge(list(G)[2], list(G)[2])
        assert nx.clustering(G, backend=B) == nx.clustering(G)
        assert nx.average_clustering(G, backend=B) == nx.average_clustering(G)
    else:
        assert nx.square_clustering(G, backend=B) == nx.square_clustering(G)
        with pytest.raises(nx.NetworkXError, match="not bipartite"):
            nx.bipartite.color(nx.cycle_graph(5), backend=B)
    for kw in ({}, {"normalized": False}, {"k": 5, "seed": 3}):
        got = nx.edge_betweenness_centrality(G, backend=B, **kw)
        close(got, nx.edge_betweenness_centrality(G, **kw), 1e-12)


GENERATED = [
    lambda cu: nx.empty_graph("abc", cu), lambda cu: nx.null_graph(cu),
    lambda cu: nx.trivial_graph(cu), lambda cu: nx.path_graph(6, cu),
    lambda cu: nx.path_graph([3, "a", 3, 7], cu), lambda cu: nx.cycle_graph(1, cu),
    lambda cu: nx.cycle_graph(7, cu), lambda cu: nx.complete_graph("wxyz", cu),
    lambda cu: nx.star_graph(5, cu), lambda cu: nx.wheel_graph(6),
    lambda cu: nx.ladder_graph(4), lambda cu: nx.circular_ladder_graph(5),
    lambda cu: nx.grid_2d_graph(3, 4, create_using=cu),
    lambda cu: nx.grid_2d_graph("ab", [5, 6, 7], (True, False), cu),
    lambda cu: nx.grid_2d_graph(3, 4, True, cu),
]


@pytest.mark.parametrize("make", GENERATED)
@pytest.mark.parametrize("create_using", [None, nx.DiGraph])
def test_generators_make_networkx_graphs(make, create_using, monkeypatch):
    """Under backend_priority.generators the generators run in gblas2d and return a graph
    on the grid; converted, it is NetworkX's (nodes, edges and attributes)."""
    import gblas2d.nx

    monkeypatch.setattr(nx.config.backend_priority, "generators", [B])
    got = make(create_using)
    assert isinstance(got, gblas2d.nx.Gblas2dGraph)
    got = gblas2d.nx.convert_to_nx(got)
    monkeypatch.setattr(nx.config.backend_priority, "generators", [])
    want = make(create_using)
    assert type(got) is type(want) and got.graph == want.graph
    assert got._node == want._node and got._adj == want._adj


def test_generated_graph_runs_algorithms_without_networkx_graph():
    """A generated graph goes to the next call as it is; its matrix is the grid's."""
    G = nx.grid_2d_graph(5, 6, backend=B)
    assert G._graph is None
    assert nx.number_connected_components(G) == 1
    assert nx.triangles(G, backend=B) == dict.fromkeys(nx.grid_2d_graph(5, 6), 0)
    assert G.matrix.nvals == 2 * nx.grid_2d_graph(5, 6).number_of_edges()


@pytest.mark.parametrize("graph", ALL)
def test_closeness_and_harmonic(graph):
    G = ALL[graph]()
    assert nx.closeness_centrality(G, backend=B) == nx.closeness_centrality(G)
    assert nx.closeness_centrality(G, wf_improved=False, backend=B) == \
        nx.closeness_centrality(G, wf_improved=False)
    some = list(G)[:5]
    for kw in ({}, {"nbunch": some}, {"sources": some}):
        close(nx.harmonic_centrality(G, backend=B, **kw), nx.harmonic_centrality(G, **kw), 1e-12)


@pytest.mark.parametrize("graph", {**CLUSTERED, **DIRECTED})
def test_cuts_assortativity_selfloops(graph):
    G = {**CLUSTERED, **DIRECTED}[graph]()
    if G.is_directed():
        G.add_edge(list(G)[2], list(G)[2])
    nodes = list(G)
    S, T = nodes[::3], nodes[1::3]
    weight = "cost" if graph == "weighted" else "weight"
    # T overlapping S: an edge inside both counts once, as NetworkX's edge boundary
    for kw in ({}, {"T": T}, {"T": T + S[:4]}, {"weight": weight}, {"T": T, "weight": weight}):
        for f in (nx.cut_size, nx.normalized_cut_size, nx.conductance, nx.edge_expansion,
                  nx.mixing_expansion):
            if G.is_directed() and "T" not in kw and f in (nx.cut_size, nx.mixing_expansion):
                continue    # NetworkX's TypeError: its second edge boundary iterates None
            got, want = f(G, S, backend=B, **kw), f(G, S, **kw)
            assert got == pytest.approx(want, rel=1e-12, abs=0) and type(got) is type(want)
    for kw in ({}, {"weight": weight}):
        assert nx.volume(G, S + S[:2] + ["missing"], backend=B, **kw) == nx.volume(G, S, **kw) + \
            nx.volume(G, S[:2], **kw)
    assert nx.node_expansion(G, S, backend=B) == nx.node_expansion(G, S)
    assert nx.boundary_expansion(G, S, backend=B) == nx.boundary_expansion(G, S)
    with pytest.raises(nx.NetworkXError, match="The node missing is not in the graph"):
        nx.node_expansion(G, ["missing"], backend=B)
    assert nx.number_of_selfloops(G, backend=B) == nx.number_of_selfloops(G)
    directions = ["in", "out", "in+out"] if G.is_directed() else [None]
    for source in directions:
        for target in directions:
            kw = {"source": source, "target": target} if G.is_directed() else {}
            for more in ({}, {"weight": weight}, {"nodes": S}):
                assert nx.average_neighbor_degree(G, backend=B, **kw, **more) == \
                    pytest.approx(nx.average_neighbor_degree(G, **kw, **more), rel=1e-12)
                assert nx.average_degree_connectivity(G, backend=B, **kw, **more) == \
                    pytest.approx(nx.average_degree_connectivity(G, **kw, **more), rel=1e-12)
    with pytest.raises(nx.NetworkXError, match="source"):
        nx.average_neighbor_degree(G, source="bogus", backend=B)
    with pytest.raises(nx.NetworkXError, match="source"):
        nx.average_degree_connectivity(G, source="bogus", backend=B)


@pytest.mark.parametrize("graph", UNDIRECTED)
def test_node_connected_component_and_onion_layers(graph):
    G = UNDIRECTED[graph]()
    G.add_node("lonely")
    for v in (next(iter(G)), list(G)[-2], "lonely"):
        assert nx.node_connected_component(G, v, backend=B) == nx.node_connected_component(G, v)
    with pytest.raises(KeyError):
        nx.node_connected_component(G, "missing", backend=B)
    assert nx.onion_layers(G, backend=B) == nx.onion_layers(G)
    with pytest.raises(nx.NetworkXNotImplemented, match="contains self loops"):
        nx.onion_layers(looped(), backend=B)


def outcome(f, *args, **kwargs):
    """``f``'s answer, or the type and message of what it raised."""
    try:
        return f(*args, **kwargs)
    except (nx.NetworkXException, ValueError, ZeroDivisionError) as exc:
        return type(exc), str(exc)


def strong_digraph():
    """A strongly connected DiGraph with str keys: a directed cycle with random chords."""
    G = nx.gnp_random_graph(25, 0.08, seed=6, directed=True)
    nx.add_cycle(G, range(25))
    return named(G)


MEASURED = {
    "karate": nx.karate_club_graph,
    "named-small-world": lambda: named(nx.connected_watts_strogatz_graph(40, 4, 0.3, seed=1)),
    "tree": lambda: named(nx.random_labeled_tree(30, seed=2)),
    "two-paths": UNDIRECTED["two-paths"],
    "strong-digraph": strong_digraph,
    "weighted-digraph": weighted_digraph,
}


@pytest.mark.parametrize("graph", MEASURED)
def test_distance_measures(graph):
    """Eccentricity and what it gives, barycenter, average length and the Wiener index:
    NetworkX's answers exactly on (strongly) connected graphs, its errors on the others."""
    G = MEASURED[graph]()
    connected = graph not in ("two-paths", "weighted-digraph")
    some = list(G)[::7]
    for f in (nx.eccentricity, nx.diameter, nx.radius, nx.center, nx.periphery, nx.barycenter,
              nx.average_shortest_path_length, nx.wiener_index):
        got, want = outcome(f, G, backend=B), outcome(f, G)
        assert got == want and type(got) is type(want), f.__name__
        assert connected == (not isinstance(want, tuple)) or f is nx.wiener_index
    assert outcome(nx.eccentricity, G, v=some, backend=B) == outcome(nx.eccentricity, G, v=some)
    assert outcome(nx.eccentricity, G, v=some[0], backend=B) == \
        outcome(nx.eccentricity, G, v=some[0])
    if not G.is_directed():
        for f in (nx.diameter, nx.radius, nx.center, nx.periphery):
            assert outcome(f, G, usebounds=True, backend=B) == outcome(f, G, usebounds=True)
    if connected:
        assert nx.wiener_index(G, backend=B) == nx.wiener_index(G) < float("inf")


@pytest.mark.parametrize("G", [nx.Graph(), nx.DiGraph()])
def test_distance_measures_of_the_null_graph_raise_as_networkx(G):
    for f in (nx.diameter, nx.radius, nx.center, nx.periphery, nx.barycenter,
              nx.average_shortest_path_length):
        got, want = outcome(f, G, backend=B), outcome(f, G)
        assert got == want and isinstance(want, tuple | list), f.__name__
    assert nx.eccentricity(G, backend=B) == {}


@pytest.mark.parametrize("graph", {**UNDIRECTED, **MEASURED})
def test_efficiency(graph):
    G = {**UNDIRECTED, **MEASURED}[graph]()
    if G.is_directed():
        with pytest.raises(nx.NetworkXNotImplemented):
            nx.global_efficiency(G, backend=B)
        return
    G.add_edge(list(G)[1], list(G)[1])      # G[v] holds v: its subgraph for local efficiency
    assert nx.global_efficiency(G, backend=B) == pytest.approx(nx.global_efficiency(G),
                                                               rel=1e-12)
    assert nx.local_efficiency(G, backend=B) == pytest.approx(nx.local_efficiency(G), rel=1e-12)
    nodes = list(G)
    for u, v in zip(nodes[::5], nodes[3::5], strict=False):
        assert nx.efficiency(G, u, v, backend=B) == nx.efficiency(G, u, v)


@pytest.mark.parametrize("graph", {**ALL, **MEASURED})
def test_paths_in_networkx_order(graph):
    """The paths NetworkX builds, in its dict order; predecessors in its order; a shortest
    path between two nodes (NetworkX's meet-in-the-middle may pick another of equal length)."""
    G = {**ALL, **MEASURED}[graph]()
    nodes = list(G)
    for s in (nodes[0], nodes[-1]):
        for cutoff in (None, 0, 2):
            for f in (nx.single_source_shortest_path, nx.single_target_shortest_path):
                got, want = f(G, s, cutoff=cutoff, backend=B), f(G, s, cutoff=cutoff)
                assert got == want and list(got) == list(want)
            for kw in ({}, {"target": nodes[3]}, {"return_seen": True},
                       {"target": nodes[3], "return_seen": True}):
                got, want = nx.predecessor(G, s, cutoff=cutoff, backend=B, **kw), \
                    nx.predecessor(G, s, cutoff=cutoff, **kw)
                assert got == want
                if not kw:
                    assert list(got) == list(want)
    assert list(nx.all_pairs_shortest_path(G, backend=B)) == list(nx.all_pairs_shortest_path(G))
    assert dict(nx.all_pairs_shortest_path(G, cutoff=1, backend=B)) == \
        dict(nx.all_pairs_shortest_path(G, cutoff=1))
    lengths = dict(nx.all_pairs_shortest_path_length(G))
    for u, v in zip(nodes[::3], nodes[5::3], strict=False):
        if v not in lengths[u]:
            with pytest.raises(nx.NetworkXNoPath):
                nx.bidirectional_shortest_path(G, u, v, backend=B)
            continue
        path = nx.bidirectional_shortest_path(G, u, v, backend=B)
        assert path[0] == u and path[-1] == v and len(path) == lengths[u][v] + 1
        assert all(G.has_edge(a, b) for a, b in nx.utils.pairwise(path))
    with pytest.raises(nx.NodeNotFound, match="Source missing not in G"):
        nx.single_source_shortest_path(G, "missing", backend=B)
    with pytest.raises(nx.NodeNotFound, match="Target missing is not in G"):
        nx.bidirectional_shortest_path(G, nodes[0], "missing", backend=B)


REGULAR = {
    "cycle": lambda: named(nx.cycle_graph(9)),
    "complete": lambda: nx.complete_graph(5),
    "petersen": nx.petersen_graph,
    "random-regular": lambda: named(nx.random_regular_graph(3, 20, seed=3)),
    "two-cycles": lambda: nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(5)),
    "looped-cycle": lambda: nx.Graph([*nx.cycle_graph(6).edges, *((v, v) for v in range(6))]),
    "directed-cycle": lambda: named(nx.cycle_graph(8, create_using=nx.DiGraph)),
    "directed-path": lambda: nx.path_graph(6, create_using=nx.DiGraph),
}


@pytest.mark.parametrize("graph", {**REGULAR, **ALL})
def test_regular_euler_semiconnected_generalized_degree(graph):
    G = {**REGULAR, **ALL}[graph]()
    assert nx.is_regular(G, backend=B) is nx.is_regular(G)
    assert nx.is_eulerian(G, backend=B) is nx.is_eulerian(G)
    if graph in ("cycle", "complete", "petersen", "random-regular", "looped-cycle"):
        assert nx.is_regular(G, backend=B)
        assert nx.is_eulerian(G, backend=B) is (graph in ("cycle", "complete", "looped-cycle"))
    if G.is_directed():
        assert nx.is_semiconnected(G, backend=B) is nx.is_semiconnected(G)
        with pytest.raises(nx.NetworkXNotImplemented):
            nx.is_k_regular(G, 2, backend=B)
        return
    for k in (2, 3, 4):
        assert nx.is_k_regular(G, k, backend=B) is nx.is_k_regular(G, k)
    assert nx.generalized_degree(G, backend=B) == nx.generalized_degree(G)
    v = list(G)[2]
    assert nx.generalized_degree(G, v, backend=B) == nx.generalized_degree(G, v)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.is_semiconnected(G, backend=B)


def test_regular_semiconnected_known_answers():
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (5, 4)])
    assert not nx.is_semiconnected(D, backend=B)
    D.remove_edge(5, 4)
    D.add_edge(4, 5)
    assert nx.is_semiconnected(D, backend=B)
    assert nx.is_eulerian(nx.complete_graph(5), backend=B)
    assert not nx.is_eulerian(nx.complete_graph(4), backend=B)
    assert nx.is_k_regular(nx.petersen_graph(), 3, backend=B)
    assert nx.generalized_degree(nx.complete_graph(4), 0, backend=B) == {2: 3}
    for f in (nx.is_regular, nx.is_semiconnected, nx.is_eulerian):
        with pytest.raises(nx.NetworkXPointlessConcept):
            f(nx.DiGraph(), backend=B)


@pytest.mark.parametrize("call", [
    lambda G: nx.pagerank(G, personalization={0: 1}, backend=B),
    lambda G: nx.pagerank(G, dangling={0: 1}, backend=B),
    lambda G: nx.betweenness_centrality(G, weight="weight", backend=B),
    lambda G: nx.betweenness_centrality(G, endpoints=True, backend=B),
    lambda G: nx.single_source_dijkstra_path_length(G, 0, weight=lambda u, v, d: 1, backend=B),
    lambda G: nx.pagerank(nx.MultiGraph(G), backend=B),
    lambda G: nx.clustering(G.to_directed(), weight="weight", backend=B),
    lambda G: nx.square_clustering(G.to_directed(), backend=B),
    lambda G: nx.edge_betweenness_centrality(G, weight="weight", backend=B),
    lambda G: nx.path_graph(4, create_using=nx.MultiGraph, backend=B),
    lambda G: nx.complete_graph(4, create_using=nx.Graph(), backend=B),
    lambda G: nx.clustering(G, weight="weight", backend=B),
    lambda G: nx.average_clustering(G, weight="weight", backend=B),
    lambda G: nx.k_truss(G, 3.5, backend=B),
    lambda G: nx.bfs_edges(G, 0, sort_neighbors="sorted", backend=B),
    lambda G: nx.bfs_tree(G, 0, depth_limit="2", backend=B),
    lambda G: nx.maximal_independent_set(G, seed=1, backend=B),
    lambda G: nx.hits(nx.empty_graph(3), backend=B),
    lambda G: nx.shortest_path_length(G, 0, 5, weight="weight", backend=B),
    lambda G: nx.closeness_centrality(G, distance="weight", backend=B),
    lambda G: nx.harmonic_centrality(G, distance="weight", backend=B),
    lambda G: nx.dominating_set(G.to_directed(), backend=B),
    lambda G: nx.eccentricity(G, weight="weight", backend=B),
    lambda G: nx.eccentricity(G, sp=dict(nx.shortest_path_length(G)), backend=B),
    lambda G: nx.diameter(G, e=nx.eccentricity(G), backend=B),
    lambda G: nx.barycenter(G, attr="barycentricity", backend=B),
    lambda G: nx.average_shortest_path_length(G, weight="weight", backend=B),
    lambda G: nx.wiener_index(G, weight="weight", backend=B),
])
def test_unsupported_arguments_raise_with_explicit_backend(call):
    """With backend="gblas2d" NetworkX tries no other backend: can_run's refusal is a
    NotImplementedError."""
    with pytest.raises(NotImplementedError, match="gblas2d"):
        call(nx.karate_club_graph())


def test_unsupported_arguments_fall_back_under_backend_priority(monkeypatch):
    """Through ``backend_priority`` (no backend=), a call gblas2d refuses and a function it
    lacks both run in NetworkX, with nx.config.fallback_to_nx left False (the inputs are
    NetworkX graphs); a supported call runs in gblas2d."""
    import gblas2d.nx

    calls = []
    pagerank = gblas2d.nx.BackendInterface.pagerank

    @functools.wraps(pagerank)
    def counted(*args, **kwargs):
        calls.append(1)
        return pagerank(*args, **kwargs)

    monkeypatch.setattr(gblas2d.nx.BackendInterface, "pagerank", staticmethod(counted))
    monkeypatch.setattr(nx.config.backend_priority, "algos", [B])
    # karate is below should_run's break-even: let every size run here (test_nx_should_run.py
    # tests the break-even)
    monkeypatch.setattr(gblas2d.nx.backend, "BREAK_EVEN_EDGES", {"pagerank": 0})
    G = nx.karate_club_graph()
    assert nx.pagerank(G, personalization={0: 1}) == \
        nx.pagerank(G, personalization={0: 1}, backend="networkx")
    assert calls == []
    close(nx.pagerank(G), nx.pagerank(G, backend="networkx"), len(G) * 1e-6)
    assert calls == [1]
    assert nx.number_of_isolates(G) == nx.number_of_isolates(G, backend="networkx")


def test_registered_and_converts_both_ways():
    import gblas2d.nx

    assert B in nx.utils.backends.backends
    assert nx.utils.backends.backend_info[B]["backend_name"] == B
    G = nx.path_graph(["p", "q", "r"])
    H = gblas2d.nx.convert_from_nx(G, edge_attrs={"weight": 2})
    assert H.__networkx_backend__ == B and H.matrix.is_symmetric and H.matrix.nvals == 4
    assert gblas2d.nx.convert_to_nx(H) is G
    assert nx.pagerank(H) == pytest.approx(nx.pagerank(G), abs=1e-6)


# NetworkX's own tests of the functions added last (under networkx.algorithms, or
# networkx.generators), and the functions they must dispatch
NETWORKX_TESTS = [
    "traversal.tests.test_bfs::TestBFS", "tests.test_cluster::TestTriangles",
    "tests.test_cluster::TestClustering", "tests.test_cluster::TestTransitivity",
    "tests.test_cluster::TestAverageClustering", "tests.test_core::TestCore::test_k_truss",
    "centrality.tests.test_degree_centrality",
    "components.tests.test_strongly_connected::TestStronglyConnected", "tests.test_mis",
    "tests.test_link_prediction", "tests.test_reciprocity", "tests.test_isolate",
    "tests.test_dominating", "centrality.tests.test_closeness_centrality",
    "centrality.tests.test_harmonic_centrality", "shortest_paths.tests.test_unweighted",
    "bipartite.tests.test_basic", "tests.test_cluster::TestDirectedClustering",
    "tests.test_cluster::TestSquareClustering",
    "centrality.tests.test_betweenness_centrality::TestEdgeBetweennessCentrality",
    "generators.tests.test_classic", "generators.tests.test_lattice::TestGrid2DGraph",
    "tests.test_cuts", "assortativity.tests.test_neighbor_degree",
    "assortativity.tests.test_connectivity", "tests.test_wiener", "tests.test_efficiency",
    "tests.test_euler::TestIsEulerian", "tests.test_regular::TestIsRegular",
    "tests.test_regular::TestIsKRegular", "components.tests.test_semiconnected",
    "tests.test_cluster::TestGeneralizedDegree",
    "shortest_paths.tests.test_generic::TestAverageShortestPathLength",
    "tests.test_distance_measures::TestBarycenter",
    *(f"tests.test_distance_measures::TestDistance::test_{name}" for name in (
        "eccentricity", "diameter", "radius", "periphery", "center", "bound_center",
        "radius_exception")),
]
NETWORKX_TESTED = {
    "average_clustering", "bfs_edges", "bfs_layers", "bfs_tree", "clustering",
    "degree_centrality", "in_degree_centrality", "is_strongly_connected", "k_truss",
    "maximal_independent_set", "number_strongly_connected_components", "out_degree_centrality",
    "strongly_connected_components", "transitivity", "triangles", "adamic_adar_index",
    "jaccard_coefficient", "preferential_attachment", "resource_allocation_index",
    "overall_reciprocity", "reciprocity", "is_isolate", "isolates", "number_of_isolates",
    "dominating_set", "is_dominating_set", "closeness_centrality", "harmonic_centrality",
    "all_pairs_shortest_path_length", "shortest_path_length",
    "single_target_shortest_path_length", "bfs_predecessors", "bfs_successors",
    "descendants_at_distance", "color", "is_bipartite", "square_clustering",
    "edge_betweenness_centrality", "complete_graph", "cycle_graph", "empty_graph",
    "grid_2d_graph", "ladder_graph", "path_graph", "star_graph", "wheel_graph",
    "boundary_expansion", "conductance", "cut_size", "edge_expansion", "mixing_expansion",
    "node_expansion", "normalized_cut_size", "volume", "average_neighbor_degree",
    "average_degree_connectivity", "wiener_index", "efficiency", "global_efficiency",
    "local_efficiency", "is_eulerian", "is_regular", "is_k_regular", "is_semiconnected",
    "generalized_degree", "average_shortest_path_length", "barycenter", "eccentricity",
    "diameter", "radius", "periphery", "center", "single_source_shortest_path",
    "single_target_shortest_path", "all_pairs_shortest_path", "bidirectional_shortest_path",
    "predecessor",
}


@pytest.mark.serial_only
def test_networkx_own_tests_pass_on_the_backend(tmp_path):
    """A few of NetworkX's test classes, run as docs/networkx.md says (NetworkX converts each
    graph, calls gblas2d, and compares graphs it returns with its own): they pass, and the
    log NetworkX writes shows each of the functions ran in gblas2d, not in the fallback."""
    env = dict(os.environ, NETWORKX_TEST_BACKEND=B, NETWORKX_FALLBACK_TO_NX="True")
    tests = [f"networkx.{t}" if t.startswith("generators.") else f"networkx.algorithms.{t}"
             for t in NETWORKX_TESTS]
    done = subprocess.run([sys.executable, "-m", "pytest", "--pyargs", *tests, "-q",
                           "-p", "no:cacheprovider", "-o", "log_cli=true",
                           "--log-cli-level=DEBUG"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = set(re.findall(r"Using backend 'gblas2d' for call to '(\w+)'", done.stdout))
    assert ran >= NETWORKX_TESTED, NETWORKX_TESTED - ran


SCRIPT = """
import json, sys, networkx as nx
from gblas2d import default_grid
B = "gblas2d"
nx.config.warnings_to_ignore.add("cache")
G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"n{v}")
D = nx.relabel_nodes(nx.gnp_random_graph(30, 0.1, seed=4, directed=True), lambda v: f"d{v}")
out = {
    "pagerank": nx.pagerank(G, backend=B),
    "bc": nx.betweenness_centrality(G, k=5, backend=B),
    "sssp": nx.single_source_dijkstra_path_length(G, "n0", backend=B),
    "cc": sorted(map(sorted, nx.connected_components(G, backend=B))),
    "bfs_edges": list(nx.bfs_edges(D, "d0", reverse=True, backend=B)),
    "bfs_tree": list(nx.bfs_tree(G, "n5", depth_limit=2, backend=B).edges),
    "bfs_layers": list(nx.bfs_layers(G, ["n0", "n33", "n16"], backend=B)),
    "triangles": nx.triangles(G, backend=B),
    "clustering": nx.clustering(G, backend=B),
    "average_clustering": nx.average_clustering(G, backend=B),
    "transitivity": [nx.transitivity(G, backend=B), nx.transitivity(D, backend=B)],
    "k_truss": list(nx.k_truss(G, 4, backend=B).edges),
    "degree": [nx.degree_centrality(D, backend=B), nx.in_degree_centrality(D, backend=B)],
    "share": default_grid().nprocs,
    "jaccard": {"|".join(sorted(e[:2])): e[2] for e in nx.jaccard_coefficient(G, backend=B)},
    "closeness": nx.closeness_centrality(D, backend=B),
    "ancestors": sorted(nx.ancestors(D, "d0", backend=B)),
    "reciprocity": nx.reciprocity(D, ["d0", "d1", "d2"], backend=B),
}


# fails on the one rank that reads n33's 17 neighbours
def picky(neighbors):
    neighbors = list(neighbors)
    if len(neighbors) == 17:
        raise ValueError("17 neighbours")
    return neighbors


try:
    nx.bfs_edges(G, "n0", sort_neighbors=picky, backend=B)
except ValueError as exc:
    out["error"] = str(exc)
# a weight only rank 1 converts is not a number
W = nx.path_graph(6)
nx.set_edge_attributes(W, 1.0, "weight")
W[1][2]["weight"] = None
try:
    nx.single_source_dijkstra_path_length(W, 0, backend=B)
except NotImplementedError:
    out["refused"] = True
# a gblas2d graph: converted at its first call, again after a mutation; weights read at the call
C = nx.Graph(G, backend=B)
out["classes"] = [nx.number_connected_components(C), nx.triangles(C)]
C.add_edge("x", "y")
C["n0"]["n1"]["weight"] = 50
out["classes"] += [nx.number_connected_components(C), nx.triangles(C),
                   nx.single_source_dijkstra_path_length(C, "n0")]
# this process's own answer: a first layer of several str keys is in its set order
mine = list(nx.bfs_layers(G, ["n0", "n33", "n16"]))
with open(f"{sys.argv[1]}/rank{default_grid().rank}.json", "w") as f:
    json.dump([out, mine], f)
"""


@pytest.mark.mpi
@pytest.mark.serial_only
@pytest.mark.parametrize("nprocs", [2, 4])
def test_same_result_on_every_rank_under_mpiexec(tmp_path, nprocs):
    """Each rank converts its share of the edges; every rank gets NetworkX's answer (bc with
    k=5 and seed=None, and bfs_layers' first layer, as rank 0 has them), or the same error;
    a gblas2d graph (nx.Graph(backend="gblas2d")) converts on every rank at the same calls."""
    import json

    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    if mpiexec is None:
        pytest.fail("mpiexec not found: install the 'mpich' extra (pip install -e '.[test]')")
    script = tmp_path / "nx_script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([mpiexec, "-n", str(nprocs), sys.executable, str(script),
                           str(tmp_path)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(nprocs)]
    first, mine = results[0]
    assert all(out == first for out, _ in results) and first["share"] == nprocs
    # sort_neighbors failed, or a weight was not a number, on one rank: every rank raised
    assert first["error"] == "17 neighbours" and first["refused"]
    assert first["bfs_layers"] == mine
    G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"n{v}")
    D = nx.relabel_nodes(nx.gnp_random_graph(30, 0.1, seed=4, directed=True), lambda v: f"d{v}")
    want = nx.pagerank(G)
    assert all(abs(first["pagerank"][v] - want[v]) <= len(G) * 1e-6 for v in want)
    assert first["sssp"] == pytest.approx(nx.single_source_dijkstra_path_length(G, "n0"))
    assert first["cc"] == [sorted(G)]
    assert first["bfs_edges"] == [list(e) for e in nx.bfs_edges(D, "d0", reverse=True)]
    assert first["bfs_tree"] == [list(e) for e in nx.bfs_tree(G, "n5", depth_limit=2).edges]
    assert first["triangles"] == nx.triangles(G)
    assert first["clustering"] == nx.clustering(G)
    assert first["average_clustering"] == nx.average_clustering(G)
    assert first["transitivity"] == [nx.transitivity(G), nx.transitivity(D)]
    assert first["k_truss"] == [list(e) for e in nx.k_truss(G, 4).edges]
    assert first["degree"] == [nx.degree_centrality(D), nx.in_degree_centrality(D)]
    assert first["jaccard"] == pytest.approx(
        {"|".join(sorted(e[:2])): e[2] for e in nx.jaccard_coefficient(G)}, abs=1e-12)
    assert first["closeness"] == nx.closeness_centrality(D)
    assert first["ancestors"] == sorted(nx.ancestors(D, "d0"))
    assert first["reciprocity"] == nx.reciprocity(D, ["d0", "d1", "d2"])
    C = G.copy()
    C.add_edge("x", "y")
    C["n0"]["n1"]["weight"] = 50
    assert first["classes"][:4] == [1, nx.triangles(G), 2, nx.triangles(C)]
    assert first["classes"][4] == pytest.approx(nx.single_source_dijkstra_path_length(C, "n0"))


def test_a_graph_class_that_redefines_its_adjacency_is_declined():
    """NetworkX's _AntiGraph stores edges and answers their complement: the conversion, which
    reads the stored edges, would compute on the wrong graph, so can_run declines it and
    NetworkX runs the call itself."""
    from networkx.algorithms.approximation.kcomponents import _AntiGraph

    from gblas2d.nx import can_run

    anti = _AntiGraph(nx.path_graph(5))
    why = can_run("core_number", (anti,), {})
    assert isinstance(why, str) and "_AntiGraph redefines its adjacency" in why
    assert can_run("core_number", (nx.path_graph(5),), {}) is True
