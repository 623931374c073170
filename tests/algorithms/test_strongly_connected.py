"""strongly_connected_components against SciPy's strong components and networkx's, each
labelled by its smallest vertex id, on both engines (integer labels: exact)."""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, LIBS, PATTERNS, RUN_ON, assert_dense, from_edges, graph
from gblas2d.algorithms import strongly_connected_components
from scipy.sparse import csgraph


def strong_ref(g):
    """Each vertex's smallest strongly connected vertex id, from SciPy."""
    _, label = csgraph.connected_components(g.pattern, directed=True, connection="strong")
    smallest = np.full(label.max() + 1, g.n)
    np.minimum.at(smallest, label, np.arange(g.n))
    return smallest[label]


def from_networkx(name, D):
    rows, cols = np.array(list(D.edges), dtype=np.int64).reshape(-1, 2).T
    return from_edges(name, rows, cols, np.ones(len(rows), int), len(D))


@pytest.mark.parametrize("name", PATTERNS)
def test_matches_scipy_strong_components(name):
    g = graph(name)
    want = strong_ref(g)
    for lib in LIBS:
        assert_dense(strongly_connected_components(g.on(lib)), want, "INT64", what=lib)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("seed", range(3))
def test_matches_networkx(lib, seed):
    D = nx.gnp_random_graph(60, 0.04, seed=seed, directed=True)
    want = np.zeros(len(D), dtype=np.int64)
    for part in nx.strongly_connected_components(D):
        want[list(part)] = min(part)
    assert len(set(want.tolist())) > 3  # several components, not one giant one
    assert_dense(strongly_connected_components(from_networkx("gnp", D).on(lib)), want, "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_shapes(lib):
    # A path whose ids fall along its edges (19 -> 18 -> ... -> 10: one vertex a round), two
    # cycles joined one way (0..4 and 5..9, with 4 -> 5), a self loop (20) and an isolate (21).
    n = 22
    path = np.arange(11, 20)
    rows = np.r_[path, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 4, 20]]
    cols = np.r_[path - 1, [1, 2, 3, 4, 0, 6, 7, 8, 9, 5, 5, 20]]
    g = from_edges("shapes", rows, cols, np.ones(len(rows), int), n)
    want = np.r_[[0] * 5, [5] * 5, np.arange(10, 22)]
    assert np.array_equal(strong_ref(g), want)  # the reference agrees
    assert_dense(strongly_connected_components(g.on(lib)), want, "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_one_vertex_and_empty(lib):
    one = from_edges("one", [], [], np.array([], int), 1)
    assert_dense(strongly_connected_components(one.on(lib)), [0], "INT64")
    labels = strongly_connected_components(ENGINES[lib].Matrix("BOOL", 0, 0))
    assert (labels.size, labels.nvals, labels.dtype.name) == (0, 0, "INT64")
