"""betweenness_centrality against networkx (unweighted, ``normalized=False``), on both engines:
every source (``betweenness_centrality``, a Graph for a symmetric pattern with
``directed=False``, a DiGraph otherwise) and a list of sources (``betweenness_centrality_subset``
with every vertex a target, which sums the given sources' dependencies as ours does; the k-sample
``betweenness_centrality(k=...)`` extrapolates instead); batches of 1, 3 and more than n sources;
known answers on paths and stars; bad input.

Tolerance: rel 1e-9 against networkx and between the engines (path counts are exact integers in
FP64; the dependencies are sums of quotients, added in another order than networkx's). Zero
stays exactly zero: a dependency is a sum of positive terms or nothing.
"""

import random

import networkx as nx
import numpy as np
import pytest
from _graphs import (
    ENGINES,
    LIBS,
    PATTERNS,
    RUN_ON,
    UNDER_MPI,
    assert_agreed,
    assert_dense,
    assert_same_error_everywhere,
    from_edges,
    graph,
)
from gblas2d.algorithms.betweenness_centrality import (
    betweenness_centrality,
    edge_betweenness_centrality,
)

from gblas2d.exceptions import DimensionMismatch, IndexOutOfBound, InvalidValue

RTOL = 1e-9


def symmetric(g):
    return (g.pattern != g.pattern.T).nnz == 0


def nx_graph(g, directed):
    """The networkx graph of the ``csr`` reference (duplicates already combined; self loops
    kept, and ignored by networkx's shortest paths as by ours)."""
    return nx.from_scipy_sparse_array(g.pattern, create_using=nx.DiGraph if directed else nx.Graph)


def dense(result, n):
    return np.array([result[v] for v in range(n)])


def nx_all(g, directed):
    return dense(nx.betweenness_centrality(nx_graph(g, directed), normalized=False), g.n)


def nx_subset(g, sources, directed):
    D = nx_graph(g, directed)
    return dense(nx.betweenness_centrality_subset(D, sources, list(D), normalized=False), g.n)


def assert_bc(result, want, what):
    assert_dense(result, want, "FP64", missing=np.nan, rtol=RTOL, what=what)


@pytest.mark.parametrize("name", PATTERNS)
def test_all_sources_match_networkx(name):
    # The default batches of 64 sources; under mpiexec one batch, a quarter of the collectives.
    g = graph(name)
    # A symmetric pattern is the undirected graph: networkx halves its ordered-pair sums.
    directed = not symmetric(g)
    want = nx_all(g, directed)
    batch_size = max(g.n, 1) if UNDER_MPI else 64
    for lib in LIBS:
        ours = betweenness_centrality(g.on(lib), batch_size=batch_size, directed=directed)
        assert_bc(ours, want, lib)


@pytest.mark.parametrize("name", ["karate"] if UNDER_MPI else ["karate", "rand-undir-sparse-int"])
def test_a_symmetric_pattern_as_a_digraph(name):
    # directed=True (the default) counts both (s, t) and (t, s): networkx's DiGraph of the
    # same pattern, twice its Graph.
    g = graph(name)
    want = nx_all(g, True)
    assert np.allclose(want, 2 * nx_all(g, False), rtol=RTOL, atol=0)
    for lib in LIBS:
        assert_bc(betweenness_centrality(g.on(lib)), want, lib)


