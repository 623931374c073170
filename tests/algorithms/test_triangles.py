"""triangle_count and triangles against networkx and LAGraph's known counts, and
local_clustering_coefficient against networkx.clustering (undirected) and a brute-force
Graphalytics reference written here (directed), on both engines.

Counts are integers and compared exactly; coefficients are one division each and compared to
rel 1e-12, except LAGraph's table for west0067, printed to 6 digits (abs 1e-6).
"""

import functools

import graphblas as G
import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from _graphs import (
    DATA,
    ENGINES,
    LIBS,
    RUN_ON,
    UNDER_MPI,
    agreed,
    assert_dense,
    assert_same_error_everywhere,
    from_edges,
    from_scipy,
    graph,
)
from gblas2d.algorithms import local_clustering_coefficient, triangle_count, triangles

import gblas2d as gb
import gblas2d.io
from gblas2d.exceptions import DimensionMismatch, InvalidValue

SANDIA = ["sandia_ll", "sandia_uu", "sandia_lut", "sandia_ult"]
# (method, presort): every Sandia method in degree order and in vertex order, and the two
# methods LAGraph never sorts for
CASES = [(m, p) for m in SANDIA for p in (True, False)] + [("cohen", None), ("burkhardt", None)]
# LAGraph's src/test/test_TriangleCount.c: the counts it asserts for its data files (after
# deleting the diagonal); each is also checked against networkx below.
LAGRAPH_COUNTS = {
    "karate": 45, "A": 11, "jagmesh7": 2016, "ldbc-cdlp-undirected-example": 6,
    "ldbc-undirected-example": 4, "ldbc-wcc-example": 5, "LFAT5": 0, "tree-example": 0,
    "bcsstk13": 342300,
}
# Symmetric test graphs: generated ones, the random ones of _graphs (self loops, repeats,
# isolated vertices) and LAGraph files (jagmesh7 and LFAT5 have a full diagonal).
UNDIRECTED = ["rmat", "erdos-renyi", "mesh", "rand-undir-float", "rand-undir-sparse-int",
              "karate", "jagmesh7", "LFAT5", "ldbc-undirected-example"]
DIRECTED = ["rand-dir-int", "rand-dir-sparse-float", "west0067", "ldbc-directed-example",
            "ldbc-cdlp-directed-example"]
if UNDER_MPI:
    UNDIRECTED = ["rmat", "mesh", "rand-undir-sparse-int", "karate", "jagmesh7"]
    DIRECTED = ["rand-dir-int", "west0067"]

# LAGraph's experimental/test/test_lcc.c: the Graphalytics LCC of west0067 (self edges
# removed), to 6 digits.
LCC_WEST0067 = [
    0.0909091, 0.0238095, 0.0714286, 0.0238095, 0.125, 0.119048, 0.178571, 0.133333,
    0.0952381, 0.0833333, 0.0666667, 0.1, 0.0892857, 0.0714286, 0.138889, 0.0555556, 0.0694444,
    0.0555556, 0.0714286, 0.0769231, 0.0333333, 0.0666667, 0.0666667, 0.0333333, 0.0694444,
    0.0444444, 0.0555556, 0.0777778, 0.0333333, 0, 0.0904762, 0.0535714, 0.0714286, 0.107143,
    0.0892857, 0, 0.0681818, 0.0357143, 0.0178571, 0.0666667, 0.0555556, 0.0694444, 0.0666667,
    0.111111, 0.0444444, 0.142857, 0.166667, 0.2, 0.0448718, 0.166667, 0.166667, 0.119048,
    0.166667, 0.190476, 0.104167, 0.0333333, 0.0444444, 0.0444444, 0.0777778, 0.0416667,
    0.0222222, 0.0972222, 0.142857, 0.0416667, 0.0555556, 0.196429, 0.155556,
]


@functools.cache
def example(name):
    """Collective. A generated graph, bcsstk13 (gzipped), or a graph of _graphs."""
    if name == "rmat":
        return from_scipy(name, gblas2d.io.to_scipy_sparse(
            gb.generators.rmat(7, 8, seed=3, symmetric=True)))
    if name == "erdos-renyi":
        return from_scipy(name, gblas2d.io.to_scipy_sparse(
            gb.generators.erdos_renyi(200, 1200, seed=4, symmetric=True)))
    if name == "mesh":
        return from_scipy(name, gblas2d.io.to_scipy_sparse(
            gb.generators.grid_graph(7, 9, diagonal=True)))
    if name == "bcsstk13":
        return from_scipy(name, sp.csr_array(scipy.io.mmread(DATA / "bcsstk13.mtx.gz")))
    return graph(name)


