"""``gb.agg`` against python-graphblas: every aggregator python-graphblas has, over a Vector and
a Matrix (row-wise, column-wise, to a scalar, and through the transpose) of each type, with
empty rows and columns, ties, a zero and a negative value among the values; and over an empty
Vector with and without ``allow_empty``. Result types and indices must be equal; values
``allclose`` with rtol 1e-6 and atol 1e-8 (the formulas and intermediate types are
python-graphblas's own, so they differ at most by the rounding of sums added in another
order). A type python-graphblas refuses (KeyError) gblas2d refuses too (DomainMismatch); a
ValueError must be a ValueError in both.

A random test repeats the comparison on random operands (hypothesis seeds, few under MPI).
"""

import os
import warnings

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed, mat_coo, np_type, vec_coo
from hypothesis import given, settings
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d.io import from_graphblas

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"
# python-graphblas 2025.2.0 reads these from agg.ss and warns when they are read from agg
POSITIONAL = ["argmin", "argmax", "first", "last", "first_index", "last_index"]
NAMES = sorted({name for name in gb.agg.__all__ if name not in ("Aggregator", "from_string")}
               | set(POSITIONAL))
DTYPES = ["BOOL", "INT8", "INT32", "INT64", "UINT8", "UINT64", "FP32", "FP64"]
# Under MPI (oversubscribed), one type an aggregator takes: the types refused and the type rules
# are the same at every rank count. FP32 is computed through FP64 and cast back.
CASES = [(name, "UINT8" if name.startswith("bitwise") else "FP32") for name in NAMES] \
    if UNDER_MPI else [(name, dtype) for name in NAMES for dtype in DTYPES]


