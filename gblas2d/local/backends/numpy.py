"""The numpy backend: the reference kernels, for every semiring and op (user-defined and
index-aware ones included), on numpy and scipy. Arrays in, arrays out, no communication.

A product ``y = B (+).(x) x`` over a block B is done either way:

* pull: each wanted output gathers over its own storage row (``out_ptr``/``out_ind``), keeping
  the entries whose input is present; cost = edges of the wanted outputs.
* push: each present input scatters along its storage row in the other orientation
  (``in_ptr``/``in_ind``), then products are reduced by output: into a dense scratch array with
  ``ufunc.at`` when the monoid has a ufunc and the products are many, else with one sort; cost =
  edges of the present inputs plus the reduction.

For ``mxv`` the outputs are the block's rows (pull reads CSR, push reads CSC); for ``vxm`` they
are its columns (pull reads CSC, push reads CSR). An unmasked plus_times/first/second pull
can go to scipy's compiled CSR product instead (``spmv_scipy``), when the plan says so.
"""

import functools

import numpy as np
from scipy.sparse import csr_array

from ...semirings import binary as builtin_binary
from ...semirings import folds_to_itself
from ...semirings import reduce_rows as reduce_rows_in_order
from ...semirings.dtypes import lookup_dtype
from ..block import Block, BlockMask
from ..keys import (
    ewise_sorted,
    expand_rows,
    locate,
    reduce_scattered,
    reduce_sorted,
    unique_sorted,
    write_sorted,
)
from ..piece import Piece
from ..piece import ewise as ewise_piece
from ..piece import write as write_piece
from . import compiled

__all__ = ["SCIPY_DENSE_PULL", "SMALL_PUSH", "accepts", "adopt", "ewise_block", "ewise_piece",
           "held_bytes", "scipy_operand", "select_values", "small_push_in_numpy", "spgemm",
           "spmv", "spmv_scipy", "transpose_block", "write_block", "write_piece"]

# An unmasked plus_times/first/second pull goes to scipy's compiled CSR product.
SCIPY_DENSE_PULL = True

# No call overhead to avoid: every push runs here.
SMALL_PUSH = 0


def small_push_in_numpy(block, orient):
    return True


def adopt(block):
    """Nothing to take over: numpy reads the block's arrays as they are."""


def held_bytes(block):
    """What this backend holds of ``block`` beyond its numpy arrays: nothing."""
    return 0


def accepts(kernel, *args, **kwargs):
    """Every kernel runs here, for any operands."""
    return True


def scipy_operand(semiring, a_dtype, x_dtype, x_first):
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


def spmv_scipy(block, x, semiring, *, orient, x_first, direction, allowed, out_offset,
               in_offset, out_dtype):
    """``spmv``'s unmasked pull by scipy's compiled CSR product, for the semirings that
    ``scipy_operand`` names: the same arguments and result."""
    operand = scipy_operand(semiring, lookup_dtype(block.dtype), lookup_dtype(x.dtype),
                            x_first)
    x_seg = x.astype(out_dtype)
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
    return Piece.listed(len(hit), idx, y[idx])


@functools.lru_cache(maxsize=64)
def _ones_once(semiring):
    """Whether every product is one (the builtin ``pair``) and repeats of one fold to one
    (remembered by semiring: a BFS level's small push asks once a level)."""
    op = semiring.binaryop
    return op.func is builtin_binary.pair.func and folds_to_itself(semiring.monoid)


def _multiply(semiring, a_vals, x_vals, out_g, in_g, x_first):
    """Products a (x) x in the right operand order, with positional indices when needed.

    ``out_g``/``in_g`` are callables giving global output and input indices per product
    (built only for index-aware ops). For mxv the first operand is A(out, in) and the second
    x(in) at (in, 0); for vxm the first is x(in) at (0, in) and the second A(in, out).
    """
    op = semiring.binaryop
    if not op.index_aware:
        return op.evaluate(x_vals, a_vals) if x_first else op.evaluate(a_vals, x_vals)
    out_i, in_i = out_g(), in_g()
    zero = np.zeros_like(in_i)
    if x_first:
        return op.evaluate(x_vals, a_vals, zero, in_i, in_i, out_i)
    return op.evaluate(a_vals, x_vals, out_i, in_i, in_i, zero)


