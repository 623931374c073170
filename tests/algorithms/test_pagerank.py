"""pagerank against networkx (the Graphalytics definition) and a numpy power iteration with the
same stopping rule (both variants), on both engines.

Tolerances: the numpy reference stops at the same iteration as the engines, so they agree to
rounding (rel 1e-9), and gblas2d agrees with python-graphblas to rel 1e-9. networkx stops on
its own rule (L1 change < n * tol), so it is run to 1e-13; the reference run as far agrees
with it to rel 1e-9, the engines stopped at an L1 change below 1e-9 to rel 1e-5 (their distance
to the fixed point is below 1e-9 * d / (1 - d), the smallest rank above (1 - d) / n).
"""

import networkx as nx
import numpy as np
import pytest
from _graphs import (
    ENGINES,
    LIBS,
    PATTERNS,
    RUN_ON,
    agreed,
    assert_agreed,
    assert_dense,
    from_edges,
    graph,
)
from gblas2d.algorithms import pagerank

from gblas2d.exceptions import ConvergenceFailure, InvalidValue


def pagerank_ref(pattern, damping=0.85, tol=1e-4, max_iter=100, variant="graphalytics",
                 iterations=None):
    """The power iteration of the pagerank docstring, in numpy (exactly ``iterations`` of it
    when given)."""
    n = pattern.shape[0]
    out_degree = np.asarray(pattern.sum(axis=1)).ravel()
    dangling = out_degree == 0
    r = np.full(n, 1.0 / n)
    for _ in range(max_iter if iterations is None else iterations):
        w = damping * np.divide(r, out_degree, out=np.zeros(n), where=~dangling)
        lost = r[dangling].sum() if variant == "graphalytics" else 0.0
        r_next = (1 - damping + damping * lost) / n + pattern.T @ w
        err = np.abs(r_next - r).sum()
        r = r_next
        if iterations is None and err < tol:
            return r
    if iterations is not None:
        return r
    raise AssertionError("the reference did not converge")


def networkx_ref(g, damping):
    D = nx.from_scipy_sparse_array(g.pattern, create_using=nx.DiGraph)
    ranks = nx.pagerank(D, alpha=damping, tol=1e-13, max_iter=1000, weight=None)
    return np.array([ranks[v] for v in range(g.n)])


@pytest.mark.parametrize("name", PATTERNS)
def test_reference_iteration_is_networkx(name):
    # The numpy iteration below is the Graphalytics definition: run to convergence it gives
    # networkx's ranks (self loops count as out-edges in both).
    g = graph(name)
    ranks = pagerank_ref(g.pattern, tol=1e-13, max_iter=1000)
    np.testing.assert_allclose(ranks, networkx_ref(g, 0.85), rtol=1e-9)


@pytest.mark.parametrize("name", ["west0067", "ldbc-directed-example-bool"])
def test_graphalytics_matches_networkx(name):
    # Directly, on a graph with self loops and on one with sinks (dangling vertices).
    g = graph(name)
    want = networkx_ref(g, 0.85)
    for lib in LIBS:
        ranks = pagerank(g.on(lib), tol=1e-9, max_iter=500)
        assert_dense(ranks, want, "FP64", missing=np.nan, rtol=1e-5, what=lib)


def cases():
    """Graphalytics on every graph; GAP on graphs with sinks or isolated vertices, where it
    differs, and on karate, where it does not."""
    gap = ["rand-dir-int", "rand-undir-sparse-int", "karate", "ldbc-directed-example-bool"]
    return [(name, "graphalytics") for name in PATTERNS] + [(name, "gap") for name in gap]


@pytest.mark.parametrize("name,variant", cases())
def test_variants_match_the_numpy_iteration(name, variant):
    # tol=1e-3: fewer iterations, and the same ones in the reference.
    g = graph(name)
    want = pagerank_ref(g.pattern, tol=1e-3, variant=variant)
    ours = pagerank(g.gb, tol=1e-3, variant=variant)
    theirs = pagerank(g.G, tol=1e-3, variant=variant)
    assert_dense(ours, want, "FP64", missing=np.nan, rtol=1e-9, what="gblas2d")
    assert_dense(theirs, ours.to_dense(), "FP64", missing=np.nan, rtol=1e-9, what="graphblas")


