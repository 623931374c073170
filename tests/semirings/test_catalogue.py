"""The builtin catalogue against python-graphblas (SuiteSparse:GraphBLAS) on random data.

Each op is run on random vectors of every dtype python-graphblas accepts for it; a dtype it
rejects (KeyError) is left out. Integers and booleans must match exactly, floats to a relative
1e-6 (FP32) or 1e-12 (FP64), nan where python-graphblas has nan.
"""

import zlib

import graphblas as gb
import numpy as np
import pytest
from gblas2d.semirings import Operator, binary, monoid, semiring, unary
from gblas2d.semirings.dtypes import BOOL, INT64, lookup_dtype

DTYPES = ["BOOL", "INT8", "INT64", "UINT8", "UINT64", "FP32", "FP64"]
ALL_DTYPES = ["BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64",
              "FP32", "FP64"]
N = 40

# The logical monoids fold in BOOL (python-graphblas defines them for BOOL only).
LOGICAL_MONOIDS = {"lor", "land", "lxor", "lxnor"}
# python-graphblas computes the bitwise semirings in the unsigned type of the same size; the
# bits agree.
BITWISE_MONOIDS = ("bor", "band", "bxor", "bxnor")
# GraphBLAS C names gblas2d keeps as aliases; python-graphblas has only pair and cdiv.
ALIASES = {"oneb": "pair", "div": "cdiv"}


# SuiteSparse has GxB_POPCOUNT but python-graphblas does not expose it (a gblas2d extension);
# tests/engine/test_diag_and_bits.py checks it against numpy.
NOT_IN_GRAPHBLAS = {"popcount"}


def builtins(module, kind, *, aliases=False):
    """The builtin ops of ``module`` (its ``__all__``; ops users register are not in it),
    without the aliases unless asked."""
    ops = {name: getattr(module, name) for name in module.__all__}
    return sorted(
        name for name, op in ops.items()
        if isinstance(op, Operator) and op.kind == kind and (aliases or op.name == name)
    )


def gb_op(module, name):
    """python-graphblas's op of that name, looking in ``ss`` first (no deprecation warning)."""
    return getattr(module.ss, name, None) or getattr(module, name, None)


