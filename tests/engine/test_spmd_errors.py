"""Errors are agreed before they are raised (docs/concepts.md, "SPMD rules").

Every error raises the same exception class with the same message on every rank, leaves the
output object unchanged, and leaves no rank waiting in a collective: the next collective works.
The hard cases are failures that only one rank can see (a bad index or a duplicate pair passed
by one rank, a user-defined op that fails on data that lives on one rank). Under ``mpiexec`` the
launcher's timeout turns a hang into a failure.
"""

import os
import subprocess
import sys

import numpy as np
import pytest
from _helpers import agreed
from gblas2d.semirings import binary as binary_mod
from gblas2d.semirings import monoid as monoid_mod
from gblas2d.semirings import semiring as semiring_mod
from gblas2d.semirings import unary as unary_mod

import gblas2d as gb
from gblas2d import binary, monoid, semiring
from gblas2d.exceptions import (
    DimensionMismatch,
    DomainMismatch,
    IndexOutOfBound,
    InvalidValue,
    OutOfMemory,
)
from gblas2d.surface.inputs import LengthMismatch

N = 24
BIG = 1000.0


def grid():
    return gb.default_grid()


def snapshot(obj):
    return obj.nvals, tuple(a.copy() for a in obj.to_coo())


def assert_unchanged(obj, snap):
    nvals, coo = snapshot(obj)
    assert nvals == snap[0]
    for a, b in zip(coo, snap[1], strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def assert_agreed(excinfo, cls=None):
    """The exception is of ``cls`` and every rank raised the same class with the same text."""
    e = excinfo.value
    if cls is not None:
        assert type(e) is cls, f"{type(e).__name__}: {e}"
    seen = grid().comm.allgather_object((type(e).__name__, str(e)))
    assert all(s == seen[0] for s in seen), seen


def last_rank():
    g = grid()
    return g.rank == g.nprocs - 1


def raising(x, y):
    """A user multiply that fails on one large value (which lives on one rank)."""
    if np.any(x > 100) or np.any(y > 100):
        raise ValueError(f"value above 100 in an array of {len(x)}")
    return x + y


def raising_unary(x):
    if np.any(x > 100):
        raise ValueError("unary: value above 100")
    return -x


def one_big_vector(position, size=N):
    vals = np.ones(size)
    vals[position] = BIG
    return gb.Vector.from_coo(np.arange(size), vals, size=size)


@pytest.fixture
def out():
    """An output vector with some content, to check it is unchanged after an error."""
    return gb.Vector.from_coo([0, 5, N - 1], [7.0, 8.0, 9.0], size=N)


@pytest.fixture
def A():
    rng = np.random.default_rng(11)
    r = rng.integers(0, N, 100)
    c = rng.integers(0, N, 100)
    keys = np.unique(r * N + c)
    return gb.Matrix.from_coo(keys // N, keys % N, 1.0, nrows=N, ncols=N)


# ---------------------------------------------------------------- DimensionMismatch


def test_mxv_size_mismatch(out, A):
    snap = snapshot(out)
    x = gb.Vector.from_dense(np.ones(N + 1))
    with pytest.raises(DimensionMismatch) as exc:
        out << A.mxv(x, semiring.plus_times)
    assert_agreed(exc, DimensionMismatch)
    with pytest.raises(DimensionMismatch) as exc:
        out << x.vxm(A)
    assert_agreed(exc, DimensionMismatch)
    assert_unchanged(out, snap)


def test_ewise_size_mismatch(out):
    snap = snapshot(out)
    other = gb.Vector.from_dense(np.ones(N - 3))
    for make in (lambda: out.ewise_add(other), lambda: out.ewise_mult(other),
                 lambda: out.ewise_union(other, binary.plus, 0, 0)):
        with pytest.raises(DimensionMismatch) as exc:
            out << make()
        assert_agreed(exc, DimensionMismatch)
    # The output's size differs from the expression's.
    with pytest.raises(DimensionMismatch) as exc:
        out << other.apply(gb.unary.abs)
    assert_agreed(exc, DimensionMismatch)
    assert_unchanged(out, snap)


def test_mask_size_mismatch(out, A):
    snap = snapshot(out)
    mask = gb.Vector.from_coo([0], [True], size=N + 2)
    x = gb.Vector.from_dense(np.ones(N))
    with pytest.raises(DimensionMismatch) as exc:
        out(mask=mask.S) << A.mxv(x)
    assert_agreed(exc, DimensionMismatch)
    with pytest.raises(DimensionMismatch) as exc:
        out(mask=~mask.S, replace=True) << A.mxv(x)
    assert_agreed(exc, DimensionMismatch)
    assert_unchanged(out, snap)
    B = A.dup()
    bsnap = snapshot(B)
    with pytest.raises(DimensionMismatch) as exc:
        B(mask=gb.Matrix(bool, N, N + 1).S) << A
    assert_agreed(exc, DimensionMismatch)
    assert_unchanged(B, bsnap)


# ---------------------------------------------------------------- DomainMismatch


def test_bitwise_ops_on_floats(out, A):
    snap = snapshot(out)
    x = gb.Vector.from_dense(np.ones(N))
    with pytest.raises(DomainMismatch) as exc:
        out << A.mxv(x, semiring.bor_band)
    assert_agreed(exc, DomainMismatch)
    with pytest.raises(DomainMismatch) as exc:
        out << out.ewise_add(x, binary.bor)
    assert_agreed(exc, DomainMismatch)
    with pytest.raises(DomainMismatch) as exc:
        out(accum=binary.band) << x
    assert_agreed(exc, DomainMismatch)
    assert_unchanged(out, snap)


# ---------------------------------------------------------------- IndexOutOfBound


def test_from_coo_index_out_of_range_replicated():
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Vector.from_coo([0, 3, N], [1.0, 2.0, 3.0], size=N)
    assert_agreed(exc, IndexOutOfBound)
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Matrix.from_coo([0, 1], [2, N], 1.0, nrows=N, ncols=N)
    assert_agreed(exc, IndexOutOfBound)
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Matrix.from_coo([-1, 1], [2, 3], 1.0, nrows=N, ncols=N)
    assert_agreed(exc, IndexOutOfBound)


def test_from_coo_index_out_of_range_on_one_rank_only():
    g = grid()
    good = np.array([g.rank % N])
    bad = np.r_[good, N + 5] if last_rank() else good
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Vector.from_coo(bad, 1.0, size=N, distributed=True)
    assert_agreed(exc, IndexOutOfBound)
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Matrix.from_coo(bad, np.zeros(len(bad), int), 1.0, nrows=N, ncols=N,
                           distributed=True)
    assert_agreed(exc, IndexOutOfBound)
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Matrix.from_coo(np.zeros(len(bad), int), bad, 1.0, nrows=N, ncols=N,
                           distributed=True)
    assert_agreed(exc, IndexOutOfBound)
    # Collectives still line up.
    v = gb.Vector.from_coo(good, 1.0, size=N, distributed=True, dup_op=binary.plus)
    assert v.reduce().new().value == g.nprocs


def test_different_failures_on_different_ranks_agree_on_one_message():
    g = grid()
    bad = np.array([N + g.rank])  # every rank fails, each with its own index
    with pytest.raises(IndexOutOfBound) as exc:
        gb.Vector.from_coo(bad, 1.0, size=N, distributed=True)
    assert_agreed(exc, IndexOutOfBound)
    assert str(N) in str(exc.value)


def test_gather_index_out_of_range_on_one_rank(out):
    snap = snapshot(out)
    idx = np.arange(N)
    idx[N - 1] = N + 1  # stored by the last piece's owner only
    index = gb.Vector.from_coo(np.arange(N), idx, size=N)
    with pytest.raises(IndexOutOfBound) as exc:
        out << out.gather(index)
    assert_agreed(exc, IndexOutOfBound)
    with pytest.raises(IndexOutOfBound) as exc:
        out << out.scatter(index, size=N)
    assert_agreed(exc, IndexOutOfBound)
    assert_unchanged(out, snap)


# ---------------------------------------------------------------- InvalidValue


def test_duplicates_on_one_rank_only_without_dup_op():
    g = grid()
    # Each rank passes distinct entries; the last rank also passes one pair of duplicates,
    # at an index owned by the last piece (so the pair meets on one rank).
    idx = np.array([g.rank])
    if last_rank():
        idx = np.r_[idx, N - 1, N - 1]
    # Values given one per entry: one scalar for all would make repeats one entry.
    with pytest.raises(InvalidValue) as exc:
        gb.Vector.from_coo(idx, np.ones(len(idx)), size=N, distributed=True)
    assert_agreed(exc, InvalidValue)
    with pytest.raises(InvalidValue) as exc:
        gb.Matrix.from_coo(idx, idx, np.ones(len(idx)), nrows=N, ncols=N, distributed=True)
    assert_agreed(exc, InvalidValue)
    # The pair split across two ranks (rank 0 and the last): the owner sees both.
    idx = np.array([N // 2]) if g.rank in (0, g.nprocs - 1) else np.array([], dtype=np.int64)
    if g.nprocs == 1:
        idx = np.array([N // 2, N // 2])
    with pytest.raises(InvalidValue) as exc:
        gb.Matrix.from_coo(idx, idx, np.ones(len(idx)), nrows=N, ncols=N, distributed=True)
    assert_agreed(exc, InvalidValue)


# ---------------------------------------------------------------- unknown op strings


def test_unknown_op_string(out, A):
    snap = snapshot(out)
    x = gb.Vector.from_dense(np.ones(N))
    with pytest.raises(ValueError) as exc:
        out << A.mxv(x, "no_such_semiring")
    assert_agreed(exc, ValueError)
    with pytest.raises(ValueError) as exc:
        out << out.ewise_add(x, "no_such_op")
    assert_agreed(exc, ValueError)
    with pytest.raises(ValueError) as exc:
        out.reduce("no_such_monoid").new()
    assert_agreed(exc, ValueError)
    with pytest.raises(ValueError) as exc:
        gb.Vector.from_coo([1, 1], [1.0, 2.0], size=N, dup_op="no_such_dup_op")
    assert_agreed(exc, ValueError)
    assert_unchanged(out, snap)


# ---------------------------------------------------------------- user ops failing on one rank


@pytest.mark.parametrize("position", [0, N // 2, N - 1])
def test_user_binary_op_failing_on_one_rank_ewise(out, position):
    op = binary_mod.register_anonymous(raising)
    x = one_big_vector(position)
    snap = snapshot(out)
    # The op only runs where both operands are present: x meets itself or a union default.
    for make in (lambda: x.ewise_add(x, op), lambda: x.ewise_mult(x, op),
                 lambda: x.ewise_union(out, op, 0.0, 0.0)):
        with pytest.raises(ValueError, match="above 100") as exc:
            out << make()
        assert_agreed(exc, ValueError)
    full = gb.Vector.from_dense(np.ones(N))
    full_snap = snapshot(full)
    with pytest.raises(ValueError, match="above 100") as exc:
        full(accum=op) << x
    assert_agreed(exc, ValueError)
    assert_unchanged(full, full_snap)
    with pytest.raises(ValueError, match="above 100") as exc:
        out << x.apply(unary_mod.register_anonymous(raising_unary))
    assert_agreed(exc, ValueError)
    assert_unchanged(out, snap)


@pytest.mark.parametrize("direction", [None, "push", "pull"])
@pytest.mark.parametrize("orient", ["mxv", "vxm"])
def test_user_multiply_failing_on_one_rank_in_products(out, A, direction, orient):
    sr = semiring_mod.register_anonymous(monoid.plus, binary_mod.register_anonymous(raising))
    r, c, v = A.to_coo()
    v = v.copy()
    v[len(v) // 2] = BIG  # one entry of A, stored by one rank
    B = gb.Matrix.from_coo(r, c, v, nrows=N, ncols=N)
    x = gb.Vector.from_dense(np.ones(N))
    snap = snapshot(out)
    opts = {} if direction is None else {"direction": direction}
    expr = B.mxv(x, sr) if orient == "mxv" else x.vxm(B, sr)
    with pytest.raises(ValueError, match="above 100") as exc:
        out(**opts) << expr
    assert_agreed(exc, ValueError)
    assert_unchanged(out, snap)
    # A masked product takes the same error path (the complement of an empty mask allows all).
    with pytest.raises(ValueError, match="above 100") as exc:
        out(mask=~gb.Vector(bool, N).S, **opts) << expr
    assert_agreed(exc, ValueError)
    assert_unchanged(out, snap)


def test_user_multiply_failing_on_one_rank_in_mxm(A):
    sr = semiring_mod.register_anonymous(monoid.plus, binary_mod.register_anonymous(raising))
    r, c, v = A.to_coo()
    v = v.copy()
    v[0] = BIG
    B = gb.Matrix.from_coo(r, c, v, nrows=N, ncols=N)
    C = A.dup()
    snap = snapshot(C)
    with pytest.raises(ValueError, match="above 100") as exc:
        C << B.mxm(A, sr)
    assert_agreed(exc, ValueError)
    assert_unchanged(C, snap)


def test_user_monoid_failing_on_one_rank_in_reductions(out):
    mon = monoid_mod.register_anonymous(binary_mod.register_anonymous(raising), 0.0)
    x = one_big_vector(N - 1)
    with pytest.raises(ValueError, match="above 100") as exc:
        x.reduce(mon).new()
    assert_agreed(exc, ValueError)
    # Rows: one row holds a big value, folded along row_comm.
    rows = np.r_[np.arange(N), N - 1]
    cols = np.r_[np.arange(N), 0]
    vals = np.r_[np.ones(N), BIG]
    M = gb.Matrix.from_coo(rows, cols, vals, nrows=N, ncols=N)
    snap = snapshot(out)
    with pytest.raises(ValueError, match="above 100") as exc:
        out << M.reduce_rowwise(mon)
    assert_agreed(exc, ValueError)
    with pytest.raises(ValueError, match="above 100") as exc:
        M.reduce_scalar(mon).new()
    assert_agreed(exc, ValueError)
    assert_unchanged(out, snap)


# ---------------------------------------------------------------- no desync afterwards


def test_rank_local_failure_mid_sequence_leaves_collectives_working(A):
    g = grid()
    op = binary_mod.register_anonymous(raising)
    sr = semiring_mod.register_anonymous(monoid.plus, op)
    dense_a = A.to_dense(fill_value=0)
    x = gb.Vector.from_dense(np.arange(N, dtype=np.float64) % 5)
    y = A.mxv(x).new()
    expected = dense_a @ (np.arange(N) % 5)
    big = one_big_vector(N - 1)
    failures = 0
    for step in range(3):
        with pytest.raises(ValueError) as exc:
            y << y.ewise_add(big, op)
        assert_agreed(exc, ValueError)
        failures += 1
        np.testing.assert_allclose(y.to_dense(fill_value=0), expected)
        with pytest.raises(IndexOutOfBound) as exc:
            gb.Vector.from_coo([N + step] if last_rank() else [0], 1.0, size=N,
                               distributed=True)
        assert_agreed(exc, IndexOutOfBound)
        failures += 1
        with pytest.raises(ValueError) as exc:
            y << A.mxv(big, sr)
        assert_agreed(exc, ValueError)
        # Every collective kind still lines up: products, transposes, reductions, gathers.
        y2 = A.mxv(x, semiring.plus_times).new()
        assert y2.isequal(y)
        assert A.T.new().T.new().isequal(A)
        assert y.reduce().new().value == pytest.approx(expected.sum())
        z = gb.Vector.from_coo([g.rank], [1.0], size=N, distributed=True)
        assert z.nvals == min(g.nprocs, N)
        w = x.vxm(A, semiring.min_plus).new()
        assert w.nvals == int((dense_a != 0).any(axis=0).sum())
    assert agreed(failures == 6)


# ---------------------------------------------------------------- found engine bugs
#
# The tests below expose SPMD bugs (see the report): each one hangs or aborts under mpiexec
# with a 2D grid instead of raising an agreed exception.


def test_distributed_from_coo_with_mismatched_lengths_on_one_rank():
    # Only the last rank passes rows and columns of different lengths.
    rows = np.array([0, 1]) if last_rank() else np.array([0])
    with pytest.raises(DimensionMismatch) as exc:
        gb.Matrix.from_coo(rows, np.array([0]), 1.0, nrows=N, ncols=N, distributed=True,
                           dup_op=binary.plus)
    # A DimensionMismatch that is also the ValueError python-graphblas raises.
    assert_agreed(exc, LengthMismatch)
    assert gb.Vector.from_coo([1], [1.0], size=N).nvals == 1


def test_distributed_from_coo_with_bad_values_on_one_rank():
    g = grid()
    idx = np.array([0, 1]) + 2 * g.rank
    vals = np.array([1.0, 2.0, 3.0]) if last_rank() else np.array([1.0, 2.0])
    with pytest.raises(Exception) as exc:
        gb.Vector.from_coo(idx, vals, size=2 * g.nprocs, distributed=True)
    assert_agreed(exc)
    assert gb.Vector.from_coo([1], [1.0], size=N).nvals == 1


def test_distributed_from_coo_dtype_agrees_when_one_rank_passes_nothing():
    g = grid()
    # Rank 0 passes empty Python lists (numpy reads them as float64); the others pass ints.
    idx, vals = ([], []) if g.rank == 0 else ([g.rank], [10 * g.rank])
    if g.nprocs == 1:
        idx, vals = [0], [0]
    v = gb.Vector.from_coo(idx, vals, size=max(g.nprocs, 2), distributed=True)
    dtypes = g.comm.allgather_object(str(v.dtype))
    assert all(d == dtypes[0] for d in dtypes), dtypes
    _, got = v.to_coo()
    assert agreed(np.array_equal(got, 10 * np.arange(1, g.nprocs)) or g.nprocs == 1)


def test_distributed_from_coo_with_non_integer_indices_on_one_rank():
    g = grid()
    idx = np.array([0.5]) if last_rank() else np.array([g.rank])
    with pytest.raises(Exception) as exc:
        gb.Vector.from_coo(idx, 1.0, size=N, distributed=True)
    assert_agreed(exc)
    assert gb.Vector.from_coo([1], [1.0], size=N).nvals == 1


@pytest.mark.parametrize("kind", ["reduce_columnwise", "vxm"])
def test_user_monoid_failing_in_a_column_fold(out, kind):
    # Column ``col`` (in piece 1) holds one entry in the first and one in the last row: on a
    # grid with R > 1 the two partials meet in the fold along col_comm, at piece 1's grid
    # position (not rank 1 itself), which then sends the piece home (a sendrecv). The monoid
    # fails there, on one rank only.
    g = grid()
    col = g.piece(N, min(1, g.nprocs - 1))[0]
    mon = monoid_mod.register_anonymous(binary_mod.register_anonymous(raising), 0.0)
    snap = snapshot(out)
    M = gb.Matrix.from_coo([0, N - 1], [col, col], [1.0, BIG], nrows=N, ncols=N)
    if kind == "reduce_columnwise":
        expr = M.reduce_columnwise(mon)
    else:
        expr = gb.Vector.from_dense(np.ones(N)).vxm(
            M, semiring_mod.register_anonymous(mon, binary.second))
    with pytest.raises(ValueError, match="above 100") as exc:
        out << expr
    assert_agreed(exc, ValueError)
    assert_unchanged(out, snap)


# ---------------------------------------------------------------- strictness

@pytest.mark.parametrize("call", [
    lambda out, A: out(nthreads=2) << A.mxv(out, semiring.plus_times),
    lambda out, A: A.mxv(out, semiring.plus_times).new(axb_method="dot"),
    lambda out, A: A.T.new()(chunk=4) << A,
], ids=["w(...)", "vector new", "matrix w(...)"])
def test_unknown_options_are_rejected(out, A, call):
    snap = snapshot(out)
    with pytest.raises(TypeError) as exc:
        call(out, A)
    assert_agreed(exc, TypeError)
    assert "unknown option" in str(exc.value) and "direction=" in str(exc.value)
    assert_unchanged(out, snap)


def test_option_values_are_checked(out, A):
    snap = snapshot(out)
    for option in ({"direction": "sideways"}, {"exchange": "packed"}):
        with pytest.raises(InvalidValue) as exc:
            out(**option) << A.mxv(out, semiring.plus_times)
        assert_agreed(exc, InvalidValue)
        assert repr(next(iter(option.values()))) in str(exc.value)
    assert_unchanged(out, snap)
    # The known values still work, forced.
    ref = A.mxv(out, semiring.plus_times).new()
    assert A.mxv(out, semiring.plus_times).new(direction="push", exchange="sparse").isequal(ref)


def test_input_mask_is_for_extracts_only(out):
    snap = snapshot(out)
    with pytest.raises(TypeError) as exc:
        out(input_mask=out.S) << out
    assert_agreed(exc, TypeError)
    assert "only be used for extract" in str(exc.value)
    assert_unchanged(out, snap)


def other_grids():
    """Grids whose objects may not meet the default grid's: another shape, and the same shape
    over a duplicate of the communicator (none exist at one process)."""
    from mpi4py import MPI

    g = grid()
    if g.nprocs == 1:
        return []
    other_shape = (g.ncols, g.nrows) if g.nrows != g.ncols else (1, g.nprocs)
    return [gb.Grid(shape=other_shape), gb.Grid(comm=MPI.COMM_WORLD.Dup(), shape=g.shape)]


def test_operands_on_another_grid_are_rejected(out, A):
    snap = snapshot(out)
    for other in other_grids():
        x = gb.Vector.from_coo([1, 2], [1.0, 2.0], size=N, grid=other)
        B = gb.Matrix.from_coo([0], [1], 1.0, nrows=N, ncols=N, grid=other)
        calls = [lambda x, B: A.mxv(x, semiring.plus_times), lambda x, B: out.ewise_add(x),
                 lambda x, B: out(mask=x.S) << out, lambda x, B: out.__lshift__(x),
                 lambda x, B: A.ewise_mult(B), lambda x, B: B.mxv(out, semiring.plus_times)]
        for call in calls:
            with pytest.raises(InvalidValue) as exc:
                call(x, B)
            assert_agreed(exc, InvalidValue)
            assert "must share a grid" in str(exc.value)
    assert_unchanged(out, snap)
    assert agreed(True)


def test_one_process_grids_work_together(out, A):
    """At one process every grid distributes alike (the under-MPI runs test the mismatch)."""
    if grid().nprocs > 1:
        assert other_grids()
        return
    x = gb.Vector.from_coo([1, 2], [1.0, 2.0], size=N, grid=gb.Grid(shape=(1, 1)))
    y = A.mxv(x, semiring.plus_times).new()
    expected = A.mxv(gb.Vector.from_coo([1, 2], [1.0, 2.0], size=N), semiring.plus_times).new()
    assert y.isequal(expected)


def test_agreed_section_raises_one_rank_failure_everywhere():
    comm = grid().comm
    ran = []
    with pytest.raises(IndexOutOfBound) as exc:
        with comm.agreed():
            ran.append(True)
            if last_rank():
                raise IndexOutOfBound("only the last rank saw this")
    assert_agreed(exc, IndexOutOfBound)
    assert "only the last rank" in str(exc.value) and ran == [True]
    # A section where no rank fails lets every rank go on, and collectives still match.
    with comm.agreed():
        total = comm.allreduce(np.array([1], dtype=np.int64))[0]
    assert total == grid().nprocs


# ------------------------------------------------- replicated arguments, without the checked mode


def test_ranks_that_pass_different_replicated_arguments_raise_one_error_by_default():
    """The world step a call makes anyway compares a digest of the replicated arguments: a BFS
    that rank 0 starts from vertex 0 and the others from vertex 5 is one InvalidValue on every
    rank, not a search from both sources at once (issue 46); a write leaves its output as it
    was."""
    from gblas2d.algorithms import bfs_levels

    g = grid()
    source = 0 if g.rank == 0 else 5
    mesh = gb.generators.grid_graph(4, 4)
    v = gb.Vector.from_coo([1], [1.0], size=N)
    snap = snapshot(v)

    def write():
        v[source] = 2.0

    if g.nprocs == 1:
        assert bfs_levels(mesh, source).nvals == 16
        write()
        assert gb.Vector.from_coo([source], [1.0], size=N).nvals == 1
        return
    calls = [
        (lambda: bfs_levels(mesh, source), "the ranks called w[index] << value with different "
         "arguments: argument 'index' differs: rank 0 passed 0, rank 1 passed 5"),
        (write, "the ranks called w[index] << value with different arguments: argument "
         "'index' differs: rank 0 passed 0, rank 1 passed 5"),
        (lambda: gb.Vector.from_coo([source], [1.0], size=N), "the ranks called "
         "Vector.from_coo with different arguments: argument 'indices' differs: rank 0 "
         "passed [0], rank 1 passed [5]"),
    ]
    for call, message in calls:
        with pytest.raises(InvalidValue) as exc:
            call()
        assert_agreed(exc, InvalidValue)
        assert str(exc.value) == message
    assert_unchanged(v, snap)


def test_a_rank_that_skips_a_call_meets_the_others_at_a_step_and_every_rank_raises():
    """A rank that skipped a call (an exception of its own, caught) is found in another public
    call at the next world step: every rank raises, and the calls after match again."""
    g = grid()
    last = g.nprocs - 1
    x = gb.Vector.from_coo([0, 3], [1.0, 2.0], size=N)

    def skipping():
        if g.rank == last:
            return x.reduce().new()
        return gb.Vector.from_coo([1], [1.0], size=N)

    if g.nprocs == 1:
        assert skipping().value == 3.0
        return
    with pytest.raises(InvalidValue) as exc:
        skipping()
    assert_agreed(exc, InvalidValue)
    assert str(exc.value) == "the ranks made different calls at once: rank 0 called " \
        f"Vector.from_coo, rank {last} called ScalarExpression.new"
    assert agreed(x.reduce().new().value == 3.0)


@pytest.fixture
def debug():
    gb.set_debug(True)
    yield
    gb.set_debug(False)


def debug_failure(call):
    """The message every rank raises alike for ``call`` in debug mode; None at one rank, which
    always agrees with itself (the call must then succeed)."""
    if grid().nprocs == 1:
        call()
        return None
    with pytest.raises(InvalidValue) as exc:
        call()
    assert_agreed(exc, InvalidValue)
    return str(exc.value)


def test_debug_mode_finds_ranks_that_pass_different_arguments(debug, A):
    """GBLAS2D_DEBUG / set_debug: ranks that disagree on a replicated argument get one clear
    error (without it they would hang or build objects whose shape differs per rank)."""
    g = grid()
    r = g.rank
    x = gb.Vector.from_coo([0, 3], [1.0, 2.0], size=N)
    calls = [
        lambda: gb.Vector.from_coo([0], [1.0], size=N + r),
        lambda: gb.Matrix(float, N, N + (r == g.nprocs - 1)),
        lambda: A.mxv(x, semiring.plus_times if r == 0 else semiring.min_plus),
        lambda: gb.Matrix.from_coo([0, 1], [1, r % 2], 1.0, nrows=N, ncols=N),
        lambda: x.apply(binary.plus, right=1.0 + (r == g.nprocs - 1)),
    ]
    for call in calls:
        message = debug_failure(call)
        assert message is None or "different arguments" in message
    # Agreeing ranks go on as before, and the collectives still match.
    y = A.mxv(x, semiring.plus_times).new()
    assert agreed(y.isequal(A.mxv(x, semiring.plus_times).new()))


def test_debug_mode_names_the_users_call_and_the_argument_that_differs(debug, A):
    """The message names the public call the user made (``Vector.from_dense``, not the
    ``from_coo`` it calls, where the check is) and which of its arguments differed, with the
    values of rank 0 and of the first rank that passed another."""
    g = grid()
    last = g.nprocs - 1
    odd = g.rank == last
    x = gb.Vector.from_coo([0, 3], [1.0, 2.0], size=N, name="x")
    head = "the ranks called {} with different arguments (GBLAS2D_DEBUG): "
    calls = [
        (lambda: gb.Vector.from_dense(np.array([1, 2, 3 + odd])),
         head.format("Vector.from_dense") + f"argument 'values' differs: rank 0 passed "
         f"array([1, 2, 3]), rank {last} passed array([1, 2, 4])"),
        (lambda: A.mxv(x, semiring.min_plus if odd else semiring.plus_times),
         head.format("Matrix.mxv") + f"argument 'op' differs: rank 0 passed "
         f"semiring.plus_times, rank {last} passed semiring.min_plus"),
        (lambda: x(~x.S if odd else x.S) << x,
         head.format("<<") + f"argument 'mask' differs: rank 0 passed x.S, rank {last} "
         "passed ~x.S"),
        # the value the check sees (the entries kept) is none of from_dense's arguments: it
        # is shown, and the arguments that differ are named
        (lambda: gb.Vector.from_dense([1, 2, 3 + odd], missing_value=2),
         head.format("Vector.from_dense") + f"value 2 of the 4 that Vector.from_coo checks "
         f"differs: rank 0 passed array([1, 3]), rank {last} passed array([1, 4]); of the "
         "arguments of Vector.from_dense, 'values' differs between ranks"),
    ]
    for call, message in calls:
        assert debug_failure(call) == (None if g.nprocs == 1 else message)


def test_a_failure_while_routing_to_owners_is_raised_on_every_rank(monkeypatch):
    """A MemoryError on one rank while grouping its share of a distributed build by owner
    (the other ranks are already exchanging): every rank raises it, none waits."""
    from gblas2d.distributed import redistribute as _redistribute

    grouped = _redistribute._send_grouped

    def failing_on_the_last_rank(grid, owners, arrays):
        if last_rank():
            raise MemoryError("no memory to group the entries by owner")
        return grouped(grid, owners, arrays)

    monkeypatch.setattr(_redistribute, "_send_grouped", failing_on_the_last_rank)
    rows = np.arange(grid().rank, N, grid().nprocs)
    if grid().nprocs == 1:
        # One rank routes nothing: the build needs no exchange and succeeds.
        assert gb.Matrix.from_coo(rows, rows, 1.0, nrows=N, ncols=N, distributed=True).nvals == N
        return
    with pytest.raises(MemoryError, match="by owner") as exc:
        gb.Matrix.from_coo(rows, rows, 1.0, nrows=N, ncols=N, distributed=True)
    assert_agreed(exc, MemoryError)
    monkeypatch.setattr(_redistribute, "_send_grouped", grouped)
    assert gb.Matrix.from_coo(rows, rows, 1.0, nrows=N, ncols=N, distributed=True).nvals == N


def test_a_product_that_needs_plain_row_pointers_of_a_huge_matrix_is_one_memory_error():
    """mxm still reads B's rows by plain pointers, one per row of a block (the products by a
    vector, the element-wise ops and the rest walk a hypersparse block's own rows). On a
    2^40 x 2^40 matrix that is one OutOfMemory (a MemoryError) on every rank; the grid goes on."""
    A = gb.Matrix.from_coo([0, 5], [5, 0], 1.0, nrows=2**40, ncols=2**40)
    assert A.mxv(gb.Vector.from_coo([0], [2.0], size=2**40)).new().nvals == 1
    with pytest.raises(OutOfMemory, match="bytes of row pointers") as exc:
        A.mxm(A).new()
    assert_agreed(exc, OutOfMemory)
    assert gb.Vector.from_coo([0], [1.0], size=N).nvals == 1


@pytest.mark.serial_only
def test_a_class_passed_as_an_argument_is_numbered_alike_in_every_process():
    """``dtype=np.float64`` is a class, whose attributes are descriptors hashed by address: it
    must be numbered by its name, or ranks that passed the same class disagree (seen at 2x1:
    ``Vector.from_coo([], [], dtype=np.float64, size=0)`` raised on both ranks)."""
    code = ("import numpy as np; from gblas2d.distributed.caller import fingerprint; "
            "print(fingerprint(np.float64), fingerprint(np.int32), fingerprint(float))")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout
            for seed in (1, 2, 3)}
    assert len(runs) == 1, runs
