"""The 2D layer's index work on a matrix: the entries of a region of its blocks, and the
assign of a region (GrB_assign, GxB_subassign) with its mask in any scope.

An index is given identically on every rank: an int (one position), a ``range`` (a slice of
step 1) or an int64 array, as ``surface.indexing.matrix_index`` makes it. Only the block rows an
index names are read; entries travel to the ranks owning their place in the output, and each
rank then writes inside its own block, with no other collective than the install's.
"""

from typing import NamedTuple

import numpy as np

from ..local import backends
from ..local.block import Block, BlockMask
from ..local.keys import merge_disjoint, unique_sorted
from . import redistribute as redist
from .matrix import DistMatrix

__all__ = ["EMPTY", "Source", "assign", "extracted", "is_one", "sub_entries", "to_owner_keys"]

# The value of ``del C[rows, cols]``: the region's entries go, nothing comes in.
EMPTY = object()


class Source(NamedTuple):
    """An assign's value that is a distributed object: a DistVector, or a DistMatrix read as
    itself or, ``transposed``, as its transpose (``C[I, J] << A.T``)."""

    dist: object
    transposed: bool


def is_one(ix):
    """Whether an axis index is one position (an int), not several."""
    return not hasattr(ix, "__len__")



def _at(ix, k):
    """The positions ``ix[k]`` (k an array)."""
    if is_one(ix):
        return np.full(len(k), ix, dtype=np.int64)
    return ix.start + k if isinstance(ix, range) else ix[k]



def _ranges(starts, counts):
    """The ranges [starts[t], starts[t] + counts[t]) laid end to end."""
    ends = np.cumsum(counts)
    return np.repeat(starts - ends + counts, counts) + np.arange(ends[-1] if len(ends) else 0)



def _hits(ix, positions):
    """Every pair (t, k) with ``ix[k] == positions[t]``, for an index array that is not
    increasing (``_line_positions`` places the others): it may name a position several times
    (``A[[0, 0], :]`` has row 0 twice) or not at all."""
    order = np.argsort(ix, kind="stable")
    ordered = ix[order]
    lo = np.searchsorted(ordered, positions, "left")
    counts = np.searchsorted(ordered, positions, "right") - lo
    return np.repeat(np.arange(len(positions)), counts), order[_ranges(lo, counts)]



def _local(ix, lo, n):
    """The positions in [lo, lo + n) that ``ix`` names, sorted, unique and made local."""
    if isinstance(ix, range):
        first, last = max(ix.start, lo), min(ix.stop, lo + n)
        return np.arange(first - lo, max(last, first) - lo, dtype=np.int64)
    ix = np.atleast_1d(ix)
    return unique_sorted(ix[(ix >= lo) & (ix < lo + n)]) - lo



def _member(positions, ix):
    """Whether each position is named by ``ix``."""
    if is_one(ix):
        return positions == ix
    if isinstance(ix, range):
        return (positions >= ix.start) & (positions < ix.stop)
    named = unique_sorted(ix)
    at = np.clip(np.searchsorted(named, positions), 0, max(len(named) - 1, 0))
    return named[at] == positions if len(named) else np.zeros(len(positions), dtype=bool)



def _walk(ptr, ind, major, minor, major_lo, minor_lo, n_major, *, places=False):
    """The entries of a compressed block (``ptr``, ``ind``) in the named majors (rows of a
    CSR) and minors: their positions in the block's arrays, global (major, minor), and, with
    ``places``, where each entry's major sits in the index ``major`` when that is known from
    its line alone (``_line_positions``; else None)."""
    local = _local(major, major_lo, n_major)
    start = ptr[local]
    counts = ptr[local + 1] - start
    at = _ranges(start, counts)
    entry_major = np.repeat(local + major_lo, counts)
    entry_minor = ind[at] + minor_lo
    lines = _line_positions(major, local + major_lo) if places else None
    k = None if lines is None else np.repeat(lines, counts)
    if minor is not None:
        keep = _member(entry_minor, minor)
        at, entry_major, entry_minor = at[keep], entry_major[keep], entry_minor[keep]
        k = None if k is None else k[keep]
    return at, entry_major, entry_minor, k


