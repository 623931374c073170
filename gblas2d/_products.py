"""The three collective steps of a matrix product: expand, local multiply, fold.

``y = A (+).(x) x`` (mxv, outputs are rows):
  1. expand: gather x's column block j at every rank of grid column j (permute + allgather on
     ``col_comm``);
  2. local: y_i^(j) = A_ij (+).(x) x_j, pushing from x's entries or pulling into unmasked rows;
  3. fold: reduce-scatter the partials of row block i along ``row_comm`` to the owners.
``vxm`` is the mirror: gather along ``row_comm``, fold along ``col_comm`` then send home.

A mask is pushed down before step 2 (its bitmap gathered over the output segment), so masked-out
outputs are never computed. The direction is chosen from allreduced edge counts (Beamer's rule:
push when the frontier's edges are fewer than the unmasked outputs' edges), so every rank makes
the same choice; ``direction=`` forces it and ``exchange=`` forces dense or sparse messages.
"""

import time
from contextlib import contextmanager

import numpy as np

from . import _exchange as ex
from . import _redistribute as redist
from . import backends
from ._block import BlockMask
from ._kernels import reduce_scattered
from ._piece import Piece, PieceMask
from .semirings import monoid

__all__ = ["trace", "mxv_compute", "mxm_compute"]

_tracers = []


@contextmanager
def trace():
    """Collect one dict per product (mxv, vxm, mxm) run inside the block.

    Each dict has the operation, the chosen direction, the frontier and output nvals, the edge
    counts behind the choice (None when ``direction=`` forced it), the formats that travelled
    and the bytes this rank received per group. The list is this rank's; the choices in it
    are the same on every rank.

    Examples
    --------
    >>> with trace() as events:
    ...     pass
    >>> events
    []
    """
    events = []
    _tracers.append(events)
    try:
        yield events
    finally:
        _tracers.remove(events)


def _emit(event):
    for events in _tracers:
        events.append(event)


def _count_bytes():
    from .comm import stats

    s = stats()
    return {g: s.bytes(g) for g in ("row", "col", "world")}


def _scipy_operand(semiring, a_dtype, x_dtype, x_first):
    """Which matrix scipy's compiled CSR product can use for this semiring, or None.

    plus_times multiplies by A's values; plus_first / plus_second that keep x's value (the
    PageRank and label-sum products) multiply by A's pattern. Integer types other than 64-bit
    keep the generic kernel, whose overflow follows SuiteSparse's.
    """
    op = semiring.binaryop
    if semiring.monoid.name != "plus" or op.index_aware:
        return None
    t = op.input_type(a_dtype, x_dtype)
    if op.name == "times" and t == a_dtype and t == x_dtype and t.np_type.kind in "fiu":
        return "values"
    keeps_x = op.name == ("first" if x_first else "second")
    if keeps_x and (t.np_type.kind == "f" or t.np_type.itemsize == 8 and t.np_type.kind in "iu"):
        return "pattern"
    return None


