"""connected_components against SciPy's weak components, each labelled by its smallest vertex
id, for both methods on both engines (integer labels: exact)."""

import numpy as np
import pytest
from _graphs import ENGINES, LIBS, PATTERNS, RUN_ON, assert_dense, components_ref, from_edges, graph
from gblas2d.algorithms import connected_components

METHODS = ["fastsv", "label_propagation"]


@pytest.mark.parametrize("name", PATTERNS)
@pytest.mark.parametrize("method", METHODS)
def test_matches_scipy_weak_components(name, method):
    g = graph(name)
    want = components_ref(g)
    for lib in LIBS:
        assert_dense(connected_components(g.on(lib), method), want, "INT64", what=lib)


def test_default_method_is_fastsv():
    g = graph("rand-dir-sparse-float")
    assert_dense(connected_components(g.gb), components_ref(g), "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", METHODS)
def test_edges_against_the_labels(lib, method):
    # A directed path n-1 -> n-2 -> ... -> 0 (each label travels the whole path, against the
    # edge directions), a directed star into vertex 25 from larger ids, and vertices with only
    # a self loop or nothing: each weak component still gets its smallest id.
    n = 40
    path = np.arange(1, 20)
    star = np.arange(26, 34)
    rows = np.r_[path, star, 35, 36, 36]
    cols = np.r_[path - 1, np.full(len(star), 25), 35, 37, 36]
    g = from_edges("shapes", rows, cols, np.ones(len(rows), int), n)
    want = components_ref(g)
    assert want[19] == 0 and want[33] == 25 and want[37] == 36  # the reference agrees
    assert_dense(connected_components(g.on(lib), method), want, "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(3))
def test_random_forests(lib, method, seed):
    # Random trees joined at random ids: components of every size, long chains included.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 120))
    parent = np.array([rng.integers(0, v) if v and rng.random() < 0.9 else v for v in range(n)])
    perm = rng.permutation(n)
    rows, cols = perm[np.arange(n)], perm[parent]
    g = from_edges("forest", rows, cols, np.ones(n, int), n)
    assert_dense(connected_components(g.on(lib), method), components_ref(g), "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("method", METHODS)
def test_one_vertex_and_empty(lib, method):
    one = from_edges("one", [], [], np.array([], int), 1)
    assert_dense(connected_components(one.on(lib), method), [0], "INT64")
    labels = connected_components(ENGINES[lib].Matrix("BOOL", 0, 0), method)
    assert (labels.size, labels.nvals, labels.dtype.name) == (0, 0, "INT64")
