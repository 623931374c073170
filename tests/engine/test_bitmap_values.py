"""A bitmap piece's absent positions hold arbitrary values: an entry cleared in place keeps its
old value there, and a product's bitmap result from SuiteSparse is taken over as it comes. No
kernel may read them: products and element-wise ops answer as python-graphblas does whatever
those positions hold, and a full piece's one-pass element-wise op shares no array with its
operands. Nor may two Vectors share a piece's arrays: writing one Vector into another reads the
source's piece as it stands, so the output keeps a copy of what it takes, never the arrays.

Local pieces and one-process products: these run only in the one-process session.
"""

import itertools

import graphblas as G
import numpy as np
import pytest
from _helpers import backend_in_use

import gblas2d as gb
from gblas2d import binary
from gblas2d.local.piece import Piece, ewise

pytestmark = pytest.mark.serial_only

SIZE = 300


@pytest.fixture(params=["numpy", "suitesparse", "array"])
def backend(request):
    with backend_in_use(request.param) as name:
        yield name


def littered(present, values):
    """A bitmap piece of ``values`` where ``present``, with nan, inf and huge values where not."""
    junk = np.resize(np.array([np.nan, np.inf, -np.inf, 1e308]), len(present))
    return Piece(len(present), values.dtype, present=present.copy(),
                 values=np.where(present, values, junk))


