"""validate_bfs_tree: every BFS tree passes, and each corruption fails exactly its own check.

The corruptions are picked from a seeded random undirected graph by looking at the reference
tree and levels in numpy, so each one is what the test says it is (for example that the new
parent really is a neighbour on the same level). Every check's definition is in the module
docstring of ``algorithms/validate_bfs_tree.py``.
"""

import numpy as np
import pytest
from _graphs import (
    ENGINES,
    LIBS,
    PATTERNS,
    RUN_ON,
    agreed,
    assert_dense,
    from_edges,
    graph,
    levels_ref,
    parents_ref,
    random_edges,
)
from gblas2d.algorithms import BFSTreeCheck, bfs_levels, bfs_parents, validate_bfs_tree


def vector(lib, dense, n):
    """An INT64 Vector of ``lib`` holding the entries of ``dense`` other than -1."""
    idx = np.flatnonzero(dense != -1)
    return ENGINES[lib].Vector.from_coo(idx, dense[idx], dtype="INT64", size=n)


def assert_verdict(check, failures, what=""):
    assert isinstance(check, BFSTreeCheck), what
    assert agreed(check.failures == failures), f"{what}: {check.failures} != {failures}"
    assert bool(check) is (failures == ()), what


@pytest.mark.parametrize("name", PATTERNS)
def test_bfs_trees_pass(name):
    g = graph(name)
    for s in g.sources():
        for lib in LIBS:
            A = g.on(lib)
            parents = bfs_parents(A, s)
            what = f"{lib}, source {s}"
            check = validate_bfs_tree(A, s, parents)
            assert_verdict(check, (), what)
            # Without levels=, the levels used are the depths in the tree: the BFS levels.
            assert_dense(check.levels, levels_ref(g, s), "INT64", what=what)


@pytest.mark.parametrize("name", ["rand-dir-int", "rand-undir-float", "west0067",
                                  "ldbc-directed-example-bool"])
@pytest.mark.parametrize("lib", RUN_ON)
def test_every_row_of_a_batch_passes_with_its_levels(name, lib):
    g = graph(name)
    A = g.on(lib)
    sources = g.sources(batch=True)
    P, L = bfs_parents(A, sources), bfs_levels(A, sources)
    for t, s in enumerate(sources):
        parents, levels = P[t, :].new(), L[t, :].new()
        assert_verdict(validate_bfs_tree(A, s, parents, levels=levels), (), f"row {t}")


# ---------------------------------------------------------------- corrupted trees


class Tree:
    """A seeded undirected random graph, a root, its BFS tree and levels, in numpy."""

    def __init__(self):
        rows, cols, vals = random_edges(7, 80, 4.0, False, "int")
        self.g = from_edges("tree", rows, cols, vals, 80)
        self.n = self.g.n
        self.s = self.g.sources()[0]
        self.parent = parents_ref(self.g, self.s)
        self.level = levels_ref(self.g, self.s)
        self.adj = self.g.pattern.toarray() != 0
        reached = self.level >= 0
        reached[self.s] = False
        self.reached = np.flatnonzero(reached)  # reached vertices other than the root
        self.leaves = np.setdiff1d(self.reached, self.parent[self.parent >= 0])
        self.rng = np.random.default_rng(2024)

    def pick(self, candidates):
        assert len(candidates) > 0, "the seeded graph has no candidate for this corruption"
        return candidates[self.rng.integers(len(candidates))]

    def same_level_neighbours(self, vertices):
        """(v, w) with an edge w -> v, w != v, on v's level."""
        return [(v, w) for v in vertices for w in np.flatnonzero(self.adj[:, v])
                if w != v and self.level[w] == self.level[v]]

    def check(self, lib, parent, level=None):
        A = self.g.on(lib)
        levels = None if level is None else vector(lib, level, self.n)
        return validate_bfs_tree(A, self.s, vector(lib, parent, self.n), levels=levels)


@pytest.fixture(scope="module")
def tree():
    return Tree()


@pytest.mark.parametrize("lib", RUN_ON)
def test_the_uncorrupted_tree_passes(tree, lib):
    assert_verdict(tree.check(lib, tree.parent), ())
    assert_verdict(tree.check(lib, tree.parent, tree.level), ())


@pytest.mark.parametrize("lib", RUN_ON)
def test_two_cycle_fails_no_cycles(tree, lib):
    # Two adjacent reached vertices made each other's parent: a cycle the root cannot reach.
    # Both tree edges are graph edges and no level is checked against them.
    pairs = [(u, v) for u in tree.reached for v in tree.reached
             if u < v and tree.adj[u, v] and tree.adj[v, u]]
    u, v = tree.pick(pairs)
    parent = tree.parent.copy()
    parent[u], parent[v] = v, u
    assert_verdict(tree.check(lib, parent), ("no_cycles",))


@pytest.mark.parametrize("lib", RUN_ON)
def test_same_level_parent_with_given_levels_fails_tree_levels(tree, lib):
    # v re-pointed at an in-neighbour on its own level: the given levels no longer step by one
    # along that tree edge, though they stay valid BFS levels of the graph.
    v, w = tree.pick(tree.same_level_neighbours(tree.reached))
    parent = tree.parent.copy()
    parent[v] = w
    assert_verdict(tree.check(lib, parent, tree.level), ("tree_levels",))


@pytest.mark.parametrize("lib", RUN_ON)
def test_shifted_levels_fail_tree_levels(tree, lib):
    # Every level plus one: steps along tree and graph edges are unchanged, the root is at 1.
    level = np.where(tree.level >= 0, tree.level + 1, -1)
    assert_verdict(tree.check(lib, tree.parent, level), ("tree_levels",))


@pytest.mark.parametrize("lib", RUN_ON)
def test_leaf_hung_one_level_lower_fails_edge_levels(tree, lib):
    # A leaf re-parented to a same-level neighbour sits one level deeper in the tree, two
    # levels below its old parent, which still has an edge into it.
    v, w = tree.pick(tree.same_level_neighbours(tree.leaves))
    parent = tree.parent.copy()
    parent[v] = w
    check = tree.check(lib, parent)
    assert_verdict(check, ("edge_levels",))
    assert check.levels[int(v)].new().value == tree.level[v] + 1


@pytest.mark.parametrize("lib", RUN_ON)
def test_missing_leaf_fails_spans_component(tree, lib):
    v = tree.pick(tree.leaves)
    parent = tree.parent.copy()
    parent[v] = -1
    assert_verdict(tree.check(lib, parent), ("spans_component",))


@pytest.mark.parametrize("lib", RUN_ON)
def test_parent_without_an_edge_fails_tree_edges_in_graph(tree, lib):
    # v re-pointed at a vertex on its parent's level with no edge into v: every level is
    # unchanged, only the tree edge is not in the graph.
    pairs = [(v, x) for v in tree.reached
             for x in np.flatnonzero(tree.level == tree.level[v] - 1) if not tree.adj[x, v]]
    v, x = tree.pick(pairs)
    parent = tree.parent.copy()
    parent[v] = x
    assert_verdict(tree.check(lib, parent), ("tree_edges_in_graph",))


@pytest.mark.parametrize("lib", RUN_ON)
def test_tree_of_another_root(tree, lib):
    # The tree of a different root in the same component: the claimed root has a parent.
    other = int(tree.reached[0])
    parent = parents_ref(tree.g, other)
    check = tree.check(lib, parent)
    assert not check
    assert "no_cycles" in check.failures
