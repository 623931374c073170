"""Matrix indexing against python-graphblas: the extract ``A[rows, cols]`` (lists, slices,
arrays, negative positions, repeats, the transpose), and every assign form: ``C(M)[I, J]``,
the sub-mask ``C[I, J](M)``, rows and columns with a Vector mask or sub-mask, scalars,
``accum``, ``replace`` and ``del C[I, J]``; and a Vector's sub-mask form ``w[I](m) << x``.

Operands and indices come from ``default_rng(seed)`` with a hypothesis-drawn seed, so every
rank builds the same ones; assign indices have no repeats (GraphBLAS leaves a repeated assign
position undefined).
"""

import graphblas as G
import numpy as np
import pytest
from _helpers import (
    assert_same_matrix,
    assert_same_vector,
    backend_in_use,
    mask_of,
    rand_mat,
    rand_vec,
)
from hypothesis import given
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d.exceptions import DimensionMismatch, IndexOutOfBound
from gblas2d.local import backends

SEEDS = st.integers(0, 2**32 - 1)
M, N = 9, 11


def index_of(rng, size, *, repeats=True):
    """A random index along an axis: a position (maybe negative), a slice, or a list."""
    kind = rng.integers(0, 4)
    if kind == 0:
        return int(rng.integers(-size, size))
    if kind == 1:
        start, stop = sorted(rng.integers(0, size, 2))
        return slice(int(start), int(stop) + 1, int(rng.choice([1, 2, -1])))
    k = int(rng.integers(1, size + 1))
    picks = rng.integers(0, size, k) if repeats else rng.permutation(size)[:k]
    return [int(p) - (size if rng.random() < 0.2 else 0) for p in picks]


def shape_of(index, size):
    return None if isinstance(index, int) else len(np.arange(size)[index])


@pytest.mark.parametrize("backend", ["suitesparse", "numpy"])
@given(seed=SEEDS)
def test_extract(seed, backend):
    """Each local backend (at one rank, SuiteSparse's extract of the whole block)."""
    rng = np.random.default_rng(seed)
    dtype = str(rng.choice(["INT64", "FP64", "BOOL"]))
    A = rand_mat(rng, M, N, dtype, 0.4)
    rows, cols = index_of(rng, M), index_of(rng, N)
    ours, theirs = A.gb[rows, cols], A.G[rows, cols]
    if isinstance(rows, int) and isinstance(cols, int):
        assert ours.value == theirs.value
        return
    check = assert_same_vector if isinstance(rows, int) or isinstance(cols, int) else \
        assert_same_matrix
    with backend_in_use(backend):
        got = ours.new()
    check(got, theirs.new(), what=f"A[{rows}, {cols}]")
    # A.T[cols, rows] reads A's entries without forming the transpose
    if not (isinstance(rows, int) or isinstance(cols, int)):
        assert_same_matrix(A.gb.T[cols, rows].new(), A.G.T[cols, rows].new())


def value_for(rng, rows, cols, dtype):
    """A scalar, Vector or Matrix that fits the region ``C[rows, cols]`` (a scalar half the
    time)."""
    shape = [s for s in (shape_of(rows, M), shape_of(cols, N)) if s is not None]
    if not shape or rng.random() < 0.4:
        if dtype == "BOOL":
            return None, True
        scalar = int(rng.integers(-3, 4))
        # a float into FP64 is of C's type (SuiteSparse's region assign takes it)
        return None, float(scalar) + 0.5 if dtype == "FP64" and rng.random() < 0.5 else scalar
    if len(shape) == 1:
        return rand_vec(rng, shape[0], dtype, 0.6), None
    return rand_mat(rng, shape[0], shape[1], dtype, 0.5), None


@pytest.mark.parametrize("backend", ["suitesparse", "numpy"])
@pytest.mark.parametrize("form", ["assign", "subassign"])
@given(seed=SEEDS)
def test_assign(form, seed, backend):
    """Each local backend (SuiteSparse's assign of a scalar to a region, numpy's write)."""
    rng = np.random.default_rng(seed)
    dtype = str(rng.choice(["INT64", "FP64"]))
    C = rand_mat(rng, M, N, dtype, 0.4)
    rows, cols = index_of(rng, M, repeats=False), index_of(rng, N, repeats=False)
    value, scalar = value_for(rng, rows, cols, dtype)
    accum = rng.choice([None, "plus", "minus"])
    kind = rng.choice([None, "S", "V", "~S", "~V"])
    line = sum(isinstance(x, int) for x in (rows, cols)) == 1
    # The mask: C's shape; a row or column assign's Vector; or the region's shape (sub-mask).
    if kind is None:
        mask = None
    elif form == "subassign":
        shape = [s for s in (shape_of(rows, M), shape_of(cols, N)) if s is not None]
        if not shape:
            return
        mask = rand_vec(rng, shape[0], "INT64", 0.5) if len(shape) == 1 else \
            rand_mat(rng, shape[0], shape[1], "INT64", 0.5)
    elif line and rng.random() < 0.5:
        mask = rand_vec(rng, N if isinstance(rows, int) else M, "INT64", 0.5)
    else:
        mask = rand_mat(rng, M, N, "INT64", 0.5)
    replace = kind is not None and bool(rng.integers(0, 2))
    for L in (gb, G):
        out = C.of(L)
        m = None if mask is None else mask_of(mask.of(L), kind)
        acc = None if accum is None else getattr(L.binary, accum)
        v = scalar if value is None else value.of(L)
        with backend_in_use(backend if L is gb else backends.backend_name()):
            if form == "assign":
                out(mask=m, accum=acc, replace=replace)[rows, cols] << v
            else:
                out[rows, cols](mask=m, accum=acc, replace=replace) << v
    assert_same_matrix(C.gb, C.G, what=f"{form} [{rows}, {cols}] {kind} {accum} {replace}")