def aggregator(L, name):
    """``L.agg.<name>``, without the deprecation warning of the positional ones."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return getattr(L.agg, name)


def outcome(run):
    """What ``run()`` gives, comparable across the libraries: (dtype, indices, values) or
    (dtype, value), or the kind of error."""
    try:
        r = run().new()
    except (KeyError, gb.exceptions.DomainMismatch):
        return "refused"
    except ValueError:
        return "ValueError"
    if hasattr(r, "to_coo"):
        idx, values = r.to_coo()
        return str(r.dtype), np.asarray(idx, dtype=np.int64).tolist(), \
            np.asarray(values, dtype=float)
    return str(r.dtype), None if r.value is None else float(r.value)


def outcomes(L, name, v, A, empty):
    a = aggregator(L, name)
    runs = [lambda: v.reduce(a), lambda: A.reduce_rowwise(a), lambda: A.reduce_columnwise(a),
            lambda: A.reduce_scalar(a), lambda: empty.reduce(a),
            lambda: empty.reduce(a, allow_empty=False), lambda: v.reduce(a, allow_empty=False)]
    if not UNDER_MPI:
        # the transpose forwards to reduce_columnwise, at any rank count
        runs.append(lambda: A.T.reduce_rowwise(a))
    return [outcome(run) for run in runs]


def same(ours, theirs):
    """Equal outcomes, values within rtol 1e-6 (nan equal to nan)."""
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, str) or isinstance(b, str):
            ok = a == b
        elif len(a) == 3:
            ok = len(b) == 3 and a[:2] == b[:2] and \
                np.allclose(a[2], b[2], rtol=1e-6, equal_nan=True)
        else:
            ok = a[0] == b[0] and (a[1] == b[1] or None not in (a[1], b[1]) and
                                   np.isclose(a[1], b[1], rtol=1e-6, equal_nan=True))
        if not ok:
            return False
    return True


def compare(name, v, A):
    empty = G.Vector(v.dtype, 3)
    theirs = outcomes(G, name, v, A, empty)
    ours = outcomes(gb, name, from_graphblas(v), from_graphblas(A), from_graphblas(empty))
    if name == "any_value":
        # any one of the values: only the types and where there are results must agree
        theirs, ours = ([r if isinstance(r, str) else repr(r[:2] if len(r) == 3 else
                                                           (r[0], r[1] is None)) for r in rs]
                        for rs in (theirs, ours))
    assert agreed(same(ours, theirs)), (ours, theirs)


def typed(values, dtype):
    """``values`` in ``dtype``: truncated for integers, made positive for unsigned ones."""
    values = np.asarray(values, dtype=float)
    values = np.abs(values) if dtype.startswith("UINT") else values
    return values.astype(np_type(dtype))


@pytest.mark.parametrize(("name", "dtype"), CASES)
def test_aggregators_match_python_graphblas(name, dtype):
    # ties for the max at 0 and 6; a zero (an infinite inverse) at 2
    v = G.Vector.from_coo([0, 2, 3, 5, 6], typed([3, 0, -4, 1, 3], dtype), size=8)
    # row 1 and column 4 empty; row 0 ties for its max, row 3 has one value twice; row 5 has a
    # variance small beside its mean, so FP32 intermediates show (and INT8 sums wrap)
    A = G.Matrix.from_coo([0, 0, 0, 2, 3, 3, 4, 5, 5, 5], [1, 2, 3, 0, 0, 3, 1, 0, 1, 3],
                          typed([1.5, -2.0, 1.5, 0.0, 2, 2, 3, 101, 100, 100], dtype),
                          nrows=7, ncols=5)
    compare(name, v, A)


# Serial: every aggregator on random operands. Under MPI, one operand and the positional
# aggregators, whose matches cross grid rows and columns.
RANDOM_NAMES = POSITIONAL if UNDER_MPI else NAMES


@settings(max_examples=1) if UNDER_MPI else settings()
@given(seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from(["UINT8", "FP32"] if UNDER_MPI else DTYPES),
       shape=st.tuples(st.integers(1, 9), st.integers(1, 9)),
       density=st.sampled_from([0.0, 0.3, 0.7, 1.0]))
def test_aggregators_on_random_operands(seed, dtype, shape, density):
    rng = np.random.default_rng(seed)
    v = G.Vector.from_coo(*vec_coo(rng, shape[0], dtype, density), dtype=dtype, size=shape[0])
    A = G.Matrix.from_coo(*mat_coo(rng, *shape, dtype, density), dtype=dtype, nrows=shape[0],
                          ncols=shape[1])
    for name in RANDOM_NAMES:
        # a cancelling sum of inverses (1/2 - 1/2) is 0 in one order and 1e-17 in another
        if name != "harmonic_mean":
            compare(name, v, A)


@pytest.mark.serial_only
def test_python_graphblas_quirks_are_kept():
    """Where python-graphblas's recipes differ from the textbook, gblas2d computes the same."""
    # a row is counted in the input's type: 200 entries in INT8 count -56, so the mean of 100
    # zeros and 100 ones is 100 / -56 (the mean of the same Vector is 0.5)
    values = np.repeat([0, 1], 100)
    A = G.Matrix.from_coo(np.zeros(200, dtype=int), np.arange(200), values, dtype="INT8")
    assert A.reduce_rowwise(G.agg.mean).new()[0].new() == 100 / -56
    compare("mean", G.Vector.from_coo(np.arange(200), values, dtype="INT8"), A)
    # vars keeps <x> ** 2 in the type of <x>: 100 ** 2 in INT8 is 16
    v = G.Vector.from_coo([0, 1], [50, 50], dtype="INT8")
    assert v.reduce(G.agg.vars).new() == 4992.0
    compare("vars", v, G.Matrix.from_coo([0, 0], [0, 1], [50, 50], dtype="INT8"))


def test_positional_aggregators_warn_as_in_python_graphblas():
    for name in POSITIONAL:
        with pytest.warns(DeprecationWarning, match=f"gb.agg.ss.{name}"):
            found = getattr(gb.agg, name)
        assert found.name == name
        assert name in dir(gb.agg)
    with pytest.raises(AttributeError):
        gb.agg.no_such_aggregator  # noqa: B018


