"""Indexing a Matrix: python-graphblas's index forms, the extract ``A[rows, cols]`` and the
assign ``C(mask)[rows, cols] << value`` with its row, column and sub-mask forms (GrB_extract,
GrB_assign, GxB_subassign).

Indices are given identically on every rank, as the caller's Python objects. An extract reads
only the block rows its index names and sends each entry found to the rank that owns its place
in the result. An assign sends the value's entries (or, for a scalar, computes them) to the
ranks that own their place in C; each rank then writes inside its own block, with no other
collective than the install's.

The four assign forms differ only in where the mask applies (its *scope*) and in the
coordinates it is given in:

================================  =========================  ==============================
form                              mask shape                 scope (where replace acts)
================================  =========================  ==============================
``C(M)[I, J] << B``               C's                        all of C
``C[I, J](M) << B`` (subassign)   ``(len(I), len(J))``       the region I x J
``C(m)[i, J] << v`` (row assign)  ``C.ncols``                row i
``C[i, J](m) << v``               ``len(J)``                 the region {i} x J
================================  =========================  ==============================

(and likewise for columns). Inside the region, C's entries become the value's (combined with
them by ``accum`` when given); outside the region C is unchanged until the mask is applied.
"""

import numpy as np

from ..distributed import redistribute as redist
from ..exceptions import DimensionMismatch
from ..local import backends
from ..local.block import Block, BlockMask
from ..local.keys import merge_disjoint, unique_sorted
from ..local.piece import Piece
from .expr import MatrixExpression, VectorExpression, check_domain
from .inputs import axis_index, scalar_dtype, type_name
from .vector import Vector

__all__ = ["EMPTY", "assign", "extract", "matrix_index"]


def matrix_index(index, shape):
    """(rows, cols) of a Matrix index ``A[rows, cols]``: each an int (one position), a
    ``range`` (a slice of step 1, kept as one so that ``:`` costs nothing) or an int64 array."""
    if not isinstance(index, tuple) or len(index) != 2:
        raise TypeError("Index for Matrix must be a 2-tuple: A[i, j], A[rows, cols], A[i, :]")
    return (axis_index(index[0], shape[0], ranges=True),
            axis_index(index[1], shape[1], ranges=True))


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
    """Every pair (t, k) with ``ix[k] == positions[t]``: an index may name a position several
    times (``A[[0, 0], :]`` has row 0 twice) or not at all."""
    if isinstance(ix, range):
        t = np.flatnonzero((positions >= ix.start) & (positions < ix.stop))
        return t, positions[t] - ix.start
    ix = np.atleast_1d(ix)
    if len(ix) > 1 and np.all(ix[1:] > ix[:-1]):
        # increasing, so each position is named once at most: one search, no sort
        at = np.minimum(np.searchsorted(ix, positions), len(ix) - 1)
        t = np.flatnonzero(ix[at] == positions)
        return t, at[t]
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
    mine = ix[(ix >= lo) & (ix < lo + n)]
    increasing = len(mine) < 2 or np.all(mine[1:] > mine[:-1])
    return (mine if increasing else unique_sorted(mine)) - lo


def _member(positions, ix):
    """Whether each position is named by ``ix``."""
    if is_one(ix):
        return positions == ix
    if isinstance(ix, range):
        return (positions >= ix.start) & (positions < ix.stop)
    named = unique_sorted(ix)
    at = np.clip(np.searchsorted(named, positions), 0, max(len(named) - 1, 0))
    return named[at] == positions if len(named) else np.zeros(len(positions), dtype=bool)