def _line_positions(ix, lines):
    """Where each of the global positions ``lines`` (all named by ``ix``) sits in the index
    ``ix``, when it names each position once, in increasing order (one position, a range, an
    increasing array); None for another index. ``_walk`` asks it per line, not per entry."""
    if is_one(ix):
        return np.zeros(len(lines), dtype=np.int64)
    if isinstance(ix, range):
        return lines - ix.start
    if len(ix) < 2 or (ix[1:] > ix[:-1]).all():
        return np.searchsorted(ix, lines)
    return None



def _region(block, r_lo, c_lo, rows, cols):
    """Positions, in the block's CSR, of its entries in rows x cols (None: all of an axis):
    only the named rows are read."""
    if rows is None:
        rows = range(r_lo, r_lo + block.nrows)
    return _walk(block.csr[0], block.cols, rows, cols, r_lo, c_lo, block.nrows)[0]



def sub_entries(a, rows, cols):
    """The entries of this rank's block of the DistMatrix ``a`` at (rows[k], cols[l]): their
    (k, l) and values. Only the block rows that ``rows`` names are read; for ``A[:, J]`` with
    few columns the block's columns (its CSC, made once and kept) are read instead."""
    b = a.block
    r_lo, c_lo = a.row_offset, a.col_offset
    k = l = None
    if isinstance(rows, range) and not isinstance(cols, range) and \
            len(_local(cols, c_lo, b.ncols)) < b.ncols // 4:
        ptr, ind, vals = b.csc
        at, entry_cols, entry_rows, l = _walk(ptr, ind, cols, rows, c_lo, r_lo, b.ncols,
                                              places=True)
        vals = vals[at]
    else:
        at, entry_rows, entry_cols, k = _walk(b.csr[0], b.cols, rows, cols, r_lo, c_lo,
                                              b.nrows, places=True)
        vals = b.values_at(at)
    # each entry's place in the other index, where its line did not give it
    if l is None:
        l = _line_positions(cols, entry_cols)
    if l is None:
        which, l = _hits(cols, entry_cols)
        entry_rows, vals, k = entry_rows[which], vals[which], None if k is None else k[which]
    if k is None:
        k = _line_positions(rows, entry_rows)
    if k is None:
        which, k = _hits(rows, entry_rows)
        l, vals = l[which], vals[which]
    return k, l, vals



def extracted(a, rows, cols):
    """Collective. This rank's block of ``A[rows, cols]`` (len(rows) x len(cols)): the entries
    each block holds there, sent to their owners; on one rank, the backend's own extract of
    the block where it has one (``backends.offered``)."""
    if a.grid.nprocs == 1:
        kernel = backends.offered("extract_block", a.block, rows, cols)
        if kernel is not None:
            return kernel(a.block, rows, cols)
    k, l, vals = sub_entries(a, rows, cols)
    return to_owner_keys(a.grid, len(rows), len(cols), k, l, vals)


def to_owner_keys(grid, nrows, ncols, rows, cols, vals):
    """Collective. Entries (global rows, cols) sent to their owners in an nrows x ncols matrix:
    the sorted local keys and values this rank receives. Where an entry's place is named
    twice (an assign index with repeats) one of them stays."""
    keys, vals = redist.to_blocks(grid, nrows, ncols, rows, cols, vals)
    if not np.all(keys[1:] >= keys[:-1]):  # an extract by increasing indices comes sorted
        order = np.argsort(keys, kind="stable")
        keys, vals = keys[order], vals[order]
    last = np.append(keys[1:] != keys[:-1], True) if len(keys) else np.zeros(0, dtype=bool)
    return keys[last], vals[last]



