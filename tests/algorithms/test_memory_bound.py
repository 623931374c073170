"""No rank holds a whole object: each rank's peak memory during every algorithm stays within a
stated bound of its share of the graph.

The bound, per rank, with e entries, n vertices, P = R x C ranks and a batch of k sources or
words::

    peak <= K * (16 B * e / P  +  8 B * k * n / min(R, C)) + 256 KiB,   K = 32

The first term is the rank's block (an index and a value per entry) and what the algorithm
derives from it (A', S, masks, products inside them); the second the vectors and frontier
columns a 2D product gathers over a grid row or column segment. The peak is what tracemalloc
sees: every numpy buffer of the engine, its pieces, blocks, messages and caches, not
SuiteSparse's own workspace inside a local kernel (which holds the rank's block and a local
product's result only).

K is what the worst algorithm needs with room to spare (influence maximization's samples and
betweenness's stored levels, about 24 at 4 ranks on R-MAT 14). So the bound does not catch a
rank that holds one whole vector or, at 4 ranks, one whole matrix; it catches what grows past
the rank's share: products materialized before their mask (the sum of squared degrees of a
triangle count), a batch's frontier gathered whole on every rank, every level of a search
replicated.
"""

import tracemalloc

import pytest
from _graphs import agreed
from gblas2d.algorithms import (
    betweenness_centrality,
    bfs_levels,
    bfs_parents,
    connected_components,
    fused_bpt,
    influence_maximization,
    label_propagation,
    local_clustering_coefficient,
    max_weight_matching,
    pagerank,
    sssp,
    triangle_count,
    validate_bfs_tree,
)

import gblas2d as gb

K = 32
SLACK = 256 * 1024
SCALE = 11
SOURCES = [0, 7, 99, 1000]


@pytest.fixture(scope="module")
def graphs():
    A = gb.generators.rmat(SCALE, 8, symmetric=True, seed=1)
    W = gb.generators.rmat(SCALE, 8, symmetric=True, seed=1, weights="uniform")
    return A, W


RUNS = {
    "bfs_levels": (1, lambda A, W: bfs_levels(A, 0)),
    "bfs_parents": (1, lambda A, W: bfs_parents(A, 0)),
    "bfs_levels_batch": (len(SOURCES), lambda A, W: bfs_levels(A, SOURCES)),
    "pagerank": (1, lambda A, W: pagerank(A)),
    "connected_components": (1, lambda A, W: connected_components(A)),
    "sssp": (1, lambda A, W: sssp(W, 0)),
    "betweenness": (len(SOURCES), lambda A, W: betweenness_centrality(A, SOURCES)),
    "label_propagation": (1, lambda A, W: label_propagation(A)),
    "max_weight_matching": (1, lambda A, W: max_weight_matching(W)),
    "triangle_count": (1, lambda A, W: triangle_count(A)),
    "local_clustering": (1, lambda A, W: local_clustering_coefficient(A)),
    "validate_bfs_tree": (1, lambda A, W: validate_bfs_tree(A, 0, bfs_parents(A, 0))),
    # 128 colors: two 64-bit words a vertex
    "fused_bpt": (2, lambda A, W: fused_bpt(A, SOURCES * 32, 0.1)),
    "influence_maximization": (2, lambda A, W: influence_maximization(A, 2, samples=128)),
}


def bound(A, k):
    g = A.grid
    return K * (16 * A.nvals / g.nprocs + 8 * k * A.nrows / min(g.shape)) + SLACK


@pytest.mark.parametrize("name", list(RUNS))
def test_peak_memory_per_rank_is_within_the_bound(graphs, name):
    A, W = graphs
    k, run = RUNS[name]
    run(A, W)  # caches (the symmetric A's CSC, SuiteSparse's copies) are made once, here
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        run(A, W)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    limit = bound(A, k)
    assert agreed(peak <= limit), f"{name}: peak {peak / 2**20:.2f} MiB > {limit / 2**20:.2f}"
