"""hits against the singular vectors of numpy's SVD (what networkx.hits computes with ARPACK)
and against networkx itself, on both engines.

Tolerances: the power iteration runs to an L1 change of 1e-12 on graphs whose two largest
singular values are apart (s2 / s1 < 0.9, checked), so it is within 1e-12 / (1 - 0.81) of the
fixed point: atol 1e-9 against the SVD. networkx's ARPACK stops at its own tol (1e-8 here), so
against it atol 1e-6.
"""

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_same_error_everywhere, from_edges, graph
from gblas2d.algorithms import hits

from gblas2d.exceptions import ConvergenceFailure, DimensionMismatch, InvalidValue


def svd_ref(dense, normalized=True):
    """(hubs, authorities) from the first singular vectors of the dense matrix."""
    _, s, vt = np.linalg.svd(dense)
    assert s[1] < 0.9 * s[0], s[:2]  # a unique answer, reached by power iteration
    a = np.abs(vt[0])
    h = dense @ a
    return (h / h.sum(), a / a.sum()) if normalized else (h, a)


def weighted_digraph(seed):
    rng = np.random.default_rng(seed)
    n = 40
    rows, cols = rng.integers(0, n, 160), rng.integers(0, n, 160)
    return from_edges(f"w{seed}", rows, cols, rng.uniform(0.5, 2.0, 160), n)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("normalized", [True, False])
def test_matches_svd(lib, seed, normalized):
    g = weighted_digraph(seed)
    want_h, want_a = svd_ref(g.csr.toarray(), normalized)
    h, a = hits(g.on(lib), tol=1e-12, normalized=normalized)
    assert (h.dtype.name, a.dtype.name, h.nvals, a.nvals) == ("FP64", "FP64", g.n, g.n)
    np.testing.assert_allclose(h.to_dense(), want_h, rtol=0, atol=1e-9)
    np.testing.assert_allclose(a.to_dense(), want_a, rtol=0, atol=1e-9)


@pytest.mark.parametrize("lib", RUN_ON)
def test_matches_networkx_on_karate(lib):
    g = graph("karate")
    H = nx.from_scipy_sparse_array(g.csr)  # weights as the LAGraph file has them
    want_h, want_a = nx.hits(H, tol=1e-8)
    h, a = hits(g.on(lib), tol=1e-12)
    np.testing.assert_allclose(h.to_dense(), [want_h[v] for v in range(g.n)], atol=1e-6)
    np.testing.assert_allclose(a.to_dense(), [want_a[v] for v in range(g.n)], atol=1e-6)


@pytest.mark.parametrize("lib", RUN_ON)
def test_start_vector_changes_nothing_but_the_path(lib):
    g = weighted_digraph(0)
    start = ENGINES[lib].Vector.from_coo(np.arange(g.n), np.arange(1.0, g.n + 1), size=g.n)
    h, _ = hits(g.on(lib), tol=1e-12, nstart=start)
    np.testing.assert_allclose(h.to_dense(), svd_ref(g.csr.toarray())[0], atol=1e-9)


def test_errors():
    g = weighted_digraph(0)
    with pytest.raises(ConvergenceFailure, match="did not reach tol"):
        hits(g.gb, max_iter=1)
    assert_same_error_everywhere(InvalidValue, lambda lib: hits(ENGINES[lib].Matrix(
        "FP64", 3, 3)), "at least one entry")
    assert_same_error_everywhere(DimensionMismatch, lambda lib: hits(
        g.on(lib), nstart=ENGINES[lib].Vector("FP64", 2)), "nstart.size (=2)")
    assert_same_error_everywhere(InvalidValue, lambda lib: hits(
        g.on(lib), nstart=ENGINES[lib].Vector("FP64", g.n)), "must not sum to zero")