def seeded(name):
    """A random generator that is the same for ``name`` on every run."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def random_values(rng, dtype, n=N, *, nonzero=False):
    """Small values of ``dtype``: quarters for floats (halves test rounding), zeros included
    unless ``nonzero``."""
    np_type = lookup_dtype(dtype).np_type
    if np_type.kind == "b":
        values = rng.random(n) < 0.5
    elif np_type.kind == "i":
        values = rng.integers(-20, 21, n)
    elif np_type.kind == "u":
        values = rng.integers(0, 41, n)
    else:
        values = rng.integers(-40, 41, n) / 4
    if nonzero:
        values = np.where(values == 0, 1, values)
    return values.astype(np_type)


def gb_vector(values, dtype):
    return gb.Vector.from_coo(np.arange(len(values)), values, dtype=dtype, size=len(values))


def assert_same(got, expected, dtype):
    if lookup_dtype(dtype).np_type.kind == "f":
        rtol = 1e-6 if lookup_dtype(dtype).itemsize == 4 else 1e-12
        np.testing.assert_allclose(got, expected, rtol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def graphblas_types(op, dtypes=DTYPES):
    """The dtypes python-graphblas accepts for ``op`` (its own op object)."""
    accepted = []
    for dtype in dtypes:
        try:
            op[dtype]
        except KeyError:
            continue
        accepted.append(dtype)
    return accepted


@pytest.mark.parametrize("name", [n for n in builtins(binary, "binary")
                                  if not getattr(binary, n).index_aware])
def test_binary_matches_graphblas(name):
    rng = seeded(name)
    ours, theirs = getattr(binary, name), gb_op(gb.binary, name)
    dtypes = graphblas_types(theirs)
    assert dtypes, f"python-graphblas accepts none of {DTYPES} for {name}"
    # Every operand nonzero: python-graphblas's integer floordiv fails on a zero divisor.
    nonzero = name in {"cdiv", "rdiv", "truediv", "floordiv", "rfloordiv"}
    for dtype in dtypes:
        x = random_values(rng, dtype, nonzero=nonzero)
        y = random_values(rng, dtype, nonzero=nonzero)
        expected = gb_vector(x, dtype).ewise_mult(gb_vector(y, dtype), theirs).new()
        got = ours.evaluate(x, y)
        if name == "any":
            # Either operand is a correct answer.
            assert np.all((got == x) | (got == y))
            continue
        assert lookup_dtype(got.dtype) == lookup_dtype(expected.dtype.np_type), dtype
        assert_same(got, expected.to_coo()[1], dtype)


def test_binary_edge_cases_match_graphblas():
    # Division by zero, overflow in pow, nan in min/max and pow: SuiteSparse's conventions.
    cases = [
        ("cdiv", "INT64", [7, -7, 0, -7, 7, np.iinfo(np.int64).min], [0, 0, 0, 2, -2, -1]),
        ("cdiv", "UINT8", [7, 0, 5], [0, 0, 2]),
        ("rdiv", "INT8", [0, 2, -128], [5, 7, -1]),
        ("pow", "INT64", [3, 2, -2, 0, 2, -3], [50, -1, 3, -1, 62, 41]),
        ("pow", "UINT8", [3, 2, 200, 0], [50, 0, 2, 0]),
        ("pow", "FP64", [np.nan, 1.0, -1.0, 0.0, -8.0], [0.0, np.nan, np.inf, -1.0, 1 / 3]),
        ("min", "FP64", [np.nan, 1.0, np.nan], [1.0, np.nan, np.nan]),
        ("max", "FP32", [np.nan, 1.0, np.nan], [1.0, np.nan, np.nan]),
        ("truediv", "INT8", [7, 0, -3], [0, 0, 2]),
    ]
    for name, dtype, x, y in cases:
        x = np.array(x, dtype=lookup_dtype(dtype).np_type)
        y = np.array(y, dtype=lookup_dtype(dtype).np_type)
        expected = gb_vector(x, dtype).ewise_mult(gb_vector(y, dtype), getattr(gb.binary, name))
        assert_same(getattr(binary, name).evaluate(x, y), expected.new().to_coo()[1], dtype)


def test_aliases_are_the_graphblas_ops():
    for alias, name in ALIASES.items():
        assert getattr(binary, alias) is getattr(binary, name)


@pytest.mark.parametrize("name", sorted(set(builtins(unary, "unary")) - NOT_IN_GRAPHBLAS))
def test_unary_matches_graphblas(name):
    rng = seeded(name)
    ours, theirs = getattr(unary, name), getattr(gb.unary, name)
    dtypes = graphblas_types(theirs)
    assert dtypes
    for dtype in dtypes:
        x = random_values(rng, dtype)
        expected = gb_vector(x, dtype).apply(theirs).new()
        got = ours.evaluate(x)
        assert lookup_dtype(got.dtype) == lookup_dtype(expected.dtype.np_type), dtype
        assert_same(got, expected.to_coo()[1], expected.dtype.name)


@pytest.mark.parametrize("name", builtins(monoid, "monoid"))
def test_monoid_identity_matches_graphblas(name):
    ours = getattr(monoid, name)
    dtypes = graphblas_types(getattr(gb.monoid, name), ALL_DTYPES)
    assert dtypes
    for dtype in dtypes:
        theirs = getattr(gb.monoid, name)[dtype]
        out_type = ours.output_type(dtype)
        assert out_type == lookup_dtype(theirs.return_type.np_type), dtype
        identity = ours.identity(out_type)
        assert identity.dtype == out_type.np_type
        assert identity == theirs.identity, dtype


@pytest.mark.parametrize("name", builtins(monoid, "monoid"))
def test_monoid_reduceat_matches_graphblas(name):
    rng = seeded(name)
    ours, theirs = getattr(monoid, name), getattr(gb.monoid, name)
    for dtype in graphblas_types(theirs):
        values = random_values(rng, dtype)
        starts = np.flatnonzero(np.r_[True, rng.random(N - 1) < 0.2])
        got = ours.reduceat(values, starts)
        assert got.dtype == ours.output_type(dtype).np_type
        for k, segment in enumerate(np.split(values, starts[1:])):
            if name == "any":
                assert got[k] in segment
                continue
            expected = gb_vector(segment, dtype).reduce(theirs[dtype]).new().value
            assert_same(got[k:k + 1], [expected], ours.output_type(dtype).name)


def test_monoids_on_bool_follow_numpy():
    x = np.array([True, False, True, False])
    starts = np.array([0, 2, 3])
    np.testing.assert_array_equal(monoid.plus.reduceat(x, starts), [True, True, False])
    np.testing.assert_array_equal(monoid.times.reduceat(x, starts), [False, True, False])
    assert monoid.plus.reduceat(x, starts).dtype == np.bool_
    assert monoid.plus.reduce(x[:0]) == np.False_


def test_binary_ops_link_their_monoids():
    # monoid.eq is python-graphblas's name for lxnor on BOOL: binary.eq keeps no monoid, since
    # on other types it is no monoid at all.
    for name in set(builtins(monoid, "monoid")) - {"eq"}:
        assert getattr(binary, name).monoid is getattr(monoid, name)
    assert binary.eq.monoid is None
    assert (monoid.eq.binaryop.name, monoid.eq.binaryop.type) == ("lxnor", BOOL)
    assert binary.minus.monoid is None


def test_every_name_exists_in_graphblas():
    modules = [(unary, gb.unary, "unary"), (binary, gb.binary, "binary"),
               (monoid, gb.monoid, "monoid"), (semiring, gb.semiring, "semiring")]
    for ours, theirs, kind in modules:
        names = set(builtins(ours, kind, aliases=True)) - set(ALIASES) - NOT_IN_GRAPHBLAS
        missing = [n for n in names if gb_op(theirs, n) is None]
        assert not missing, f"{kind}: {missing}"


@pytest.mark.parametrize("name", builtins(semiring, "semiring"))
def test_semiring_parts_match_graphblas(name):
    ours, theirs = getattr(semiring, name), gb_op(gb.semiring, name)
    assert ours.monoid.name == theirs.monoid.name
    # python-graphblas names its positional ops "ss.firsti", ...
    assert ours.binaryop.name == theirs.binaryop.name.removeprefix("ss.")


def _dense_mxv(sr, a_dense, a_mask, v_dense, v_mask):
    """y = A (+).(x) v row by row with the Semiring's own parts; None where y(i) is empty."""
    out = []
    for i in range(a_dense.shape[0]):
        ks = np.flatnonzero(a_mask[i] & v_mask)
        if len(ks) == 0:
            out.append(None)
            continue
        rows = np.full(len(ks), i)
        # A(i, k) is the first operand at (i, k); v(k) the second at (k, 0).
        prod = sr.binaryop.evaluate(a_dense[i, ks], v_dense[ks], rows, ks, ks, np.zeros_like(ks))
        out.append((sr.monoid.reduce(prod), prod))
    return out


