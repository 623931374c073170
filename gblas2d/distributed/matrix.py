"""The 2D layer's matrix: what a distributed Matrix is, apart from python-graphblas's surface.

A ``DistMatrix`` holds this rank's block (rows of row block i, columns of column block j,
``grid.row_block`` and ``grid.col_block``), where the block starts, the number of entries every
rank agreed on, and whether the matrix is known to equal its transpose. It owns the one write
``C<M, accum, replace> = T``, with its shortcuts for a few entries written into many (left
pending in the block, ``Block.upserted``), the build from entries, the row and column
reductions and the transpose: each rank computes its new block, one world step agrees success
and the new nvals, and only then is the block installed, so a failure on any rank leaves the
matrix unchanged on every rank.

The products read it; the surface's ``Matrix`` holds one and adds python-graphblas's behaviour
(expressions, infix, views, reprs).
"""

import numpy as np

from ..exceptions import InvalidValue
from ..local import backends
from ..local.block import Block, BlockMask
from ..local.keys import keys_fit, run_starts
from ..local.piece import Piece
from ..semirings import binary, folds_to_itself, monoid, select
from . import redistribute as redist
from .exchange import fold_segment

__all__ = ["DistMatrix"]

# The builtin position tests, each with the multiples of the block's row and column offsets
# that move its thunk to block-local positions: ``col <= row + t`` (tril) holds where
# ``local col <= local row + t + row offset - col offset``; ``row <= t`` (rowle) where
# ``local row <= t - row offset``.
_LOCAL_THUNK = {**dict.fromkeys(("tril", "triu", "diag", "offdiag"), (1, -1)),
                "rowle": (-1, 0), "rowgt": (-1, 0), "colle": (0, -1), "colgt": (0, -1)}


