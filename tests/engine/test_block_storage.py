"""A block is held once: SuiteSparse takes a new block's arrays over as its copy by rows, and
the block reads them through views that keep that copy alive, however long they are kept.

Each test compares against the same matrix built with the numpy backend, whose blocks keep
their own arrays.
"""

import gc

import numpy as np
import pytest
from _helpers import agreed, backend_in_use

import gblas2d as gb
from gblas2d import backends, semiring, unary


@pytest.fixture
def suitesparse():
    # (every block adopted, however small: the tests' blocks are)
    with backend_in_use("suitesparse"):
        yield


def weighted(n=200, seed=3):
    rng = np.random.default_rng(seed)
    keys = np.unique(rng.integers(0, n * n, 2000))
    return keys // n, keys % n, rng.random(len(keys))


def test_a_new_block_is_held_once(suitesparse):
    r, c, v = weighted()
    A = gb.Matrix.from_coo(r, c, v, nrows=200, ncols=200)
    held = backends.held_bytes(A.block)
    local = A.block.nvals
    # The CSR is SuiteSparse's: beyond it SuiteSparse holds a header, not a copy.
    assert agreed(held["suitesparse"] < 1024 and
                  held["csr"] >= 16 * local and not A.block.cols.flags.owndata)
    x = gb.Vector.from_coo([0, 7, 11], [1.0, 2.0, 3.0], size=200)
    expected = gb.Matrix.from_coo(r, c, v, nrows=200, ncols=200).mxv(x, semiring.plus_times)
    assert A.mxv(x, semiring.plus_times).new().isequal(expected.new())


def test_a_small_block_stays_numpys():
    """Below SMALL_BLOCK entries a block keeps its own arrays: handing them over costs more
    than the words it would save, and a product that wants it imports a copy."""
    from gblas2d.local.backends import suitesparse

    with backend_in_use("suitesparse"):
        suitesparse.SMALL_BLOCK = 2048
        r, c, v = weighted()
        A = gb.Matrix.from_coo(r[:500], c[:500], v[:500], nrows=200, ncols=200)
        held = backends.held_bytes(A.block)
        assert agreed("suitesparse" not in A.block.derived and A.block.cols.flags.owndata and
                      held["suitesparse"] == 0)
        x = gb.Vector.from_coo([0, 7, 11], [1.0, 2.0, 3.0], size=200)
        with backend_in_use("numpy"):
            expected = A.mxv(x, semiring.plus_times).new()
        assert A.mxv(x, semiring.plus_times).new().isequal(expected)


def test_views_of_a_block_outlive_its_matrix(suitesparse):
    r, c, v = weighted()
    A = gb.Matrix.from_coo(r, c, v, nrows=200, ncols=200)
    x = gb.Vector.from_coo([0, 7, 11], [1.0, 2.0, 3.0], size=200)
    y = A.mxv(x, semiring.plus_times).new()
    # apply keeps A's structure: B reads A's arrays, which SuiteSparse holds for A.
    B = A.apply(unary.ainv).new()
    row_lo, col_lo, rows, cols, values = A.local_block()
    kept = rows.copy(), cols.copy(), values.copy()
    del A
    gc.collect()
    # What a user kept and what B shares are still A's entries, not freed memory.
    assert agreed(all(np.array_equal(a, b) for a, b in zip(kept, (rows, cols, values),
                                                            strict=True)))
    z = B.mxv(x, semiring.plus_times).new()
    assert np.allclose(z.to_dense(0.0), -y.to_dense(0.0))


def test_numpy_blocks_keep_their_arrays():
    previous = backends.backend_name()
    backends.set_backend("numpy")
    try:
        r, c, v = weighted()
        A = gb.Matrix.from_coo(r, c, v, nrows=200, ncols=200)
        assert agreed(A.block.cols.flags.owndata and "suitesparse" not in A.block.derived)
    finally:
        backends.set_backend(previous)


def test_a_pattern_is_held_as_one_value(suitesparse):
    A = gb.generators.rmat(9, 8, symmetric=True)
    held = backends.held_bytes(A.block)
    local = A.block.nvals
    assert agreed(A.block.is_iso and held["csr"] < 8 * local + 8 * A.block.nrows + 1024 and
                  held["suitesparse"] < 1024)
