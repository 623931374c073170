"""One rank's block of a Matrix: its entries by rows, with other views made on first use.

A block is held as CSR (``ptr`` has a pointer per row) or, when few of its rows have entries,
as hypersparse DCSR (``hrows``: the sorted rows that have entries; ``ptr``: a pointer per
such row), as SuiteSparse and CombBLAS do. On a large grid most rows of a block are empty (at
Graph 500 scale 30 on 64 x 64 ranks, 2^24 rows for ~4M entries), and a matrix may be declared
up to 2^60 x 2^60: the DCSR keeps the block's memory O(entries) whatever its dimensions.

A block never changes once made; an operation makes a new one. So blocks may share arrays
(``apply`` keeps the structure of its input, a copy keeps everything) and what is derived from
the entries (the COO rows, the CSC, scipy and SuiteSparse copies, degrees) is cached for the
block's life.

Readers that walk the storage take ``by_rows`` / ``by_cols``: (ids, pointers, indices,
values), ids None for the plain form. ``csr`` and ``csc`` give the plain form of either,
expanding a hypersparse block's pointers: O(rows), for readers whose work is that size anyway.
"""

from typing import NamedTuple

import numpy as np

from ..exceptions import OutOfMemory
from .keys import block_keys, key_rows_cols, keys_fit, run_starts, sorted_isin

__all__ = ["HYPER_SWITCH", "Block", "BlockMask", "index_bytes", "row_pointers"]

# A block whose rows with entries are fewer than this share of its rows is hypersparse. The
# hyperlist costs 2 words a nonempty row, plain pointers 1 word a row: below 1/4 the plain
# ones would take over 4 words a nonempty row. SuiteSparse switches at 1/16, for speed: a
# push finds each frontier row by binary search in the hyperlist. Measured on one block of
# R-MAT 18 (numpy push, 30% of its rows in the frontier), 16x16 grid: 158 us plain, 214 us
# hypersparse; 64x64 grid (16% of rows used): 28 against 37 us, and the pulls and
# SuiteSparse's kernels equal or faster hypersparse. bench_hypersparse.py has the bytes.
HYPER_SWITCH = 1 / 4


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
        self.ptr, self.cols, self.values = ptr, cols, values
        self.hrows = hrows
        # Set by the constructors that made the arrays for this block alone, until another
        # block shares them: a backend may then take them over (``backends.adopt``).
        self.sole = sole
        self._rows = rows
        # Set by a product that took the output's mask in: its entries are all allowed.
        self.within_mask = within_mask
        # Set by a one-rank matrix known to equal its transpose (Matrix.mark_symmetric): the
        # CSR is also the CSC, so no copy by columns is made (a fact of the entries).
        self.symmetric = False
        # The storage by columns (ids, ptr, rows, values), and its pointers alone (ids, ptr).
        self._csc = self._col_pointers = None
        self._scipy, self._pattern = {}, {}
        # What is derived from the entries on first use and kept while the block lives: each
        # backend's own copy of it, the degrees behind the push/pull choice.
        self.derived = {}

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
    def from_keys(cls, nrows, ncols, keys, values):
        """From sorted unique keys ``row * ncols + col`` (``keys.block_keys``)."""
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
        cols = keys % width
        # The rows are not kept: most blocks are only ever read by rows.
        return cls(nrows, ncols, ptr, cols, values, hrows=ids, sole=True)

    def with_values(self, values):
        """The same structure (shared, not copied) with other values."""
        self.sole = False
        return Block(self.nrows, self.ncols, self.ptr, self.cols, values, hrows=self.hrows,
                     rows=self._rows, within_mask=self.within_mask)

    def shares_structure(self, other):
        """Whether ``other`` has these very entries (the same arrays, not equal ones): a block
        and its copies, what ``apply`` made of it, or a symmetric matrix and its transpose."""
        return self.ptr is other.ptr and self.cols is other.cols

    def select(self, keep):
        """A new block of the entries where ``keep`` is True."""
        pos = np.flatnonzero(keep)
        ptr, ids = np.searchsorted(pos, self.ptr), self.hrows
        if ids is not None:
            # the rows left without entries leave the hypersparse list
            kept = np.flatnonzero(np.diff(ptr))
            ids, ptr = ids[kept], np.append(ptr[kept], ptr[-1])
        return Block(self.nrows, self.ncols, ptr, self.cols[pos], self.values_at(pos),
                     hrows=ids, sole=True)

    @property
    def is_iso(self):
        """Whether one value stands for every entry (a broadcast array, no array of values)."""
        return self.values.strides == (0,)

    @property
    def is_hyper(self):
        return self.hrows is not None

    def values_at(self, pos):
        """The values of the entries at ``pos``, still one broadcast value for an iso block."""
        if self.is_iso:
            return np.broadcast_to(self.values[:1], (len(pos),))
        return self.values[pos]

    @property
    def nvals(self):
        return len(self.values)

    @property
    def rows(self):
        if self._rows is None:
            self._rows = self._expand_rows()
        return self._rows

    def _expand_rows(self):
        ids = self.hrows if self.hrows is not None else np.arange(self.nrows, dtype=np.int64)
        return np.repeat(ids, np.diff(self.ptr))

    def keys(self):
        return block_keys(self.rows, self.cols, self.nrows, self.ncols)

    def by_rows(self):
        """The storage by rows: (row ids or None, pointers, columns, values)."""
        return self.hrows, self.ptr, self.cols, self.values

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
        block's row ids; an iso block's one value), and what was derived from them on first
        use: the row of every entry ("rows"), the storage by columns ("csc"), scipy's views
        ("scipy") and numpy arrays in ``derived`` (the degrees behind the push/pull choice). A
        backend's own copies are its to count (``backends.held_bytes``)."""
        values = self.values[:1] if self.is_iso else self.values
        parts = {"csr": [self.hrows, self.ptr, self.cols, values], "rows": [self._rows],
                 "csc": [*(self._col_pointers or ()), *(self._csc or ())], "scipy": [],
                 "derived": []}
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
        ``mask_keys``: ``keys()`` where a caller holds them already (on a GPU)."""
        hit = sorted_isin(keys, self.keys() if mask_keys is None else mask_keys)
        return ~hit if self.complement else hit
