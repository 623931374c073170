"""The op and type namespaces, exceptions and error wording against python-graphblas.

Each test asks python-graphblas the same question and compares: names and lookups of
``dtypes``, the ``op`` namespace and ``op.from_string``, typed ops and monoid identities, the
builtin exception each error also is, the words of op errors, ``select.value(A < 3)`` and its
kin, op calls on numbers and chained ``binary.plus(u | v | w)``, and the import paths.
"""

import importlib
import itertools
import pickle

import graphblas as gb
import numpy as np
import pytest

import gblas2d
from gblas2d import Matrix, Vector, binary, dtypes, monoid, op, select, semiring, unary
from gblas2d.exceptions import IndexOutOfBound, InvalidValue

TYPE_NAMES = ["BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64",
              "FP32", "FP64"]


def coo(obj):
    """(indices..., values) of a gblas2d or python-graphblas Vector or Matrix, as lists."""
    return [np.asarray(a).tolist() for a in obj.to_coo()]


# ---- dtypes ---------------------------------------------------------------------------------

def test_dtype_names_and_c_types_match_graphblas():
    assert dtypes._supports_complex is False
    for name in TYPE_NAMES:
        ours, theirs = getattr(dtypes, name), getattr(gb.dtypes, name)
        assert (ours.name, ours.c_type, ours.gb_name, ours.np_type) == \
            (theirs.name, theirs.c_type, theirs.gb_name, theirs.np_type)


@pytest.mark.parametrize("key", [
    *TYPE_NAMES, *(n.lower() for n in TYPE_NAMES), "int8_t", "uint64_t", "_Bool", "double",
    "float", "GrB_INT32", bool, int, float, np.int16, np.dtype("uint32"), np.float32,
])
def test_lookup_dtype_matches_graphblas(key):
    assert dtypes.lookup_dtype(key).name == gb.dtypes.lookup_dtype(key).name


def test_lookup_dtype_refuses_none_as_graphblas():
    for lookup in (dtypes.lookup_dtype, gb.dtypes.lookup_dtype):
        with pytest.raises(TypeError, match="Bad dtype"):
            lookup(None)


def test_unify_matches_graphblas_with_and_without_scalars():
    flags = [{}, {"is_left_scalar": True}, {"is_right_scalar": True}]
    for a, b, kw in itertools.product(TYPE_NAMES, TYPE_NAMES, flags):
        ours = dtypes.unify(getattr(dtypes, a), getattr(dtypes, b), **kw)
        theirs = gb.dtypes.unify(getattr(gb.dtypes, a), getattr(gb.dtypes, b), **kw)
        assert ours.name == theirs.name, (a, b, kw)


def test_dtypes_sort_and_compare_as_graphblas():
    ours = [t.name for t in sorted(getattr(dtypes, n) for n in TYPE_NAMES)]
    theirs = [t.name for t in sorted(getattr(gb.dtypes, n) for n in TYPE_NAMES)]
    assert ours == theirs
    assert dtypes.BOOL < "FP32"
    with pytest.raises(TypeError):
        dtypes.BOOL < 5  # noqa: B015 (the comparison raises)
    with pytest.raises(TypeError):
        dtypes.BOOL == object()  # noqa: B015


# ---- the op namespace -----------------------------------------------------------------------

def _kind(obj):
    """``("binary", "plus")`` of a gblas2d or python-graphblas op."""
    kind, name = repr(obj).split("[")[0].split(".", 1)
    return kind, name.removeprefix("ss.")


def test_op_attributes_are_graphblas_ops():
    theirs = {n for n in dir(gb.op) if not n.startswith("_")} - {"numpy", "ss", "from_string"}
    shared = theirs & set(dir(op))
    # every op of the four kinds gblas2d has (python-graphblas's complex and numba ones aside)
    assert len(shared) > 300
    for name in shared:
        # the positional ops are python-graphblas's op.ss ones (op.firsti is deprecated there)
        theirs_op = getattr(gb.op.ss, name, None) or getattr(gb.op, name)
        assert _kind(getattr(op, name)) == _kind(theirs_op), name
    for name in ("tril", "rowindex", "valuegt"):  # index-unary and select ops are not in op
        with pytest.raises(AttributeError):
            getattr(gb.op, name)
        with pytest.raises(AttributeError):
            getattr(op, name)


