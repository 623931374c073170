"""square_clustering against networkx's square_clustering on undirected graphs, on both engines:
every quantity is an integer and the last step one division, as networkx's, so the values are
equal exactly (tolerance 0). Self loops are ignored; isolated vertices and leaves get 0."""

import networkx as nx
import numpy as np
import pytest
from _graphs import RUN_ON, assert_dense, from_edges
from gblas2d.algorithms import Graph, square_clustering


def from_networkx(name, H):
    """Both engines' matrices of the undirected networkx graph (each edge both ways)."""
    H = nx.convert_node_labels_to_integers(H)
    rows, cols = np.array(list(H.edges), dtype=np.int64).reshape(-1, 2).T
    rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    return H, from_edges(name, rows, cols, np.ones(len(rows), int), len(H))


def looped_karate():
    H = nx.karate_club_graph()
    H.add_edges_from([(0, 0), (7, 7)])
    H.add_node(34)
    return H


GRAPHS = {
    "karate-loops-isolate": looped_karate,
    "gnp": lambda: nx.gnp_random_graph(50, 0.12, seed=3),
    "grid": lambda: nx.grid_2d_graph(4, 5),
    "complete-bipartite": lambda: nx.complete_bipartite_graph(3, 5),
    "complete": lambda: nx.complete_graph(6),
}


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", GRAPHS)
def test_matches_networkx(lib, name):
    H, g = from_networkx(name, GRAPHS[name]())
    want = nx.square_clustering(H)
    got = square_clustering(Graph(g.on(lib), "undirected"))
    assert_dense(got, [want[v] for v in range(len(H))], "FP64", missing=None, what=name)


@pytest.mark.parametrize("lib", RUN_ON)
def test_known_answers(lib):
    # a 4-cycle closes its one square at every vertex; a path closes none
    _, cycle = from_networkx("c4", nx.cycle_graph(4))
    assert_dense(square_clustering(cycle.on(lib)), [1.0] * 4, "FP64", missing=None)
    _, path = from_networkx("p4", nx.path_graph(4))
    assert_dense(square_clustering(path.on(lib)), [0.0] * 4, "FP64", missing=None)