def mxv_compute(A, x, semiring, out_type, mask, opts, orient, x_first):
    """Collective. This rank's Piece of ``A (+).(x) x`` or ``x (+).(x) A``."""
    grid = A.grid
    block = A.block
    start = time.perf_counter()
    before = _count_bytes() if _tracers else None
    force = opts.get("exchange")
    if orient == "mxv":
        n_in, n_out, in_axis, out_axis = A.ncols, A.nrows, "col", "row"
        in_offset, out_offset = A.col_offset, A.row_offset
        in_ptr, out_ptr = block.csc_ptr, block.csr[0]
    else:
        n_in, n_out, in_axis, out_axis = A.nrows, A.ncols, "row", "col"
        in_offset, out_offset = A.row_offset, A.col_offset
        in_ptr, out_ptr = block.csr[0], block.csc_ptr
    in_len = len(in_ptr) - 1

    if grid.segment_is_local(in_axis):
        # x's piece is the whole input segment: no gather, and a dense bitmap is not rebuilt.
        x_seg, in_formats = x.piece.compact(), ["local"]
        x_idx = x_seg.entries()[0]
    else:
        local_idx, local_vals = x.piece.entries()
        _, x_idx, x_vals, in_formats = ex.gather_segment(
            grid, n_in, local_idx, local_vals, x.dtype.np_type, in_axis, force)
        x_seg = Piece.from_entries(in_len, x_idx, x_vals, operand=True)

    local_mask = None if mask is None else mask.local()
    direction = opts.get("direction")
    work = (None, None)
    push_work = int(in_ptr[-1]) if len(x_idx) == in_len else \
        int((in_ptr[x_idx + 1] - in_ptr[x_idx]).sum())
    if direction is None:
        if local_mask is None:
            pull_work = int(out_ptr[-1])
        else:
            pull_work = _pull_work(_piece_degrees(A, orient), local_mask, push_work)
        work = grid.comm.allreduce(np.array([push_work, pull_work], dtype=np.int64))
        direction = "push" if work[0] < work[1] else "pull"

    allowed = local_mask
    if local_mask is not None and not grid.segment_is_local(out_axis):
        # The output segment spans several pieces. A pull needs the mask there to skip the
        # rows it forbids: gather its packed bitmap. A push leaves it to the owners, which
        # apply it to what the fold brings (O(entries)), not O(n / R) bits a product.
        allowed = None
        if direction == "pull":
            bits = ex.gather_bitmap(grid, n_out, local_mask.bitmap(), out_axis)
            allowed = PieceMask(Piece.from_bitmap(bits, bits), True, False)

    backend = backends.for_product(direction, push_work, block, orient)
    operand = _scipy_operand(semiring, A.dtype, x.dtype, x_first) \
        if direction == "pull" and allowed is None and backend.SCIPY_DENSE_PULL else None
    if operand is not None:
        out_idx, out_vals = _pull_scipy(block, operand, x_seg.astype(out_type.np_type), orient)
    else:
        out_idx, out_vals = backend.spmv(
            block, x_seg, semiring, orient=orient, x_first=x_first, direction=direction,
            allowed=allowed, out_offset=out_offset, in_offset=in_offset)
    out_vals = out_vals.astype(out_type.np_type, copy=False)

    idx, vals, out_formats = ex.fold_segment(grid, n_out, out_idx, out_vals, semiring.monoid,
                                             out_type.np_type, out_axis, force)
    lo, hi = grid.piece(n_out)
    out = Piece.from_entries(hi - lo, idx, vals, out_type.np_type)
    if _tracers:
        after = _count_bytes()
        _emit({"op": orient, "semiring": semiring.name, "direction": direction,
               "frontier_nvals": x.nvals, "forced": work[0] is None,
               "push_edges": None if work[0] is None else int(work[0]),
               "pull_edges": None if work[1] is None else int(work[1]),
               "masked": mask is not None,
               "expand": sorted(set(in_formats)), "fold": sorted(set(out_formats)),
               "bytes": {g: after[g] - before[g] for g in after},
               "seconds": time.perf_counter() - start})
    return out


def _piece_degrees(A, orient):
    """Collective (once per block and orientation, then cached). The degree in the whole
    matrix of each output of this rank's piece: rows for mxv, columns for vxm."""
    block = A.block
    key = f"degrees_{orient}"
    if key not in block.derived:
        if orient == "mxv":
            n, axis, counts = A.nrows, "row", np.diff(block.csr[0])
        else:
            n, axis, counts = A.ncols, "col", np.diff(block.csc_ptr)
        idx = np.flatnonzero(counts)
        idx, vals, _ = ex.fold_segment(A.grid, n, idx, counts[idx], monoid.plus,
                                       np.dtype(np.int64), axis)
        lo, hi = A.grid.piece(n)
        degrees = np.zeros(hi - lo, dtype=np.int64)
        degrees[idx] = vals
        block.derived[key] = degrees, int(degrees.sum())
    return block.derived[key]


def _pull_work(piece_degrees, allowed, push_work):
    """This rank's share of the pull work: the degrees of the outputs of its piece that the
    mask allows.

    Under a complemented mask this is every degree less those of the masked-out outputs, which
    takes a pass over the mask's entries. When that pass would cost more than 8 times the push
    work, the push is cheap next to it and wins: report every edge instead of counting."""
    degrees, total = piece_degrees
    if allowed.complement and allowed.on.nvals > 8 * push_work:
        return total
    rows = allowed.on.entries()[0] if allowed.complement else allowed.positions()
    edges = int(degrees[rows].sum())
    return total - edges if allowed.complement else edges