class DistMatrix:
    """One rank's part of a distributed matrix (see the module docstring).

    Parameters
    ----------
    grid : Grid
    nrows, ncols : int
        The shape, replicated.
    dtype : DataType
    """

    __slots__ = ("grid", "nrows", "ncols", "dtype", "row_offset", "col_offset", "block",
                 "nvals", "is_symmetric")

    def __init__(self, grid, nrows, ncols, dtype):
        self.grid, self.nrows, self.ncols, self.dtype = grid, nrows, ncols, dtype
        self.row_offset, row_hi = grid.row_block(nrows)
        self.col_offset, col_hi = grid.col_block(ncols)
        # An empty block is hypersparse: O(1) memory whatever the dimensions.
        self.block = Block.empty(row_hi - self.row_offset, col_hi - self.col_offset,
                                 dtype.np_type)
        self.nvals = 0  # agreed by every rank
        # Known to equal its transpose (a symmetric generator or Matrix Market file): A^T is
        # then A's own blocks, with no all-to-all. Every write forgets it.
        self.is_symmetric = False

    @property
    def shape(self):
        return (self.nrows, self.ncols)

    def install(self, block, *, avoiding=None):
        """Collective. Install a new block once every rank has computed its own. A rank that
        failed makes that step with its flag (the comm layer's drain), so every rank raises
        and the matrix is left unchanged. The step is final: what follows cannot fail, so a
        public call that ends here needs no step of its own. ``avoiding``: a block none of
        whose entries the new one holds (``Block.avoid``)."""
        dtype = self.dtype.np_type
        if block.has_pending and block.dtype != dtype:
            block.settle()  # (cast below, as a whole array)
        if not block.has_pending and (not block.is_bitmap or block.dtype != dtype):
            # (a block with pending writes holds its base's arrays, of this type already; a
            # bitmap of this type is kept as it is, whose writes it takes in place)
            if block.is_iso:
                # One value for every entry (a pattern) stays one value: 8 bytes an entry.
                values = block.values if block.values.dtype == dtype else np.broadcast_to(
                    block.values[:1].astype(dtype), block.values.shape)
            else:
                values = np.ascontiguousarray(block.values, dtype=dtype)
            block = block if values is block.values else block.with_values(values)
            # The backend takes the new block's arrays over as its own copy, with no copy.
            backends.adopt(block)
        # within_mask spoke of the write that made the block, not of writes that copy it.
        block.within_mask = False
        if avoiding is not None:
            block.avoid(avoiding)
        total = self.grid.comm.step([block.nvals], final=True)[0]
        self.block = block
        self.nvals = int(total)
        self.is_symmetric = False

    def mark_symmetric(self):
        """Local. Declare that the matrix equals its transpose (every rank calls it, or
        none)."""
        self.is_symmetric = True
        if self.grid.nprocs == 1:
            # The block is the whole matrix: its CSR is also its CSC.
            self.block.symmetric = True

    def fill(self, entries, dup, dup_monoid):
        """Collective. Set the block from local entry keys (row * ncols + col) and values,
        duplicates combined with the BinaryOp ``dup`` through ``dup_monoid`` (``dup`` None:
        refused, InvalidValue). ``entries`` is a list [keys, values] that this method empties,
        so that each array is freed as soon as its successor exists."""
        # Only a non-commutative dup (first, second, minus) needs duplicates kept in input
        # order; otherwise the faster unstable sort will do.
        sort_keys(entries, stable=dup is not None and not dup.commutative)
        keys, values = entries
        entries.clear()
        if len(keys) > 1 and (keys[1:] == keys[:-1]).any():
            if dup is None:
                raise InvalidValue("Duplicate indices found; give dup_op to combine them")
            if values.strides == (0,) and _keeps(dup, values[:1]):
                # One value broadcast (a pattern) whose repeats combine to itself: the unique
                # keys keep it, with no array of values built and reduced.
                first = np.empty(len(keys), dtype=bool)
                first[0] = True
                np.not_equal(keys[1:], keys[:-1], out=first[1:])
                # a mask, not positions: one byte an entry beside the keys, not eight
                keys = keys[first]
                values = np.broadcast_to(values[:1], keys.shape)
            else:
                # reduce_sorted's two steps, the keys freed before the values are reduced
                starts = run_starts(keys)
                keys = keys[starts]
                values = dup_monoid.reduceat(values, starts)
                starts = None
        # The keys are this method's own: they become the block's columns in place.
        block = Block.from_keys(self.block.nrows, self.block.ncols, keys, values,
                                own_keys=True)
        # The keys go before install makes the values a whole array (the build's peak).
        keys = values = None
        self.install(block)

    def write(self, t, mask, accum, replace, *, symmetric=False):
        """Collective. ``C<M, replace> = accum(C, T)`` with this rank's block ``t`` of T (a
        Block, or sorted keys and values), ``mask`` a ``BlockMask`` or None, ``accum`` a
        BinaryOp or None; ``symmetric``: T is known to equal its transpose."""
        c = self.block
        if mask is not None and not mask.complement and isinstance(t, Block):
            # A plain mask of few entries (for T or for C): T is read at its positions alone,
            # O(k log nnz(T)) (``A.dup(mask=Q.S)``, ``A(Q.S) << B``, ``A(Q.V) << Q``), and
            # what T has there is all it gives.
            allowed = mask.keys()
            if t.can_pend(len(allowed)) or c.can_pend(len(allowed)):
                found, values = t.lookup(allowed)
                t = allowed[found], values[found]
                if accum is None and (replace or self.nvals == 0):
                    # C becomes T's entries inside the mask: a small block of its own
                    self.install(Block.from_keys(c.nrows, c.ncols, *t))
                    return
                if accum is None and c.can_pend(len(allowed)):
                    # C<M> = T sets T's entries and deletes C's others inside the mask: where
                    # C has none there to delete, the write is T's entries, left pending
                    had = c.lookup(allowed)[0]
                    if not (had & ~found).any():
                        self.install(c.upserted(*t))
                        return
        if accum is not None and not (mask is not None and replace) and \
                c.can_pend(t.nvals if isinstance(t, Block) else len(t[0])):
            # A few entries accumulated into many: C keeps all of its own, so T's allowed
            # entries are updates and additions, left pending (``Block.upserted``).
            keys, values = (t.keys(), t.values) if isinstance(t, Block) else t
            if mask is not None:
                keep = mask.allows(keys)
                keys, values = keys[keep], values[keep]
            self.install(c.upserted(keys, values, accum))
            return
        if not isinstance(t, Block):
            t = Block.from_keys(c.nrows, c.ncols, *t)
        if accum is None and (mask is None or (t.within_mask and (replace or self.nvals == 0))):
            # A whole new block replaces the old one: installed as it is, arrays and all.
            block = t
        else:
            block = backends.run("write_block", c, t, mask, accum, replace,
                                 self.dtype.np_type)
        avoided = mask is not None and mask.complement and mask.structure and (
            replace or self.nvals == 0)
        # C<~M.S> with replace (or into nothing) leaves no entry where M has one
        self.install(block, avoiding=mask.block if avoided else None)
        if symmetric and mask is None and accum is None:
            self.mark_symmetric()

    def upsert(self, keys, values, accum=None, *, new=False):
        """Collective. The entries at the sorted unique local ``keys`` set to ``values`` (or
        accumulated into), the others kept: pending in the block where they are few. ``new``:
        no key is an entry yet."""
        c = self.block
        if c.can_pend(len(keys)):
            self.install(c.upserted(keys, values, accum, new=new))
        else:
            # C<T.S> = accum(C, T): T's own structure is the mask, so C is kept elsewhere
            t = Block.from_keys(c.nrows, c.ncols, keys, values)
            self.install(backends.run("write_block", c, t, BlockMask(t, True, False), accum,
                                      False, self.dtype.np_type))

    def set_under(self, mask, value, dtype, accum):
        """Collective. ``C<M> = accum(C, s)``: the scalar ``value`` of ``dtype`` at each
        position the plain ``BlockMask`` allows, C kept elsewhere (a visited set's
        ``V(F.S) << level``), pending where they are few. A mask written under this matrix's
        complement (``Block.avoids``: a BFS frontier) names no entry of it, so nothing is
        looked up. A mask of many entries goes to the backend's masked assign whole, with no
        list of its keys made."""
        c = self.block
        if not c.can_pend(mask.block.nvals):
            self.install(backends.run("assign_masked", c, mask, value, dtype, accum,
                                      self.dtype.np_type))
            return
        keys = mask.keys()
        self.upsert(keys, np.full(len(keys), value, dtype=dtype), accum,
                    new=mask.block.avoids(c))

    def clear(self):
        """Local. No entries (nvals 0 on every rank, as every rank calls it)."""
        b = self.block
        self.block = Block.empty(b.nrows, b.ncols, b.dtype)
        self.nvals = 0
        self.is_symmetric = False

    def resized(self, nrows, ncols, block):
        """Collective. The matrix over ``nrows`` x ``ncols``, holding ``block`` (this rank's
        block of the new shape)."""
        self.install(block)
        self.nrows, self.ncols = nrows, ncols
        self.row_offset = self.grid.row_block(nrows)[0]
        self.col_offset = self.grid.col_block(ncols)[0]

    def reduced(self, axis, mon, out_type, *, bitmap=False):
        """Collective (a fold along the grid row for "row", the grid column for "col"). This
        rank's Piece of the reduction of every row or column with ``mon``; ``bitmap``: the
        order python-graphblas folds a matrix it holds as a bitmap in."""
        b = self.block
        if b.nvals and b.is_iso and folds_to_itself(mon):
            # One value x in every entry and x (+) x = x: each line with entries reduces to x,
            # found from the pointers, O(lines) (a visited set's lor by rows).
            ids, ptr = b.pointers("rows" if axis == "row" else "cols")
            counts = np.diff(ptr)
            idx = ids[counts > 0] if ids is not None else np.flatnonzero(counts)
            vals = np.full(len(idx), b.values[0], dtype=out_type.np_type)
        elif axis == "row":
            # each row in python-graphblas's order at one process: SuiteSparse's own, or
            # numpy's in that order (semirings/_ordered.py)
            idx, vals = backends.run("reduce_rows", b, mon, out_type.np_type, bitmap=bitmap)
        else:
            idx, vals = backends.run("reduce_cols", b, mon, out_type.np_type)
        n = self.nrows if axis == "row" else self.ncols
        vals = vals.astype(out_type.np_type, copy=False)
        idx, vals, _ = fold_segment(self.grid, n, idx, vals, mon, out_type.np_type, axis)
        lo, hi = self.grid.piece(n)
        return Piece.from_entries(hi - lo, idx, vals, out_type.np_type)

    def counted(self, axis):
        """Collective (a fold along the grid row for "row", the grid column for "col"). This
        rank's Piece of how many entries each row or column holds: differences of the
        block's pointers, O(lines of the block) where a fold of ones would cost O(entries)."""
        ids, ptr = self.block.pointers("rows" if axis == "row" else "cols")
        counts = np.diff(ptr)
        held = counts > 0
        idx = np.flatnonzero(held) if ids is None else ids[held]
        n = self.nrows if axis == "row" else self.ncols
        idx, vals, _ = fold_segment(self.grid, n, idx, counts[held], monoid.plus,
                                    np.dtype(np.int64), axis)
        lo, hi = self.grid.piece(n)
        return Piece.from_entries(hi - lo, idx, vals, np.int64)

    def ewise(self, other, binop, kind, types, out_type, defaults):
        """This rank's block of an element-wise op ("add", "mult" or "union") of this matrix
        and ``other`` (same shape and grid): a Block, or its sorted keys and values."""
        a, b = self.block, other.block
        if binop.index_aware:
            return _positional_ewise(self, other, binop, kind, types, defaults, out_type)
        if a.shares_structure(b):
            # Every entry is in both (S = A + A^T of a symmetric A): the op runs over the
            # values alone, on the shared structure, for any kind.
            return _paired_values(a, b, binop, types, out_type)
        out_np = out_type.np_type
        if kind == "mult":
            # A few entries against many: the intersection is at most the few, each looked up
            # in the many's keys, O(k log m).
            for big, small, big_first in ((a, b, True), (b, a, False)):
                if big.can_pend(small.nvals) and small.nvals:
                    keys = small.keys()
                    found, at_big = big.lookup(keys)
                    mine = small.values_at(np.flatnonzero(found))
                    left, right = (at_big[found], mine) if big_first else (mine, at_big[found])
                    values = binop.evaluate(left.astype(types[0], copy=False),
                                            right.astype(types[1], copy=False))
                    return keys[found], values.astype(out_np, copy=False)
        if kind == "add":
            # A few entries added to many (a visited set and a frontier): the large side's
            # block with the few written into it, pending (``Block.upserted``). The op takes
            # the large side first, so the large one is C unless the op commutes.
            for big, small, big_type, first in ((a, b, types[0], True),
                                                (b, a, types[1], binop.commutative)):
                if first and big.dtype == big_type == out_np and big.can_pend(small.nvals):
                    return big.upserted(small.keys(), small.values, binop)
        return backends.run("ewise_block", a, b, binop, kind, types, out_np, defaults)

    def select_values(self, op, thunk):
        """This rank's block of the entries the value-reading IndexUnaryOp ``op`` keeps."""
        return backends.run("select_values", self.block, op, thunk)

    def select_positions(self, op, thunk):
        """This rank's block of the entries a builtin position test keeps (``tril``,
        ``rowle``, ...: ``_LOCAL_THUNK``), or None for another op. The test is run on the
        block's own positions, its thunk moved by the block's offsets, so no global position
        of an entry is made."""
        shift = _LOCAL_THUNK.get(op.name)
        if shift is None or getattr(select, op.name).func is not op.func:
            return None
        rows, cols = shift
        local = int(np.int64(thunk)) + rows * self.row_offset + cols * self.col_offset
        # (block-local positions are below 2^60: a thunk beyond int64 decides as its bound)
        local = min(max(local, -2**63), 2**63 - 1)
        return backends.run("select_positions", self.block, op, local)

    def fill_value(self, value):
        """Collective. Every position holds ``value``: each rank fills its own block."""
        b = self.block
        keys = np.arange(b.nrows * b.ncols, dtype=np.int64)
        self.install(Block.from_keys(b.nrows, b.ncols, keys,
                                     np.full(len(keys), value, dtype=self.dtype.np_type)))

    def transposed_block(self):
        """Collective. This rank's block of A^T, a Block.

        Entries leave in column-major (CSC) order, which is row-major for A^T, so what arrives
        from each rank is already sorted; on a 1 x C grid the sources hold disjoint row ranges
        of A^T and their concatenation is the CSR as it stands."""
        b = self.block
        grid = self.grid
        if self.is_symmetric:
            # A^T = A, and a square matrix's blocks lie the same way on any grid.
            return b
        if grid.nprocs == 1:
            # The block is the whole matrix and its CSC is A^T's CSR.
            return backends.run("transpose_block", b)
        ids, ptr, r, v = b.by_cols()
        counts = np.diff(ptr)
        here = np.arange(len(counts), dtype=np.int64) if ids is None else ids
        c_local = np.repeat(here, counts)
        # The owner of A^T's entry (c, r): a grid row from c, a grid column from r. Every column
        # c of this block has one grid row, so it is found per column, not per entry; r meets
        # only the few column blocks its row block spans.
        grid_row = grid.row_block_of(self.ncols, self.col_offset + here).astype(np.int16)
        col_bounds = [grid.col_block(self.nrows, j)[0] for j in range(1, grid.ncols)]
        grid_col = np.searchsorted(np.array(col_bounds, dtype=np.int64) - self.row_offset, r,
                                   side="right").astype(np.int16)
        owners = np.repeat(grid_row * np.int16(grid.ncols), counts) + grid_col
        lo_r, hi_r = grid.row_block(self.ncols)
        lo_c, hi_c = grid.col_block(self.nrows)
        if keys_fit(self.ncols, self.nrows):
            # One global key per entry travels instead of a row and a column: a third less
            # volume.
            entries = list(redist.to_owners(grid, owners, (c_local + self.col_offset) *
                                            self.nrows + r + self.row_offset, v))
            if len(entries[0]) > 1 and not (entries[0][1:] > entries[0][:-1]).all():
                sort_keys(entries)
            keys, vals = entries
            rows, cols = np.divmod(keys, self.nrows)
        else:
            rows, cols, vals = redist.to_owners(grid, owners, c_local + self.col_offset,
                                                r + self.row_offset, v)
            order = np.lexsort((cols, rows))
            rows, cols, vals = rows[order], cols[order], vals[order]
        rows -= lo_r
        cols -= lo_c
        return Block.from_coo(hi_r - lo_r, hi_c - lo_c, rows, cols, vals)


