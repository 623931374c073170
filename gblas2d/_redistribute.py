"""Moving entries to their owners and fetching values from owners (world alltoallv).

Used where the destination of an entry is data, not arithmetic on the grid: building from each
rank's share of COO input, assign with a Vector, extract, gather and scatter by an index vector,
transposing a matrix, and the B rows of ``mxm``.
"""

import numpy as np

from ._kernels import run_starts

__all__ = ["fetch", "reduce_duplicates", "to_owners"]


def _split(owners, nprocs, *arrays):
    order = np.argsort(owners, kind="stable")
    bounds = np.searchsorted(owners[order], np.arange(nprocs + 1))
    return [[a[order][bounds[k]:bounds[k + 1]] for k in range(nprocs)] for a in arrays]


def to_owners(grid, owners, *arrays):
    """Collective. Send entry e of every array to rank ``owners[e]``; return the arrays this
    rank received, concatenated in source-rank order (order within a source kept)."""
    comm = grid.comm
    if comm.size == 1:
        return arrays if len(arrays) > 1 else arrays[0]
    out = []
    for parts in _split(np.asarray(owners, dtype=np.int64), comm.size, *arrays):
        received = comm.alltoallv([np.ascontiguousarray(p) for p in parts])
        out.append(np.concatenate(received))
    return tuple(out) if len(out) > 1 else out[0]


def fetch(grid, size, targets, lo, piece):
    """Collective. Look up global positions ``targets`` of a distributed vector, whose piece
    on this rank starts at ``lo``.

    Returns (found, vals) aligned with ``targets``. Each rank asks the owners for the positions
    it needs and answers the requests it gets: two alltoallv rounds.
    """
    targets = np.asarray(targets, dtype=np.int64)
    comm = grid.comm
    if comm.size == 1:
        return piece.lookup(targets - lo)
    owners = grid.owner(size, targets)
    order = np.argsort(owners, kind="stable")
    bounds = np.searchsorted(owners[order], np.arange(comm.size + 1))
    asks = [targets[order][bounds[k]:bounds[k + 1]] for k in range(comm.size)]
    answers = [piece.lookup(r - lo) for r in comm.alltoallv(asks)]
    answers_found = comm.alltoallv([found for found, _ in answers])
    answers_vals = comm.alltoallv([vals for _, vals in answers])
    found = np.empty(len(targets), dtype=bool)
    vals = np.empty(len(targets), dtype=piece.dtype)
    found[order] = np.concatenate(answers_found)
    vals[order] = np.concatenate(answers_vals)
    return found, vals


def reduce_duplicates(idx, vals, monoid):
    """Combine runs of equal sorted ``idx`` with ``monoid``; unique idx and values."""
    if len(idx) == 0:
        return idx, vals
    starts = run_starts(idx)
    if len(starts) == len(idx):
        return idx, vals
    return idx[starts], monoid.reduceat(vals, starts).astype(vals.dtype, copy=False)