# "index<=" differs: gblas2d's indexunary.from_string takes the select abbreviations too, so
# op.from_string finds indexunary.rowle before select.rowle.
@pytest.mark.parametrize("string", ["-", "+", "abs", "abs[FP32]", "min.plus", "min_plus", "*",
                                    "tril", "rowindex", "+[int]", "lor", "eq", "min.+[FP64]"])
def test_op_from_string_matches_graphblas(string):
    ours, theirs = op.from_string(string), gb.op.from_string(string)
    assert _kind(ours) == _kind(theirs)
    assert getattr(ours.type, "name", None) == getattr(getattr(theirs, "type", None), "name", None)


def test_op_from_string_errors_as_graphblas():
    for namespace in (op, gb.op):
        with pytest.raises(ValueError, match="Unknown op string"):
            namespace.from_string("min.plus.times")


def test_registered_ops_join_op():
    name = "namespaces_absdiff"
    binary.register_new(name, lambda x, y: np.abs(x - y))
    assert getattr(op, name) is getattr(binary, name) is getattr(gblas2d.binary, name)
    assert name in dir(op)


@pytest.mark.parametrize(("kind", "string", "message"), [
    ("binary", "plus[int", "does not end with"), ("binary", "plus[int][float]", "too many"),
    ("binary", "plus][int]", "not matched by"), ("binary", "plus[int]extra", "does not end with"),
    ("binary", "", "Unknown binary string"), ("semiring", "badname", "Bad semiring string"),
    ("semiring", "min.plus.times", "Bad semiring string"),
])
def test_from_string_errors_as_graphblas(kind, string, message):
    for module in (getattr(gblas2d, kind), getattr(gb, kind)):
        with pytest.raises(ValueError, match=message):
            module.from_string(string)


# ---- typed ops and identities ---------------------------------------------------------------

def test_typed_ops_are_one_object():
    assert unary.abs[float] is unary.abs["FP64"] is unary.from_string("abs[float]")
    assert binary.from_string("-[int]") is binary.minus[int]
    assert monoid.from_string("*[FP64]") is monoid.times["FP64"]
    assert binary.plus[int].monoid is monoid.plus[int]
    assert binary.plus.monoid is monoid.plus
    assert monoid.plus[int].binaryop is binary.plus[int]
    assert binary.minus[int].monoid is None
    assert semiring.plus_times[int].monoid is monoid.plus[int]


@pytest.mark.parametrize("name", ["plus", "times", "min", "max", "lor", "land", "lxor", "lxnor",
                                  "eq", "bor", "band", "bxor", "bxnor", "any"])
def test_typed_monoid_identity_is_the_graphblas_value(name):
    theirs = getattr(gb.monoid, name)
    for t in TYPE_NAMES:
        if t not in {d.name for d in theirs.types}:
            continue
        ours = getattr(monoid, name)[t].identity
        expected = theirs[t].identity
        assert ours == expected and type(ours.real) is type(expected.real), (name, t)
        assert repr(ours) == repr(expected), (name, t)
        # a plain value again once pickled, as python-graphblas's is
        assert type(pickle.loads(pickle.dumps(ours))) is type(expected)


def test_identity_called_with_a_type_is_the_engine_form():
    # Untyped and typed monoids alike: a numpy scalar of the type.
    assert monoid.min.identity("INT8") == np.int8(127)
    assert monoid.min.identity("INT8").dtype == np.int8
    assert monoid.min["UINT8"].identity("UINT8").dtype == np.uint8
    assert monoid.min.identity_of("FP32") == np.float32(np.inf)
    assert semiring.plus_min["INT64"].binaryop.monoid.identity == np.iinfo(np.int64).max
    with pytest.raises(TypeError):
        monoid.plus.identity + 1  # untyped: a function of the type, not a value


# ---- exceptions and wording -----------------------------------------------------------------

def test_duplicate_indices_are_a_value_error_as_in_graphblas():
    assert issubclass(InvalidValue, ValueError) and issubclass(IndexOutOfBound, IndexError)
    for module in (gblas2d, gb):
        with pytest.raises(ValueError, match="Duplicate indices found"):
            module.Vector.from_coo([0, 0], [1, 2])
        with pytest.raises(ValueError, match="Duplicate indices found"):
            module.Matrix.from_coo([0, 0], [1, 1], [1, 2])


