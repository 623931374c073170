"""eigenvector_centrality against networkx.eigenvector_centrality (the same iteration with
A + I: agreement to rounding, atol 1e-12) and against numpy's principal eigenvector of A^T on
strongly connected graphs (with tol=1e-13 per vertex and |lambda_2 + 1| / (lambda_1 + 1)
<= 0.9, checked, the iteration is within 1e-13 * n / 0.1 of it: atol 1e-9), on both
engines."""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_same_error_everywhere, from_edges, graph
from gblas2d.algorithms import eigenvector_centrality

from gblas2d.exceptions import ConvergenceFailure, DimensionMismatch, InvalidValue


def strongly_connected(seed):
    """A directed cycle through every vertex plus random weighted chords."""
    rng = np.random.default_rng(seed)
    n = 30
    ring = rng.permutation(n)
    rows = np.r_[ring, rng.integers(0, n, 60)]
    cols = np.r_[np.roll(ring, 1), rng.integers(0, n, 60)]
    return from_edges(f"sc{seed}", rows, cols, rng.uniform(0.5, 2.0, len(rows)), n)


def principal(dense):
    values, vectors = np.linalg.eig(dense.T)
    order = np.argsort(-abs(values + 1))
    assert abs(values[order[1]] + 1) <= 0.9 * abs(values[order[0]] + 1)
    x = np.real(vectors[:, order[0]])
    return x / (np.sign(x.sum()) * np.linalg.norm(x))


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("seed", range(2))
def test_matches_numpy_eigenvector(lib, seed):
    g = strongly_connected(seed)
    x = eigenvector_centrality(g.on(lib), tol=1e-13, max_iter=1000)
    assert (x.dtype.name, x.nvals) == ("FP64", g.n)
    np.testing.assert_allclose(x.to_dense(), principal(g.csr.toarray()), rtol=0, atol=1e-9)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", ["karate", "rand-dir-int"])
def test_matches_networkx(lib, name):
    g = graph(name)
    D = nx.from_scipy_sparse_array(g.csr, create_using=nx.DiGraph)
    want = nx.eigenvector_centrality(D, max_iter=500, weight="weight")
    got = eigenvector_centrality(g.on(lib), max_iter=500)
    np.testing.assert_allclose(got.to_dense(), [want[v] for v in range(g.n)], atol=1e-12)


@pytest.mark.parametrize("lib", RUN_ON)
def test_start_vector(lib):
    g = strongly_connected(0)
    D = nx.from_scipy_sparse_array(g.csr, create_using=nx.DiGraph)
    start = np.arange(1.0, g.n + 1)
    want = nx.eigenvector_centrality(D, nstart=dict(enumerate(start)), weight="weight")
    nstart = ENGINES[lib].Vector.from_coo(np.arange(g.n), start, size=g.n)
    got = eigenvector_centrality(g.on(lib), nstart=nstart)
    np.testing.assert_allclose(got.to_dense(), [want[v] for v in range(g.n)], atol=1e-12)


def test_errors():
    g = strongly_connected(0)
    with pytest.raises(ConvergenceFailure, match="did not reach tol"):
        eigenvector_centrality(g.gb, max_iter=2)
    assert_same_error_everywhere(InvalidValue, lambda lib: eigenvector_centrality(
        g.on(lib), nstart=ENGINES[lib].Vector("FP64", g.n)), "must not sum to zero")
    assert_same_error_everywhere(DimensionMismatch, lambda lib: eigenvector_centrality(
        g.on(lib), nstart=ENGINES[lib].Vector("FP64", 4)), "nstart.size (=4)")
    assert eigenvector_centrality(ENGINES["graphblas"].Matrix("FP64", 0, 0)).size == 0
