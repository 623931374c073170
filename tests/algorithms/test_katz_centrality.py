"""katz_centrality against networkx.katz_centrality (the same iteration: agreement to
rounding, atol 1e-12) and against the exact solution of x = alpha A^T x + beta (numpy's solve;
with tol=1e-13 per vertex and alpha * spectral radius <= 0.5 the iteration is within
1e-13 * n of it: atol 1e-10), on both engines."""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_same_error_everywhere, from_edges, graph
from gblas2d.algorithms import katz_centrality

from gblas2d.exceptions import ConvergenceFailure, DimensionMismatch, InvalidValue


def weighted_digraph(seed):
    rng = np.random.default_rng(seed)
    n = 40
    rows, cols = rng.integers(0, n, 120), rng.integers(0, n, 120)
    return from_edges(f"w{seed}", rows, cols, rng.uniform(0.5, 2.0, 120), n)


def exact(g, alpha, beta):
    dense = g.csr.toarray()
    assert alpha * max(abs(np.linalg.eigvals(dense))) <= 0.5  # the series converges fast
    x = np.linalg.solve(np.eye(g.n) - alpha * dense.T, np.broadcast_to(beta, g.n))
    return x / np.linalg.norm(x)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("seed", range(2))
def test_matches_exact_solution(lib, seed):
    g = weighted_digraph(seed)
    x = katz_centrality(g.on(lib), 0.1, tol=1e-13)
    assert (x.dtype.name, x.nvals) == ("FP64", g.n)
    np.testing.assert_allclose(x.to_dense(), exact(g, 0.1, 1.0), rtol=0, atol=1e-10)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("normalized", [True, False])
def test_matches_networkx(lib, normalized):
    g = weighted_digraph(2)
    D = nx.from_scipy_sparse_array(g.csr, create_using=nx.DiGraph)
    beta = np.linspace(0.5, 1.5, g.n)
    want = nx.katz_centrality(D, 0.1, dict(enumerate(beta)), normalized=normalized,
                              weight="weight")
    b = ENGINES[lib].Vector.from_coo(np.arange(g.n), beta, size=g.n)
    got = katz_centrality(g.on(lib), 0.1, b, normalized=normalized)
    np.testing.assert_allclose(got.to_dense(), [want[v] for v in range(g.n)], atol=1e-12)


@pytest.mark.parametrize("lib", RUN_ON)
def test_karate_unweighted_against_networkx(lib):
    g = graph("karate")
    pattern = from_edges("karate-pattern", *g.csr.nonzero(), np.ones(g.csr.nnz), g.n)
    want = nx.katz_centrality(nx.from_scipy_sparse_array(g.csr), 0.1)
    # nstart moves the start, not the limit: within networkx's own tolerance of it
    start = ENGINES[lib].Vector.from_coo([0, 5], [3.0, 1.0], size=g.n)
    for kw in ({}, {"nstart": start}):
        got = katz_centrality(pattern.on(lib), 0.1, **kw).to_dense()
        np.testing.assert_allclose(got, [want[v] for v in range(g.n)], atol=1e-5)


def test_errors():
    g = weighted_digraph(0)
    with pytest.raises(ConvergenceFailure, match="alpha"):
        katz_centrality(g.gb, 1.0, max_iter=50)
    with pytest.raises(ConvergenceFailure, match="diverges"):
        katz_centrality(g.gb, 10.0, max_iter=10**6)
    assert_same_error_everywhere(DimensionMismatch, lambda lib: katz_centrality(
        g.on(lib), beta=ENGINES[lib].Vector("FP64", 3)), "beta.size (=3)")
    assert_same_error_everywhere(InvalidValue, lambda lib: katz_centrality(
        g.on(lib), beta=ENGINES[lib].Vector.from_coo([0], [1.0], size=g.n)), "every vertex")
    assert_same_error_everywhere(InvalidValue, lambda lib: katz_centrality(
        g.on(lib), tol=0), "tol (=0)")
    assert katz_centrality(ENGINES["graphblas"].Matrix("FP64", 0, 0)).size == 0
