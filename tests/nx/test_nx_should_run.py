"""``should_run``: NetworkX, choosing a backend itself (``backend_priority``), runs a call on a
graph below gblas2d's measured break-even in NetworkX; ``backend="gblas2d"`` runs at any
size."""

import networkx as nx
import pytest

from gblas2d.nx import backend


def _graph_with_edges(m):
    return nx.gnm_random_graph(max(2 * m, 10), m, seed=1)


@pytest.fixture
def prefer_gblas2d():
    previous = list(nx.config.backend_priority.algos)
    nx.config.backend_priority.algos = ["gblas2d"]
    nx.config.warnings_to_ignore.add("cache")
    yield
    nx.config.backend_priority.algos = previous


def test_small_graphs_are_declined_with_a_reason():
    for name in ("pagerank", "average_clustering", "bfs_layers"):
        m = backend.break_even_edges(name)
        small, large = _graph_with_edges(m - 1), _graph_with_edges(m)
        why = backend.should_run(name, (small,), {})
        assert isinstance(why, str) and f"{m - 1} edges" in why
        assert backend.should_run(name, (large,), {}) is True
    # measured functions have their own break-even, the others the largest
    assert backend.break_even_edges("average_clustering") < backend.break_even_edges("pagerank")
    assert backend.break_even_edges("bfs_layers") == max(backend.BREAK_EVEN_EDGES.values())
    # a generator has no graph to measure
    assert backend.should_run("path_graph", (5,), {}) is True


def test_automatic_dispatch_follows_it(prefer_gblas2d):
    """Through backend_priority a small graph is never converted (it ran in NetworkX), a large
    one is; backend="gblas2d" converts the small one too."""
    m = backend.break_even_edges("pagerank")
    small, large = _graph_with_edges(m - 1), _graph_with_edges(m)
    nx.pagerank(small)
    assert "gblas2d" not in str(small.__networkx_cache__)
    nx.pagerank(large)
    assert "gblas2d" in str(large.__networkx_cache__)
    nx.pagerank(small, backend="gblas2d")
    assert "gblas2d" in str(small.__networkx_cache__)
