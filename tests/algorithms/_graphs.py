"""Shared test graphs for the algorithm tests, their SciPy references, and agreed verdicts.

Every graph exists three times: ``csr``, the reference input for scipy.sparse.csgraph and
networkx (duplicate edges combined with min, no explicit zeros); ``gb``, a gblas2d Matrix built
from the raw edge list with ``dup_op=min`` (or from the SciPy matrix of a LAGraph file); and
``G``, the same python-graphblas Matrix. Random graphs come from ``default_rng(seed)`` and are
built in the order the tests ask for them, so every MPI rank makes the same collective calls.
"""

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import graphblas as G
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph

import gblas2d as gb
import gblas2d.io

DATA = Path(__file__).resolve().parents[1] / "data" / "lagraph"
ENGINES = {"gblas2d": gb, "graphblas": G}

# name: (seed, n, average out-degree, directed, weight kind); the sparse ones fall apart into
# many components, and every one has isolated vertices, self loops and repeated edges.
RANDOM = {
    "rand-dir-int": (1, 120, 3.0, True, "int"),
    "rand-undir-float": (2, 90, 3.0, False, "float"),
    "rand-dir-sparse-float": (3, 200, 1.2, True, "float"),
    "rand-undir-sparse-int": (4, 60, 1.5, False, "int"),
}
FILES = [
    "karate", "west0067", "ldbc-wcc-example", "ldbc-directed-example",
    "ldbc-directed-example-unweighted", "ldbc-directed-example-bool", "ldbc-undirected-example",
    "ldbc-undirected-example-unweighted", "ldbc-undirected-example-bool",
    "ldbc-cdlp-directed-example", "ldbc-cdlp-undirected-example",
]
ALL = [*RANDOM, *FILES]
# Under mpiexec every collective costs milliseconds (six ranks share two cores in CI), so the
# distributed session reads each LDBC structure once for the pattern-only algorithms (the -bool
# and -unweighted files repeat a structure with another dtype; one BOOL file stays), leaves out
# the two CDLP examples and west0067 (which the PageRank, SSSP and validation tests still
# read), and searches from fewer roots. The serial session runs everything.
UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"
LEFT_OUT_UNDER_MPI = ["ldbc-directed-example", "ldbc-directed-example-unweighted",
                      "ldbc-undirected-example-unweighted", "ldbc-undirected-example-bool",
                      "ldbc-cdlp-directed-example", "ldbc-cdlp-undirected-example", "west0067"]
PATTERNS = [name for name in ALL if name not in LEFT_OUT_UNDER_MPI] if UNDER_MPI else ALL
LIBS = ("gblas2d", "graphblas")
# The engines a test parametrized by engine runs on. Under mpiexec python-graphblas would run
# the same whole graph on every rank, the one-process session's work again: the distributed
# session runs gblas2d alone (a fifth of its time at 2x2). Tests that compare the engines
# (the same error on both) loop over LIBS.
RUN_ON = ("gblas2d",) if UNDER_MPI else LIBS
# Graphs with non-negative numeric weights (west0067's are signed; the -bool/-unweighted and
# cdlp files are BOOL): the inputs of the shortest-path comparisons with Dijkstra.
WEIGHTED = ["rand-dir-int", "rand-undir-float", "rand-dir-sparse-float",
            "rand-undir-sparse-int", "karate", "west0067-abs", "ldbc-wcc-example",
            "ldbc-directed-example", "ldbc-undirected-example"]


@dataclass(frozen=True)
class Graph:
    name: str
    csr: sp.csr_array
    gb: gb.Matrix
    G: G.Matrix

    @property
    def n(self):
        return self.csr.shape[0]

    @property
    def pattern(self):
        """The adjacency pattern with unit weights (what BFS, PageRank and CC read)."""
        p = self.csr.astype(np.float64)
        p.data[:] = 1.0
        return p

    def on(self, lib):
        return self.gb if lib == "gblas2d" else self.G

    def sources(self, batch=False):
        """Search roots: the vertex of largest out-degree, then vertex 0 and the last one
        (under mpiexec: the busiest alone, or with the last for a batch)."""
        busiest = int(np.argmax(np.diff(self.csr.indptr)))
        others = sorted({0, self.n - 1} - {busiest})
        if UNDER_MPI:
            others = others[-1:] if batch else []
        return [busiest, *others]