def _walk(ptr, ind, major, minor, major_lo, minor_lo, n_major):
    """The entries of a compressed block (``ptr``, ``ind``) in the named majors (rows of a
    CSR) and minors: their positions in the block's arrays and global (major, minor)."""
    local = _local(major, major_lo, n_major)
    start = ptr[local]
    counts = ptr[local + 1] - start
    at = _ranges(start, counts)
    entry_major = np.repeat(local + major_lo, counts)
    entry_minor = ind[at] + minor_lo
    if minor is not None:
        keep = _member(entry_minor, minor)
        at, entry_major, entry_minor = at[keep], entry_major[keep], entry_minor[keep]
    return at, entry_major, entry_minor


def _region(block, r_lo, c_lo, rows, cols):
    """Positions, in the block's CSR, of its entries in rows x cols (None: all of an axis):
    only the named rows are read."""
    if rows is None:
        rows = range(r_lo, r_lo + block.nrows)
    return _walk(block.csr[0], block.cols, rows, cols, r_lo, c_lo, block.nrows)[0]


def _sub_entries(a, rows, cols):
    """The entries of this rank's block of ``a`` at (rows[k], cols[l]): their (k, l) and
    values. Only the block rows that ``rows`` names are read; for ``A[:, J]`` with few columns
    the block's columns (its CSC, made once and kept) are read instead."""
    b = a.block
    r_lo, c_lo = a.row_offset, a.col_offset
    if isinstance(rows, range) and not isinstance(cols, range) and \
            len(_local(cols, c_lo, b.ncols)) < b.ncols // 4:
        ptr, ind, vals = b.csc
        at, entry_cols, entry_rows = _walk(ptr, ind, cols, rows, c_lo, r_lo, b.ncols)
        vals = vals[at]
    else:
        at, entry_rows, entry_cols = _walk(b.csr[0], b.cols, rows, cols, r_lo, c_lo, b.nrows)
        vals = b.values_at(at)
    which, l = _hits(np.atleast_1d(cols) if is_one(cols) else cols, entry_cols)
    entry_rows, vals = entry_rows[which], vals[which]
    which, k = _hits(np.atleast_1d(rows) if is_one(rows) else rows, entry_rows)
    return k, l[which], vals[which]


def _to_owner_keys(grid, nrows, ncols, rows, cols, vals):
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
    """A Matrix, ``A.T`` or Vector value's entries on this rank as global (k, l, values) in
    its own coordinates; a Vector assigned to row ``rows`` lies along l, to a column along k."""
    if hasattr(value, "local_block"):
        b = value.block
        return b.rows + value.row_offset, b.cols + value.col_offset, b.values
    if hasattr(value, "local_piece"):
        idx, vals = value.host_piece().entries()
        idx = idx + value.offset
        zero = np.zeros(len(idx), dtype=np.int64)
        return (zero, idx, vals) if is_one(rows) else (idx, zero, vals)
    k, l, vals = _source_entries(value.T, rows, cols)
    return l, k, vals


# ---- extract ----
def extract(a, rows, cols, *, transposed=False):
    """``A[rows, cols]`` (or, with ``transposed``, ``A.T[cols, rows]``) as an expression: a
    Matrix for two position arrays, a Vector when one side is a single position."""
    grid = a.grid
    if not is_one(rows) and not is_one(cols):
        m, n = (len(cols), len(rows)) if transposed else (len(rows), len(cols))

        def compute(mask, opts):
            k, l, vals = _sub_entries(a, rows, cols)
            if transposed:
                k, l = l, k
            return _to_owner_keys(grid, m, n, k, l, vals)

        return MatrixExpression("extract", (a, rows, cols), a.dtype, m, n, compute, grid)
    size = len(rows) if is_one(cols) else len(cols)

    def compute_vector(mask, opts):
        k, l, vals = _sub_entries(a, rows, cols)
        positions = k if is_one(cols) else l
        idx, vals = redist.to_owners(grid, grid.owner(size, positions), positions, vals)
        lo, hi = grid.piece(size)
        if not np.all(idx[1:] >= idx[:-1]):
            order = np.argsort(idx, kind="stable")
            idx, vals = idx[order], vals[order]
        return Piece.from_entries(hi - lo, idx - lo, vals, a.dtype.np_type)

    return VectorExpression("extract", (a, rows, cols), a.dtype, size, compute_vector, grid)