@pytest.mark.parametrize("name", builtins(semiring, "semiring"))
def test_semiring_mxv_matches_graphblas(name):
    rng = seeded(name)
    ours, theirs = getattr(semiring, name), gb_op(gb.semiring, name)
    nrows, ncols = 6, 5
    a_mask = rng.random((nrows, ncols)) < 0.6
    v_mask = rng.random(ncols) < 0.8
    compared = 0
    # python-graphblas's integer floordiv (a numba function) fails on a zero divisor
    nonzero = "floordiv" in name
    for dtype in ["BOOL", "INT64", "UINT8", "FP64"]:
        a_dense = random_values(rng, dtype, nrows * ncols, nonzero=nonzero).reshape(nrows, ncols)
        v_dense = random_values(rng, dtype, ncols, nonzero=nonzero)
        rows, cols = np.nonzero(a_mask)
        A = gb.Matrix.from_coo(rows, cols, a_dense[rows, cols], nrows=nrows, ncols=ncols,
                               dtype=dtype)
        (idx,) = np.nonzero(v_mask)
        v = gb.Vector.from_coo(idx, v_dense[idx], size=ncols, dtype=dtype)
        try:
            expected = A.mxv(v, theirs).new()
        except KeyError:
            continue
        compared += 1
        out_type = ours.output_type(dtype, dtype)
        if ours.monoid.name in LOGICAL_MONOIDS:
            assert out_type == BOOL
        elif not name.startswith(BITWISE_MONOIDS):
            assert out_type == lookup_dtype(expected.dtype.np_type), dtype
        want = dict(zip(*expected.to_coo(), strict=True))
        got = _dense_mxv(ours, a_dense, a_mask, v_dense, v_mask)
        assert {i for i, y in enumerate(got) if y is not None} == set(want), dtype
        for i, (value, products) in ((i, y) for i, y in enumerate(got) if y is not None):
            assert value.dtype == out_type.np_type
            if ours.monoid.is_any:
                # any value of the products will do; nan counts as itself (truediv's 0 / 0)
                assert any(np.array_equal(value, p, equal_nan=True) for p in products)
                assert any(np.array_equal(want[i], p, equal_nan=True)
                           for p in products.astype(out_type.np_type))
            else:
                expected_value = np.array([want[i]]).astype(out_type.np_type)
                assert_same(np.array([value]), expected_value, out_type.name)
    assert compared, f"python-graphblas accepts none of the dtypes for {name}"


