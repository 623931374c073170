"""fused_bpt against separate reverse searches of the same sampled graphs, influence_maximization
against a brute-force Monte-Carlo estimate, and both engines giving the same samples.

The samples come from ``live_bits`` (a counter-based hash of seed, edge and word): the reference
rebuilds each color's live edges from it and searches with SciPy, so what is checked is the
fused traversal and its bookkeeping. That the bits have the asked probability is checked
separately, statistically.
"""

import itertools
import math

import numpy as np
import pytest
import scipy.sparse as sp
from _graphs import (
    ENGINES,
    LIBS,
    RUN_ON,
    UNDER_MPI,
    agreed,
    assert_same_error_everywhere,
    graph,
)
from gblas2d.algorithms import fused_bpt, influence_maximization
from gblas2d.algorithms.fused_bpt import live_bits
from scipy.sparse import csgraph

from gblas2d.exceptions import DimensionMismatch, IndexOutOfBound, InvalidValue

GRAPHS = ["rand-dir-int", "rand-undir-float", "karate"] if UNDER_MPI else \
    ["rand-dir-int", "rand-undir-float", "rand-dir-sparse-float", "karate",
     "ldbc-directed-example", "west0067"]


def thresholds(csr, probability):
    if probability == "weight":
        return (csr.data * 2.0**32).astype(np.uint64)
    return np.full(csr.nnz, np.uint64(probability * 2.0**32))


