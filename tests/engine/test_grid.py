"""The grid and the one distribution rule.

Ownership is arithmetic on (n, grid shape): the pure functions are checked for many grid shapes
with a stand-in communicator (no MPI needed, so every shape is covered in every session). The
distributed tests compare each rank's piece with what the ownership function predicts, then
agree on the verdict with an allreduce; nothing expects a particular number of ranks.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d.distributed.grid import Grid


class FakeComm:
    """Just enough of an mpi4py communicator for ``Grid.__init__``: size, rank and Split.

    ``splits`` are the sizes the successive ``Split`` calls report (Grid splits the row group,
    then the column group); the ownership functions never touch the communicators.
    """

    def __init__(self, size, rank=0, splits=()):
        self.size, self.rank = size, rank
        self._splits = list(splits)

    def Get_size(self):
        return self.size

    def Get_rank(self):
        return self.rank

    def Split(self, color, key):
        return FakeComm(self._splits.pop(0) if self._splits else 1, key)


def fake_grid(shape, rank=0):
    r, c = shape
    return Grid(comm=FakeComm(r * c, rank, splits=(c, r)), shape=shape)


SHAPES = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (1, 7), (4, 5), (5, 4)]
SIZES = [0, 1, 2, 3, 5, 6, 7, 11, 12, 13, 29, 64, 100, 1001]


def agreed(grid, ok):
    """Every rank's verdict, combined: True only if all ranks say True."""
    return bool(grid.comm.allreduce(np.array([int(bool(ok))], dtype=np.int64), "min")[0])


# ---------------------------------------------------------------- pure ownership functions


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("n", SIZES)
def test_pieces_cover_the_space_and_differ_by_at_most_one(shape, n):
    g = fake_grid(shape)
    p = shape[0] * shape[1]
    off = g.offsets(n)
    assert len(off) == p + 1
    assert off[0] == 0 and off[-1] == n
    sizes = np.diff(off)
    assert (sizes >= 0).all()
    assert sizes.max() - sizes.min() <= 1
    # Larger pieces come first (contiguous, no gaps, no overlap).
    assert (np.diff(sizes) <= 0).all()
    assert sizes.sum() == n
    for k in range(p):
        assert g.piece(n, k) == (int(off[k]), int(off[k + 1]))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("n", SIZES)
def test_owner_agrees_with_piece(shape, n):
    g = fake_grid(shape)
    p = shape[0] * shape[1]
    idx = np.arange(n)
    owners = g.owner(n, idx)
    assert owners.shape == idx.shape
    expected = np.empty(n, dtype=np.int64)
    for k in range(p):
        lo, hi = g.piece(n, k)
        expected[lo:hi] = k
    np.testing.assert_array_equal(owners, expected)
    if n:
        # Scalars and lists work too.
        last = max(k for k in range(p) if g.piece(n, k)[1] > g.piece(n, k)[0])
        assert int(g.owner(n, n - 1)) == last
        assert int(g.owner(n, [0])[0]) == 0


@given(r=st.integers(1, 6), c=st.integers(1, 6), n=st.integers(0, 500))
def test_owner_agrees_with_piece_property(r, c, n):
    g = fake_grid((r, c))
    off = g.offsets(n)
    owners = g.owner(n, np.arange(n))
    np.testing.assert_array_equal(owners, np.repeat(np.arange(r * c), np.diff(off)))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("n", [0, 1, 5, 13, 100])
def test_row_and_column_blocks_partition_the_space(shape, n):
    r, c = shape
    g = fake_grid(shape)
    off = g.offsets(n)
    rows = [g.row_block(n, i) for i in range(r)]
    cols = [g.col_block(n, j) for j in range(c)]
    # Row block i = pieces [i*C, (i+1)*C); column block j = pieces [j*R, (j+1)*R).
    assert rows == [(int(off[i * c]), int(off[(i + 1) * c])) for i in range(r)]
    assert cols == [(int(off[j * r]), int(off[(j + 1) * r])) for j in range(c)]
    for blocks in (rows, cols):
        assert blocks[0][0] == 0 and blocks[-1][1] == n
        assert all(a[1] == b[0] for a, b in zip(blocks[:-1], blocks[1:], strict=True))
    # The starts of every block at once, as the exchanges read them.
    assert g.row_block_starts(n).tolist() == [lo for lo, _ in rows] + [n]
    assert g.col_block_starts(n).tolist() == [lo for lo, _ in cols] + [n]


