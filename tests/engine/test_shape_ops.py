"""kronecker, Matrix.diag, power, outer and resize (``gblas2d/surface/shape.py``) against
python-graphblas, at any rank count: results, the errors of bad arguments (their classes),
where resize leaves each entry (the ownership functions' prediction, checked on every rank),
and the bytes ``outer`` moves (only the row and column segments of its two vectors).

Values are small integers, so a float result is exact whatever the order of its products.
"""

import graphblas as G
import numpy as np
import pytest
from _helpers import (
    agreed,
    assert_same_matrix,
    assert_same_vector,
    g_accepts,
    mat_coo,
    mat_pair,
    op,
    rand_mat,
    rand_vec,
    vec_coo,
)
from hypothesis import assume, given
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d.exceptions import DimensionMismatch, InvalidValue

DTYPES = ["BOOL", "INT8", "INT64", "UINT8", "FP32", "FP64"]
# A plain op, a non-commutative one, a monoid (its op) and positional ones.
EWISE_OPS = [("binary", "times"), ("binary", "minus"), ("binary", "first"),
             ("monoid", "max"), ("binary", "firsti"), ("binary", "secondj")]


def op_of(L, kind, name):
    return op(L, kind, name) if kind == "binary" else getattr(L.monoid, name)


@given(seed=st.integers(0, 2**20), shape_a=st.tuples(st.integers(0, 4), st.integers(0, 4)),
       shape_b=st.tuples(st.integers(0, 3), st.integers(0, 3)),
       dta=st.sampled_from(DTYPES), dtb=st.sampled_from(DTYPES),
       which=st.sampled_from(EWISE_OPS), b_transposed=st.booleans())
def test_kronecker_matches_graphblas(seed, shape_a, shape_b, dta, dtb, which, b_transposed):
    rng = np.random.default_rng(seed)
    A = rand_mat(rng, *shape_a, dta, 0.5)
    # B.T must have shape_b: B is drawn the other way round.
    B = rand_mat(rng, *(shape_b[::-1] if b_transposed else shape_b), dtb, 0.6)

    def kron(L):
        other = B.of(L).T if b_transposed else B.of(L)
        return A.of(L).kronecker(other, op_of(L, *which)).new()

    assume(g_accepts(lambda: kron(G)))
    assert_same_matrix(kron(gb), kron(G), what=f"kronecker {which}")


def test_kronecker_under_a_mask_and_of_a_transpose():
    rng = np.random.default_rng(5)
    A, B = rand_mat(rng, 3, 4, "INT64", 0.5), rand_mat(rng, 2, 3, "INT64", 0.7)
    M = rand_mat(rng, 4 * 2, 3 * 3, "BOOL", 0.5)
    out = {}
    for L in (gb, G):
        C = L.Matrix(L.dtypes.INT64, 8, 9)
        C(mask=M.of(L).V, accum=L.binary.plus) << A.of(L).T.kronecker(B.of(L), L.binary.minus)
        out[L] = C
    assert_same_matrix(out[gb], out[G], what="masked kronecker of A.T")


SHAPES = [(5, 7), (7, 5), (0, 3), (6, 6), (1, 1)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["FP64", "BOOL"])
def test_diag_matches_graphblas(shape, dtype):
    rows, cols, vals = mat_coo(np.random.default_rng(sum(shape)), *shape, dtype, 0.6)
    A = mat_pair(rows, cols, vals, dtype, *shape)
    for k in (-8, -5, -1, 0, 1, 2, 6, 9):
        assert_same_vector(A.gb.diag(k), A.G.diag(k), what=f"diag({k}) of {shape}")
        assert_same_vector(A.gb.T.diag(k), A.G.T.diag(k), what=f"A.T.diag({k}) of {shape}")


