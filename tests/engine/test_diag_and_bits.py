"""Vector.diag, unary.popcount and semiring.any_eq against python-graphblas (popcount, which
python-graphblas does not expose, against numpy), at any rank count; and the algorithms'
index-aware product evaluated by gblas2d and by the python-graphblas fallback."""

import graphblas
import numpy as np
import pytest
from _helpers import agreed, assert_same_matrix
from gblas2d.algorithms._engine import engine

import gblas2d as gb
from gblas2d.exceptions import DomainMismatch

INTEGER = ["INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"]


def random_vector(seed, size, dtype):
    rng = np.random.default_rng(seed)
    idx = np.flatnonzero(rng.random(size) < 0.5)
    vals = rng.integers(-50, 50, len(idx)) if dtype != "BOOL" else rng.random(len(idx)) < 0.5
    return idx, vals


@pytest.mark.parametrize("k", [0, 1, -3, 7])
@pytest.mark.parametrize("dtype", ["FP64", "INT32", "BOOL", "UINT64"])
@pytest.mark.parametrize("size", [0, 1, 13])
def test_diag_matches_graphblas(k, dtype, size):
    idx, vals = random_vector(size + abs(k), size, dtype)
    if dtype == "UINT64":
        vals = np.abs(vals)
    ours = gb.Vector.from_coo(idx, vals, dtype=dtype, size=size).diag(k)
    theirs = graphblas.Vector.from_coo(idx, vals, dtype=dtype, size=size).diag(k)
    assert_same_matrix(ours, theirs, what=f"diag({k})")


def test_diag_dtype_and_the_vector_unchanged():
    v = gb.Vector.from_coo([1, 4], [2.5, -1.0], size=6)
    D = v.diag(dtype="INT64")
    assert D.dtype.name == "INT64" and D.shape == (6, 6)
    assert agreed(np.array_equal(D.to_coo()[2], [2, -1]))
    assert agreed(np.array_equal(v.to_coo()[1], [2.5, -1.0]))


@pytest.mark.parametrize("dtype", INTEGER)
def test_popcount_counts_bits(dtype):
    np_type = np.dtype(dtype.lower())
    info = np.iinfo(np_type)
    vals = np.array([0, 1, 2, 3, info.max, info.min, info.max // 3], dtype=np_type)
    v = gb.Vector.from_coo(np.arange(len(vals)), vals, dtype=dtype, size=10)
    got = v.apply(gb.unary.popcount).new()
    want = np.bitwise_count(vals).astype(np_type)
    assert got.dtype.name == dtype
    assert agreed(np.array_equal(got.to_coo()[1], want))
    M = gb.Matrix.from_coo([0, 2], [1, 1], vals[:2], dtype=dtype, nrows=3, ncols=2)
    assert agreed(np.array_equal(M.apply(gb.unary.popcount).new().to_coo()[2], want[:2]))


def test_popcount_refuses_floats():
    v = gb.Vector.from_coo([0], [1.5], size=2)
    with pytest.raises(DomainMismatch, match="integer"):
        v.apply(gb.unary.popcount).new()
    assert v.nvals == 1


@pytest.mark.parametrize("dtype", ["FP64", "INT64", "BOOL"])
def test_any_eq_against_a_diagonal(dtype):
    # With one term per output, any.eq compares A(i, j) with m(j): the same as
    # python-graphblas, whatever value 'any' would pick.
    rng = np.random.default_rng(3)
    n = 17
    rows, cols = rng.integers(0, n, 60), rng.integers(0, n, 60)
    keys = np.unique(rows * n + cols)
    vals = rng.integers(0, 3, len(keys)).astype({"FP64": np.float64, "INT64": np.int64,
                                                 "BOOL": bool}[dtype])
    mi, mv = random_vector(1, n, dtype)
    mv = np.abs(mv) % 3 if dtype != "BOOL" else mv
    results = []
    for lib in (gb, graphblas):
        A = lib.Matrix.from_coo(keys // n, keys % n, vals, dtype=dtype, nrows=n, ncols=n)
        m = lib.Vector.from_coo(mi, mv, dtype=dtype, size=n)
        results.append(A.mxm(m.diag(), lib.semiring.any_eq).new())
    assert_same_matrix(*results)


def test_index_aware_product_on_both_engines():
    # C(i, j) = bor_k f(A(i, k), B(k, j), i, k, k, j) with f mixing values and positions: the
    # gblas2d product and python-graphblas's numpy fallback agree entry for entry.
    rng = np.random.default_rng(8)
    n, w = 23, 3
    A = np.unique(rng.integers(0, n * n, 80))
    B = np.unique(rng.integers(0, n * w, 30))
    a_vals = rng.integers(1, 2**40, len(A)).astype(np.uint64)
    b_vals = rng.integers(1, 2**40, len(B)).astype(np.uint64)

    def f(x, y, i, k, k2, j):
        assert np.array_equal(k, k2)
        return (x ^ y) + (i * 1000 + k * 10 + j).astype(np.uint64)

    results = []
    for lib in (gb, graphblas):
        Am = lib.Matrix.from_coo(A // n, A % n, a_vals, dtype="UINT64", nrows=n, ncols=n)
        Bm = lib.Matrix.from_coo(B // w, B % w, b_vals, dtype="UINT64", nrows=n, ncols=w)
        ns = engine(Am)
        results.append(ns.mxm_indexed(Am, Bm, "bor", f, ns.dtypes.UINT64))
    assert results[0].nvals > 0
    assert_same_matrix(*results)