@pytest.mark.parametrize(("call", "message"), [
    (lambda m, v: v.ewise_mult(v, m.semiring.min_plus), "Expected type: BinaryOp, Monoid"),
    (lambda m, v: v.ewise_add(v, m.semiring.min_plus), "Expected type: BinaryOp, Monoid"),
    (lambda m, v: v.reduce(m.binary.minus), "Expected type: Monoid"),
    (lambda m, v: v.apply(m.binary.plus, left=1, right=1), "Cannot provide both"),
    (lambda m, v: v.apply(m.semiring.min_plus), "apply only accepts UnaryOp with no scalars"),
    (lambda m, v: v.apply(m.indexunary.valueeq, left=1), "left"),
    (lambda m, v: m.unary.exp(v, 1), "__call__"),
    (lambda m, v: m.binary.plus(v), "Bad type when calling binary.plus"),
    (lambda m, v: m.binary.plus(v, v), "Bad type for keyword argument `right="),
])
def test_op_errors_have_the_graphblas_words(call, message):
    for module in (gblas2d, gb):
        v = module.Vector.from_coo([0, 2], [1, 2], size=3)
        with pytest.raises(TypeError, match=message):
            call(module, v)


def test_builtin_functions_stand_for_ops():
    u, w = ([0, 1, 2], [1, 2, 3]), ([0, 1, 2], [3, 2, 1])
    ours = Vector.from_coo(*u).ewise_mult(Vector.from_coo(*w), min).new()
    theirs = gb.Vector.from_coo(*u).ewise_mult(gb.Vector.from_coo(*w), min).new()
    assert coo(ours) == coo(theirs)
    assert coo(Vector.from_coo(*u).apply(abs).new()) == coo(gb.Vector.from_coo(*u).apply(abs))


# ---- select by expression -------------------------------------------------------------------

@pytest.mark.parametrize(("func", "expr"), [
    ("value", lambda A: A < 3), ("value", lambda A: 3 < A), ("value", lambda A: A == 5),
    ("value", lambda A: A != 1), ("value", lambda A: A >= 3), ("row", lambda A: A <= 1),
    ("row", lambda A: A < 2), ("row", lambda A: A > 0), ("row", lambda A: A >= 1),
    ("column", lambda A: A < 2), ("column", lambda A: A >= 1),
])
def test_select_by_expression_matches_graphblas(func, expr):
    rows, cols, vals = [0, 1, 2, 2, 0], [0, 1, 2, 0, 2], [1, 5, 3, 2, 4]
    ours = getattr(select, func)(expr(Matrix.from_coo(rows, cols, vals))).new()
    theirs = getattr(gb.select, func)(expr(gb.Matrix.from_coo(rows, cols, vals))).new()
    assert coo(ours) == coo(theirs)


def test_select_index_matches_graphblas():
    for expr in (lambda v: v < 2, lambda v: v >= 2, lambda v: 1 < v):
        ours = select.index(expr(Vector.from_coo([0, 1, 2, 3], [4, 3, 2, 1]))).new()
        theirs = gb.select.index(expr(gb.Vector.from_coo([0, 1, 2, 3], [4, 3, 2, 1]))).new()
        assert coo(ours) == coo(theirs)


def test_select_by_expression_refuses_what_is_no_comparison():
    A = Matrix.from_coo([0], [0], [1])
    with pytest.raises(TypeError, match="Typical usage: select.value"):
        select.value(A)
    with pytest.raises(ValueError, match="roweq"):
        select.row(A == 0)


# ---- op calls on numbers and chained pairs --------------------------------------------------

@pytest.mark.parametrize(("name", "args"), [
    ("unary.cos", (0,)), ("unary.cos", (1,)), ("unary.abs", (-3,)), ("unary.sqrt", (2,)),
    ("binary.plus", (5, 2)), ("binary.minus", (1, 2.5)), ("binary.truediv", (7, 2)),
    ("monoid.max", (3, 8)), ("binary.cdiv", (7, -2)),
])
def test_ops_on_numbers_give_the_graphblas_value(name, args):
    kind, attr = name.split(".")
    ours = getattr(getattr(gblas2d, kind), attr)(*args)
    theirs = getattr(getattr(gb, kind), attr)(*args).new()
    assert ours == theirs.value
    assert dtypes.lookup_dtype(ours.dtype).name == theirs.dtype.name


