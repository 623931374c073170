"""Edge values under NetworkX's conversion cache (``nx.config.cache_converted_graphs``, on by
default): a call must compute with the attribute it names, whatever conversion the cache hands it.

NetworkX reuses a conversion made for another call when it thinks it holds enough: one made to
preserve every attribute (k_truss and the k-core family ask for that) for any attribute, and one
holding an attribute for a call that asks for none. A gblas2d conversion holds one attribute at
most (none for "every attribute"), so the functions that read edge values take them from
``Gblas2dGraph.adjacency(weight)``, not from whatever matrix came. Each case makes the call
that fills the cache, then a call with other weights, and compares with NetworkX.
"""

import networkx as nx
import pytest

B = "gblas2d"


@pytest.fixture(autouse=True)
def conversion_cache():
    """The cache on, as NetworkX's default; its notice on reuse silenced (warnings are
    errors here)."""
    before = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = True
    nx.config.warnings_to_ignore.add("cache")
    yield
    nx.config.cache_converted_graphs = before
    nx.config.warnings_to_ignore.discard("cache")


def worst(got, want):
    return max(abs(got[v] - want[v]) for v in want)


def graph():
    """Karate with its edge weights, and a second attribute on every edge."""
    G = nx.karate_club_graph()
    for k, (u, v) in enumerate(G.edges):
        G[u][v]["cost"] = 1 + k % 3
    return G


FILLS = {
    "every attribute (k_truss)": lambda G: nx.k_truss(G, 3, backend=B),
    "every attribute (k_core)": lambda G: nx.k_core(G, backend=B),
    "weight": lambda G: nx.pagerank(G, backend=B),
    "cost": lambda G: nx.single_source_dijkstra_path_length(G, 0, weight="cost", backend=B),
}


@pytest.mark.parametrize("fill", FILLS)
def test_cached_conversion_gives_the_values_asked_for(fill):
    G = graph()
    FILLS[fill](G)
    assert G.__networkx_cache__["backends"][B]
    # NetworkX stops pagerank at an L1 change below n * tol
    assert worst(nx.pagerank(G, backend=B), nx.pagerank(G)) <= len(G) * 1e-6
    assert worst(nx.pagerank(G, weight=None, backend=B), nx.pagerank(G, weight=None)) <= \
        len(G) * 1e-6
    for weight in ("weight", "cost"):
        assert nx.single_source_bellman_ford_path_length(G, 0, weight, backend=B) == \
            nx.single_source_bellman_ford_path_length(G, 0, weight)
        assert nx.volume(G, [0, 1, 2], weight, backend=B) == nx.volume(G, [0, 1, 2], weight)
    for weight in (None, "weight"):
        kw = {"alpha": 0.01, "weight": weight}
        assert worst(nx.katz_centrality(G, backend=B, **kw), nx.katz_centrality(G, **kw)) <= 1e-12
        assert worst(nx.eigenvector_centrality(G, max_iter=1000, weight=weight, backend=B),
                     nx.eigenvector_centrality(G, max_iter=1000, weight=weight)) <= 1e-12
        assert nx.cut_size(G, [0, 1, 2], weight=weight, backend=B) == \
            nx.cut_size(G, [0, 1, 2], weight=weight)
        assert nx.average_neighbor_degree(G, weight=weight, backend=B) == \
            pytest.approx(nx.average_neighbor_degree(G, weight=weight), rel=1e-12)
    # hits reads "weight": NetworkX's ARPACK to its default tol against power iteration
    got, want = nx.hits(G, backend=B), nx.hits(G)
    assert worst(got[0], want[0]) <= 1e-7 and worst(got[1], want[1]) <= 1e-7


def test_directed_in_neighbours_take_the_values_asked_for():
    G = nx.gnp_random_graph(30, 0.1, seed=4, directed=True)
    for k, (u, v) in enumerate(G.edges):
        G[u][v]["weight"] = 1 + k % 4
    nx.k_core(G, backend=B)
    for source in ("in", "out", "in+out"):
        kw = {"source": source, "target": "in", "weight": "weight"}
        assert nx.average_neighbor_degree(G, backend=B, **kw) == \
            pytest.approx(nx.average_neighbor_degree(G, **kw), rel=1e-12)
        assert nx.average_degree_connectivity(G, backend=B, **kw) == \
            pytest.approx(nx.average_degree_connectivity(G, **kw), rel=1e-12)
