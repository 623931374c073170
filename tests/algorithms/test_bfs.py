"""bfs_levels and bfs_parents against SciPy hop counts, on both engines, one source or a batch;
and the direction-optimizing trace of bfs_levels on an R-MAT graph.

Levels and parents are integers, so every comparison is exact. The parent reference is the
smallest-id vertex on the previous level with an edge into the vertex (``min_secondi``).
"""

import graphblas as G
import numpy as np
import pytest
from _graphs import (
    LIBS,
    PATTERNS,
    RUN_ON,
    agreed,
    assert_dense,
    from_edges,
    graph,
    levels_ref,
    parents_ref,
)
from gblas2d.algorithms import bfs_levels, bfs_parents
from hypothesis import given
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d.io.generators import rmat


@pytest.mark.parametrize("name", PATTERNS)
def test_levels_match_scipy(name):
    g = graph(name)
    for s in g.sources():
        want = levels_ref(g, s)
        for lib in LIBS:
            assert_dense(bfs_levels(g.on(lib), s), want, "INT64", what=f"{lib}, source {s}")


@pytest.mark.parametrize("name", PATTERNS)
def test_parents_are_the_smallest_candidates(name):
    g = graph(name)
    for s in g.sources():
        want = parents_ref(g, s)
        for lib in LIBS:
            assert_dense(bfs_parents(g.on(lib), s), want, "INT64", what=f"{lib}, source {s}")


def assert_rows(M, wants, what):
    """Row t of the (k, n) batch result ``M`` holds ``wants[t]`` (dense, -1 where missing)."""
    k, n = len(wants), len(wants[0])
    assert M.shape == (k, n), what
    assert M.dtype.name == "INT64", what
    rows, cols, vals = M.to_coo()
    dense = np.full((k, n), -1, dtype=np.int64)
    dense[rows.astype(np.int64), cols.astype(np.int64)] = vals
    assert agreed(np.array_equal(dense, np.array(wants))), what


@pytest.mark.parametrize("name", PATTERNS)
@pytest.mark.parametrize("lib", RUN_ON)
def test_batch_rows_match_single_sources(name, lib):
    g = graph(name)
    # A repeated source is a column of its own in the frontier matrix.
    sources = [*g.sources(batch=True), g.sources()[0]]
    assert_rows(bfs_levels(g.on(lib), sources), [levels_ref(g, s) for s in sources],
                f"levels from {sources}")
    assert_rows(bfs_parents(g.on(lib), sources), [parents_ref(g, s) for s in sources],
                f"parents from {sources}")


@pytest.mark.parametrize("lib", RUN_ON)
def test_numpy_sources_and_a_batch_of_one(lib):
    g = graph("karate")
    A = g.on(lib)
    # numpy integers are vertex ids; a sequence of one source still asks for a batch.
    assert_dense(bfs_levels(A, np.int64(5)), levels_ref(g, 5), "INT64")
    assert_rows(bfs_levels(A, np.array([5])), [levels_ref(g, 5)], "levels from array([5])")
    assert_rows(bfs_parents(A, (np.uint8(5),)), [parents_ref(g, 5)], "parents from (5,)")


@pytest.mark.parametrize("lib", RUN_ON)
def test_path_reaches_its_last_vertex(lib):
    # 0 -> 1 -> ... -> n-1 needs n-1 levels, the most the level loop allows.
    n = 17
    g = from_edges("path", np.arange(n - 1), np.arange(1, n), np.ones(n - 1, int), n)
    assert_dense(bfs_levels(g.on(lib), 0), np.arange(n), "INT64")
    assert_dense(bfs_parents(g.on(lib), 0), np.r_[0, np.arange(n - 1)], "INT64")
    # Searching from the far end follows out-edges only: nothing else is reached.
    assert_dense(bfs_levels(g.on(lib), n - 1), np.r_[np.full(n - 1, -1), 0], "INT64")
    assert_rows(bfs_levels(g.on(lib), [0, n - 1]),
                [np.arange(n), np.r_[np.full(n - 1, -1), 0]], "path batch")


