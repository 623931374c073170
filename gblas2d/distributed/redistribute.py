"""Moving entries to their owners and fetching values from owners (world alltoallv).

Used where the destination of an entry is data, not arithmetic on the grid: building from each
rank's share of COO input, assign with a Vector, extract, gather and scatter by an index vector,
transposing a matrix, and the B rows of ``mxm``.
"""

import numpy as np

from ..local.keys import block_keys, keys_fit, run_starts

__all__ = ["ask", "fetch", "reduce_duplicates", "to_blocks", "to_owners"]


# Up to this many owners, entries are grouped by one pass an owner, not by a sort.
_FEW_OWNERS = 8


def _by_owner(owners, nprocs):
    """The order that groups entries by owner (stable), and how many go to each owner."""
    if nprocs <= _FEW_OWNERS:
        # one pass an owner: 8M entries to 2 owners in 0.10 s, against the sort's 0.18 s
        parts = [np.flatnonzero(owners == k) for k in range(nprocs)]
        return np.concatenate(parts), np.array([len(p) for p in parts], dtype=np.int64)
    # numpy's stable sort of 16-bit integers is a radix sort: O(n), where int64 keys take a
    # merge sort, about twice the time on millions of entries.
    small = owners.astype(np.int16, copy=False) if nprocs < 2 ** 15 else owners
    order = np.argsort(small, kind="stable")
    return order, np.bincount(small, minlength=nprocs)


def to_owners(grid, owners, *arrays):
    """Collective. Send entry e of every array to rank ``owners[e]``; return the arrays this
    rank received, concatenated in source-rank order (order within a source kept)."""
    comm = grid.comm
    if comm.size == 1:
        return arrays if len(arrays) > 1 else arrays[0]
    order, counts = _by_owner(np.asarray(owners), comm.size)
    out = [comm.exchange(np.asarray(a)[order], counts)[0] for a in arrays]
    return tuple(out) if len(out) > 1 else out[0]


def to_blocks(grid, nrows, ncols, rows, cols, *vals):
    """Collective (one alltoallv an array). Send entries at global (``rows``, ``cols``) of an
    ``nrows`` x ``ncols`` matrix, with their values if given, to the ranks whose blocks hold
    them; return this rank's (keys, values...), unsorted, each key ``row * block ncols + col``
    in its block (``keys.block_keys``). One key travels per entry, made at the sender from the
    owner's block bounds; where a block has more than 2^63 positions, the key is no int64 and
    the entry's row and column in the block travel instead, the owner making the key."""
    if grid.nprocs == 1 and keys_fit(nrows, ncols):
        # one block, the whole matrix: an entry's key is its position, and nothing travels
        return (rows * ncols + cols, *vals)
    row_starts, col_starts = grid.row_block_starts(nrows), grid.col_block_starts(ncols)
    grid_row = grid.row_block_of(nrows, rows)
    grid_col = grid.col_block_of(ncols, cols)
    local_rows, local_cols = rows - row_starts[grid_row], cols - col_starts[grid_col]
    owners = grid_row * grid.ncols + grid_col
    if keys_fit(int(np.diff(row_starts).max()), int(np.diff(col_starts).max())):
        keys = local_rows * (col_starts[grid_col + 1] - col_starts[grid_col]) + local_cols
        got = to_owners(grid, owners, keys, *vals)
        return got if vals else (got,)
    got_rows, got_cols, *got_vals = to_owners(grid, owners, local_rows, local_cols, *vals)
    lo_r, hi_r = grid.row_block(nrows)
    lo_c, hi_c = grid.col_block(ncols)
    return (block_keys(got_rows, got_cols, hi_r - lo_r, hi_c - lo_c), *got_vals)


def fetch(grid, size, targets, lo, piece):
    """Collective. Look up global positions ``targets`` of a distributed vector, whose piece
    on this rank starts at ``lo``.

    Returns (found, vals) aligned with ``targets``. Each rank asks the owners for the positions
    it needs and answers the requests it gets: two alltoallv rounds. On one rank the lookup is
    local, where ``targets`` and ``piece`` are (a device's memory, both).
    """
    if grid.comm.size == 1:
        return piece.lookup(targets.astype(np.int64, copy=False) - lo)
    targets = np.asarray(targets, dtype=np.int64)
    return ask(grid, grid.owner(size, targets), targets, lambda asked: piece.lookup(asked - lo),
               piece.dtype)


def ask(grid, owners, questions, answer, dtype):
    """Collective. Send question e to rank ``owners[e]``, which answers all it got at once
    (``answer(asked)``: (found, values of ``dtype``) aligned with ``asked``); returns (found,
    values) aligned with ``questions``. Two alltoallv rounds."""
    comm = grid.comm
    order, counts = _by_owner(owners, comm.size)
    asked, asked_counts = comm.exchange(questions[order], counts)
    answer_found, answer_vals = answer(asked)
    found = np.empty(len(questions), dtype=bool)
    vals = np.empty(len(questions), dtype=dtype)
    found[order] = comm.exchange(answer_found, asked_counts)[0]
    vals[order] = comm.exchange(answer_vals, asked_counts)[0]
    return found, vals


def reduce_duplicates(idx, vals, monoid):
    """Combine runs of equal sorted ``idx`` with ``monoid``; unique idx and values."""
    if len(idx) == 0:
        return idx, vals
    starts = run_starts(idx)
    if len(starts) == len(idx):
        return idx, vals
    return idx[starts], monoid.reduceat(vals, starts).astype(vals.dtype, copy=False)
