"""Moving entries to their owners and fetching values from owners (world alltoallv).

Used where the destination of an entry is data, not arithmetic on the grid: building from each
rank's share of COO input, assign with a Vector, extract, gather and scatter by an index vector,
transposing a matrix, and the B rows of ``mxm``.
"""

import numpy as np

from ..local.keys import block_keys, keys_fit, run_starts

__all__ = ["ask", "fetch", "own_blocks", "reduce_duplicates", "to_blocks", "to_owners"]


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
    the entry's row and column in the block travel instead, the owner making the key.

    Beside the input a rank holds an owner (one or two bytes) and a key per entry, then the
    keys it sends and those it receives: the owners and keys are made a chunk at a time and
    placed straight into the send buffer, grouped by owner."""
    if grid.nprocs == 1 and keys_fit(nrows, ncols):
        # one block, the whole matrix: an entry's key is its position, and nothing travels
        return (_positions(rows, cols, ncols), *vals)
    if not _block_keys_fit(grid, nrows, ncols):
        return _to_blocks_wide(grid, nrows, ncols, rows, cols, *vals)
    owners = np.empty(len(rows), dtype=_rank_type(grid.nprocs))
    keys = np.empty(len(rows), dtype=np.int64)
    for part, part_owners, part_keys in _located(grid, nrows, ncols, rows, cols):
        owners[part], keys[part] = part_owners, part_keys
    arrays = [keys, *vals]
    keys = None
    return tuple(_send_grouped(grid, owners, arrays))


def own_blocks(grid, nrows, ncols, rows, cols, *vals):
    """Local. Of entries given alike on every rank (a replicated ``from_coo``), those of this
    rank's block, as ``to_blocks`` returns them: (keys, values...), with no communication.
    Owners and keys are made a chunk at a time, so no array the size of the whole input is
    made."""
    if grid.nprocs == 1 and keys_fit(nrows, ncols):
        return (_positions(rows, cols, ncols), *vals)
    if not _block_keys_fit(grid, nrows, ncols):
        rows, cols = rows.astype(np.int64, copy=False), cols.astype(np.int64, copy=False)
        mine = grid.entry_owner(nrows, ncols, rows, cols) == grid.rank
        lo_r, hi_r = grid.row_block(nrows)
        lo_c, hi_c = grid.col_block(ncols)
        return (block_keys(rows[mine] - lo_r, cols[mine] - lo_c, hi_r - lo_r, hi_c - lo_c),
                *(v[mine] for v in vals))
    kept = [[] for _ in range(1 + len(vals))]
    for part, owners, keys in _located(grid, nrows, ncols, rows, cols):
        mine = owners == grid.rank
        kept[0].append(keys[mine])
        for taken, v in zip(kept[1:], vals, strict=True):
            taken.append(v[part][mine])
    dtypes = [np.int64, *(v.dtype for v in vals)]
    out = []
    while kept:
        # each array joined once its predecessor's pieces are freed
        pieces, dtype = kept.pop(0), dtypes.pop(0)
        out.append(np.concatenate(pieces) if pieces else np.empty(0, dtype))
        pieces = None
    return tuple(out)


# Entries are placed this many at a time: a chunk's arrays (its owners, keys and the order
# that groups them, 512 KiB each) are the routing's only temporaries beside the entries'
# own arrays, whatever the input's length.
_CHUNK = 1 << 16


def _chunks(n):
    return (slice(k, min(k + _CHUNK, n)) for k in range(0, n, _CHUNK))


def _rank_type(nprocs):
    """The smallest integer type that holds a rank: an owner per entry costs a byte or two."""
    return np.int8 if nprocs < 2 ** 7 else np.int16 if nprocs < 2 ** 15 else np.int32


def _positions(rows, cols, ncols):
    """The keys ``row * ncols + col`` of one block that is the whole matrix, int64 whatever
    the indices' type (int32 indices would wrap)."""
    keys = np.multiply(rows, ncols, dtype=np.int64)
    keys += cols
    return keys


def _block_keys_fit(grid, nrows, ncols):
    """Whether the keys of the largest block of an ``nrows`` x ``ncols`` matrix fit in int64."""
    row_starts, col_starts = grid.row_block_starts(nrows), grid.col_block_starts(ncols)
    return keys_fit(int(np.diff(row_starts).max()), int(np.diff(col_starts).max()))


def _located(grid, nrows, ncols, rows, cols):
    """For each chunk of the entries at global (``rows``, ``cols``): (its slice, the rank whose
    block holds each entry, the entry's key in that block), int64 arrays of the chunk. The
    blocks' keys must fit in int64 (``_block_keys_fit``)."""
    row_starts, col_starts = grid.row_block_starts(nrows), grid.col_block_starts(ncols)
    widths = np.diff(col_starts)
    for part in _chunks(len(rows)):
        r, c = rows[part], cols[part]
        grid_row, grid_col = grid.row_block_of(nrows, r), grid.col_block_of(ncols, c)
        # (row - row start) * width - col start + col: no step passes the key or -2^60
        keys = r - row_starts[grid_row]
        keys *= widths[grid_col]
        keys -= col_starts[grid_col]
        keys += c
        grid_row *= grid.ncols
        grid_row += grid_col
        yield part, grid_row, keys


def _send_grouped(grid, owners, arrays):
    """Collective (one alltoallv an array). Send entry e of each array of ``arrays`` (a list
    this empties, so that an array of its own is freed once its send buffer is made) to rank
    ``owners[e]``; return what this rank receives of each, in source-rank order (order within
    a source kept). Each send buffer is filled a chunk at a time, the chunk's entries of each
    owner copied to that owner's next free slots: no permutation of the whole input is
    made."""
    nprocs = grid.nprocs
    counts = np.zeros(nprocs, dtype=np.int64)
    for part in _chunks(len(owners)):
        counts += np.bincount(owners[part], minlength=nprocs)
    out = []
    while arrays:
        array = np.asarray(arrays.pop(0))
        send = np.empty(len(array), dtype=array.dtype)
        free = np.cumsum(counts) - counts
        for part in _chunks(len(owners)):
            chunk_owners = owners[part]
            order = np.argsort(chunk_owners, kind="stable")  # a radix sort of small integers
            here = np.bincount(chunk_owners, minlength=nprocs)
            grouped = array[part][order]
            at = 0
            for k in np.flatnonzero(here):
                send[free[k]:free[k] + here[k]] = grouped[at:at + here[k]]
                at += here[k]
            free += here
        array = None
        received, _ = grid.comm.exchange(send, counts)
        send = None
        out.append(received)
    return out


def _to_blocks_wide(grid, nrows, ncols, rows, cols, *vals):
    """``to_blocks`` where a block has more than 2^63 positions: the entries' rows and
    columns in their blocks travel, and the owner makes the keys (Python integers where they
    pass int64)."""
    rows, cols = rows.astype(np.int64, copy=False), cols.astype(np.int64, copy=False)
    row_starts, col_starts = grid.row_block_starts(nrows), grid.col_block_starts(ncols)
    grid_row = grid.row_block_of(nrows, rows)
    grid_col = grid.col_block_of(ncols, cols)
    local_rows, local_cols = rows - row_starts[grid_row], cols - col_starts[grid_col]
    owners = grid_row * grid.ncols + grid_col
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
