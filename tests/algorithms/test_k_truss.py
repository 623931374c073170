"""k_truss against networkx.k_truss (edges) and the support counted in networkx's truss (values),
against the triangle counts LAGraph's test_KTruss asserts for the 3-truss, and its input checks,
on both engines.

Supports are integers, so every comparison is exact.
"""

import functools

import networkx as nx
import numpy as np
import pytest
from _graphs import (
    ENGINES,
    LIBS,
    RUN_ON,
    UNDER_MPI,
    agreed,
    assert_same_error_everywhere,
    from_scipy,
    graph,
)
from gblas2d.algorithms import Graph, k_truss

import gblas2d as gb
import gblas2d.io
from gblas2d.exceptions import DimensionMismatch, InvalidValue

# LAGraph's experimental/test/test_KTruss.c: the triangles of each file's 3-truss, sum(C) / 6
# (self loops deleted first)
LAGRAPH_TRIANGLES = {
    "A": 11, "jagmesh7": 2016, "karate": 45, "ldbc-cdlp-undirected-example": 6,
    "ldbc-undirected-example": 4, "ldbc-wcc-example": 5,
}
# symmetric graphs: generated, random (self loops, isolated vertices), LAGraph files (LFAT5 has a
# full diagonal)
GRAPHS = ["rmat", "mesh", "rand-undir-float", "rand-undir-sparse-int", "karate", "jagmesh7",
          "LFAT5"]
if UNDER_MPI:
    GRAPHS = ["rand-undir-sparse-int", "karate"]
    LAGRAPH_TRIANGLES = {"karate": 45, "ldbc-wcc-example": 5}


@functools.cache
def example(name):
    """Collective. A generated graph or a graph of _graphs."""
    if name == "rmat":
        return from_scipy(name, gblas2d.io.to_scipy_sparse(
            gb.generators.rmat(7, 8, seed=3, symmetric=True)))
    if name == "mesh":
        return from_scipy(name, gblas2d.io.to_scipy_sparse(
            gb.generators.grid_graph(6, 7, diagonal=True)))
    return graph(name)


def networkx_graph(g):
    H = nx.from_scipy_sparse_array(g.pattern)
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return H


def expected(H, k):
    """(rows, cols, supports) of networkx's k-truss of H, each edge both ways, row-major."""
    T = nx.k_truss(H, k)
    keys = sorted((u, v) for a, b in T.edges for u, v in ((a, b), (b, a)))
    support = [len(set(T[u]) & set(T[v])) for u, v in keys]
    rows, cols = (np.array([e[i] for e in keys], dtype=np.int64) for i in (0, 1))
    return rows, cols, np.array(support, dtype=np.int64)


def assert_truss(C, want, lib, what):
    """Collective on gblas2d: C is INT64 and holds exactly ``want``'s entries."""
    rows, cols, vals = C.to_coo()
    order = np.lexsort((cols, rows))
    got = (rows[order].astype(np.int64), cols[order].astype(np.int64), vals[order])
    ok = C.dtype.name == "INT64" and \
        all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
    assert agreed(ok) if lib == "gblas2d" else ok, what


@pytest.mark.parametrize("name", GRAPHS)
def test_every_k_matches_networkx(name):
    g = example(name)
    H = networkx_graph(g)
    k = 3
    while True:
        want = expected(H, k)
        for lib in LIBS:
            assert_truss(k_truss(g.on(lib), k), want, lib, f"{name} {lib} k={k}")
        if len(want[0]) == 0:
            break
        k += 1
    assert k > 3 or name == "LFAT5"  # a graph without triangles has an empty 3-truss


@pytest.mark.parametrize("name", LAGRAPH_TRIANGLES)
def test_lagraph_3truss_triangles(name):
    g = example(name)
    for lib in LIBS:
        C = k_truss(g.on(lib), 3)
        total = int(C.reduce_scalar().new().value or 0)
        assert total == 6 * LAGRAPH_TRIANGLES[name], f"{lib}: {total}"


@pytest.mark.parametrize("lib", RUN_ON)
def test_truss_of_a_truss_and_a_clique(lib):
    # the 4-truss of the 3-truss is the 4-truss (SuiteSparse's gbtest50), also from a Graph
    g = example("karate")
    four = k_truss(g.on(lib), 4)
    again = k_truss(Graph(k_truss(g.on(lib), 3), "undirected"), 4)
    assert agreed(four.isequal(again)) if lib == "gblas2d" else four.isequal(again)
    # K6 with a self loop on every vertex and a pendant vertex 6: every k <= 6 keeps the
    # clique, each edge on 4 triangles; the 7-truss is empty
    rows, cols = np.nonzero(np.ones((6, 6)))
    rows, cols = np.r_[rows, 5, 6], np.r_[cols, 6, 5]
    A = ENGINES[lib].Matrix.from_coo(rows, cols, 1, nrows=7, ncols=7)
    clique = [(u, v) for u in range(6) for v in range(6) if u != v]
    want = (np.array([e[0] for e in clique]), np.array([e[1] for e in clique]),
            np.full(len(clique), 4))
    for k in (3, 6):
        assert_truss(k_truss(A, k), want, lib, f"K6, k={k}")
    empty = (np.empty(0, np.int64),) * 3
    assert_truss(k_truss(A, 7), empty, lib, "K6, k=7")
    assert_truss(k_truss(ENGINES[lib].Matrix("BOOL", 5, 5), 3), empty, lib, "no edges")


def test_bad_inputs_are_refused_alike():
    def matrix(lib, rows, cols, nrows, ncols):
        return ENGINES[lib].Matrix.from_coo(rows, cols, 1, nrows=nrows, ncols=ncols)

    square = {lib: matrix(lib, [0, 1], [1, 0], 3, 3) for lib in LIBS}
    assert_same_error_everywhere(
        DimensionMismatch, lambda lib: k_truss(matrix(lib, [0], [1], 3, 4), 3),
        "k_truss needs a square Matrix, got Matrix.nrows (=3) and Matrix.ncols (=4)")
    assert_same_error_everywhere(
        InvalidValue, lambda lib: k_truss(matrix(lib, [0, 1, 1], [1, 0, 2], 3, 3), 3),
        "k_truss needs a symmetric Matrix (an undirected graph): 1 of its 3 off-diagonal")
    assert_same_error_everywhere(
        InvalidValue, lambda lib: k_truss(square[lib], 2), "k (=2) must be at least 3")
    assert_same_error_everywhere(
        TypeError, lambda lib: k_truss(square[lib], 3.0), "k must be an integer, got float")
    assert_same_error_everywhere(
        TypeError, lambda lib: k_truss(square[lib], True), "k must be an integer, got bool")