# ---- assign ----
# The value of ``del C[rows, cols]``: the region's entries go, nothing comes in.
EMPTY = object()


def _check_value(c, rows, cols, value):
    """The value made ready (a Matrix, ``A.T``, a Vector or a Python scalar) and its type,
    or the python-graphblas error for its kind and shape."""
    if value is EMPTY:
        return value, c.dtype
    if hasattr(value, "_as_expression"):
        value = value._as_expression()
    shape = tuple(len(x) for x in (rows, cols) if not is_one(x))
    if hasattr(value, "compute"):
        value = value.new()
    elif isinstance(value, (list, tuple, np.ndarray)):
        value = _from_dense(c, value, shape, rows, cols)
    if hasattr(value, "nrows") or hasattr(value, "size"):
        got = value.shape if hasattr(value, "nrows") else (value.size,)
        if len(got) != len(shape):
            want = {0: "a scalar", 1: "a scalar or Vector", 2: "a scalar or Matrix"}[len(shape)]
            raise TypeError(f"Bad type for argument `value`: assigning to "
                            f"C{_show(rows, cols)} takes {want}, got {type_name(value)}")
        if got != shape:
            raise DimensionMismatch(f"value shape (={got}) must equal the shape of the "
                                    f"indexed region (={shape})")
        return value, value.dtype
    value = getattr(value, "value", value)
    if value is None:
        return EMPTY, c.dtype  # an empty Scalar: the region's entries go (unless accum)
    if not np.isscalar(value) or isinstance(value, (str, bytes)):
        raise TypeError(f"Bad type for argument `value`: cannot assign a "
                        f"{type_name(value)} to C{_show(rows, cols)}")
    return value, scalar_dtype(value)


def _from_dense(c, values, shape, rows, cols):
    """Collective. A list or array assigned to a region of ``shape``, as a Matrix or Vector."""
    if not shape:
        raise TypeError(f"Bad type for argument `value`: a list or array cannot be assigned "
                        f"to one element C{_show(rows, cols)}")
    array = np.asarray(values)
    if array.shape != shape:
        raise ValueError(f"shape mismatch: value array of shape {array.shape} could not be "
                         f"broadcast to indexing result of shape {shape}")
    if array.dtype == object:
        raise TypeError("Bad type for argument `value`: an array of Python objects")
    return (type(c) if array.ndim == 2 else Vector).from_dense(array, grid=c.grid)


def _show(rows, cols):
    return "[" + ", ".join("i" if is_one(x) else "I" for x in (rows, cols)) + "]"


def _check_mask(c, rows, cols, mask, submask):
    """The scope of the mask (row and column positions, None meaning all), or the error."""
    if mask is None:
        return None
    vector_mask = hasattr(mask.parent, "size") and not hasattr(mask.parent, "nrows")
    one = is_one(rows) or is_one(cols)
    if submask:
        want = tuple(len(x) for x in (rows, cols) if not is_one(x))
        if vector_mask and len(want) != 1:
            raise TypeError(f"Unable to use Vector mask on "
                            f"{'Matrix' if want else 'single element'} assignment to a Matrix")
        if not want:
            raise TypeError("Single element assign does not accept a submask")
        if vector_mask != (len(want) == 1):
            raise TypeError("Indices for subassign imply Vector submask, but got Matrix mask "
                            "instead")
        if mask.parent.shape != want:
            raise DimensionMismatch(f"Mask.shape (={mask.parent.shape}) must equal the shape "
                                    f"of the indexed region (={want})")
        return rows, cols
    if not vector_mask:
        return None, None
    if not one or (is_one(rows) and is_one(cols)):
        raise TypeError("A Vector mask goes with a row or column assign, C(m)[i, J] << v")
    if is_one(rows):
        if mask.parent.size != c.ncols:
            raise DimensionMismatch(f"Mask.size (={mask.parent.size}) must equal "
                                    f"Matrix.ncols (={c.ncols})")
        return rows, None
    if mask.parent.size != c.nrows:
        raise DimensionMismatch(f"Mask.size (={mask.parent.size}) must equal "
                                f"Matrix.nrows (={c.nrows})")
    return None, cols