def networkx_graph(g):
    return nx.from_scipy_sparse_array(g.pattern)


def assert_count(got, want, lib, what=""):
    """A Python int equal to ``want``; on gblas2d, the same on every rank (collective)."""
    ok = type(got) is int and got == want
    if lib == "gblas2d":
        seen = gb.default_grid().comm.allgather_object(got)
        assert agreed(ok) and all(s == got for s in seen), f"{what}: {seen}, expected {want}"
    else:
        assert ok, f"{what}: {got!r}, expected {want}"


def lcc_reference(g):
    """The Graphalytics reference implementation in plain Python: N(v) the in- and
    out-neighbours of v, e(v) the edges u -> w with u, w in N(v); self loops dropped."""
    coo = g.pattern.tocoo()
    out = [set() for _ in range(g.n)]
    for u, w in zip(coo.row.tolist(), coo.col.tolist(), strict=True):
        if u != w:
            out[u].add(w)
    near = [set(s) for s in out]
    for u in range(g.n):
        for w in out[u]:
            near[w].add(u)
    lcc = np.zeros(g.n)
    for v in range(g.n):
        d = len(near[v])
        edges = sum(len(out[u] & near[v]) for u in near[v])
        lcc[v] = edges / (d * (d - 1)) if d >= 2 else 0.0
    return lcc


# ---------------------------------------------------------------- triangle counts


@pytest.mark.parametrize("name", UNDIRECTED)
def test_every_method_matches_networkx(name):
    g = example(name)
    want = sum(nx.triangles(networkx_graph(g)).values()) // 3
    for lib in LIBS:
        assert_count(triangle_count(g.on(lib)), want, lib, f"{lib} default")
        for method, presort in CASES:
            got = triangle_count(g.on(lib), method, presort=presort)
            assert_count(got, want, lib, f"{lib} {method} presort={presort}")


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.serial_only) if name == "bcsstk13" else name
    for name in LAGRAPH_COUNTS])  # bcsstk13's 400K entries: one process is enough
def test_lagraph_known_counts(name):
    g = example(name)
    want = LAGRAPH_COUNTS[name]
    assert sum(nx.triangles(networkx_graph(g)).values()) == 3 * want
    for lib in LIBS:
        assert_count(triangle_count(g.on(lib)), want, lib)
        assert_count(triangle_count(g.on(lib), "burkhardt"), want, lib)


@pytest.mark.parametrize("name", UNDIRECTED)
def test_triangles_per_vertex_match_networkx(name):
    g = example(name)
    counts = nx.triangles(networkx_graph(g))
    want = np.array([counts[v] for v in range(g.n)])
    for lib in LIBS:
        assert_dense(triangles(g.on(lib)), want, "INT64", what=lib)


@functools.cache
def skewed():
    """Collective. n = 2100 (above LAGraph's 2000 samples): a 150-clique on random vertices
    and a ring through all, so nvals/n = 12.7 >= 10 and the median degree is 2: skewed."""
    n, k = 2100, 150
    hub = np.random.default_rng(5).choice(n, k, replace=False)
    ring = np.arange(n)
    rows = np.r_[np.repeat(hub, k), ring, (ring + 1) % n]
    cols = np.r_[np.tile(hub, k), (ring + 1) % n, ring]
    return from_edges("skewed", rows, cols, np.ones(len(rows), int), n)


def sorted_by_degree(A, **kwargs):
    """Collective. Whether triangle_count(A) on gblas2d took the degree order: its key
    product with a diagonal (any.second) shows in the trace."""
    with gb.trace() as events:
        triangle_count(A, **kwargs)
    return any(e["semiring"] == "any_second" for e in events)


def test_presort_follows_lagraphs_rule():
    g = skewed()
    want = sum(nx.triangles(networkx_graph(g)).values()) // 3
    assert want >= 150 * 149 * 148 // 6  # the clique's, and a few closed by ring edges
    assert sorted_by_degree(g.gb)
    assert not sorted_by_degree(g.gb, presort=False)
    # too small (n <= 2000), and large and dense enough but not skewed (median 11, mean 11.4)
    assert not sorted_by_degree(example("karate").gb)
    even = gb.generators.erdos_renyi(2100, 12000, seed=6, symmetric=True)
    assert not sorted_by_degree(even)
    assert sorted_by_degree(even, presort=True)
    for lib in LIBS:
        for method in SANDIA:
            assert_count(triangle_count(g.on(lib), method), want, lib, method)