def test_diag_dtype_name_and_integer_kinds():
    rows, cols, vals = mat_coo(np.random.default_rng(2), 6, 6, "INT64", 0.7)
    A = mat_pair(rows, cols, vals, "INT64", 6, 6)
    d = A.gb.diag(np.int32(1), "FP32", name="d1")
    assert d.name == "d1"
    assert_same_vector(d, A.G.diag(1, "FP32"))
    assert_same_vector(A.gb.diag(gb.Scalar.from_value(-2)), A.G.diag(-2))


SEMIRINGS = [("plus_times", "INT8"), ("plus_times", "FP32"), ("min_plus", "INT64"),
             ("max_min", "UINT8"), ("lor_land", "BOOL"), ("any_pair", "INT64"),
             ("min_first", "FP64")]


@pytest.mark.parametrize("name,dtype", SEMIRINGS)
def test_power_matches_graphblas(name, dtype):
    # INT8 plus_times wraps: both engines wrap alike, whatever the order of the squarings.
    A = rand_mat(np.random.default_rng(len(name)), 6, 6, dtype, 0.35)
    for n in range(0 if name not in ("any_pair", "min_first") else 1, 6):
        ours = A.gb.power(n, getattr(gb.semiring, name)).new()
        assert_same_matrix(ours, A.G.power(n, getattr(G.semiring, name)).new(),
                           what=f"power({n}, {name}) on {dtype}")


def test_power_under_a_mask_and_of_a_transpose_and_an_empty_matrix():
    rng = np.random.default_rng(9)
    A, M = rand_mat(rng, 7, 7, "INT64", 0.3), rand_mat(rng, 7, 7, "BOOL", 0.5)
    out = {}
    for L in (gb, G):
        C = L.Matrix(L.dtypes.INT64, 7, 7)
        C(mask=~M.of(L).S) << A.of(L).T.power(3)
        out[L] = C
    assert_same_matrix(out[gb], out[G], what="masked power of A.T")
    for n in (0, 1, 2, 5):
        empty = [L.Matrix(L.dtypes.FP64, 0, 0).power(n).new() for L in (gb, G)]
        assert_same_matrix(*empty, what=f"power({n}) of 0 x 0")


@given(seed=st.integers(0, 2**20), m=st.integers(0, 9), n=st.integers(0, 9),
       dtu=st.sampled_from(DTYPES), dtv=st.sampled_from(DTYPES),
       which=st.sampled_from(EWISE_OPS))
def test_outer_matches_graphblas(seed, m, n, dtu, dtv, which):
    rng = np.random.default_rng(seed)
    u, v = rand_vec(rng, m, dtu, 0.6), rand_vec(rng, n, dtv, 0.6)

    def outer(L):
        return u.of(L).outer(v.of(L), op_of(L, *which)).new()

    assume(g_accepts(lambda: outer(G)))
    assert_same_matrix(outer(gb), outer(G), what=f"outer {which}")


def pad8(nbytes):
    return (nbytes + 7) // 8 * 8


