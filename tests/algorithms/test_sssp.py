"""sssp (Bellman-Ford and delta-stepping) against scipy.sparse.csgraph, on both engines.

The SciPy inputs have repeated edges combined with min (as the engines' ``dup_op``) and no
stored zeros (SciPy drops them as non-edges; zero weights are tested apart, without SciPy).
Integer weights give INT64 distances, compared exactly; float weights give FP64 distances,
compared at rel 1e-12 (sums along equal-length paths may differ in the last bit).
"""

import os
import signal
from contextlib import contextmanager

import numpy as np
import pytest
from _graphs import (
    ENGINES,
    LIBS,
    RUN_ON,
    WEIGHTED,
    assert_agreed,
    assert_dense,
    from_edges,
    from_scipy,
    graph,
    levels_ref,
)
from gblas2d.algorithms import NegativeCycleError, bfs_levels, sssp
from scipy.sparse import csgraph

from gblas2d.exceptions import InvalidValue

METHODS = ["bellman_ford", "delta_stepping"]


def expected(g, s, negative=False):
    """(dense distances, missing marker, dtype name) from SciPy, which raises its own
    NegativeCycleError where a negative cycle is reachable from ``s``."""
    ref = csgraph.bellman_ford if negative else csgraph.dijkstra
    dist = ref(g.csr, directed=True, indices=s)
    if g.csr.dtype.kind == "f":
        return dist, np.inf, "FP64"
    # Distances can be negative: the missing marker is the smallest int64.
    missing = np.iinfo(np.int64).min
    return np.where(np.isfinite(dist), dist, missing).astype(np.int64), missing, "INT64"


def assert_distances(g, s, method, negative=False, **kw):
    want, missing, dtype = expected(g, s, negative)
    for lib in LIBS:
        assert_dense(sssp(g.on(lib), s, method, **kw), want, dtype, missing=missing,
                     rtol=1e-12 if dtype == "FP64" else 0, what=f"{lib}, source {s}")


@pytest.mark.parametrize("name", WEIGHTED)
@pytest.mark.parametrize("method", METHODS)
def test_matches_dijkstra(name, method):
    g = graph(name)
    for s in g.sources():
        assert_distances(g, s, method)


@pytest.mark.parametrize("name,deltas", [("rand-undir-float", [0.3, 1e9]),
                                         ("rand-dir-int", [2.5])])
def test_bucket_widths(name, deltas):
    # Narrow buckets (most edges heavy), wide ones (every edge light, one bucket), and a
    # fractional width for integer weights (rounded up to 3).
    g = graph(name)
    s = g.sources()[0]
    for delta in deltas:
        assert_distances(g, s, "delta_stepping", delta=delta)


def signed_dag(seed, n=50):
    """A random DAG (edges go up a random order) with weights in [-5, 9], none zero."""
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, n, 4 * n), rng.integers(0, n, 4 * n)
    keep = rows < cols
    rank = rng.permutation(n)
    weights = rng.choice(np.r_[-5:0, 1:10], keep.sum())
    return from_edges("dag", rank[rows[keep]], rank[cols[keep]], weights, n)


@pytest.mark.parametrize("seed", range(3))
def test_negative_weights_without_a_cycle(seed):
    g = signed_dag(seed)
    for s in g.sources():
        assert_distances(g, s, "bellman_ford", negative=True)
    for lib in LIBS:
        # Delta-stepping refuses them: a plain InvalidValue, not a negative cycle.
        with pytest.raises(InvalidValue) as exc:
            sssp(g.on(lib), 0, "delta_stepping")
        assert_agreed(exc, InvalidValue)
        assert "non-negative" in str(exc.value)


@pytest.mark.parametrize("lib", RUN_ON)
def test_negative_cycle_only_when_reachable(lib):
    # 0 -> 1 <-> 2 with weight 2 - 4 = -2 around the cycle; 5 -> 6 cannot reach it; vertex 8
    # has a negative self loop, reachable from 7.
    rows, cols = [0, 1, 2, 3, 5, 7, 8], [1, 2, 1, 0, 6, 8, 8]
    g = from_edges("cycle", rows, cols, np.array([3, 2, -4, 1, 1, 1, -1]), 9)
    for s in (0, 3, 7):
        with pytest.raises(csgraph.NegativeCycleError):  # the reference agrees
            csgraph.bellman_ford(g.csr, indices=s)
        with pytest.raises(NegativeCycleError) as exc:
            sssp(g.on(lib), s)
        assert_agreed(exc, NegativeCycleError)
    # Away from the cycles the distances are defined, and a collective still works.
    assert_distances(g, 5, "bellman_ford", negative=True)