def spmv(block, x, semiring, *, orient, x_first, direction, allowed, out_offset, in_offset,
         out_dtype):
    """Local masked ``y = B (+).(x) x`` for one block; returns a Piece over the block's
    outputs (their sorted positions and values, as a list whatever their density).

    Parameters
    ----------
    block : _block.Block
    x : Piece of the input over the block's input dimension (block-relative positions)
    orient : "mxv" (outputs are rows) or "vxm" (outputs are columns)
    x_first : whether x is the first operand of the multiply (vxm, and ``A.T.mxv`` is not)
    direction : "push" or "pull"
    allowed : PieceMask over the block's outputs, or None for all
    out_offset, in_offset : global index of the block's first output / input (positional ops)
    out_dtype : the numpy type of the values returned
    """
    n_out = block.nrows if orient == "mxv" else block.ncols
    return Piece.listed(n_out, *_spmv(block, x, semiring, orient, x_first, direction, allowed,
                                out_offset, in_offset, out_dtype, n_out))


def _spmv(block, x, semiring, orient, x_first, direction, allowed, out_offset, in_offset,
          out_dtype, n_out):
    """``spmv``'s sorted (out positions, values)."""
    monoid = semiring.monoid
    if direction == "pull":
        # Pull reads the storage by output (by rows for mxv, by columns for vxm), push the
        # other one. A hypersparse storage lists its outputs (``ids``); a plain one has them
        # all, in order.
        ids, out_ptr, out_ind, out_val = block.by_rows() if orient == "mxv" else \
            block.by_cols()
        if allowed is None:
            counts = np.diff(out_ptr)
            out = np.repeat(np.arange(len(counts), dtype=np.int64) if ids is None else ids,
                            counts)
        if allowed is None and x.is_full:
            # Every input present, every output wanted: the storage arrays are the products'
            # operands as they stand, no positions to gather or filter.
            x_dense = x.dense_values()
            prod = _multiply(semiring, out_val, x_dense[out_ind], lambda: out + out_offset,
                             lambda: out_ind + in_offset, x_first)
            starts = out_ptr[:-1][counts > 0]
            return out[starts], monoid.reduceat(prod, starts).astype(out_dtype, copy=False)
        if allowed is None:
            pos = np.arange(len(out_ind), dtype=np.int64)
        else:
            if ids is None:
                rows = allowed.positions()
                slots = rows
            else:
                # The outputs that have entries, less those the mask forbids: O(entries),
                # where the allowed positions of a complemented mask are O(outputs).
                slots = np.flatnonzero(allowed.allows(ids))
                rows = ids[slots]
            pos, owner = expand_rows(out_ptr, slots)
            out = rows[owner]
        inp = out_ind[pos]
        keep, x_vals = x.lookup(inp)
        pos, out, inp, x_vals = pos[keep], out[keep], inp[keep], x_vals[keep]
        prod = _multiply(semiring, out_val[pos], x_vals, lambda: out + out_offset,
                         lambda: inp + in_offset, x_first)
        idx, vals = reduce_sorted(out, prod, monoid)
        return idx, vals.astype(out_dtype, copy=False)
    ids, in_ptr, in_ind, in_val = block.by_cols() if orient == "mxv" else block.by_rows()
    x_idx, x_vals = x.entries()
    slots, there = locate(ids, x_idx)
    if _ones_once(semiring):
        # Every product is one and repeats fold to one (BFS's any_pair): the outputs are the
        # distinct positions reached, with no products made or reduced.
        if block.nvals >= compiled.MIN_ENTRIES and compiled.ready():
            idx = compiled.reached(in_ptr, in_ind, slots, allowed)
        else:
            out = in_ind[expand_rows(in_ptr, slots, owners=False)[0]]
            if allowed is not None:
                out = out[allowed.allows(out)]
            idx = unique_sorted(out)
        return idx, np.ones(len(idx), dtype=out_dtype)
    if there is not None:
        x_idx, x_vals = x_idx[there], x_vals[there]
    pos, owner = expand_rows(in_ptr, slots)
    out = in_ind[pos]
    if allowed is not None:
        keep = allowed.allows(out)
        pos, owner, out = pos[keep], owner[keep], out[keep]
    inp = x_idx[owner]
    prod = _multiply(semiring, in_val[pos], x_vals[owner], lambda: out + out_offset,
                     lambda: inp + in_offset, x_first)
    idx, vals = reduce_scattered(out, prod, monoid, n_out)
    return idx, vals.astype(out_dtype, copy=False)