def piece_message(count, length, item):
    """Bytes of one piece in flight: the smaller of dense (bitmap + every value) and sparse
    (int32 positions + values), each after a 16-byte header."""
    dense = 16 + pad8((length + 7) // 8) + pad8(length * item)
    return min(dense, 16 + pad8(count * 4) + count * item)


def test_outer_moves_only_the_segments_of_its_vectors():
    grid = gb.default_grid()
    r, c = grid.shape
    m, n = 40, 30
    ui, uv = vec_coo(np.random.default_rng(3), m, "FP64", 0.3)
    vi, vv = vec_coo(np.random.default_rng(4), n, "FP64", 0.8)
    u = gb.Vector.from_coo(ui, uv, size=m)
    v = gb.Vector.from_coo(vi, vv, size=n)
    expr = u.outer(v)
    with gb.recording() as rec:
        expr.new()

    def gathered(size, idx, pieces, skip):
        off = grid.offsets(size)
        return sum(piece_message(int(np.count_nonzero((idx >= off[k]) & (idx < off[k + 1]))),
                                 int(off[k + 1] - off[k]), 8) for k in pieces if k != skip)

    # u's row segment along the grid row, v's column segment along the grid column (each
    # piece but the one this rank holds), and nothing moved over the world but small words.
    want_row = 0 if c == 1 else gathered(m, ui, grid.segment_pieces("row"), grid.rank)
    want_col = 0 if r == 1 else gathered(n, vi, grid.segment_pieces("col"), grid.col_piece())
    ops = {op for op, _ in rec.totals}
    ok = rec.bytes("row") == want_row and rec.bytes("col") == want_col and \
        "alltoallv" not in ops
    assert agreed(ok), (rec.summary(), want_row, want_col)


def owned_entries_agree(ours, rows, cols, vals):
    """Whether this rank's block of ``ours`` holds exactly the entries (global ``rows``,
    ``cols``, ``vals``) that the ownership functions give it."""
    grid = ours.grid
    r_lo, r_hi = grid.row_block(ours.nrows)
    c_lo, c_hi = grid.col_block(ours.ncols)
    mine = (rows >= r_lo) & (rows < r_hi) & (cols >= c_lo) & (cols < c_hi)
    row_lo, col_lo, lr, lc, lv = ours.local_block()
    return row_lo == r_lo and col_lo == c_lo and np.array_equal(lr + row_lo, rows[mine]) and \
        np.array_equal(lc + col_lo, cols[mine]) and np.array_equal(lv, vals[mine])


@pytest.mark.parametrize("shape", [(2, 9), (9, 2), (0, 0), (6, 6), (5, 6), (12, 13)])
def test_matrix_resize_moves_entries_to_their_new_owners(shape):
    rows, cols, vals = mat_coo(np.random.default_rng(7), 5, 6, "INT64", 0.6)
    A = mat_pair(rows, cols, vals, "INT64", 5, 6)
    A.gb.resize(*shape)
    A.G.resize(*shape)
    assert_same_matrix(A.gb, A.G, what=f"resize to {shape}")
    want = [a.astype(np.int64) for a in A.G.to_coo()]
    assert agreed(owned_entries_agree(A.gb, *want))
    # The resized matrix works in a product: its blocks sit where the new shape puts them.
    x = [L.Vector.from_coo(np.arange(shape[1]), 1, dtype="INT64", size=shape[1])
         for L in (gb, G)]
    assert_same_vector(A.gb.mxv(x[0]).new(), A.G.mxv(x[1]).new(), what="mxv after resize")


@pytest.mark.parametrize("size", [0, 2, 6, 13])
def test_vector_resize_moves_entries_to_their_new_owners(size):
    v = rand_vec(np.random.default_rng(8), 7, "FP32", 0.6)
    v.gb.resize(np.int64(size))
    v.G.resize(size)
    assert_same_vector(v.gb, v.G, what=f"resize to {size}")
    lo, hi = v.gb.grid.piece(size)
    idx, vals = (np.asarray(a) for a in v.G.to_coo())
    mine = (idx >= lo) & (idx < hi)
    offset, local_idx, local_vals = v.gb.local_piece()
    assert agreed(offset == lo and np.array_equal(local_idx + lo, idx[mine]) and
                  np.array_equal(local_vals, vals[mine]))


def raised(fn, *args):
    """The class of what ``fn(*args)`` raises (None when it returns)."""
    try:
        fn(*args)
    except Exception as exc:
        return type(exc)
    return None


BAD_CALLS = {
    "kronecker with a Vector": lambda L, A, S, v: A.kronecker(v),
    "kronecker with a semiring": lambda L, A, S, v: A.kronecker(A, L.semiring.plus_times),
    "kronecker with a unary op": lambda L, A, S, v: A.kronecker(A, L.unary.abs),
    "outer with a Matrix": lambda L, A, S, v: v.outer(A),
    "outer with a semiring": lambda L, A, S, v: v.outer(v, L.semiring.plus_times),
    "diag with a float": lambda L, A, S, v: A.diag(1.5),
    "diag with a string": lambda L, A, S, v: A.diag("1"),
    "A.T.diag with a float": lambda L, A, S, v: A.T.diag(1.5),
    "power of a non-square": lambda L, A, S, v: A.power(2),
    "power of a non-square, n < 0": lambda L, A, S, v: A.power(-1),
    "power with a fractional n": lambda L, A, S, v: S.power(1.5),
    "power with a string n": lambda L, A, S, v: S.power("2"),
    "power with n < 0": lambda L, A, S, v: S.power(-2),
    "power with a binary op": lambda L, A, S, v: S.power(2, L.binary.plus),
    "power with a monoid": lambda L, A, S, v: S.power(2, L.monoid.plus),
    "power(0) of a semiring without identity": lambda L, A, S, v: S.power(
        0, L.semiring.min_first),
    "resize with a float": lambda L, A, S, v: A.resize(1.5, 2),
    "resize of a Vector with a string": lambda L, A, S, v: v.resize("3"),
}


@pytest.mark.parametrize("what", list(BAD_CALLS))
def test_bad_arguments_raise_as_in_graphblas(what):
    classes = []
    for L in (gb, G):
        A = L.Matrix.from_coo([0, 1], [1, 2], [1, 2], nrows=3, ncols=4)
        S = L.Matrix.from_coo([0, 1], [1, 2], [1, 2], nrows=3, ncols=3)
        v = L.Vector.from_coo([0], [1], size=3)
        classes.append(raised(BAD_CALLS[what], L, A, S, v))
        assert (A.shape, A.nvals, v.size) == ((3, 4), 2, 3), what
    ours, theirs = classes
    assert theirs is not None, what
    # python-graphblas raises its own DimensionMismatch; gblas2d's has the same name.
    assert ours is theirs or ours.__name__ == theirs.__name__ == "DimensionMismatch", \
        (what, ours, theirs)
    if ours.__name__ == "DimensionMismatch":
        assert ours is DimensionMismatch


def test_resize_to_a_negative_size_is_an_invalid_value():
    # python-graphblas lets C's conversion to an unsigned size raise OverflowError; gblas2d
    # raises InvalidValue, as its constructors do for a negative dimension.
    A = gb.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2)
    v = gb.Vector.from_coo([0], [1.0], size=2)
    with pytest.raises(InvalidValue, match="nrows must be non-negative, got -1"):
        A.resize(-1, 2)
    with pytest.raises(InvalidValue, match="size must be non-negative, got -3"):
        v.resize(-3)
    assert A.shape == (2, 2) and A.nvals == 1 and v.size == 2 and v.nvals == 1


