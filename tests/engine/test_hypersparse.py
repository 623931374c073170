"""Hypersparse blocks and dimensions up to 2^60 (issue 28): a block with few nonempty rows keeps
only those rows' pointers, so a matrix of 2^40 or 2^60 rows with a few entries costs O(entries)
on every rank, and every operation on it answers as python-graphblas does.

Each operation runs on both local backends and is compared with python-graphblas on the same
entries.
"""

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed, backend_in_use

import gblas2d as gb
from gblas2d import backends, binary, monoid, semiring
from gblas2d.exceptions import InvalidValue
from gblas2d.local.block import HYPER_SWITCH, Block


@pytest.fixture(params=["numpy", "suitesparse"])
def backend(request):
    with backend_in_use(request.param) as name:
        yield name


def entries(n, k=12, seed=5):
    """k distinct entries spread over an n x n matrix, at its corners too."""
    rng = np.random.default_rng(seed)
    rows = np.concatenate([[0, n - 1, n - 1], rng.integers(0, n, k - 3)])
    cols = np.concatenate([[n - 1, 0, n - 1], rng.integers(0, n, k - 3)])
    keys = np.unique(np.stack([rows, cols], axis=1), axis=0)
    return keys[:, 0], keys[:, 1], np.arange(1, len(keys) + 1, dtype=np.float64)


def both(n, seed=5):
    r, c, v = entries(n, seed=seed)
    return (gb.Matrix.from_coo(r, c, v, nrows=n, ncols=n),
            G.Matrix.from_coo(r, c, v, nrows=n, ncols=n))


