"""core_number against networkx's core_number on undirected graphs (a Graph of kind
"undirected") and on directed ones (degree = in + out, an edge both ways counting twice), on
both engines (integer core numbers: exact)."""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_dense, from_edges, graph
from gblas2d.algorithms import Graph, core_number


def from_networkx(name, H):
    """Both engines' matrices of the networkx graph (each undirected edge both ways)."""
    rows, cols = np.array(list(H.edges), dtype=np.int64).reshape(-1, 2).T
    if not H.is_directed():
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    return from_edges(name, rows, cols, np.ones(len(rows), int), len(H))


def networkx_cores(H):
    cores = nx.core_number(H)
    return np.array([cores[v] for v in range(len(H))])


GRAPHS = {
    "karate": nx.karate_club_graph,
    "gnp-undirected": lambda: nx.gnp_random_graph(70, 0.08, seed=1),
    "gnp-directed": lambda: nx.gnp_random_graph(60, 0.06, seed=2, directed=True),
    # edges both ways and one way, so that an edge can count once or twice
    "reciprocal-directed": lambda: nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 0), (2, 3), (3, 2),
                                               (3, 4), (4, 5), (5, 3), (6, 7)]),
}


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", GRAPHS)
def test_matches_networkx(lib, name):
    H = GRAPHS[name]()
    want = networkx_cores(H)
    assert want.max() >= 2  # a graph with some depth
    A = from_networkx(name, H).on(lib)
    got = core_number(A if H.is_directed() else Graph(A, "undirected"))
    assert_dense(got, want, "INT64", what=name)


@pytest.mark.parametrize("lib", RUN_ON)
def test_symmetric_matrix_as_directed_graph_doubles_the_cores(lib):
    # A bare Matrix is a directed graph: each undirected edge, stored both ways, counts twice.
    H = nx.karate_club_graph()
    assert_dense(core_number(from_networkx("karate", H).on(lib)), 2 * networkx_cores(H), "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_self_loops_and_isolates(lib):
    # The LAGraph karate file is symmetric; self loops (ignored) and three isolated vertices
    # (core 0) added.
    g = graph("karate")
    rows, cols = g.csr.nonzero()
    n = g.n + 3
    rows, cols = np.r_[rows, 0, 5, 33], np.r_[cols, 0, 5, 33]
    A = from_edges("karate-loops", rows, cols, np.ones(len(rows), int), n).on(lib)
    H = nx.Graph(list(zip(*g.csr.nonzero(), strict=True)))
    want = np.r_[networkx_cores(H), 0, 0, 0]
    assert_dense(core_number(Graph(A, "undirected")), want, "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_empty(lib):
    cores = core_number(ENGINES[lib].Matrix("BOOL", 0, 0))
    assert (cores.size, cores.nvals, cores.dtype.name) == (0, 0, "INT64")
    assert_dense(core_number(ENGINES[lib].Matrix("BOOL", 3, 3)), [0, 0, 0], "INT64")