def _spgemm_csr(a_ptr, a_ind, a_val, b_ptr, b_ind, b_val, semiring, *, a_row_offset, inner_offset):
    """Local ``C = A (+).(x) B`` with A in CSR (rows x inner) and B in CSR (inner x cols).

    Returns (row, col, value) of C sorted by (row, col), B's column indices kept as given.
    """
    a_row = np.repeat(np.arange(len(a_ptr) - 1, dtype=np.int64), np.diff(a_ptr))
    pos_b, owner = expand_rows(b_ptr, a_ind)
    rows = a_row[owner]
    cols = b_ind[pos_b]
    op = semiring.binaryop
    if op.index_aware:
        inner = a_ind[owner] + inner_offset
        prod = op.evaluate(a_val[owner], b_val[pos_b], rows + a_row_offset, inner, inner, cols)
    else:
        prod = op.evaluate(a_val[owner], b_val[pos_b])
    ncols = int(cols.max()) + 1 if len(cols) else 1
    keys, vals = reduce_scattered(rows * ncols + cols, prod, semiring.monoid,
                                  (len(a_ptr) - 1) * ncols)
    return keys // ncols, keys % ncols, vals


def spgemm(a, b, semiring, a_dtype, b_dtype, *, a_row_offset, inner_offset, mask=None,
           b_block=None):
    """Local ``C = A (+).(x) B`` as a Block: A a block, B given as CSR ``(ptr, cols, values,
    ncols)`` over A's columns. scipy's compiled product for plus_times/first/second, the
    generic kernel otherwise. ``mask`` is not used here: the caller applies it."""
    a_ptr, a_ind, a_val = a.csr
    b_ptr, b_ind, b_val, b_ncols = b
    fast = _spgemm_scipy(a_ptr, a_ind, a_val, b_ptr, b_ind, b_val, semiring, a_dtype, b_dtype)
    rows, cols, vals = fast or _spgemm_csr(a_ptr, a_ind, a_val, b_ptr, b_ind, b_val, semiring,
                                           a_row_offset=a_row_offset,
                                           inner_offset=inner_offset)
    return Block.from_coo(a.nrows, b_ncols, rows, cols, vals)


def _spgemm_scipy(a_ptr, a_ind, a_val, b_ptr, b_ind, b_val, semiring, a_dtype, b_dtype):
    """``_spgemm_csr`` by scipy's compiled CSR product for plus_times, plus_first and plus_second
    (the batched BFS-counting, betweenness and label-counting products), or None.

    scipy drops sums that cancel to zero, which GraphBLAS keeps, so the structure comes from a
    second product of the patterns (counts, which cannot cancel).
    """
    op = semiring.binaryop
    if semiring.monoid.name != "plus" or op.index_aware or \
            op.name not in ("times", "first", "second"):
        return None
    t = op.input_type(a_dtype, b_dtype).np_type
    if t.kind != "f" and not (t.kind in "iu" and t.itemsize == 8):
        return None
    nrows, ninner = len(a_ptr) - 1, len(b_ptr) - 1
    ncols = int(b_ind.max()) + 1 if len(b_ind) else 1
    one_a, one_b = np.ones(len(a_ind), np.float64), np.ones(len(b_ind), np.float64)
    av = a_val.astype(t, copy=False) if op.name != "second" else one_a.astype(t)
    bv = b_val.astype(t, copy=False) if op.name != "first" else one_b.astype(t)

    def product(x, y):
        C = (csr_array((x, a_ind, a_ptr), shape=(nrows, ninner)) @
             csr_array((y, b_ind, b_ptr), shape=(ninner, ncols))).tocsr()
        C.sort_indices()
        return np.repeat(np.arange(nrows, dtype=np.int64), np.diff(C.indptr)), \
            C.indices.astype(np.int64), C.data

    rows, cols, _ = product(one_a, one_b)
    v_rows, v_cols, v_vals = product(av, bv)
    vals = np.zeros(len(rows), dtype=t)
    vals[np.searchsorted(rows * ncols + cols, v_rows * ncols + v_cols)] = v_vals
    return rows, cols, vals