def _keeps(op, value):
    """Whether ``op(v, v) == v`` for the one-element array ``value``: then any run of repeats
    of v combines to v (min, max, any, first, ... but not plus)."""
    with np.errstate(all="ignore"):
        return bool(np.all(op.evaluate(value, value) == value))


def sort_keys(entries, *, stable=True):
    """Sort entries by key, in ``entries``, a list [keys, values] whose arrays are replaced
    by sorted ones: each unsorted array is freed as soon as its sorted one exists, where the
    caller holds no other reference. ``stable=False`` (faster) where keys are unique. The
    values come back as a new array (a new block takes them over), unless they are one
    scalar broadcast (a pattern): they need no reordering, and the keys, this caller's own
    array, are then sorted in place, with no permutation held.

    Keys that come as a few sorted runs (a file written sorted by rows, read in ranges and
    exchanged; a generator's batches) are kept when in order and otherwise merged by the
    stable sort, which finds the runs; keys in no order take the faster unstable sort."""
    keys, vals = entries
    descents = np.count_nonzero(keys[1:] < keys[:-1]) if len(keys) > 1 else 0
    broadcast = vals.ndim == 1 and vals.strides == (0,)
    if descents == 0:
        if not broadcast:
            # The block takes the values over (``Block.sole``): never the caller's array.
            entries[1] = vals.copy()
        return
    kind = "stable" if stable or descents * _FEW_RUNS < len(keys) else None
    if broadcast:
        keys.sort(kind=kind)
        return
    order = np.argsort(keys, kind=kind)
    keys = vals = None
    entries[0] = entries[0][order]
    entries[1] = entries[1][order]