@pytest.mark.parametrize("lib", RUN_ON)
def test_one_vertex_and_a_lone_self_loop(lib):
    one = from_edges("one", [], [], np.array([], int), 1)
    assert_dense(bfs_levels(one.on(lib), 0), [0], "INT64")
    assert_dense(bfs_parents(one.on(lib), 0), [0], "INT64")
    # A self loop on the source must not make it its own child at level 1.
    loop = from_edges("loop", [2, 2], [2, 2], np.array([1, 1]), 4)
    assert_dense(bfs_levels(loop.on(lib), 2), [-1, -1, 0, -1], "INT64")
    assert_dense(bfs_parents(loop.on(lib), 2), [-1, -1, 2, -1], "INT64")


@given(seed=st.integers(0, 2**16), n=st.integers(1, 40), directed=st.booleans())
def test_small_random_graphs_match_scipy(seed, n, directed):
    # Every rank draws the same examples (the MPI profile derandomizes), so the same graphs.
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 3 * n))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    if not directed:
        rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    g = from_edges("random", rows, cols, np.ones(len(rows), int), n)
    s = int(rng.integers(0, n))
    for lib in LIBS:
        assert_dense(bfs_levels(g.on(lib), s), levels_ref(g, s), "INT64", what=lib)
        assert_dense(bfs_parents(g.on(lib), s), parents_ref(g, s), "INT64", what=lib)


# ---------------------------------------------------------------- trace


@pytest.fixture(scope="module")
def rmat_graph():
    """The scale-10 symmetric R-MAT graph and its busiest vertex (a search from there has a
    small first frontier and a huge second one)."""
    A = rmat(10, symmetric=True)
    rows, _, _ = A.to_coo()
    return A, int(np.argmax(np.bincount(rows.astype(np.int64), minlength=A.nrows)))


def test_trace_has_one_vxm_per_level_and_both_directions(rmat_graph):
    A, s = rmat_graph
    with gb.trace() as events:
        levels = bfs_levels(A, s)
    _, level = levels.to_coo()
    per_level = np.bincount(level)
    products = [e for e in events if e["op"] == "vxm"]
    # One product per level: product k reads the frontier of level k, and the last one (from
    # the deepest level) finds no new vertex.
    assert len(events) == len(products) == level.max() + 1
    assert [e["frontier_nvals"] for e in products] == per_level.tolist()
    assert all(e["masked"] and e["semiring"] == "any_pair" for e in products)
    # Beamer's rule, unforced, pushes from the lone source and pulls into the few vertices left
    # once the frontier has swallowed most of the graph.
    assert not any(e["forced"] for e in products)
    directions = [e["direction"] for e in products]
    assert directions[0] == "push"
    assert {"push", "pull"} <= set(directions)
    # The choice comes from allreduced edge counts: the same on every rank.
    seen = gb.default_grid().comm.allgather_object(directions)
    assert all(d == directions for d in seen), seen


def test_trace_of_bfs_parents_and_of_a_batch(rmat_graph):
    A, s = rmat_graph
    _, level = bfs_levels(A, s).to_coo()
    with gb.trace() as events:
        bfs_parents(A, s)
    assert [e["semiring"] for e in events] == ["min_secondi"] * (level.max() + 1)
    # A batch runs one tall-and-skinny mxm per level of its deepest search.
    sources = [s, 0, A.nrows - 1]
    depth = bfs_levels(A, sources).reduce_scalar(gb.monoid.max).new().value
    with gb.trace() as events:
        bfs_levels(A, sources)
    assert [e["op"] for e in events] == ["mxm"] * (depth + 1)


def test_rmat_levels_match_graphblas(rmat_graph):
    # The same search on python-graphblas, where SuiteSparse picks its own directions.
    A, s = rmat_graph
    rows, cols, vals = A.to_coo()
    A_G = G.Matrix.from_coo(rows, cols, vals, nrows=A.nrows, ncols=A.ncols)
    ours, theirs = bfs_levels(A, s).to_coo(), bfs_levels(A_G, s).to_coo()
    assert agreed(all(np.array_equal(a, b) for a, b in zip(ours, theirs, strict=True)))
    ours, theirs = bfs_parents(A, s).to_coo(), bfs_parents(A_G, s).to_coo()
    assert agreed(all(np.array_equal(a, b) for a, b in zip(ours, theirs, strict=True)))
