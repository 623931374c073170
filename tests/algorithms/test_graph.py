"""The Graph object (``gblas2d.algorithms.Graph``): its cached transpose, degrees and symmetry
against SciPy, on both engines; algorithms given a Graph answer as given its matrix; and a
Graph used twice transposes once."""

import graphblas as grb
import numpy as np
import pytest
from _graphs import RUN_ON, agreed, assert_dense, assert_same_error_everywhere, graph
from gblas2d.algorithms import (
    Graph,
    betweenness_centrality,
    bfs_levels,
    connected_components,
    max_weight_matching,
    pagerank,
)

import gblas2d as gb
from gblas2d.exceptions import DimensionMismatch, InvalidValue


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", ["rand-dir-int", "rand-undir-float", "west0067-abs"])
def test_cached_properties_match_scipy(lib, name):
    g = graph(name)
    G = Graph(g.on(lib))
    pattern = (g.csr != 0).astype(np.int64)
    out_deg = np.asarray(pattern.sum(axis=1)).ravel()
    in_deg = np.asarray(pattern.sum(axis=0)).ravel()
    assert_dense(G.out_degree, np.where(out_deg > 0, out_deg, -1), "INT64", what="out")
    assert_dense(G.in_degree, np.where(in_deg > 0, in_deg, -1), "INT64", what="in")
    rows, cols, vals = G.AT.to_coo()
    want = g.csr.T.tocsr()
    want.sort_indices()
    got_keys = np.asarray(rows, np.int64) * g.n + np.asarray(cols, np.int64)
    want_rows = np.repeat(np.arange(g.n), np.diff(want.indptr))
    assert agreed(np.array_equal(got_keys, want_rows * g.n + want.indices) and
                  np.allclose(vals, want.data))
    symmetric = abs(g.csr - g.csr.T).sum() == 0
    assert agreed(G.is_symmetric == symmetric)
    assert agreed(G.AT is G.AT and G.out_degree is G.out_degree)


def test_an_undirected_graph_is_its_own_transpose():
    g = graph("rand-undir-float")
    G = Graph(g.gb, kind="undirected")
    assert agreed(G.AT is g.gb and G.is_symmetric and G.in_degree is G.out_degree)


def test_a_symmetric_generator_needs_no_transpose():
    A = gb.generators.rmat(8, 4, symmetric=True, seed=1)
    with gb.recording() as rec:
        G = Graph(A)
        AT = G.AT
    assert agreed(AT is A and rec.bytes() == 0)


@pytest.mark.parametrize("lib", RUN_ON)
def test_algorithms_answer_the_same_given_a_graph(lib):
    g = graph("rand-dir-int")
    A = g.on(lib)
    G = Graph(A)
    sources = g.sources(batch=True)
    for run in (lambda M: bfs_levels(M, sources), lambda M: betweenness_centrality(M, sources),
                connected_components, pagerank, max_weight_matching):
        assert agreed(run(G).isequal(run(A)))


def test_a_graph_used_twice_transposes_once():
    """The second batched BFS on one Graph moves fewer bytes than the first, which made A'
    (at one rank nothing moves, and the transpose is made once all the same)."""
    g = graph("rand-dir-int")
    G = Graph(g.gb)
    sources = g.sources(batch=True)
    moved = []
    for _ in range(2):
        with gb.recording() as rec:
            bfs_levels(G, sources)
        moved.append(rec.bytes())
    first_at = G.AT
    bfs_levels(G, sources)
    ok = G.AT is first_at and (moved[1] < moved[0] if gb.default_grid().nprocs > 1 else True)
    assert agreed(ok), moved


def test_bad_graphs_raise_everywhere():
    """The same error, with the same text, on both engines and every rank."""
    def matrix(lib, nrows, ncols):
        return gb.Matrix(gb.dtypes.FP64, nrows, ncols) if lib == "gblas2d" else \
            grb.Matrix("FP64", nrows, ncols)

    assert_same_error_everywhere(DimensionMismatch, lambda lib: Graph(matrix(lib, 3, 4)),
                                 "square")
    assert_same_error_everywhere(InvalidValue,
                                 lambda lib: Graph(matrix(lib, 3, 3), kind="mixed"), "kind")
    with pytest.raises(TypeError, match="Matrix"):
        Graph(np.eye(3))