@pytest.mark.parametrize("direction", ["pull", "push"])
def test_a_product_never_reads_a_cleared_entry(backend, direction):
    rng = np.random.default_rng(3)
    n = SIZE
    rows, cols = rng.integers(0, n, 4 * n), rng.integers(0, n, 4 * n)
    weights = rng.integers(1, 5, 4 * n).astype(np.float64)
    A = gb.Matrix.from_coo(rows, cols, weights, nrows=n, ncols=n, dup_op=gb.binary.plus)
    x = gb.Vector.from_coo(np.arange(n), np.arange(1.0, n + 1), size=n)
    cleared = rng.choice(n, n // 3, replace=False)
    # Clearing in place leaves the old values at the cleared positions of x's bitmap.
    x(gb.Vector.from_coo(cleared, True, size=n).S) << gb.Vector(gb.dtypes.FP64, n)
    assert x.piece.is_bitmap and x.nvals == n - len(cleared)
    y = gb.Vector(gb.dtypes.FP64, n)
    y(direction=direction) << A.mxv(x, gb.semiring.plus_times)
    GA = G.Matrix.from_coo(rows, cols, weights, nrows=n, ncols=n, dup_op=G.binary.plus)
    Gx = G.Vector.from_coo(*x.to_coo(), size=n)
    want_idx, want_vals = GA.mxv(Gx, G.semiring.plus_times).new().to_coo()
    got_idx, got_vals = y.to_coo()
    assert np.array_equal(got_idx, want_idx)
    assert np.allclose(got_vals, want_vals, rtol=1e-12)


def test_dense_values_are_zero_where_absent():
    present = np.arange(SIZE) % 3 == 0
    piece = littered(present, np.arange(SIZE, dtype=np.float64))
    assert np.array_equal(piece.dense_values(), np.where(present, np.arange(SIZE), 0.0))


@pytest.mark.parametrize("kind", ["mult", "add", "union"])
@pytest.mark.parametrize("op", [binary.minus, binary.lt, binary.first])
def test_elementwise_ops_never_read_absent_values(kind, op):
    rng = np.random.default_rng(7)
    ap, bp = rng.random(SIZE) < 0.5, rng.random(SIZE) < 0.4
    av, bv = rng.random(SIZE), rng.random(SIZE)
    out_type = np.dtype(bool) if op is binary.lt else np.dtype(np.float64)
    out = ewise(littered(ap, av), littered(bp, bv), op, kind, (np.float64, np.float64),
                out_type, (0.25, 0.75))
    both = op.evaluate(av, bv)
    if kind == "mult":
        want_p, want_v = ap & bp, both
    else:
        lone_a = op.evaluate(av, np.full(SIZE, 0.75)) if kind == "union" else av
        lone_b = op.evaluate(np.full(SIZE, 0.25), bv) if kind == "union" else bv
        want_p = ap | bp
        want_v = np.where(ap & bp, both, np.where(ap, lone_a, lone_b))
    assert np.array_equal(out.bitmap(), want_p) and out.nvals == np.count_nonzero(want_p)
    assert np.array_equal(out.dense_values()[want_p], want_v[want_p].astype(out_type))


@pytest.mark.parametrize("kind,op", list(itertools.product(["mult", "add", "union"],
                                                           [binary.first, binary.second,
                                                            binary.plus])))
def test_full_pieces_combine_into_arrays_of_their_own(kind, op):
    a = Piece.full(np.arange(SIZE, dtype=np.float64))
    b = Piece.full(np.arange(SIZE, dtype=np.float64)[::-1].copy())
    out = ewise(a, b, op, kind, (np.float64, np.float64), np.float64, (0.0, 0.0))
    assert out.nvals == SIZE and out.is_full
    assert np.array_equal(out.values, op.evaluate(a.values, b.values))
    assert not np.shares_memory(out.values, a.values)
    assert not np.shares_memory(out.values, b.values)
    out.values[:] = -1  # writing the result in place leaves both operands as they were
    assert a.values[1] == 1 and b.values[1] == SIZE - 2


@pytest.mark.parametrize("fmt", ["list", "bitmap"])
@pytest.mark.parametrize("statement", ["d << q", "d(q.S) << q", "d(q.S, replace=True) << q",
                                       "d(accum=gb.binary.plus) << q", "q(q.S) << q",
                                       "d(~q.S) << q"])
def test_a_vector_written_into_another_shares_no_arrays_with_it(fmt, statement):
    n = SIZE
    at = np.arange(0, n, 2) if fmt == "bitmap" else np.array([1, 7, 50])
    q = gb.Vector.from_coo(at, np.arange(1.0, len(at) + 1), size=n)
    d = gb.Vector.from_coo(np.arange(0, n, 3), -np.arange(1.0, n // 3 + 1), size=n)
    assert q.piece.is_bitmap == (fmt == "bitmap")
    Gq, Gd = (G.Vector.from_coo(*v.to_coo(), size=n) for v in (q, d))
    exec(statement, {"gb": G, "q": Gq, "d": Gd})
    exec(statement, {"gb": gb, "q": q, "d": d})
    for ours, theirs in ((q, Gq), (d, Gd)):
        assert np.array_equal(ours.to_coo()[0], theirs.to_coo()[0])
        assert np.array_equal(ours.to_coo()[1], theirs.to_coo()[1])
    # Writing either one in place (a bitmap is patched) leaves the other as it was.
    q_before, d_before = q.to_coo(), d.to_coo()
    d[0] << 12345.0
    d(accum=gb.binary.plus) << gb.Vector.from_coo([2], [0.5], size=n)
    assert all(np.array_equal(a, b) for a, b in zip(q.to_coo(), q_before, strict=True))
    d_now = d.to_coo()
    q[0] << -5.0
    q(accum=gb.binary.plus) << gb.Vector.from_coo([2], [0.25], size=n)
    assert all(np.array_equal(a, b) for a, b in zip(d.to_coo(), d_now, strict=True))
    assert d_now[1][0] == 12345.0 and d.nvals >= d_before[0].size


@pytest.mark.parametrize("op,thunk", [("<", 0.5), (">=", 0.25), ("==", 3.0), ("!=", 3.0),
                                      ("index<=", 100)])
def test_select_on_a_bitmap_never_keeps_a_cleared_entry(op, thunk):
    rng = np.random.default_rng(9)
    n = SIZE
    values = rng.random(n)
    values[::7] = 3.0
    v = gb.Vector.from_coo(np.arange(n), values, size=n)
    cleared = rng.choice(n, n // 2, replace=False)
    v(gb.Vector.from_coo(cleared, True, size=n).S) << gb.Vector(gb.dtypes.FP64, n)
    assert v.piece.is_bitmap
    Gv = G.Vector.from_coo(*v.to_coo(), size=n)
    got, want = v.select(op, thunk).new(), Gv.select(op, thunk).new()
    assert np.array_equal(got.to_coo()[0], want.to_coo()[0])
    assert np.array_equal(got.to_coo()[1], want.to_coo()[1])
    # the selection is a Vector of its own: writing it leaves v as it was
    before = v.to_coo()
    if got.nvals:
        got[int(got.to_coo()[0][0])] << -1.0
    assert all(np.array_equal(a, b) for a, b in zip(v.to_coo(), before, strict=True))


@pytest.mark.parametrize(("name", "dtype"), [("minv", "INT64"), ("sqrt", "FP64"),
                                             ("lnot", "BOOL"), ("ainv", "INT8"),
                                             ("abs", "FP64"), ("identity", "UINT16")])
def test_a_builtin_apply_on_a_bitmap_answers_without_reading_a_cleared_entry(name, dtype):
    # The op runs over the bitmap's whole array: the cleared positions (0 for minv, negative for
    # sqrt, huge for the small types) give no warning, which the suite turns into errors, and
    # no entry.
    rng = np.random.default_rng(3)
    n = SIZE
    values = rng.integers(1, 100, n)
    v = gb.Vector.from_coo(np.arange(n), values, dtype=dtype, size=n)
    junk = {"BOOL": True, "FP64": -1e308, "INT64": 0, "INT8": -128, "UINT16": 65535}[dtype]
    v(gb.Vector.from_coo(np.arange(n), junk, size=n).S) << v.apply(gb.unary.identity)
    cleared = rng.choice(n, n // 2, replace=False)
    v(gb.Vector.from_coo(cleared, True, size=n).S) << gb.Vector(v.dtype, n)
    assert v.piece.is_bitmap
    Gv = G.Vector.from_coo(*v.to_coo(), dtype=dtype, size=n)
    got = v.apply(getattr(gb.unary, name)).new()
    want = Gv.apply(getattr(G.unary, name)).new()
    assert got.dtype.name == want.dtype.name
    assert np.array_equal(got.to_coo()[0], want.to_coo()[0])
    assert np.allclose(got.to_coo()[1], want.to_coo()[1], equal_nan=True)
    # the result's bitmap is its own: writing it leaves v as it was
    before = v.to_coo()
    got[int(got.to_coo()[0][0])] << 1
    assert all(np.array_equal(a, b) for a, b in zip(v.to_coo(), before, strict=True))


def test_an_apply_on_a_one_valued_matrix_keeps_one_value():
    A = gb.Matrix.from_coo([0, 1, 5], [2, 3, 4], True, nrows=8, ncols=8)
    assert A.block.is_iso
    B = A.apply(gb.unary.lnot).new()
    assert B.block.is_iso and B.nvals == 3
    GA = G.Matrix.from_coo(*A.to_coo(), nrows=8, ncols=8)
    want = GA.apply(G.unary.lnot).new()
    assert all(np.array_equal(a, b) for a, b in zip(B.to_coo(), want.to_coo(), strict=True))