def assign(c, index, value, mask, accum, replace, *, submask=False):
    """Collective. ``C(mask)[rows, cols] << value`` (or, with ``submask``, ``C[rows,
    cols](mask) << value``) with ``accum`` and ``replace``, GrB_assign's semantics."""
    rows, cols = matrix_index(index, c.shape)
    value, t_type = _check_value(c, rows, cols, value)
    scope = _check_mask(c, rows, cols, mask, submask)
    if accum is not None:
        check_domain(accum, c.dtype, t_type)
    block = c.block
    r_lo, c_lo = c.row_offset, c.col_offset
    dtype = c.dtype.np_type
    whole_c_mask = mask is not None and scope[0] is None and scope[1] is None
    # T: the value in C's coordinates, on the rank owning each place
    if value is EMPTY:
        t_keys, t_vals = np.empty(0, dtype=np.int64), np.empty(0, dtype=dtype)
    elif np.isscalar(value):
        if whole_c_mask and not mask.complement:
            # Only the places the mask allows can change: T is the scalar there, not on the
            # whole region.
            m = mask.parent.block
            t_keys, at = _region_keys(m, r_lo, c_lo, rows, cols)
            if not mask.structure:
                t_keys = t_keys[m.values_at(at) != 0]
        else:
            r_local = _local(rows, r_lo, block.nrows)
            c_local = _local(cols, c_lo, block.ncols)
            t_keys = (r_local[:, None] * block.ncols + c_local[None, :]).reshape(-1)
        t_vals = np.full(len(t_keys), value, dtype=t_type.np_type)
        if mask is None and block.can_pend(len(t_keys)):
            # Every place of the region takes the value (or accum with it), and C is kept
            # elsewhere: a few entries written into many, left pending (``Block.upserted``).
            keys = unique_sorted(t_keys)
            return c.dist.upsert(keys, t_vals[:len(keys)], accum)
        if whole_c_mask and not mask.complement and not replace and accum is None:
            written = _values_written(block, r_lo, c_lo, rows, cols, t_keys, value, dtype)
            if written is not None:
                return c.dist.install(written)
    else:
        k, l, vals = _source_entries(value, rows, cols)
        t_keys, t_vals = _to_owner_keys(c.grid, c.nrows, c.ncols, _at(rows, k), _at(cols, l),
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
        return c.dist.install(_replaced(block, region, z_region))
    if whole_c_mask and replace:
        return c.dist.install(backends.run("write_block", block,
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
    return c.dist.install(_replaced(block, in_scope, written))


def _region_keys(block, r_lo, c_lo, rows, cols):
    """The local keys (row * ncols + col, ascending) of the block's entries in rows x cols,
    and their positions in its CSR: only the named rows are read."""
    at, r, q = _walk(block.csr[0], block.cols, rows, cols, r_lo, c_lo, block.nrows)
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
    """Collective. A Vector mask or a sub-mask moved to C's coordinates, as a BlockMask of
    C's block: its allowed entries go to the ranks owning their place in C."""
    source = mask.parent
    if hasattr(source, "local_block"):
        k, l, vals = _source_entries(source, rows, cols)
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
    keys, _ = _to_owner_keys(c.grid, c.nrows, c.ncols, r[allowed], q[allowed],
                             np.ones(int(allowed.sum()), dtype=bool))
    block = c.block
    m = Block.from_keys(block.nrows, block.ncols, keys, np.ones(len(keys), dtype=bool))
    return BlockMask(m, True, mask.complement)
