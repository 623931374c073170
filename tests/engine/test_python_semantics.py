"""Python's operators and protocols on gblas2d objects, against python-graphblas (issue 14).

In place, ``x += 2`` meets x's entries only; ``==`` and the other operators build element-wise
expressions, and ``bool`` of those, of a Vector or of a Matrix raises; a lazy scalar compares
by value; dtypes compare with names and numpy types and survive pickling; ``i in v`` and
``list(v)`` answer instead of looping forever.

Each case runs the same text on python-graphblas objects and on gblas2d copies of them
(``gblas2d.io.from_graphblas``) and compares the outcomes: the value, or the exception's class
name. Every rank runs the same calls, and what is compared is replicated (``to_coo`` gathers,
``in`` broadcasts the owner's answer), so every rank reaches the same verdict.
"""

import pickle

import graphblas as G
import numpy as np
import pytest
from _helpers import assert_same_matrix, assert_same_vector

import gblas2d as gb
from gblas2d.exceptions import IndexOutOfBound
from gblas2d.io import from_graphblas

KINDS = ["vector", "matrix"]


def operands(kind, dtype="INT64", dtype_y=None):
    """python-graphblas x, y (x's kind) and a square m for ``@``; small values, no zeros, the
    entries spread over the ranks' pieces and blocks."""
    dtype_y = dtype_y or dtype
    if kind == "vector":
        x = G.Vector.from_coo([0, 3, 7, 9], [2, 3, 1, 2], dtype=dtype, size=10)
        y = G.Vector.from_coo([1, 3, 8, 9], [1, 2, 3, 1], dtype=dtype_y, size=10)
        m = G.Matrix.from_coo([0, 3, 9, 2], [1, 3, 0, 9], [1, 2, 3, 1], dtype=dtype, nrows=10,
                              ncols=10)
        return x, y, m
    x = G.Matrix.from_coo([0, 1, 3, 5, 4], [1, 4, 3, 0, 5], [2, 3, 1, 2, 3], dtype=dtype,
                          nrows=6, ncols=6)
    y = G.Matrix.from_coo([0, 2, 3, 5, 5], [1, 2, 3, 0, 5], [1, 2, 3, 1, 2], dtype=dtype_y,
                          nrows=6, ncols=6)
    return x, y, y


def on_both(kind, run, dtype="INT64", dtype_y=None):
    """``run(L, namespace)`` on python-graphblas objects and on gblas2d copies of them."""
    theirs = operands(kind, dtype, dtype_y)
    ours = [from_graphblas(obj) for obj in theirs]
    return [run(L, dict(zip("xym", objs, strict=True), L=L, np=np))
            for L, objs in ((gb, ours), (G, theirs))]


def outcome(text, namespace):
    """What evaluating ``text`` gives: its value, or the name of the exception it raises."""
    try:
        return eval(text, namespace)
    except Exception as exc:
        return type(exc).__name__


def assert_same(ours, theirs, what):
    if isinstance(ours, gb.Vector):
        assert_same_vector(ours, theirs, what=what)
    else:
        assert_same_matrix(ours, theirs, what=what)


# ---- in place: ``x op= ...`` changes x itself; a scalar meets x's entries only ----
IN_PLACE = ["x += 2", "x -= 2", "x *= 3", "x /= 2", "x //= 2", "x **= 2", "x += y", "x -= y",
            "x *= y", "x /= y", "x //= y", "x **= y", "x @= m", "x += y * 2",
            "x(mask=y.S, accum=L.binary.plus) << 2", "x(mask=y.V, accum=L.binary.plus) << 2",
            "x(mask=y.S, accum=L.binary.plus, replace=True) << 2", "x(mask=y.S) << 2"]
# Assigning a scalar to a Matrix needs a plain mask in gblas2d (docs/api.md).
VECTOR_ONLY = ["x(accum=L.binary.plus) << 2", "x(mask=~y.S, accum=L.binary.plus) << 2",
               "x(accum=L.binary.plus)[[0, 1, 3]] << 2"]


