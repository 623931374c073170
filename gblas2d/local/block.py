"""One rank's block of a Matrix: its entries by rows, with other views made on first use.

A block is held as CSR (``ptr`` has a pointer per row) or, when few of its rows have entries,
as hypersparse DCSR (``hrows``: the sorted rows that have entries; ``ptr``: a pointer per
such row), as SuiteSparse and CombBLAS do. On a large grid most rows of a block are empty (at
Graph 500 scale 30 on 64 x 64 ranks, 2^24 rows for ~4M entries), and a matrix may be declared
up to 2^60 x 2^60: the DCSR keeps the block's memory O(entries) whatever its dimensions.

A block's entries never change once made; an operation makes a new block. So blocks may
share arrays (``apply`` keeps the structure of its input, a copy keeps everything) and what is
derived from the entries (the COO rows, the CSC, scipy and SuiteSparse copies, degrees) is
cached for the block's life. An array is written in place only where no other object can read
it (a merge of pending writes, below).

A write of a few entries into a large block (``upserted``) makes a new block that shares the
old one's arrays and keeps the written entries aside, sorted by key, as SuiteSparse keeps
pending tuples: the write costs O(k log entries) for k entries, and the first reader of the new
block's storage merges them (``_settle``): one copy of each array for new entries, and for
writes that only replace stored values, O(k log entries), in place when no other object can
see the values (see ``_replaced``). Its entries are fixed from the start; only how they are
held changes.

A dense block is held as a bitmap instead (``bitmap.Bitmap``: a flag and a value a
position), as SuiteSparse holds a dense matrix: built so (``from_keys``, large blocks), or
made so by the second merge of its writes (a visited set written at every level of a batched
BFS). Its writes still wait as pending ones, and the merge sets them in place, O(k) for k
entries, when no other block holds the bitmap (``bitmap.written`` counts the references, as
``_replaced`` does), else into a copy of it. A reader of the CSR gets one made from the bitmap
on first use, O(positions), kept while the block lives; SuiteSparse takes the bitmap itself.

Readers that walk the storage take ``by_rows`` / ``by_cols``: (ids, pointers, indices,
values), ids None for the plain form. ``csr`` and ``csc`` give the plain form of either,
expanding a hypersparse block's pointers: O(rows), for readers whose work is that size anyway.
"""

import sys
import weakref
from typing import NamedTuple

import numpy as np

from ..exceptions import OutOfMemory
from ..semirings._numeric import cast
from . import bitmap as bitmaps
from .bitmap import Bitmap
from .keys import (
    block_keys,
    fold_until,
    inserted,
    key_rows_cols,
    keys_fit,
    merge_disjoint,
    run_starts,
    sorted_isin,
)

__all__ = ["HYPER_SWITCH", "Block", "BlockMask", "index_bytes", "row_pointers"]

# A block whose rows with entries are fewer than this share of its rows is hypersparse. The
# hyperlist costs 2 words a nonempty row, plain pointers 1 word a row: below 1/4 the plain
# ones would take over 4 words a nonempty row. SuiteSparse switches at 1/16, for speed: a
# push finds each frontier row by binary search in the hyperlist. Measured on one block of
# R-MAT 18 (numpy push, 30% of its rows in the frontier), 16x16 grid: 158 us plain, 214 us
# hypersparse; 64x64 grid (16% of rows used): 28 against 37 us, and the pulls and
# SuiteSparse's kernels equal or faster hypersparse. bench_hypersparse.py has the bytes.
HYPER_SWITCH = 1 / 4


# A write of k entries into a block of m stays pending while k * this <= m, and pending
# writes are merged once they reach 1/this of the entries: each merge, O(m), then follows
# at least m / 16 written entries.
_PENDING_SHARE = 16

def _search(sorted_keys, keys):
    """(found, at): whether each of ``keys`` is in ``sorted_keys``, and where it is or would
    be inserted."""
    at = np.searchsorted(sorted_keys, keys)
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool), at
    return sorted_keys[np.minimum(at, len(sorted_keys) - 1)] == keys, at


def _search_rows(ptr, stored, rows, cols):
    """(found, at): whether entry (``rows[t]``, ``cols[t]``) is in CSR storage (``ptr`` plain,
    ``stored`` its columns), and where it is or would go: a binary search inside each row, all
    rows at once, O(len(rows) log(longest row)) (a matrix's diagonal: one entry a row)."""
    lo, hi = ptr[rows], ptr[rows + 1]
    if not len(stored):
        return np.zeros(len(rows), dtype=bool), lo
    end = hi
    while (active := lo < hi).any():
        mid = (lo + hi) // 2
        less = stored[np.minimum(mid, len(stored) - 1)] < cols
        lo = np.where(active & less, mid + 1, lo)
        hi = np.where(active & ~less, mid, hi)
    return (lo < end) & (stored[np.minimum(lo, len(stored) - 1)] == cols), lo