def reduce_rows(block, monoid, out_dtype, *, bitmap=False):
    """Each row with entries and its fold by ``monoid``, in SuiteSparse's one-thread order
    (``semirings.reduce_rows``; ``bitmap``: python-graphblas would hold the matrix as a
    bitmap)."""
    idx, vals = reduce_rows_in_order(block.rows, block.values, monoid, bitmap=bitmap)
    return idx, vals.astype(out_dtype, copy=False)


def reduce_block(block, monoid, lanes, stop):
    """The fold of the block's values by ``monoid`` (None without any), in SuiteSparse's
    lanes where ``lanes`` says so (``OrderedMonoid.in_lanes``), read only as far as ``stop``
    needs."""
    return block.folded(monoid.in_lanes if lanes else monoid.reduce, stop)


def reduce_cols(block, monoid, out_dtype):
    """Each column with entries and its fold by ``monoid``, down the rows, from the storage
    by columns."""
    ids, ptr, _, vals = block.by_cols()
    counts = np.diff(ptr)
    cols = np.repeat(np.arange(len(counts), dtype=np.int64) if ids is None else ids, counts)
    idx, vals = reduce_sorted(cols, vals, monoid)
    return idx, vals.astype(out_dtype, copy=False)


def write_block(c, t, mask, accum, replace, dtype):
    """GraphBLAS's write ``C<M, replace> = accum(C, T)`` (or ``= T``) on blocks: the new
    Block (``keys.write_sorted``). ``mask`` is a ``BlockMask`` or None."""
    keys, vals = write_sorted(c.keys(), c.values, t.keys(), t.values,
                              None if mask is None else mask.allows, accum, replace, dtype)
    return Block.from_keys(c.nrows, c.ncols, keys, vals)


def assign_region(block, rows, cols, value, value_type, accum, dtype):
    """``C(rows, cols) = accum(C(rows, cols), s)``: the scalar ``value`` of ``value_type`` at
    every place of the sorted unique block-local ``rows`` x ``cols``, C kept elsewhere; a new
    Block of ``dtype``."""
    keys = (rows[:, None] * block.ncols + cols[None, :]).reshape(-1)
    return _scalar_at(block, keys, value, value_type, accum, dtype)


def assign_masked(block, mask, value, value_type, accum, dtype):
    """``C<M> = accum(C, s)``: the scalar ``value`` of ``value_type`` at every position the
    plain ``BlockMask`` allows, C kept elsewhere; a new Block of ``dtype``."""
    return _scalar_at(block, mask.keys(), value, value_type, accum, dtype)


def _scalar_at(block, keys, value, value_type, accum, dtype):
    """``C<T.S> = accum(C, T)`` for T the scalar at the sorted unique ``keys``."""
    t = Block.from_keys(block.nrows, block.ncols, keys,
                        np.full(len(keys), value, dtype=value_type))
    return write_block(block, t, BlockMask(t, True, False), accum, False, dtype)


def ewise_block(a, b, binop, kind, in_types, out_type, defaults):
    """Element-wise op of two blocks of the same shape: sorted (keys, values).

    ``kind`` is "mult" (intersection), "add" (union, a lone value kept) or "union" (union, a
    lone value combined with the other side's default); ``in_types`` are the numpy types the
    operands are cast to (``keys.ewise_sorted``).
    """
    return ewise_sorted(a.keys(), a.values.astype(in_types[0], copy=False), b.keys(),
                        b.values.astype(in_types[1], copy=False), binop, kind, out_type,
                        defaults)


def select_values(block, op, thunk):
    """The block's entries whose value passes the select ``op`` (one that reads no
    positions) with ``thunk``."""
    return block.select(op.evaluate(block.values, None, None, thunk).astype(bool, copy=False))


def select_positions(block, op, thunk):
    """The block's entries whose block-local position passes the builtin position test
    ``op`` with ``thunk`` (moved to block-local positions by the caller)."""
    keep = op.evaluate(block.values, block.rows, block.cols, thunk)
    return block.select(np.asarray(keep).astype(bool, copy=False))


def transpose_block(block):
    """The transpose of a whole-matrix block: its storage by columns read as one by rows
    (arrays shared with it, which the block keeps)."""
    return Block.compressed(block.ncols, block.nrows, *block.by_cols())
