"""gblas2d.io.from_networkx / to_networkx against python-graphblas's, on every rank."""

import graphblas as G
import networkx as nx
import numpy as np
import pytest

import gblas2d as gb


def graph():
    g = nx.Graph()
    g.add_edge("a", "b", weight=2.0)
    g.add_edge("b", "c")
    g.add_edge("c", "d", weight=-1.5)
    g.add_node("lonely")
    return g


@pytest.mark.parametrize("kwargs", [{}, {"weight": None}, {"nodelist": ["d", "c", "b", "a"]},
                                    {"dtype": np.float32}])
def test_from_networkx_as_python_graphblas(kwargs):
    ours, theirs = gb.io.from_networkx(graph(), **kwargs), G.io.from_networkx(graph(), **kwargs)
    assert ours.shape == theirs.shape and ours.dtype.name == theirs.dtype.name
    for a, b in zip(ours.to_coo(), theirs.to_coo(), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("edge_attribute", ["weight", "w", None])
def test_to_networkx_as_python_graphblas(edge_attribute):
    A = gb.io.from_networkx(graph())
    ours = gb.io.to_networkx(A, edge_attribute=edge_attribute)
    theirs = G.io.to_networkx(G.io.from_networkx(graph()), edge_attribute=edge_attribute)
    assert isinstance(ours, nx.DiGraph) and list(ours.nodes) == list(theirs.nodes)
    assert sorted(ours.edges(data=True)) == sorted(theirs.edges(data=True))