def _pull_scipy(block, operand, x_seg, orient):
    """Pull with scipy's compiled CSR kernel (``operand``: see ``_scipy_operand``)."""
    if operand == "pattern":
        mat = block.scipy_pattern(orient, x_seg.dtype)
    else:
        mat = block.scipy_csr(orient)
    y = mat @ x_seg.dense_values()
    if x_seg.is_full:
        hit = np.diff(block.csr[0] if orient == "mxv" else block.csc_ptr) > 0
    else:
        # Structure, not values: a stored zero still makes its output present.
        hit = (block.scipy_pattern(orient) @ x_seg.bitmap().astype(np.int32)) > 0
    idx = np.flatnonzero(hit)
    return idx, y[idx]


def mxm_compute(A, B, semiring, out_type, mask, opts):
    """Collective. This rank's block of ``C = A (+).(x) B``: a Block, or (keys, values).

    B's rows that meet A's column block j are gathered at every rank of grid column j (sent to
    one rank of the column, then allgathered along ``col_comm``: O(nnz(B) / C) per rank, cheap
    when B is tall and skinny); each rank multiplies locally; partial rows of row block i go to
    their owners along ``row_comm`` and are merged with the monoid.
    """
    grid = A.grid
    start = time.perf_counter()
    before = _count_bytes() if _tracers else None
    nk = A.ncols
    if grid.nprocs > 1:
        b_rows, b_cols, b_vals = B.block.global_coo(B.row_offset, B.col_offset)
        dest = grid.col_position(grid.owner(nk, b_rows))
        got = redist.to_owners(grid, dest, b_rows, b_cols, b_vals)
        b_rows, b_cols, b_vals = (np.concatenate(grid.col_comm.allgatherv(a)) for a in got)

    if grid.nprocs == 1:
        # B's block is the whole of B, already CSR over A's columns.
        b_ptr, b_cols, b_vals = B.block.csr
    else:
        inner = b_rows - A.col_offset
        order = np.lexsort((b_cols, inner))
        inner, b_cols, b_vals = inner[order], b_cols[order], b_vals[order]
        b_ptr = np.zeros(A.block.ncols + 1, dtype=np.int64)
        np.cumsum(np.bincount(inner, minlength=A.block.ncols), out=b_ptr[1:])
    # With one grid column the local product is this rank's whole block of C: the mask goes
    # into it, and nothing is left to fold.
    local_mask = None
    if mask is not None and grid.ncols == 1:
        local_mask = BlockMask(mask.parent.block, mask.structure, mask.complement)
    product = backends.get().spgemm(
        A.block, (b_ptr, b_cols, b_vals, B.ncols), semiring, A.dtype, B.dtype,
        a_row_offset=A.row_offset, inner_offset=A.col_offset, mask=local_mask)
    vals = product.values.astype(out_type.np_type, copy=False)
    if grid.ncols == 1:
        result = product.with_values(vals)
    else:
        keys, vals = _fold_mxm(grid, A, B, semiring, product.rows, product.cols, vals)
        result = keys, vals.astype(out_type.np_type, copy=False)
    if _tracers:
        after = _count_bytes()
        _emit({"op": "mxm", "semiring": semiring.name, "direction": "push",
               "b_nvals": B.nvals, "bytes": {g: after[g] - before[g] for g in after},
               "seconds": time.perf_counter() - start})
    return result


def _fold_mxm(grid, A, B, semiring, rows, cols, vals):
    """Collective along ``row_comm``. Partial products to the owners of their columns, merged
    with the monoid there: this rank's block of C as sorted (keys, values)."""
    n_out_cols = B.ncols
    members = grid.col_block_of(n_out_cols, cols)
    col_lo, col_hi = grid.col_block(n_out_cols)
    parts = []
    for arr in (rows, cols, vals):
        order = np.argsort(members, kind="stable")
        bounds = np.searchsorted(members[order], np.arange(grid.ncols + 1))
        sorted_arr = arr[order]
        parts.append(np.concatenate(grid.row_comm.alltoallv(
            [sorted_arr[bounds[m]:bounds[m + 1]] for m in range(grid.ncols)])))
    rows, cols, vals = parts
    keys, vals = reduce_scattered(rows * (col_hi - col_lo) + (cols - col_lo), vals,
                                  semiring.monoid, A.block.nrows * (col_hi - col_lo))
    return keys, vals
