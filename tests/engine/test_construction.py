"""Building and reading back Matrices and Vectors: from_coo (replicated and distributed),
duplicates, to_coo, every dtype through scipy and python-graphblas, transpose, gather/scatter,
and empty objects.

Every rank runs the same calls with the same seeded data; distributed construction gives each
rank a different share (entries k with k % nprocs == rank) of the same global COO.
"""

import graphblas
import numpy as np
import pytest

import gblas2d as gb
from gblas2d import binary, monoid, semiring
from gblas2d.exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64]


def grid():
    return gb.default_grid()


def my_share(count):
    g = grid()
    return np.arange(count) % g.nprocs == g.rank


def random_coo(seed, nrows, ncols, nnz, unique=True):
    rng = np.random.default_rng(seed)
    r = rng.integers(0, max(nrows, 1), nnz)
    c = rng.integers(0, max(ncols, 1), nnz)
    if unique:
        keys = np.unique(r * ncols + c)
        rng.shuffle(keys)
        r, c = keys // ncols, keys % ncols
    v = rng.integers(-100, 100, len(r)).astype(np.float64)
    return r, c, v


def sample_values(dtype, count, rng):
    """Values spanning the dtype, extremes included."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(count) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        out = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
        out[:min(count, 3)] = np.array([info.min, info.max, 0], dtype=dtype)[:min(count, 3)]
        return out
    info = np.finfo(dtype)
    out = (rng.standard_normal(count) * 1e3).astype(dtype)
    extremes = np.array([info.max, info.min, info.tiny, -0.0, np.inf, -np.inf], dtype=dtype)
    out[:min(count, len(extremes))] = extremes[:min(count, len(extremes))]
    return out


def coo_equal(a, b):
    return len(a) == len(b) and all(
        x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
        for x, y in zip(a, b, strict=True))


# ---------------------------------------------------------------- replicated vs distributed


@pytest.mark.parametrize("shape,nnz", [((50, 50), 300), ((17, 90), 200), ((90, 3), 120),
                                       ((7, 7), 0)])
def test_matrix_replicated_and_distributed_are_identical(shape, nnz):
    r, c, v = random_coo(1, *shape, nnz)
    A = gb.Matrix.from_coo(r, c, v, nrows=shape[0], ncols=shape[1])
    s = my_share(len(r))
    B = gb.Matrix.from_coo(r[s], c[s], v[s], nrows=shape[0], ncols=shape[1], distributed=True)
    assert A.nvals == B.nvals == len(r)
    assert A.isequal(B, check_dtype=True)
    assert coo_equal(A.to_coo(), B.to_coo())
    order = np.lexsort((c, r))
    ra, ca, va = A.to_coo()
    np.testing.assert_array_equal(ra, r[order])
    np.testing.assert_array_equal(ca, c[order])
    np.testing.assert_array_equal(va, v[order])


def test_matrix_distributed_infers_shape_from_all_ranks():
    r, c, v = random_coo(2, 40, 30, 150)
    # The largest row and column are passed by different ranks (or the same one, serially).
    r = np.r_[r, 44, 0]
    c = np.r_[c, 0, 33]
    v = np.r_[v, 1.0, 2.0]
    keys, first = np.unique(r * 1000 + c, return_index=True)
    r, c, v = r[first], c[first], v[first]
    s = my_share(len(r))
    A = gb.Matrix.from_coo(r[s], c[s], v[s], distributed=True)
    B = gb.Matrix.from_coo(r, c, v)
    assert A.shape == B.shape == (45, 34)
    assert A.isequal(B)


def agreed_on_all_ranks(flag):
    return bool(grid().comm.allreduce(np.array([int(flag)]), "min")[0])


@pytest.mark.parametrize("dtype", ["FP64", "INT32", "BOOL"])
def test_one_value_for_every_entry_stays_one_value(dtype):
    """A pattern (one value for all entries) is held as one value on every rank, built from
    replicated or distributed input, so no rank holds an array of it."""
    r, c, _ = random_coo(3, 60, 45, 400)
    s = my_share(len(r))
    for A in (gb.Matrix.from_coo(r, c, 1, dtype=dtype, nrows=60, ncols=45),
              gb.Matrix.from_coo(r[s], c[s], 1, dtype=dtype, nrows=60, ncols=45,
                                 distributed=True)):
        assert agreed_on_all_ranks(A.block.is_iso)
        B = graphblas.Matrix.from_coo(r, c, 1, dtype=dtype, nrows=60, ncols=45)
        assert coo_equal(A.to_coo(), tuple(np.asarray(a) for a in B.to_coo()))


def test_distributed_values_that_differ_by_rank_are_kept():
    """Each rank's own scalar, or one rank's array beside the others' scalar, is not one
    value: every entry keeps the value its rank gave it."""
    g = grid()
    r, c, _ = random_coo(4, 30, 30, 120)
    owner = np.arange(len(r)) % g.nprocs
    s = owner == g.rank
    A = gb.Matrix.from_coo(r[s], c[s], g.rank + 1.0, nrows=30, ncols=30, distributed=True)
    expected = gb.Matrix.from_coo(r, c, owner + 1.0, nrows=30, ncols=30)
    assert A.isequal(expected, check_dtype=True)
    assert agreed_on_all_ranks(A.block.is_iso == (g.nprocs == 1))
    mine = np.full(s.sum(), 2.0) if g.rank == 0 else 2.0
    B = gb.Matrix.from_coo(r[s], c[s], mine, nrows=30, ncols=30, distributed=True)
    assert B.isequal(gb.Matrix.from_coo(r, c, 2.0, nrows=30, ncols=30))
    # the last rank passes no entries (under MPI): it has no say in the one value
    silent = g.nprocs - 1 if g.nprocs > 1 else None
    mine = s & (g.rank != silent)
    C = gb.Matrix.from_coo(r[mine], c[mine], 3.0, nrows=30, ncols=30, distributed=True)
    kept = owner != silent
    assert C.isequal(gb.Matrix.from_coo(r[kept], c[kept], 3.0, nrows=30, ncols=30))
    assert agreed_on_all_ranks(C.block.is_iso)


@pytest.mark.parametrize("size,nnz", [(100, 60), (5, 5), (3000, 40), (9, 0)])
def test_vector_replicated_and_distributed_are_identical(size, nnz):
    rng = np.random.default_rng(size)
    idx = rng.permutation(size)[:nnz]
    vals = rng.integers(-9, 9, nnz)
    v = gb.Vector.from_coo(idx, vals, size=size)
    s = my_share(nnz)
    w = gb.Vector.from_coo(idx[s], vals[s], size=size, distributed=True)
    assert v.nvals == w.nvals == nnz
    assert v.isequal(w, check_dtype=True)
    assert coo_equal(v.to_coo(), w.to_coo())
    order = np.argsort(idx)
    i, x = v.to_coo()
    np.testing.assert_array_equal(i, idx[order].astype(np.uint64))
    np.testing.assert_array_equal(x, vals[order])


def test_vector_distributed_infers_size_from_all_ranks():
    idx = np.array([3, 17, 8, 1])
    vals = np.array([1.0, 2.0, 3.0, 4.0])
    s = my_share(4)
    v = gb.Vector.from_coo(idx[s], vals[s], distributed=True)
    assert v.size == 18 and v.nvals == 4


# ---------------------------------------------------------------- duplicates


@pytest.mark.parametrize("op,ufunc", [(binary.plus, np.add), (binary.min, np.minimum),
                                      (binary.max, np.maximum), ("times", np.multiply),
                                      (monoid.plus, np.add)])
def test_matrix_dup_op_combines_duplicates_across_ranks(op, ufunc):
    n = 30
    rng = np.random.default_rng(3)
    base_r = rng.integers(0, n, 80)
    base_c = rng.integers(0, n, 80)
    # Every entry three times in a row: with k % nprocs shares the copies go to different ranks.
    r = np.repeat(base_r, 3)
    c = np.repeat(base_c, 3)
    v = rng.integers(1, 5, len(r)).astype(np.int64)
    dense = {}
    for rr, cc, vv in zip(r.tolist(), c.tolist(), v.tolist(), strict=True):
        dense[rr, cc] = vv if (rr, cc) not in dense else int(ufunc(dense[rr, cc], vv))
    keys = sorted(dense)
    s = my_share(len(r))
    for distributed in (False, True):
        if distributed:
            A = gb.Matrix.from_coo(r[s], c[s], v[s], nrows=n, ncols=n, dup_op=op,
                                   distributed=True)
        else:
            A = gb.Matrix.from_coo(r, c, v, nrows=n, ncols=n, dup_op=op)
        ra, ca, va = A.to_coo()
        assert A.nvals == len(keys)
        assert list(zip(ra.tolist(), ca.tolist(), strict=True)) == keys
        assert va.tolist() == [dense[k] for k in keys]


@pytest.mark.parametrize("value,op,ufunc", [
    (1.0, binary.min, np.fmin), (1.0, binary.plus, np.add), (2.0, "times", np.multiply),
    (3.0, binary.minus, np.subtract), (np.nan, binary.min, np.fmin), (5, binary.max, np.fmax)])
def test_matrix_dup_op_on_one_broadcast_value(value, op, ufunc):
    # A scalar value stands for every entry; its repeats combine like any other values, left
    # to right (min keeps it, plus adds it up), the path the pattern generators take.
    r = np.array([0, 2, 0, 2, 0, 1])
    c = np.array([1, 3, 1, 3, 1, 1])
    s = my_share(len(r))
    A = gb.Matrix.from_coo(r[s], c[s], value, nrows=4, ncols=4, dup_op=op, distributed=True)
    ra, ca, va = A.to_coo()
    keys = [(0, 1), (1, 1), (2, 3)]
    assert list(zip(ra.tolist(), ca.tolist(), strict=True)) == keys
    copies = {(0, 1): 3, (1, 1): 1, (2, 3): 2}
    expected = []
    for k in keys:
        x = value
        for _ in range(copies[k] - 1):
            x = ufunc(x, value)
        expected.append(x)
    np.testing.assert_array_equal(va, expected)
    assert va.strides == (va.itemsize,)


@pytest.mark.parametrize("op,ufunc", [(binary.plus, np.add), (binary.min, np.minimum)])
def test_vector_dup_op_combines_duplicates_across_ranks(op, ufunc):
    size = 40
    idx = np.repeat(np.arange(0, size, 3), 4)
    vals = np.arange(len(idx), dtype=np.float64) % 7 - 3
    expected = {}
    for i, x in zip(idx.tolist(), vals.tolist(), strict=True):
        expected[i] = x if i not in expected else float(ufunc(expected[i], x))
    s = my_share(len(idx))
    v = gb.Vector.from_coo(idx[s], vals[s], size=size, dup_op=op, distributed=True)
    w = gb.Vector.from_coo(idx, vals, size=size, dup_op=op)
    assert v.isequal(w)
    i, x = v.to_coo()
    assert i.tolist() == sorted(expected)
    assert x.tolist() == [expected[k] for k in sorted(expected)]


def test_duplicates_without_dup_op_raise_everywhere():
    r = np.array([1, 2, 1, 3])
    c = np.array([0, 2, 0, 1])
    v = np.array([1.0, 2.0, 3.0, 4.0])
    s = my_share(4)
    with pytest.raises(InvalidValue, match="Duplicate"):
        gb.Matrix.from_coo(r, c, v, nrows=5, ncols=5)
    with pytest.raises(InvalidValue, match="Duplicate"):
        gb.Matrix.from_coo(r[s], c[s], v[s], nrows=5, ncols=5, distributed=True)
    with pytest.raises(InvalidValue, match="Duplicate"):
        gb.Vector.from_coo(r, v, size=5)
    with pytest.raises(InvalidValue, match="Duplicate"):
        gb.Vector.from_coo(r[s], v[s], size=5, distributed=True)
    # Nothing is left half-done: the next collective works.
    assert gb.Vector.from_coo([0, 4], [1, 2], size=5).nvals == 2


def test_one_scalar_value_makes_repeats_one_entry():
    # As python-graphblas ("iso drops duplicates"): one value for all, repeats are one entry.
    r = np.array([1, 2, 1, 3])
    c = np.array([0, 2, 0, 1])
    s = my_share(4)
    for A in (gb.Matrix.from_coo(r, c, 7, nrows=5, ncols=5),
              gb.Matrix.from_coo(r[s], c[s], 7, nrows=5, ncols=5, distributed=True)):
        rows, cols, vals = A.to_coo()
        assert (rows.tolist(), cols.tolist(), vals.tolist()) == ([1, 2, 3], [0, 2, 1], [7] * 3)
    for w in (gb.Vector.from_coo(r, 7, size=5),
              gb.Vector.from_coo(r[s], 7, size=5, distributed=True)):
        assert w.to_coo()[0].tolist() == [1, 2, 3]


# ---------------------------------------------------------------- to_coo


def test_to_coo_dtypes_and_sort_order():
    r, c, v = random_coo(4, 60, 45, 400)
    v = v.astype(np.int32)
    s = my_share(len(r))
    A = gb.Matrix.from_coo(r[s], c[s], v[s], nrows=60, ncols=45, distributed=True)
    ra, ca, va = A.to_coo()
    assert ra.dtype == np.uint64 and ca.dtype == np.uint64 and va.dtype == np.int32
    order = np.lexsort((ca, ra))
    np.testing.assert_array_equal(order, np.arange(len(ra)))
    assert len(np.unique(ra * 45 + ca)) == len(ra)
    ra2, ca2, va2 = A.to_coo(dtype=np.float64)
    assert va2.dtype == np.float64
    np.testing.assert_array_equal(va2, va.astype(np.float64))
    idx = np.array([9, 2, 30, 0, 17])
    x = gb.Vector.from_coo(idx, np.arange(5, dtype=np.uint16), size=31)
    i, xv = x.to_coo()
    assert i.dtype == np.uint64 and xv.dtype == np.uint16
    assert i.tolist() == [0, 2, 9, 17, 30]
    assert xv.tolist() == [3, 1, 0, 4, 2]
    assert A.to_dense(fill_value=0).shape == (60, 45)


# ---------------------------------------------------------------- every dtype round trips


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_round_trips(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    nrows, ncols = 23, 19
    r, c, _ = random_coo(np.dtype(dtype).num, nrows, ncols, 120)
    vals = sample_values(dtype, len(r), rng)
    order = np.lexsort((c, r))
    want = (r[order].astype(np.uint64), c[order].astype(np.uint64), vals[order])

    A = gb.Matrix.from_coo(r, c, vals, nrows=nrows, ncols=ncols)
    assert A.dtype.np_type == np.dtype(dtype)
    assert coo_equal(A.to_coo(), want)
    s = my_share(len(r))
    B = gb.Matrix.from_coo(r[s], c[s], vals[s], nrows=nrows, ncols=ncols, distributed=True)
    assert coo_equal(B.to_coo(), want)

    # scipy
    sp = gb.io.to_scipy_sparse(A)
    assert sp.dtype == np.dtype(dtype) and sp.shape == (nrows, ncols) and sp.nnz == len(r)
    back = gb.io.from_scipy_sparse(sp)
    assert back.dtype == A.dtype and coo_equal(back.to_coo(), want)

    # python-graphblas
    G = gb.io.to_graphblas(A)
    assert G.dtype.np_type == np.dtype(dtype) and G.shape == (nrows, ncols)
    gr, gc, gv = G.to_coo()
    assert coo_equal((gr, gc, gv), want)
    back = gb.io.from_graphblas(G)
    assert back.dtype == A.dtype and coo_equal(back.to_coo(), want)

    # Vectors
    size = 41
    idx = rng.permutation(size)[:25]
    vv = sample_values(dtype, 25, rng)
    vo = np.argsort(idx)
    vwant = (idx[vo].astype(np.uint64), vv[vo])
    v = gb.Vector.from_coo(idx, vv, size=size)
    assert v.dtype.np_type == np.dtype(dtype)
    assert coo_equal(v.to_coo(), vwant)
    gv_ = gb.io.to_graphblas(v)
    assert isinstance(gv_, graphblas.Vector) and gv_.dtype.np_type == np.dtype(dtype)
    assert coo_equal(gv_.to_coo(), vwant)
    assert coo_equal(gb.io.from_graphblas(gv_).to_coo(), vwant)
    # The fill value's type joins the Vector's (as in python-graphblas) unless dtype is given.
    dense = v.to_dense(fill_value=0, dtype=dtype)
    assert dense.dtype == np.dtype(dtype) and len(dense) == size
    np.testing.assert_array_equal(dense[idx], vv)


# ---------------------------------------------------------------- transpose


@pytest.mark.parametrize("shape", [(30, 30), (13, 41), (41, 2), (1, 9)])
def test_transpose_new_matches_numpy(shape):
    r, c, v = random_coo(5, *shape, 150)
    A = gb.Matrix.from_coo(r, c, v, nrows=shape[0], ncols=shape[1])
    dense = A.to_dense(fill_value=0)
    T = A.T.new()
    assert T.shape == shape[::-1] and T.nvals == A.nvals
    np.testing.assert_array_equal(T.to_dense(fill_value=0), dense.T)
    np.testing.assert_array_equal(T.T.new().to_dense(fill_value=0), dense)
    assert T.T.new().isequal(A)
    tr, tc, tv = T.to_coo()
    order = np.lexsort((tc, tr))
    np.testing.assert_array_equal(order, np.arange(len(tr)))


# ---------------------------------------------------------------- gather / scatter


def gather_case(seed, n, m):
    rng = np.random.default_rng(seed)
    v_has = rng.random(n) < 0.5
    v_vals = rng.integers(-20, 20, n).astype(np.float64)
    i_has = rng.random(m) < 0.8
    i_vals = rng.integers(0, n, m)
    return v_has, v_vals, i_has, i_vals


def vec(has, vals):
    idx = np.flatnonzero(has)
    return gb.Vector.from_coo(idx, vals[idx], size=len(has))


@pytest.mark.parametrize("n,m", [(50, 80), (7, 3), (200, 200), (1, 5)])
def test_gather_matches_numpy(n, m):
    v_has, v_vals, i_has, i_vals = gather_case(n * 7 + m, n, m)
    v, index = vec(v_has, v_vals), vec(i_has, i_vals)
    out = v.gather(index).new()
    assert out.size == m and out.dtype == v.dtype
    want_has = i_has & v_has[i_vals]
    k = np.flatnonzero(want_has)
    got_i, got_v = out.to_coo()
    np.testing.assert_array_equal(got_i, k.astype(np.uint64))
    np.testing.assert_array_equal(got_v, v_vals[i_vals[k]])
    assert out.nvals == len(k)


@pytest.mark.parametrize("op,ufunc", [(monoid.min, np.minimum), (monoid.plus, np.add),
                                      ("max", np.maximum)])
@pytest.mark.parametrize("n,size", [(60, 60), (60, 5), (10, 300)])
def test_scatter_matches_numpy(op, ufunc, n, size):
    rng = np.random.default_rng(n + size)
    v_has = rng.random(n) < 0.7
    v_vals = rng.integers(-20, 20, n).astype(np.int64)
    i_has = rng.random(n) < 0.8
    i_vals = rng.integers(0, size, n)  # many duplicates when size < n
    out = vec(v_has, v_vals).scatter(vec(i_has, i_vals), size=size, op=op).new()
    assert out.size == size
    expected = {}
    for k in np.flatnonzero(v_has & i_has):
        d = int(i_vals[k])
        expected[d] = int(v_vals[k]) if d not in expected else int(ufunc(expected[d],
                                                                        v_vals[k]))
    got_i, got_v = out.to_coo()
    assert got_i.tolist() == sorted(expected)
    assert got_v.tolist() == [expected[d] for d in sorted(expected)]


def test_scatter_default_size_and_any():
    v = gb.Vector.from_coo([0, 1, 2, 3], [5, 5, 5, 5], size=4)
    index = gb.Vector.from_coo([0, 1, 2, 3], [3, 3, 0, 0], size=4)
    out = v.scatter(index).new()
    assert out.size == 4
    i, x = out.to_coo()
    assert i.tolist() == [0, 3] and x.tolist() == [5, 5]


@pytest.mark.parametrize("bad", [-1, 50, 10**6])
def test_gather_and_scatter_out_of_range_raise(bad):
    n = 50
    v = gb.Vector.from_coo(np.arange(n), np.arange(n, dtype=np.float64), size=n)
    # The bad index sits at one position, so it lives on one rank only.
    idx_vals = np.arange(n)
    idx_vals[n // 2] = bad
    index = gb.Vector.from_coo(np.arange(n), idx_vals, size=n)
    with pytest.raises(IndexOutOfBound, match=str(bad)):
        v.gather(index).new()
    with pytest.raises(IndexOutOfBound, match=str(bad)):
        v.scatter(index, size=n, op=monoid.plus).new()
    out = gb.Vector.from_coo([1], [1.0], size=n)
    with pytest.raises(IndexOutOfBound):
        out << v.gather(index)
    assert out.nvals == 1 and out.to_coo()[1].tolist() == [1.0]


def test_gather_scatter_argument_errors():
    v = gb.Vector.from_coo([0], [1.0], size=4)
    with pytest.raises(TypeError):
        v.gather(gb.Vector.from_coo([0], [1.5], size=1))
    with pytest.raises(DimensionMismatch):
        v.scatter(gb.Vector.from_coo([0], [1], size=3))


@pytest.mark.parametrize("n,nrows,ncols", [(60, 40, 70), (9, 9, 9), (1, 3, 2)])
def test_from_vectors_matches_from_coo(n, nrows, ncols):
    """Entry k of the row, column and value Vectors is one matrix entry; repeats meet dup_op;
    the result is the replicated from_coo of the same arrays."""
    rng = np.random.default_rng(n)
    at = np.sort(rng.choice(n, size=max(n // 2, 1), replace=False))
    r, c = rng.integers(0, nrows, len(at)), rng.integers(0, ncols, len(at))
    v = rng.integers(-50, 50, len(at)).astype(np.float64)
    rows, cols = gb.Vector.from_coo(at, r, size=n), gb.Vector.from_coo(at, c, size=n)
    vals = gb.Vector.from_coo(at, v, size=n)
    got = gb.Matrix.from_vectors(rows, cols, vals, nrows=nrows, ncols=ncols, dup_op=binary.plus)
    want = gb.Matrix.from_coo(r, c, v, nrows=nrows, ncols=ncols, dup_op=binary.plus)
    assert got.isequal(want, check_dtype=True)
    pattern = gb.Matrix.from_vectors(rows, cols, 7, "INT8", nrows=nrows, ncols=ncols,
                                     dup_op=binary.max)
    assert pattern.isequal(gb.Matrix.from_coo(r, c, 7, "INT8", nrows=nrows, ncols=ncols,
                                              dup_op=binary.max), check_dtype=True)


def test_from_vectors_rejects_mismatched_vectors():
    n = 40
    rows = gb.Vector.from_coo(np.arange(n), np.arange(n), size=n)
    # One position (on one rank) missing from the columns: every rank raises the same error.
    cols = gb.Vector.from_coo(np.delete(np.arange(n), n // 2), np.zeros(n - 1, int), size=n)
    with pytest.raises(InvalidValue, match="same positions"):
        gb.Matrix.from_vectors(rows, cols, 1.0, nrows=n, ncols=n)
    with pytest.raises(DimensionMismatch):
        gb.Matrix.from_vectors(rows, gb.Vector.from_coo([0], [0], size=n + 1), nrows=n, ncols=n)
    with pytest.raises(DomainMismatch):
        gb.Matrix.from_vectors(rows, gb.Vector.from_coo(np.arange(n), 0.5, size=n))
    with pytest.raises(TypeError):
        gb.Matrix.from_vectors(rows, np.arange(n))


# ---------------------------------------------------------------- empty objects


def test_empty_vectors_work_everywhere():
    v = gb.Vector.from_coo([], [], dtype=np.float64, size=0)
    assert v.size == 0 and v.nvals == 0
    i, x = v.to_coo()
    assert i.dtype == np.uint64 and len(i) == 0 and len(x) == 0
    assert len(v.to_dense()) == 0
    assert v.dup().nvals == 0
    assert v.ewise_add(v).new().nvals == 0
    assert v.ewise_mult(v).new().nvals == 0
    assert v.apply(gb.unary.abs).new().size == 0
    assert v.reduce().new().value is None
    A = gb.Matrix(np.float64, 0, 0)
    assert A.mxv(v).new().size == 0
    assert v.vxm(A).new().size == 0
    index = gb.Vector(np.int64, 0)
    assert v.gather(index).new().size == 0
    assert v.scatter(index).new().size == 0
    assert gb.io.to_graphblas(v).size == 0
    v.clear()
    assert v.nvals == 0


def test_nvals_zero_objects_work_everywhere():
    n = 37
    v = gb.Vector(np.float64, n)
    A = gb.Matrix(np.float64, n, n)
    assert v.nvals == 0 and A.nvals == 0
    assert A.mxv(v, semiring.min_plus).new().nvals == 0
    full = gb.Vector.from_dense(np.ones(n))
    assert A.mxv(full).new().nvals == 0
    B = gb.Matrix.from_coo([0, 3], [1, 2], [1.0, 1.0], nrows=n, ncols=n)
    assert B.mxv(v).new().nvals == 0
    assert v.reduce().new().value is None
    assert A.reduce_scalar().new().value is None
    assert A.reduce_rowwise().new().nvals == 0
    assert A.T.new().nvals == 0
    assert A.ewise_add(B).new().isequal(B)
    idx = gb.Vector(np.int64, n)
    assert full.gather(idx).new().nvals == 0
    assert full.scatter(idx).new().nvals == 0
    r, c, x = A.to_coo()
    assert r.dtype == np.uint64 and len(r) == len(c) == len(x) == 0
    np.testing.assert_array_equal(A.to_dense(fill_value=0), np.zeros((n, n)))
    assert gb.io.to_scipy_sparse(A).nnz == 0
    assert gb.io.to_graphblas(A).nvals == 0
    assert gb.io.from_graphblas(graphblas.Matrix(float, n, n)).nvals == 0


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 0)])
def test_empty_matrices(shape):
    A = gb.Matrix.from_coo([], [], [], dtype=np.int64, nrows=shape[0], ncols=shape[1])
    assert A.shape == shape and A.nvals == 0
    s = my_share(0)
    B = gb.Matrix.from_coo(np.zeros(0, int)[s], np.zeros(0, int)[s], np.zeros(0)[s],
                           dtype=np.int64, nrows=shape[0], ncols=shape[1], distributed=True)
    assert A.isequal(B)
    assert A.T.new().shape == shape[::-1]
    x = gb.Vector.from_dense(np.ones(shape[1]))
    y = A.mxv(x).new()
    assert y.size == shape[0] and y.nvals == 0
    assert A.to_dense(fill_value=0).shape == shape
    assert gb.io.to_scipy_sparse(A).shape == shape
    assert gb.io.from_scipy_sparse(gb.io.to_scipy_sparse(A)).shape == shape


# ---------------------------------------------------------------- from_coo_chunks


def chunked_share(r, c, v, sizes):
    """This rank's share of the COO (entries k % nprocs == rank) cut into chunks of ``sizes``
    in turn, so ranks have different numbers of chunks."""
    s = my_share(len(r))
    r, c, v = r[s], c[s], v[s]
    cuts = np.cumsum(sizes)
    cuts = cuts[cuts < len(r)]
    return zip(np.split(r, cuts), np.split(c, cuts), np.split(v, cuts), strict=True)


@pytest.mark.parametrize("sizes", [[1000], [7, 1, 40], [3]])
def test_from_coo_chunks_equals_from_coo(sizes):
    r, c, v = random_coo(5, 70, 50, 600, unique=False)
    sizes = sizes * (1 + grid().rank)
    A = gb.Matrix.from_coo_chunks(chunked_share(r, c, v, sizes), nrows=70, ncols=50,
                                  dup_op=binary.plus)
    B = gb.Matrix.from_coo(r, c, v, nrows=70, ncols=50, dup_op=binary.plus)
    assert A.isequal(B, check_dtype=True)
    pattern = ((x, y) for x, y, _ in chunked_share(r, c, v, sizes))
    P = gb.Matrix.from_coo_chunks(pattern, nrows=70, ncols=50, value=2, dtype="INT32",
                                  dup_op=binary.any)
    assert P.isequal(gb.Matrix.from_coo(r, c, 2, dtype="INT32", nrows=70, ncols=50,
                                        dup_op=binary.any), check_dtype=True)
    assert agreed_on_all_ranks(P.block.is_iso)


def test_from_coo_chunks_of_nothing_and_of_bad_indices():
    E = gb.Matrix.from_coo_chunks(iter(()), nrows=4, ncols=5, value=1)
    assert E.shape == (4, 5) and E.nvals == 0
    # Only the last rank's chunk is out of range: every rank raises the same error.
    bad = [(np.array([9 if grid().rank == grid().nprocs - 1 else 1]), np.array([0]))]
    with pytest.raises(IndexOutOfBound, match="row index 9 out of range"):
        gb.Matrix.from_coo_chunks(bad, nrows=4, ncols=5, value=1)
    with pytest.raises(InvalidValue, match="Duplicate"):
        gb.Matrix.from_coo_chunks([(np.array([1, 1]), np.array([2, 2]))], nrows=4, ncols=5,
                                  value=1)