@pytest.mark.parametrize("lib", RUN_ON)
def test_graphalytics_keeps_the_total_and_gap_leaks_it(lib):
    # rand-dir-sparse-float has many dangling vertices: graphalytics hands their rank back to
    # every vertex (the total stays one at every step, converged or not), GAP loses it.
    A = graph("rand-dir-sparse-float").on(lib)
    kept = pagerank(A).reduce().new().value
    leaked = pagerank(A, variant="gap").reduce().new().value
    assert agreed(abs(kept - 1) < 1e-9 and leaked < 0.9), (kept, leaked)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("damping", [0.0, 0.6])
def test_damping_range(lib, damping):
    # damping 0 is pure teleport (uniform after one step).
    g = graph("karate")
    want = pagerank_ref(g.pattern, damping)
    ranks = pagerank(g.on(lib), damping)
    assert_dense(ranks, want, "FP64", missing=np.nan, rtol=1e-9)
    if damping == 0:
        assert agreed(np.all(ranks.to_dense() == 1 / g.n))


@pytest.mark.parametrize("lib", RUN_ON)
def test_graph_without_edges_is_uniform(lib):
    # Every vertex dangling: all rank is teleport and dangling share, 1/n each (as networkx).
    n = 5
    g = from_edges("edgeless", [], [], np.array([], float), n)
    assert_dense(pagerank(g.on(lib)), np.full(n, 1 / n), "FP64", missing=np.nan, rtol=1e-12)
    assert_dense(pagerank(g.on(lib), variant="gap"), np.full(n, 0.15 / n), "FP64",
                 missing=np.nan, rtol=1e-12)


@pytest.mark.parametrize("lib", RUN_ON)
def test_empty_graph(lib):
    ranks = pagerank(ENGINES[lib].Matrix("FP64", 0, 0))
    assert (ranks.size, ranks.nvals, ranks.dtype.name) == (0, 0, "FP64")


def test_convergence_failure_is_agreed_and_the_same_on_both_engines():
    g = graph("west0067")
    messages = []
    for lib in LIBS:
        with pytest.raises(ConvergenceFailure) as exc:
            pagerank(g.on(lib), tol=1e-12, max_iter=3)
        assert_agreed(exc, ConvergenceFailure)
        messages.append(str(exc.value))
    assert "tol=1e-12 in 3 iterations" in messages[0]
    # The last change is an agreed scalar; the two engines may differ in its last digits only.
    assert messages[0].split("(")[0] == messages[1].split("(")[0]
    # The collectives still line up after the failure.
    assert_dense(pagerank(g.gb), pagerank_ref(g.pattern), "FP64", missing=np.nan, rtol=1e-9)


@pytest.mark.parametrize("name", ["west0067", "ldbc-directed-example-bool", "karate"])
@pytest.mark.parametrize("iterations", [0, 1, 2, 7])
def test_a_fixed_number_of_iterations(name, iterations):
    """``iterations=`` runs exactly that many (LDBC Graphalytics' num-iterations): no
    convergence check, so two iterations return where ``max_iter=2`` fails to converge."""
    g = graph(name)
    want = pagerank_ref(g.pattern, iterations=iterations)
    for lib in LIBS:
        ranks = pagerank(g.on(lib), iterations=iterations, tol=1e-30, max_iter=1)
        assert_dense(ranks, want, "FP64", missing=np.nan, rtol=1e-9, what=lib)


@pytest.mark.parametrize("bad", [-1, 2.5, True])
def test_bad_iterations_are_refused(bad):
    g = graph("karate")
    for lib in LIBS:
        with pytest.raises(InvalidValue) as exc:
            pagerank(g.on(lib), iterations=bad)
        if lib == "gblas2d":
            assert_agreed(exc, InvalidValue)
