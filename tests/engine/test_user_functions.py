"""User ops defined once, as python-graphblas users write them, run on both engines with the
same results (issue 44): a function of scalars (compiled by numba on each engine) and a
vectorized one, on gblas2d objects and on python-graphblas objects; a lexicographic-min monoid
made once and handed to either engine through ``engine(A).operator``.

python-graphblas compiles an op for every type when it is registered (seconds for these ops,
on every rank), so the comparisons with it run in the one-process session; under ``mpiexec``
the same ops run on distributed objects against numpy's answers. Every rank builds the same
operands; results are read back replicated."""

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed, assert_same_matrix, assert_same_vector, rand_mat, rand_vec
from gblas2d.algorithms import engine
from gblas2d.semirings import binary, indexunary, monoid, select, semiring, unary

import gblas2d as gb

# 10 bits of a packed value are its key, the rest break ties: (key, value) ordered
KEY_BITS = 10


def lexicographic_min(x, y):
    """The smaller of x and y by (low 10 bits, then the whole value): not numpy's min."""
    kx, ky = x % 1024, y % 1024
    if kx != ky:
        return x if kx < ky else y
    return x if x < y else y


def lesser(x, y):
    return x if x < y else y


# made once: python-graphblas compiles each op for every type when it is registered
LEXMIN = monoid.register_anonymous(binary.register_anonymous(lexicographic_min), 2**63 - 1,
                                   name="lexmin")
LEXMIN_FIRST = semiring.register_anonymous(LEXMIN, binary.first)
LESSER = binary.register_anonymous(lesser)
CLIPPED = unary.register_anonymous(lambda x: x if x > 0 else 0, name="clipped")
BANDED = indexunary.register_anonymous(lambda x, row, col, thunk: x if row - col < thunk else -x,
                                       name="banded")
NEAR = select.register_anonymous(lambda x, row, col, thunk: abs(row - col) <= thunk and x != 0,
                                 name="near")


@pytest.mark.serial_only
@pytest.mark.parametrize("dtype", ["INT64", "FP64"])
def test_ops_of_scalars_give_python_graphblas_results(dtype):
    rng = np.random.default_rng(44)
    A, B = rand_mat(rng, 13, 11, dtype, 0.4), rand_mat(rng, 13, 11, dtype, 0.4)
    for make in (lambda L, X, Y: X.ewise_add(Y, L(LESSER)),
                 lambda L, X, Y: X.ewise_mult(Y, L(LESSER)),
                 lambda L, X, Y: X.apply(L(CLIPPED)),
                 lambda L, X, Y: X.apply(L(BANDED), 2),
                 lambda L, X, Y: X.select(L(NEAR), 3)):
        ours = make(lambda op: op, A.gb, B.gb).new()
        theirs = make(lambda op: op.to_graphblas(), A.G, B.G).new()
        assert_same_matrix(ours, theirs)


def lexmin_of(values):
    return min(values, key=lambda q: (q % 1024, q))


@pytest.mark.serial_only
def test_a_lexicographic_min_defined_once_runs_on_both_engines():
    rng = np.random.default_rng(7)
    n = 40
    rows, cols = rng.integers(0, n, 300), rng.integers(0, n, 300)
    packed = rng.integers(0, 2**20, 300) * 1024 + rng.integers(0, 4, 300)
    x = rng.integers(0, 2**30, n) * 1024 + rng.integers(0, 4, n)
    results = []
    for lib in (gb, G):
        A = lib.Matrix.from_coo(rows, cols, packed, nrows=n, ncols=n, dup_op=lib.binary.first)
        v = lib.Vector.from_coo(np.arange(n), x, size=n)
        ns = engine(A)
        by_row = A.reduce_rowwise(ns.operator(LEXMIN)).new()
        # y(i) = lexmin_j A(i, j): the product's first operand is A's value
        product = A.mxv(v, ns.operator(LEXMIN_FIRST)).new()
        results.append((by_row, product))
    (ours_rows, ours_product), (theirs_rows, theirs_product) = results
    assert_same_vector(ours_rows, theirs_rows)
    assert_same_vector(ours_product, theirs_product)
    # the reference: per row, the entry of smallest (key, value), over the first of duplicates
    first = {}
    for r, c, p in zip(rows, cols, packed, strict=True):
        first.setdefault((r, c), p)
    expected = {}
    for (r, _), p in first.items():
        expected[r] = lexmin_of([expected.get(r, p), p])
    indices, values = ours_rows.to_coo()
    assert dict(zip(indices.tolist(), values.tolist(), strict=True)) == expected
    # lexicographic, not numpy's min: the keys decide first
    assert any(v != min(p for (r, _), p in first.items() if r == i)
               for i, v in expected.items())


def test_a_vectorized_op_is_still_called_on_whole_arrays():
    seen = []

    def absdiff(x, y):
        seen.append(len(x))
        return np.abs(x - y)

    op = binary.register_anonymous(absdiff)
    rng = np.random.default_rng(3)
    A, B = rand_mat(rng, 60, 60, "FP64", 0.8), rand_mat(rng, 60, 60, "FP64", 0.8)
    ours = A.gb.ewise_mult(B.gb, op).new()
    assert_same_matrix(ours, A.G.ewise_mult(B.G, G.binary.minus).new().apply(G.unary.abs).new())
    # every rank's block holds hundreds of common entries, each block one call
    assert agreed(max(seen) > 100)


def test_ops_of_scalars_on_distributed_objects_give_numpy_answers():
    rng = np.random.default_rng(5)
    v = rand_vec(rng, 50, "INT64", 0.7).gb
    assert v.reduce(LEXMIN).new().value == lexmin_of(v.to_coo()[1].tolist())
    n = 30
    rows, cols = rng.integers(0, n, 200), rng.integers(0, n, 200)
    packed = rng.integers(0, 2**20, 200) * 1024 + rng.integers(0, 4, 200)
    A = gb.Matrix.from_coo(rows, cols, packed, nrows=n, ncols=n, dup_op=binary.first)
    r, c, a = A.to_coo()
    y = A.mxv(gb.Vector.from_scalar(1, n), LEXMIN_FIRST).new()
    at, got = y.to_coo()
    assert got.tolist() == [lexmin_of(a[r == i].tolist()) for i in at]
    low = A.ewise_add(A.T.new(), LESSER).new().to_dense(fill_value=0)
    dense = A.to_dense(fill_value=0)
    both = (dense != 0) & (dense.T != 0)
    expected = np.where(both, np.minimum(dense, dense.T), dense + dense.T)
    np.testing.assert_array_equal(low, expected)