def _source_entries(value, rows, cols):
    """A ``Source``'s entries on this rank as global (k, l, values) in its own coordinates; a
    vector assigned to row ``rows`` lies along l, to a column along k."""
    d = value.dist
    if isinstance(d, DistMatrix):
        b = d.block
        k, l = b.rows + d.row_offset, b.cols + d.col_offset
        return (l, k, b.values) if value.transposed else (k, l, b.values)
    idx, vals = d.host_piece().entries()
    idx = idx + d.offset
    zero = np.zeros(len(idx), dtype=np.int64)
    return (zero, idx, vals) if is_one(rows) else (idx, zero, vals)



def _region_keys(block, r_lo, c_lo, rows, cols):
    """The local keys (row * ncols + col, ascending) of the block's entries in rows x cols,
    and their positions in its CSR: only the named rows are read."""
    at, r, q, _ = _walk(block.csr[0], block.cols, rows, cols, r_lo, c_lo, block.nrows)
    return (r - r_lo) * block.ncols + (q - c_lo), at



def _values_written(block, r_lo, c_lo, rows, cols, keys, value, dtype):
    """The block with ``value`` at ``keys`` (sorted, in rows x cols), when each is an entry:
    no entry comes or goes (``C(C.S)[rows, cols] << s``), so the structure is kept and shared
    and only the values are written. None when some key is not an entry."""
    region, at = _region_keys(block, r_lo, c_lo, rows, cols)
    pos = np.searchsorted(region, keys)
    if len(keys) and (pos[-1] >= len(region) or not np.array_equal(region[pos], keys)):
        return None
    values = np.array(block.values, dtype=dtype)  # a writable copy, an iso block's expanded
    values[at[pos]] = value
    return block.with_values(values)



def _flags(block, positions):
    flags = np.zeros(block.nvals, dtype=bool)
    flags[positions] = True
    return flags



def _replaced(block, positions, part):
    """The block with its entries at ``positions`` dropped and the entries of the block
    ``part`` put in: they lie where the dropped ones did, so a merge, not a sort."""
    keep = ~_flags(block, positions)
    merged = merge_disjoint(block.keys()[keep], block.values_at(np.flatnonzero(keep)),
                            part.keys(), part.values)
    return Block.from_keys(block.nrows, block.ncols, *merged)



def _scoped_mask(c, rows, cols, mask, scope):
    """Collective. A vector mask or a sub-mask (a ``ProductMask``) moved to C's coordinates,
    as a BlockMask of C's block: its allowed entries go to the ranks owning their place in C."""
    source = mask.target
    if isinstance(source, DistMatrix):
        k, l, vals = _source_entries(Source(source, False), rows, cols)
        r, q = _at(rows, k), _at(cols, l)
    else:
        idx, vals = source.host_piece().entries()
        idx = idx + source.offset
        # A row's mask runs along C's columns, a row sub-mask along J (columns alike).
        if is_one(rows):
            r, q = _at(rows, idx), idx if scope[1] is None else _at(cols, idx)
        else:
            r, q = idx if scope[0] is None else _at(rows, idx), _at(cols, idx)
    allowed = np.ones(len(vals), dtype=bool) if mask.structure else vals != 0
    keys, _ = to_owner_keys(c.grid, c.nrows, c.ncols, r[allowed], q[allowed],
                             np.ones(int(allowed.sum()), dtype=bool))
    block = c.block
    m = Block.from_keys(block.nrows, block.ncols, keys, np.ones(len(keys), dtype=bool))
    return BlockMask(m, True, mask.complement)


