"""A reduction by a monoid with a terminal value (``lor``'s True, ``land``'s False, ``min``'s
smallest, ``max``'s largest, ``bor``'s all ones, ``band``'s zero, and ``any``) stops at it,
as SuiteSparse's do: a visited set's ``lor`` reads a chunk of its piece, not every entry. The
answers stay python-graphblas's wherever the terminal lies (first, last, nowhere), and the
absent positions of a bitmap are never read.
"""

import graphblas as G
import numpy as np
import pytest

import gblas2d as gb
from gblas2d.local.keys import fold_until
from gblas2d.local.piece import Piece

N = 40_000
# (monoid, dtype, the terminal as a value of the dtype, a value that is not)
CASES = [("lor", "BOOL", True, False), ("land", "BOOL", False, True),
         ("min", "INT32", np.iinfo(np.int32).min, 7), ("max", "INT64", np.iinfo(np.int64).max, 7),
         ("min", "FP64", -np.inf, 2.5), ("max", "FP32", np.inf, -2.5),
         ("bor", "UINT8", 255, 4), ("band", "UINT16", 0, 6)]


def values_with_terminal_at(where, dtype, terminal, other, n):
    vals = np.full(n, other, dtype=G.dtypes.lookup_dtype(dtype).np_type)
    if where == "first":
        vals[0] = terminal
    elif where == "last":
        vals[-1] = terminal
    elif where == "middle":
        vals[n // 2] = terminal
    return vals


@pytest.mark.parametrize("where", ["first", "middle", "last", "nowhere"])
@pytest.mark.parametrize(("name", "dtype", "terminal", "other"), CASES)
def test_vector_reduce_matches_python_graphblas(name, dtype, terminal, other, where):
    idx = np.arange(0, 2 * N, 2)  # half of the positions: a bitmap piece
    vals = values_with_terminal_at(where, dtype, terminal, other, len(idx))
    if where == "nowhere" and dtype.startswith("FP"):
        vals[::3] = np.nan  # fmin and fmax pass over nan: it is no terminal
    ours = gb.Vector.from_coo(idx, vals, dtype=dtype, size=2 * N)
    theirs = G.Vector.from_coo(idx, vals, dtype=dtype, size=2 * N)
    got = ours.reduce(getattr(gb.monoid, name)).new().value
    want = theirs.reduce(getattr(G.monoid, name)).new().value
    assert got == want or (np.isnan(got) and np.isnan(want)), (name, dtype, where, got, want)


@pytest.mark.parametrize("where", ["first", "last", "nowhere"])
@pytest.mark.parametrize(("name", "dtype", "terminal", "other"), CASES[:4])
def test_matrix_reduce_scalar_matches_python_graphblas(name, dtype, terminal, other, where):
    rng = np.random.default_rng(5)
    keys = np.sort(rng.choice(300 * 300, N // 4, replace=False))
    rows, cols = keys // 300, keys % 300
    vals = values_with_terminal_at(where, dtype, terminal, other, len(keys))
    ours = gb.Matrix.from_coo(rows, cols, vals, dtype=dtype, nrows=300, ncols=300)
    theirs = G.Matrix.from_coo(rows, cols, vals, dtype=dtype, nrows=300, ncols=300)
    assert ours.reduce_scalar(getattr(gb.monoid, name)).new().value == \
        theirs.reduce_scalar(getattr(G.monoid, name)).new().value


def test_any_gives_one_of_the_values():
    idx = np.arange(0, 2 * N, 2)
    vals = np.arange(len(idx), dtype=np.int64) + 10
    got = gb.Vector.from_coo(idx, vals, size=2 * N).reduce(gb.monoid.any).new().value
    assert got in set(vals.tolist())


@pytest.mark.serial_only
def test_a_fold_stops_at_the_terminal_and_never_reads_an_absent_position():
    """The work: with True among the first positions, ``lor`` reads one chunk of a million; and
    the absent positions of a littered bitmap, True everywhere, do not make the answer True."""
    n = 1 << 20
    seen = []

    def counting(values):
        seen.append(len(values))
        return gb.monoid.lor.reduce(values)

    present = np.zeros(n, dtype=bool)
    present[::2] = True
    values = ~present  # every entry False, every absent position True
    piece = Piece(n, np.bool_, present=present, values=values)
    assert piece.folded(counting, gb.monoid.lor.stop_of("BOOL")) == np.False_
    # every entry read once (the chunks; the folds of two are running results), and none of
    # the absent positions
    assert sum(k for k in seen if k != 2) == n // 2
    seen.clear()
    values = values.copy()
    values[10] = True  # the entry at position 10
    assert fold_until(counting, gb.monoid.lor.stop_of("BOOL"), values, present) == np.True_
    assert sum(seen) <= 4096
    seen.clear()
    assert fold_until(counting, None, values, present) == np.True_
    assert seen == [n // 2]  # a monoid without a stop folds every entry in one call


def test_only_monoids_with_a_terminal_stop():
    assert gb.monoid.plus.stop_of("INT64") is None
    assert gb.monoid.lor.stop_of("BOOL")(np.True_)
    assert not gb.monoid.min.stop_of("INT8")(np.int8(-127))
    assert gb.monoid.min.stop_of("INT8")(np.int8(-128))