def same(ours, theirs):
    """Collective. The same entries (coordinates and values) as python-graphblas's."""
    *ours_at, ours_vals = ours.to_coo()
    *theirs_at, theirs_vals = theirs.to_coo()
    at = all(np.array_equal(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
             for a, b in zip(ours_at, theirs_at, strict=True))
    return agreed(at and np.array_equal(np.asarray(ours_vals, dtype=np.float64),
                                        np.asarray(theirs_vals, dtype=np.float64)))


def block_bytes(A):
    """Collective. The most bytes any rank holds for its block, every copy counted."""
    held = sum(backends.held_bytes(A.block).values())
    return int(gb.default_grid().comm.allreduce(np.array([held], dtype=np.int64), "max")[0])


@pytest.mark.parametrize("n", [2**40, 2**60])
def test_a_huge_matrix_with_few_entries_costs_its_entries(backend, n):
    A, _ = both(n)
    y = A.mxv(gb.Vector.from_coo([n - 1], [2.0], size=n), semiring.plus_times).new()
    assert y.nvals >= 1
    # A few hundred bytes a rank: the pointers of the nonempty rows, never one per row.
    assert block_bytes(A) < 4096
    assert agreed(A.block.is_hyper)


@pytest.mark.parametrize("n", [2**40, 2**60])
def test_products_of_a_huge_matrix_match_python_graphblas(backend, n):
    A, GA = both(n)
    idx, vals = np.array([0, 3, n - 1]), np.array([1.0, 2.0, 4.0])
    x, Gx = gb.Vector.from_coo(idx, vals, size=n), G.Vector.from_coo(idx, vals, size=n)
    for name in ("plus_times", "min_plus", "any_pair"):
        ours, theirs = getattr(semiring, name), getattr(G.semiring, name)
        assert same(A.mxv(x, ours).new(), GA.mxv(Gx, theirs).new()), name
        assert same(x.vxm(A, ours).new(), Gx.vxm(GA, theirs).new()), name
    # Masked, each direction forced: the pull walks only the wanted rows' pointers.
    mask_idx = np.array([0, n - 1])
    m = gb.Vector.from_coo(mask_idx, True, size=n)
    Gm = G.Vector.from_coo(mask_idx, True, size=n)
    for direction in ("push", "pull"):
        w = gb.Vector(float, n)
        w(m.S) << A.mxv(x, semiring.plus_times)
        Gw = G.Vector(float, n)
        Gw(Gm.S) << GA.mxv(Gx, G.semiring.plus_times)
        assert same(w, Gw), direction
        w = gb.Vector(float, n)
        w(~m.S, direction=direction) << x.vxm(A, semiring.plus_times)
        Gw = G.Vector(float, n)
        Gw(~Gm.S) << Gx.vxm(GA, G.semiring.plus_times)
        assert same(w, Gw), direction


@pytest.mark.parametrize("name", ["min_firsti", "min_secondj", "max_firstj", "min_secondi"])
def test_positional_products_of_a_hypersparse_block_give_the_rows(backend, name):
    """A positional op's index is the row or column, never the place in the list of nonempty
    rows: SuiteSparse 9.4's dot product gets firsti of A x and secondj of x A' wrong on a
    hypersparse matrix, so the backend asks for its saxpy there. python-graphblas answers on a
    bitmap copy, where its dot product is right."""
    n = 512  # 12 entries: fewer nonempty rows than n / 16
    A, GA = both(n, seed=9)
    GA.ss.config["sparsity_control"] = ["bitmap"]
    assert agreed(A.block.is_hyper or A.block.nvals == 0)
    x, Gx = gb.Vector.from_scalar(1.0, n), G.Vector.from_scalar(1.0, n)
    ours, theirs = getattr(semiring, name), getattr(G.semiring.ss, name)
    for direction in ("push", "pull"):
        w = gb.Vector(gb.dtypes.INT64, n)
        w(direction=direction) << A.mxv(x, ours)
        assert same(w, GA.mxv(Gx, theirs).new()), (direction, "mxv")
        w = gb.Vector(gb.dtypes.INT64, n)
        w(direction=direction) << x.vxm(A.T, ours)
        assert same(w, Gx.vxm(GA.T, theirs).new()), (direction, "vxm A.T")
    B = gb.Matrix.from_coo(*entries(n, seed=3), nrows=n, ncols=n)
    GB = G.Matrix.from_coo(*entries(n, seed=3), nrows=n, ncols=n)
    GB.ss.config["sparsity_control"] = ["bitmap"]  # its dot gets secondj of a hypersparse B
    assert same(A.mxm(B, ours).new(), GA.mxm(GB, theirs).new()), "mxm"


@pytest.mark.parametrize("n", [2**40, 2**60])
def test_element_wise_select_reduce_and_transpose_of_a_huge_matrix(backend, n):
    A, GA = both(n)
    B, GB = both(n, seed=9)
    assert same(A.ewise_add(B, binary.plus).new(), GA.ewise_add(GB, G.binary.plus).new())
    assert same(A.ewise_mult(B, binary.times).new(), GA.ewise_mult(GB, G.binary.times).new())
    assert same(A.select("<", 5).new(), GA.select("<", 5).new())
    assert same(A.apply(binary.times, 3).new(), GA.apply(G.binary.times, 3).new())
    assert same(A.reduce_rowwise(monoid.plus).new(), GA.reduce_rowwise(G.monoid.plus).new())
    assert same(A.reduce_columnwise(monoid.max).new(),
                GA.reduce_columnwise(G.monoid.max).new())
    assert A.reduce_scalar(monoid.plus).new().value == GA.reduce_scalar(G.monoid.plus).new().value
    assert same(A.T.new(), GA.T.new())
    # A write under a mask: C<M> = A + B, C holding entries of its own.
    C, GC = both(n, seed=11)
    C(A.S) << A.ewise_add(B, binary.plus)
    GC(GA.S) << GA.ewise_add(GB, G.binary.plus)
    assert same(C, GC)
    assert agreed(block_bytes(C) < 4096)


def test_a_huge_vector_with_few_entries(backend):
    n = 2**50
    idx, vals = np.array([0, 7, n - 1]), np.array([3, 1, 2])
    v, Gv = gb.Vector.from_coo(idx, vals, size=n), G.Vector.from_coo(idx, vals, size=n)
    assert same(v.ewise_add(v, binary.plus).new(), Gv.ewise_add(Gv, G.binary.plus).new())
    assert same(v.select(">", 1).new(), Gv.select(">", 1).new())
    assert same(v.apply(binary.times, 2).new(), Gv.apply(G.binary.times, 2).new())
    assert v.reduce(monoid.max).new().value == Gv.reduce(G.monoid.max).new().value
    piece = v.piece
    held = piece.idx.nbytes + piece.vals.nbytes if not piece.is_bitmap else piece.values.nbytes
    assert agreed(held < 1024)


def test_dimensions_beyond_2_60_are_refused_as_python_graphblas_does():
    with pytest.raises(InvalidValue, match="2\\*\\*60"):
        gb.Matrix(float, 2**60 + 1, 4)
    with pytest.raises(InvalidValue, match="2\\*\\*60"):
        gb.Vector(int, 2**60 + 1)
    with pytest.raises(G.exceptions.InvalidValue):
        G.Vector(int, 2**60 + 1)


@pytest.mark.parametrize(("nrows", "rows_used", "per_row"),
                         [(1000, 10, 3), (1000, 249, 1), (1000, 250, 1), (1000, 2, 400),
                          (16, 3, 1), (16, 4, 1), (1, 1, 1)])
def test_a_block_is_hypersparse_exactly_when_its_nonempty_rows_are_few(nrows, rows_used,
                                                                     per_row):
    """The rule of the block's storage, on the block alone: hypersparse when fewer than
    HYPER_SWITCH of its rows have entries, plain otherwise; either reads back the same."""
    rows = np.repeat(np.linspace(0, nrows - 1, rows_used).astype(np.int64), per_row)
    cols = np.tile(np.arange(per_row, dtype=np.int64), rows_used)
    keys = rows * 500 + cols
    block = Block.from_keys(nrows, 500, keys, np.ones(len(keys)))
    assert block.is_hyper == (rows_used < HYPER_SWITCH * nrows)
    assert np.array_equal(block.keys(), keys)
    assert np.array_equal(np.repeat(np.arange(nrows), np.diff(block.csr[0])), rows)
    ids, ptr, got_rows, _ = block.by_cols()
    counts = np.diff(ptr)
    got_cols = np.repeat(np.arange(len(counts)) if ids is None else ids, counts)
    order = np.lexsort((rows, cols))
    assert np.array_equal(got_cols, cols[order]) and np.array_equal(got_rows, rows[order])
    # What a selection leaves of a hypersparse block lists only rows that still have entries.
    kept = block.select(block.cols == 0)
    if kept.is_hyper:
        assert (np.diff(kept.ptr) > 0).all()
    assert np.array_equal(kept.keys(), keys[cols == 0])


@pytest.mark.parametrize("n", [2**40, 2**60])
def test_resizing_a_huge_matrix_moves_each_entry_to_its_place(backend, n):
    """Keys of blocks beyond 2^63 positions are not int64: the entries that travel to their
    new owners carry their row and column instead, and none lands at a wrapped-around key."""
    for shape in ((n // 2, n // 2 + 3), (n - 1, 7), (n, n)):
        A, GA = both(n)
        A.resize(*shape)
        GA.resize(*shape)
        assert same(A, GA), shape