def assign(c, rows, cols, value, t_type, mask, scope, accum, replace):
    """Collective. GrB_assign ``C<mask>(rows, cols) = accum(C(rows, cols), value)`` into the
    DistMatrix ``c``: ``value`` is ``EMPTY``, a Python scalar of ``t_type`` or a ``Source``;
    ``mask`` a ``ProductMask`` or None, acting inside ``scope`` (row and column positions,
    None meaning all; the whole of C when ``scope`` is (None, None))."""
    block = c.block
    r_lo, c_lo = c.row_offset, c.col_offset
    dtype = c.dtype.np_type
    whole_c_mask = mask is not None and scope[0] is None and scope[1] is None
    # T: the value in C's coordinates, on the rank owning each place
    if value is EMPTY:
        t_keys, t_vals = np.empty(0, dtype=np.int64), np.empty(0, dtype=dtype)
    elif np.isscalar(value) and mask is None:
        # Every place of the region takes the value (or accum with it), and C is kept
        # elsewhere: left pending when the places are few (``Block.upserted``), else the
        # backend's assign of a scalar to a region.
        r_local = _local(rows, r_lo, block.nrows)
        c_local = _local(cols, c_lo, block.ncols)
        if block.can_pend(len(r_local) * len(c_local)):
            keys = (r_local[:, None] * block.ncols + c_local[None, :]).reshape(-1)
            return c.upsert(keys, np.full(len(keys), value, dtype=t_type.np_type), accum)
        return c.install(backends.run("assign_region", block, r_local, c_local, value,
                                      t_type.np_type, accum, dtype))
    elif np.isscalar(value):
        if whole_c_mask and not mask.complement:
            # Only the places the mask allows can change: T is the scalar there, not on the
            # whole region.
            m = mask.target.block
            t_keys, at = _region_keys(m, r_lo, c_lo, rows, cols)
            if not mask.structure:
                t_keys = t_keys[m.values_at(at) != 0]
        else:
            r_local = _local(rows, r_lo, block.nrows)
            c_local = _local(cols, c_lo, block.ncols)
            t_keys = (r_local[:, None] * block.ncols + c_local[None, :]).reshape(-1)
        t_vals = np.full(len(t_keys), value, dtype=t_type.np_type)
        if whole_c_mask and not mask.complement and not replace and accum is None:
            written = _values_written(block, r_lo, c_lo, rows, cols, t_keys, value, dtype)
            if written is not None:
                return c.install(written)
    else:
        k, l, vals = _source_entries(value, rows, cols)
        t_keys, t_vals = to_owner_keys(c.grid, c.nrows, c.ncols, _at(rows, k), _at(cols, l),
                                        vals)
    # Z = C with the region's entries replaced by T's, or combined with them by accum: only
    # the region is made, Z is C elsewhere
    region = _region(block, r_lo, c_lo, rows, cols)
    if accum is not None:
        t = Block.from_keys(block.nrows, block.ncols, t_keys, t_vals)
        z_region = backends.run("write_block", block.select(_flags(block, region)), t, None,
                                accum, False, dtype)
    else:
        z_region = Block.from_keys(block.nrows, block.ncols, t_keys,
                                   t_vals.astype(dtype, copy=False))
    if mask is None:
        return c.install(_replaced(block, region, z_region))
    if whole_c_mask and replace:
        return c.install(backends.run("write_block", block,
                                       _replaced(block, region, z_region), mask.block_mask(),
                                       None, True, dtype))
    if whole_c_mask:
        # Without replace C's mask acts only where Z differs from C: in the region.
        scope, m = (rows, cols), mask.block_mask()
    else:
        m = _scoped_mask(c, rows, cols, mask, scope)
    # Inside the scope C<M, replace> = Z; outside it C stays as it is.
    in_scope = _region(block, r_lo, c_lo, *scope)
    c_scope = block.select(_flags(block, in_scope))
    z_scope = _replaced(c_scope, _region(c_scope, r_lo, c_lo, rows, cols), z_region)
    written = backends.run("write_block", c_scope, z_scope, m, None, replace, dtype)
    return c.install(_replaced(block, in_scope, written))
