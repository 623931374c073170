"""Op strings, typed ops and reprs against python-graphblas; user-defined ops; pickling."""

import functools
import math
import pickle

import graphblas as gb
import numpy as np
import pytest
from gblas2d.semirings import (
    Monoid,
    binary,
    find,
    from_string,
    indexunary,
    monoid,
    resolve,
    select,
    semiring,
    unary,
)
from gblas2d.semirings.dtypes import BOOL, INT64
from hypothesis import given, settings
from hypothesis import strategies as st

STRINGS = [
    ("unary", "abs"), ("unary", "abs[int]"), ("unary", "-"), ("unary", "~"),
    ("unary", "SQRT[fp32]"),
    ("binary", "plus"), ("binary", "+"), ("binary", "+[int]"), ("binary", "-"), ("binary", "/"),
    ("binary", "//"), ("binary", "**"), ("binary", "<="), ("binary", "!="), ("binary", "&"),
    ("binary", "|"), ("binary", "^"), ("binary", "cdiv[uint8]"), ("binary", " Min[FP64] "),
    ("monoid", "min"), ("monoid", "+"), ("monoid", "*[fp32]"), ("monoid", "|"),
    ("monoid", "any[bool]"),
    ("semiring", "min_plus"), ("semiring", "min.plus"), ("semiring", "min.+"),
    ("semiring", "min_plus[INT64]"), ("semiring", "min.plus[int64]"), ("semiring", "+.*"),
    ("semiring", "any.pair[bool]"), ("semiring", "lor.land"), ("semiring", "min.first"),
    ("indexunary", "rowindex"), ("indexunary", "index"), ("indexunary", "tril"),
    ("indexunary", "diagindex[int64]"), ("indexunary", "valuene"),
    ("select", "tril"), ("select", "triu"), ("select", "diag"), ("select", "offdiag"),
    ("select", "<"), ("select", "<="), ("select", ">"), ("select", ">="), ("select", "=="),
    ("select", "!="), ("select", "index<="), ("select", "index>"), ("select", "row<="),
    ("select", "row>"), ("select", "col<="), ("select", "col>"), ("select", "valuegt"),
]


@pytest.mark.parametrize(("kind", "string"), STRINGS)
def test_from_string_matches_graphblas(kind, string):
    ours = from_string(kind, string)
    theirs = getattr(gb, kind).from_string(string)
    assert repr(ours) == repr(theirs)


def test_from_string_returns_the_builtin_objects():
    assert semiring.from_string("min.plus") is semiring.min_plus
    assert semiring.from_string("min_plus") is semiring.min_plus
    assert binary.from_string("+") is binary.plus
    assert select.from_string("index<=") is select.rowle
    assert indexunary.from_string("index") is indexunary.rowindex
    # python-graphblas hands back its select op here; the index-unary op is the one asked for.
    assert indexunary.from_string("index<=") is indexunary.rowle
    assert indexunary.from_string("<") is indexunary.valuelt
    # A pair with no builtin name is an anonymous semiring, as in python-graphblas.
    anonymous = semiring.from_string("max.bor")
    assert (anonymous.monoid, anonymous.binaryop) == (monoid.max, binary.bor)
    assert not hasattr(semiring, "max_bor")
    assert semiring.from_string("max.minus") is semiring.max_minus


@pytest.mark.parametrize(
    ("kind", "string", "message"),
    [
        ("semiring", "foo.bar", "Unknown semiring string: 'foo.bar'"),
        ("semiring", "foo", "Bad semiring string: 'foo'"),
        ("semiring", "min.plus.times", "Bad semiring string"),
        ("binary", "nope", "Unknown binary string: 'nope'"),
        ("monoid", "minus", "Unknown monoid string: 'minus'"),
        ("unary", "register_new", "Unknown unary string"),
        ("select", "rowindex", "Unknown select string"),
        ("binary", "plus[int64", "Bad binary string"),
        ("binary", "plus[int64]]", "Unknown dtype: 'int64]'"),
        ("binary", "plus[int128]", "int128"),
    ],
)
def test_unknown_strings_raise_value_error(kind, string, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace(".", r"\.")):
        from_string(kind, string)


def test_find():
    assert find("monoid", "min") is monoid.min
    assert find("select", "tril") is select.tril
    assert find("indexunary", "tril") is indexunary.tril
    with pytest.raises(ValueError, match="Unknown binary: 'min_plus'"):
        find("binary", "min_plus")
    with pytest.raises(ValueError, match="Unknown op kind"):
        find("aggregator", "sum")


def test_typed_access_and_reprs_match_graphblas():
    ours, theirs = semiring.any_pair[bool], gb.semiring.any_pair[bool]
    assert ours.type == BOOL
    assert ours.binaryop.type == BOOL and ours.monoid.type == BOOL
    for ours_op, theirs_op in [
        (ours, theirs), (ours.binaryop, theirs.binaryop), (ours.monoid, theirs.monoid),
        (semiring.min_plus, gb.semiring.min_plus), (monoid.plus[int], gb.monoid.plus[int]),
        (binary.plus["FP64"], gb.binary.plus["FP64"]), (unary.abs, gb.unary.abs),
        (select.tril, gb.select.tril), (indexunary.rowindex, gb.indexunary.rowindex),
        (semiring.min_plus[np.int64], gb.semiring.min_plus[np.int64]),
    ]:
        assert repr(ours_op) == repr(theirs_op)
    # Typing a semiring types its monoid with the multiply's output type.
    assert repr(semiring.min_firsti["FP64"].monoid) == "monoid.min[INT64]"