@given(seed=st.integers(0, 2**20), v_first=st.booleans(),
       form=st.sampled_from(["+", "*", "-", "add", "mult", "union"]),
       dtypes=st.sampled_from([("INT64", "INT64"), ("FP64", "INT8"), ("BOOL", "FP32")]))
def test_matrix_and_vector_elementwise(seed, v_first, form, dtypes):
    """``A op v`` (v along every row, C(i, j) = A(i, j) op v(j)) and ``v op A`` (v down every
    column), by the infix operators and the three methods, as python-graphblas computes them."""
    rng = np.random.default_rng(seed)
    m, n = rng.integers(1, 8, 2)
    A = rand_mat(rng, m, n, dtypes[0], 0.4)
    v = rand_vec(rng, m if v_first else n, dtypes[1], 0.5)

    def run(L):
        x, y = (v.of(L), A.of(L)) if v_first else (A.of(L), v.of(L))
        if form in "+*-":
            return {"+": x + y, "*": x * y, "-": x - y}[form].new()
        if form == "union":
            return x.ewise_union(y, L.binary.max, 1, 2).new()
        return getattr(x, f"ewise_{form}")(y, L.binary.max).new()

    assume(g_accepts(lambda: run(G)))
    assert_same_matrix(run(gb), run(G), what=f"{form} v_first={v_first} {dtypes}")