@pytest.mark.parametrize("shape", SHAPES)
def test_entry_owner_is_the_rank_of_the_row_and_column_blocks(shape):
    r, c = shape
    g = fake_grid(shape)
    nrows, ncols = 17, 23
    rr, cc = np.meshgrid(np.arange(nrows), np.arange(ncols), indexing="ij")
    owners = g.entry_owner(nrows, ncols, rr.ravel(), cc.ravel())
    expected = np.empty(nrows * ncols, dtype=np.int64)
    for i in range(r):
        rlo, rhi = g.row_block(nrows, i)
        for j in range(c):
            clo, chi = g.col_block(ncols, j)
            hit = (rr.ravel() >= rlo) & (rr.ravel() < rhi) & (cc.ravel() >= clo) & \
                (cc.ravel() < chi)
            expected[hit] = i * c + j
    np.testing.assert_array_equal(owners, expected)


@pytest.mark.parametrize("shape", SHAPES)
def test_each_rank_position_and_own_blocks(shape):
    r, c = shape
    n = 31
    for rank in range(r * c):
        g = fake_grid(shape, rank)
        assert (g.myrow, g.mycol) == divmod(rank, c)
        assert g.rank == rank and g.nprocs == r * c and g.shape == shape
        assert (g.nrows, g.ncols) == shape
        # Defaults are this rank's own piece / blocks.
        assert g.piece(n) == g.piece(n, rank)
        assert g.row_block(n) == g.row_block(n, g.myrow)
        assert g.col_block(n) == g.col_block(n, g.mycol)
        # A rank's own vector piece lies inside its row block (piece i*C + j of row block i).
        lo, hi = g.piece(n)
        rlo, rhi = g.row_block(n)
        assert rlo <= lo and hi <= rhi
        # Column positions: piece k = j*R + t sits at grid rank (t, j), a permutation.
        positions = [g.col_position(k) for k in range(r * c)]
        assert sorted(positions) == list(range(r * c))
        for k in range(r * c):
            j, t = divmod(k, r)
            assert positions[k] == t * c + j
            # ... and piece k lies inside column block j.
            plo, phi = g.piece(n, k)
            clo, chi = g.col_block(n, j)
            assert clo <= plo and phi <= chi
        assert np.array_equal(g.col_position(np.arange(r * c)), positions)
        assert positions[g.col_piece()] == rank
        # The segments: this rank's row segment is its row block, its column segment its
        # column block, each as the pieces of its group.
        row_pieces, col_pieces = g.segment_pieces("row"), g.segment_pieces("col")
        assert (g.piece(n, row_pieces[0])[0], g.piece(n, row_pieces[-1])[1]) == g.row_block(n)
        assert (g.piece(n, col_pieces[0])[0], g.piece(n, col_pieces[-1])[1]) == g.col_block(n)
        assert g.segment_is_local("row") == (c == 1) and g.segment_is_local("col") == (r == 1)
        # Which block holds each index.
        index = np.arange(n)
        for i in range(r):
            lo, hi = g.row_block(n, i)
            assert (g.row_block_of(n, index[lo:hi]) == i).all()
        for j in range(c):
            lo, hi = g.col_block(n, j)
            assert (g.col_block_of(n, index[lo:hi]) == j).all()
        # ... and which blocks hold each piece, as SUMMA's stages broadcast them.
        for k in range(r * c):
            plo, phi = g.piece(n, k)
            i, j = g.blocks_of_piece(k)
            assert g.row_block(n, i)[0] <= plo and phi <= g.row_block(n, i)[1]
            assert g.col_block(n, j)[0] <= plo and phi <= g.col_block(n, j)[1]