def test_resolve():
    assert resolve("semiring", semiring.min_plus) is semiring.min_plus
    assert resolve("semiring", "min.plus[int64]").type == INT64
    assert resolve("monoid", binary.plus) is monoid.plus
    assert repr(resolve("monoid", binary.plus[int])) == "monoid.plus[INT64]"
    assert resolve("binary", monoid.min) is binary.min
    assert resolve("select", "index<=") is select.rowle
    assert resolve("select", indexunary.rowindex) is indexunary.rowindex
    with pytest.raises(TypeError, match="binary.minus has no monoid"):
        resolve("monoid", binary.minus)
    with pytest.raises(TypeError, match="got binary.plus"):
        resolve("semiring", binary.plus)
    with pytest.raises(TypeError, match=r"got 5 \(int\)"):
        resolve("unary", 5)
    with pytest.raises(ValueError, match="Unknown monoid string: 'minus'"):
        resolve("monoid", "minus")


def test_register_new_adds_to_the_module():
    op = unary.register_new("udf_plus_one", lambda x: x + 1)
    assert unary.udf_plus_one is op
    assert find("unary", "udf_plus_one") is op and from_string("unary", "udf_plus_one") is op
    np.testing.assert_array_equal(op.evaluate(np.array([1, 2], dtype=np.int8)), [2, 3])
    assert op.output_type("INT8").name == "INT8"
    with pytest.raises(AttributeError, match="unary.udf_plus_one is already defined"):
        unary.register_new("udf_plus_one", lambda x: x + 2)
    with pytest.raises(AttributeError, match="unary.abs is already defined"):
        unary.register_new("abs", np.abs)
    with pytest.raises(ValueError, match="Bad unary name"):
        unary.register_new("udf plus", np.abs)


def test_register_anonymous_leaves_the_module_alone():
    op = binary.register_anonymous(lambda x, y: x - 2 * y, name="udf_anon")
    assert not hasattr(binary, "udf_anon")
    np.testing.assert_array_equal(op.evaluate(np.array([5.0]), np.array([1.0])), [3.0])
    assert binary.register_anonymous(np.hypot).name == "hypot"


def test_index_aware_user_op():
    # x scaled by the row of the first operand: a positional user op.
    op = binary.register_new(
        "udf_row_scaled", lambda x, y, ia, ja, ib, jb: x * (ia + 1), index_aware=True,
        result=lambda t: t,
    )
    x, y = np.array([1.5, 2.0, 3.0]), np.ones(3)
    rows, cols = np.array([0, 1, 2]), np.array([4, 4, 4])
    np.testing.assert_array_equal(op.evaluate(x, y, rows, cols, cols, 0 * cols), [1.5, 4.0, 9.0])
    assert op.output_type("FP64", "FP64").name == "FP64"
    sr = semiring.register_anonymous(monoid.plus, op)
    prod = sr.binaryop.evaluate(x, y, rows, cols, cols, 0 * cols)
    assert sr.monoid.reduce(prod) == 14.5


def test_user_indexunary_and_select_ops():
    iop = indexunary.register_new("udf_row_mod", lambda x, row, col, thunk: row % thunk)
    assert iop.evaluate(np.ones(4), np.arange(4), np.zeros(4, int), 3).tolist() == [0, 1, 2, 0]
    sop = select.register_new("udf_upper_left", lambda x, row, col, thunk: row + col <= thunk)
    assert sop.kind == "select" and select.udf_upper_left is sop
    keep = sop.evaluate(np.ones(3), np.array([0, 1, 2]), np.array([0, 1, 2]), 2)
    assert keep.dtype == np.bool_ and keep.tolist() == [True, True, False]


# gcd has no reduceat here, so this monoid folds by pairwise halving.
GCD = monoid.register_new("udf_gcd", binary.register_new("udf_gcd", np.gcd), 0)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=20), min_size=1,
                max_size=8))
def test_user_monoid_folds_pairwise(segments):
    assert GCD.ufunc is None
    values = np.array([v for segment in segments for v in segment], dtype=np.int64)
    starts = np.cumsum([0] + [len(segment) for segment in segments[:-1]])
    got = GCD.reduceat(values, starts)
    expected = [functools.reduce(math.gcd, segment) for segment in segments]
    np.testing.assert_array_equal(got, expected)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.integers(0, 255), min_size=1, max_size=20), min_size=1, max_size=8))
def test_builtin_monoid_without_ufunc_folds_pairwise(segments):
    # bxnor has no numpy ufunc either; compare with a left-to-right loop.
    values = np.array([v for segment in segments for v in segment], dtype=np.uint8)
    starts = np.cumsum([0] + [len(segment) for segment in segments[:-1]])
    got = monoid.bxnor.reduceat(values, starts)
    expected = [functools.reduce(lambda a, b: ~(a ^ b) & 0xFF, segment) for segment in segments]
    np.testing.assert_array_equal(got, expected)


def test_user_monoid_links_its_binary_op():
    assert binary.udf_gcd.monoid is GCD
    assert resolve("monoid", "udf_gcd") is GCD
    assert isinstance(monoid.register_anonymous("max", -np.inf), Monoid)


@pytest.mark.parametrize(
    "op",
    [semiring.min_plus, semiring.any_pair[bool], binary.plus[np.float32], monoid.min,
     unary.abs["INT8"], select.tril, indexunary.rowindex, semiring.plus_pair,
     binary.firsti, GCD],
    ids=repr,
)
def test_pickle_round_trips(op):
    loaded = pickle.loads(pickle.dumps(op))
    assert repr(loaded) == repr(op)
    assert type(loaded) is type(op)
    if op.type is None:
        assert loaded is op
