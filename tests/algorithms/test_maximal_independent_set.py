"""maximal_independent_set: independent and maximal (checked with networkx on the same
graph, self loops and edge directions ignored), containing ``include``, the same set on both
engines for a seed (the keys are a hash, not a random stream), and another set for another
seed."""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, LIBS, PATTERNS, RUN_ON, assert_same_error_everywhere, from_edges, graph
from gblas2d.algorithms import maximal_independent_set

from gblas2d.exceptions import DimensionMismatch, InvalidValue


def undirected(g):
    """The networkx graph of ``g``: edge directions dropped, self loops removed."""
    H = nx.Graph()
    H.add_nodes_from(range(g.n))
    H.add_edges_from((u, v) for u, v in zip(*g.csr.nonzero(), strict=True) if u != v)
    return H


def members(iset):
    assert iset.dtype.name == "BOOL"
    indices, values = iset.to_coo()
    assert values.all()
    return set(indices.tolist())


def assert_maximal_independent(H, chosen):
    assert not any(u in chosen and v in chosen for u, v in H.edges), "not independent"
    assert nx.is_dominating_set(H, chosen), "not maximal"


@pytest.mark.parametrize("name", PATTERNS)
def test_maximal_independent_on_both_engines(name):
    g = graph(name)
    H = undirected(g)
    sets = [members(maximal_independent_set(g.on(lib), seed=7)) for lib in LIBS]
    assert sets[0] == sets[1]
    assert_maximal_independent(H, sets[0])


@pytest.mark.parametrize("lib", RUN_ON)
def test_seeds_give_other_sets(lib):
    g = graph("karate")
    H = undirected(g)
    sets = [members(maximal_independent_set(g.on(lib), seed=s)) for s in range(6)]
    for chosen in sets:
        assert_maximal_independent(H, chosen)
    assert len({frozenset(s) for s in sets}) > 1
    assert members(maximal_independent_set(g.on(lib), seed=3)) == sets[3]


@pytest.mark.parametrize("lib", RUN_ON)
def test_include(lib):
    # Independent vertices the caller names are in the set, and it is still maximal.
    H = nx.karate_club_graph()
    rows, cols = np.array(list(H.edges)).T
    g = from_edges("karate", np.r_[rows, cols], np.r_[cols, rows], np.ones(2 * len(rows)), 34)
    for include in ([0, 33], [0, 9, 26], [16]):
        given = ENGINES[lib].Vector.from_coo(include, True, size=34)
        chosen = members(maximal_independent_set(g.on(lib), seed=1, include=given))
        assert set(include) <= chosen
        assert_maximal_independent(H, chosen)


@pytest.mark.parametrize("lib", RUN_ON)
def test_complete_and_empty_graphs(lib):
    n = 12
    rows, cols = np.nonzero(~np.eye(n, dtype=bool))
    complete = from_edges("K12", rows, cols, np.ones(len(rows)), n)
    for v in (0, 5, 11):
        given = ENGINES[lib].Vector.from_coo([v], True, size=n)
        assert members(maximal_independent_set(complete.on(lib), include=given)) == {v}
    assert len(members(maximal_independent_set(complete.on(lib)))) == 1
    assert members(maximal_independent_set(ENGINES[lib].Matrix("BOOL", 5, 5))) == set(range(5))
    assert maximal_independent_set(ENGINES[lib].Matrix("BOOL", 0, 0)).nvals == 0


def test_errors():
    g = graph("karate")
    assert_same_error_everywhere(InvalidValue, lambda lib: maximal_independent_set(
        g.on(lib), include=ENGINES[lib].Vector.from_coo([0, 1], True, size=g.n)),
        "not an independent set")
    loop = from_edges("loop", [0, 1], [0, 2], np.ones(2), 3)
    assert_same_error_everywhere(InvalidValue, lambda lib: maximal_independent_set(
        loop.on(lib), include=ENGINES[lib].Vector.from_coo([0], True, size=3)), "self loop")
    assert_same_error_everywhere(DimensionMismatch, lambda lib: maximal_independent_set(
        g.on(lib), include=ENGINES[lib].Vector("BOOL", 3)), "include.size (=3)")
    assert_same_error_everywhere(InvalidValue, lambda lib: maximal_independent_set(
        g.on(lib), seed=-1), "seed (=-1)")