def most_square_brute_force(p):
    return min(((a, p // a) for a in range(1, p + 1) if p % a == 0 and a <= p // a),
               key=lambda s: s[1] - s[0])


@pytest.mark.parametrize("p", range(1, 37))
def test_default_shape_is_the_most_square(p, monkeypatch):
    monkeypatch.delenv("GBLAS2D_GRID", raising=False)
    comm = FakeComm(p)
    expected = most_square_brute_force(p)
    g = Grid(comm=comm)
    assert g.shape == expected
    assert g.shape[0] <= g.shape[1]


def test_environment_shape_and_bad_shapes(monkeypatch):
    monkeypatch.setenv("GBLAS2D_GRID", "3x2")
    assert Grid(comm=FakeComm(6)).shape == (3, 2)
    monkeypatch.delenv("GBLAS2D_GRID")
    with pytest.raises(ValueError, match="does not match"):
        Grid(comm=FakeComm(6), shape=(4, 2))
    with pytest.raises(ValueError, match="does not match"):
        Grid(comm=FakeComm(1), shape=(0, 1))
    monkeypatch.setenv("GBLAS2D_GRID", "two-by-three")
    with pytest.raises(ValueError, match="GBLAS2D_GRID"):
        Grid(comm=FakeComm(6))


# ---------------------------------------------------------------- the real (default) grid


def test_default_grid_shape_matches_the_job():
    g = gb.default_grid()
    r, c = g.shape
    assert r * c == g.nprocs
    assert g.comm.size == g.nprocs
    assert g.row_comm.size == c and g.col_comm.size == r
    assert g.row_comm.rank == g.mycol and g.col_comm.rank == g.myrow
    assert (g.myrow, g.mycol) == divmod(g.rank, c)
    # Every rank sees the same shape, and the positions form the full grid.
    shapes = g.comm.allgather_object((g.shape, g.rank, g.myrow, g.mycol))
    assert all(s[0] == g.shape for s in shapes)
    assert sorted(s[1] for s in shapes) == list(range(g.nprocs))
    assert sorted((s[2], s[3]) for s in shapes) == [(i, j) for i in range(r) for j in range(c)]
    assert gb.default_grid() is g


@pytest.mark.parametrize("n", [0, 1, 5, 37, 250])
def test_vector_local_piece_is_what_ownership_predicts(n):
    g = gb.default_grid()
    rng = np.random.default_rng(n)
    present = rng.random(n) < 0.6
    values = rng.integers(-50, 50, n)
    idx = np.flatnonzero(present)
    v = gb.Vector.from_coo(idx, values[idx], size=n)
    lo, local_idx, vals = v.local_piece()
    exp_lo, exp_hi = g.piece(n)
    ok = lo == exp_lo and len(local_idx) == len(vals)
    if ok:
        want = np.flatnonzero(present[lo:exp_hi])
        ok = np.array_equal(local_idx, want) and np.array_equal(vals, values[lo:exp_hi][want])
        # Every entry I hold is one I own.
        ok = ok and bool((g.owner(n, local_idx + lo) == g.rank).all())
    assert agreed(g, ok)
    assert v.nvals == len(idx)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (3, 7), (40, 25), (101, 99)])
def test_matrix_local_block_is_what_ownership_predicts(shape):
    g = gb.default_grid()
    nrows, ncols = shape
    rng = np.random.default_rng(nrows * 1000 + ncols)
    dense = rng.integers(1, 9, shape) * (rng.random(shape) < 0.3)
    r, c = np.nonzero(dense)
    A = gb.Matrix.from_coo(r, c, dense[r, c], nrows=nrows, ncols=ncols)
    row_lo, col_lo, lr, lc, lv = A.local_block()
    rlo, rhi = g.row_block(nrows)
    clo, chi = g.col_block(ncols)
    mine = g.entry_owner(nrows, ncols, r, c) == g.rank
    got = sorted(zip((lr + row_lo).tolist(), (lc + col_lo).tolist(), lv.tolist(), strict=True))
    want = sorted(zip(r[mine].tolist(), c[mine].tolist(), dense[r, c][mine].tolist(),
                      strict=True))
    ok = (row_lo, col_lo) == (rlo, clo) and got == want
    ok = ok and bool(((lr >= 0) & (lr < rhi - rlo) & (lc >= 0) & (lc < chi - clo)).all())
    assert agreed(g, ok)
    assert A.nvals == len(r)


def test_distributed_construction_lands_on_the_predicted_owners():
    g = gb.default_grid()
    n = 60
    rng = np.random.default_rng(7)
    r = rng.integers(0, n, 300)
    c = rng.integers(0, n, 300)
    keys = np.unique(r * n + c)
    r, c = keys // n, keys % n
    vals = np.arange(len(keys), dtype=np.int64)
    share = np.arange(len(keys)) % g.nprocs == g.rank
    A = gb.Matrix.from_coo(r[share], c[share], vals[share], nrows=n, ncols=n, distributed=True)
    row_lo, col_lo, lr, lc, lv = A.local_block()
    mine = g.entry_owner(n, n, r, c) == g.rank
    got = sorted(zip((lr + row_lo).tolist(), (lc + col_lo).tolist(), lv.tolist(), strict=True))
    want = sorted(zip(r[mine].tolist(), c[mine].tolist(), vals[mine].tolist(), strict=True))
    ok = got == want

    v = gb.Vector.from_coo(keys[share] % n, vals[share], size=n, distributed=True,
                           dup_op=gb.binary.plus)
    lo, local_idx, vv = v.local_piece()
    exp = np.zeros(n, dtype=np.int64)
    np.add.at(exp, keys % n, vals)
    has = np.zeros(n, dtype=bool)
    has[keys % n] = True
    hi = g.piece(n)[1]
    want = np.flatnonzero(has[lo:hi])
    ok = ok and lo == g.piece(n)[0] and np.array_equal(local_idx, want) and \
        np.array_equal(vv, exp[lo:hi][want])
    assert agreed(g, ok)
