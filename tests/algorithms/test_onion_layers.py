"""onion_layers against networkx's onion_layers on undirected graphs (a Graph of kind
"undirected"), with isolated vertices and self loops (ignored here, refused by networkx), on
both engines (integer layers: exact)."""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_dense, from_edges
from gblas2d.algorithms import Graph, onion_layers


def from_networkx(name, H, loops=()):
    """Both engines' matrices of the undirected networkx graph (each edge both ways), with
    self loops at ``loops``."""
    rows, cols = np.array(list(H.edges), dtype=np.int64).reshape(-1, 2).T
    loops = np.array(loops, np.int64)
    rows, cols = np.r_[rows, cols, loops], np.r_[cols, rows, loops]
    return from_edges(name, rows, cols, np.ones(len(rows), int), len(H))


def networkx_layers(H):
    layers = nx.onion_layers(H)
    return np.array([layers[v] for v in range(len(H))])


GRAPHS = {
    "karate": nx.karate_club_graph,
    # isolated vertices make layer 1 on their own
    "gnp-isolated": lambda: nx.gnp_random_graph(60, 0.05, seed=3),
    "lollipop": lambda: nx.lollipop_graph(6, 5),  # the tail peels a vertex a layer
}


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", GRAPHS)
def test_matches_networkx(lib, name):
    H = GRAPHS[name]()
    want = networkx_layers(H)
    assert want.max() >= 4  # several waves
    A = from_networkx(name, H).on(lib)
    assert_dense(onion_layers(Graph(A, "undirected")), want, "INT64", what=name)


@pytest.mark.parametrize("lib", RUN_ON)
def test_self_loops_ignored(lib):
    H = nx.karate_club_graph()
    A = from_networkx("karate-loops", H, loops=[0, 5, 33]).on(lib)
    assert_dense(onion_layers(Graph(A, "undirected")), networkx_layers(H), "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_empty(lib):
    layers = onion_layers(ENGINES[lib].Matrix("BOOL", 0, 0))
    assert (layers.size, layers.nvals, layers.dtype.name) == (0, 0, "INT64")
    assert_dense(onion_layers(ENGINES[lib].Matrix("BOOL", 3, 3)), [1, 1, 1], "INT64")
