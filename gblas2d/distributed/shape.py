"""The 2D layer's shape work: a matrix resized or moved, the outer product of two vectors, and a
vector spread along a matrix's rows or columns. Each rank builds its own block from what the
grid row and grid column bring it.
"""

import numpy as np

from ..local import backends
from ..local.block import Block
from . import redistribute as redist
from .exchange import gather_segment

__all__ = ["outer_block", "resized_block", "spread_block"]


def outer_block(u, v, binop, out_type, force=None):
    """Collective (a gather along the grid row and one along the grid column). This rank's
    block of the outer product ``C(i, j) = u(i) op v(j)`` of the DistVectors ``u`` and ``v``:
    each block gathers only its rows' entries of u and its columns' of v."""
    grid = u.grid
    row_lo, rows, u_vals, _ = gather_segment(grid, u.size, *u.host_piece().entries(),
                                             u.dtype.np_type, "row", force)
    col_lo, cols, v_vals, _ = gather_segment(grid, v.size, *v.host_piece().entries(),
                                             v.dtype.np_type, "col", force)
    nrows = grid.row_block(u.size)[1] - row_lo
    ncols = grid.col_block(v.size)[1] - col_lo
    # Row r of the block holds every gathered entry of v when u has an entry at r.
    ptr = np.zeros(nrows + 1, dtype=np.int64)
    ptr[rows + 1] = len(cols)
    np.cumsum(ptr, out=ptr)
    x, y = np.repeat(u_vals, len(cols)), np.tile(v_vals, len(rows))
    if binop.index_aware:
        # u is a column (i, 0) and v a row (0, j), as python-graphblas's outer sees them.
        zeros = np.zeros(len(x), dtype=np.int64)
        products = binop.evaluate(x, y, np.repeat(rows + row_lo, len(cols)), zeros,
                                  zeros, np.tile(cols + col_lo, len(rows)))
    else:
        products = binop.evaluate(x, y)
    return Block(nrows, ncols, ptr, np.tile(cols, len(rows)),
                 products.astype(out_type.np_type, copy=False))


def resized_block(A, nrows, ncols, row_offset=0, col_offset=0):
    """Collective (one alltoallv). This rank's Block of the DistMatrix A resized to ``nrows``
    x ``ncols``: the entries inside the new shape, moved to their owners under it. With
    offsets, A(i, j) goes to (i + row_offset, j + col_offset) first (``reposition``)."""
    if A.grid.nprocs == 1 and row_offset == col_offset == 0:
        return _cropped(A.block, nrows, ncols)
    rows, cols, vals = A.block.global_coo(A.row_offset, A.col_offset)
    rows, cols = rows + row_offset, cols + col_offset
    keep = (rows >= 0) & (rows < nrows) & (cols >= 0) & (cols < ncols)
    keys, vals = redist.to_blocks(A.grid, nrows, ncols, rows[keep], cols[keep], vals[keep])
    order = np.argsort(keys)
    keys, vals = keys[order], vals[order]
    row_lo, row_hi = A.grid.row_block(nrows)
    col_lo, col_hi = A.grid.col_block(ncols)
    return Block.from_keys(row_hi - row_lo, col_hi - col_lo, keys, vals)


def _cropped(b, nrows, ncols):
    """The block b resized in place of the whole matrix (one rank): its first rows, cut to
    ``ncols`` columns, read from the CSR without sorting anything."""
    kept = min(nrows, b.nrows)
    if b.is_hyper:
        # the listed rows below ``kept``, and their entries
        k = int(np.searchsorted(b.hrows, kept))
        end = int(b.ptr[k])
        top = Block.compressed(nrows, ncols, b.hrows[:k], b.ptr[:k + 1], b.cols[:end],
                               b.values_at(np.arange(end)))
        return top if ncols >= b.ncols else top.select(top.cols < ncols)
    end = b.ptr[kept]
    ptr = np.concatenate([b.ptr[:kept + 1], np.full(nrows - kept, end, dtype=b.ptr.dtype)])
    top = Block(nrows, ncols, ptr, b.cols[:end], b.values_at(np.arange(end)))
    return top if ncols >= b.ncols else top.select(top.cols < ncols)


def spread_block(A, v, binop, kind, v_first, in_types, out_type, defaults, force=None):
    """Collective (a gather along the grid row for ``v_first``, else the grid column). This
    rank's block of ``A op v`` (C(i, j) = A(i, j) op v(j)) or, ``v_first``, ``v op A``
    (C(i, j) = v(i) op A(i, j)), ``kind`` "add", "mult" or "union", for the DistMatrix ``A``
    and the DistVector ``v``. An intersection looks v up at the block's entries alone; a
    union spreads v's entries over every row (column) of the block."""
    grid, b = A.grid, A.block
    _, idx, vals, _ = gather_segment(grid, v.size, *v.host_piece().entries(), v.dtype.np_type,
                                     "row" if v_first else "col", force)
    if kind == "mult":
        at = b.rows if v_first else b.cols
        pos = np.clip(np.searchsorted(idx, at), 0, max(len(idx) - 1, 0))
        found = idx[pos] == at if len(idx) else np.zeros(len(at), dtype=bool)
        spread = b.select(found).with_values(vals[pos[found]])
    elif v_first:
        # rows idx, each full: v(i) at every column of the block
        ptr = np.zeros(b.nrows + 1, dtype=np.int64)
        ptr[idx + 1] = b.ncols
        np.cumsum(ptr, out=ptr)
        spread = Block(b.nrows, b.ncols, ptr, np.tile(np.arange(b.ncols), len(idx)),
                       np.repeat(vals, b.ncols))
    else:
        spread = Block(b.nrows, b.ncols, np.arange(b.nrows + 1) * len(idx),
                       np.tile(idx, b.nrows), np.tile(vals, b.nrows))
    left, right = (spread, b) if v_first else (b, spread)
    return backends.run("ewise_block", left, right, binop, kind,
                        (in_types[0].np_type, in_types[1].np_type), out_type.np_type,
                        defaults)