def _replaced(values, at, new):
    """``values`` with ``new`` at the positions ``at``: written in place when nothing else can
    read the array, else into a copy. A block's arrays are shared freely (copies, applies,
    pending writes on one base) and never changed once shared; an array referred to by the
    block's attribute alone (the count below: that reference, this call's argument and
    getrefcount's own) is seen by no other object, not even through a numpy view, since a
    view refers to the array it was cut from. numpy's ``ndarray.resize`` checks the same."""
    if not (values.flags.writeable and sys.getrefcount(values) <= 3):
        values = values.copy()
    values[at] = new
    return values


def _hyper_inserted(ids, ptr, added_rows):
    """The hypersparse (ids, pointers) of storage by rows with entries added in the sorted
    ``added_rows``: rows that had none join the list. O(rows listed + added)."""
    new_ids = np.union1d(ids, added_rows)
    # a row's entries start where its old ones did (or where it would have had them), moved
    # up by the entries added to the rows before it
    starts = ptr[np.searchsorted(ids, new_ids)] + np.searchsorted(added_rows, new_ids)
    return new_ids, np.append(starts, ptr[-1] + len(added_rows))


def _merged_first(name):
    """The property of a Block's storage array ``name``: any pending writes merged first."""
    slot = f"_{name}"

    def read(block):
        block._ready()
        return getattr(block, slot)

    return property(read, doc=f"The storage's {name}, pending writes merged first.")


def row_pointers(nrows):
    """Zeros for the ``nrows + 1`` row pointers of a block, or OutOfMemory that says what did
    not fit: a plain block keeps one pointer a row, whatever its entries."""
    try:
        return np.zeros(nrows + 1, dtype=np.int64)
    except MemoryError:
        raise OutOfMemory(f"a block of {nrows:,} rows needs {8 * (nrows + 1):,} bytes of row "
                          "pointers on this rank, more than it can allocate") from None


def _is_hyper(n, nonempty):
    return nonempty < HYPER_SWITCH * n


def _plain(n, ids, ptr):
    """The plain pointers (one per row of ``n``) of hypersparse ones."""
    full = row_pointers(n)
    full[ids + 1] = np.diff(ptr)
    np.cumsum(full, out=full)
    return full


def _compress(ids, ptr, n):
    """(ids, pointers) as the storage rule wants them: hypersparse ones kept when they are few,
    else made plain (ids None)."""
    if ids is None or _is_hyper(n, len(ids)):
        return ids, ptr
    return None, _plain(n, ids, ptr)


def _by_runs(major, n):
    """The sorted ``major`` index of every entry as (ids, pointers), hypersparse or plain by
    the storage rule."""
    starts = run_starts(major)
    return _compress(major[starts], np.append(starts, len(major)), n)


def index_bytes(nrows, nvals, nonempty):
    """The bytes of the row ids, pointers and columns of blocks of ``nrows`` rows, ``nvals``
    entries and ``nonempty`` rows with entries (arrays or numbers), as ``from_keys`` stores
    them, and whether each is hypersparse: what a block of a virtual rank would hold."""
    nrows, nvals, nonempty = (np.asarray(a, dtype=np.int64) for a in (nrows, nvals, nonempty))
    # from_keys's rule: hypersparse when its nonempty rows are few, except that a block of
    # more than 4 entries a row is always made plain (by binary search in its keys)
    hyper = (nonempty < HYPER_SWITCH * nrows) & (nvals <= 4 * nrows)
    return np.where(hyper, 16 * nonempty + 8, 8 * (nrows + 1)) + 8 * nvals, hyper


