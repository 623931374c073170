"""The NetworkX backend "gblas2d" (gblas2d/nxbackend.py) against NetworkX's own answers.

Each dispatched function runs on a few graphs (karate with its weights, a random graph with
string node keys, a DiGraph with dangling nodes, a weighted graph) with ``backend="gblas2d"``
and must equal NetworkX: floats within 1e-12 (betweenness) or NetworkX's pagerank tolerance,
integers and sets exactly, dicts keyed by the original node keys.
"""

import functools
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
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


@pytest.mark.parametrize("call", [
    lambda G: nx.pagerank(G, personalization={0: 1}, backend=B),
    lambda G: nx.pagerank(G, dangling={0: 1}, backend=B),
    lambda G: nx.betweenness_centrality(G, weight="weight", backend=B),
    lambda G: nx.betweenness_centrality(G, endpoints=True, backend=B),
    lambda G: nx.single_source_dijkstra_path_length(G, 0, weight=lambda u, v, d: 1, backend=B),
    lambda G: nx.pagerank(nx.MultiGraph(G), backend=B),
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
    from gblas2d import nxbackend

    calls = []
    pagerank = nxbackend.BackendInterface.pagerank

    @functools.wraps(pagerank)
    def counted(*args, **kwargs):
        calls.append(1)
        return pagerank(*args, **kwargs)

    monkeypatch.setattr(nxbackend.BackendInterface, "pagerank", staticmethod(counted))
    monkeypatch.setattr(nx.config.backend_priority, "algos", [B])
    G = nx.karate_club_graph()
    assert nx.pagerank(G, personalization={0: 1}) == \
        nx.pagerank(G, personalization={0: 1}, backend="networkx")
    assert calls == []
    close(nx.pagerank(G), nx.pagerank(G, backend="networkx"), len(G) * 1e-6)
    assert calls == [1]
    assert nx.number_of_isolates(G) == nx.number_of_isolates(G, backend="networkx")


def test_registered_and_converts_both_ways():
    from gblas2d import nxbackend

    assert B in nx.utils.backends.backends
    assert nx.utils.backends.backend_info[B]["backend_name"] == B
    G = nx.path_graph(["p", "q", "r"])
    H = nxbackend.convert_from_nx(G, edge_attrs={"weight": 2})
    assert H.__networkx_backend__ == B and H.matrix.is_symmetric and H.matrix.nvals == 4
    assert nxbackend.convert_to_nx(H) is G
    assert nx.pagerank(H) == pytest.approx(nx.pagerank(G), abs=1e-6)


SCRIPT = """
import json, sys, networkx as nx
from gblas2d import default_grid
G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"n{v}")
out = {
    "pagerank": nx.pagerank(G, backend="gblas2d"),
    "bc": nx.betweenness_centrality(G, k=5, backend="gblas2d"),
    "sssp": nx.single_source_dijkstra_path_length(G, "n0", backend="gblas2d"),
    "cc": sorted(map(sorted, nx.connected_components(G, backend="gblas2d"))),
    "share": default_grid().nprocs,
}
with open(f"{sys.argv[1]}/rank{default_grid().rank}.json", "w") as f:
    json.dump(out, f)
"""


@pytest.mark.mpi
@pytest.mark.serial_only
def test_same_result_on_every_rank_under_mpiexec(tmp_path):
    """Two ranks each convert half of the edges; both get NetworkX's answer (bc with k=5 and
    seed=None: rank 0's sample is used everywhere)."""
    import json

    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    if mpiexec is None:
        pytest.fail("mpiexec not found: install the 'mpich' extra (pip install -e '.[test]')")
    script = tmp_path / "nx_script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([mpiexec, "-n", "2", sys.executable, str(script), str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    first, second = (json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1))
    assert first == second and first["share"] == 2
    G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"n{v}")
    want = nx.pagerank(G)
    assert all(abs(first["pagerank"][v] - want[v]) <= len(G) * 1e-6 for v in want)
    assert first["sssp"] == pytest.approx(nx.single_source_dijkstra_path_length(G, "n0"))
    assert first["cc"] == [sorted(G)]