@pytest.mark.parametrize("lib", RUN_ON)
def test_self_loops_are_ignored(lib):
    # A triangle 0-1-2 and an edge 2-3, with a self loop on every vertex (4 has only one).
    rows = [0, 1, 1, 2, 2, 0, 2, 3, 0, 1, 2, 3, 4]
    cols = [1, 0, 2, 1, 0, 2, 3, 2, 0, 1, 2, 3, 4]
    A = ENGINES[lib].Matrix.from_coo(rows, cols, 1.0, nrows=5, ncols=5)
    for method, presort in CASES:
        assert_count(triangle_count(A, method, presort=presort), 1, lib, method)
    assert_dense(triangles(A), [1, 1, 1, 0, 0], "INT64")
    assert_dense(local_clustering_coefficient(A), [1, 1, 1 / 3, 0, 0], "FP64", missing=np.nan,
                 rtol=1e-12)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("n", [0, 5])
def test_empty_graph(lib, n):
    A = ENGINES[lib].Matrix("BOOL", n, n)
    for method, presort in CASES:
        assert_count(triangle_count(A, method, presort=presort), 0, lib, method)
    assert_dense(triangles(A), np.zeros(n, int), "INT64")
    assert_dense(local_clustering_coefficient(A), np.zeros(n), "FP64", missing=np.nan)


def test_bad_inputs_are_refused_alike():
    def matrix(lib, rows, cols, nrows, ncols):
        return ENGINES[lib].Matrix.from_coo(rows, cols, 1, nrows=nrows, ncols=ncols)

    for call in (triangle_count, triangles, local_clustering_coefficient):
        assert_same_error_everywhere(
            DimensionMismatch, lambda lib, call=call: call(matrix(lib, [0], [1], 3, 4)),
            "needs a square Matrix, got Matrix.nrows (=3) and Matrix.ncols (=4)")
    # one direction only: not an undirected graph
    for call in (triangle_count, triangles):
        assert_same_error_everywhere(
            InvalidValue, lambda lib, call=call: call(matrix(lib, [0, 1, 1], [1, 0, 2], 3, 3)),
            "needs a symmetric Matrix (an undirected graph): 1 of its 3 off-diagonal entries")
    square = {lib: matrix(lib, [0, 1], [1, 0], 3, 3) for lib in LIBS}
    assert_same_error_everywhere(
        InvalidValue, lambda lib: triangle_count(square[lib], "sandia"), "got 'sandia'")
    assert_same_error_everywhere(
        InvalidValue, lambda lib: triangle_count(square[lib], "cohen", presort=True),
        "presort applies to the sandia methods only, not to 'cohen'")
    assert_same_error_everywhere(
        InvalidValue, lambda lib: triangle_count(square[lib], presort="ascending"),
        "presort must be True, False or None")
    with pytest.raises(TypeError, match="got Vector"):
        triangle_count(G.Vector("INT64", 3))


# ---------------------------------------------------------------- clustering coefficients


@pytest.mark.parametrize("name", UNDIRECTED)
def test_undirected_lcc_matches_networkx(name):
    g = example(name)
    clustering = nx.clustering(networkx_graph(g))
    want = np.array([clustering[v] for v in range(g.n)])
    for lib in LIBS:
        assert_dense(local_clustering_coefficient(g.on(lib)), want, "FP64", missing=np.nan,
                     rtol=1e-12, what=lib)


@pytest.mark.parametrize("name", DIRECTED)
def test_directed_lcc_matches_the_graphalytics_reference(name):
    g = example(name)
    want = lcc_reference(g)
    for lib in LIBS:
        assert_dense(local_clustering_coefficient(g.on(lib)), want, "FP64", missing=np.nan,
                     rtol=1e-12, what=lib)


def test_directed_lcc_matches_lagraph_and_differs_from_networkx():
    g = example("west0067")
    want = lcc_reference(g)
    # the reference agrees with LAGraph's table ...
    np.testing.assert_allclose(want, LCC_WEST0067, rtol=0, atol=1e-6)
    # ... and networkx's directed clustering (Fagiolo's) is another number
    fagiolo = nx.clustering(nx.from_scipy_sparse_array(g.pattern, create_using=nx.DiGraph))
    assert not np.allclose(want, [fagiolo[v] for v in range(g.n)])
    for lib in LIBS:
        got = local_clustering_coefficient(g.on(lib)).to_dense()
        assert agreed(np.allclose(got, LCC_WEST0067, rtol=0, atol=1e-6)), lib