def random_edges(seed, n, avg_degree, directed, weights):
    """A raw edge list (rows, cols, vals) with repeats, self loops and isolated vertices."""
    rng = np.random.default_rng(seed)
    active = n - n // 8  # the last eighth of the labels get no edge ...
    m = int(avg_degree * n) if directed else int(avg_degree * n / 2)
    rows = rng.integers(0, active, m)
    cols = rng.integers(0, active, m)
    loops = rng.integers(0, active, 3)
    again = rng.integers(0, m, m // 5)  # ... a fifth of the edges come twice, weighed anew
    rows = np.concatenate([rows, loops, rows[again]])
    cols = np.concatenate([cols, loops, cols[again]])
    if weights == "int":
        vals = rng.integers(1, 10, len(rows))
    else:
        vals = np.round(rng.uniform(0.1, 2.0, len(rows)), 3)
    if not directed:
        rows, cols, vals = np.r_[rows, cols], np.r_[cols, rows], np.r_[vals, vals]
    perm = rng.permutation(n)  # ... and are scattered over the id range
    return perm[rows], perm[cols], vals


def dedup_min(rows, cols, vals, n):
    """A CSR matrix keeping the smallest weight of repeated edges (SciPy would sum them)."""
    keys = np.asarray(rows, np.int64) * n + np.asarray(cols, np.int64)
    order = np.lexsort((vals, keys))
    keys, vals = keys[order], np.asarray(vals)[order]
    first = np.r_[True, keys[1:] != keys[:-1]][:len(keys)]
    keys, vals = keys[first], vals[first]
    return sp.csr_array((vals, (keys // n, keys % n)), shape=(n, n))


def from_edges(name, rows, cols, vals, n):
    """A Graph from a raw edge list; both engines combine the repeats with min."""
    return Graph(name, dedup_min(rows, cols, vals, n),
                 gb.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, dup_op=gb.binary.min),
                 G.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, dup_op=G.binary.min))


def from_scipy(name, csr):
    return Graph(name, csr, gblas2d.io.from_scipy_sparse(csr), G.io.from_scipy_sparse(csr))


def read_mtx(name):
    """A LAGraph Matrix Market file; SciPy skips the ``%%GraphBLAS type`` line as a comment,
    so a ``bool`` type there is applied here."""
    path = DATA / f"{name}.mtx"
    csr = sp.csr_array(scipy.io.mmread(path))
    with path.open() as f:
        header = [next(f) for _ in range(2)]
    if header[1].split()[:3] == ["%%GraphBLAS", "type", "bool"]:
        csr = csr.astype(bool)
    return csr


@functools.cache
def graph(name):
    """Collective (builds gblas2d matrices). The named test graph, built once per session."""
    if name in RANDOM:
        seed, n, avg_degree, directed, weights = RANDOM[name]
        return from_edges(name, *random_edges(seed, n, avg_degree, directed, weights), n)
    if name == "west0067-abs":
        return from_scipy(name, abs(read_mtx("west0067")))
    return from_scipy(name, read_mtx(name))


# ---------------------------------------------------------------- references


def levels_ref(g, s):
    """Hop counts from ``s`` (dense, -1 where unreached), from SciPy."""
    hops = csgraph.shortest_path(g.pattern, directed=True, unweighted=True, indices=s)
    return np.where(np.isfinite(hops), hops, -1).astype(np.int64)


def parents_ref(g, s):
    """The smallest-id parent on the previous level of each reached vertex (dense, -1 where
    unreached), from the SciPy levels."""
    level = levels_ref(g, s)
    csc = g.pattern.tocsc()
    parent = np.full(g.n, -1, dtype=np.int64)
    parent[s] = s
    for v in np.flatnonzero(level > 0):
        into = csc.indices[csc.indptr[v]:csc.indptr[v + 1]]
        parent[v] = into[level[into] == level[v] - 1].min()
    return parent


def components_ref(g):
    """Each vertex's smallest weakly connected vertex id, from SciPy."""
    _, label = csgraph.connected_components(g.pattern, directed=True, connection="weak")
    smallest = np.full(label.max() + 1, g.n)
    np.minimum.at(smallest, label, np.arange(g.n))
    return smallest[label]


# ---------------------------------------------------------------- agreed verdicts


def agreed(ok):
    """Collective. True when ``ok`` holds on every rank (one verdict for all ranks)."""
    comm = gb.default_grid().comm
    return bool(comm.allreduce(np.array([int(bool(ok))], dtype=np.int64), "min")[0])


def assert_agreed(excinfo, cls):
    """Collective. The exception is exactly ``cls``, with the same text on every rank."""
    e = excinfo.value
    assert type(e) is cls, f"{type(e).__name__}: {e}"
    seen = gb.default_grid().comm.allgather_object((type(e).__name__, str(e)))
    assert all(s == seen[0] for s in seen), seen


def dense_mismatch(v, expected, dtype, *, missing=-1, rtol=0.0):
    """None when Vector ``v`` (either engine) has ``dtype`` and holds ``expected`` (dense, with
    ``missing`` where no entry is expected); otherwise what differs."""
    if v.dtype.name != dtype:
        return f"dtype {v.dtype.name}, expected {dtype}"
    expected = np.asarray(expected)
    idx, vals = v.to_coo()
    idx = idx.astype(np.int64)
    want = np.flatnonzero(expected != missing)
    if not np.array_equal(idx, want):
        return (f"entries at {sorted(set(idx.tolist()) ^ set(want.tolist()))} differ in "
                f"presence")
    if rtol:
        close = np.isclose(vals, expected[want], rtol=rtol, atol=0)
    else:
        close = vals == expected[want]
    if not close.all():
        bad = np.flatnonzero(~close)[:5]
        return f"at {idx[bad]}: got {vals[bad]}, expected {expected[want][bad]}"
    return None


def assert_dense(v, expected, dtype, *, missing=-1, rtol=0.0, what=""):
    """Collective for a gblas2d ``v``: ``dense_mismatch`` is None on every rank. (Each rank
    computes a python-graphblas result alone; a plain assert serves for it.)"""
    problem = dense_mismatch(v, expected, dtype, missing=missing, rtol=rtol)
    if isinstance(v, gb.Vector):
        assert agreed(problem is None), f"{what}: {problem or 'differs on another rank'}"
    else:
        assert problem is None, f"{what}: {problem}"


def assert_same_error_everywhere(cls, call, fragment):
    """Collective. ``call(lib)`` raises exactly ``cls`` on both engines, with the same text on
    every rank and on both engines, and the text holds ``fragment``."""
    messages = []
    for lib in LIBS:
        with pytest.raises(cls) as exc:
            call(lib)
        assert_agreed(exc, cls)
        messages.append(str(exc.value))
    assert fragment in messages[0], messages
    assert messages[0] == messages[1], messages