def subset(g):
    """A few sources: the busiest vertex, the last one, and an isolated one when there is."""
    isolated = np.flatnonzero(np.diff(g.csr.indptr) + np.diff(g.csr.tocsc().indptr) == 0)
    return [*g.sources(batch=True), *isolated[:1].tolist(), g.n // 2]


@pytest.mark.parametrize("name", PATTERNS)
def test_source_subset_matches_networkx_subset(name):
    g = graph(name)
    directed = not symmetric(g)
    sources = subset(g)
    want = nx_subset(g, sources, directed)
    for lib in LIBS:
        ours = betweenness_centrality(g.on(lib), sources, batch_size=3, directed=directed)
        assert_bc(ours, want, lib)


BATCH_GRAPHS = ["karate"] if UNDER_MPI else \
    ["rand-dir-int", "rand-dir-sparse-float", "karate", "ldbc-directed-example"]


@pytest.mark.parametrize("name", BATCH_GRAPHS)
@pytest.mark.parametrize("lib", RUN_ON)
def test_batch_sizes_agree(name, lib):
    # Every source (under mpiexec a subset), in batches of 3 and more than n (one batch), and
    # every fourth source (or the subset) in batches of 1: one column, the single-source
    # Brandes, whose hundreds of small searches took 22 s of the suite on every source.
    g = graph(name)
    directed = not symmetric(g)
    if UNDER_MPI:
        every = fourth = subset(g)
    else:
        every, fourth = None, list(range(0, g.n, 4))
    for batch_size, sources in [(1, fourth), (3, every), (g.n + 5, every)]:
        want = nx_all(g, directed) if sources is None else nx_subset(g, sources, directed)
        ours = betweenness_centrality(g.on(lib), sources, batch_size=batch_size,
                                      directed=directed)
        assert_bc(ours, want, f"{lib}, batch_size={batch_size}")


@pytest.mark.parametrize("name", ["karate"] if UNDER_MPI else ["rand-dir-int", "karate"])
def test_engines_agree(name):
    g = graph(name)
    ours = betweenness_centrality(g.gb, batch_size=20)
    theirs = betweenness_centrality(g.G, batch_size=20)
    assert_bc(theirs, ours.to_dense(), "python-graphblas against gblas2d")


@pytest.mark.parametrize("lib", RUN_ON)
def test_source_forms(lib):
    # One integer, numpy integers, and a repeated source, which counts twice (networkx's
    # subset sums over the sources as given, repeats included).
    g = graph("rand-dir-int")
    A = g.on(lib)
    s = subset(g)[0]
    one = nx_subset(g, [s], True)
    assert_bc(betweenness_centrality(A, s), one, "one integer")
    assert_bc(betweenness_centrality(A, np.array([s], dtype=np.int32)), one, "numpy")
    assert_bc(betweenness_centrality(A, [s, s], batch_size=1), 2 * one, "repeated")
    assert_bc(betweenness_centrality(A, [s, s, s]), nx_subset(g, [s, s, s], True), "nx repeats")


@pytest.mark.parametrize("lib", RUN_ON)
def test_known_answers_on_paths_and_stars(lib):
    # Undirected path 0 - 1 - ... - (m-1): vertex i lies on the paths of i * (m-1-i) pairs.
    # Undirected star, hub m and leaves m+1 .. m+l: the hub lies on the l(l-1)/2 leaf pairs.
    # A loop at path vertex 3 and an isolated last vertex change nothing.
    m, leaves = (8 if UNDER_MPI else 12), 5
    path = np.arange(m - 1)
    hub, star = m, np.arange(m + 1, m + 1 + leaves)
    n = m + 1 + leaves + 1
    rows = np.r_[path, path + 1, star, np.full(leaves, hub), 3]
    cols = np.r_[path + 1, path, np.full(leaves, hub), star, 3]
    g = from_edges("path-star", rows, cols, np.ones(len(rows), int), n)
    want = np.zeros(n)
    want[:m] = np.arange(m) * (m - 1 - np.arange(m))
    want[hub] = leaves * (leaves - 1) / 2
    assert np.allclose(nx_all(g, False), want)
    assert_bc(betweenness_centrality(g.on(lib), directed=False), want, "undirected")
    assert_bc(betweenness_centrality(g.on(lib), batch_size=10), 2 * want, "directed")
    # One way only: the hub has in-edges from the leaves and no out-edge, so carries nothing.
    one_way = from_edges("star-in", star, np.full(leaves, hub), np.ones(leaves, int), n)
    assert_bc(betweenness_centrality(one_way.on(lib)), np.zeros(n), "star into the hub")


@pytest.mark.parametrize("lib", RUN_ON)
def test_one_vertex_and_empty(lib):
    one = from_edges("one", [0], [0], np.array([1]), 1)
    assert_bc(betweenness_centrality(one.on(lib)), [0.0], "one vertex with a loop")
    assert_bc(betweenness_centrality(one.on(lib), [0, 0]), [0.0], "its one source twice")
    empty = betweenness_centrality(ENGINES[lib].Matrix("BOOL", 0, 0))
    assert (empty.size, empty.nvals, empty.dtype.name) == (0, 0, "FP64")


@pytest.mark.parametrize("name", ["karate", "rand-dir-int"])
@pytest.mark.parametrize("lib", RUN_ON)
def test_edge_betweenness_matches_networkx(name, lib):
    # networkx's edge_betweenness_centrality (normalized=False) of the Graph (directed=False:
    # each edge the mean of its two directions, C symmetric) or the DiGraph; no entry on a
    # self loop. With k sources networkx samples random.Random(seed).sample(list(G), k) and
    # scales the sum by n / k; ours sums the same sources, unscaled.
    g = graph(name)
    directed = not symmetric(g)
    D = nx_graph(g, directed)
    k = 1 if UNDER_MPI else 3
    sampled = random.Random(7).sample(list(D), k)
    for sources, kw, scale in ((None, {}, 1.0), (sampled, {"k": k, "seed": 7}, k / g.n)):
        want = nx.edge_betweenness_centrality(D, normalized=False, **kw)
        C = edge_betweenness_centrality(g.on(lib), sources, batch_size=16, directed=directed)
        rows, cols, values = C.to_coo()
        got = dict(zip(zip(rows.tolist(), cols.tolist(), strict=True), values.tolist(),
                       strict=True))
        assert all(u != v for u, v in got)
        for (u, v), w in want.items():
            assert got.get((u, v), 0.0) == pytest.approx(w * scale, rel=RTOL, abs=1e-12)
            if not directed:
                assert got.get((v, u), 0.0) == got.get((u, v), 0.0)


def square(lib):
    return graph("karate").on(lib)


BAD = [
    ("rectangular", DimensionMismatch,
     lambda L: betweenness_centrality(ENGINES[L].Matrix.from_coo([0], [1], nrows=3, ncols=4)),
     "Matrix.ncols (=4)"),
    ("source-too-large", IndexOutOfBound, lambda L: betweenness_centrality(square(L), 34),
     "(=34)"),
    ("source-in-list-negative", IndexOutOfBound,
     lambda L: betweenness_centrality(square(L), [0, -1]), "(=-1)"),
    ("source-float", TypeError, lambda L: betweenness_centrality(square(L), [1.0]), "float"),
    ("sources-string", TypeError, lambda L: betweenness_centrality(square(L), "0"), "str"),
    ("sources-empty", InvalidValue, lambda L: betweenness_centrality(square(L), []),
     "at least one"),
    ("batch-zero", InvalidValue, lambda L: betweenness_centrality(square(L), batch_size=0),
     "(=0)"),
    ("batch-negative", InvalidValue, lambda L: betweenness_centrality(square(L), batch_size=-3),
     "(=-3)"),
    ("batch-fraction", TypeError, lambda L: betweenness_centrality(square(L), batch_size=2.5),
     "float"),
    ("batch-bool", TypeError, lambda L: betweenness_centrality(square(L), batch_size=True),
     "bool"),
    ("batch-none", TypeError, lambda L: betweenness_centrality(square(L), batch_size=None),
     "NoneType"),
    ("vector", TypeError,
     lambda L: betweenness_centrality(ENGINES[L].Vector.from_coo([0], [1], size=3)), "Vector"),
    ("numpy", TypeError, lambda L: betweenness_centrality(np.eye(3)), "ndarray"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_input(case):
    # The same class and text on every rank and on both engines, raised before any work.
    _, cls, call, fragment = case
    assert_same_error_everywhere(cls, call, fragment)


def test_collectives_line_up_after_the_errors():
    for _, cls, call, _ in BAD:
        with pytest.raises(cls) as exc:
            call("gblas2d")
        assert_agreed(exc, cls)
    g = graph("karate")
    assert_bc(betweenness_centrality(g.gb, [0, 33], directed=False),
              nx_subset(g, [0, 33], False), "after the errors")
