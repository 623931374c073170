"""User functions as python-graphblas users write them (issue 44): a function of scalars is
compiled by numba into an array kernel, a vectorized one is called as it is, and either gives
the op python-graphblas gives for the same function (``to_graphblas``): the same result types
and values. On the engines' objects: tests/engine/test_user_functions.py."""

import math

import graphblas as grb
import numpy as np
import pytest
from gblas2d.semirings import binary, indexunary, monoid, select, semiring, unary
from gblas2d.semirings._udf import UserFunction

TYPES = ["BOOL", "INT8", "INT64", "UINT64", "FP32", "FP64"]


def values(dtype, n=9, seed=0):
    """``n`` values of ``dtype`` from -4 to 40 (their magnitudes where unsigned), mixed."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(-4, 40, n)
    np_type = np.dtype(dtype.lower().replace("fp", "float"))
    if np_type.kind == "u":
        raw = np.abs(raw)
    return (raw % 2 if np_type.kind == "b" else raw).astype(np_type)


def plus_one_if_positive(x):
    return x + 1 if x > 0 else x


def lesser(x, y):
    return x if x < y else y


def test_a_function_of_scalars_is_compiled_and_a_vectorized_one_called_as_it_is():
    seen = []

    def absdiff(x, y):
        seen.append(len(x))
        return np.abs(x - y)

    vectorized, scalar = UserFunction(absdiff), UserFunction(lesser)
    x, y = np.arange(1000.0), np.full(1000, 500.0)
    np.testing.assert_array_equal(vectorized(x, y), np.abs(x - y))
    # the sample of two values, then the whole array at once
    assert seen == [2, 1000]
    np.testing.assert_array_equal(scalar(x, y), np.minimum(x, y))
    assert vectorized.vectorized(np.float64, np.float64)
    assert not scalar.vectorized(np.float64, np.float64)


# made once: python-graphblas compiles an op for every type when it is registered (~1 s)
UNARY = {name: unary.register_anonymous(func, name) for name, func in [
    ("branch", plus_one_if_positive), ("plus_one", lambda x: x + 1),
    ("half", lambda x: x * 0.5), ("sqrt", lambda x: math.sqrt(x) if x > 0 else 0.0)]}
LESSER = binary.register_anonymous(lesser)


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_give_python_graphblas_types_and_values(dtype, name):
    ours = UNARY[name]
    theirs = ours.to_graphblas()
    if dtype not in {t.name for t in theirs.types}:
        with pytest.raises(TypeError):
            ours.evaluate(values(dtype))
        return
    x = values(dtype)
    got = ours.evaluate(x)
    assert ours.output_type(dtype).name == theirs[dtype].return_type.name
    expected = grb.Vector.from_coo(np.arange(len(x)), x, dtype=dtype).apply(theirs[dtype]).new()
    np.testing.assert_array_equal(got, expected.to_coo()[1])


@pytest.mark.parametrize("dtype", TYPES)
def test_binary_op_of_scalars_matches_python_graphblas(dtype):
    ours = LESSER
    theirs = ours.to_graphblas()
    x, y = values(dtype, seed=1), values(dtype, seed=2)
    got = ours.evaluate(x, y)
    idx = np.arange(len(x))
    u = grb.Vector.from_coo(idx, x, dtype=dtype)
    v = grb.Vector.from_coo(idx, y, dtype=dtype)
    expected = u.ewise_mult(v, theirs[dtype]).new().to_coo()[1]
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_index_unary_and_select_ops_of_scalars_match_python_graphblas():
    iop = indexunary.register_anonymous(lambda x, row, col, thunk: x if row + col < thunk
                                        else -x)
    sop = select.register_anonymous(lambda x, row, col, thunk: x > thunk and row != col)
    rows, cols = np.array([0, 1, 2, 3, 3]), np.array([1, 1, 0, 2, 3])
    x = np.array([5.0, -1.0, 7.0, 2.5, 9.0])
    A = grb.Matrix.from_coo(rows, cols, x, nrows=4, ncols=4)
    applied = A.apply(iop.to_graphblas(), 3).new().to_coo()[2]
    np.testing.assert_array_equal(iop.evaluate(x, rows, cols, 3), applied)
    kept = A.select(sop.to_graphblas(), 2.0).new().to_coo()[2]
    np.testing.assert_array_equal(x[sop.evaluate(x, rows, cols, 2.0)], kept)


def test_a_registered_op_keeps_its_name_and_form():
    op = binary.register_new("udf_lesser_of_two", lesser)
    assert binary.udf_lesser_of_two is op and op.func.orig_func is lesser
    assert op.to_graphblas() is op.to_graphblas()
    assert op[np.int32].to_graphblas() is op.to_graphblas()["INT32"]


def test_a_user_monoid_and_semiring_convert_with_their_identity():
    def greater(x, y):
        return x if x > y else y

    def lowest(dtype):
        return np.iinfo(dtype.np_type).min if dtype.np_type.kind in "iu" else -np.inf

    mon = monoid.register_anonymous(binary.register_anonymous(greater), lowest)
    theirs = mon.to_graphblas()
    assert theirs["INT8"].identity == -128 and theirs["FP32"].identity == -np.inf
    sr = semiring.register_anonymous(mon, binary.plus)
    assert sr.to_graphblas().monoid is theirs and sr.to_graphblas().binaryop is grb.binary.plus
    np.testing.assert_array_equal(mon.reduceat(np.array([3, 9, -2, 4]), np.array([0, 2])),
                                  [9, 4])


def test_builtins_convert_to_python_graphblas_ops_of_the_same_name():
    assert binary.plus.to_graphblas() is grb.binary.plus
    assert monoid.min["FP32"].to_graphblas() is grb.monoid.min["FP32"]
    assert semiring.min_secondi.to_graphblas() is grb.semiring.ss.min_secondi
    assert select.tril.to_graphblas() is grb.select.tril
    assert binary.numpy.mod.to_graphblas() is grb.binary.numpy.mod


def test_what_python_graphblas_cannot_take_is_a_type_error():
    with pytest.raises(TypeError, match="python-graphblas has no unary.popcount"):
        unary.popcount.to_graphblas()
    positional = binary.register_anonymous(lambda x, y, ia, ja, ib, jb: ia, index_aware=True,
                                           name="row_of_x")
    with pytest.raises(TypeError, match="index_aware"):
        positional.to_graphblas()


def test_a_function_neither_vectorized_nor_compilable_says_both():
    op = binary.register_anonymous(lambda x, y: {x: y}, name="to_dict")
    with pytest.raises(TypeError, match=r"to_dict is neither a function of arrays \(on arrays "
                                        r"of int64, int64 it raised TypeError: unhashable"):
        op.evaluate(np.array([1, 2, 3]), np.array([4, 5, 6]))