def run_in_place(statement):
    def run(L, namespace):
        x = namespace["x"]
        exec(statement, namespace)
        assert namespace["x"] is x, f"{statement} rebound x to {type(namespace['x']).__name__}"
        return x
    return run


@pytest.mark.parametrize("kind,statement", [
    (kind, statement) for kind in KINDS for statement in IN_PLACE + VECTOR_ONLY
    if kind == "vector" or statement not in VECTOR_ONLY])
def test_in_place(kind, statement):
    ours, theirs = on_both(kind, run_in_place(statement))
    assert_same(ours, theirs, statement)


def test_iadd_scalar_keeps_structure():
    """The report of issue 14: v = {0: 5} of size 3, then ``v += 2``."""
    v = gb.Vector.from_coo([0], [5], size=3)
    v += 2
    assert v.to_coo()[0].tolist() == [0] and v.to_coo()[1].tolist() == [7]


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("statement", ["x |= True", "x |= False", "x &= True", "x &= False",
                                       "x ^= True", "x |= y", "x &= y", "x ^= y"])
def test_in_place_bool(kind, statement):
    ours, theirs = on_both(kind, run_in_place(statement), dtype="BOOL")
    assert_same(ours, theirs, statement)


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("statement", ["x |= y", "x |= 1", "x &= y", "x &= 1", "x ^= y",
                                       "x ^= 1"])
def test_in_place_bool_only(kind, statement):
    """``|=``, ``&=``, ``^=`` are for BOOL: TypeError otherwise, and x is left as it was."""

    def run(L, namespace):
        before = namespace["x"].to_coo()
        result = outcome(f"exec({statement!r})", namespace)
        after = namespace["x"].to_coo()
        return result, all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))

    ours, theirs = on_both(kind, run)
    assert ours == theirs == ("TypeError", True)


# ---- operators: element-wise expressions, never a bool ----
EXPRESSIONS = ["x == y", "x != y", "x < y", "x <= y", "x > y", "x >= y", "x == 2", "x != 2",
               "x < 2", "x <= 2", "x > 2", "x >= 2", "2 == x", "2 < x", "x + y", "x - y",
               "x * y", "x / y", "x // y", "x ** y", "x + 2", "2 + x", "x - 2", "2 - x",
               "x * 2", "x / 2", "2 / x", "x // 2", "x ** 2", "2 ** x", "x == np.int8(2)",
               "x == L.Scalar.from_value(2)", "(x + 1) == y", "x == (y + 1)", "x.T == y",
               "x.T + y", "abs(x - 3)", "-x", "-(x + 1)", "x % 2", "7 % x", "x % y"]


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("kind,text", [
    (kind, text) for kind in KINDS for text in EXPRESSIONS if kind == "matrix" or ".T" not in text])
def test_operator_builds_expression(kind, text):
    def run(L, namespace):
        expr = eval(text, namespace)
        return type(expr).__name__, outcome("bool(e)", {"e": expr}), expr.new()

    (our_type, our_bool, ours), (their_type, their_bool, theirs) = on_both(kind, run)
    assert our_type == their_type and our_bool == their_bool == "TypeError", text
    assert_same(ours, theirs, text)


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ["BOOL", "INT64"])
@pytest.mark.parametrize("text", ["(x | y).new()", "(x & y).new()", "(~x).new()",
                                  "L.monoid.max(x | y).new()", "L.binary.plus(x & y).new()",
                                  "x | 1"])
def test_or_and_invert(kind, dtype, text):
    """``|``, ``&`` and ``~`` compute on BOOL operands only; with an operator, any type."""
    ours, theirs = on_both(kind, lambda L, ns: outcome(text, ns), dtype)
    if isinstance(theirs, str):
        assert ours == theirs, text
    else:
        assert_same(ours, theirs, text)


