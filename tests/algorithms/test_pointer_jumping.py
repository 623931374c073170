"""pointer_jumping against following the parent pointers one step at a time, on both engines
(integer roots: exact), and the forests it must refuse."""

import numpy as np
import pytest
from _graphs import ENGINES, RUN_ON, assert_dense, assert_same_error_everywhere
from gblas2d.algorithms import pointer_jumping

from gblas2d.exceptions import IndexOutOfBound, InvalidValue


def roots_ref(parent):
    root = np.asarray(parent).copy()
    while not np.array_equal(root[root], root):
        root = root[root]
    return root


def vector(lib, values, dtype="INT64"):
    return ENGINES[lib].Vector.from_coo(np.arange(len(values)), values, dtype=dtype,
                                        size=len(values))


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("seed", range(4))
def test_random_forests(lib, seed):
    # Trees of every depth, ids scattered so parents are both smaller and larger than children.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    perm = rng.permutation(n)
    parent = np.empty(n, dtype=np.int64)
    for v in range(n):
        parent[perm[v]] = perm[rng.integers(0, v)] if v and rng.random() < 0.95 else perm[v]
    want = roots_ref(parent)
    assert (want[want] == want).all() and (parent[want] == want).all()  # the reference agrees
    assert_dense(pointer_jumping(vector(lib, parent)), want, "INT64", what=lib)


@pytest.mark.parametrize("lib", RUN_ON)
@pytest.mark.parametrize("n", [1, 2, 3, 257])
def test_one_long_path(lib, n):
    # The deepest tree: n-1 -> n-2 -> ... -> 0 needs every one of the ceil(log2 n) rounds.
    parent = np.maximum(np.arange(n) - 1, 0)
    assert_dense(pointer_jumping(vector(lib, parent)), np.zeros(n, np.int64), "INT64")


@pytest.mark.parametrize("lib", RUN_ON)
def test_keeps_the_dtype_and_the_input(lib):
    parent = np.array([0, 0, 1, 3, 3, 4], dtype=np.uint32)
    p = vector(lib, parent, "UINT32")
    roots = pointer_jumping(p)
    assert_dense(roots, [0, 0, 0, 3, 3, 3], "UINT32")
    assert_dense(p, parent, "UINT32", what="the input is unchanged")


BAD = [
    ("cycle", InvalidValue, lambda L: vector(L, [1, 2, 0, 3]), "cycle"),
    ("two-cycle-below-a-root", InvalidValue, lambda L: vector(L, [0, 2, 1]), "cycle"),
    ("missing-entry", InvalidValue,
     lambda L: ENGINES[L].Vector.from_coo([0, 2], [0, 0], size=3), "2 of 3"),
    ("too-large", IndexOutOfBound, lambda L: vector(L, [0, 3, 1]), "[0, 3]"),
    ("negative", IndexOutOfBound, lambda L: vector(L, [0, -1, 1]), "[-1, 1]"),
    ("float", TypeError, lambda L: vector(L, [0.0, 0.0], "FP64"), "FP64"),
    ("matrix", TypeError, lambda L: ENGINES[L].Matrix.from_coo([0], [0], [0], nrows=2, ncols=2),
     "Matrix"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_parents(case):
    _, cls, make, fragment = case
    assert_same_error_everywhere(cls, lambda lib: pointer_jumping(make(lib)), fragment)
