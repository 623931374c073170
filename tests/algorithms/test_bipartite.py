"""bipartite_sides against networkx's is_bipartite and color, on both engines: bipartite graphs
(paths, even cycles, grids, a complete bipartite graph, a forest with isolated vertices, a
DiGraph read both ways) and graphs that are not (an odd cycle, karate, a self loop). Sides are
integers: exact. networkx colours the first node of each component 1 (ours is on side 0) and
isolated nodes 0 (as ours)."""

import networkx as nx
import numpy as np
import pytest
from _graphs import RUN_ON, assert_dense, from_edges
from gblas2d.algorithms import bipartite_sides


def from_networkx(name, H):
    """Both engines' matrices of the networkx graph with nodes 0 .. n-1 (an undirected edge
    both ways)."""
    rows, cols = np.array(list(H.edges), dtype=np.int64).reshape(-1, 2).T
    if not H.is_directed():
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    return from_edges(name, rows, cols, np.ones(len(rows), int), len(H))


def forest():
    H = nx.disjoint_union(nx.balanced_tree(2, 3), nx.path_graph(5))
    H.add_nodes_from([len(H), len(H) + 1])
    return H


BIPARTITE = {
    "path": lambda: nx.path_graph(7),
    "even-cycle": lambda: nx.cycle_graph(8),
    "grid": lambda: nx.grid_2d_graph(4, 5),
    "complete-bipartite": lambda: nx.complete_bipartite_graph(3, 4),
    "forest-and-isolates": forest,
    "digraph": lambda: nx.DiGraph([(0, 1), (2, 1), (2, 3), (4, 3), (5, 6)]),
}
NOT_BIPARTITE = {
    "odd-cycle": lambda: nx.cycle_graph(7),
    "karate": nx.karate_club_graph,
    "self-loop": lambda: nx.DiGraph([(0, 1), (2, 2)]),
}


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", BIPARTITE)
def test_sides_are_networkx_colours(lib, name):
    H = nx.convert_node_labels_to_integers(BIPARTITE[name]())
    color = nx.bipartite.color(H)
    isolated = set(nx.isolates(H))
    # networkx: 1 on the side of each component's first node, 0 on isolated nodes
    want = [0 if v in isolated else 1 - color[v] for v in range(len(H))]
    got = bipartite_sides(from_networkx(name, H).on(lib))
    assert got is not None
    assert_dense(got, want, "INT64", what=name)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", NOT_BIPARTITE)
def test_not_bipartite(lib, name):
    H = NOT_BIPARTITE[name]()
    assert not nx.is_bipartite(H)
    assert bipartite_sides(from_networkx(name, H).on(lib)) is None


@pytest.mark.parametrize("lib", RUN_ON)
def test_no_vertex(lib):
    g = from_edges("empty", np.array([], int), np.array([], int), np.array([], int), 0)
    got = bipartite_sides(g.on(lib))
    assert (got.size, got.nvals) == (0, 0)