def test_west0067_signed_weights():
    # The signed weights of west0067 hold negative cycles; SciPy decides per source.
    g = graph("west0067")
    for s in g.sources():
        try:
            csgraph.bellman_ford(g.csr, indices=s)
        except csgraph.NegativeCycleError:
            for lib in LIBS:
                with pytest.raises(NegativeCycleError) as exc:
                    sssp(g.on(lib), s)
                assert_agreed(exc, NegativeCycleError)
        else:
            assert_distances(g, s, "bellman_ford", negative=True)


@pytest.mark.parametrize("name", ["ldbc-undirected-example-bool", "karate"])
@pytest.mark.parametrize("method", METHODS)
def test_unit_weights_give_the_bfs_levels(name, method):
    g = graph(name)
    unit = from_scipy(name, g.pattern.astype(np.int64))
    for s in g.sources():
        for lib in LIBS:
            assert_dense(sssp(unit.on(lib), s, method), levels_ref(g, s), "INT64")
            assert_dense(bfs_levels(unit.on(lib), s), levels_ref(g, s), "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype,weight,dist_type", [("INT8", 100, "INT64"),
                                                     ("UINT8", 200, "INT64"),
                                                     ("FP32", 0.1, "FP64")])
def test_narrow_weights_widen(lib, method, dtype, weight, dist_type):
    # Path sums beyond the weights' own range: the distances are INT64 or FP64.
    A = ENGINES[lib].Matrix.from_coo([0, 1, 2], [1, 2, 3], weight, dtype=dtype, nrows=5, ncols=5)
    step = np.float32(weight).astype(np.float64) if dtype == "FP32" else weight
    want = np.r_[np.arange(4) * step, -1]
    assert_dense(sssp(A, 0, method), want, dist_type, rtol=1e-12 if dtype == "FP32" else 0)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", METHODS)
def test_zero_weights_are_edges(lib, method):
    # A stored zero is an edge of weight zero (SciPy would drop it), also around a cycle.
    A = ENGINES[lib].Matrix.from_coo([0, 1, 2, 3], [1, 2, 3, 2], [0, 2, 0, 0], dtype="INT64",
                                     nrows=5, ncols=5)
    assert_dense(sssp(A, 0, method), [0, 0, 2, 2, -1], "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", METHODS)
def test_no_edges(lib, method):
    A = ENGINES[lib].Matrix("FP64", 3, 3)
    assert_dense(sssp(A, 1, method), [np.inf, 0, np.inf], "FP64", missing=np.inf)


@contextmanager
def deadline(seconds):
    """Fail instead of hanging, in the serial session only (an alarm under mpiexec would fire
    on each rank at its own point; the launcher's timeout covers a hang there)."""
    if os.environ.get("GBLAS2D_TEST_MPI") == "1":
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("lib", RUN_ON)
def test_bucket_boundary_rounding(lib):
    # With these two floats, a // delta * delta + delta rounds to a itself: the bucket computed
    # for the distance a ends at a and does not hold it. Delta-stepping must still settle it.
    a, delta = 11.454291984314422, 0.40908185658265794
    start = (a // delta) * delta
    assert start + delta == a  # the rounding this test is about
    A = ENGINES[lib].Matrix.from_coo([0, 1], [1, 2], [a, 1.0], nrows=3, ncols=3)
    with deadline(5):
        dist = sssp(A, 0, "delta_stepping", delta=delta)
    assert_dense(dist, [0, a, a + 1.0], "FP64", rtol=1e-12)


@pytest.mark.serial_only  # a hang there would hold every rank until the launcher's timeout
@pytest.mark.parametrize("lib", RUN_ON)
def test_bucket_narrower_than_the_float_spacing(lib):
    # Distances near 1e17 are 16 apart as floats, so with delta = 1 every bucket [d, d + 1)
    # rounds to the empty [d, d). Bellman-Ford gives the answer.
    A = ENGINES[lib].Matrix.from_coo([0, 1], [1, 2], [1e17, 1.0], nrows=3, ncols=3)
    want = [0, 1e17, 1e17]
    assert want[1] + 1.0 == want[2]  # the spacing this test is about
    assert_dense(sssp(A, 0), want, "FP64", rtol=1e-12)
    with deadline(5):
        dist = sssp(A, 0, "delta_stepping", delta=1.0)
    assert_dense(dist, want, "FP64", rtol=1e-12)