@given(seed=SEEDS)
def test_masked_scalar_assign_within_the_structure(seed):
    # C(M)[I, J] << s where M allows only entries of C: the values change in place, the
    # structure is kept (and where M allows a place C lacks, the general path adds it).
    rng = np.random.default_rng(seed)
    C = rand_mat(rng, M, N, "INT64", 0.5)
    rows, cols = index_of(rng, M, repeats=False), index_of(rng, N, repeats=False)
    results = {}
    for kind in ["S", "V", "sub", "other"]:
        for L in (gb, G):
            out = C.of(L).dup()
            if kind == "sub":
                mask = out.select(L.select.valuegt, 0).new().S
            elif kind == "other":  # corners, which C may lack
                mask = L.Matrix.from_coo([0, M - 1], [0, N - 1], [1, 1], nrows=M, ncols=N).S
            else:
                mask = getattr(out, kind)
            out(mask)[rows, cols] << 7
            results[L] = out
        assert_same_matrix(results[gb], results[G], what=f"C({kind})[{rows}, {cols}] << 7")
    iso = gb.Matrix.from_scalar(3, M, N)
    iso(iso.S)[rows, cols] << 7
    expected = G.Matrix.from_scalar(3, M, N)
    expected(expected.S)[rows, cols] << 7
    assert_same_matrix(iso, expected)


@given(seed=SEEDS)
def test_assign_transposed_and_delete(seed):
    rng = np.random.default_rng(seed)
    C = rand_mat(rng, M, N, "INT64", 0.5)
    rows, cols = rng.permutation(M)[:4].tolist(), rng.permutation(N)[:3].tolist()
    B = rand_mat(rng, len(cols), len(rows), "INT64", 0.6)
    # C[I, J] << B.T: B's entries go straight to their places in C, no transpose is formed
    for L in (gb, G):
        C.of(L)[rows, cols] << B.of(L).T
    assert_same_matrix(C.gb, C.G)
    i, j = int(rng.integers(-M, M)), int(rng.integers(-N, N))
    for L in (gb, G):
        del C.of(L)[i, j]
        del C.of(L)[rows, :]
    assert_same_matrix(C.gb, C.G)


@given(seed=SEEDS)
def test_vector_subassign(seed):
    """``w[I](m) << x``: the mask has len(I) positions and replace acts inside I only."""
    rng = np.random.default_rng(seed)
    w = rand_vec(rng, N, "INT64", 0.5)
    index = index_of(rng, N, repeats=False)
    if isinstance(index, int):
        index = [index]
    size = shape_of(index, N)
    m = rand_vec(rng, size, "INT64", 0.5)
    x = rand_vec(rng, size, "INT64", 0.6) if rng.random() < 0.5 else None
    kind, replace = rng.choice(["S", "V", "~S", "~V"]), bool(rng.integers(0, 2))
    accum = rng.choice([None, "plus"])
    for L in (gb, G):
        acc = None if accum is None else getattr(L.binary, accum)
        w.of(L)[index](mask_of(m.of(L), kind), accum=acc, replace=replace) << \
            (3 if x is None else x.of(L))
    assert_same_vector(w.gb, w.G, what=f"w[{index}]({kind}, {accum}, {replace})")


def test_errors_match_python_graphblas():
    C = gb.Matrix(gb.dtypes.INT64, M, N)
    v = gb.Vector(gb.dtypes.INT64, 3)
    with pytest.raises(IndexOutOfBound) as e:
        C[[0, M], 1].new()
    assert isinstance(e.value, IndexError)
    with pytest.raises(IndexError):
        _ = C[-M - 1, 0].value
    with pytest.raises(TypeError):
        C[[0.5], [1]]
    with pytest.raises(TypeError):
        C[[0, 1], [1, 2]] << v          # a Vector for a submatrix
    with pytest.raises(DimensionMismatch):
        C[0, [1, 2]] << v               # 2 positions, 3 values
    with pytest.raises(TypeError):
        C(v.S) << C                     # a Vector mask needs a row or column assign
    with pytest.raises(DimensionMismatch):
        C(v.S)[0, [1, 2]] << 1          # the row mask has C.ncols positions
    with pytest.raises(TypeError):
        C[[0, 1], [1, 2]](v.S) << 1     # the sub-mask of a submatrix is a Matrix
    assert C.nvals == 0
