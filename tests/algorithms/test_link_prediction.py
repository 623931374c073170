"""link_prediction against networkx's link predictors, on both engines.

The graphs: karate, and a random undirected graph with self loops and isolated vertices (the
self loops are where ``common_neighbors`` leaves u and v out and the degrees count a loop
twice). The pairs: every non-edge of karate, and on the random graph a sample of pairs that
includes edges, self pairs (u, u) and isolated vertices. Scores agree within 1e-12 (networkx
sums the same terms in another order; preferential_attachment and the counts are exact).
"""

import math

import networkx as nx
import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_same_error_everywhere, graph
from gblas2d.algorithms import link_prediction

from gblas2d.exceptions import DimensionMismatch, InvalidValue

REFERENCE = {
    "jaccard": nx.jaccard_coefficient,
    "resource_allocation": nx.resource_allocation_index,
    "adamic_adar": nx.adamic_adar_index,
    "preferential_attachment": nx.preferential_attachment,
    "common_neighbors": lambda G, pairs: ((u, v, len(nx.common_neighbors(G, u, v)))
                                          for u, v in pairs),
}


def looped_graph():
    """A random graph of 40 vertices with 3 self loops and 4 isolated vertices."""
    G = nx.gnm_random_graph(36, 80, seed=11)
    G.add_nodes_from(range(36, 40))
    G.add_edges_from([(0, 0), (5, 5), (9, 9)])
    return G


def sample_pairs(G):
    rng = np.random.default_rng(2)
    pairs = {(int(u), int(v)) for u, v in rng.integers(0, len(G), (120, 2))}
    return sorted(pairs | {(0, 0), (5, 9), (0, 1), (36, 37), (1, 36)})


def run(lib, G, pairs, method):
    ns = ENGINES[lib]
    n = len(G)
    rows, cols = zip(*G.edges, strict=True)
    # both directions of each edge; a self loop's two copies fold into one
    A = ns.Matrix.from_coo(rows + cols, cols + rows, np.ones(2 * len(rows)), nrows=n, ncols=n,
                           dup_op=ns.binary.any)
    r, c = map(list, zip(*pairs, strict=True))
    M = ns.Matrix.from_coo(r, c, True, nrows=n, ncols=n)
    S = link_prediction(A, M, method)
    got_r, got_c, scores = S.to_coo()
    assert S.dtype.name == "FP64" and S.nvals == len(pairs)
    return dict(zip(zip(got_r.tolist(), got_c.tolist(), strict=True), scores.tolist(),
                    strict=True))


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", list(REFERENCE))
def test_matches_networkx(lib, method):
    karate, looped = nx.karate_club_graph(), looped_graph()
    for G, pairs in ((karate, list(nx.non_edges(karate))), (looped, sample_pairs(looped))):
        # networkx's adamic_adar divides by log(1) = 0 for a self pair's leaf neighbour
        pairs = [p for p in pairs if not (method == "adamic_adar" and p[0] == p[1])]
        got = run(lib, G, pairs, method)
        want = {(u, v): s for u, v, s in REFERENCE[method](G, pairs)}
        assert got.keys() == want.keys()
        assert all(math.isclose(got[p], want[p], rel_tol=0, abs_tol=1e-12) for p in want), \
            max(abs(got[p] - want[p]) for p in want)


def test_errors():
    g = graph("karate")
    assert_same_error_everywhere(InvalidValue, lambda lib: link_prediction(
        g.on(lib), g.on(lib), "katz"), "method (='katz')")
    assert_same_error_everywhere(DimensionMismatch, lambda lib: link_prediction(
        g.on(lib), ENGINES[lib].Matrix("BOOL", 3, 3), "jaccard"), "pairs.nrows (=3)")