def test_pair_computes_in_int64_unless_typed():
    # python-graphblas runs an untyped pair as pair[INT64]; plus_pair[BOOL] also counts.
    x = np.ones(3, bool)
    assert binary.pair.evaluate(x, x).dtype == np.int64
    assert binary.pair[bool].evaluate(x, x).dtype == np.bool_
    assert semiring.plus_pair.output_type(BOOL, BOOL) == INT64
    assert semiring.plus_pair[bool].output_type(BOOL, BOOL) == INT64
    assert semiring.any_pair[bool].output_type(BOOL, BOOL) == BOOL
    prod = semiring.plus_pair[bool].binaryop.evaluate(x, x)
    assert semiring.plus_pair[bool].monoid.reduce(prod) == 3
    theirs = gb.semiring.plus_pair[bool]
    assert lookup_dtype(theirs.return_type.np_type) == INT64


@pytest.mark.parametrize(
    ("name", "position"),
    [("firsti", 0), ("firstj", 1), ("secondi", 2), ("secondj", 3)],
)
@pytest.mark.parametrize("suffix", ["", "1"])
def test_positional_ops_return_indices(name, position, suffix):
    name += suffix
    rng = seeded(name)
    x, y = rng.random(5), rng.random(5)
    indices = [rng.integers(0, 100, 5) for _ in range(4)]  # ia, ja, ib, jb
    got = getattr(binary, name).evaluate(x, y, *indices)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, indices[position] + int(suffix or 0))
    # On vectors python-graphblas puts both operands at (index, 0).
    index = np.arange(5)
    theirs = gb_vector(x, "FP64").ewise_mult(gb_vector(y, "FP64"), gb_op(gb.binary, name))
    zeros = np.zeros(5, dtype=np.int64)
    ours = getattr(binary, name).evaluate(x, y, index, zeros, index, zeros)
    np.testing.assert_array_equal(ours, theirs.new().to_coo()[1])