# Keys with fewer than one descent in this many are merged as runs (see sort_keys).
_FEW_RUNS = 256


def _paired_values(a, b, binop, types, out_type):
    """``op(a, b)`` of two blocks with one structure, as a block on that structure. Two iso
    blocks give an iso block: the op runs once."""
    if a.is_iso and b.is_iso:
        one = binop.evaluate(a.values[:1].astype(types[0]), b.values[:1].astype(types[1]))
        return a.with_values(np.broadcast_to(one.astype(out_type.np_type), a.values.shape))
    values = binop.evaluate(a.values.astype(types[0], copy=False),
                            b.values.astype(types[1], copy=False))
    return a.with_values(values.astype(out_type.np_type, copy=False))


def _positional_ewise(a, b, binop, kind, types, defaults, out_type):
    """This rank's block of an element-wise op of the DistMatrices ``a`` and ``b`` whose value
    is where the entry sits (firsti,
    secondj, ...): the same for both operands. Where only one operand has an entry, ewise_add
    keeps its value (cast), as GraphBLAS does; ewise_union applies the op everywhere."""

    def structure(kind):
        block = backends.run("ewise_block", a.block, b.block, binary.first, kind, types,
                             out_type.np_type, defaults)
        return block if isinstance(block, Block) else \
            Block.from_keys(a.block.nrows, a.block.ncols, *block)

    block = structure(kind)
    both = structure("mult") if kind == "add" else block
    rows, cols = both.rows + a.row_offset, both.cols + a.col_offset
    zeros = np.zeros(len(rows), dtype=np.int64)
    positions = binop.evaluate(zeros, zeros, rows, cols, rows, cols)
    values = block.values.astype(out_type.np_type)
    values[np.searchsorted(block.keys(), both.keys())] = positions
    return block.with_values(values)