TRANSPOSE_CASES = ["x.T.apply(L.unary.ainv).new()", "x.T.apply(L.binary.plus, right=1).new()",
                   "x.T.select('tril').new()", "x.T.select(L.select.valuegt, 2).new()",
                   "x.T.reduce_rowwise().new()", "x.T.reduce_columnwise(L.monoid.max).new()",
                   "x.T.reduce_scalar().new().value", "x.T[1, :].new()", "x.T[:, 4].new()",
                   "x.T[4, 1].new().value", "x.isequal(x.T)", "y.T.isequal(y)", "x.isequal(y.T)",
                   "x.T.isequal(x.T.new())", "x.T.isclose(x.T.new())", "x.T.ewise_add(y).new()",
                   "x.T.ewise_mult(y, L.binary.times).new()", "x.T.dup().nvals",
                   "(1, 4) in x.T"]


@pytest.mark.parametrize("text", TRANSPOSE_CASES)
def test_transpose_is_a_full_view(text):
    """``A.T`` answers as the transposed matrix does: reductions and reads go to A along the
    other axis, the other methods run on the transpose."""
    ours, theirs = on_both("matrix", lambda L, ns: outcome(text, ns))
    if isinstance(theirs, (G.Vector, G.Matrix)):
        assert_same(ours, theirs, text)
    else:
        assert ours == theirs, text


CONSTRUCTORS = [
    "L.Matrix.from_scalar(2.5, 2, 3)", "L.Matrix.from_scalar(True, 3, 1)",
    "L.Matrix.from_edgelist([(0, 1), (2, 0), (5, 5)])",
    "L.Matrix.from_edgelist(np.array([[0, 1], [2, 0]]), [3, 4], nrows=4, ncols=4)",
    "L.Matrix.from_dicts({0: {1: 2.0, 2: 3.0}, 5: {0: 1.0}}, nrows=6, ncols=6)",
    "L.Matrix.from_dicts({0: {1: 2}}, order='columnwise', nrows=3, ncols=3)",
    "L.Vector.from_dict({0: 1, 3: 2}, size=5)", "x.to_dicts()", "x.to_dicts('columnwise')",
    "y.to_dicts()", "x.get(0, 1)", "x.get(2, 2, -1)", "x.ndim", "x.T[1, 0].value",
    "[a.tolist() for a in x.to_edgelist()]", "x.to_edgelist(values=False)[1]", "x.wait()",
    "L.Vector.from_pairs([(0, 1.5), (3, 2.0)], size=5)", "L.Vector.from_coo([1], [4]).get(1)",
    "L.Vector.from_coo([1], [4], size=3).get(2, 'none')", "L.Vector(int, 3).ndim",
    "L.Scalar.from_value(1).shape", "L.Scalar.from_value(1).ndim",
]
ELEMENT_WRITES = ["x[0, 0] = 7", "x[0, 1] = 9", "x[5, 5] = True",
                  "x(accum=L.binary.plus)[1, 4] << 10", "x(accum=L.binary.max)[3, 3] << 0",
                  "del x[0, 1]", "del x[2, 2]", "x[6, 0] = 1", "del x[0, 9]"]


@pytest.mark.parametrize("text", CONSTRUCTORS)
def test_constructors_and_conversions(text):
    ours, theirs = on_both("matrix", lambda L, ns: outcome(text, ns))
    if isinstance(theirs, (G.Vector, G.Matrix)):
        assert_same(ours, theirs, text)
    else:
        assert ours == theirs, text


@pytest.mark.parametrize("statement", ELEMENT_WRITES)
def test_matrix_element_writes(statement):
    """``A[i, j] = x``, an accumulated element, ``del A[i, j]``; out of range: IndexError
    (gblas2d's IndexOutOfBound is one) on both."""
    def run(L, namespace):
        result = outcome(f"exec({statement!r})", namespace)
        return ("IndexError" if result in ("IndexError", "IndexOutOfBound") else result), \
            namespace["x"]

    (our_result, ours), (their_result, theirs) = on_both("matrix", run)
    assert our_result == their_result, statement
    assert_same(ours, theirs, statement)


