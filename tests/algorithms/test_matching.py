"""max_weight_matching: a valid matching of at least half of networkx's maximum weight, equal to
a direct replay of the locally dominant rounds (same tie-break), on both engines."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _graphs import (
    ENGINES,
    LIBS,
    RUN_ON,
    UNDER_MPI,
    assert_dense,
    assert_same_error_everywhere,
    graph,
)
from gblas2d.algorithms import max_weight_matching

from gblas2d.exceptions import DimensionMismatch

GRAPHS = ["rand-dir-int", "rand-undir-float", "karate"] if UNDER_MPI else \
    ["rand-dir-int", "rand-undir-float", "rand-dir-sparse-float", "rand-undir-sparse-int",
     "karate", "west0067", "ldbc-undirected-example", "ldbc-directed-example"]


def symmetric_weights(csr):
    """max(A, A^T) without self loops and weights <= 0, as a dict of dicts."""
    coo = csr.tocoo()
    adj = {}
    for u, v, w in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist(), strict=True):
        if u != v and w > 0:
            for a, b in ((u, v), (v, u)):
                adj.setdefault(a, {})
                adj[a][b] = max(adj[a].get(b, w), w)
    return adj


def matching_ref(adj, n):
    """The rounds, replayed in Python: free vertices point along an edge that is heaviest at
    both ends to the smallest such neighbour; mutual pointers are matched."""
    mate = np.full(n, -1)
    free = set(range(n))
    while True:
        heaviest = {u: max(w for v, w in adj.get(u, {}).items() if v in free)
                    for u in free if any(v in free for v in adj.get(u, {}))}
        if not heaviest:
            return mate
        points = {}
        for u, m in heaviest.items():
            dominant = [v for v, w in adj[u].items()
                        if v in free and w == m and w == heaviest[v]]
            if dominant:
                points[u] = min(dominant)
        for u, v in points.items():
            if points.get(v) == u:
                mate[u] = v
        free -= {u for u in points if mate[u] >= 0}


def check_half_optimum(adj, mate):
    G = nx.Graph()
    G.add_weighted_edges_from((u, v, w) for u in adj for v, w in adj[u].items() if u < v)
    best = sum(G[u][v]["weight"] for u, v in nx.max_weight_matching(G))
    got = sum(adj[u][v] for u, v in enumerate(mate) if u < v)
    assert got >= best / 2 - 1e-9, (got, best)
    return got, best


@pytest.mark.parametrize("name", GRAPHS)
def test_matches_the_rounds_and_half_the_optimum(name):
    g = graph(name)
    adj = symmetric_weights(g.csr)
    want = matching_ref(adj, g.n)
    matched = np.flatnonzero(want >= 0)
    assert (want[want[matched]] == matched).all()  # the reference is a matching ...
    assert all(want[u] in adj[u] for u in matched)  # ... of graph edges
    check_half_optimum(adj, want)
    for lib in LIBS:
        assert_dense(max_weight_matching(g.on(lib)), want, "INT64", what=f"{lib} {name}")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("seed", range(3 if UNDER_MPI else 8))
def test_small_random_graphs_with_ties(lib, seed):
    # Few distinct weights, so ties are everywhere; the rounds must still finish and match.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    m = int(rng.integers(0, 3 * n))
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    vals = rng.integers(1, 4, m).astype(np.float64)
    csr = sp.csr_array((vals, (rows, cols)), shape=(n, n))
    A = ENGINES[lib].io.from_scipy_sparse(csr)
    adj = symmetric_weights(csr)
    want = matching_ref(adj, n)
    check_half_optimum(adj, want)
    assert_dense(max_weight_matching(A), want, "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_the_locally_dominant_choice(lib):
    # Path 0-1-2-3 weighing 1, 5, 1: the heavy middle edge wins, the light ends stay free;
    # a triangle of equal weights 4-5-6 matches its two smallest ids; an unweighted BOOL graph
    # counts every edge as 1.
    E = ENGINES[lib]
    A = E.Matrix.from_coo([0, 1, 2, 4, 5, 4], [1, 2, 3, 5, 6, 6], [1.0, 5.0, 1.0, 2, 2, 2],
                          nrows=8, ncols=8)
    assert_dense(max_weight_matching(A), [-1, 2, 1, -1, 5, 4, -1, -1], "INT64")
    B = E.Matrix.from_coo([0, 1, 2], [1, 2, 3], True, nrows=4, ncols=4)
    assert_dense(max_weight_matching(B), [1, 0, 3, 2], "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_nothing_to_match(lib):
    # Self loops, negative and zero weights are never matched; no vertices at all is fine.
    E = ENGINES[lib]
    A = E.Matrix.from_coo([0, 1, 2], [0, 2, 3], [3.0, -1.0, 0.0], nrows=4, ncols=4)
    assert max_weight_matching(A).nvals == 0
    assert max_weight_matching(E.Matrix.from_coo([], [], 1.0, nrows=0, ncols=0)).size == 0


@pytest.mark.parametrize("make,cls,fragment", [
    (lambda E: E.Matrix.from_coo([0], [1], 1.0, nrows=2, ncols=3), DimensionMismatch, "(=3)"),
    (lambda E: E.Vector.from_coo([0], [1.0], size=3), TypeError, "Vector"),
], ids=["rectangular", "vector"])
def test_bad_input(make, cls, fragment):
    assert_same_error_everywhere(cls, lambda lib: max_weight_matching(make(ENGINES[lib])),
                                 fragment)