class Block:
    """A local block: unique entries in row-major order, held as CSR (``ptr``, ``cols``,
    ``values``) or hypersparse DCSR (``hrows`` too, see the module docstring). The row of
    every entry (``rows``), the CSC and the scipy views are made on first use."""

    def __init__(self, nrows, ncols, ptr, cols, values, *, hrows=None, rows=None,
                 within_mask=False, sole=False):
        self.nrows, self.ncols = nrows, ncols
        self._ptr, self._cols, self._values = ptr, cols, values
        self._hrows = hrows
        self._nvals = 0 if values is None else len(values)
        # The entries as a ``Bitmap``, or None for storage by rows. Held as a bitmap, the
        # arrays above are None until a reader wants them, then made from it (``_ready``).
        self._bitmap = None
        # Whether the storage was made by merging writes into an earlier one: the block is
        # written again and again (a visited set), and its next merge may make it a bitmap.
        self._rewritten = False
        # Writes not merged yet (``upserted``): None, or sorted unique keys and their values,
        # each an entry added or a stored value replaced. The arrays above are then the base
        # the writes apply to, and the first reader of an array merges them (``_settle``).
        self._pending = None
        # The sorted keys of the base's entries, kept where a write looked entries up by key
        # (``base_keys``): the next write into the block finds them at once.
        self._keys = None
        self._iso = None
        # While writes are pending: the ``derived`` caches of the storage they apply to, shared
        # by every block written on top of it (``base_and_pending``).
        self._base_derived = None
        # Set by the constructors that made the arrays for this block alone, until another
        # block shares them: a backend may then take them over (``backends.adopt``).
        self.sole = sole
        self._rows = rows
        # Set by a product that took the output's mask in: its entries are all allowed.
        self.within_mask = within_mask
        # A weak reference to a block none of whose entries this one holds, set by a write
        # under that block's complemented structure (``avoids``).
        self._avoided = None
        # Set by a one-rank matrix known to equal its transpose (Matrix.mark_symmetric): the
        # CSR is also the CSC, so no copy by columns is made (a fact of the entries).
        self.symmetric = False
        # The storage by columns (ids, ptr, rows, values), and its pointers alone (ids, ptr).
        self._csc = self._col_pointers = None
        self._scipy, self._pattern = {}, {}
        # What is derived from the entries on first use and kept while the block lives: each
        # backend's own copy of it, the degrees behind the push/pull choice.
        self.derived = {}

    # ---- the storage, with any pending writes merged first ----
    ptr, cols, values, hrows = (_merged_first(name) for name in ("ptr", "cols", "values",
                                                                 "hrows"))

    def rehome(self, name, array):
        """Hold storage array ``name`` ("ptr", "cols", "values" or "hrows") as ``array``,
        equal to it in another owner's memory (a backend that took the arrays over)."""
        if self._pending is not None or name not in ("ptr", "cols", "values", "hrows"):
            raise ValueError(f"cannot rehome {name!r} of a block with pending writes")
        setattr(self, f"_{name}", array)

    @property
    def dtype(self):
        """The values' numpy type (known without merging pending writes)."""
        return self._stored_values().dtype

    def _stored_values(self):
        """The values of the storage the pending writes apply to: by entry, or by position."""
        return self._values if self._bitmap is None else self._bitmap.dense

    @property
    def has_pending(self):
        """Whether writes wait to be merged into the storage (``upserted``)."""
        return self._pending is not None

    @property
    def is_bitmap(self):
        """Whether the entries are held as a bitmap (see the module docstring)."""
        return self._bitmap is not None

    def bitmap(self):
        """(present, dense) of a block held as a bitmap, pending writes merged first: a flag
        and a value a position (``dense`` one value broadcast for an iso block). Read only."""
        self.settle()
        return self._bitmap.present, self._bitmap.dense

    def _ready(self):
        """Merge the pending writes, and make the CSR of a bitmap: what readers walk."""
        if self._pending is not None:
            self._settle()
        if self._bitmap is not None and self._ptr is None:
            self._rows_from_bitmap()

    def _rows_from_bitmap(self):
        """The CSR of a bitmap's entries, kept on the block: O(positions), once."""
        present, dense = self._bitmap.present, self._bitmap.dense
        keys = np.flatnonzero(present)
        width = max(self.ncols, 1)
        self._ptr = np.searchsorted(keys, np.arange(self.nrows + 1, dtype=np.int64) * width)
        self._cols = np.remainder(keys, width)
        self._values = np.broadcast_to(dense[:1], (len(keys),)) if self._bitmap.is_iso \
            else dense[keys]
        self._hrows, self._keys = None, keys

    @classmethod
    def compressed(cls, nrows, ncols, ids, ptr, cols, values, **kwargs):
        """A block from storage by rows whose pointers are hypersparse (``ids``: their rows,
        every one with entries) or plain (``ids`` None), held as the storage rule says."""
        ids, ptr = _compress(ids, ptr, nrows)
        return cls(nrows, ncols, ptr, cols, values, hrows=ids, **kwargs)

    @classmethod
    def from_coo(cls, nrows, ncols, rows, cols, values, **kwargs):
        """From entries sorted by (row, column), the rows kept on the block."""
        ids, ptr = _by_runs(rows, nrows)
        return cls(nrows, ncols, ptr, cols, values, hrows=ids, rows=rows, **kwargs)

    @classmethod
    def empty(cls, nrows, ncols, dtype):
        return cls.compressed(nrows, ncols, np.empty(0, dtype=np.int64),
                              np.zeros(1, dtype=np.int64), np.empty(0, dtype=np.int64),
                              np.empty(0, dtype=dtype))

    @classmethod
    def from_keys(cls, nrows, ncols, keys, values, *, own_keys=False):
        """From sorted unique keys ``row * ncols + col`` (``keys.block_keys``). ``own_keys``:
        the keys are this call's to overwrite, and become the columns in place, so no second
        array of their size is made (a build's high-water mark)."""
        if bitmaps.pays_built(nrows, ncols, len(keys), values):
            out = cls(nrows, ncols, None, None, None, sole=True)
            out._bitmap = Bitmap.of_entries(nrows * ncols, keys, values)
            out._nvals = len(keys)
            return out
        if not keys_fit(nrows, ncols) or _is_hyper(nrows, len(keys)):
            # Fewer entries than the rule's share of rows: the storage is hypersparse (and
            # keys beyond int64 belong to such blocks only, bar a few rows of 2^60 columns).
            rows, cols = key_rows_cols(keys, ncols)
            ids, ptr = _by_runs(rows, nrows)
            return cls(nrows, ncols, ptr, cols, values, hrows=ids, sole=True)
        width = max(ncols, 1)
        if len(keys) > 4 * nrows:
            # Each row's first entry by binary search in the sorted keys: no array of the
            # entries' rows beside the keys, so the columns are the one array of their size
            # made now (a build's high-water mark). On a block with few entries a row, the
            # rows counted cost less (7M entries: 24 ms either way; 1,000 entries of 262,144
            # rows: 3.2 ms searched, 0.2 ms counted).
            ptr = np.searchsorted(keys, np.arange(nrows + 1, dtype=np.int64) * width)
            ids = None
        else:
            counts = np.bincount(keys // width, minlength=nrows)
            ids = np.flatnonzero(counts)
            if _is_hyper(nrows, len(ids)):
                ptr = np.zeros(len(ids) + 1, dtype=np.int64)
                np.cumsum(counts[ids], out=ptr[1:])
            else:
                ptr, ids = row_pointers(nrows), None
                np.cumsum(counts, out=ptr[1:])
        cols = np.remainder(keys, width, out=keys if own_keys else None)
        # The rows are not kept: most blocks are only ever read by rows.
        return cls(nrows, ncols, ptr, cols, values, hrows=ids, sole=True)

    def with_values(self, values):
        """The same structure (shared, not copied) with other values."""
        self.sole = False
        return Block(self.nrows, self.ncols, self.ptr, self.cols, values, hrows=self.hrows,
                     rows=self._rows, within_mask=self.within_mask)

    def mapped(self, fn, dtype):
        """The same structure with ``fn`` of the values (an elementwise ``fn``): one value
        mapped for an iso block, which stays iso."""
        if self.is_iso and self.nvals:
            one = np.asarray(fn(self.values[:1])).astype(dtype, copy=False)
            return self.with_values(np.broadcast_to(one, (self.nvals,)))
        return self.with_values(np.asarray(fn(self.values)).astype(dtype, copy=False))

    def folded(self, fold, stop=None):
        """``fold`` of the values, or None when there is none, read only as far as ``stop``
        needs (``keys.fold_until``)."""
        return fold_until(fold, stop, self.values)

    def shares_structure(self, other):
        """Whether ``other`` has these very entries (the same arrays, not equal ones): a block
        and its copies, what ``apply`` made of it, or a symmetric matrix and its transpose."""
        # (blocks that share a base but not their pending writes hold different entries)
        return self._pending is None and other._pending is None and \
            self._ptr is not None and self._ptr is other._ptr and self._cols is other._cols

    def select(self, keep):
        """A new block of the entries where ``keep`` is True."""
        pos = np.flatnonzero(keep)
        # a row's new pointer counts the kept entries before it: a running count gathered,
        # O(entries + rows), where searching every pointer among the kept ones took 10x more
        # (a mesh product of 8,000 entries, 20,000 rows: 280 against 32 us)
        kept_before = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(keep, out=kept_before[1:])
        ptr, ids = kept_before[self.ptr], self.hrows
        if ids is not None:
            # the rows left without entries leave the hypersparse list
            kept = np.flatnonzero(np.diff(ptr))
            ids, ptr = ids[kept], np.append(ptr[kept], ptr[-1])
        return Block(self.nrows, self.ncols, ptr, self.cols[pos], self.values_at(pos),
                     hrows=ids, sole=True)

    @property
    def is_iso(self):
        """Whether one value stands for every entry (a broadcast array, no array of values).
        Known without merging pending writes: the base's value, and whether they all wrote
        it."""
        if self._iso is None:
            return self._stored_values().strides == (0,)
        return self._iso

    @property
    def is_hyper(self):
        if self._pending is not None:
            self._settle()
        # (a bitmap is plain, and is not made into CSR to say so)
        return self._bitmap is None and self._hrows is not None

    def values_at(self, pos):
        """The values of the entries at ``pos``, still one broadcast value for an iso block."""
        if self.is_iso:
            return np.broadcast_to(self.values[:1], (len(pos),))
        return self.values[pos]

    @property
    def nvals(self):
        return self._nvals

    @property
    def rows(self):
        self._ready()
        if self._rows is None:
            self._rows = self._expand_rows()
        return self._rows

    def _expand_rows(self):
        ids = self._hrows if self._hrows is not None else np.arange(self.nrows, dtype=np.int64)
        return np.repeat(ids, np.diff(self._ptr))

    def keys(self):
        """The sorted keys ``row * ncols + col`` of the entries (``keys.block_keys``)."""
        self._ready()
        if self._kept_keys() is not None:
            return self._keys
        return block_keys(self.rows, self._cols, self.nrows, self.ncols)

    def _kept_keys(self):
        """The keys kept on the block (None: not kept), made now where a merge left the
        recipe (base keys, where new ones go, the new ones): a merge does not copy them for a
        block no write reads again (one write into a fresh copy of a large matrix)."""
        if type(self._keys) is tuple:
            self._keys = inserted(*self._keys)
        return self._keys

    # ---- writes of a few entries: pending until the block is read ----
    def find(self, rows, cols):
        """(found, position) of the entries (``rows[t]``, ``cols[t]``) (block-local) in the
        block's CSR, searched inside their rows."""
        return _search_rows(self.csr[0], self.cols, rows, cols)

    def base_keys(self):
        """The sorted keys of the stored entries, pending writes aside, kept on the block:
        O(entries) once, then shared by the blocks that writes make of it."""
        if self._kept_keys() is None and self._bitmap is not None:
            self._keys = np.flatnonzero(self._bitmap.present)
        elif self._keys is None:
            rows = self._rows if self._rows is not None else self._expand_rows()
            self._keys = block_keys(rows, self._cols, self.nrows, self.ncols)
        return self._keys

    def can_pend(self, k):
        """Whether a write of ``k`` entries is better left pending than merged now: few
        entries for the block's size, and int64 keys (see ``upserted``); any number into a
        bitmap, whose merge costs what was written."""
        return keys_fit(self.nrows, self.ncols) and (
            self._bitmap is not None or k * _PENDING_SHARE <= self._nvals)

    def lookup(self, keys):
        """(found, values) at the sorted unique ``keys``, pending writes included, without
        merging them: O(len(keys) log entries), O(len(keys)) in a bitmap. Values are arbitrary
        where not found."""
        if self._bitmap is not None:
            found, out = self._bitmap.present[keys], self._bitmap.dense[keys]
        else:
            base = self.base_keys()
            found, at = _search(base, keys)
            values = self._values
            out = values[np.minimum(at, len(values) - 1)] if len(values) else \
                np.zeros(len(keys), dtype=values.dtype)
        if self._pending is not None and len(self._pending[0]):
            pkeys, pvals = self._pending
            in_p, at_p = _search(pkeys, keys)
            out = np.where(in_p, pvals[np.minimum(at_p, len(pvals) - 1)], out)
            found = found | in_p
        return found, out

    def upserted(self, keys, values, accum=None, *, new=False):
        """A new block with this one's entries, those at the sorted unique ``keys`` set to
        ``values`` (or to ``accum(stored, value)`` where one is stored) and the others added.
        It costs O(k log entries) for k keys, as SuiteSparse's pending tuples do: the new
        block shares this one's arrays and keeps the writes pending, merged in one pass by its
        first reader of the storage (``_settle``), so many small writes cost one merge.
        ``accum`` is a BinaryOp; the values take the block's type. ``new``: no key is an entry
        yet (``avoids``), so none is looked up."""
        if not len(keys):
            # Still a new block: what a write leaves is never the old object on some ranks
            # and a new one on others, whose caches of collective values (degrees) would then
            # differ between ranks.
            return self._sharing(self._pending, self._nvals, self._iso)
        if self._bitmap is not None and self._pending is not None:
            # A bitmap takes this block's own writes first, in place (its entries stay what
            # they are), so the new block's pending writes are only the new ones.
            self._settle()
        dtype = self.dtype
        if new:
            values = cast(np.asarray(values), dtype)
            pending = (keys, values) if self._pending is None else \
                merge_disjoint(*self._pending, keys, values)
            return self._pended(pending, self._nvals + len(keys), self._one_value(values))
        again = False
        if self._pending is not None:
            pkeys, pvals = self._pending
            in_p, at_p = _search(pkeys, keys)
            again = bool(in_p.all())
        if again:
            # Every key was written before (a frontier written again): only the pending
            # values change, and the base is not searched.
            found, stored = in_p, pvals[at_p]
        else:
            found, stored = self.lookup(keys)
        values = np.asarray(values)
        if accum is not None and found.any():
            # accum runs on the written values as they come; its result takes C's type
            both = accum.evaluate(stored[found], values[found])
            values = cast(values, dtype).copy()
            values[found] = cast(both, dtype)
        else:
            values = cast(values, dtype)
        if self._pending is None:
            pending = keys, values
        elif again:
            pvals = pvals.copy()
            pvals[at_p] = values
            pending = pkeys, pvals
        else:
            kept = ~sorted_isin(pkeys, keys)
            pending = merge_disjoint(pkeys[kept], pvals[kept], keys, values)
        return self._pended(pending, self._nvals + int(len(keys) - np.count_nonzero(found)),
                            self._one_value(pending[1]))

    def _one_value(self, written):
        """Whether the block stays one-valued with the values ``written`` into it."""
        stored = self._stored_values()
        return bool(self.is_iso and len(stored) and (written == stored[:1]).all())

    def _pended(self, pending, nvals, iso):
        """The block with ``pending`` writes over this one's storage, merged at once when
        enough of them wait to be worth one merge."""
        out = self._sharing(pending, nvals, iso if self._nvals else False)
        # (not a bitmap's: merged now it would be written into a copy, this block sharing it)
        if self._bitmap is None and len(pending[0]) * _PENDING_SHARE > nvals:
            out._settle()
        return out

    def _sharing(self, pending, nvals, iso):
        """A new block on this one's base arrays (and their keys) with ``pending`` writes,
        ``nvals`` entries in all and ``iso`` (None: read from the values)."""
        out = Block(self.nrows, self.ncols, self._ptr, self._cols, self._values,
                    hrows=self._hrows, rows=self._rows)
        out._keys, out._pending, out._nvals, out._iso = self._keys, pending, nvals, iso
        out._bitmap, out._rewritten = self._bitmap, self._rewritten
        out._base_derived = self.derived if self._pending is None else self._base_derived
        return out

    def avoid(self, other):
        """Record that this block holds no entry where the block ``other`` has one (a write
        ``C<~M.S, replace>`` made it), without keeping ``other`` alive."""
        self._avoided = weakref.ref(other)

    def avoids(self, other):
        """Whether this block is known to hold no entry where the block ``other`` has one: a
        BFS frontier, made under the visited set's complement, written into that same set."""
        return self._avoided is not None and self._avoided() is other

    def base_and_pending(self):
        """(base, keys) of a block with pending writes: a block of its stored entries alone,
        sharing its arrays and the caches made of them (a backend's copy, made once, serves
        every block written on top of the same storage), and the sorted keys written since.
        None when nothing is pending."""
        if self._pending is None:
            return None
        base = Block(self.nrows, self.ncols, self._ptr, self._cols, self._values,
                     hrows=self._hrows, rows=self._rows)
        base._keys, base.derived = self._keys, self._base_derived
        if self._bitmap is not None:
            base._bitmap, base._nvals = self._bitmap, self._bitmap.nvals
        return base, self._pending[0]

    def settle(self):
        """Merge any pending writes into the storage now (``Matrix.wait``)."""
        if self._pending is not None:
            self._settle()

    def _settle(self):
        """Merge the pending writes into the storage, once. The block's entries do not change,
        only how they are held. Writes that all replace stored values leave the structure as
        it is and cost O(writes log entries); new entries cost one copy of each array."""
        pkeys, pvals = self._pending
        if self._bitmap is None and self._rewritten and \
                bitmaps.pays_written(self.nrows, self.ncols, self._nvals, self.dtype):
            # (a block merged once keeps its storage by rows: one write into a copy of a
            # large matrix costs a merge, not a bitmap of every position)
            self._bitmap = Bitmap.of_entries(self.nrows * self.ncols, self.base_keys(),
                                             self._values)
        if self._bitmap is not None:
            self._bitmap = bitmaps.written(self._bitmap, pkeys, pvals, self._iso)
            # the storage by rows, if any, was the base's
            self._ptr = self._cols = self._values = self._hrows = None
            self._rows = self._keys = None
            self._pending = self._iso = self._base_derived = None
            return
        base = self.base_keys()
        found, at = _search(base, pkeys)
        fresh = ~found
        if not fresh.any():
            if not self._iso:
                self._values = _replaced(self._values, at, pvals)
        else:
            where, added = at[fresh], pkeys[fresh]
            if self._iso:
                self._values = np.broadcast_to(self._values[:1], (self._nvals,))
            else:
                values = inserted(self._values, where, pvals[fresh])
                # a stored entry moves up by the new ones placed before it
                values[at[found] + np.searchsorted(where, at[found], side="right")] = \
                    pvals[found]
                self._values = values
            added_rows, added_cols = key_rows_cols(added, self.ncols)
            self._cols = inserted(self._cols, where, added_cols)
            if self._hrows is None:
                # each row's pointer moves up by the entries added before it (counted per
                # row, O(rows + added): a search of every row among them took 10x more)
                shift = np.zeros(self.nrows + 1, dtype=np.int64)
                np.cumsum(np.bincount(added_rows, minlength=self.nrows), out=shift[1:])
                self._ptr = self._ptr + shift
            else:
                self._hrows, self._ptr = _compress(*_hyper_inserted(
                    self._hrows, self._ptr, added_rows), self.nrows)
            self._keys, self._rows = (base, where, added), None
        self._pending = self._iso = self._base_derived = None
        self._rewritten = True

    def holds(self, keys, nonzero=False):
        """Whether each of the sorted local ``keys`` is an entry (``nonzero``: one whose value
        is not zero), read from a bitmap's flags at those positions, O(len(keys)); None for
        storage by rows, which a caller searches its own way."""
        self.settle()
        if self._bitmap is None:
            return None
        hit = self._bitmap.present[keys]
        return hit & (self._bitmap.dense[keys] != 0) if nonzero else hit

    def by_rows(self):
        """The storage by rows: (row ids or None, pointers, columns, values)."""
        self._ready()
        return self._hrows, self._ptr, self._cols, self._values

    def by_cols(self):
        """The storage by columns, made on first use: (column ids or None, pointers, rows,
        values), hypersparse by the same rule as the rows."""
        if self.symmetric:
            return self.by_rows()
        if self._csc is None:
            if self.hrows is None and not _is_hyper(self.ncols, self.nvals):
                self._csc = (None, *self._plain_csc())
            else:
                # Few entries for the columns: a stable sort of the columns, O(nvals log
                # nvals), with no array of the columns' length.
                order = np.argsort(self.cols, kind="stable")
                ids, ptr = _by_runs(self.cols[order], self.ncols)
                rows = self._rows if self._rows is not None else self._expand_rows()
                self._csc = (ids, ptr, rows[order], self.values_at(order))
        return self._csc

    def _plain_csc(self):
        from scipy.sparse import csr_array

        # scipy's compiled CSR -> CSC conversion of the entry numbers gives the column-major
        # order in O(nvals + ncols), where a sort would cost O(nvals log nvals).
        numbers = np.arange(len(self.cols), dtype=np.int64)
        csc = csr_array((numbers, self.cols, self.ptr),
                        shape=(self.nrows, self.ncols)).tocsc()
        order = csc.data
        # The rows in column order, without keeping the row of every entry on the block.
        rows = self._rows if self._rows is not None else self._expand_rows()
        return csc.indptr.astype(np.int64), rows[order], self.values_at(order)

    def pointers(self, by):
        """The pointers alone by "rows" or "cols": (ids or None, pointers), without building
        the storage by columns (the column degrees, for the push/pull measure)."""
        if by == "rows" or self.symmetric:
            return self.hrows, self.ptr
        if self._csc is not None:
            return self._csc[:2]
        if self._col_pointers is None:
            if self.hrows is None and not _is_hyper(self.ncols, self.nvals):
                ptr = np.zeros(self.ncols + 1, dtype=np.int64)
                np.cumsum(np.bincount(self.cols, minlength=self.ncols), out=ptr[1:])
                self._col_pointers = None, ptr
            else:
                self._col_pointers = _by_runs(np.sort(self.cols), self.ncols)
        return self._col_pointers

    @property
    def csr(self):
        """The plain CSR (pointers expanded for a hypersparse block: O(rows))."""
        if self.hrows is None:
            return self.ptr, self.cols, self.values
        return _plain(self.nrows, self.hrows, self.ptr), self.cols, self.values

    @property
    def csc_ptr(self):
        """The plain column pointers alone (column degrees), without building the CSC."""
        ids, ptr = self.pointers("cols")
        return ptr if ids is None else _plain(self.ncols, ids, ptr)

    @property
    def has_csc(self):
        return self.symmetric or self._csc is not None

    @property
    def csc(self):
        """The plain CSC (pointers expanded when hypersparse: O(columns))."""
        if self.symmetric:
            return self.csr
        ids, ptr, rows, vals = self.by_cols()
        return (ptr if ids is None else _plain(self.ncols, ids, ptr)), rows, vals

    def scipy_csr(self, orient="mxv"):
        """The block as a scipy CSR whose rows are the product's outputs: the block itself for
        "mxv", its transpose (the CSC arrays read as a CSR) for "vxm", so scipy's matvec
        gathers along rows in both orientations."""
        if orient not in self._scipy:
            from scipy.sparse import csr_array

            ptr, ind, val = self.csr if orient == "mxv" else self.csc
            shape = (self.nrows, self.ncols) if orient == "mxv" else (self.ncols, self.nrows)
            # scipy's kernels take contiguous data: an iso block's value is spread out here.
            self._scipy[orient] = csr_array((np.ascontiguousarray(val), ind, ptr), shape=shape)
        return self._scipy[orient]

    def scipy_pattern(self, orient, dtype=np.int32):
        """The block's structure as a CSR of ones of ``dtype``, oriented as ``scipy_csr``. The
        ones take the vector's type: scipy would otherwise cast the whole matrix every call."""
        key = (orient, np.dtype(dtype))
        if key not in self._pattern:
            from scipy.sparse import csr_array

            mat = self.scipy_csr(orient)
            self._pattern[key] = csr_array(
                (np.ones(len(mat.indices), dtype=dtype), mat.indices, mat.indptr),
                shape=mat.shape)
        return self._pattern[key]

    def arrays(self):
        """The numpy arrays this block holds, by part: its entries ("csr", with a hypersparse
        block's row ids; an iso block's one value; or "bitmap"), and what was derived from them
        on first use: the row and the key of every entry ("rows"), the storage by columns
        ("csc"), scipy's views ("scipy") and numpy arrays in ``derived`` (a bitmap's CSR, the
        degrees behind the push/pull choice). A backend's own copies are its to count
        (``backends.held_bytes``)."""
        self.settle()
        bitmap = []
        if self._bitmap is not None:
            iso = self._bitmap.is_iso
            bitmap = [self._bitmap.present, self._bitmap.dense[:1] if iso else self._bitmap.dense]
            values = self._values
            csr, derived = [], [self._ptr, self._cols,
                                values[:1] if iso and values is not None else values]
        else:
            values = self.values[:1] if self.is_iso else self.values
            csr, derived = [self.hrows, self.ptr, self.cols, values], []
        parts = {"csr": csr, "bitmap": bitmap,
                 "rows": [self._rows, self._keys if type(self._keys) is not tuple else None],
                 "csc": [*(self._col_pointers or ()), *(self._csc or ())], "scipy": [],
                 "derived": derived}
        for mat in (*self._scipy.values(), *self._pattern.values()):
            parts["scipy"] += [mat.indptr, mat.indices, mat.data]
        def found(value):
            if isinstance(value, np.ndarray):
                return [value]
            return [a for v in value for a in found(v)] if isinstance(value, tuple) else []

        for value in self.derived.values():
            parts["derived"] += found(value)
        return {part: [a for a in arrays if a is not None] for part, arrays in parts.items()}

    def global_coo(self, row_lo, col_lo):
        return self.rows + row_lo, self.cols + col_lo, self.values


class BlockMask(NamedTuple):
    """A Matrix mask as a local product sees it: the mask's block, aligned with the output's."""

    block: Block
    structure: bool
    complement: bool

    def keys(self):
        """The sorted keys of the mask's entries: all of them for a structural mask, the
        nonzero ones for a value mask (a complemented mask stops these, a plain one passes
        them)."""
        mkeys = self.block.keys()
        return mkeys if self.structure else mkeys[self.block.values != 0]

    def allows(self, keys, mask_keys=None):
        """Whether each local entry key (row * ncols + col, sorted) passes the mask;
        ``mask_keys``: ``keys()`` where a caller holds them already (on a GPU). A bitmap's
        flags are read at the keys, O(len(keys))."""
        hit = None if mask_keys is not None else \
            self.block.holds(keys, nonzero=not self.structure)
        if hit is None:
            hit = sorted_isin(keys, self.keys() if mask_keys is None else mask_keys)
        return ~hit if self.complement else hit