def test_reduce_scalar_refusals_are_raised_at_once():
    A = gb.Matrix.from_coo([0], [0], [1.0])
    for name in ["argmin", "argmax", "first_index", "last_index"]:
        with pytest.raises(ValueError, match=f"Aggregator {name} may not be used"):
            A.reduce_scalar(aggregator(gb, name))
    with pytest.raises(ValueError, match="allow_empty=False not allowed"):
        A.reduce_scalar(gb.agg.mean, allow_empty=False)
    with pytest.raises(gb.exceptions.DomainMismatch, match="bitwise_all does not work with FP64"):
        A.reduce_rowwise(gb.agg.bitwise_all)


def test_from_string():
    def found(L, string):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return L.agg.from_string(string).name
        except ValueError:
            return "ValueError"

    # names are lower-cased first, as python-graphblas's: "L2norm" is not found
    for string in [*NAMES, "+", "*", "&", "|", " MEAN ", "bad_agg"]:
        assert found(gb, string) == found(G, string), string
    assert gb.agg.from_string("|") is gb.agg.any
    with pytest.raises(ValueError, match="Unknown agg string"):
        gb.agg.from_string("bad_agg")
    for string in ["+[int]", "sum[float]", "count[INT16]"]:
        assert repr(gb.agg.from_string(string)) == repr(G.agg.from_string(string)), string


def test_typed_and_called():
    """``agg.max[FP64]`` reduces in that type and gives it; ``agg.sum(A)`` is
    ``A.reduce_scalar(agg.sum)``, ``rowwise=``/``columnwise=`` the reductions along an axis."""
    got = []
    for L in (gb, G):
        A = L.Matrix.from_coo([0, 1, 2, 2], [1, 2, 0, 2], [3, -1, 4, 5])
        v = L.Vector.from_coo([0, 1, 3], [1, 0, 3])
        got.append([
            L.agg.sum(A).new().value, L.agg.sum(A.T).new().value, L.agg.sum(A + A).new().value,
            str(L.agg.max[float](A).new().dtype), L.agg.sum(v).new().value,
            L.agg.sum(A, rowwise=True).new().to_coo()[1].tolist(),
            L.agg.sum(A.T, columnwise=True).new().to_coo()[1].tolist(),
            str(v.dup("INT8").reduce(L.agg.count["INT16"]).new().dtype),
            v.reduce(L.agg.sum[float]).new().value])
        with pytest.raises(ValueError, match="cannot both be True"):
            L.agg.sum(A, rowwise=True, columnwise=True)
        with pytest.raises(ValueError, match="rowwise"):
            L.agg.sum(v, rowwise=True)
    assert got[0] == got[1]


def test_composite_aggregators_made_by_the_user():
    """``Aggregator(name, composite=[...], finalize=..., types=[...])``, python-graphblas's way
    to make an aggregator of others: over a Vector, an empty one, and a Matrix's rows."""
    got = []
    for L in (gb, G):
        silly = L.agg.Aggregator("silly", composite=[L.agg.varp, L.agg.stdp],
                                 finalize=lambda x, y, opts, L=L: L.binary.times(x & y),
                                 types=[L.agg.varp])
        v = L.Vector.from_coo([0, 1, 3, 4], [1, 1, 2, 0], size=5)
        A = L.Matrix.from_coo([0, 1, 1, 2], [0, 0, 2, 1], [1, 2, 5, 3], nrows=4)
        rows = A.reduce_rowwise(silly).new()
        got.append([v.reduce(silly).new().value, L.Vector(int, 5).reduce(silly).new().value,
                    rows.to_coo()[0].tolist(), rows.to_coo()[1].tolist(), str(rows.dtype)])
    assert got[0] == got[1]
    with pytest.raises(TypeError, match="composite"):
        gb.agg.Aggregator("half", composite=[gb.agg.sum])