@pytest.mark.parametrize("call", [
    lambda m, s: m.binary.plus(s, 2), lambda m, s: m.binary.plus(2, s),
    lambda m, s: m.binary.minus(2, s), lambda m, s: m.unary.exp(s),
    lambda m, s: m.op.ainv(s), lambda m, s: m.select.valuegt(s, 3),
    lambda m, s: m.select.valuegt(s, 7), lambda m, s: m.binary.plus(m.Matrix.from_coo(
        [0], [1], [s.value]).T, 1),
])
def test_op_calls_on_scalars_and_transposes_match_graphblas(call):
    ours = call(gblas2d, gblas2d.Scalar.from_value(5)).new()
    theirs = call(gb, gb.Scalar.from_value(5)).new()
    if isinstance(theirs, gb.Scalar):
        assert (ours.value, ours.dtype.name) == (theirs.value, theirs.dtype.name)
    else:
        assert coo(ours) == coo(theirs)


def test_op_calls_refuse_what_they_cannot_take():
    with pytest.raises(TypeError):
        unary.sin(object())
    with pytest.raises(TypeError):
        binary.plus(object(), object())
    with pytest.raises(TypeError, match="Bad types when calling semiring.plus_times"):
        semiring.plus_times(1, 2)


@pytest.mark.parametrize(("expr", "kwargs"), [
    (lambda o, u, v, w: o.binary.plus(u | v | w), {}),
    (lambda o, u, v, w: o.binary.plus(u | (v | w)), {}),
    (lambda o, u, v, w: o.monoid.min(u | v | w), {}),
    (lambda o, u, v, w: o.monoid.max(u & v & w), {}),
    (lambda o, u, v, w: o.monoid.min(u & v & u), {}),
    (lambda o, u, v, w: o.binary.plus(u | v | w, left_default=10, right_default=10), {}),
    (lambda o, u, v, w: o.binary.minus(u | (v | w), left_default=10, right_default=20), {}),
])
def test_chained_pairs_match_graphblas(expr, kwargs):
    data = [([0, 1], [1, 2]), ([1, 2], [1, 2]), ([2, 0], [1, 2])]
    ours = expr(gblas2d, *(Vector.from_coo(i, x, size=3) for i, x in data)).new()
    theirs = expr(gb, *(gb.Vector.from_coo(i, x, size=3) for i, x in data)).new()
    assert coo(ours) == coo(theirs)
    assert ours.dtype.name == theirs.dtype.name


def test_pair_errors_have_the_graphblas_words():
    for module in (gblas2d, gb):
        v = module.Vector.from_coo([0, 2], [2.0, 5.0])
        for left, right in [(v, 1), (1, v)]:
            with pytest.raises(TypeError, match="Bad type for argument"):
                left | right  # noqa: B018 (the expression raises)
            with pytest.raises(TypeError, match="Bad type for argument"):
                left & right  # noqa: B018
        with pytest.raises(TypeError, match="only valid for BOOL"):
            (v | v).new()
        with pytest.raises(TypeError, match="Bad dtype"):
            module.unary.exp(v | v)
        with pytest.raises(TypeError, match="not supported for FP64"):
            v |= v
        with pytest.raises(TypeError, match="ewise_union"):
            module.binary.plus(v & v, left_default=1, right_default=2)


# ---- import paths ---------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "name"), [
    ("dtypes", "INT64"), ("binary", "plus"), ("unary", "abs"), ("monoid", "min"),
    ("semiring", "min_plus"), ("indexunary", "rowindex"), ("select", "tril"), ("op", "plus"),
])
def test_modules_import_at_the_graphblas_paths(path, name):
    ours = importlib.import_module(f"gblas2d.{path}")
    theirs = importlib.import_module(f"graphblas.{path}")
    assert getattr(gblas2d, path) is ours
    assert getattr(ours, name) is getattr(getattr(gblas2d.semirings, path), name)
    assert repr(getattr(ours, name)) == repr(getattr(theirs, name))
    # dir shows the ops and functions, not the modules' own imports
    assert {"np", "Operator", "BinaryOp"}.isdisjoint(dir(ours))