SCALAR_ARITHMETIC = [
    "e + 1", "e - 1", "1 - e", "e * 1", "s - e", "e / 2", "s - t", "t - s", "s < 3", "s > t",
    "b | b", "b & b", "b ^ b", "~b", "~t", "t % 2", "2 ** t", "t // 2", "-t", "abs(s - 5)",
    "(s + 1) * 2", "(s + t) > 4", "0.85 * s", "s.apply(L.unary.ainv)",
    "t.apply(L.binary.plus, right=1)", "s.select('>', 1)", "s.select('>', 5)",
    "s.ewise_add(e, L.binary.plus)", "s.ewise_mult(e, L.binary.plus)",
    "s.ewise_union(e, L.binary.minus, 0, 10)", "s.dup()", "s.dup(dtype='INT64')", "e.dup()",
    "s.isclose(2.0000001)", "e.isclose(None)", "s.shape", "s.ndim",
    "(lambda x: (x << t + 1, x.value))(L.Scalar(int))",
    "(lambda x: (x.update(e), x.value))(s.dup())",
]


@pytest.mark.parametrize("text", SCALAR_ARITHMETIC)
def test_scalar_arithmetic(text):
    """Scalars as one-entry objects: ``+`` a union, ``-`` a union with zero defaults, ``*`` and
    comparisons an intersection; lazy, typed as python-graphblas types them."""
    def run(L, namespace):
        namespace.update(s=L.Scalar.from_value(2.0), t=L.Scalar.from_value(3, dtype="INT64"),
                         e=L.Scalar(float), b=L.Scalar.from_value(True))
        result = outcome(text, namespace)
        if hasattr(result, "new"):
            result = result.new()
        return (result.value, str(result.dtype)) if hasattr(result, "dtype") else result

    ours, theirs = on_both("vector", run)
    assert ours == theirs, text


DTYPE_PAIRS = [("BOOL", "BOOL"), ("INT8", "INT8"), ("UINT8", "UINT8"), ("INT8", "UINT8"),
               ("UINT64", "BOOL"), ("FP32", "INT8"), ("FP64", "FP64")]


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtypes", DTYPE_PAIRS, ids="-".join)
@pytest.mark.parametrize("text", ["x + y", "x - y", "x * y", "x == y", "x / y", "x + 2",
                                  "2 - x", "x < 1.5", "x * True"])
def test_operator_result_type(kind, dtypes, text):
    """``x + y`` is ewise_add and ``x - y`` ewise_union with False defaults: the operands'
    type, not INT64 as with Python int defaults."""
    ours, theirs = on_both(kind, lambda L, namespace: eval(text, namespace).new(), *dtypes)
    assert_same(ours, theirs, f"{text} on {dtypes}")


# ---- lazy scalars compare by value; truth, conversion and hashing as python-graphblas ----
def scalar_names(kind, namespace):
    """``s`` a lazy sum of x's entries, ``t`` its value, ``e`` a stored element (3), ``f`` a
    missing one, and ``S`` the Scalar class."""
    x, L = namespace["x"], namespace["L"]
    if kind == "vector":
        s, t, e, f = x.reduce(), 8, x[3], x[1]
    else:
        s, t, e, f = x.reduce_scalar(), 11, x[1, 4], x[1, 1]
    return dict(namespace, s=s, t=t, e=e, f=f, S=L.Scalar)