def bpt_ref(csr, sources, probability, seed):
    """(rrr as an n x words uint64 array, edges_fused, edges_unfused, levels) from one SciPy
    search per color over that color's live edges, reversed."""
    n = csr.shape[0]
    coo = csr.tocoo()
    t = thresholds(csr, probability)
    words = -(-len(sources) // 64)
    rrr = np.zeros((n, words), dtype=np.uint64)
    indeg = np.bincount(coo.col, minlength=n)
    dist = np.full((len(sources), n), -1)
    for c, s in enumerate(sources):
        bits = live_bits(t, coo.row, coo.col, c // 64, seed)
        live = ((bits >> np.uint64(c % 64)) & np.uint64(1)).astype(bool)
        reverse = sp.csr_array((np.ones(live.sum()), (coo.col[live], coo.row[live])),
                               shape=(n, n))
        hops = csgraph.shortest_path(reverse, unweighted=True, indices=s)
        reached = np.isfinite(hops)
        dist[c, reached] = hops[reached]
        rrr[reached, c // 64] |= np.uint64(1) << np.uint64(c % 64)
    unfused = int(sum(indeg[dist[c] >= 0].sum() for c in range(len(sources))))
    fused = 0
    for w in range(words):
        block = dist[64 * w:64 * (w + 1)]
        for level in range(block.max() + 1):
            fused += int(indeg[(block == level).any(axis=0)].sum())
    return rrr, fused, unfused, int(dist.max()) + 1


def dense_rrr(result, n):
    rows, cols, vals = result.rrr.to_coo()
    out = np.zeros((n, result.rrr.ncols), dtype=np.uint64)
    out[rows.astype(np.int64), cols.astype(np.int64)] = vals
    return out, len(vals)


def check(result, want, n, what):
    rrr, fused, unfused, levels = want
    got, nvals = dense_rrr(result, n)
    problem = None
    if result.rrr.dtype.name != "UINT64" or not np.array_equal(got, rrr):
        problem = "RRR sets differ"
    elif nvals != np.count_nonzero(rrr):
        problem = "explicit zero words kept"
    elif (result.edges_fused, result.edges_unfused, result.levels) != (fused, unfused, levels):
        problem = (f"counts {result.edges_fused, result.edges_unfused, result.levels}, "
                   f"expected {fused, unfused, levels}")
    assert agreed(problem is None), f"{what}: {problem or 'differs on another rank'}"


@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("probability", [0.3, 0.05])
def test_rrr_sets_match_separate_searches(name, probability):
    g = graph(name)
    rng = np.random.default_rng(7)
    colors = 70 if UNDER_MPI else 130  # two or three words, the last one partly used
    sources = rng.integers(0, g.n, colors).tolist()
    want = bpt_ref(g.csr, sources, probability, 11)
    for lib in LIBS:
        result = fused_bpt(g.on(lib), sources, probability, 11)
        assert result.colors == colors
        check(result, want, g.n, f"{lib} {name} p={probability}")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("name", ["rand-undir-float", "karate"])
def test_unfused_baseline_draws_the_same_samples(lib, name):
    # One color per frontier column: the same RRR sets, and every edge visit is per color.
    g = graph(name)
    sources = np.random.default_rng(2).integers(0, g.n, 100).tolist()
    rrr, fused, unfused, levels = bpt_ref(g.csr, sources, 0.2, 4)
    result = fused_bpt(g.on(lib), sources, 0.2, 4, fused=False)
    assert result.rrr.shape == (g.n, 2)
    check(result, (rrr, unfused, unfused, levels), g.n, f"{lib} {name}")
    assert fused < unfused  # the fused run saves work on these graphs


@pytest.mark.parametrize("lib", RUN_ON)
def test_weights_as_probabilities(lib):
    # Edge weights in [0, 1], exactly 0 and 1 included.
    g = graph("rand-dir-sparse-float")
    csr = g.csr.copy()
    csr.data = np.round(np.random.default_rng(1).uniform(0, 1, csr.nnz), 2)
    csr.data[:5], csr.data[5:10] = 0.0, 1.0
    A = ENGINES[lib].io.from_scipy_sparse(csr)
    sources = list(range(0, g.n, 3))
    check(fused_bpt(A, sources, "weight", 3), bpt_ref(csr, sources, "weight", 3), g.n, lib)


@pytest.mark.parametrize("lib", RUN_ON)
def test_certain_and_impossible_edges(lib):
    # p = 1: the RRR set is everything that reaches the source; p = 0: the source alone.
    g = graph("rand-dir-int")
    sources = [0, 5, 17, 5]
    full = fused_bpt(g.on(lib), sources, 1.0, 0)
    reach = csgraph.shortest_path(g.pattern.T, unweighted=True, indices=sources)
    got, _ = dense_rrr(full, g.n)
    bits = [(got[:, 0] >> np.uint64(c)) & np.uint64(1) for c in range(len(sources))]
    assert agreed(all(np.array_equal(b.astype(bool), np.isfinite(r))
                      for b, r in zip(bits, reach, strict=True)))
    none = fused_bpt(g.on(lib), sources, 0.0, 0)
    got, nvals = dense_rrr(none, g.n)
    assert agreed(nvals == 3 and got[0, 0] == 1 and got[5, 0] == 0b1010 and got[17, 0] == 4)
    assert none.edges_fused == int(g.pattern.T[[0, 5, 17]].sum())  # one level, words merged


@pytest.mark.serial_only  # numpy alone: nothing of it is distributed
def test_live_bits_have_the_probability():
    # 64 * 20000 Bernoulli draws per probability: the observed rate lies within 5 standard
    # deviations, and a wanted mask only clears bits.
    n = 20000
    u, v = np.arange(n), np.arange(n)[::-1]
    for p in [0.0, 2.0**-20, 0.01, 0.3, 0.5, 0.97, 1.0]:
        bits = live_bits(np.full(n, np.uint64(p * 2.0**32)), u, v, 3, 42)
        rate = np.bitwise_count(bits).sum() / (64 * n)
        assert abs(rate - p) <= 5 * math.sqrt(p * (1 - p) / (64 * n)) + 1e-12, (p, rate)
        wanted = np.uint64(0xF0F00000000000FF)
        assert np.array_equal(live_bits(np.full(n, np.uint64(p * 2.0**32)), u, v, 3, 42,
                                        wanted=wanted), bits & wanted)
    other = live_bits(np.full(n, np.uint64(2**31)), u, v, 4, 42)
    assert not np.array_equal(other, live_bits(np.full(n, np.uint64(2**31)), u, v, 3, 42))


@pytest.mark.serial_only  # numpy alone: nothing of it is distributed
def test_live_bits_of_an_edge_do_not_depend_on_the_others():
    # Long arrays are drawn a chunk at a time: each element's word is the one it has alone,
    # whatever its neighbours, its place in the array and the chunk it falls in.
    n = 100_003
    rng = np.random.default_rng(7)
    t = rng.integers(0, 2**32, n, dtype=np.uint64)
    u, v, word = rng.integers(0, 10**6, n), rng.integers(0, 10**6, n), rng.integers(0, 9, n)
    bits = live_bits(t, u, v, word, 11)
    for at in [0, 5, 2**15 - 1, 2**15, 70_000, n - 1]:
        one = slice(at, at + 1)
        assert live_bits(t[one], u[one], v[one], word[one], 11) == bits[one]
    back = slice(None, None, -1)
    assert np.array_equal(live_bits(t[back], u[back], v[back], word[back], 11), bits[back])


# ------------------------------------------------------------------ influence maximization


def monte_carlo_spread(csr, probability, sims, seed):
    """Expected activations of every single vertex set, by simulating the cascade ``sims``
    times with numpy's generator: reach[s, v, sim] (transitive closure of each live graph)."""
    n = csr.shape[0]
    coo = csr.tocoo()
    rng = np.random.default_rng(seed)
    live = rng.random((sims, coo.nnz)) < probability
    reach = np.zeros((sims, n, n), dtype=bool)
    reach[:, np.arange(n), np.arange(n)] = True
    reach[:, coo.row, coo.col] |= live
    for k in range(n):  # Warshall, all samples at once
        reach |= reach[:, :, k:k + 1] & reach[:, k:k + 1, :]
    return reach


def spread_of(reach, seeds):
    return reach[:, list(seeds), :].any(axis=1).sum(axis=1).mean()


@pytest.mark.parametrize("k", [1, 2, 3])
def test_influence_against_monte_carlo(k):
    # A 14-vertex directed graph, p = 0.3: the greedy seeds' estimated spread matches a
    # 20000-run simulation within the two estimates' joint error, and comes within the greedy
    # bound (1 - 1/e) of the best seed set found by trying them all.
    rng = np.random.default_rng(5)
    n = 14
    rows, cols = rng.integers(0, n, 40), rng.integers(0, n, 40)
    csr = sp.csr_array((np.ones(40), (rows, cols)), shape=(n, n))
    csr.sum_duplicates()
    csr.data[:] = 1.0
    reach = monte_carlo_spread(csr, 0.3, 20000, 1)
    best = max(spread_of(reach, s) for s in itertools.combinations(range(n), k))
    samples = 8192
    results = [influence_maximization(ENGINES[lib].io.from_scipy_sparse(csr), k,
                                      samples=samples, probability=0.3, seed=9) for lib in LIBS]
    assert results[0] == results[1]
    seeds, estimate = results[0].seeds, results[0].spread
    assert len(set(seeds)) == k
    simulated = spread_of(reach, seeds)
    q = estimate / n
    error = math.hypot(n * math.sqrt(q * (1 - q) / samples), n / 2 / math.sqrt(20000))
    assert abs(estimate - simulated) <= 5 * error, (estimate, simulated, error)
    assert simulated >= (1 - 1 / math.e) * best, (simulated, best)


@pytest.mark.parametrize("lib", RUN_ON)
def test_influence_on_a_certain_graph(lib):
    # p = 1 on two stars (hubs 0 and 7) and an isolated vertex: the hubs come first, bigger star
    # first, then the smallest ids that add nothing.
    rows = [0] * 6 + [7] * 3
    cols = [1, 2, 3, 4, 5, 6, 8, 9, 10]
    A = ENGINES[lib].Matrix.from_coo(rows, cols, 1.0, nrows=12, ncols=12)
    result = influence_maximization(A, 4, samples=3000, probability=1.0, seed=1)
    assert result.seeds[:2] == [0, 7]
    assert result.seeds[2:] == [11, 1]  # 11 is its own RRR set; then nothing is left
    assert result.spread == 12.0 and result.samples == 3000


BAD = [
    ("rectangular", DimensionMismatch,
     lambda L: fused_bpt(ENGINES[L].Matrix.from_coo([0], [1], nrows=2, ncols=3), [0]), "(=3)"),
    ("source-out-of-range", IndexOutOfBound, lambda L: fused_bpt(graph("karate").on(L), [40]),
     "(=40)"),
    ("probability-above-one", InvalidValue,
     lambda L: fused_bpt(graph("karate").on(L), [0], 1.5), "1.5"),
    ("probability-nan", InvalidValue,
     lambda L: fused_bpt(graph("karate").on(L), [0], float("nan")), "nan"),
    ("probability-word", InvalidValue,
     lambda L: fused_bpt(graph("karate").on(L), [0], "weights"), "'weights'"),
    ("probability-type", TypeError,
     lambda L: fused_bpt(graph("karate").on(L), [0], None), "NoneType"),
    ("weights-not-probabilities", InvalidValue,
     lambda L: fused_bpt(graph("rand-dir-int").on(L), [0], "weight"), "[1, 9]"),
    ("seed-type", TypeError, lambda L: fused_bpt(graph("karate").on(L), [0], 0.1, 1.5),
     "float"),
    ("im-k-too-large", InvalidValue,
     lambda L: influence_maximization(graph("karate").on(L), 35), "(=35)"),
    ("im-k-negative", InvalidValue,
     lambda L: influence_maximization(graph("karate").on(L), -1), "-1"),
    ("im-samples-zero", InvalidValue,
     lambda L: influence_maximization(graph("karate").on(L), 2, samples=0), "got 0"),
    ("im-k-float", TypeError,
     lambda L: influence_maximization(graph("karate").on(L), 2.0), "float"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_input(case):
    _, cls, call, fragment = case
    assert_same_error_everywhere(cls, call, fragment)
