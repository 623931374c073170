"""One rank's block of a Matrix: its entries as CSR, with other views made on first use.

A block never changes once made; an operation makes a new one. So blocks may share arrays
(``apply`` keeps the structure of its input, a copy keeps everything) and what is derived from
the entries (the COO rows, the CSC, scipy and SuiteSparse copies, degrees) is cached for the
block's life.
"""

from typing import NamedTuple

import numpy as np

from ..exceptions import OutOfMemory

__all__ = ["Block", "BlockMask"]


def _row_pointers(nrows):
    """Zeros for the ``nrows + 1`` row pointers of a block, or OutOfMemory that says what did
    not fit: a block keeps one pointer a row, whatever its entries."""
    try:
        return np.zeros(nrows + 1, dtype=np.int64)
    except MemoryError:
        raise OutOfMemory(f"a block of {nrows:,} rows needs {8 * (nrows + 1):,} bytes of row "
                          "pointers on this rank, more than it can allocate") from None


class Block:
    """A local block: unique entries in row-major order, held as CSR (``ptr``, ``cols``,
    ``values``). The row of every entry (``rows``), the CSC and the scipy views are made on
    first use."""

    def __init__(self, nrows, ncols, ptr, cols, values, *, rows=None, within_mask=False,
                 sole=False):
        self.nrows, self.ncols = nrows, ncols
        self.ptr, self.cols, self.values = ptr, cols, values
        # Set by the constructors that made the arrays for this block alone, until another
        # block shares them: a backend may then take them over (``backends.adopt``).
        self.sole = sole
        self._rows = rows
        # Set by a product that took the output's mask in: its entries are all allowed.
        self.within_mask = within_mask
        # Set by a one-rank matrix known to equal its transpose (Matrix.mark_symmetric): the
        # CSR is also the CSC, so no copy by columns is made (a fact of the entries).
        self.symmetric = False
        self._csc = self._csc_ptr = None
        self._scipy, self._pattern = {}, {}
        # What is derived from the entries on first use and kept while the block lives: each
        # backend's own copy of it, the degrees behind the push/pull choice.
        self.derived = {}

    @classmethod
    def empty(cls, nrows, ncols, dtype):
        return cls(nrows, ncols, _row_pointers(nrows), np.empty(0, dtype=np.int64),
                   np.empty(0, dtype=dtype))

    @classmethod
    def from_keys(cls, nrows, ncols, keys, values):
        """From sorted unique keys ``row * ncols + col``."""
        width = max(ncols, 1)
        if len(keys) > 4 * nrows:
            # Each row's first entry by binary search in the sorted keys: no array of the
            # entries' rows beside the keys, so the columns are the one array of their size
            # made now (a build's high-water mark). On a block with few entries a row, the
            # rows counted cost less (7M entries: 24 ms either way; 1,000 entries of 262,144
            # rows: 3.2 ms searched, 0.2 ms counted).
            ptr = np.searchsorted(keys, np.arange(nrows + 1, dtype=np.int64) * width)
        else:
            ptr = _row_pointers(nrows)
            np.cumsum(np.bincount(keys // width, minlength=nrows), out=ptr[1:])
        cols = keys % width
        # The rows are not kept: most blocks are only ever read as CSR.
        return cls(nrows, ncols, ptr, cols, values, sole=True)

    def with_values(self, values):
        """The same structure (shared, not copied) with other values."""
        self.sole = False
        return Block(self.nrows, self.ncols, self.ptr, self.cols, values, rows=self._rows,
                     within_mask=self.within_mask)

    def shares_structure(self, other):
        """Whether ``other`` has these very entries (the same arrays, not equal ones): a block
        and its copies, what ``apply`` made of it, or a symmetric matrix and its transpose."""
        return self.ptr is other.ptr and self.cols is other.cols

    def select(self, keep):
        """A new block of the entries where ``keep`` is True."""
        pos = np.flatnonzero(keep)
        return Block(self.nrows, self.ncols, np.searchsorted(pos, self.ptr), self.cols[pos],
                     self.values_at(pos), sole=True)

    @property
    def is_iso(self):
        """Whether one value stands for every entry (a broadcast array, no array of values)."""
        return self.values.strides == (0,)

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
        return np.repeat(np.arange(self.nrows, dtype=np.int64), np.diff(self.ptr))

    def keys(self):
        return self.rows * self.ncols + self.cols

    @property
    def csr(self):
        return self.ptr, self.cols, self.values

    @property
    def csc_ptr(self):
        """The CSC column pointers alone (column degrees), without building the CSC."""
        if self.symmetric:
            return self.ptr
        if self._csc is not None:
            return self._csc[0]
        if self._csc_ptr is None:
            self._csc_ptr = np.zeros(self.ncols + 1, dtype=np.int64)
            np.cumsum(np.bincount(self.cols, minlength=self.ncols), out=self._csc_ptr[1:])
        return self._csc_ptr

    @property
    def has_csc(self):
        return self.symmetric or self._csc is not None

    @property
    def csc(self):
        if self.symmetric:
            return self.csr
        if self._csc is None:
            from scipy.sparse import csr_array

            # scipy's compiled CSR -> CSC conversion of the entry numbers gives the column-major
            # order in O(nvals + ncols), where a sort would cost O(nvals log nvals).
            numbers = np.arange(len(self.cols), dtype=np.int64)
            csc = csr_array((numbers, self.cols, self.ptr),
                            shape=(self.nrows, self.ncols)).tocsc()
            order = csc.data
            # The rows in column order, without keeping the row of every entry on the block.
            rows = self._rows if self._rows is not None else self._expand_rows()
            self._csc = (csc.indptr.astype(np.int64), rows[order], self.values_at(order))
        return self._csc

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
        """The numpy arrays this block holds, by part: its entries ("csr"; an iso block's one
        value), and what was derived from them on first use: the row of every entry ("rows"),
        the CSC ("csc"), scipy's views ("scipy") and numpy arrays in ``derived`` (the degrees
        behind the push/pull choice). A backend's own copies are its to count
        (``backends.held_bytes``)."""
        values = self.values[:1] if self.is_iso else self.values
        parts = {"csr": [self.ptr, self.cols, values], "rows": [self._rows],
                 "csc": [self._csc_ptr, *(self._csc or ())], "scipy": [], "derived": []}
        for mat in (*self._scipy.values(), *self._pattern.values()):
            parts["scipy"] += [mat.indptr, mat.indices, mat.data]
        for value in self.derived.values():
            parts["derived"] += [a for a in (value if isinstance(value, tuple) else (value,))
                                 if isinstance(a, np.ndarray)]
        return {part: [a for a in arrays if a is not None] for part, arrays in parts.items()}

    def global_coo(self, row_lo, col_lo):
        return self.rows + row_lo, self.cols + col_lo, self.values


class BlockMask(NamedTuple):
    """A Matrix mask as a local product sees it: the mask's block, aligned with the output's."""

    block: Block
    structure: bool
    complement: bool

    def allows(self, keys):
        """Whether each local entry key (row * ncols + col, sorted) passes the mask."""
        mkeys = self.block.keys()
        if not self.structure:
            mkeys = mkeys[self.block.values != 0]
        hit = np.zeros(len(keys), dtype=bool)
        if len(mkeys):
            pos = np.clip(np.searchsorted(mkeys, keys), 0, len(mkeys) - 1)
            hit = mkeys[pos] == keys
        return ~hit if self.complement else hit