SCALAR_CASES = [
    "s == t", "s != t", "s == t - 1", "s == t * 1.0", "type(s == t).__name__", "bool(s)",
    "float(s)", "int(s)", "s.new() == t", "s.new() != t", "e == 3", "e != 3", "bool(e)",
    "int(e)", "float(e)", "f == None", "f == 0", "bool(f)", "S(int) == None", "S(int) != None",
    "bool(S(int))", "S.from_value(0) == None", "bool(S.from_value(0))", "S.from_value(3) == 3.0",
    "S.from_value(3) == S.from_value(3.0)", "S.from_value(3) == 'a'", "S.from_value(3) == [3]",
    "S.from_value(True) == 1", "np.asarray(S.from_value(3)).tolist()",
    "np.asarray(S.from_value(3)).dtype.name", "np.asarray(s).tolist()", "hash(s)",
    "hash(S.from_value(3))", "hash(e)", "bool(x)", "np.asarray(x)", "np.array(x)", "bool(x == y)",
    "bool(x + 1)", "np.asarray(x + 1)", "hash(x) == hash(x)", "len({x, y})", "len(x)",
]


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", SCALAR_CASES)
def test_truth_comparison_and_hash(kind, text):
    ours, theirs = on_both(kind, lambda L, namespace: outcome(text,
                                                              scalar_names(kind, namespace)))
    assert ours == theirs, text


# ---- dtypes: equal to their names and numpy types, the same object after pickling ----
DTYPE_CASES = [
    "D.INT64 == 'INT64'", "D.INT64 == 'int64'", "D.INT64 == np.int64",
    "D.INT64 == np.dtype('int64')", "D.INT64 == int", "D.FP64 == float", "D.BOOL == bool",
    "D.UINT8 == 'uint8'", "D.INT64 != 'FP64'", "D.INT64 == D.INT32", "'INT64' == D.INT64",
    "np.dtype('int64') == D.INT64", "D.INT64 == 'foo'", "D.INT64 == None", "D.INT64 == 3",
    "D.INT64 == np.complex128", "hash(D.INT64) == hash(np.dtype('int64'))", "repr(D.FP32)",
]


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("text", DTYPE_CASES)
def test_dtype_comparison(text):
    assert outcome(text, {"D": gb.dtypes, "np": np}) == outcome(text, {"D": G.dtypes, "np": np})


@pytest.mark.serial_only  # the surface alone: no rank count changes it
@pytest.mark.parametrize("name", ["BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16",
                                  "UINT32", "UINT64", "FP32", "FP64"])
def test_dtype_survives_pickle(name):
    dtype = getattr(gb.dtypes, name)
    back = pickle.loads(pickle.dumps(dtype))
    assert back is dtype and back == name and back == dtype.np_type


def test_scalar_survives_pickle():
    back = pickle.loads(pickle.dumps(gb.Scalar.from_value(3)))
    assert back.dtype is gb.dtypes.INT64 and back.dtype == "INT64" and back == 3


@pytest.mark.serial_only  # a distributed object holds MPI communicators, which do not pickle
@pytest.mark.parametrize("kind", KINDS)
def test_container_survives_pickle(kind):
    x = from_graphblas(operands(kind)[0])
    back = pickle.loads(pickle.dumps(x))
    assert back.dtype is gb.dtypes.INT64 and back.dtype == "INT64"
    assert back.isequal(x, check_dtype=True)
    assert (back + x).new().isequal((x + x).new(), check_dtype=True)


# ---- ``in`` and iteration ----
def positions(kind):
    if kind == "vector":
        return list(range(10))
    return [(i, j) for i in range(6) for j in range(6)]


@pytest.mark.parametrize("kind", KINDS)
def test_in_and_iteration(kind):
    ours, theirs = on_both(kind, lambda L, namespace: (
        [p in namespace["x"] for p in positions(kind)], list(namespace["x"]),
        set(namespace["x"])))
    assert ours == theirs


@pytest.mark.parametrize("kind", KINDS)
def test_in_rejects_what_is_not_one_position(kind):
    bad = ["[0, 1] in x", "slice(None) in x", "1.0 in x", "True in x", "(0,) in x", "'a' in x"]
    if kind == "matrix":
        bad = ["0 in x", "(0, slice(None)) in x", "(0.0, 1) in x", "[0, 1] in x", "(0,) in x"]
    ours, theirs = on_both(kind, lambda L, namespace: [outcome(t, namespace) for t in bad])
    assert ours == theirs == ["TypeError"] * len(bad)


