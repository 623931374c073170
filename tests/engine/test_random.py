"""Random values (``Vector.random``, ``Matrix.random``, ``indexunary.random_uniform`` and
``random_bits``, and the algorithms' ``engine(A).random`` / ``random_vector``).

The reference is the hash computed in this one process for every position
(``gblas2d.semirings.random.hash64``, itself checked against splitmix64's reference
numbers and a plain-int rewrite of its formula). Every rank's piece or block must hold the hash
of its own positions, and the whole object the hash of every position, at any rank count and
on every grid shape of it. The tests also check the distribution, the errors (the same on
every rank and on both engines) and python-graphblas's values, which the engine namespace
computes with numpy.
"""

import graphblas
import numpy as np
import pytest
from _helpers import agreed
from gblas2d.algorithms import engine
from gblas2d.semirings.random import GOLDEN, hash64, mix64, uniform

import gblas2d as gb
from gblas2d.exceptions import DomainMismatch, InvalidValue

SEEDS = [0, 7, 2**64 - 1]
MASK64 = 2**64 - 1


def expected(seed, rows, cols, dtype):
    """The reference values at positions (rows, cols), computed in this process."""
    bits = hash64(seed, np.asarray(rows), np.asarray(cols))
    return uniform(bits) if dtype == "FP64" else bits


def grid_shapes():
    """Every R x C grid of this run's ranks."""
    p = gb.default_grid().nprocs
    return [(r, p // r) for r in range(1, p + 1) if p % r == 0]


def raised(call):
    """(class name, message) of what ``call`` raised, checked to be the same on every rank."""
    try:
        call()
    except Exception as exc:
        seen = (type(exc).__name__, str(exc))
    else:
        seen = ("nothing", "")
    everywhere = gb.default_grid().comm.allgather_object(seen)
    assert all(s == seen for s in everywhere), everywhere
    return seen


# ---- the hash ------------------------------------------------------------------------------

def splitmix64_finalizer(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def test_the_hash_is_splitmix64_as_documented():
    # splitmix64 seeded with 0 first returns mix64(0 + G); this is Vigna's reference output
    assert int(mix64(np.uint64(0) + GOLDEN)) == 0xE220A8397B1DCDAF
    g = int(GOLDEN)
    for seed, row, col in [(0, 0, 0), (7, 12345, 3), (2**64 - 1, 2**60, 2**40 + 1)]:
        h = splitmix64_finalizer((seed + g) & MASK64)
        h = splitmix64_finalizer(h ^ ((row + g) & MASK64))
        h = splitmix64_finalizer(h ^ ((col + g) & MASK64))
        assert int(hash64(seed, np.array([row]), np.array([col]))[0]) == h
        assert int(hash64(seed, row, col)) == h
    bits = np.array([0, 2**11 - 1, 2**11, MASK64], dtype=np.uint64)
    np.testing.assert_array_equal(uniform(bits), [0.0, 0.0, 2.0**-53, 1 - 2.0**-53])


# ---- the same values on every rank count and grid ------------------------------------------

@pytest.mark.parametrize("dtype", ["FP64", "UINT64"])
@pytest.mark.parametrize("size", [0, 1, 13, 1000])
@pytest.mark.parametrize("seed", SEEDS)
def test_vector_random_holds_the_hash_of_each_index(dtype, size, seed):
    v = gb.Vector.random(size, seed, dtype=dtype)
    want = expected(seed, np.arange(size), 0, dtype)
    assert v.dtype.name == dtype and v.size == size and v.nvals == size
    indices, values = v.to_coo()
    ok = np.array_equal(indices, np.arange(size)) and np.array_equal(values, want)
    # this rank holds its own piece, and computed only that
    lo, hi = v.grid.piece(size)
    first, local, mine = v.local_piece()
    ok &= first == lo and np.array_equal(local, np.arange(hi - lo))
    ok &= np.array_equal(mine, want[lo:hi])
    assert agreed(ok)


@pytest.mark.parametrize("dtype", ["FP64", "UINT64"])
def test_every_grid_shape_gives_the_same_values(dtype):
    nrows, ncols, seed = 11, 7, 5
    for shape in grid_shapes():
        g = gb.Grid(shape=shape)
        v = gb.Vector.random(nrows, seed, dtype=dtype, grid=g)
        A = gb.Matrix.random(nrows, ncols, seed, dtype=dtype, grid=g)
        rows, cols = np.divmod(np.arange(nrows * ncols), ncols)
        ok = np.array_equal(v.to_dense(), expected(seed, np.arange(nrows), 0, dtype))
        ok &= A.nvals == nrows * ncols
        ok &= np.array_equal(A.to_dense().ravel(), expected(seed, rows, cols, dtype))
        # this rank's block holds the hash of its own (row, col) positions
        row_lo, col_lo, local_rows, local_cols, values = A.local_block()
        ok &= row_lo == g.row_block(nrows)[0] and col_lo == g.col_block(ncols)[0]
        ok &= np.array_equal(values, expected(seed, local_rows + row_lo, local_cols + col_lo,
                                              dtype))
        assert agreed(ok), shape


def test_apply_gives_the_values_of_the_full_object_on_the_entries():
    n, seed = 40, 9
    idx = np.array([0, 3, 17, 38])
    w = gb.Vector.from_coo(idx, [1, 2, 3, 4], size=n)
    got = w.apply(gb.indexunary.random_uniform, seed).new()
    full = gb.Vector.random(n, seed).to_dense()
    ok = got.dtype.name == "FP64" and np.array_equal(got.to_coo()[0], idx)
    ok &= np.array_equal(got.to_coo()[1], full[idx])
    # the functional form, and the value of w not read
    same = gb.indexunary.random_uniform(w.apply(gb.unary.ainv).new(), seed).new()
    ok &= same.isequal(got)
    rows, cols = np.array([0, 2, 5, 5]), np.array([4, 0, 1, 6])
    M = gb.Matrix.from_coo(rows, cols, True, nrows=6, ncols=7)
    bits = M.apply(gb.indexunary.random_bits, seed).new()
    ok &= bits.dtype.name == "UINT64"
    ok &= np.array_equal(bits.to_coo()[2], gb.Matrix.random(6, 7, seed, dtype="UINT64")
                         .to_dense()[rows, cols])
    assert agreed(ok)


def test_seeds_and_numpy_integers():
    a = gb.Vector.random(50, np.uint64(2**64 - 1)).to_dense()
    b = gb.Vector.random(50, 2**64 - 1).to_dense()
    c = gb.Vector.random(50, 2**64 - 2).to_dense()
    assert agreed(np.array_equal(a, b) and not np.any(a == c))


# ---- the distribution ----------------------------------------------------------------------

N = 10**5


def test_floats_are_uniform_in_zero_one():
    v = gb.Vector.random(N, 2024)
    # the mean of N uniforms has standard deviation 0.29 / sqrt(N) = 0.0009: 5.5 of them
    mean = v.reduce(gb.monoid.plus).new().value / N
    values = v.to_coo()[1]
    # each tenth of [0, 1) holds N / 10 values, standard deviation 95: 5.3 of them
    counts = np.bincount((values * 10).astype(np.int64), minlength=10)
    # adjacent seeds are uncorrelated: E[u v] = 1/4, standard deviation 0.0006
    other = gb.Vector.random(N, 2025).to_coo()[1]
    ok = abs(mean - 0.5) < 0.005 and values.min() >= 0 and values.max() < 1
    ok &= len(counts) == 10 and bool(np.all(np.abs(counts - N / 10) < 500))
    ok &= abs(np.mean(values * other) - 0.25) < 0.004
    assert agreed(ok), (mean, counts)


def test_bits_are_balanced_and_distinct():
    bits = gb.Vector.random(N, 3, dtype="UINT64").to_coo()[1]
    # each of the 64 bits is set in half the values, standard deviation 0.0016: 6 of them
    ones = ((bits[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)).mean(axis=0)
    ok = bool(np.all(np.abs(ones - 0.5) < 0.01))
    # 10^5 draws of 64 bits collide with probability 3e-10
    ok &= len(np.unique(bits)) == N
    assert agreed(ok), ones


# ---- errors --------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "cls", "message"), [
    (lambda: gb.Vector.random(5, 1.5), "TypeError", "seed must be an integer, got float"),
    (lambda: gb.Vector.random(5, "3"), "TypeError", "seed must be an integer, got str"),
    (lambda: gb.Vector.random(5, True), "TypeError", "seed must be an integer, got bool"),
    (lambda: gb.Vector.random(5, -1), "InvalidValue", "seed (=-1) must be in [0, 2**64)"),
    (lambda: gb.Vector.random(5, 2**64), "InvalidValue", "must be in [0, 2**64)"),
    (lambda: gb.Vector.random(-1, 0), "InvalidValue", "size (=-1) must be in [0, 2**60]"),
    (lambda: gb.Vector.random(2.0, 0), "TypeError", "size must be an integer, got float"),
    (lambda: gb.Matrix.random(3, -2, 0), "InvalidValue", "ncols (=-2) must be in [0, 2**60]"),
    (lambda: gb.Vector.random(5, 0, dtype="INT64"), "DomainMismatch", "got dtype INT64"),
    (lambda: gb.Matrix.random(2, 2, 0, dtype="FP32"), "DomainMismatch", "got dtype FP32"),
    (lambda: gb.Vector.random(5, 0, dtype=bool), "DomainMismatch", "got dtype BOOL"),
    (lambda: gb.Vector.from_coo([1], [1.0], size=4).apply(gb.indexunary.random_uniform, 0.5)
     .new(), "DomainMismatch", "the seed (the thunk) must be an integer, got FP64"),
])
def test_bad_arguments_raise_the_same_error_everywhere(call, cls, message):
    name, text = raised(call)
    assert name == cls and message in text, text


def test_a_failed_call_leaves_the_next_one_working():
    with pytest.raises(DomainMismatch):
        gb.Vector.random(5, 0, dtype="INT8")
    with pytest.raises(InvalidValue):
        gb.Matrix.random(-1, 3)
    assert agreed(gb.Vector.random(5, 0).nvals == 5)


# ---- the engine namespace: the same values on python-graphblas -----------------------------

NAMESPACES = [engine(gb.Vector(bool, 1)), engine(graphblas.Vector(bool, 1))]


def coo(obj):
    return [np.asarray(a).astype(np.uint64) if k < obj.ndim else np.asarray(a)
            for k, a in enumerate(obj.to_coo())]


@pytest.mark.parametrize("dtype", ["FP64", "UINT64"])
def test_both_engines_make_the_same_values(dtype):
    rows, cols = np.array([0, 1, 1, 4, 6]), np.array([2, 0, 5, 5, 1])
    results = []
    for ns in NAMESPACES:
        t = getattr(ns.dtypes, dtype)
        v = ns.Vector.from_coo(rows, 1, size=8)
        A = ns.Matrix.from_coo(rows, cols, 1, nrows=7, ncols=6)
        results.append([ns.random_vector(8, 11, t), ns.random(v, 11, t), ns.random(A, 11, t)])
    ok = True
    for ours, theirs in zip(*results, strict=True):
        ok &= ours.dtype.name == theirs.dtype.name == dtype
        ok &= all(np.array_equal(a, b) for a, b in zip(coo(ours), coo(theirs), strict=True))
    full = gb.Vector.random(8, 11, dtype=dtype).to_dense()
    ok &= np.array_equal(coo(results[1][1])[1], full[np.unique(rows)])
    assert agreed(ok)


def test_both_engines_default_to_uniform_floats():
    ours, theirs = (ns.random_vector(20) for ns in NAMESPACES)
    assert ours.dtype.name == theirs.dtype.name == "FP64"
    assert agreed(np.array_equal(ours.to_coo()[1], theirs.to_coo()[1]))


@pytest.mark.parametrize("call", [
    lambda ns: ns.random_vector(4, 0.5),
    lambda ns: ns.random_vector(-3, 0),
    lambda ns: ns.random_vector(4, -1),
    lambda ns: ns.random_vector(4, 0, ns.dtypes.INT32),
    lambda ns: ns.random(ns.Vector.from_coo([0], [1.0], size=3), 2**64),
    lambda ns: ns.random(ns.Matrix.from_coo([0], [0], 1, nrows=2, ncols=2), 0, "BOOL"),
])
def test_both_engines_raise_the_same_errors(call):
    ours, theirs = (raised(lambda ns=ns: call(ns)) for ns in NAMESPACES)
    assert ours == theirs and ours[0] != "nothing", (ours, theirs)