@pytest.mark.parametrize("kind", KINDS)
def test_in_out_of_range(kind):
    """Out of range is IndexOutOfBound, an IndexError as python-graphblas raises; a negative
    position counts from the end, as in python-graphblas."""
    x = from_graphblas(operands(kind)[0])
    for index in ((10, -11) if kind == "vector" else ((6, 0), (0, -7))):
        with pytest.raises(IndexOutOfBound):
            index in x  # noqa: B015
    negative = [-1, -10] if kind == "vector" else [(-1, -1), (0, -6)]
    ours, theirs = on_both(kind, lambda L, namespace: [p in namespace["x"] for p in negative])
    assert ours == theirs


def test_mixing_the_engines_says_which_is_which():
    """A python-graphblas object where a gblas2d one is expected is named as such, not
    "expected a Vector, got Vector" (issue 32)."""
    import graphblas as G

    A = gb.Matrix.from_coo([0], [1], 1.0, nrows=2, ncols=2)
    theirs = G.Vector.from_coo([0], [1.0], size=2)
    for call in (lambda: A.mxv(theirs), lambda: gb.Vector(float, 2) << theirs,
                 lambda: A.ewise_add(G.Matrix(float, 2, 2))):
        with pytest.raises(TypeError, match="a python-graphblas (Vector|Matrix) .*do not mix"):
            call()
    # Python's own types keep their bare names, as python-graphblas writes them
    with pytest.raises(TypeError, match="expected a Vector, got list$"):
        A.mxv([1, 2])


ACCUM_CASES = [  # C's type, T's type, T's values
    ("UINT64", "INT64", [7, 3]), ("UINT64", "FP64", [7.5, -1e30]), ("INT8", "FP64", [300.7, -2.5]),
    ("INT64", "FP64", [1e30, float("nan")]), ("FP32", "INT64", [2**40 + 1, -3]),
    ("BOOL", "INT64", [0, 5])]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("form", ["object", "scalar_region", "scalar_masked"])
@pytest.mark.parametrize("op", ["minus", "plus", "max", "first", "second"])
@pytest.mark.parametrize("c_type,t_type,t_values", ACCUM_CASES)
def test_the_accumulator_takes_the_outputs_type(kind, form, op, c_type, t_type, t_values):
    """As python-graphblas types ``accum`` by C's type alone (``op[C.dtype]``), T is cast to
    C's type as SuiteSparse casts (floats into integers saturate) and accum(C, T) is computed
    in it: a UINT64 C minus 7 wraps, where numpy's promotion would compute in FP64."""
    c_values = {"UINT64": [5, 2**64 - 2], "INT8": [100, -100], "INT64": [5, -5],
                "FP32": [1.5, 2.5], "BOOL": [True, False]}[c_type]
    results = []
    for L in (G, gb):
        if kind == "vector":
            c = L.Vector.from_coo([1, 4], c_values, dtype=c_type, size=6)
            t = L.Vector.from_coo([1, 4], t_values, dtype=t_type, size=6)
        else:
            c = L.Matrix.from_coo([1, 4], [2, 0], c_values, dtype=c_type, nrows=6, ncols=6)
            t = L.Matrix.from_coo([1, 4], [2, 0], t_values, dtype=t_type, nrows=6, ncols=6)
        accum = getattr(L.binary, op)
        if form == "object":
            c(accum=accum) << t
        elif form == "scalar_region":
            where = [1, 4] if kind == "vector" else ([1, 4], [2, 0])
            c(accum=accum)[where] << t_values[0]
        else:
            c(t.S, accum=accum) << t_values[0]
        results.append(c)
    theirs, ours = results
    check = assert_same_vector if kind == "vector" else assert_same_matrix
    check(ours, theirs, what=f"{c_type} {op}= {t_type} ({form})")
